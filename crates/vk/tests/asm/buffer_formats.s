// Typed buffer loads through every buffer format of the target (built for gfx1030 and, as
// gfx11_buffer_formats, for gfx1100). Each work-item writes 16 random bytes (its element) to
// `in` + 0x1000; then, for every format number from 1 to BUF_FORMAT_END - 1 (the wrapper sets
// it per target; wave 0 the odd ones, wave 1 the even ones: one wave running all of them
// would pass lavapipe's loop-iteration limit), it loads its element through the resource's format (buffer_load_format_*: xyzw,
// d16 xyzw, d16_hi_x, and xyz and xy with other destination selects) from a strided resource
// whose last 4 records are out of range, and from an unstrided one of 1018 bytes (so the last
// lane's element is dropped only where the element is wider than 10 bytes), and stores the
// results to `out` (48 bytes per work-item per format); then a few tbuffer loads with the
// format in the instruction. The recompiler's results are compared with the emulator's, byte
// for byte. (Stores: buffer_format_stores.s.)
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
    // s[20:23]: unstrided resource over `in` + 0x4000 for the stores.
    s_add_u32 s20, s0, 0x4000
    s_addc_u32 s21, s1, 0
    s_and_b32 s21, s21, 0xffff
    s_mov_b32 s22, 0x3c000
    // Wave 0 takes the odd format numbers, wave 1 the even ones (one wave running all of
    // them would pass lavapipe's loop-iteration limit).
    v_readfirstlane_b32 s24, v0
    s_lshr_b32 s24, s24, 5
    s_add_u32 s24, s24, 1
    v_mul_u32_u24 v7, 48, v0
    v_lshlrev_b32 v4, 4, v0
format_loop:
    s_mul_i32 s25, s24, 0xc00
    v_add_nc_u32 v15, s25, v7
    s_lshl_b32 s11, s24, 12
    s_or_b32 s11, s11, 0xfac
    buffer_load_format_xyzw v[1:4], v0, s[8:11], 0 idxen
    s_waitcnt vmcnt(0)
    global_store_dwordx4 v15, v[1:4], s[2:3]
    buffer_load_format_d16_xyzw v[1:2], v0, s[8:11], 0 idxen
    v_mov_b32 v3, v15
    buffer_load_format_d16_hi_x v3, v0, s[8:11], 0 idxen
    s_waitcnt vmcnt(0)
    global_store_dwordx3 v15, v[1:3], s[2:3] offset:16
    // Destination selects W, Z, one, zero.
    s_lshl_b32 s11, s24, 12
    s_or_b32 s11, s11, 0x77
    buffer_load_format_xyz v[1:3], v0, s[8:11], 0 idxen
    s_waitcnt vmcnt(0)
    global_store_dwordx3 v15, v[1:3], s[2:3] offset:28
    s_lshl_b32 s19, s24, 12
    s_or_b32 s19, s19, 0xfac
    v_lshlrev_b32 v4, 4, v0
    buffer_load_format_xy v[1:2], v4, s[16:19], 0 offen
    s_waitcnt vmcnt(0)
    global_store_dwordx2 v15, v[1:2], s[2:3] offset:40
next_format:
    s_add_u32 s24, s24, 2
    s_cmp_lt_u32 s24, BUF_FORMAT_END
    s_cbranch_scc1 format_loop
    // tbuffer: formats in the instruction; loads to `out` + 0x3b000, stores to `in` + 0x3f000
    // (16 bytes per work-item each).
    v_lshlrev_b32 v15, 6, v0
    v_add_nc_u32 v15, 0x3b000, v15
    s_movk_i32 s11, 0xfac
    tbuffer_load_format_xyzw v[1:4], v0, s[8:11], 0 format:[BUF_FMT_2_10_10_10_SNORM] idxen
    s_waitcnt vmcnt(0)
    global_store_dwordx4 v15, v[1:4], s[2:3]
    tbuffer_load_format_xyz v[1:3], v0, s[8:11], 0 format:[BUF_FMT_10_11_11_FLOAT] idxen
    s_waitcnt vmcnt(0)
    global_store_dwordx3 v15, v[1:3], s[2:3] offset:16
    tbuffer_load_format_d16_xyzw v[1:2], v0, s[8:11], 0 format:[BUF_FMT_16_16_16_16_SNORM] idxen
    s_waitcnt vmcnt(0)
    global_store_dwordx2 v15, v[1:2], s[2:3] offset:32
    s_endpgm
