// gfx11: DPP in VOP3 encodings (three sources, carry-out to an SGPR, abs/neg, op_sel on
// 16-bit halves) and on compares (VOPC and VOP3, v_cmpx, class tests, DPP8 with fetch
// inactive), on integers and on moderate floats. One result per operation: out[64 lane + k];
// a mask result is stored as each lane sees it. Last, the dual-issue v_dual_dot2acc_f32_f16 and v_pk_fmac_f16 with DPP.
// Code only: the test wraps it in a gfx1100 kernel after a common prologue (`asm_kernel` in
// tests/corpus.rs).
    v_xor_b32 v4, v1, v3
    v_cvt_f32_i32 v7, v2
    v_mul_f32 v7, 0x30000000, v7
    v_cvt_f32_i32 v8, v3
    v_mul_f32 v8, 0x30000000, v8
    v_mov_b32 v10, v4
    v_add3_u32_e64_dpp v10, v1, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
    global_store_dword v5, v10, s[2:3] offset:0
    v_mov_b32 v10, v4
    v_add_nc_u32_e64_dpp v10, v1, v2 row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
    global_store_dword v5, v10, s[2:3] offset:4
    v_mov_b32 v10, v4
    v_add_nc_u32_e64_dpp v10, v1, v2 row_shr:3 row_mask:0xf bank_mask:0xf
    global_store_dword v5, v10, s[2:3] offset:8
    v_mov_b32 v10, v4
    v_add_co_u32_e64_dpp v10, s12, v1, v2 row_shr:2 row_mask:0xf bank_mask:0xf
    v_mov_b32 v11, s12
    global_store_dword v5, v10, s[2:3] offset:12
    global_store_dword v5, v11, s[2:3] offset:16
    v_cmp_gt_u32_dpp vcc_lo, v1, v2 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf
    v_mov_b32 v11, vcc_lo
    global_store_dword v5, v11, s[2:3] offset:20
    v_cmp_lt_f32_e64_dpp s12, v7, v8 row_mirror row_mask:0xf bank_mask:0xf
    v_mov_b32 v11, s12
    global_store_dword v5, v11, s[2:3] offset:24
    s_mov_b32 s20, exec_lo
    v_cmpx_ne_u32_dpp v1, v2 row_ror:5 row_mask:0xf bank_mask:0xf
    s_mov_b32 s21, exec_lo
    s_mov_b32 exec_lo, s20
    v_mov_b32 v11, s21
    global_store_dword v5, v11, s[2:3] offset:28
    v_cmp_class_f32_e64_dpp s12, v7, v2 row_half_mirror row_mask:0x1 bank_mask:0xf
    v_mov_b32 v11, s12
    global_store_dword v5, v11, s[2:3] offset:32
    v_mov_b32 v10, v4
    v_add_nc_u32_e64_dpp v10, v1, v2 dpp8:[7,6,5,4,3,2,1,0]
    global_store_dword v5, v10, s[2:3] offset:36
    v_cmp_eq_u16_dpp vcc_lo, v1, v2 dpp8:[1,0,3,2,5,4,7,6] fi:1
    v_mov_b32 v11, vcc_lo
    global_store_dword v5, v11, s[2:3] offset:40
    v_cmp_gt_u32 vcc_lo, v1, v3
    v_mov_b32 v10, v4
    v_add_co_ci_u32_dpp v10, vcc_lo, v1, v2, vcc_lo quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0x3
    v_mov_b32 v11, vcc_lo
    global_store_dword v5, v10, s[2:3] offset:44
    global_store_dword v5, v11, s[2:3] offset:48
    v_mov_b32 v10, v4
    v_fma_f32_e64_dpp v10, v7, v8, v7 row_xmask:3 row_mask:0xf bank_mask:0xf
    global_store_dword v5, v10, s[2:3] offset:52
    v_mov_b32 v10, v4
    v_max_f32_e64_dpp v10, -v7, |v8| row_share:2 row_mask:0xf bank_mask:0xf
    global_store_dword v5, v10, s[2:3] offset:56
    v_mov_b32 v10, v4
    v_add_nc_u16_e64_dpp v10, v1, v2 op_sel:[1,0,1] quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf
    global_store_dword v5, v10, s[2:3] offset:60
    // Not DPP: the dual-issue dot2acc, accumulating into v10 (f16 halves of moderate size).
    v_and_b32 v11, 0x3bff3bff, v1
    v_and_b32 v12, 0xbbffbbff, v2
    v_mov_b32 v10, v7
    v_dual_dot2acc_f32_f16 v10, v11, v12 :: v_dual_mov_b32 v13, v2
    global_store_dword v5, v10, s[2:3] offset:64
    global_store_dword v5, v13, s[2:3] offset:68
    // v_pk_fmac_f16 with DPP: src0 from another lane; row_shr leaves the first lanes of each
    // row unwritten (no bound_ctrl).
    v_mov_b32 v10, v7
    v_pk_fmac_f16_dpp v10, v11, v12 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf
    global_store_dword v5, v10, s[2:3] offset:72
    v_mov_b32 v10, v7
    v_pk_fmac_f16_dpp v10, v11, v12 row_shr:2 row_mask:0xf bank_mask:0xf
    global_store_dword v5, v10, s[2:3] offset:76
    s_endpgm
