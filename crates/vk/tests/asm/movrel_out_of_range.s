// A VGPR-indexed move past v255 (M0 = 250 from v10): the emulator faults; the recompiled
// kernel must stop and say why. Code only (see `asm_kernel` in tests/corpus.rs).
    s_mov_b32 m0, 250
    v_movrels_b32 v12, v10
    global_store_dword v5, v12, s[2:3] offset:0
    s_endpgm
