// After the prologue's s_load, the argument pointer's SGPRs (s[0:1]) hold the `in` buffer's
// address: a scalar load through them reads that buffer, not the argument segment. The
// recompiler loads arguments unchecked only where no instruction on the way has written that
// pair, so this load must keep its check and read in[1] (taken for an argument load at offset
// 4, it would read the high half of `in`'s address instead).
// Code only: the test wraps it in a kernel, after a common prologue (see `asm_kernel` in
// tests/corpus.rs).
    s_load_dword s4, s[0:1], 0x4
    s_waitcnt lgkmcnt(0)
    v_add_nc_u32 v1, s4, v1
    // And in a later block, reached only through the one that wrote the pair.
    s_cmp_eq_u32 s4, 0
    s_cbranch_scc1 skip
    s_load_dword s5, s[0:1], 0x8
    s_waitcnt lgkmcnt(0)
    v_add_nc_u32 v1, s5, v1
skip:
    global_store_dword v5, v1, s[2:3]
    s_endpgm
