//! `rdna isa`: the coverage table.

/// `rdna isa --coverage` counts what the recompiler lowers: plain encodings of lowered
/// operations count (DPP, SDWA and the packed forms lowered included).
#[test]
fn coverage_lists_what_is_not_recompiled() {
    let r = std::process::Command::new(env!("CARGO_BIN_EXE_rdna")).args(["isa", "--coverage", "--arch", "rdna2"]).output().unwrap();
    assert!(r.status.success());
    let text = String::from_utf8_lossy(&r.stdout);
    let (head, rest) = text.split_once('\n').unwrap();
    let nums: Vec<u32> = head.split(|c: char| !c.is_ascii_digit()).filter_map(|w| w.parse().ok()).collect();
    // "rdna2 (gfx1030): N instructions; decoded N, emulated E, recompiled R"
    let (emulated, recompiled) = (nums[nums.len() - 2], nums[nums.len() - 1]);
    assert!(recompiled > 1500 && recompiled <= emulated, "{head}");
    let not_recompiled = rest.split("emulated, not recompiled").nth(1).unwrap();
    let listed = |n: &str| not_recompiled.lines().any(|l| l.trim() == n);
    for done in ["v_add_f32_e32", "v_fma_f32", "v_cmp_gt_u32_e32", "v_cmp_class_f32_e64", "s_add_u32", "global_load_dword", "ds_bpermute_b32", "v_readlane_b32", "v_add_f32_dpp", "v_pk_add_f16", "v_fma_mixlo_f16", "v_add_f16_e32", "v_add_f32_sdwa", "v_div_fmas_f64", "buffer_load_dword", "scratch_load_dword", "v_sin_f32_e32", "v_log_f32_e64", "buffer_atomic_add", "global_load_short_d16", "flat_load_dword", "flat_atomic_inc", "s_buffer_load_dword", "v_div_scale_f32", "ds_min_rtn_f32", "v_swap_b32", "v_cmp_eq_f32_sdwa", "v_cmp_lt_f16_e32", "v_add_f16_dpp", "v_sqrt_f16_e32", "v_add_co_ci_u32_dpp", "v_dot2_u32_u16", "v_dot4c_i32_i8", "v_cvt_pknorm_i16_f32", "v_sat_pk_u8_i16_sdwa", "v_movrels_b32_e32", "v_fmamk_f16", "s_movreld_b64", "s_bitreplicate_b64_b32", "v_nop", "ds_append", "ds_read_addtid_b32", "global_load_dword_addtid", "v_trig_preop_f64", "s_getreg_b32", "s_memtime", "s_denorm_mode", "ds_wrxchg2_rtn_b32", "v_mqsad_u32_u8", "v_pk_fmac_f16", "v_qsad_pk_u16_u8", "buffer_load_format_d16_x", "buffer_load_format_xyzw", "tbuffer_store_format_d16_xyzw"] {
        assert!(!listed(done), "{done} is recompiled");
    }
    // Every instruction the emulator runs is recompiled, on both targets.
    for arch in ["rdna2", "rdna3"] {
        let r = std::process::Command::new(env!("CARGO_BIN_EXE_rdna")).args(["isa", "--coverage", "--arch", arch]).output().unwrap();
        let text = String::from_utf8_lossy(&r.stdout);
        assert!(text.contains("emulated, not recompiled (0)"), "{arch}: {text}");
    }
    // VGPR-indexed moves with DPP/SDWA are refused by the emulator, not run as plain moves.
    let not_emulated = rest.split("not emulated (").nth(1).unwrap();
    assert!(not_emulated.lines().any(|l| l.trim() == "v_movrels_b32_dpp"), "{not_emulated}");
}
