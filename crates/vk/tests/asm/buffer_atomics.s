// MUBUF atomics through a buffer resource built here (base = the `in` buffer, 1400 bytes, no
// stride): each of the 64 work-items works on its own dword or qword of five regions, returning the old values
// (glc) to `out`; the cmpswap region runs past the buffer's end, so its last lanes are dropped
// and read 0. The recompiler's results are compared with the emulator's.
// Code only: the test wraps it in a kernel, after a common prologue (see `asm_kernel` in
// tests/corpus.rs).
    v_lshlrev_b32 v1, 2, v0
    v_lshlrev_b32 v10, 3, v0
    v_mul_u32_u24 v11, 20, v0
    s_waitcnt lgkmcnt(0)
    s_mov_b32 s4, s0
    s_and_b32 s5, s1, 0xffff
    s_movk_i32 s6, 0x578
    s_mov_b32 s7, 0
    v_mul_lo_u32 v2, v0, 0x9e3779b1
    v_add_nc_u32 v3, 0x7ffffff0, v0
    v_mov_b32 v8, v2
    v_mov_b32 v9, v0
    v_mov_b32 v4, 7
    v_mov_b32 v5, 0
    v_mov_b32 v6, 0x55
    buffer_atomic_add v2, v1, s[4:7], 0 offen glc
    buffer_atomic_smax v3, v1, s[4:7], 0 offen offset:256 glc
    buffer_atomic_add_x2 v[8:9], v10, s[4:7], 0 offen offset:512 glc
    buffer_atomic_xor v6, v1, s[4:7], 0 offen offset:1024
    buffer_atomic_cmpswap v[4:5], v1, s[4:7], 0 offen offset:1280 glc
    s_waitcnt vmcnt(0)
    global_store_dword v11, v2, s[2:3]
    global_store_dword v11, v3, s[2:3] offset:4
    global_store_dword v11, v8, s[2:3] offset:8
    global_store_dword v11, v9, s[2:3] offset:12
    global_store_dword v11, v4, s[2:3] offset:16
    s_endpgm
