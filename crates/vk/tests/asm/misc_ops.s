// VALU and SALU operations clang rarely emits, one result per operation and lane:
// out[64 lane + k]. Vector inputs are spread over all 32 bits (NaNs, infinities and
// denormals among them) and small floats; scalar inputs come from lane 0. The recompiler's results
// are compared with the emulator's.
// Code only: the test wraps it in a kernel, after a common prologue (see `asm_kernel` in
// tests/corpus.rs).
    v_ashrrev_i32 v3, 20, v3
    v_cvt_f32_i32 v3, v3
    v_mul_f32 v3, 0x3e800000, v3
    v_xor_b32 v4, v1, v2
    v_readfirstlane_b32 s10, v1
    v_readfirstlane_b32 s11, v2
    v_readfirstlane_b32 s12, v4
    s_lshr_b32 s13, s12, 8
    s_mov_b32 s14, s11
    s_mov_b32 s15, s10
    v_mov_b32 v10, v4
    v_add_nc_i32 v10, v1, v2
    global_store_dword v5, v10, s[2:3] offset:0
    v_mov_b32 v10, v4
    v_sub_nc_i32 v10, v1, v2
    global_store_dword v5, v10, s[2:3] offset:4
    v_mov_b32 v10, v4
    v_cvt_flr_i32_f32 v10, v3
    global_store_dword v5, v10, s[2:3] offset:8
    v_mov_b32 v10, v4
    v_cvt_rpi_i32_f32 v10, v3
    global_store_dword v5, v10, s[2:3] offset:12
    v_mov_b32 v10, v4
    v_cvt_flr_i32_f32 v10, v1
    global_store_dword v5, v10, s[2:3] offset:16
    v_mov_b32 v10, v4
    v_cvt_rpi_i32_f32 v10, v1
    global_store_dword v5, v10, s[2:3] offset:20
    v_mov_b32 v10, v4
    v_rsq_f32 v10, v1
    global_store_dword v5, v10, s[2:3] offset:24
    v_mov_b32 v10, v4
    v_rsq_f32 v10, v3
    global_store_dword v5, v10, s[2:3] offset:28
    v_mov_b32 v10, v1
    v_mov_b32 v11, v2
    v_swap_b32 v10, v11
    global_store_dword v5, v10, s[2:3] offset:32
    global_store_dword v5, v11, s[2:3] offset:36
    s_mov_b64 s[20:21], s[14:15]
    s_brev_b64 s[20:21], s[10:11]
    s_cselect_b32 s22, 1, 0
    v_mov_b32 v10, s20
    global_store_dword v5, v10, s[2:3] offset:40
    v_mov_b32 v10, s21
    global_store_dword v5, v10, s[2:3] offset:44
    v_mov_b32 v10, s22
    global_store_dword v5, v10, s[2:3] offset:48
    s_mov_b64 s[20:21], s[14:15]
    s_bitset0_b64 s[20:21], s12
    s_cselect_b32 s22, 1, 0
    v_mov_b32 v10, s20
    global_store_dword v5, v10, s[2:3] offset:52
    v_mov_b32 v10, s21
    global_store_dword v5, v10, s[2:3] offset:56
    v_mov_b32 v10, s22
    global_store_dword v5, v10, s[2:3] offset:60
    s_mov_b64 s[20:21], s[14:15]
    s_bitset1_b64 s[20:21], s12
    s_cselect_b32 s22, 1, 0
    v_mov_b32 v10, s20
    global_store_dword v5, v10, s[2:3] offset:64
    v_mov_b32 v10, s21
    global_store_dword v5, v10, s[2:3] offset:68
    v_mov_b32 v10, s22
    global_store_dword v5, v10, s[2:3] offset:72
    s_mov_b64 s[20:21], s[14:15]
    s_bfm_b64 s[20:21], s12, s13
    s_cselect_b32 s22, 1, 0
    v_mov_b32 v10, s20
    global_store_dword v5, v10, s[2:3] offset:76
    v_mov_b32 v10, s21
    global_store_dword v5, v10, s[2:3] offset:80
    v_mov_b32 v10, s22
    global_store_dword v5, v10, s[2:3] offset:84
    s_mov_b64 s[20:21], s[14:15]
    s_quadmask_b32 s20, s10
    s_cselect_b32 s22, 1, 0
    v_mov_b32 v10, s20
    global_store_dword v5, v10, s[2:3] offset:88
    v_mov_b32 v10, s22
    global_store_dword v5, v10, s[2:3] offset:92
    s_mov_b64 s[20:21], s[14:15]
    s_quadmask_b64 s[20:21], s[10:11]
    s_cselect_b32 s22, 1, 0
    v_mov_b32 v10, s20
    global_store_dword v5, v10, s[2:3] offset:96
    v_mov_b32 v10, s21
    global_store_dword v5, v10, s[2:3] offset:100
    v_mov_b32 v10, s22
    global_store_dword v5, v10, s[2:3] offset:104
    s_mov_b64 s[20:21], s[14:15]
    s_wqm_b32 s20, s10
    s_cselect_b32 s22, 1, 0
    v_mov_b32 v10, s20
    global_store_dword v5, v10, s[2:3] offset:108
    v_mov_b32 v10, s22
    global_store_dword v5, v10, s[2:3] offset:112
    s_mov_b64 s[20:21], s[14:15]
    s_wqm_b64 s[20:21], s[10:11]
    s_cselect_b32 s22, 1, 0
    v_mov_b32 v10, s20
    global_store_dword v5, v10, s[2:3] offset:116
    v_mov_b32 v10, s21
    global_store_dword v5, v10, s[2:3] offset:120
    v_mov_b32 v10, s22
    global_store_dword v5, v10, s[2:3] offset:124
    s_endpgm
