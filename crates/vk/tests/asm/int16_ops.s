// 16-bit integer VALU operations (clang promotes most of them to 32 bits), one result per
// operation and lane: out[64 lane + k] = op_k(v1, v2, v3).
// The recompiler's results are compared with the emulator's.
// Code only: the test wraps it in a kernel, after a common prologue (see `asm_kernel` in
// tests/corpus.rs).
    v_xor_b32 v4, v1, v2
    v_mov_b32 v10, v4
    v_add_nc_u16 v10, v1, v2
    global_store_dword v5, v10, s[2:3] offset:0
    v_mov_b32 v10, v4
    v_sub_nc_u16 v10, v1, v2
    global_store_dword v5, v10, s[2:3] offset:4
    v_mov_b32 v10, v4
    v_add_nc_i16 v10, v1, v2
    global_store_dword v5, v10, s[2:3] offset:8
    v_mov_b32 v10, v4
    v_sub_nc_i16 v10, v1, v2
    global_store_dword v5, v10, s[2:3] offset:12
    v_mov_b32 v10, v4
    v_mul_lo_u16 v10, v1, v2
    global_store_dword v5, v10, s[2:3] offset:16
    v_mov_b32 v10, v4
    v_lshlrev_b16 v10, v1, v2
    global_store_dword v5, v10, s[2:3] offset:20
    v_mov_b32 v10, v4
    v_lshrrev_b16 v10, v1, v2
    global_store_dword v5, v10, s[2:3] offset:24
    v_mov_b32 v10, v4
    v_ashrrev_i16 v10, v1, v2
    global_store_dword v5, v10, s[2:3] offset:28
    v_mov_b32 v10, v4
    v_min_i16 v10, v1, v2
    global_store_dword v5, v10, s[2:3] offset:32
    v_mov_b32 v10, v4
    v_max_i16 v10, v1, v2
    global_store_dword v5, v10, s[2:3] offset:36
    v_mov_b32 v10, v4
    v_min_u16 v10, v1, v2
    global_store_dword v5, v10, s[2:3] offset:40
    v_mov_b32 v10, v4
    v_max_u16 v10, v1, v2
    global_store_dword v5, v10, s[2:3] offset:44
    v_mov_b32 v10, v4
    v_min3_i16 v10, v1, v2, v3
    global_store_dword v5, v10, s[2:3] offset:48
    v_mov_b32 v10, v4
    v_max3_i16 v10, v1, v2, v3
    global_store_dword v5, v10, s[2:3] offset:52
    v_mov_b32 v10, v4
    v_min3_u16 v10, v1, v2, v3
    global_store_dword v5, v10, s[2:3] offset:56
    v_mov_b32 v10, v4
    v_max3_u16 v10, v1, v2, v3
    global_store_dword v5, v10, s[2:3] offset:60
    v_mov_b32 v10, v4
    v_med3_i16 v10, v1, v2, v3
    global_store_dword v5, v10, s[2:3] offset:64
    v_mov_b32 v10, v4
    v_med3_u16 v10, v1, v2, v3
    global_store_dword v5, v10, s[2:3] offset:68
    v_mov_b32 v10, v4
    v_mad_u16 v10, v1, v2, v3
    global_store_dword v5, v10, s[2:3] offset:72
    v_mov_b32 v10, v4
    v_mad_i16 v10, v1, v2, v3
    global_store_dword v5, v10, s[2:3] offset:76
    v_mov_b32 v10, v4
    v_mad_u32_u16 v10, v1, v2, v3
    global_store_dword v5, v10, s[2:3] offset:80
    s_endpgm
