//! Every lifted scalar instruction against the emulator (the reference): each runs from many
//! register states in the emulator and as IR (lifted, verified, run by the IR's interpreter,
//! then optimized, verified and run again); every SGPR and SCC must agree.

use rdna_disasm::Decoder;
use rdna_emu::program::Program;
use rdna_emu::snippet::Snippet;
use rdna_frontend::lift;
use rdna_ir::{Builder, Effect, Reg};
use rdna_testkit::Rng;

/// Instructions for both wave sizes: every lifted SALU operation, scalar logic, special sources.
const COMMON: &str = "
s_mov_b32 s5, s1
s_mov_b64 s[4:5], s[2:3]
s_mov_b32 s5, src_vccz
s_mov_b32 s5, src_execz
s_mov_b32 s5, src_scc
s_mov_b32 s5, null
s_cmov_b32 s5, s1
s_cmov_b64 s[4:5], s[2:3]
s_cselect_b32 s5, s1, s2
s_cselect_b64 s[4:5], s[0:1], s[2:3]
s_cmovk_i32 s5, 0x8000
s_not_b32 s5, s1
s_not_b64 s[4:5], s[2:3]
s_brev_b32 s5, s1
s_brev_b64 s[4:5], s[2:3]
s_bitreplicate_b64_b32 s[4:5], s2
s_bitreplicate_b64_b32 s[4:5], 0x80000001
s_version 0x2006
s_bcnt0_i32_b32 s5, s1
s_bcnt1_i32_b32 s5, s1
s_bcnt0_i32_b64 s5, s[2:3]
s_bcnt1_i32_b64 s5, s[2:3]
s_ff0_i32_b32 s5, s1
s_ff1_i32_b32 s5, s1
s_ff0_i32_b64 s5, s[2:3]
s_ff1_i32_b64 s5, s[2:3]
s_flbit_i32_b32 s5, s1
s_flbit_i32 s5, s1
s_flbit_i32_b64 s5, s[2:3]
s_flbit_i32_i64 s5, s[2:3]
s_sext_i32_i8 s5, s1
s_sext_i32_i16 s5, s1
s_bitset0_b32 s5, s1
s_bitset1_b32 s5, s1
s_bitset0_b64 s[4:5], s1
s_bitset1_b64 s[4:5], s1
s_abs_i32 s5, s1
s_add_u32 s5, s1, s2
s_addc_u32 s5, s1, s2
s_sub_u32 s5, s1, s2
s_subb_u32 s5, s1, s2
s_add_i32 s5, s1, s2
s_sub_i32 s5, s1, s2
s_add_u32 s5, s1, 0x12345678
s_addk_i32 s5, 0x8001
s_min_i32 s5, s1, s2
s_max_i32 s5, s1, s2
s_min_u32 s5, s1, s2
s_max_u32 s5, s1, s2
s_lshl_b32 s5, s1, s2
s_lshr_b32 s5, s1, s2
s_ashr_i32 s5, s1, s2
s_lshl_b32 s5, 1, s2
s_lshl_b64 s[4:5], s[2:3], s1
s_lshr_b64 s[4:5], s[2:3], s1
s_ashr_i64 s[4:5], s[2:3], s1
s_bfm_b32 s5, s1, s2
s_bfm_b64 s[4:5], s1, s2
s_mul_i32 s5, s1, s2
s_mulk_i32 s5, 0xfff3
s_mul_hi_u32 s5, s1, s2
s_mul_hi_i32 s5, s1, s2
s_bfe_u32 s5, s1, s2
s_bfe_i32 s5, s1, s2
s_bfe_i32 s5, s1, 0x80004
s_bfe_u64 s[4:5], s[2:3], s1
s_bfe_i64 s[4:5], s[2:3], s1
s_absdiff_i32 s5, s1, s2
s_lshl1_add_u32 s5, s1, s2
s_lshl2_add_u32 s5, s1, s2
s_lshl3_add_u32 s5, s1, s2
s_lshl4_add_u32 s5, s1, s2
s_pack_ll_b32_b16 s5, s1, s2
s_pack_lh_b32_b16 s5, s1, s2
s_pack_hh_b32_b16 s5, s1, s2
s_movk_i32 s5, 0x8000
s_cmpk_eq_i32 s1, 0x8000
s_cmpk_lg_i32 s1, 0x7fff
s_cmpk_gt_i32 s1, 0x8000
s_cmpk_ge_i32 s1, 0x10
s_cmpk_lt_i32 s1, 0xffff
s_cmpk_le_i32 s1, 0x20
s_cmpk_eq_u32 s1, 0x8000
s_cmpk_lg_u32 s1, 0x7fff
s_cmpk_gt_u32 s1, 0x8000
s_cmpk_ge_u32 s1, 0x10
s_cmpk_lt_u32 s1, 0xffff
s_cmpk_le_u32 s1, 0x20
s_cmp_eq_u32 s1, s2
s_cmp_lg_u32 s1, s2
s_cmp_gt_u32 s1, s2
s_cmp_ge_u32 s1, s2
s_cmp_lt_u32 s1, s2
s_cmp_le_u32 s1, s2
s_cmp_eq_i32 s1, s2
s_cmp_lg_i32 s1, s2
s_cmp_gt_i32 s1, s2
s_cmp_ge_i32 s1, s2
s_cmp_lt_i32 s1, s2
s_cmp_le_i32 s1, s2
s_cmp_eq_u64 s[0:1], s[2:3]
s_cmp_lg_u64 s[0:1], s[2:3]
s_bitcmp0_b32 s1, s2
s_bitcmp1_b32 s1, s2
s_bitcmp0_b64 s[2:3], s1
s_bitcmp1_b64 s[2:3], s1
s_quadmask_b32 s5, s1
s_quadmask_b64 s[4:5], s[2:3]
s_wqm_b32 s5, s1
s_wqm_b64 s[4:5], s[2:3]
s_getpc_b64 s[4:5]
s_and_b32 s5, s1, s2
s_or_b32 s5, s1, s2
s_xor_b32 s5, s1, s2
s_andn2_b32 s5, s1, s2
s_orn2_b32 s5, s1, s2
s_nand_b32 s5, s1, s2
s_nor_b32 s5, s1, s2
s_xnor_b32 s5, s1, s2
s_and_b64 s[4:5], s[0:1], s[2:3]
s_or_b64 s[4:5], s[0:1], s[2:3]
s_xor_b64 s[4:5], s[0:1], s[2:3]
s_andn2_b64 s[4:5], s[0:1], s[2:3]
s_orn2_b64 s[4:5], s[0:1], s[2:3]
s_nand_b64 s[4:5], s[0:1], s[2:3]
s_nor_b64 s[4:5], s[0:1], s[2:3]
s_xnor_b64 s[4:5], s[0:1], s[2:3]
s_and_b64 s[4:5], exec, vcc
s_and_b32 s5, scc, s1
";

