// s_buffer_load_* through a buffer resource built here (base = 4 bytes into `in`, 40 bytes):
// dwords past the end read 0. Every lane stores the loaded SGPRs, so `out` holds them 32 times.
// The recompiler's results are compared with the emulator's.
// Code only: the test wraps it in a kernel, after a common prologue (see `asm_kernel` in
// tests/corpus.rs).
    v_mul_u32_u24 v5, 44, v0
    s_waitcnt lgkmcnt(0)
    s_add_u32 s4, s0, 4
    s_addc_u32 s5, s1, 0
    s_and_b32 s5, s5, 0xffff
    s_mov_b32 s6, 40
    s_mov_b32 s7, 0
    s_movk_i32 s20, 0x1c
    s_buffer_load_dwordx4 s[8:11], s[4:7], 0x0
    s_buffer_load_dwordx4 s[12:15], s[4:7], 0x20
    s_buffer_load_dword s16, s[4:7], s20
    s_buffer_load_dwordx2 s[18:19], s[4:7], 0x26
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v1, s8
    global_store_dword v5, v1, s[2:3] offset:0
    v_mov_b32 v1, s9
    global_store_dword v5, v1, s[2:3] offset:4
    v_mov_b32 v1, s10
    global_store_dword v5, v1, s[2:3] offset:8
    v_mov_b32 v1, s11
    global_store_dword v5, v1, s[2:3] offset:12
    v_mov_b32 v1, s12
    global_store_dword v5, v1, s[2:3] offset:16
    v_mov_b32 v1, s13
    global_store_dword v5, v1, s[2:3] offset:20
    v_mov_b32 v1, s14
    global_store_dword v5, v1, s[2:3] offset:24
    v_mov_b32 v1, s15
    global_store_dword v5, v1, s[2:3] offset:28
    v_mov_b32 v1, s16
    global_store_dword v5, v1, s[2:3] offset:32
    v_mov_b32 v1, s18
    global_store_dword v5, v1, s[2:3] offset:36
    v_mov_b32 v1, s19
    global_store_dword v5, v1, s[2:3] offset:40
    s_endpgm
