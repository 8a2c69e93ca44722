// The SAD family (v_qsad_pk_u16_u8, v_mqsad_pk_u16_u8, v_mqsad_u32_u8) and
// v_pk_fmac_f16 on random inputs (f16 halves of moderate size, so products and sums are
// neither all overflow nor all zero). One result per dword: out[64 lane + k].
// Built for gfx1030 and, as gfx11_sad_and_pk_fmac, for gfx1100.
// Code only: the test wraps it in a kernel after a common prologue (`asm_kernel` in
// tests/corpus.rs).
    v_xor_b32 v4, v1, v3
    v_bfrev_b32 v12, v3
    v_mov_b32 v13, v4
    v_qsad_pk_u16_u8 v[10:11], v[1:2], v3, v[12:13]
    global_store_dwordx2 v5, v[10:11], s[2:3] offset:0
    v_and_b32 v9, 0xff00ff0f, v3
    v_mqsad_pk_u16_u8 v[10:11], v[1:2], v9, v[12:13]
    global_store_dwordx2 v5, v[10:11], s[2:3] offset:8
    v_mov_b32 v14, v1
    v_mov_b32 v15, v2
    v_mqsad_u32_u8 v[10:13], v[1:2], v9, v[12:15]
    global_store_dwordx4 v5, v[10:13], s[2:3] offset:16
    v_mov_b32 v10, v4
    v_and_b32 v11, 0x3bff3bff, v1
    v_and_b32 v12, 0xbbffbbff, v2
    v_pk_fmac_f16 v10, v11, v12
    global_store_dword v5, v10, s[2:3] offset:32
    s_endpgm
