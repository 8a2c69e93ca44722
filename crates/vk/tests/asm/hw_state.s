// The clock and hardware registers: mode changes that keep the kernel's float mode (denormals
// kept, round to nearest even), the clock (instructions executed, in the emulator) before and
// after a branch that only some waves take, MODE, HW_ID (the wave's index), LDS_ALLOC and
// STATUS (SCC set, then clear). The recompiler's results are compared with the emulator's.
// Code only: the test wraps it in a kernel, after a common prologue (see `asm_kernel` in
// tests/corpus.rs).
    s_denorm_mode 15
    s_round_mode 0
    s_memtime s[8:9]
    s_getreg_b32 s10, hwreg(HW_REG_MODE)
    s_getreg_b32 s11, hwreg(4)
    s_getreg_b32 s12, hwreg(HW_REG_LDS_ALLOC)
    s_cmp_eq_u32 s10, s10
    s_getreg_b32 s13, hwreg(HW_REG_STATUS)
    s_cmp_lg_u32 s11, 0
    s_cbranch_scc1 3
    s_nop 0
    s_nop 0
    s_nop 0
    s_getreg_b32 s14, hwreg(HW_REG_STATUS, 0, 1)
    s_memrealtime s[16:17]
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v10, s8
    global_store_dword v5, v10, s[2:3]
    v_mov_b32 v10, s9
    global_store_dword v5, v10, s[2:3] offset:4
    v_mov_b32 v10, s10
    global_store_dword v5, v10, s[2:3] offset:8
    v_mov_b32 v10, s11
    global_store_dword v5, v10, s[2:3] offset:12
    v_mov_b32 v10, s12
    global_store_dword v5, v10, s[2:3] offset:16
    v_mov_b32 v10, s13
    global_store_dword v5, v10, s[2:3] offset:20
    v_mov_b32 v10, s14
    global_store_dword v5, v10, s[2:3] offset:24
    v_mov_b32 v10, s16
    global_store_dword v5, v10, s[2:3] offset:28
    v_mov_b32 v10, s17
    global_store_dword v5, v10, s[2:3] offset:32
    s_endpgm
