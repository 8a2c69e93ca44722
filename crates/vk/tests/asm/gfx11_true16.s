// gfx11 true16 v_mov_b16: each operand names one half of a register (v1.h is register 129 in
// the encoding); the write changes only that half. From VGPR halves, an SGPR, a literal and
// through DPP. One result per dword: out[64 lane + k].
// Code only: the test wraps it in a gfx1100 kernel after a common prologue (`asm_kernel` in
// tests/corpus.rs).
    v_mov_b32 v10, v4
    v_mov_b32 v11, v4
    v_mov_b32 v12, v4
    v_mov_b32 v13, v4
    v_mov_b32 v14, v4
    s_mov_b32 s5, 0x1beef
    v_mov_b16_e32 v10.h, v1.l
    v_mov_b16_e32 v11.l, v2.h
    v_mov_b16_e32 v12.h, s5
    v_mov_b16_e32 v13.l, 0x1234
    v_mov_b16_dpp v14.h, v3.h quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
    v_mov_b16_dpp v14.l, v2.l row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
    global_store_dwordx4 v5, v[10:13], s[2:3]
    global_store_dword v5, v14, s[2:3] offset:16
    s_endpgm
