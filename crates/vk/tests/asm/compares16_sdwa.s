// 16-bit compares (f16, i16, u16; e32 and e64, op_sel not available on gfx10 VOPC) and SDWA
// compares (byte and word selects, sign extension, an SGPR destination, cmpx): each result mask
// is stored, once per lane, to `out`. Inputs are spread over all 32 bits (f16 NaNs and
// infinities among them). The recompiler's results are compared with the emulator's.
// Code only: the test wraps it in a kernel, after a common prologue (see `asm_kernel` in
// tests/corpus.rs).
    v_and_b32 v3, 0xff00ff, v1
    v_cmp_lt_f16_e32 vcc_lo, v1, v2
    v_mov_b32 v10, vcc_lo
    v_cmp_nge_f16_e64 s10, v2, v1
    v_mov_b32 v11, s10
    v_cmp_o_f16_e32 vcc_lo, v1, v2
    v_mov_b32 v12, vcc_lo
    v_cmp_gt_i16_e32 vcc_lo, v1, v2
    v_mov_b32 v13, vcc_lo
    v_cmp_le_u16_e64 s11, v1, v2
    v_mov_b32 v14, s11
    v_cmp_eq_u16_e32 vcc_lo, v3, v1
    v_mov_b32 v15, vcc_lo
    global_store_dword v5, v10, s[2:3]
    global_store_dword v5, v11, s[2:3] offset:4
    global_store_dword v5, v12, s[2:3] offset:8
    global_store_dword v5, v13, s[2:3] offset:12
    global_store_dword v5, v14, s[2:3] offset:16
    global_store_dword v5, v15, s[2:3] offset:20
    v_cmp_gt_u32_sdwa vcc_lo, v1, v2 src0_sel:BYTE_1 src1_sel:BYTE_2
    v_mov_b32 v10, vcc_lo
    v_cmp_lt_i32_sdwa s12, v1, v2 src0_sel:WORD_1 src1_sel:BYTE_0
    v_mov_b32 v11, s12
    v_cmp_eq_f32_sdwa vcc_lo, v1, v1 src0_sel:DWORD src1_sel:DWORD
    v_mov_b32 v12, vcc_lo
    v_cmp_gt_f16_sdwa s13, v1, v2 src0_sel:WORD_1 src1_sel:WORD_0
    v_mov_b32 v13, s13
    v_cmp_class_f32_sdwa vcc_lo, v1, v2 src0_sel:DWORD src1_sel:WORD_0
    v_mov_b32 v14, vcc_lo
    s_mov_b32 s20, exec_lo
    v_cmpx_ne_u32_sdwa v1, v2 src0_sel:BYTE_3 src1_sel:BYTE_3
    v_mov_b32 v15, exec_lo
    s_mov_b32 exec_lo, s20
    global_store_dword v5, v10, s[2:3] offset:24
    global_store_dword v5, v11, s[2:3] offset:28
    global_store_dword v5, v12, s[2:3] offset:32
    global_store_dword v5, v13, s[2:3] offset:36
    global_store_dword v5, v14, s[2:3] offset:40
    global_store_dword v5, v15, s[2:3] offset:44
    s_endpgm