const WAVE32: &str = "
s_and_saveexec_b32 s5, s1
s_or_saveexec_b32 s5, s1
s_xor_saveexec_b32 s5, s1
s_andn2_saveexec_b32 s5, s1
s_orn2_saveexec_b32 s5, s1
s_nand_saveexec_b32 s5, s1
s_nor_saveexec_b32 s5, s1
s_xnor_saveexec_b32 s5, s1
s_andn1_saveexec_b32 s5, s1
s_orn1_saveexec_b32 s5, s1
s_andn1_wrexec_b32 s5, s1
s_andn2_wrexec_b32 s5, s1
s_and_saveexec_b32 s5, 0x1234
s_and_saveexec_b32 exec_lo, s1
s_and_b32 exec_lo, exec_lo, s1
";

const WAVE64: &str = "
s_and_saveexec_b64 s[4:5], s[0:1]
s_or_saveexec_b64 s[4:5], s[0:1]
s_xor_saveexec_b64 s[4:5], s[0:1]
s_andn2_saveexec_b64 s[4:5], s[0:1]
s_orn2_saveexec_b64 s[4:5], s[0:1]
s_nand_saveexec_b64 s[4:5], s[0:1]
s_nor_saveexec_b64 s[4:5], s[0:1]
s_xnor_saveexec_b64 s[4:5], s[0:1]
s_andn1_saveexec_b64 s[4:5], s[0:1]
s_orn1_saveexec_b64 s[4:5], s[0:1]
s_andn1_wrexec_b64 s[4:5], s[0:1]
s_andn2_wrexec_b64 s[4:5], s[0:1]
s_and_saveexec_b64 s[4:5], -1
s_andn2_b64 exec, exec, s[0:1]
";

/// Values that reach edge cases: random words, small numbers (shift amounts, widths), zero,
/// ones, signs, bit-field descriptors.
trait Words {
    fn word(&mut self) -> u32;
}

impl Words for Rng {
    fn word(&mut self) -> u32 {
        let r = self.next();
        match r % 8 {
            0 | 1 => (r >> 8) as u32,
            2 => (r >> 8) as u32 % 70,
            3 => [0, 1, u32::MAX, 0x8000_0000, 0x7fff_ffff, u32::MAX - 1, 0x8000, 0xffff][(r >> 8) as usize % 8],
            // f32 edges: ±inf, quiet and signalling NaNs, 1.0, the smallest denormal, ±2^31,
            // 2^32, -1.5.
            7 if r >> 63 == 1 => [0x7f80_0000, 0xff80_0000, 0x7fc0_0000, 0x7fa0_0000, 0x3f80_0000, 1, 0x4f00_0000, 0xcf00_0000, 0x4f80_0000, 0xbfc0_0000][(r >> 8) as usize % 10],
            4 => ((r >> 8) as u32 % 70) << 16 | (r >> 40) as u32 % 70,
            5 => 1 << ((r >> 8) % 32),
            6 => !(1u32 << ((r >> 8) % 32)),
            _ => (r >> 8) as u32 & 0xf0f0_0f0f,
        }
    }
}

