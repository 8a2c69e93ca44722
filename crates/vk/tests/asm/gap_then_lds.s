// A load from an unmapped gap just past the output buffer (256 KiB), then an LDS read out of
// bounds, in one block: the emulator faults at the load, and so must the recompiled kernel's
// error say, though its block runs on to the LDS read (which faults too). Code only (see `asm_kernel` in tests/corpus.rs).
    s_add_u32 s4, s2, 0x40040
    s_addc_u32 s5, s3, 0
    v_mov_b32 v9, 0
    global_load_dword v8, v9, s[4:5]
    v_mov_b32 v9, 0x2000
    ds_read_b32 v10, v9
    s_waitcnt vmcnt(0) lgkmcnt(0)
    global_store_dword v5, v8, s[2:3]
    s_endpgm
