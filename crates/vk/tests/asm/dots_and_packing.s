// Dot products (VOP3P, and the accumulating VOP2 forms with DPP), packing conversions in
// SDWA and DPP forms and f16 fma with a literal (v_fmamk/fmaak_f16), on whole random words
// and on moderate float values (an arithmetic NaN's payload differs between devices). One
// result per operation: out[64 lane + k]. The recompiler's results are compared with the
// emulator's.
// Code only: the test wraps it in a kernel after a common prologue (`asm_kernel` in
// tests/corpus.rs).
    v_xor_b32 v4, v1, v3
    v_cvt_f32_i32 v7, v2
    v_mul_f32 v7, 0x38000000, v7
    v_cvt_f16_f32 v7, v7
    v_cvt_f32_i32 v8, v3
    v_mul_f32 v8, 0x38000000, v8
    v_cvt_f16_f32 v8, v8
    v_pack_b32_f16 v7, v7, v8
    v_pack_b32_f16 v8, v8, v7
    v_dot2_u32_u16 v10, v1, v2, v3
    global_store_dword v5, v10, s[2:3] offset:0
    v_dot2_i32_i16 v10, v1, v2, v3
    global_store_dword v5, v10, s[2:3] offset:4
    v_dot4_i32_i8 v10, v1, v2, v3
    global_store_dword v5, v10, s[2:3] offset:8
    v_dot8_u32_u4 v10, v1, v2, v3
    global_store_dword v5, v10, s[2:3] offset:12
    v_cvt_f32_i32 v9, v1
    v_mul_f32 v9, 0x30000000, v9
    v_dot2_f32_f16 v10, v7, v8, v9
    global_store_dword v5, v10, s[2:3] offset:16
    v_mov_b32 v10, v3
    v_dot4c_i32_i8_dpp v10, v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
    global_store_dword v5, v10, s[2:3] offset:20
    v_mov_b32 v10, 0x3f800000
    v_dot2c_f32_f16_dpp v10, v7, v8 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
    global_store_dword v5, v10, s[2:3] offset:24
    v_mov_b32 v10, v3
    v_sat_pk_u8_i16_sdwa v10, v1 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD
    global_store_dword v5, v10, s[2:3] offset:28
    v_mov_b32 v10, v3
    v_cvt_norm_i16_f16_sdwa v10, v7 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1
    global_store_dword v5, v10, s[2:3] offset:32
    v_cvt_pknorm_u16_f16 v10, v7, -v8
    global_store_dword v5, v10, s[2:3] offset:36
    v_cvt_pk_u8_f32 v10, v8, 2, v3
    global_store_dword v5, v10, s[2:3] offset:40
    v_mov_b32 v10, v4
    v_fmamk_f16 v10, v7, 0x3e00, v8
    global_store_dword v5, v10, s[2:3] offset:44
    v_mov_b32 v10, v4
    v_fmaak_f16 v10, v7, v8, 0xc100
    global_store_dword v5, v10, s[2:3] offset:48
    s_endpgm
