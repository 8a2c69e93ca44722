// GLOBAL atomics without a SPIR-V counterpart (the recompiler loops on compare-exchange):
// inc/dec with a bound, float min/max and compare-swap, csub. Each of the 64 work-items works on
// its own dword or qword of each region of `in`, returning the old values (glc) to `out`; one
// shared counter takes an inc from every lane without returning (its final value does not
// depend on the order). The recompiler's results are compared with the emulator's.
// Code only: the test wraps it in a kernel, after a common prologue (see `asm_kernel` in
// tests/corpus.rs).
    v_lshlrev_b32 v1, 2, v0
    v_lshlrev_b32 v12, 3, v0
    v_mul_u32_u24 v11, 36, v0
    s_waitcnt lgkmcnt(0)
    global_load_dword v2, v1, s[0:1]
    s_waitcnt vmcnt(0)
    v_mul_lo_u32 v2, v2, 0x9e3779b1
    v_and_b32 v3, 15, v2
    v_lshrrev_b32 v4, 28, v2
    v_cvt_f32_i32 v5, v2
    v_cvt_f32_u32 v6, v0
    v_mov_b32 v7, v5
    v_mov_b32 v8, v6
    v_cvt_f64_i32 v[9:10], v2
    global_atomic_inc v3, v1, v3, s[0:1] offset:256 glc
    global_atomic_dec v4, v1, v4, s[0:1] offset:512 glc
    global_atomic_fmin v5, v1, v5, s[0:1] offset:768 glc
    global_atomic_fmax v6, v1, v6, s[0:1] offset:1024 glc
    global_atomic_fcmpswap v7, v1, v[7:8], s[0:1] offset:1280 glc
    global_atomic_csub v8, v1, v2, s[0:1] offset:1536 glc
    global_atomic_fmax_x2 v[9:10], v12, v[9:10], s[0:1] offset:1792 glc
    v_mov_b32 v13, 1000
    v_mov_b32 v14, 0x960
    global_atomic_inc v14, v13, s[0:1]
    s_waitcnt vmcnt(0)
    global_store_dword v11, v3, s[2:3]
    global_store_dword v11, v4, s[2:3] offset:4
    global_store_dword v11, v5, s[2:3] offset:8
    global_store_dword v11, v6, s[2:3] offset:12
    global_store_dword v11, v7, s[2:3] offset:16
    global_store_dword v11, v8, s[2:3] offset:20
    global_store_dword v11, v9, s[2:3] offset:24
    global_store_dword v11, v10, s[2:3] offset:28
    s_endpgm
