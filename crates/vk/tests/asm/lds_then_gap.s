// `gap_then_lds.s` the other way round: the LDS read out of bounds comes first, so both the
// emulator and the recompiled kernel must name it. Code only (see `asm_kernel` in
// tests/corpus.rs).
    s_add_u32 s4, s2, 0x40040
    s_addc_u32 s5, s3, 0
    v_mov_b32 v9, 0x2000
    ds_read_b32 v10, v9
    v_mov_b32 v9, 0
    global_load_dword v8, v9, s[4:5]
    s_waitcnt vmcnt(0) lgkmcnt(0)
    global_store_dword v5, v8, s[2:3]
    s_endpgm
