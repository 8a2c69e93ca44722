// First global_store/load_dword_addtid (SADDR + offset + 4 × lane) on the start of the
// output, each wave its own 128 bytes (the per-lane results overwrite part of it later). Then
// the M0-addressed LDS forms: ds_write/read_addtid_b32 (M0[15:0] + offset + 4 × lane; each
// wave its own 128 bytes, read back shifted by a lane across the barrier), and ds_append /
// ds_consume under partial EXEC on a counter per wave (so that the waves' order does not
// matter), with the wave's counter's final value. out[64 lane + k].
// Code only: the test wraps it in a kernel after a common prologue (`asm_kernel` in
// tests/corpus.rs).
    v_readfirstlane_b32 s10, v0
    s_lshl_b32 s11, s10, 2
    s_add_u32 s14, s2, s11
    s_addc_u32 s15, s3, 0
    global_store_dword_addtid v1, s[14:15]
    s_waitcnt vmcnt(0)
    global_load_dword_addtid v16, s[14:15]
    s_waitcnt vmcnt(0)
    s_add_u32 m0, s11, 0x100
    ds_write_addtid_b32 v1 offset:16
    s_waitcnt lgkmcnt(0)
    s_barrier
    ds_read_addtid_b32 v10 offset:16
    ds_read_addtid_b32 v11 offset:12
    s_waitcnt lgkmcnt(0)
    global_store_dword v5, v10, s[2:3] offset:0
    global_store_dword v5, v11, s[2:3] offset:4
    s_lshr_b32 s12, s10, 3
    s_add_u32 m0, s12, 0x400
    s_mov_b32 s13, exec_lo
    s_mov_b32 exec_lo, 0x00ff00f7
    ds_append v12
    s_mov_b32 exec_lo, s13
    ds_append v13
    s_mov_b32 exec_lo, 0x3
    ds_consume v14 offset:0
    s_mov_b32 exec_lo, s13
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v15, s12
    ds_read_b32 v15, v15 offset:0x400
    s_waitcnt lgkmcnt(0)
    global_store_dword v5, v12, s[2:3] offset:8
    global_store_dword v5, v13, s[2:3] offset:12
    global_store_dword v5, v14, s[2:3] offset:16
    global_store_dword v5, v15, s[2:3] offset:20
    global_store_dword v5, v16, s[2:3] offset:24
    s_endpgm
