// LDS float atomics (ds_min/max_f32/f64 and their returning forms, ds_cmpst_f32 and
// ds_cmpst_rtn_f32, ds_add_rtn_f32): LDS is filled from `in`, each of the 64 work-items then works
// on its own dword or qword, and everything comes back to `out` (old values and LDS afterwards).
// The recompiler's results are compared with the emulator's.
// Code only: the test wraps it in a kernel, after a common prologue (see `asm_kernel` in
// tests/corpus.rs).
    v_lshlrev_b32 v1, 2, v0
    v_lshlrev_b32 v12, 3, v0
    v_mul_u32_u24 v11, 32, v0
    s_waitcnt lgkmcnt(0)
    global_load_dword v2, v1, s[0:1]
    global_load_dword v3, v1, s[0:1] offset:256
    s_waitcnt vmcnt(0)
    v_mul_lo_u32 v2, v2, 0x9e3779b1
    v_mul_lo_u32 v3, v3, 0x85ebca6b
    v_cvt_f32_i32 v4, v2
    v_cvt_f32_i32 v5, v3
    ds_write_b32 v1, v4
    ds_write_b32 v1, v5 offset:256
    ds_write_b32 v1, v4 offset:512
    ds_write_b32 v1, v4 offset:768
    v_cvt_f64_i32 v[6:7], v3
    ds_write_b64 v12, v[6:7] offset:1024
    s_waitcnt lgkmcnt(0)
    ds_min_rtn_f32 v8, v1, v5
    ds_max_f32 v1, v4 offset:256
    v_cndmask_b32 v9, v4, v5, vcc_lo
    ds_cmpst_rtn_f32 v9, v1, v4, v5 offset:512
    ds_add_rtn_f32 v10, v1, v5 offset:768
    v_cvt_f64_i32 v[13:14], v2
    ds_max_rtn_f64 v[13:14], v12, v[13:14] offset:1024
    s_waitcnt lgkmcnt(0)
    ds_read_b32 v2, v1
    ds_read_b32 v3, v1 offset:256
    ds_read_b32 v4, v1 offset:512
    ds_read_b32 v5, v1 offset:768
    ds_read_b64 v[6:7], v12 offset:1024
    s_waitcnt lgkmcnt(0)
    global_store_dword v11, v8, s[2:3]
    global_store_dword v11, v9, s[2:3] offset:4
    global_store_dword v11, v10, s[2:3] offset:8
    global_store_dword v11, v13, s[2:3] offset:12
    global_store_dword v11, v2, s[2:3] offset:16
    global_store_dword v11, v3, s[2:3] offset:20
    global_store_dword v11, v4, s[2:3] offset:24
    global_store_dword v11, v6, s[2:3] offset:28
    s_endpgm
