// gfx11, wave64: v_permlane64_b32 (the two halves of the wave swapped, under a partial EXEC),
// the dot products whose signedness neg_lo chooses (v_dot4_i32_iu8, v_dot8_i32_iu4, with and
// without clamp) and the bf16 dot products (v_dot2_f32_bf16, v_dot2_bf16_bf16 with op_sel),
// on random inputs (the SAD family and v_pk_fmac_f16: sad_and_pk_fmac.s, built for gfx11 too).
// One result per dword: out[64 lane + k].
// Code only: the test wraps it in a wave64 gfx1100 kernel after a common prologue (`asm_kernel`
// in tests/corpus.rs).
    v_xor_b32 v4, v1, v3
    v_mov_b32 v10, v4
    s_mov_b64 s[12:13], exec
    v_and_b32 v11, 5, v0
    v_cmp_ne_u32 vcc, 0, v11
    s_and_b64 exec, exec, vcc
    v_permlane64_b32 v10, v1
    s_mov_b64 exec, s[12:13]
    global_store_dword v5, v10, s[2:3] offset:0
    v_dot4_i32_iu8 v10, v1, v2, v3
    global_store_dword v5, v10, s[2:3] offset:4
    v_dot4_i32_iu8 v10, v1, v2, v3 neg_lo:[1,0,0]
    global_store_dword v5, v10, s[2:3] offset:8
    v_dot4_i32_iu8 v10, v1, v2, v3 neg_lo:[0,1,0]
    global_store_dword v5, v10, s[2:3] offset:12
    v_dot4_i32_iu8 v10, v1, v2, v3 neg_lo:[1,1,0] clamp
    global_store_dword v5, v10, s[2:3] offset:16
    v_dot8_i32_iu4 v10, v1, v2, v3 neg_lo:[1,1,0]
    global_store_dword v5, v10, s[2:3] offset:20
    v_dot8_i32_iu4 v10, v1, v2, v3 neg_lo:[0,1,0] clamp
    global_store_dword v5, v10, s[2:3] offset:24
    // bf16 dot products (bf16 halves of moderate size, random signs).
    v_and_b32 v11, 0xbfffbfff, v1
    v_and_b32 v12, 0xbfffbfff, v2
    v_and_b32 v13, 0x3fffffff, v3
    v_dot2_f32_bf16 v10, v11, v12, v13
    global_store_dword v5, v10, s[2:3] offset:64
    v_mov_b32 v10, v4
    v_dot2_bf16_bf16 v10, v11, v12, v13
    global_store_dword v5, v10, s[2:3] offset:68
    v_mov_b32 v10, v4
    v_dot2_bf16_bf16 v10, v11, v12, v13 op_sel:[0,0,1,1]
    global_store_dword v5, v10, s[2:3] offset:72
    s_endpgm
