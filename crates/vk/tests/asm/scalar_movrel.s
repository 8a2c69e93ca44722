// SGPR-indexed moves: M0 offsets the source (s_movrels), the destination (s_movreld) or both
// (s_movrelsd_2, two fields of M0); pairs; indices past s127 (a read gives 0, a write is
// dropped); an index computed from data. Every result stored from each lane: out[64 lane + k].
// Code only: the test wraps it in a kernel after a common prologue (`asm_kernel` in
// tests/corpus.rs).
    v_readfirstlane_b32 s10, v1
    v_readfirstlane_b32 s11, v2
    v_readfirstlane_b32 s12, v3
    s_mov_b32 s13, 0x12345678
    s_mov_b32 s30, 0x55aa55aa
    s_mov_b32 m0, 2
    s_movrels_b32 s20, s10
    s_movrels_b64 s[22:23], s[10:11]
    s_mov_b32 m0, 1
    s_movreld_b32 s24, s11
    s_movreld_b64 s[26:27], s[10:11]
    s_mov_b32 m0, 0x00030002
    s_movrelsd_2_b32 s10, s10
    s_mov_b32 m0, 200
    s_movrels_b32 s29, s10
    s_movreld_b32 s30, s11
    s_and_b32 m0, s11, 7
    s_movrels_b32 s31, s10
    s_mov_b32 m0, 0
    v_mov_b32 v10, s20
    global_store_dword v5, v10, s[2:3] offset:0
    v_mov_b32 v10, s22
    global_store_dword v5, v10, s[2:3] offset:4
    v_mov_b32 v10, s23
    global_store_dword v5, v10, s[2:3] offset:8
    v_mov_b32 v10, s25
    global_store_dword v5, v10, s[2:3] offset:12
    v_mov_b32 v10, s27
    global_store_dword v5, v10, s[2:3] offset:16
    v_mov_b32 v10, s28
    global_store_dword v5, v10, s[2:3] offset:20
    v_mov_b32 v10, s13
    global_store_dword v5, v10, s[2:3] offset:24
    v_mov_b32 v10, s29
    global_store_dword v5, v10, s[2:3] offset:28
    v_mov_b32 v10, s30
    global_store_dword v5, v10, s[2:3] offset:32
    v_mov_b32 v10, s31
    global_store_dword v5, v10, s[2:3] offset:36
    s_endpgm
