// Typed buffer stores through every buffer format of the target (built for gfx1030 and, as
// gfx11_buffer_format_stores, for gfx1100) but the 11- and 10-bit float ones, BUF_FLOAT_A
// and BUF_FLOAT_B (the emulator refuses those stores): for each format number below
// BUF_FORMAT_END, each work-item stores values in the ranges that normalised and scaled formats round and clamp (ties to even among
// them) and random bits through the resource's format (buffer_store_format_*: xyzw, x over
// the old bytes, d16 xy and d16_hi_x) to `out` + 0x4000 (48 bytes per work-item per format);
// then a few tbuffer stores with the format in the instruction. The recompiler's results are
// compared with the emulator's, byte for byte. (Loads: buffer_formats.s.)
// Code only: the test wraps it in a kernel, after a common prologue (see `asm_kernel` in
// tests/corpus.rs).
    v_xor_b32 v4, v1, v2
    v_lshlrev_b32 v7, 4, v0
    s_add_u32 s12, s0, 0x1000
    s_addc_u32 s13, s1, 0
    global_store_dwordx4 v7, v[1:4], s[12:13]
    s_waitcnt vmcnt(0)
    // Store values: v8 in [-4, 4) by 1/1024, v9 in [-2, 2) by 1/256, v10 random bits,
    // v11 half-integers in [0, 32768); v12 = (v8, v9) as halves, v13 = v11's bits.
    v_ashrrev_i32 v8, 19, v1
    v_cvt_f32_i32 v8, v8
    v_mul_f32 v8, 0x3a800000, v8
    v_ashrrev_i32 v9, 22, v2
    v_cvt_f32_i32 v9, v9
    v_mul_f32 v9, 0x3b800000, v9
    v_mov_b32 v10, v3
    v_and_b32 v11, 0xffff, v1
    v_cvt_f32_u32 v11, v11
    v_mul_f32 v11, 0.5, v11
    v_cvt_pkrtz_f16_f32 v12, v8, v9
    v_mov_b32 v13, v11
    s_waitcnt vmcnt(0)
    // s[8:11]: strided resource over the elements (stride 16, 60 records).
    s_mov_b32 s8, s12
    s_and_b32 s9, s13, 0xffff
    s_or_b32 s9, s9, 0x100000
    s_mov_b32 s10, 60
    // s[16:19]: unstrided resource over the elements, 1018 bytes.
    s_mov_b32 s16, s12
    s_and_b32 s17, s13, 0xffff
    s_movk_i32 s18, 0x3fa
    s_movk_i32 s19, 0xfac
    // s[20:23]: unstrided resource over `out` + 0x4000 for the stores.
    s_add_u32 s20, s2, 0x4000
    s_addc_u32 s21, s3, 0
    s_and_b32 s21, s21, 0xffff
    s_mov_b32 s22, 0x3c000
    s_mov_b32 s24, 1
    v_mul_u32_u24 v7, 48, v0
    v_lshlrev_b32 v4, 4, v0
format_loop:
    s_mul_i32 s25, s24, 0xc00
    v_add_nc_u32 v15, s25, v7
    s_lshl_b32 s11, s24, 12
    s_or_b32 s11, s11, 0xfac
    // Stores through the format, unless it has 11- or 10-bit floats.
    s_cmp_eq_u32 s24, BUF_FLOAT_A
    s_cbranch_scc1 next_format
    s_cmp_eq_u32 s24, BUF_FLOAT_B
    s_cbranch_scc1 next_format
    s_lshl_b32 s23, s24, 12
    v_add_nc_u32 v1, s25, v7
    buffer_store_format_xyzw v[8:11], v1, s[20:23], 0 offen
    buffer_store_format_x v10, v1, s[20:23], 0 offen offset:16
    buffer_store_format_d16_xy v12, v1, s[20:23], 0 offen offset:32
    buffer_store_format_d16_hi_x v13, v1, s[20:23], 0 offen offset:32
    s_waitcnt vmcnt(0)
next_format:
    s_add_u32 s24, s24, 1
    s_cmp_lt_u32 s24, BUF_FORMAT_END
    s_cbranch_scc1 format_loop
    // tbuffer: formats in the instruction, to `out` + 0x3f000 (64 bytes per work-item).
    v_lshlrev_b32 v1, 6, v0
    v_add_nc_u32 v1, 0x3b000, v1
    tbuffer_store_format_xyzw v[8:11], v1, s[20:23], 0 format:[BUF_FMT_8_8_8_8_UNORM] offen
    tbuffer_store_format_xy v[8:9], v1, s[20:23], 0 format:[BUF_FMT_16_16_SNORM] offen offset:4
    tbuffer_store_format_xyzw v[8:11], v1, s[20:23], 0 format:[BUF_FMT_2_10_10_10_SSCALED] offen offset:8
    tbuffer_store_format_d16_xyzw v[12:13], v1, s[20:23], 0 format:[BUF_FMT_16_16_16_16_UINT] offen offset:16
    tbuffer_store_format_xyzw v[8:11], v1, s[20:23], 0 format:[BUF_FMT_32_32_32_32_FLOAT] offen offset:32
    s_endpgm
