// 16-bit integer VALU operations (clang promotes most of them to 32 bits), one result per
// operation and lane: out[lane * 21 + k] = op_k(in[3 lane], in[3 lane + 1], in[3 lane + 2]).
// The recompiler's results are compared with the emulator's.
// Code only: the test wraps it in a kernel (see `asm_kernel` in tests/corpus.rs).
    s_load_dwordx4 s[0:3], s[0:1], 0x0
    v_mul_u32_u24 v6, 12, v0
    v_mul_u32_u24 v5, 84, v0
    s_waitcnt lgkmcnt(0)
    global_load_dword v1, v6, s[0:1]
    global_load_dword v2, v6, s[0:1] offset:4
    global_load_dword v3, v6, s[0:1] offset:8
    s_waitcnt vmcnt(0)
    // Spread the inputs over all 32 bits (made-up inputs may be small).
    v_mul_lo_u32 v1, v1, 0x9e3779b1
    v_mul_lo_u32 v2, v2, 0x85ebca6b
    v_mul_lo_u32 v3, v3, 0xc2b2ae35
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