fn check(mcpu: &str, text: &str, wave64: bool) {
    let lanes = if wave64 { 64 } else { 32 };
    let code = rdna_testkit::asm_for(mcpu, text, wave64);
    let target = rdna_isa::Target { wave64, ..rdna_isa::Target::from_name(mcpu).unwrap() };
    let prog = Program::decode(&Decoder::new(target), &code, 0);
    assert_eq!(prog.steps.len(), text.lines().filter(|l| !l.trim().is_empty()).count(), "every line decodes to one step");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ lanes as u64);
    let mut snippet = Snippet::for_target(mcpu, wave64).unwrap();
    let mut failures = Vec::new();
    for st in &prog.steps {
        assert!(lift::lifts(st.kind), "`{}` is lifted", st.text());
        let mut b = Builder::new();
        lift::lift(&mut b, st, lanes, 0).unwrap_or_else(|e| panic!("`{}`: {e}", st.text()));
        let body = b.finish();
        rdna_ir::verify(&body).unwrap_or_else(|e| panic!("`{}`: {e}\n{body}", st.text()));
        let opt = rdna_ir::optimize(&body);
        rdna_ir::verify(&opt).unwrap_or_else(|e| panic!("`{}` optimized: {e}\n{opt}", st.text()));
        assert!(opt.insts.len() <= body.insts.len());
        let bytes = &code[st.pc as usize..st.pc as usize + st.inst.len as usize];
        for _ in 0..300 {
            let mut s = [0u32; 128];
            for v in s.iter_mut() {
                *v = rng.word();
            }
            s[125] = 0; // null: never written
            let scc = rng.next() & 1 == 1;
            snippet.wave.s = s;
            snippet.wave.scc = scc;
            snippet.run(bytes).unwrap_or_else(|e| panic!("emulator: {e}"));
            let want = (snippet.wave.s, snippet.wave.scc);
            let read = |r: Reg| match r {
                Reg::Sgpr(n) => s[n as usize] as u64,
                Reg::Scc => scc as u64,
                Reg::Vgpr(_) => panic!("a wave region read a VGPR"),
            };
            for (form, body) in [("lifted", &body), ("optimized", &opt)] {
                let (mut got_s, mut got_scc) = (s, scc);
                for (r, v) in rdna_ir::run(body, read, 0) {
                    match r {
                        Reg::Sgpr(n) => got_s[n as usize] = v as u32,
                        Reg::Scc => got_scc = v != 0,
                        Reg::Vgpr(_) => panic!("a wave region wrote a VGPR"),
                    }
                }
                if (got_s, got_scc) != want {
                    let diff: Vec<String> = (0..128).filter(|&i| got_s[i] != want.0[i]).map(|i| format!("s{i}: IR {:#x}, emulator {:#x}", got_s[i], want.0[i])).collect();
                    failures.push(format!("wave{lanes} `{}` ({form}), s1={:#x} s2={:#x} s[2:3]={:#x}_{:08x} scc={scc}: {} {}\n{body}", st.text(), s[1], s[2], s[3], s[2], diff.join(", "), if got_scc != want.1 { format!("SCC: IR {got_scc}, emulator {}", want.1) } else { String::new() }));
                    break;
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.iter().take(8).cloned().collect::<Vec<_>>().join("\n"));
}

#[test]
fn scalar_operations_match_the_emulator_wave32() {
    check("gfx1030", &format!("{COMMON}{WAVE32}"), false);
}

#[test]
fn scalar_operations_match_the_emulator_wave64() {
    check("gfx1030", &format!("{COMMON}{WAVE64}"), true);
}

/// gfx11's scalar operations, and gfx10 ones under gfx11's names.
#[test]
fn gfx11_scalar_operations_match_the_emulator() {
    check("gfx1100", "s_pack_hl_b32_b16 s5, s1, s2\ns_and_not1_b32 s5, s1, s2\ns_cls_i32 s5, s1\ns_and_not0_saveexec_b32 s5, s1\ns_and_not0_wrexec_b32 s5, s1\ns_or_not1_saveexec_b32 s5, s1\n", false);
}

/// Vector instructions for both wave sizes (masks are written per wave size below).
const VECTOR: &str = "
v_mov_b32 v5, v1
v_mov_b32 v5, s1
v_mov_b32 v5, 0x1234
v_mul_i32_i24 v5, v1, v2
v_mul_hi_i32_i24 v5, v1, v2
v_mul_u32_u24 v5, v1, v2
v_mul_hi_u32_u24 v5, v1, v2
v_min_i32 v5, v1, v2
v_max_i32 v5, v1, v2
v_min_u32 v5, v1, v2
v_max_u32 v5, v1, v2
v_lshrrev_b32 v5, v1, v2
v_ashrrev_i32 v5, v1, v2
v_lshlrev_b32 v5, v1, v2
v_lshlrev_b32 v5, 2, v1
v_and_b32 v5, v1, v2
v_or_b32 v5, v1, v2
v_xor_b32 v5, v1, v2
v_xnor_b32 v5, v1, v2
v_not_b32 v5, v1
v_add_nc_u32 v5, v1, v2
v_add_nc_u32 v5, s1, v2
v_sub_nc_u32 v5, v1, v2
v_subrev_nc_u32 v5, v1, v2
v_add_nc_i32 v5, v1, v2
v_sub_nc_i32 v5, v1, v2
v_mul_lo_u32 v5, v1, v2
v_mul_hi_u32 v5, v1, v2
v_mul_hi_i32 v5, v1, v2
v_mad_u32_u24 v5, v1, v2, v3
v_mad_i32_i24 v5, v1, v2, v3
v_bfe_u32 v5, v1, v2, v3
v_bfe_i32 v5, v1, v2, v3
v_bfe_u32 v5, v1, 8, 5
v_bfi_b32 v5, v1, v2, v3
v_bfm_b32 v5, v1, v2
v_alignbit_b32 v5, v1, v2, v3
v_alignbyte_b32 v5, v1, v2, v3
v_min3_i32 v5, v1, v2, v3
v_max3_i32 v5, v1, v2, v3
v_min3_u32 v5, v1, v2, v3
v_max3_u32 v5, v1, v2, v3
v_med3_i32 v5, v1, v2, v3
v_med3_u32 v5, v1, v2, v3
v_lshl_add_u32 v5, v1, v2, v3
v_add_lshl_u32 v5, v1, v2, v3
v_add3_u32 v5, v1, v2, v3
v_lshl_or_b32 v5, v1, v2, v3
v_and_or_b32 v5, v1, v2, v3
v_or3_b32 v5, v1, v2, v3
v_xor3_b32 v5, v1, v2, v3
v_xad_u32 v5, v1, v2, v3
v_bcnt_u32_b32 v5, v1, v2
v_mbcnt_lo_u32_b32 v5, v1, v2
v_mbcnt_hi_u32_b32 v5, v1, v2
v_bfrev_b32 v5, v1
v_ffbh_u32 v5, v1
v_ffbl_b32 v5, v1
v_ffbh_i32 v5, v1
v_lshlrev_b64 v[5:6], v1, v[2:3]
v_lshrrev_b64 v[5:6], v1, v[2:3]
v_ashrrev_i64 v[5:6], v1, v[2:3]
v_add_f64 v[5:6], v[1:2], v[3:4]
v_mul_f64 v[5:6], v[1:2], v[3:4]
v_fma_f64 v[5:6], v[1:2], v[3:4], v[2:3]
v_min_f64 v[5:6], v[1:2], v[3:4]
v_max_f64 v[5:6], v[1:2], s[2:3]
";

const VECTOR32: &str = "
v_cndmask_b32 v5, v1, v2, vcc_lo
v_cndmask_b32_e64 v5, v1, v2, s4
v_add_co_u32 v5, vcc_lo, v1, v2
v_add_co_u32 v5, s4, v1, v2
v_sub_co_u32 v5, vcc_lo, v1, v2
v_subrev_co_u32 v5, s4, v1, v2
v_add_co_ci_u32 v5, vcc_lo, v1, v2, vcc_lo
v_add_co_ci_u32_e64 v5, s6, v1, v2, s4
v_sub_co_ci_u32 v5, vcc_lo, v1, v2, vcc_lo
v_subrev_co_ci_u32_e64 v5, s4, v1, v2, s4
v_add_co_u32 v5, null, v1, v2
v_cmp_eq_u32 vcc_lo, v1, v2
v_cmp_lt_i32_e64 s4, v1, v2
v_cmp_gt_u32 vcc_lo, s1, v2
v_cmp_ne_u32_e64 s4, v1, 0x8000
v_cmp_le_i32 vcc_lo, v1, v2
v_cmp_ge_u32 vcc_lo, v1, v2
v_cmp_f_i32 vcc_lo, v1, v2
v_cmp_t_u32 vcc_lo, v1, v2
v_cmp_eq_u64 vcc_lo, v[1:2], v[3:4]
v_cmp_lt_i64_e64 s4, v[1:2], s[2:3]
v_cmp_gt_u64 vcc_lo, v[1:2], v[3:4]
v_cmp_lt_i16 vcc_lo, v1, v2
v_cmp_gt_u16 vcc_lo, v1, v2
v_cmpx_eq_u32 v1, v2
v_cmpx_lt_i32_e64 v1, v2
v_cmpx_ne_u64 v[1:2], v[3:4]
v_mad_u64_u32 v[5:6], vcc_lo, v1, v2, v[3:4]
v_mad_i64_i32 v[5:6], s4, v1, v2, v[3:4]
";

const VECTOR64: &str = "
v_cndmask_b32 v5, v1, v2, vcc
v_cndmask_b32_e64 v5, v1, v2, s[4:5]
v_add_co_u32 v5, vcc, v1, v2
v_add_co_u32 v5, s[4:5], v1, v2
v_sub_co_u32 v5, vcc, v1, v2
v_subrev_co_u32 v5, s[4:5], v1, v2
v_add_co_ci_u32 v5, vcc, v1, v2, vcc
v_add_co_ci_u32_e64 v5, s[6:7], v1, v2, s[4:5]
v_sub_co_ci_u32 v5, vcc, v1, v2, vcc
v_subrev_co_ci_u32_e64 v5, s[4:5], v1, v2, s[4:5]
v_cmp_eq_u32 vcc, v1, v2
v_cmp_lt_i32_e64 s[4:5], v1, v2
v_cmp_ne_u64 vcc, v[1:2], v[3:4]
v_cmp_ge_i64_e64 s[4:5], v[1:2], s[2:3]
v_cmp_lt_u16 vcc, v1, v2
v_cmpx_gt_i32 v1, v2
v_cmpx_le_u64 v[1:2], v[3:4]
v_mad_u64_u32 v[5:6], vcc, v1, v2, v[3:4]
v_mad_i64_i32 v[5:6], s[4:5], v1, v2, v[3:4]
";

/// Random SGPRs (null zero), an EXEC of the wave's width in s[126:127] (every lane a quarter of
/// the time), and eight VGPRs of `lanes` values each.
fn random_wave(rng: &mut Rng, lanes: u32) -> ([u32; 128], u64, Vec<Vec<u32>>) {
    let mut s = [0u32; 128];
    for v in s.iter_mut() {
        *v = rng.word();
    }
    s[125] = 0;
    let exec = if rng.next() % 4 == 0 { u64::MAX } else { rng.next() } & if lanes == 64 { u64::MAX } else { u32::MAX as u64 };
    (s[126], s[127]) = (exec as u32, (exec >> 32) as u32);
    let v = (0..8).map(|_| (0..lanes).map(|_| rng.word()).collect()).collect();
    (s, exec, v)
}

/// Addresses into a buffer at `base` for GLOBAL accesses: s[2:3] the base, v1 each lane's
/// offset (a multiple of 4 from 16, below `16 + 4 * span`), v[2:3] each lane's full address.
fn global_addresses(rng: &mut Rng, s: &mut [u32; 128], v: &mut [Vec<u32>], base: u64, span: u64) {
    (s[2], s[3]) = (base as u32, (base >> 32) as u32);
    for l in 0..v[1].len() {
        let off = 16 + (rng.next() % span) * 4;
        v[1][l] = off as u32;
        let a = base + off;
        (v[2][l], v[3][l]) = (a as u32, (a >> 32) as u32);
    }
}

/// The registers a lane region sees in `lane` (SCC clear).
fn lane_reader<'a>(s: &'a [u32; 128], v: &'a [Vec<u32>], lane: usize) -> impl Fn(Reg) -> Option<u64> + 'a {
    move |r: Reg| match r {
        Reg::Sgpr(n) => Some(s[n as usize] as u64),
        Reg::Scc => Some(0),
        Reg::Vgpr(n) => Some(v[n as usize][lane] as u64),
    }
}

/// Each line of `text` (gfx1030) assembled, checked to be lifted into a lane region, lifted and
/// optimized: its text, its bytes and its region.
fn lane_bodies(text: &str, wave64: bool) -> Vec<(String, Vec<u8>, rdna_ir::Body)> {
    let lanes = if wave64 { 64 } else { 32 };
    let code = rdna_testkit::asm_for("gfx1030", text, wave64);
    let target = rdna_isa::Target { wave64, ..rdna_isa::Target::from_name("gfx1030").unwrap() };
    let prog = Program::decode(&Decoder::new(target), &code, 0);
    assert_eq!(prog.steps.len(), text.lines().filter(|l| !l.trim().is_empty()).count(), "every line decodes to one step");
    prog.steps
        .iter()
        .map(|st| {
            assert!(lift::lifts_lane(st), "`{}` is lifted", st.text());
            let mut b = Builder::per_lane();
            lift::lift_lane(&mut b, st, lanes).unwrap_or_else(|e| panic!("`{}`: {e}", st.text()));
            let bytes = code[st.pc as usize..st.pc as usize + st.inst.len as usize].to_vec();
            (st.text(), bytes, rdna_ir::optimize(&b.finish()))
        })
        .collect()
}

/// Puts SGPRs and VGPRs into the snippet's wave.
fn load_wave(snippet: &mut Snippet, s: &[u32; 128], v: &[Vec<u32>]) {
    snippet.wave.s = *s;
    for (r, vals) in v.iter().enumerate() {
        snippet.set_v(r, |l| vals[l]);
    }
}

/// Each vector instruction from many wave states, in the emulator and as a lane region run for
/// every lane EXEC enables; VGPRs (every lane), SGPRs and SCC must agree. A lane's bit written to
/// a mask makes, over the wave, the mask of the enabled lanes' bits.
fn check_lanes(text: &str, wave64: bool) {
    check_lanes_on("gfx1030", text, wave64)
}

fn check_lanes_on(mcpu: &str, text: &str, wave64: bool) {
    let lanes = if wave64 { 64 } else { 32 };
    let code = rdna_testkit::asm_for(mcpu, text, wave64);
    let target = rdna_isa::Target { wave64, ..rdna_isa::Target::from_name(mcpu).unwrap() };
    let prog = Program::decode(&Decoder::new(target), &code, 0);
    assert_eq!(prog.steps.len(), text.lines().filter(|l| !l.trim().is_empty()).count(), "every line decodes to one step");
    let mut rng = Rng(0x1234_5678_9abc_def1 ^ lanes as u64);
    let mut snippet = Snippet::for_target(mcpu, wave64).unwrap();
    let mut failures = Vec::new();
    for st in &prog.steps {
        assert!(lift::lifts_lane(st), "`{}` is lifted", st.text());
        let mut b = Builder::per_lane();
        lift::lift_lane(&mut b, st, lanes).unwrap_or_else(|e| panic!("`{}`: {e}", st.text()));
        let body = b.finish();
        rdna_ir::verify(&body).unwrap_or_else(|e| panic!("`{}`: {e}\n{body}", st.text()));
        let opt = rdna_ir::optimize(&body);
        rdna_ir::verify(&opt).unwrap_or_else(|e| panic!("`{}` optimized: {e}\n{opt}", st.text()));
        let bytes = &code[st.pc as usize..st.pc as usize + st.inst.len as usize];
        for _ in 0..40 {
            let (s, exec, vin) = random_wave(&mut rng, lanes);
            let scc = rng.next() & 1 == 1;
            load_wave(&mut snippet, &s, &vin);
            snippet.wave.scc = scc;
            snippet.run(bytes).unwrap_or_else(|e| panic!("emulator: {e}"));
            for (form, body) in [("lifted", &body), ("optimized", &opt)] {
                let mut got_v = vin.clone();
                let (mut got_s, got_scc) = (s, scc);
                let mut masks: Vec<(u8, u64)> = Vec::new();
                for lane in 0..lanes as usize {
                    if exec >> lane & 1 == 0 {
                        continue;
                    }
                    let read = |r: Reg| match r {
                        Reg::Sgpr(n) => Some(s[n as usize] as u64),
                        Reg::Scc => Some(scc as u64),
                        Reg::Vgpr(n) => Some(vin[n as usize][lane] as u64),
                    };
                    let inputs = rdna_ir::Inputs { code_base: Some(0), lane: Some(lane as u32), ..rdna_ir::Inputs::registers(&read) };
                    for e in rdna_ir::run_known(body, &inputs) {
                        match e {
                            Effect::Reg { reg: Reg::Vgpr(n), value } => got_v[n as usize][lane] = value.expect("known") as u32,
                            Effect::LaneBit { mask: m, bit } => {
                                let v = bit.expect("known") as u64;
                                match masks.iter_mut().find(|x| x.0 == m) {
                                    Some(x) => x.1 |= v << lane,
                                    None => masks.push((m, v << lane)),
                                }
                            }
                            other => panic!("a lane region left {other:?}"),
                        }
                    }
                }
                // Every mask the instruction writes, even with no lane enabled.
                for e in body.insts.iter().filter(|i| i.op == rdna_ir::Op::WriteLaneBit) {
                    let m = e.imm as u8;
                    let bits = masks.iter().find(|x| x.0 == m).map_or(0, |x| x.1);
                    got_s[m as usize] = bits as u32;
                    if wave64 {
                        got_s[m as usize + 1] = (bits >> 32) as u32;
                    }
                }
                let want_v: Vec<Vec<u32>> = (0..8).map(|r| snippet.v(r)).collect();
                if got_v != want_v || got_s != snippet.wave.s || got_scc != snippet.wave.scc {
                    let lane = (0..lanes as usize).find(|&l| (0..8).any(|r| got_v[r][l] != want_v[r][l]));
                    let sd: Vec<String> = (0..128).filter(|&i| got_s[i] != snippet.wave.s[i]).map(|i| format!("s{i}: IR {:#x}, emulator {:#x}", got_s[i], snippet.wave.s[i])).collect();
                    let detail = match lane {
                        Some(l) => format!("lane {l}: v1={:#x} v2={:#x} v3={:#x}: v5 IR {:#x}, emulator {:#x}", vin[1][l], vin[2][l], vin[3][l], got_v[5][l], want_v[5][l]),
                        None => sd.join(", "),
                    };
                    failures.push(format!("wave{lanes} `{}` ({form}), exec={exec:#x}: {detail}\n{body}", st.text()));
                    break;
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.iter().take(6).cloned().collect::<Vec<_>>().join("\n"));
}

#[test]
fn vector_operations_match_the_emulator_wave32() {
    check_lanes(&format!("{VECTOR}{VECTOR32}"), false);
}

#[test]
fn vector_operations_match_the_emulator_wave64() {
    check_lanes(&format!("{VECTOR}{VECTOR64}"), true);
}

/// f32 arithmetic, min/max and conversions, plain forms: random words cover NaNs (quiet and
/// signalling), infinities, denormals and signed zeros through the edge values and random bits.
const FLOATS: &str = "
v_add_f32 v5, v1, v2
v_sub_f32 v5, v1, v2
v_subrev_f32 v5, v1, v2
v_mul_f32 v5, v1, v2
v_mul_f32 v5, 0x3fc00000, v2
v_fma_f32 v5, v1, v2, v3
v_fmac_f32 v5, v1, v2
v_fmamk_f32 v5, v1, 0x40490fdb, v2
v_fmaak_f32 v5, v1, v2, 0xbf000000
v_min_f32 v5, v1, v2
v_max_f32 v5, v1, v2
v_max_f32 v5, s1, v2
v_cvt_f32_i32 v5, v1
v_cvt_f32_u32 v5, v1
v_cvt_i32_f32 v5, v1
v_cvt_u32_f32 v5, v1
v_trunc_f32 v5, v1
v_floor_f32 v5, v1
v_ceil_f32 v5, v1
v_rndne_f32 v5, v1
v_sqrt_f32 v5, v1
v_rcp_f32 v5, v1
v_rcp_iflag_f32 v5, v1
v_fract_f32 v5, v1
v_ldexp_f32 v5, v1, v2
v_mul_legacy_f32 v5, v1, v2
v_med3_f32 v5, v1, v2, v3
v_min3_f32 v5, v1, v2, v3
v_max3_f32 v5, v1, v2, v3
v_cvt_flr_i32_f32 v5, v1
v_cvt_rpi_i32_f32 v5, v1
v_cvt_f32_ubyte0 v5, v1
v_cvt_f32_ubyte1 v5, v1
v_cvt_f32_ubyte2 v5, v1
v_cvt_f32_ubyte3 v5, v1
v_add_f32_e64 v5, -v1, |v2|
v_mul_f32_e64 v5, v1, v2 clamp
v_fma_f32 v5, -v1, v2, -|v3|
v_add_f32_e64 v5, v1, v2 mul:2
v_mul_f32_e64 v5, v1, v2 clamp div:2
v_max_f32_e64 v5, |v1|, -v2 mul:4
v_add_f64 v[5:6], -v[1:2], |v[3:4]|
v_cvt_f32_u32_e64 v5, v1 clamp
v_sqrt_f32_e64 v5, -|v1|
v_cmp_lt_f32 vcc_lo, v1, v2
v_cmp_eq_f32 vcc_lo, v1, v2
v_cmp_nge_f32 vcc_lo, v1, v2
v_cmp_o_f32 vcc_lo, v1, v2
v_cmp_u_f32 vcc_lo, v1, v2
v_cmp_lg_f32_e64 s4, -v1, |v2|
v_cmp_neq_f32 vcc_lo, v1, v2
v_cmp_tru_f32 vcc_lo, v1, v2
v_cmp_gt_f64 vcc_lo, v[1:2], v[3:4]
v_cmp_nlt_f64_e64 s4, |v[1:2]|, v[3:4]
v_cmpx_le_f32 v1, v2
v_cmp_class_f32 vcc_lo, v1, v2
v_cmp_class_f32_e64 s4, -v1, 0x3ff
v_cmp_class_f64 vcc_lo, v[1:2], v3
v_cmp_class_f16 vcc_lo, v1, v2
v_cmpx_class_f32 v1, v2
";

#[test]
fn float_operations_match_the_emulator() {
    check_lanes(FLOATS, false);
    check_lanes(&FLOATS.replace("vcc_lo", "vcc").replace(" s4,", " s[4:5],"), true);
}

/// Packing conversions, normalized conversions, dot products with an accumulator and
/// v_mullit: random words cover NaNs, infinities, out-of-range values and every byte select.
const PACKING: &str = "
v_cvt_pk_u16_u32 v5, v1, v2
v_cvt_pk_i16_i32 v5, v1, v2
v_sat_pk_u8_i16 v5, v1
v_cvt_pk_u8_f32 v5, v1, v2, v3
v_cvt_pknorm_i16_f32 v5, v1, v2
v_cvt_pknorm_u16_f32 v5, v1, v2
v_cvt_pknorm_i16_f16 v5, v1, v2
v_cvt_pknorm_u16_f16 v5, v1, v2
v_cvt_norm_i16_f16 v5, v1
v_cvt_norm_u16_f16 v5, v1
v_cvt_off_f32_i4 v5, v1
v_dot2c_f32_f16 v5, v1, v2
v_dot4c_i32_i8 v5, v1, v2
v_mullit_f32 v5, v1, v2, v3
v_cvt_pknorm_i16_f32 v5, -v1, |v2|
";

#[test]
fn packing_conversions_and_dot_products_match_the_emulator() {
    check_lanes(PACKING, false);
}

/// gfx11's three-operand min/max, 16-bit logic and selects, 16-to-32-bit conversions, f32 to
/// saturated 16-bit pairs and the f16 dot product.
#[test]
fn gfx11_min_max_and_16_bit_operations_match_the_emulator() {
    check_lanes_on(
        "gfx1100",
        "v_maxmin_i32 v5, v1, v2, v3
v_minmax_i32 v5, v1, v2, v3
v_maxmin_u32 v5, v1, v2, v3
v_minmax_u32 v5, v1, v2, v3
v_maxmin_f32 v5, v1, v2, v3
v_minmax_f32 v5, v1, v2, v3
v_maxmin_f16 v5, v1, v2, v3
v_minmax_f16 v5, v1, v2, v3
v_cvt_i32_i16 v5, v1
v_cvt_u32_u16 v5, v1
v_and_b16 v5, v1, v2
v_or_b16 v5, v1, v2
v_xor_b16 v5, v1, v2
v_not_b16 v5, v1
v_cndmask_b16 v5, v1, v2, s4
v_cndmask_b16 v5, v1, v2, vcc_lo
v_cvt_pk_i16_f32 v5, v1, v2
v_cvt_pk_u16_f32 v5, v1, v2
v_dot2_f16_f16 v5, v1, v2, v3
",
        false,
    );
}

/// gfx11 dual issue: both halves read before either writes (the Y half reads v5, which the X
/// half writes).
#[test]
fn vopd_matches_the_emulator() {
    check_lanes_on(
        "gfx1100",
        "v_dual_add_f32 v5, v1, v2 :: v_dual_mul_f32 v6, v3, v4
v_dual_fmac_f32 v5, v1, v2 :: v_dual_mov_b32 v6, v2
v_dual_cndmask_b32 v5, v1, v2 :: v_dual_fmaak_f32 v6, v3, v4, 0x3f800000
v_dual_fmamk_f32 v5, v1, 0x40000000, v2 :: v_dual_add_nc_u32 v6, v2, v3
v_dual_max_f32 v6, v1, v2 :: v_dual_and_b32 v5, v6, v3
v_dual_mul_dx9_zero_f32 v5, v1, v2 :: v_dual_lshlrev_b32 v6, v2, v3
v_dual_min_f32 v5, s1, v2 :: v_dual_subrev_f32 v6, v3, v4
v_dual_dot2acc_f32_f16 v5, v1, v2 :: v_dual_sub_f32 v6, v3, v4
",
        false,
    );
}

/// Scalar loads (plain and through a buffer resource, with SOFFSET, unaligned offsets and
/// records that end mid-load) against the emulator, the IR reading the same memory.
#[test]
fn scalar_loads_match_the_emulator() {
    let text = "s_load_dword s5, s[2:3], 0x10
s_load_dwordx2 s[4:5], s[2:3], 0x8
s_load_dwordx4 s[8:11], s[2:3], s6
s_load_dword s5, s[2:3], -0x4
s_load_dwordx8 s[16:23], s[2:3], 0x0
s_buffer_load_dword s5, s[12:15], 0x10
s_buffer_load_dwordx4 s[8:11], s[12:15], s6
s_buffer_load_dwordx2 s[4:5], s[12:15], 0x3
";
    let code = rdna_testkit::asm_for("gfx1030", text, false);
    let target = rdna_isa::Target::from_name("gfx1030").unwrap();
    let prog = Program::decode(&Decoder::new(target), &code, 0);
    assert_eq!(prog.steps.len(), 8);
    let mut rng = Rng(0x5ca1_ab1e);
    let mut snippet = Snippet::new(false);
    let data: Vec<u8> = (0..512).map(|_| rng.next() as u8).collect();
    let base = snippet.mem.map("data", &data, 512);
    for st in &prog.steps {
        assert!(lift::lifts(st.kind), "`{}` is lifted", st.text());
        let mut b = Builder::new();
        lift::lift(&mut b, st, 32, 0).unwrap();
        let body = rdna_ir::optimize(&b.finish());
        rdna_ir::verify(&body).unwrap();
        let bytes = &code[st.pc as usize..st.pc as usize + st.inst.len as usize];
        for _ in 0..50 {
            let mut s = [0u32; 128];
            for v in s.iter_mut() {
                *v = rng.word();
            }
            s[125] = 0;
            let at = base + 64;
            (s[2], s[3]) = (at as u32, (at >> 32) as u32);
            s[6] = (rng.next() % 64) as u32;
            // A resource: the base's high bits above 48 are not address bits.
            let res = at | (rng.next() & 0xffff) << 48;
            (s[12], s[13], s[14]) = (res as u32, (res >> 32) as u32, (rng.next() % 160) as u32);
            snippet.wave.s = s;
            snippet.run(bytes).unwrap_or_else(|e| panic!("emulator: `{}`: {e}", st.text()));
            let mut got = s;
            let read = |r: Reg| match r {
                Reg::Sgpr(n) => Some(s[n as usize] as u64),
                _ => Some(0),
            };
            let load = |a: u64| snippet.mem.read_u32(a).ok();
            let inputs = rdna_ir::Inputs { load: &load, code_base: Some(0), ..rdna_ir::Inputs::registers(&read) };
            for e in rdna_ir::run_known(&body, &inputs) {
                if let Effect::Reg { reg: Reg::Sgpr(n), value } = e {
                    got[n as usize] = value.expect("known") as u32;
                }
            }
            assert_eq!(got, snippet.wave.s, "`{}` with s6={:#x} s14={}\n{body}", st.text(), s[6], s[14]);
        }
    }
}

/// Lane reads and writes of VGPRs from wave regions, single and in sequence (a read after a
/// write of the same lane sees it), against the emulator in both wave sizes.
#[test]
fn lane_reads_and_writes_match_the_emulator() {
    let cases = [
        "v_readfirstlane_b32 s5, v1",
        "v_readlane_b32 s5, v1, s2",
        "v_readlane_b32 s5, v1, 7",
        "v_writelane_b32 v5, s1, s2",
        "v_writelane_b32 v5, 0x1234, 3",
        "v_writelane_b32 v1, s1, s2\nv_readlane_b32 s6, v1, s2\nv_readlane_b32 s7, v1, s3\ns_add_u32 s8, s6, s7",
        "v_readfirstlane_b32 s4, v2\nv_writelane_b32 v2, s4, s3\nv_readfirstlane_b32 s5, v2",
    ];
    for wave64 in [false, true] {
        let lanes = if wave64 { 64u32 } else { 32 };
        let mut rng = Rng(0xfeed_beef ^ lanes as u64);
        let mut snippet = Snippet::new(wave64);
        for text in cases {
            let code = rdna_testkit::asm_for("gfx1030", text, wave64);
            let target = rdna_isa::Target { wave64, ..rdna_isa::Target::from_name("gfx1030").unwrap() };
            let prog = Program::decode(&Decoder::new(target), &code, 0);
            let mut b = Builder::new();
            for st in &prog.steps {
                assert!(lift::lifts(st.kind), "`{}` is lifted", st.text());
                lift::lift(&mut b, st, lanes, 0).unwrap_or_else(|e| panic!("`{}`: {e}", st.text()));
            }
            let body = rdna_ir::optimize(&b.finish());
            rdna_ir::verify(&body).unwrap();
            for _ in 0..60 {
                let (mut s, mut exec, vin) = random_wave(&mut rng, lanes);
                // No lane at all a fifth of the time (v_readfirstlane then reads lane 0).
                if rng.next() % 5 == 0 {
                    (exec, s[126], s[127]) = (0, 0, 0);
                }
                load_wave(&mut snippet, &s, &vin);
                snippet.run(&code).unwrap_or_else(|e| panic!("emulator: {e}"));
                let (mut got_s, mut got_v) = (s, vin.clone());
                let read = |r: Reg| match r {
                    Reg::Sgpr(n) => Some(s[n as usize] as u64),
                    Reg::Scc => Some(0),
                    Reg::Vgpr(_) => None,
                };
                let vgpr_lane = |r: u8, l: u32| vin.get(r as usize).map(|v| v[l as usize]);
                let inputs = rdna_ir::Inputs { code_base: Some(0), vgpr_lane: &vgpr_lane, ..rdna_ir::Inputs::registers(&read) };
                for e in rdna_ir::run_known(&body, &inputs) {
                    match e {
                        Effect::Reg { reg: Reg::Sgpr(n), value } => got_s[n as usize] = value.expect("known") as u32,
                        Effect::LaneWrite { vgpr, lane: Some(l), value } => got_v[vgpr as usize][l as usize] = value.expect("known") as u32,
                        Effect::Reg { reg: Reg::Scc, .. } => {}
                        other => panic!("unexpected effect {other:?}"),
                    }
                }
                let want_v: Vec<Vec<u32>> = (0..8).map(|r| snippet.v(r)).collect();
                assert_eq!(got_s, snippet.wave.s, "wave{lanes} `{text}` exec={exec:#x}\n{body}");
                assert_eq!(got_v, want_v, "wave{lanes} `{text}` exec={exec:#x}\n{body}");
            }
        }
    }
}

/// 16-bit integer operations, with op_sel picking high source halves and writing the high
/// destination half.
#[test]
fn sixteen_bit_operations_match_the_emulator() {
    let text = "v_add_nc_u16 v5, v1, v2
v_sub_nc_u16 v5, v1, v2
v_add_nc_i16 v5, v1, v2
v_sub_nc_i16 v5, v1, v2
v_mul_lo_u16 v5, v1, v2
v_mad_u16 v5, v1, v2, v3
v_mad_i16 v5, v1, v2, v3
v_lshlrev_b16 v5, v1, v2
v_lshrrev_b16 v5, v1, v2
v_ashrrev_i16 v5, v1, v2
v_min_i16 v5, v1, v2
v_max_i16 v5, v1, v2
v_min_u16 v5, v1, v2
v_max_u16 v5, v1, v2
v_min3_i16 v5, v1, v2, v3
v_max3_u16 v5, v1, v2, v3
v_med3_i16 v5, v1, v2, v3
v_med3_u16 v5, v1, v2, v3
v_mad_u32_u16 v5, v1, v2, v3
v_mad_i32_i16 v5, v1, v2, v3
v_add_nc_u16 v5, v1, v2 op_sel:[1,0,1]
v_mad_u16 v5, v1, v2, v3 op_sel:[1,1,0,1]
v_mad_u32_u16 v5, v1, v2, v3 op_sel:[1,0,0,0]
";
    check_lanes(text, false);
    check_lanes(text, true);
}

/// f16 arithmetic, conversions and compares (widened exactly, rounded once), with modifiers.
#[test]
fn half_operations_match_the_emulator() {
    let text = "v_add_f16 v5, v1, v2
v_sub_f16 v5, v1, v2
v_subrev_f16 v5, v1, v2
v_mul_f16 v5, v1, v2
v_min_f16 v5, v1, v2
v_max_f16 v5, v1, v2
v_cvt_f16_f32 v5, v1
v_cvt_f32_f16 v5, v1
v_add_f16_e64 v5, -v1, |v2|
v_max_f16_e64 v5, |v1|, -v2
v_cmp_lt_f16 vcc_lo, v1, v2
v_cmp_u_f16 vcc_lo, v1, v2
v_cmp_nge_f16_e64 s4, -v1, v2
";
    check_lanes(text, false);
    check_lanes(&text.replace("vcc_lo", "vcc").replace(" s4,", " s[4:5],"), true);
}

/// GLOBAL dword loads (with and without SADDR, signed offsets) per lane against the emulator,
/// the IR reading the same memory.
#[test]
fn global_loads_match_the_emulator() {
    let text = "global_load_dword v5, v1, s[2:3] offset:16
global_load_dwordx2 v[5:6], v[2:3], off offset:-8
global_load_dwordx4 v[4:7], v1, s[2:3]
global_load_dwordx3 v[5:7], v[2:3], off offset:12
";
    for wave64 in [false, true] {
        let lanes = if wave64 { 64u32 } else { 32 };
        let mut rng = Rng(0x10ad_5eed ^ lanes as u64);
        let mut snippet = Snippet::new(wave64);
        let data: Vec<u8> = (0..4096).map(|_| rng.next() as u8).collect();
        let base = snippet.mem.map("data", &data, 4096);
        for (text, bytes, body) in lane_bodies(text, wave64) {
            let bytes = &bytes[..];
            for _ in 0..20 {
                let (mut s, exec, mut vin) = random_wave(&mut rng, lanes);
                global_addresses(&mut rng, &mut s, &mut vin, base, 1000);
                load_wave(&mut snippet, &s, &vin);
                snippet.run(bytes).unwrap_or_else(|e| panic!("emulator: {e}"));
                let mut got = vin.clone();
                for lane in (0..lanes as usize).filter(|&l| exec >> l & 1 != 0) {
                    let read = lane_reader(&s, &vin, lane);
                    let load = |a: u64| snippet.mem.read_u32(a).ok();
                    let inputs = rdna_ir::Inputs { load: &load, code_base: Some(0), lane: Some(lane as u32), ..rdna_ir::Inputs::registers(&read) };
                    for e in rdna_ir::run_known(&body, &inputs) {
                        if let Effect::Reg { reg: Reg::Vgpr(n), value } = e {
                            got[n as usize][lane] = value.expect("known") as u32;
                        }
                    }
                }
                let want: Vec<Vec<u32>> = (0..8).map(|r| snippet.v(r)).collect();
                assert_eq!(got, want, "wave{lanes} `{text}`\n{body}");
            }
        }
    }
}

/// GLOBAL dword stores per lane (lanes in order, as the emulator makes them) against the
/// emulator's memory afterwards.
#[test]
fn global_stores_match_the_emulator() {
    let text = "global_store_dword v1, v5, s[2:3] offset:16
global_store_dwordx2 v[2:3], v[5:6], off offset:-8
global_store_dwordx4 v1, v[4:7], s[2:3]
";
    for wave64 in [false, true] {
        let lanes = if wave64 { 64u32 } else { 32 };
        let mut rng = Rng(0x5703_e5ed ^ lanes as u64);
        for (text, bytes, body) in lane_bodies(text, wave64) {
            let bytes = &bytes[..];
            for _ in 0..10 {
                let mut snippet = Snippet::new(wave64);
                let data: Vec<u8> = (0..2048).map(|_| rng.next() as u8).collect();
                let base = snippet.mem.map("data", &data, 2048);
                let (mut s, exec, mut vin) = random_wave(&mut rng, lanes);
                // Lanes overlap too: the later lane's store wins, as in the emulator.
                global_addresses(&mut rng, &mut s, &mut vin, base, 400);
                load_wave(&mut snippet, &s, &vin);
                snippet.run(bytes).unwrap_or_else(|e| panic!("emulator: {e}"));
                let mut got = data.clone();
                for lane in (0..lanes as usize).filter(|&l| exec >> l & 1 != 0) {
                    let read = lane_reader(&s, &vin, lane);
                    let inputs = rdna_ir::Inputs { code_base: Some(0), lane: Some(lane as u32), ..rdna_ir::Inputs::registers(&read) };
                    for e in rdna_ir::run_known(&body, &inputs) {
                        if let Effect::Store { addr: Some(a), value: Some(v) } = e {
                            let o = (a - base) as usize;
                            got[o..o + 4].copy_from_slice(&(v as u32).to_le_bytes());
                        }
                    }
                }
                let mut want = vec![0u8; 2048];
                snippet.mem.read(base, &mut want).unwrap();
                assert!(got == want, "wave{lanes} `{text}`\n{body}");
            }
        }
    }
}

/// LDS reads (in lane regions) and writes (lanes in order) against the emulator: VGPRs after
/// reads, LDS after writes, unaligned addresses and read2/write2 strides included.
#[test]
fn lds_accesses_match_the_emulator() {
    let text = "ds_read_b32 v5, v1 offset:8
ds_read_b64 v[5:6], v1 offset:4
ds_read_b128 v[4:7], v1
ds_read2_b32 v[5:6], v1 offset0:3 offset1:9
ds_read2st64_b64 v[4:7], v1 offset1:1
ds_write_b32 v1, v5 offset:12
ds_write_b8 v1, v5 offset:1
ds_write_b16 v1, v5 offset:3
ds_write_b96 v1, v[4:6]
ds_write2_b32 v1, v5, v6 offset0:1 offset1:7
ds_write2st64_b64 v1, v[2:3], v[6:7] offset0:1
";
    for wave64 in [false, true] {
        let lanes = if wave64 { 64u32 } else { 32 };
        let mut rng = Rng(0x1d5_0001 ^ lanes as u64);
        for (text, bytes, body) in lane_bodies(text, wave64) {
            let bytes = &bytes[..];
            for _ in 0..10 {
                let mut snippet = Snippet::new(wave64);
                for v in snippet.lds.iter_mut() {
                    *v = rng.next() as u8;
                }
                let lds_in = snippet.lds.clone();
                let (s, exec, mut vin) = random_wave(&mut rng, lanes);
                for l in 0..lanes as usize {
                    vin[1][l] = (rng.next() % 30000) as u32;
                }
                load_wave(&mut snippet, &s, &vin);
                snippet.run(bytes).unwrap_or_else(|e| panic!("emulator: {e}"));
                let (mut got_v, mut got_lds) = (vin.clone(), lds_in.clone());
                for lane in (0..lanes as usize).filter(|&l| exec >> l & 1 != 0) {
                    let read = lane_reader(&s, &vin, lane);
                    // Reads see LDS as the instruction began (reads and writes are never in one region).
                    let lds = |a: u32| lds_in.get(a as usize..a as usize + 4).map(|b| u32::from_le_bytes(b.try_into().unwrap()));
                    let inputs = rdna_ir::Inputs { code_base: Some(0), lane: Some(lane as u32), lds: &lds, ..rdna_ir::Inputs::registers(&read) };
                    for e in rdna_ir::run_known(&body, &inputs) {
                        match e {
                            Effect::Reg { reg: Reg::Vgpr(n), value } => got_v[n as usize][lane] = value.expect("known") as u32,
                            Effect::LdsStore { addr: Some(a), value: Some(v), bytes } => {
                                got_lds[a as usize..a as usize + bytes as usize].copy_from_slice(&(v as u32).to_le_bytes()[..bytes as usize])
                            }
                            Effect::LdsCheck { addr: Some(a), bytes } => assert!(a as usize + bytes as usize <= 65536),
                            other => panic!("unexpected {other:?}"),
                        }
                    }
                }
                let want_v: Vec<Vec<u32>> = (0..8).map(|r| snippet.v(r)).collect();
                assert_eq!(got_v, want_v, "wave{lanes} `{text}`\n{body}");
                assert!(got_lds == snippet.lds, "wave{lanes} `{text}`: LDS differs\n{body}");
            }
        }
    }
}
