// No-op hints first (v_nop, v_pipeflush, v_clrexcp, s_version); then VGPR-indexed moves:
// M0 (or its two 10-bit fields) offsets the source, the destination or both; a swap of two
// indexed registers; an index computed from data (the same in every lane of the wave); and
// partial EXEC. out[64 lane + k].
// Code only: the test wraps it in a kernel after a common prologue (`asm_kernel` in
// tests/corpus.rs).
    v_nop
    v_pipeflush
    v_clrexcp
    s_version 0x2006
    v_mov_b32 v8, v1
    v_mov_b32 v9, v2
    v_mov_b32 v10, v3
    v_xor_b32 v11, v1, v2
    s_mov_b32 m0, 2
    v_movrels_b32 v12, v8
    global_store_dword v5, v12, s[2:3] offset:0
    s_mov_b32 m0, 1
    v_movreld_b32 v8, v3
    global_store_dword v5, v9, s[2:3] offset:4
    v_movrelsd_b32 v12, v10
    global_store_dword v5, v13, s[2:3] offset:8
    s_mov_b32 m0, 0x00020001
    v_movrelsd_2_b32 v8, v8
    global_store_dword v5, v10, s[2:3] offset:12
    s_mov_b32 m0, 0x00030000
    v_swaprel_b32 v8, v8
    global_store_dword v5, v8, s[2:3] offset:16
    global_store_dword v5, v11, s[2:3] offset:20
    v_readfirstlane_b32 s10, v1
    s_and_b32 m0, s10, 3
    s_mov_b32 s11, exec_lo
    s_mov_b32 exec_lo, 0x5a5a5a5a
    v_movrels_b32 v12, v8
    s_mov_b32 exec_lo, s11
    global_store_dword v5, v12, s[2:3] offset:24
    s_endpgm
