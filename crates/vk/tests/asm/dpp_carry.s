// DPP on the carry-in/carry-out forms: VDST where DPP writes, and VCC for every enabled lane,
// from the permuted src0 where there is one and the lane's own src0 where DPP does not write
// (row and bank masks, a missing source without bound_ctrl), as the emulator computes it.
// One result and one mask per operation: out[64 lane + k].
// Code only: the test wraps it in a kernel after a common prologue (`asm_kernel` in
// tests/corpus.rs).
    v_xor_b32 v4, v1, v3
    v_cmp_gt_u32 vcc_lo, v1, v3
    v_mov_b32 v10, v4
    v_add_co_ci_u32_dpp v10, vcc_lo, v1, v2, vcc_lo quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0x3
    v_mov_b32 v11, vcc_lo
    global_store_dword v5, v10, s[2:3] offset:0
    global_store_dword v5, v11, s[2:3] offset:4
    v_mov_b32 v10, v4
    v_sub_co_ci_u32_dpp v10, vcc_lo, v1, v2, vcc_lo row_shr:1 row_mask:0x1 bank_mask:0xf
    v_mov_b32 v11, vcc_lo
    global_store_dword v5, v10, s[2:3] offset:8
    global_store_dword v5, v11, s[2:3] offset:12
    v_mov_b32 v10, v4
    v_subrev_co_ci_u32_dpp v10, vcc_lo, v1, v2, vcc_lo row_shl:3 row_mask:0xf bank_mask:0xf bound_ctrl:0
    v_mov_b32 v11, vcc_lo
    global_store_dword v5, v10, s[2:3] offset:16
    global_store_dword v5, v11, s[2:3] offset:20
    v_mov_b32 v10, v4
    v_add_co_ci_u32_dpp v10, vcc_lo, v1, v2, vcc_lo dpp8:[7,6,5,4,3,2,1,0]
    v_mov_b32 v11, vcc_lo
    global_store_dword v5, v10, s[2:3] offset:24
    global_store_dword v5, v11, s[2:3] offset:28
    s_endpgm
