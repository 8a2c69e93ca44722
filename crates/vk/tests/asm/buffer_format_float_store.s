// A typed buffer store to an 11-bit float component (the emulator refuses it): the recompiled
// kernel must stop and say why. Code only (see `asm_kernel` in tests/corpus.rs).
    s_mov_b32 s8, s2
    s_and_b32 s9, s3, 0xffff
    s_movk_i32 s10, 0x400
    s_movk_i32 s11, 0xfac
    tbuffer_store_format_xy v[1:2], v6, s[8:11], 0 format:[BUF_FMT_11_11_10_FLOAT] offen
    s_endpgm
