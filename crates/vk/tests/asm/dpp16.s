// DPP on 16-bit operations (row and quad permutations, shifts with bound_ctrl, row and bank
// masks, DPP8) on moderate f16 values (an arithmetic NaN's payload differs between devices),
// one result per operation and lane: out[64 lane + k], over a known high half.
// The recompiler's results are compared with the emulator's.
// Code only: the test wraps it in a kernel, after a common prologue (see `asm_kernel` in
// tests/corpus.rs).
    v_xor_b32 v4, v1, v3
    v_cvt_f32_i32 v7, v2
    v_mul_f32 v7, 0x38000000, v7
    v_cvt_f16_f32 v7, v7
    v_cvt_f32_i32 v8, v1
    v_mul_f32 v8, 0x30000000, v8
    v_cvt_f16_f32 v8, v8
    v_and_b32 v1, 0xffff0000, v1
    v_or_b32 v1, v1, v8
    v_cvt_f32_i32 v8, v3
    v_mul_f32 v8, 0x30000000, v8
    v_cvt_f16_f32 v8, v8
    v_and_b32 v2, 0xffff0000, v2
    v_or_b32 v2, v2, v8
    v_mov_b32 v10, v4
    v_add_f16_dpp v10, v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
    global_store_dword v5, v10, s[2:3] offset:0
    v_mov_b32 v10, v4
    v_mul_f16_dpp v10, v1, v2 row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
    global_store_dword v5, v10, s[2:3] offset:4
    v_mov_b32 v10, v4
    v_ceil_f16_dpp v10, v1 row_ror:3 row_mask:0xf bank_mask:0xf
    global_store_dword v5, v10, s[2:3] offset:8
    v_mov_b32 v10, v4
    v_cvt_f16_f32_dpp v10, v3 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf
    global_store_dword v5, v10, s[2:3] offset:12
    v_mov_b32 v10, v4
    v_ldexp_f16_dpp v10, v1, v2 row_shr:2 row_mask:0xf bank_mask:0xf
    global_store_dword v5, v10, s[2:3] offset:16
    v_mov_b32 v10, v4
    v_max_f16_dpp v10, v1, v2 row_mirror row_mask:0xa bank_mask:0xf
    global_store_dword v5, v10, s[2:3] offset:20
    v_mov_b32 v10, v4
    v_sub_f16_dpp v10, v1, v2 row_half_mirror row_mask:0xf bank_mask:0x5
    global_store_dword v5, v10, s[2:3] offset:24
    v_mov_b32 v10, v4
    v_cvt_u16_f16_dpp v10, v7 quad_perm:[0,0,2,2] row_mask:0xf bank_mask:0xf
    global_store_dword v5, v10, s[2:3] offset:28
    v_mov_b32 v10, v4
    v_add_f16 v10, v1, v2 dpp8:[7,6,5,4,3,2,1,0]
    global_store_dword v5, v10, s[2:3] offset:32
    s_endpgm
