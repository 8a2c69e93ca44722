//! `Step::sgprs_written` against the emulator: for each instruction (assembled by llvm-mc-19),
//! run alone from registers filled with distinct values, every SGPR below VCC whose value
//! changed must be among the ranges it lists. (The recompiler leaves argument loads unchecked
//! where no instruction can have written the argument pointer's SGPRs, and takes that from
//! this list.)

use rdna_emu::snippet::Snippet;

const CASES: &[&str] = &[
    "s_mov_b32 s3, 7",
    "s_mov_b64 s[4:5], -1",
    "s_add_u32 s6, s6, 1",
    "s_addc_u32 s7, s7, s8",
    "s_movk_i32 s9, 0x1234",
    "s_cselect_b64 s[10:11], s[12:13], 5",
    "s_getpc_b64 s[14:15]",
    "s_and_saveexec_b32 s16, s17",
    "s_bfe_u32 s18, s19, 0x40004",
    "s_lshl_b64 s[20:21], s[20:21], 3",
    "v_cmp_eq_u32_e64 s22, v1, v2",
    "v_cmp_gt_u32_e64 s24, v1, v2",
    "v_add_co_u32 v3, s25, v1, v2",
    "v_readfirstlane_b32 s26, v1",
    "v_readlane_b32 s27, v1, 5",
    "v_div_scale_f32 v4, s28, v1, v2, v1",
    "s_cmpk_eq_u32 s29, 3",
    "s_bcnt1_i32_b64 s30, s[30:31]",
];

#[test]
fn every_sgpr_an_instruction_writes_is_listed() {
    for text in CASES {
        let code = rdna_testkit::asm_for("gfx1030", &format!("{text}\ns_endpgm"), false);
        let mut s = Snippet::new(false);
        for r in 0..106 {
            s.wave.s[r] = 0x1000_0001u32.wrapping_mul(r as u32 + 3);
        }
        s.wave.set_exec(0xffff_ffff);
        for v in 1..3 {
            s.set_v(v, |l| (l as u32).wrapping_mul(0x9e37_79b9) ^ v as u32);
        }
        let before = s.wave.s;
        s.run(&code).unwrap_or_else(|e| panic!("{text}: {e}"));
        let dec = rdna_disasm::Decoder::new(rdna_isa::Target::from_name("gfx1030").unwrap());
        let prog = rdna_emu::program::Program::decode(&dec, &code, 0);
        let listed = prog.steps[0].sgprs_written().expect("not an indexed move");
        let changed: Vec<usize> = (0..106).filter(|&r| s.wave.s[r] != before[r]).collect();
        assert!(!changed.is_empty() || text.starts_with("s_cmpk"), "{text}: the case should write an SGPR");
        for r in changed {
            assert!(listed.iter().any(|&(first, n)| (first as usize..(first + n) as usize).contains(&r)), "{text}: s{r} changed but sgprs_written lists {listed:?}");
        }
    }
}
