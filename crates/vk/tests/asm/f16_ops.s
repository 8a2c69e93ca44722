// f16 operations on f16 values of every kind (random bits: NaNs, infinities, denormals) and on
// moderate ones (v7, for the integer conversions), one result per operation and lane:
// out[64 lane + k], over a known high half. The recompiler's results are compared with the
// emulator's.
// Code only: the test wraps it in a kernel, after a common prologue (see `asm_kernel` in
// tests/corpus.rs).
    v_xor_b32 v4, v1, v3
    v_cvt_f32_i32 v7, v2
    v_mul_f32 v7, 0x38000000, v7
    v_cvt_f16_f32 v7, v7
    v_mov_b32 v10, v4
    v_ceil_f16 v10, v1
    global_store_dword v5, v10, s[2:3] offset:0
    v_mov_b32 v10, v4
    v_floor_f16 v10, v1
    global_store_dword v5, v10, s[2:3] offset:4
    v_mov_b32 v10, v4
    v_trunc_f16 v10, v1
    global_store_dword v5, v10, s[2:3] offset:8
    v_mov_b32 v10, v4
    v_rndne_f16 v10, v1
    global_store_dword v5, v10, s[2:3] offset:12
    v_mov_b32 v10, v4
    v_sqrt_f16 v10, v1
    global_store_dword v5, v10, s[2:3] offset:16
    v_mov_b32 v10, v4
    v_rcp_f16 v10, v1
    global_store_dword v5, v10, s[2:3] offset:20
    v_mov_b32 v10, v4
    v_rsq_f16 v10, v1
    global_store_dword v5, v10, s[2:3] offset:24
    v_mov_b32 v10, v4
    v_fract_f16 v10, v1
    global_store_dword v5, v10, s[2:3] offset:28
    v_mov_b32 v10, v4
    v_frexp_mant_f16 v10, v1
    global_store_dword v5, v10, s[2:3] offset:32
    v_mov_b32 v10, v4
    v_frexp_exp_i16_f16 v10, v1
    global_store_dword v5, v10, s[2:3] offset:36
    v_mov_b32 v10, v4
    v_ldexp_f16 v10, v1, v3
    global_store_dword v5, v10, s[2:3] offset:40
    v_mov_b32 v10, v4
    v_min3_f16 v10, v1, v2, v4
    global_store_dword v5, v10, s[2:3] offset:44
    v_mov_b32 v10, v4
    v_max3_f16 v10, v1, v2, v4
    global_store_dword v5, v10, s[2:3] offset:48
    v_mov_b32 v10, v4
    v_med3_f16 v10, v1, v2, v4
    global_store_dword v5, v10, s[2:3] offset:52
    v_mov_b32 v10, v4
    v_cvt_f16_u16 v10, v1
    global_store_dword v5, v10, s[2:3] offset:56
    v_mov_b32 v10, v4
    v_cvt_f16_i16 v10, v1
    global_store_dword v5, v10, s[2:3] offset:60
    v_mov_b32 v10, v4
    v_cvt_u16_f16 v10, v1
    global_store_dword v5, v10, s[2:3] offset:64
    v_mov_b32 v10, v4
    v_cvt_i16_f16 v10, v1
    global_store_dword v5, v10, s[2:3] offset:68
    v_mov_b32 v10, v4
    v_cvt_u16_f16 v10, v7
    global_store_dword v5, v10, s[2:3] offset:72
    v_mov_b32 v10, v4
    v_cvt_i16_f16 v10, v7
    global_store_dword v5, v10, s[2:3] offset:76
    s_endpgm
