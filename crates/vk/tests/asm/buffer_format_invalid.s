// A typed buffer load through a resource whose format number (0) is not a format, with no lane
// enabled: the emulator faults all the same; the recompiled kernel must stop and say why.
// Code only (see `asm_kernel` in tests/corpus.rs).
    s_mov_b32 s8, s0
    s_and_b32 s9, s1, 0xffff
    s_movk_i32 s10, 0x400
    s_movk_i32 s11, 0xfac
    s_mov_b32 exec_lo, 0
    buffer_load_format_x v1, v6, s[8:11], 0 offen
    s_mov_b32 exec_lo, -1
    global_store_dword v5, v1, s[2:3]
    s_endpgm
