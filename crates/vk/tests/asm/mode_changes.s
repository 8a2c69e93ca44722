// Float mode changes the recompiler refuses (it keeps denormals and rounds to nearest even):
// flushing denormals, rounding toward zero; and a hardware register the kernel both writes
// and reads. Each is reported with its address and text (see `mode_changes_are_refused`).
// Code only: the test wraps it in a kernel, after a common prologue (see `asm_kernel` in
// tests/corpus.rs).
    s_denorm_mode 0
    s_round_mode 3
    s_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS), 5
    s_getreg_b32 s8, hwreg(HW_REG_TRAPSTS)
    s_denorm_mode 15
    s_endpgm
