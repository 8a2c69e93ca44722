// More operations clang rarely emits: integer dot products of signed and unsigned bytes and
// nibbles, the legacy fma (a zero factor gives S2 + 0 even against infinity or NaN), f64 fract
// and square root. Inputs are spread over all bits (NaNs, infinities, negatives among them) and
// a quarter of the factors are zero (with -0 addends there). The recompiler's results are compared with the emulator's.
// Code only: the test wraps it in a kernel, after a common prologue (see `asm_kernel` in
// tests/corpus.rs).
    v_cmp_gt_u32_e32 vcc_lo, 0x40000000, v1
    v_cndmask_b32_e64 v7, v1, 0, vcc_lo
    v_cndmask_b32_e64 v9, v3, 0x80000000, vcc_lo
    v_dot4_i32_i8 v10, v1, v2, v3
    global_store_dword v5, v10, s[2:3]
    v_dot8_i32_i4 v10, v1, v2, v3
    global_store_dword v5, v10, s[2:3] offset:4
    v_dot8_u32_u4 v10, v1, v2, v3
    global_store_dword v5, v10, s[2:3] offset:8
    v_fma_legacy_f32 v10, v7, v2, v9
    global_store_dword v5, v10, s[2:3] offset:12
    v_mov_b32 v10, v3
    v_fmac_legacy_f32 v10, v2, v7
    global_store_dword v5, v10, s[2:3] offset:16
    v_fract_f64 v[10:11], v[1:2]
    global_store_dword v5, v10, s[2:3] offset:20
    global_store_dword v5, v11, s[2:3] offset:24
    v_sqrt_f64 v[10:11], v[1:2]
    global_store_dword v5, v10, s[2:3] offset:28
    global_store_dword v5, v11, s[2:3] offset:32
    v_and_b32 v8, 0x3fffffff, v2
    v_sqrt_f64 v[10:11], v[7:8]
    global_store_dword v5, v10, s[2:3] offset:36
    global_store_dword v5, v11, s[2:3] offset:40
    s_endpgm
