// A store 2^40 bytes past the output buffer, far outside the dispatch's memory: the emulator
// faults; the recompiled kernel must send it nowhere near the address (on lavapipe that would
// be the host's memory) and stop with an error. Code only (see `asm_kernel` in
// tests/corpus.rs).
    s_add_u32 s5, s3, 0x100
    s_mov_b32 s4, s2
    global_store_dword v5, v1, s[4:5]
    s_endpgm
