//! Per-instruction behaviour at the edges, written from AMD's pseudo-code and LLVM's semantics:
//! each case is assembled by llvm-mc-19 (the encoding oracle), run on one wave, and its result
//! compared with values worked out here by hand.

mod common;

use common::asm_for;
use rdna_emu::snippet::Snippet;

/// Assembles gfx1030 code with llvm-mc-19 and returns its bytes.
fn asm(text: &str, wave64: bool) -> Vec<u8> {
    asm_for("gfx1030", text, wave64)
}

fn run32(text: &str, setup: impl FnOnce(&mut Snippet)) -> Snippet {
    let mut s = Snippet::new(false);
    setup(&mut s);
    s.run(&asm(text, false)).unwrap_or_else(|e| panic!("{text}: {e}"));
    s
}

#[test]
fn salu_carries_borrows_and_overflow() {
    let s = run32(
        "s_mov_b32 s0, -1\n s_add_u32 s1, s0, 1\n s_cselect_b32 s10, 1, 0\n s_addc_u32 s2, 0, 0\n\
         s_sub_u32 s3, 0, 1\n s_cselect_b32 s11, 1, 0\n s_subb_u32 s4, 5, 0\n\
         s_brev_b32 s5, 1\n s_add_i32 s6, s5, s5\n s_cselect_b32 s12, 1, 0\n s_add_i32 s7, 1, 2\n s_cselect_b32 s13, 1, 0",
        |_| {},
    );
    let w = &s.wave;
    assert_eq!((w.s[1], w.s[10], w.s[2]), (0, 1, 1), "0xffffffff + 1 carries into s_addc");
    assert_eq!((w.s[3], w.s[11], w.s[4]), (0xffff_ffff, 1, 4), "0 - 1 borrows out of s_subb");
    assert_eq!((w.s[5], w.s[6], w.s[12]), (0x8000_0000, 0, 1), "i32::MIN + i32::MIN overflows");
    assert_eq!((w.s[7], w.s[13]), (3, 0));
}

#[test]
fn salu_shifts_use_low_bits_of_the_count() {
    let s = run32(
        "s_lshl_b32 s0, 1, 33\n s_lshr_b32 s1, 0x80000000, 63\n s_ashr_i32 s2, 0x80000000, 31\n\
         s_mov_b64 s[4:5], 1\n s_lshl_b64 s[6:7], s[4:5], 63\n s_lshl_b64 s[8:9], s[4:5], 64\n s_cselect_b32 s20, 1, 0\n\
         s_lshl_b32 s3, 0, 5\n s_cselect_b32 s21, 1, 0",
        |_| {},
    );
    let w = &s.wave;
    assert_eq!(w.s[0], 2, "33 & 31 = 1");
    assert_eq!(w.s[1], 1, "63 & 31 = 31");
    assert_eq!(w.s[2], 0xffff_ffff);
    assert_eq!((w.s[6], w.s[7]), (0, 0x8000_0000));
    assert_eq!((w.s[8], w.s[9], w.s[20]), (1, 0, 1), "64 & 63 = 0, SCC = result != 0");
    assert_eq!(w.s[21], 0, "SCC clear for a zero result");
}

#[test]
fn salu_bitfields_and_counts() {
    let s = run32(
        "s_mov_b32 s0, 0xf0f0abcd\n s_bfe_u32 s1, s0, 0x80004\n s_bfe_i32 s2, s0, 0x40010\n s_bfe_u32 s3, s0, 0x4\n\
         s_ff1_i32_b32 s4, 0\n s_ff1_i32_b32 s5, 0x100\n s_flbit_i32_b32 s6, 0\n s_flbit_i32_b32 s7, 0x100\n\
         s_flbit_i32 s8, -2\n s_bcnt1_i32_b32 s9, s0\n s_bfm_b32 s10, 5, 3\n s_abs_i32 s11, 0x80000000\n\
         s_min_i32 s12, -5, 3\n s_max_u32 s13, -5, 3\n s_sext_i32_i8 s14, 0x80\n s_absdiff_i32 s15, 3, -4",
        |_| {},
    );
    let w = &s.wave;
    assert_eq!(w.s[1], 0xbc, "8 bits from bit 4");
    assert_eq!(w.s[2], 0, "4 bits from bit 16 of 0xf0f0abcd = 0x0 sign-extended");
    assert_eq!(w.s[3], 0, "width 0 gives 0");
    assert_eq!((w.s[4], w.s[5]), (u32::MAX, 8));
    assert_eq!((w.s[6], w.s[7]), (u32::MAX, 23));
    assert_eq!(w.s[8], 31, "S_CLS_I32: the first bit from the top differing from the sign of -2 (0xfffffffe) is bit 0, 31 bits down");
    assert_eq!(w.s[9], 0xf0f0_abcdu32.count_ones());
    assert_eq!(w.s[10], 0b11111000);
    assert_eq!(w.s[11], 0x8000_0000, "abs(i32::MIN) wraps");
    assert_eq!((w.s[12], w.s[13]), (-5i32 as u32, -5i32 as u32));
    assert_eq!(w.s[14], 0xffff_ff80);
    assert_eq!(w.s[15], 7);
}

#[test]
fn vector_carry_chain_and_clamp() {
    let s = run32(
        "v_add_co_u32 v2, vcc_lo, v0, v1\n v_add_co_ci_u32_e64 v3, s5, 0, 0, vcc_lo\n\
         v_sub_co_u32 v4, s0, v1, v0\n v_add_nc_u32_e64 v5, v0, v1 clamp\n v_sub_nc_u32_e64 v6, v1, v0 clamp",
        |s| {
            s.set_v(0, |l| if l % 2 == 0 { 0xffff_fff0 } else { 5 });
            s.set_v(1, |l| 0x10 + l as u32);
        },
    );
    for l in 0..32usize {
        let (a, b) = (if l % 2 == 0 { 0xffff_fff0u32 } else { 5 }, 0x10 + l as u32);
        let (sum, carry) = a.overflowing_add(b);
        assert_eq!(s.wave.vr(2, l), sum);
        assert_eq!(s.wave.vr(3, l), carry as u32, "lane {l}: carry-out feeds v_add_co_ci");
        assert_eq!(s.wave.s[0] >> l & 1, (b < a) as u32, "lane {l}: borrow mask");
        assert_eq!(s.wave.vr(5, l), a.checked_add(b).unwrap_or(u32::MAX), "clamp saturates");
        assert_eq!(s.wave.vr(6, l), b.saturating_sub(a));
    }
}

#[test]
fn vector_shifts_mask_their_count() {
    let s = run32(
        "v_lshlrev_b32_e32 v1, 33, v0\n v_lshrrev_b32_e32 v2, 36, v0\n v_ashrrev_i32_e32 v3, 63, v0\n\
         v_lshlrev_b64 v[4:5], 65, v[6:7]\n v_lshrrev_b64 v[8:9], 64, v[6:7]",
        |s| {
            s.set_v(0, |_| 0x8000_0011);
            s.set_v(6, |_| 0x8000_0001);
            s.set_v(7, |_| 0x4000_0000);
        },
    );
    assert_eq!(s.wave.vr(1, 0), 0x22);
    assert_eq!(s.wave.vr(2, 0), 0x0800_0001);
    assert_eq!(s.wave.vr(3, 0), 0xffff_ffff);
    assert_eq!((s.wave.vr(4, 0), s.wave.vr(5, 0)), (0x0000_0002, 0x8000_0001), "65 & 63 = 1");
    assert_eq!((s.wave.vr(8, 0), s.wave.vr(9, 0)), (0x8000_0001, 0x4000_0000), "64 & 63 = 0");
}

#[test]
fn float_min_max_nan_and_signed_zero() {
    let qnan = 0x7fc0_0000u32;
    let snan = 0x7f80_0001u32;
    let s = run32(
        "v_min_f32_e32 v2, v0, v1\n v_max_f32_e32 v3, v0, v1\n v_med3_f32 v4, v0, v1, 1.0",
        |s| {
            let pairs = [(qnan, 1.0f32.to_bits()), (2.0f32.to_bits(), qnan), ((-0.0f32).to_bits(), 0.0f32.to_bits()), (snan, 1.0f32.to_bits()), (3.0f32.to_bits(), 0.5f32.to_bits())];
            s.set_v(0, |l| pairs[l % 5].0);
            s.set_v(1, |l| pairs[l % 5].1);
        },
    );
    let v = |r, l| s.wave.vr(r, l);
    assert_eq!((v(2, 0), v(3, 0)), (1.0f32.to_bits(), 1.0f32.to_bits()), "a quiet NaN loses");
    assert_eq!((v(2, 1), v(3, 1)), (2.0f32.to_bits(), 2.0f32.to_bits()));
    assert_eq!((v(2, 2), v(3, 2)), ((-0.0f32).to_bits(), 0.0f32.to_bits()), "-0 < +0");
    assert_eq!((v(2, 3), v(3, 3)), (0x7fc0_0001, 0x7fc0_0001), "IEEE mode: a signalling NaN gives its quiet form");
    assert_eq!(v(4, 4), 1.0f32.to_bits(), "median of 3, 0.5, 1");
    assert_eq!(v(4, 0), 1.0f32.to_bits(), "med3 with a NaN: min3 of the rest");
}

#[test]
fn float_to_int_conversions_saturate() {
    let inputs = [f32::NAN, 3e9, -3e9, f32::INFINITY, f32::NEG_INFINITY, -1.5, 2.5, -0.0];
    let s = run32("v_cvt_i32_f32_e32 v1, v0\n v_cvt_u32_f32_e32 v2, v0\n v_cvt_rpi_i32_f32_e32 v3, v0\n v_cvt_flr_i32_f32_e32 v4, v0", |s| {
        s.set_v(0, |l| inputs[l % 8].to_bits())
    });
    let want_i = [0, i32::MAX, i32::MIN, i32::MAX, i32::MIN, -1, 2, 0];
    let want_u = [0, 3_000_000_000u32, 0, u32::MAX, 0, 0, 2, 0];
    let want_rpi = [0, i32::MAX, i32::MIN, i32::MAX, i32::MIN, -1, 3, 0];
    let want_flr = [0, i32::MAX, i32::MIN, i32::MAX, i32::MIN, -2, 2, 0];
    for l in 0..8 {
        assert_eq!(s.wave.vr(1, l) as i32, want_i[l], "cvt_i32 {}", inputs[l]);
        assert_eq!(s.wave.vr(2, l), want_u[l], "cvt_u32 {}", inputs[l]);
        assert_eq!(s.wave.vr(3, l) as i32, want_rpi[l], "cvt_rpi {}", inputs[l]);
        assert_eq!(s.wave.vr(4, l) as i32, want_flr[l], "cvt_flr {}", inputs[l]);
    }
}

#[test]
fn clamp_and_output_modifiers() {
    let s = run32("v_mul_f32_e64 v2, v0, v1 clamp\n v_add_f32_e64 v3, v0, v1 mul:2\n v_add_f32_e64 v4, v0, v1 clamp div:2", |s| {
        let a = [0.75f32, f32::NAN, -3.0, 0.25];
        s.set_v(0, |l| a[l % 4].to_bits());
        s.set_v(1, |_| 2.0f32.to_bits());
    });
    let f = |r, l| f32::from_bits(s.wave.vr(r, l));
    assert_eq!(f(2, 0), 1.0, "1.5 clamps to 1");
    assert_eq!(s.wave.vr(2, 1), 0, "NaN clamps to +0");
    assert_eq!(f(2, 2), 0.0, "-6 clamps to 0");
    assert_eq!(f(3, 0), 5.5, "(0.75 + 2) * 2");
    assert_eq!(f(4, 3), 1.0, "(0.25 + 2) / 2 = 1.125, clamped");
}

#[test]
fn transcendental_special_values() {
    let s = run32("v_rcp_f32_e32 v1, v0\n v_rsq_f32_e32 v2, v0\n v_sqrt_f32_e32 v3, v0\n v_log_f32_e32 v4, v0\n v_exp_f32_e32 v5, v0", |s| {
        let a = [0.0f32, -0.0, f32::INFINITY, -1.0, 4.0];
        s.set_v(0, |l| a[l % 5].to_bits());
    });
    let f = |r, l| f32::from_bits(s.wave.vr(r, l));
    assert_eq!((f(1, 0), f(1, 1), f(1, 2)), (f32::INFINITY, f32::NEG_INFINITY, 0.0));
    assert!(f(2, 3).is_nan() && f(3, 3).is_nan() && f(4, 3).is_nan(), "negative inputs give NaN");
    assert_eq!((f(2, 4), f(3, 4), f(4, 4), f(5, 4)), (0.5, 2.0, 2.0, 16.0));
    assert_eq!(s.wave.vr(3, 1), (-0.0f32).to_bits(), "sqrt(-0) = -0");
    assert_eq!(f(4, 0), f32::NEG_INFINITY, "log2(0)");
}

/// `sin(2πx)`/`cos(2πx)` by a different route: std's rounding to reduce, then the host libm's
/// sin/cos of the quarter-turn remainder (accurate to about an ulp of f64).
fn sin_cos_reference(x: f32, cos: bool) -> f64 {
    let x = x as f64;
    let r = x - x.round_ties_even();
    let q = (4.0 * r).round_ties_even();
    let angle = std::f64::consts::TAU * (r - q / 4.0);
    match (q as i64 + cos as i64).rem_euclid(4) {
        0 => angle.sin(),
        1 => angle.cos(),
        2 => -angle.sin(),
        _ => -angle.cos(),
    }
}

#[test]
fn sin_cos_take_revolutions_and_stay_within_an_ulp() {
    // Exact points, signs of zero, whole turns far out, NaN and infinity.
    let a = [0.25f32, 0.0, -0.0, 0.5, -0.125, 1e30, 1.0, f32::INFINITY, f32::from_bits(0x7f80_0001), 0.75, 1.0 / 3.0, 300.75];
    let s = run32("v_sin_f32_e32 v1, v0
 v_cos_f32_e32 v2, v0
 v_sin_f16_e32 v3, v4
 v_cos_f16_e32 v5, v4", |s| {
        s.set_v(0, |l| a[l % a.len()].to_bits());
        s.set_v(4, |l| half::f16::from_f32(a[l % a.len()]).to_bits() as u32);
    });
    let (sin, cos) = (|l: usize| f32::from_bits(s.wave.vr(1, l)), |l: usize| f32::from_bits(s.wave.vr(2, l)));
    assert_eq!((sin(0), cos(0)), (1.0, 0.0), "a quarter turn");
    assert_eq!((sin(1).to_bits(), cos(1)), (0, 1.0));
    assert_eq!((sin(2).to_bits(), cos(2)), ((-0.0f32).to_bits(), 1.0), "sin(-0) = -0");
    assert_eq!((sin(3).abs(), cos(3)), (0.0, -1.0), "half a turn: exactly 0, not sin(π) in f64");
    assert_eq!(sin(4), -(std::f64::consts::FRAC_1_SQRT_2 as f32), "-1/8 turn");
    assert_eq!((sin(5), cos(5), sin(6), cos(6)), (0.0, 1.0, 0.0, 1.0), "whole turns, however many");
    assert_eq!((s.wave.vr(1, 7), s.wave.vr(1, 8)), (0x7fc0_0000, 0x7fc0_0001), "inf gives the default NaN; a NaN comes back quiet");
    assert_eq!((s.wave.vr(3, 0), s.wave.vr(5, 6), s.wave.vr(5, 9)), (0x3c00, 0x3c00, 0), "f16: sin(1/4 turn) = cos(1 turn) = 1, cos(3/4 turn) = 0");
    assert_eq!(s.wave.vr(3, 7), 0x7e00, "f16: inf gives the default NaN");
    // The bound: within one f32 ulp of the reference everywhere, and equal to it almost always.
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let (mut n, mut off_by_one) = (0, 0);
    for i in 0..400_000u32 {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        // Half in the documented range [-256, 256], half anywhere (all exponents).
        let x = if i % 2 == 0 { (rng >> 40) as f32 / (1u64 << 24) as f32 * 512.0 - 256.0 } else { f32::from_bits(rng as u32) };
        if !x.is_finite() {
            continue;
        }
        for cos in [false, true] {
            let got = rdna_emu::float::sin_cos32(x, cos);
            let want = sin_cos_reference(x, cos) as f32;
            let ulps = (got.to_bits() as i64 - want.to_bits() as i64).abs();
            assert!(ulps <= 1 || got == want, "{} of {x:e} ({:#x}): {got:e} vs {want:e}", if cos { "cos" } else { "sin" }, x.to_bits());
            n += 1;
            off_by_one += (ulps == 1) as u32;
        }
    }
    eprintln!("v_sin/v_cos: {off_by_one} of {n} results one ulp off the libm reference, none further");
    assert!(off_by_one * 100_000 <= n, "{off_by_one} of {n} results one ulp off the reference");
}

#[test]
fn exp_is_exact_at_integers_and_stays_within_an_ulp() {
    let a = [0.0f32, 1.0, -1.0, 10.0, -149.0, 128.0, f32::NEG_INFINITY, f32::INFINITY, f32::from_bits(0x7f80_0001), -126.5, 0.5, -0.0];
    let s = run32("v_exp_f32_e32 v1, v0\n v_exp_f16_e32 v2, v3", |s| {
        s.set_v(0, |l| a[l % a.len()].to_bits());
        s.set_v(3, |l| half::f16::from_f32(a[l % a.len()]).to_bits() as u32);
    });
    let e = |l: usize| s.wave.vr(1, l);
    assert_eq!([e(0), e(1), e(2), e(3)], [1f32, 2.0, 0.5, 1024.0].map(f32::to_bits));
    assert_eq!(e(4), 1, "2^-149: the smallest denormal (denormals kept)");
    assert_eq!((e(5), e(6), e(7)), (f32::INFINITY.to_bits(), 0, f32::INFINITY.to_bits()));
    assert_eq!(e(8), 0x7fc0_0001, "a NaN comes back quiet");
    assert_eq!(e(10), std::f32::consts::SQRT_2.to_bits());
    assert_eq!((s.wave.vr(2, 3), s.wave.vr(2, 2), s.wave.vr(2, 6)), (0x6400, 0x3800, 0), "f16: 2^10, 2^-1, 2^-inf");
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let (mut n, mut off_by_one) = (0, 0);
    for i in 0..400_000u32 {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        // Half over the range where 2^x is a finite nonzero f32, half from raw bits.
        let x = if i % 2 == 0 { (rng >> 40) as f32 / (1u64 << 24) as f32 * 280.0 - 152.0 } else { f32::from_bits(rng as u32) };
        if x.is_nan() {
            continue;
        }
        let got = rdna_emu::float::exp2_32(x);
        let want = (x as f64).exp2() as f32;
        let ulps = (got.to_bits() as i64 - want.to_bits() as i64).abs();
        assert!(ulps <= 1, "2^{x:e} ({:#x}): {got:e} vs libm {want:e}", x.to_bits());
        n += 1;
        off_by_one += (ulps == 1) as u32;
    }
    eprintln!("v_exp_f32: {off_by_one} of {n} results one ulp off libm's exp2, none further");
    assert!(off_by_one * 100_000 <= n, "{off_by_one} of {n} results one ulp off libm");
}

#[test]
fn log_is_exact_at_powers_of_two_and_stays_within_an_ulp() {
    let a = [1.0f32, 2.0, 0.5, 1024.0, f32::from_bits(1), 0.0, -0.0, -1.0, f32::INFINITY, f32::from_bits(0x7f80_0001), 0.999_999_94, 1.000_000_1];
    let s = run32("v_log_f32_e32 v1, v0\n v_log_f16_e32 v2, v3", |s| {
        s.set_v(0, |l| a[l % a.len()].to_bits());
        s.set_v(3, |l| half::f16::from_f32(a[l % a.len()]).to_bits() as u32);
    });
    let g = |l: usize| s.wave.vr(1, l);
    assert_eq!([g(0), g(1), g(2), g(3), g(4)], [0f32, 1.0, -1.0, 10.0, -149.0].map(f32::to_bits), "powers of two, the smallest denormal among them");
    assert_eq!((g(5), g(6), g(7)), (f32::NEG_INFINITY.to_bits(), f32::NEG_INFINITY.to_bits(), 0xffc0_0000), "log2(±0) = -inf; a negative input: the default NaN");
    assert_eq!((g(8), g(9)), (f32::INFINITY.to_bits(), 0x7fc0_0001));
    assert_eq!(f32::from_bits(g(10)), ((0.999_999_94f32 as f64).log2()) as f32, "just below 1: full relative accuracy");
    assert_eq!((s.wave.vr(2, 3), s.wave.vr(2, 2), s.wave.vr(2, 5), s.wave.vr(2, 7)), (0x4900, 0xbc00, 0xfc00, 0xfe00), "f16: log2 1024, 1/2, 0, -1");
    let mut rng = 0xd1b5_4a32_d192_ed03u64;
    let (mut n, mut off_by_one) = (0, 0);
    for i in 0..400_000u32 {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        // Half near 1 (where cancellation would show), half any positive f32.
        let x = if i % 2 == 0 { 1.0 + ((rng >> 40) as f32 / (1u64 << 24) as f32 - 0.5) / 8.0 } else { f32::from_bits(rng as u32 & 0x7fff_ffff) };
        if !x.is_finite() || x == 0.0 {
            continue;
        }
        let got = rdna_emu::float::log2_32(x);
        let want = (x as f64).log2() as f32;
        let ulps = (got.to_bits() as i64 - want.to_bits() as i64).abs();
        assert!(ulps <= 1 || got == want, "log2 {x:e} ({:#x}): {got:e} vs libm {want:e}", x.to_bits());
        n += 1;
        off_by_one += (ulps == 1) as u32;
    }
    eprintln!("v_log_f32: {off_by_one} of {n} results one ulp off libm's log2, none further");
    assert!(off_by_one * 100_000 <= n, "{off_by_one} of {n} results one ulp off libm");
}

#[test]
fn div_fmas_scales_toward_the_quotient_and_div_fixup_underflows() {
    // VCC set on lanes 0 and 1: fma(1, 1, S2) scaled by 2^64 when S2 >= 1, by 2^-64 below.
    let s = run32("s_mov_b32 vcc_lo, 3\n v_div_fmas_f32 v3, v0, v0, v1\n v_div_fixup_f32 v4, v0, v5, v6", |s| {
        s.set_v(0, |_| 1f32.to_bits());
        s.set_v(1, |l| [2.0f32, 0.5, 2.0][l % 3].to_bits());
        s.set_v(5, |l| if l == 0 { 1e30f32 } else { -1e30 }.to_bits());
        s.set_v(6, |_| 1e-30f32.to_bits());
    });
    let f = |r, l| f32::from_bits(s.wave.vr(r, l));
    assert_eq!((f(3, 0), f(3, 1), f(3, 2)), (3.0 * 2f32.powi(64), 1.5 * 2f32.powi(-64), 3.0));
    // 1e-30 / ±1e30: exponents 200 apart, so the quotient is a signed zero whatever S0 holds.
    assert_eq!((s.wave.vr(4, 0), s.wave.vr(4, 1)), (0, 0x8000_0000));
}

#[test]
fn denormal_modes() {
    // 2^-140 is denormal; times 1.0 it survives with denormals kept and flushes to 0 otherwise.
    let d = f32::from_bits(0x0000_0040);
    let kept = run32("s_denorm_mode 0xf\n v_mul_f32_e32 v1, 1.0, v0", |s| s.set_v(0, |_| d.to_bits()));
    assert_eq!(kept.wave.vr(1, 0), 0x40);
    let flushed = run32("s_denorm_mode 0xc\n v_mul_f32_e32 v1, 1.0, v0\n v_mul_f32_e32 v2, 0x20000000, v3", |s| {
        s.set_v(0, |_| d.to_bits());
        s.set_v(3, |_| (2f32.powi(-100)).to_bits());
    });
    assert_eq!(flushed.wave.vr(1, 0), 0, "f32 denormals flushed (mode bits 5:4 = 0)");
    assert_eq!(flushed.wave.vr(2, 0), 0, "a denormal result is flushed too");
}

#[test]
fn mad_rounds_between_multiply_and_add_fma_does_not() {
    // (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24: exact with one rounding, 2^-11 with two.
    let a = 1.0f32 + 2f32.powi(-12);
    let c = -1.0f32;
    let s = run32("v_fma_f32 v3, v0, v0, v1\n v_mul_f32_e32 v4, v0, v0\n v_add_f32_e32 v4, v4, v1", |s| {
        s.set_v(0, |_| a.to_bits());
        s.set_v(1, |_| c.to_bits());
    });
    assert_eq!(f32::from_bits(s.wave.vr(3, 0)), a.mul_add(a, c));
    assert_eq!(f32::from_bits(s.wave.vr(4, 0)), a * a + c);
    assert_ne!(s.wave.vr(3, 0), s.wave.vr(4, 0));
}

#[test]
fn div_fixup_special_cases() {
    // v_div_fixup_f32 d, quotient, denominator, numerator
    let cases = [(0.0f32, 0.0f32, 0xffc0_0000u32), (0.0, 5.0, f32::INFINITY.to_bits()), (f32::INFINITY, 1.0, 0), (-2.0, 4.0, (-2.0f32).to_bits())];
    let s = run32("v_div_fixup_f32 v3, v2, v1, v0", |s| {
        s.set_v(0, |l| cases[l % 4].1.to_bits());
        s.set_v(1, |l| cases[l % 4].0.to_bits());
        s.set_v(2, |_| 2.0f32.to_bits());
    });
    for (l, c) in cases.iter().enumerate() {
        assert_eq!(s.wave.vr(3, l), c.2, "numerator {} / denominator {}", c.1, c.0);
    }
}

#[test]
fn compare_class_and_cmpx_and_exec() {
    let vals = [f32::NAN, f32::NEG_INFINITY, -1.0, -1e-40, -0.0, 0.0, 1e-40, 1.0, f32::INFINITY];
    let s = run32(
        "v_cmp_class_f32_e64 s0, v0, 0x3c0\n s_mov_b32 s1, exec_lo\n v_cmpx_lt_f32_e32 0, v0\n v_mov_b32_e32 v1, 7\n s_mov_b32 s2, exec_lo",
        |s| {
            s.set_v(0, |l| vals[l % 9].to_bits());
            s.set_v(1, |_| 0);
            s.wave.set_exec(0x0000_ffff);
        },
    );
    // 0x3c0 = +0 | +denormal | +normal | +inf (bits 6..9): lanes 5..8 of the first nine.
    let want_class = (0..16).filter(|&l| (5..=8).contains(&(l % 9))).fold(0u32, |m, l| m | 1 << l);
    assert_eq!(s.wave.s[0], want_class, "inactive lanes read 0");
    assert_eq!(s.wave.s[1], 0xffff);
    let want_exec = (0..16).filter(|&l| 0.0 < vals[l % 9]).fold(0u32, |m, l| m | 1 << l);
    assert_eq!(s.wave.s[2], want_exec, "v_cmpx ANDs with EXEC: lanes 16..31 stay off");
    for l in 0..32 {
        assert_eq!(s.wave.vr(1, l), if want_exec >> l & 1 != 0 { 7 } else { 0 });
    }
}

#[test]
fn saveexec_and_whole_mask_logic_in_wave64() {
    let mut s = Snippet::new(true);
    s.wave.write_s64(4, 0x0000_00ff_0000_ff00);
    s.wave.set_exec(0xffff_0000_ffff_0000);
    s.run(&asm("s_and_saveexec_b64 s[0:1], s[4:5]\n s_orn2_b64 s[2:3], s[4:5], exec\n s_andn2_saveexec_b64 s[6:7], s[4:5]", true)).unwrap();
    let rd = |r: usize| s.wave.s[r] as u64 | (s.wave.s[r + 1] as u64) << 32;
    assert_eq!(rd(0), 0xffff_0000_ffff_0000, "saved EXEC");
    let exec1 = 0x0000_00ff_0000_ff00u64 & 0xffff_0000_ffff_0000;
    assert_eq!(rd(2), 0x0000_00ff_0000_ff00 | !exec1, "s_orn2_b64 works on the whole 64-bit mask");
    assert_eq!(rd(6), exec1);
    assert_eq!(s.wave.exec(), 0x0000_00ff_0000_ff00 & !exec1);
}

#[test]
fn bit_manipulation() {
    let s = run32(
        "v_bfe_u32 v1, v0, 4, 8\n v_bfe_i32 v2, v0, 28, 4\n v_bfe_u32 v3, v0, 4, 0\n v_bfi_b32 v4, 0xff00ff00, v0, 0\n\
         v_alignbit_b32 v5, v0, 0x12345678, 8\n v_perm_b32 v6, v0, s10, 0x0c0d0800\n v_bcnt_u32_b32 v7, v0, 3\n\
         v_ffbh_u32_e32 v8, 0\n v_ffbl_b32_e32 v9, 0x80\n v_bfrev_b32_e32 v10, 1",
        |s| {
            s.set_v(0, |_| 0x9abc_def0);
            s.wave.s[10] = 0x1122_3344;
        },
    );
    let v = |r| s.wave.vr(r, 0);
    assert_eq!(v(1), 0xef);
    assert_eq!(v(2), 0xffff_fff9, "0x9 sign-extended from 4 bits");
    assert_eq!(v(3), 0);
    assert_eq!(v(4), 0x9a00_de00);
    assert_eq!(v(5), 0xf012_3456);
    // selectors (high to low byte): 0x0c -> 0x00, 0x0d -> 0xff, 0x08 -> sign of byte 1 of S1 (0x33: 0x00), 0x00 -> byte 0 of S1
    assert_eq!(v(6), 0x00ff_0044);
    assert_eq!(v(7), 0x9abc_def0u32.count_ones() + 3);
    assert_eq!((v(8), v(9), v(10)), (u32::MAX, 7, 0x8000_0000));
}

#[test]
fn mad_u64_u32_and_mul_hi() {
    let s = run32("v_mad_u64_u32 v[2:3], s0, v0, v1, v[4:5]\n v_mul_hi_i32 v6, v0, v1\n v_mul_lo_u32 v7, v0, v1", |s| {
        s.set_v(0, |_| 0xffff_ffff);
        s.set_v(1, |_| 0xffff_fffe);
        s.set_v(4, |_| 0xffff_ffff);
        s.set_v(5, |_| 0xffff_ffff);
    });
    let p = 0xffff_ffffu128 * 0xffff_fffe + 0xffff_ffff_ffff_ffff;
    assert_eq!((s.wave.vr(2, 0), s.wave.vr(3, 0)), (p as u32, (p >> 32) as u32));
    assert_eq!(s.wave.s[0], u32::MAX, "every lane overflowed 64 bits");
    assert_eq!(s.wave.vr(6, 0), 0, "(-1) * (-2) = 2, high half 0");
    assert_eq!(s.wave.vr(7, 0), 2);
}

#[test]
fn lane_ops_readlane_writelane_mbcnt() {
    let s = run32(
        "v_readlane_b32 s0, v0, 5\n v_readfirstlane_b32 s1, v0\n v_writelane_b32 v1, s0, 31\n\
         v_mbcnt_lo_u32_b32 v2, -1, 0\n v_mbcnt_lo_u32_b32 v3, 0x55555555, 10",
        |s| {
            s.set_v(0, |l| 100 + l as u32);
            s.wave.set_exec(0xffff_fff0);
        },
    );
    assert_eq!((s.wave.s[0], s.wave.s[1]), (105, 104), "readfirstlane takes the lowest active lane");
    assert_eq!(s.wave.vr(1, 31), 105);
    for l in 4..32usize {
        assert_eq!(s.wave.vr(2, l), l as u32);
        assert_eq!(s.wave.vr(3, l), 10 + (0x5555_5555u32 & ((1u32 << l) - 1)).count_ones());
    }
    assert_eq!(s.wave.vr(2, 0), 0, "inactive lanes are not written");
}

#[test]
fn dpp_and_sdwa_forms() {
    let s = run32(
        "v_mov_b32_dpp v1, v0 row_shr:1 row_mask:0xf bank_mask:0xf\n\
         v_add_nc_u32_dpp v2, v0, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf bound_ctrl:1\n\
         v_mov_b32_sdwa v3, v0 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0\n\
         v_xor_b32_sdwa v4, v0, v0 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:BYTE_0",
        |s| {
            s.set_v(0, |l| 0x1000 * l as u32 + 0x8180 + l as u32);
            s.set_v(1, |_| 0xdead);
            s.set_v(3, |_| 0xaabb_ccdd);
        },
    );
    let v0 = |l: usize| 0x1000 * l as u32 + 0x8180 + l as u32;
    for l in 0..32usize {
        assert_eq!(s.wave.vr(1, l), if l % 16 == 0 { 0xdead } else { v0(l - 1) }, "row_shr:1 lane {l}");
        assert_eq!(s.wave.vr(2, l), v0(l ^ 1).wrapping_add(v0(l)), "quad_perm lane {l}");
        assert_eq!(s.wave.vr(3, l), 0xaabb_0000 | (v0(l) & 0xff) << 8 | 0xdd, "sdwa byte move lane {l}");
        let sum = ((v0(l) >> 16) ^ (v0(l) & 0xff)) & 0xffff;
        assert_eq!(s.wave.vr(4, l), sum << 16, "sdwa word xor lane {l}");
    }
}

#[test]
fn lds_inc_dec_wrap_and_64bit_halves() {
    let s = run32(
        "ds_inc_rtn_u32 v2, v0, v1\n ds_inc_rtn_u32 v3, v0, v1\n ds_dec_rtn_u32 v4, v0, v1 offset:4\n ds_dec_rtn_u32 v5, v0, v1 offset:8\n\
         ds_add_rtn_u64 v[6:7], v0, v[8:9] offset:16\n ds_read_b64 v[10:11], v0 offset:16\n s_waitcnt lgkmcnt(0)",
        |s| {
            s.set_v(0, |l| 32 * l as u32);
            s.set_v(1, |_| 5);
            s.set_v(8, |_| 1);
            s.set_v(9, |_| 0);
            for l in 0..32usize {
                let b = 32 * l;
                s.lds[b..b + 4].copy_from_slice(&4u32.to_le_bytes());
                s.lds[b + 4..b + 8].copy_from_slice(&0u32.to_le_bytes());
                s.lds[b + 8..b + 12].copy_from_slice(&9u32.to_le_bytes());
                s.lds[b + 16..b + 24].copy_from_slice(&0x0000_0001_ffff_ffffu64.to_le_bytes());
            }
        },
    );
    let w = &s.wave;
    let lds32 = |o: usize| u32::from_le_bytes(s.lds[o..o + 4].try_into().unwrap());
    assert_eq!((w.vr(2, 3), w.vr(3, 3), lds32(96)), (4, 5, 0), "inc: 4 -> 5, then 5 >= 5 wraps to 0");
    assert_eq!((w.vr(4, 3), lds32(100)), (0, 5), "dec of 0 gives the data value");
    assert_eq!((w.vr(5, 3), lds32(104)), (9, 5), "dec of 9 > 5 gives the data value");
    assert_eq!((w.vr(6, 3), w.vr(7, 3)), (0xffff_ffff, 1));
    assert_eq!((w.vr(10, 3), w.vr(11, 3)), (0, 2), "the carry crosses into the high half");
}

#[test]
fn cube_map_and_packing_helpers() {
    let s = run32(
        "v_cubeid_f32 v3, v0, v1, v2\n v_cubesc_f32 v4, v0, v1, v2\n v_cubetc_f32 v5, v0, v1, v2\n v_cubema_f32 v6, v0, v1, v2\n\
         v_sat_pk_u8_i16_e32 v7, v8\n v_cvt_rpi_i32_f32_e32 v9, v10",
        |s| {
            // (x, y, z) per lane: +x major, -y major, -z major
            let v = [(2.0f32, 1.0f32, -0.5f32), (0.5, -3.0, 1.0), (1.0, 2.0, -4.0)];
            s.set_v(0, |l| v[l % 3].0.to_bits());
            s.set_v(1, |l| v[l % 3].1.to_bits());
            s.set_v(2, |l| v[l % 3].2.to_bits());
            s.set_v(8, |_| 0x0123_ff80); // hi 0x0123 (291 -> 255), lo 0xff80 (-128 -> 0)
            s.set_v(10, |_| 0.49999997f32.to_bits());
        },
    );
    let f = |r, l| f32::from_bits(s.wave.vr(r, l));
    assert_eq!((f(3, 0), f(4, 0), f(5, 0), f(6, 0)), (0.0, 0.5, -1.0, 4.0), "+x face: sc = -z, tc = -y, ma = 2x");
    assert_eq!((f(3, 1), f(4, 1), f(5, 1), f(6, 1)), (3.0, 0.5, -1.0, -6.0), "-y face: sc = x, tc = -z");
    assert_eq!((f(3, 2), f(4, 2), f(5, 2), f(6, 2)), (5.0, -1.0, -2.0, -8.0), "-z face: sc = -x, tc = -y");
    assert_eq!(s.wave.vr(7, 0), 0xff00, "saturate each signed half to 0..255");
    // floor(0.49999997 + 0.5) in single precision: the sum rounds to 1.0.
    assert_eq!(s.wave.vr(9, 0), 1);
}

#[test]
fn typed_buffer_loads_and_stores() {
    // A raw buffer resource over 64 bytes at a guest address, format 8_8_8_8_UNORM (56) in the
    // resource with the identity destination selects (X, Y, Z, W = 4, 5, 6, 7).
    let mut s = Snippet::new(false);
    let bytes: Vec<u8> = vec![0, 255, 51, 128, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0];
    let base = s.mem.map("buf", &bytes, 64);
    let word3 = 4 | 5 << 3 | 6 << 6 | 7 << 9 | 56 << 12;
    s.wave.write_s64(4, base);
    s.wave.s[6] = 64;
    s.wave.s[7] = word3;
    s.set_v(0, |l| if l == 0 { 0 } else { 4 });
    s.set_v(10, |_| 0.5f32.to_bits());
    s.set_v(11, |_| 2.0f32.to_bits());
    let code = asm(
        "buffer_load_format_xyzw v[1:4], v0, s[4:7], 0 offen\n\
         tbuffer_load_format_xy v[5:6], v0, s[4:7], 0 format:[BUF_FMT_16_16_UINT] offen\n\
         buffer_load_format_d16_xy v7, v0, s[4:7], 0 offen\n\
         tbuffer_store_format_xy v[10:11], off, s[4:7], 0 format:[BUF_FMT_16_16_UNORM] offset:8",
        false,
    );
    s.run(&code).unwrap();
    let f = |r, l| f32::from_bits(s.wave.vr(r, l));
    assert_eq!([f(1, 0), f(2, 0), f(3, 0), f(4, 0)], [0.0, 1.0, 0.2, 128.0 / 255.0]);
    assert_eq!([f(1, 1), f(2, 1), f(3, 1), f(4, 1)], [1.0 / 255.0, 2.0 / 255.0, 3.0 / 255.0, 4.0 / 255.0]);
    assert_eq!((s.wave.vr(5, 0), s.wave.vr(6, 0)), (0xff00, 0x8033), "16_16_UINT from the instruction's format");
    assert_eq!(s.wave.vr(7, 0), 0x3c00_0000, "d16: x = 0.0 and y = 1.0 as f16 halves");
    let stored = s.mem.contents("buf").unwrap();
    assert_eq!(&stored[8..12], &[0x00, 0x80, 0xff, 0xff], "0.5 -> 32768 (rounded), 2.0 clamps to 65535");
}

fn run_gfx11(text: &str, wave64: bool, setup: impl FnOnce(&mut Snippet)) -> Snippet {
    let mut s = Snippet::for_target("gfx1100", wave64).unwrap();
    setup(&mut s);
    s.run(&asm_for("gfx1100", text, wave64)).unwrap_or_else(|e| panic!("{text}: {e}"));
    s
}

#[test]
fn gfx11_vopd_reads_both_sources_before_writing() {
    // X writes v1 from v2; Y reads v1 (the old value) into v4: both halves see the registers as
    // they were before the instruction.
    let s = run_gfx11("v_dual_mov_b32 v1, v2 :: v_dual_add_f32 v4, v1, v6\n v_dual_fmaak_f32 v10, v2, v6, 0x40000000 :: v_dual_and_b32 v11, v1, v7", false, |s| {
        s.set_v(1, |_| 1.5f32.to_bits());
        s.set_v(2, |l| (l as f32).to_bits());
        s.set_v(6, |_| 0.25f32.to_bits());
        s.set_v(7, |_| 0xffff_0000);
    });
    for l in 0..32usize {
        assert_eq!(s.wave.vr(1, l), (l as f32).to_bits());
        assert_eq!(f32::from_bits(s.wave.vr(4, l)), 1.75, "Y read v1 before X wrote it");
        assert_eq!(f32::from_bits(s.wave.vr(10, l)), (l as f32).mul_add(0.25, 2.0));
        assert_eq!(s.wave.vr(11, l), (l as f32).to_bits() & 0xffff_0000, "second VOPD sees the first's results");
    }
}

/// `v_dual_dot2acc_f32_f16` is `v_dot2acc_f32_f16` in the dual-issue encoding: the ISA's
/// pseudo-code adds the low product to the accumulator, then the high one. With both products
/// 2^-24 and the accumulator 1.0 the order shows: 1 + 2^-24 rounds (to even) back to 1 twice,
/// where adding the products first would give 1 + 2^-23.
#[test]
fn gfx11_vopd_dot2acc_accumulates_in_the_pseudo_codes_order() {
    let s = run_gfx11("v_dot2acc_f32_f16 v7, v1, v2\n v_dual_dot2acc_f32_f16 v8, v1, v2 :: v_dual_mov_b32 v9, v3", false, |s| {
        // 2^-12 in both f16 halves.
        s.set_v(1, |_| 0x0c00_0c00);
        s.set_v(2, |_| 0x0c00_0c00);
        s.set_v(3, |_| 5);
        s.set_v(7, |_| 1.0f32.to_bits());
        s.set_v(8, |_| 1.0f32.to_bits());
    });
    assert_eq!(f32::from_bits(s.wave.vr(7, 0)), 1.0, "VOP2");
    assert_eq!(f32::from_bits(s.wave.vr(8, 0)), 1.0, "VOPD");
    assert_eq!(s.wave.vr(9, 0), 5);
}

/// gfx11 true16 `v_mov_b16`: each operand names one half of a register (`v1.h` is encoded as
/// register 129); the write changes only the named half.
#[test]
fn gfx11_true16_mov_b16_writes_one_half() {
    let s = run_gfx11(
        "s_mov_b32 s5, 0x1beef\n v_mov_b16_e32 v1.h, v2.l\n v_mov_b16_e32 v3.l, v2.h\n v_mov_b16_e32 v4.h, s5\n v_mov_b16_e32 v6.l, 0x1234\n v_mov_b16_dpp v7.h, v2.h quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
        false,
        |s| {
            s.set_v(2, |l| (0x100 + l as u32) << 16 | l as u32);
            for r in [1, 3, 4, 6, 7] {
                s.set_v(r, |_| 0x5555_6666);
            }
        },
    );
    for l in 0..32usize {
        assert_eq!(s.wave.vr(1, l), (l as u32) << 16 | 0x6666, "v1.h = v2.l, v1.l kept");
        assert_eq!(s.wave.vr(3, l), 0x5555_0100 + l as u32, "v3.l = v2.h, v3.h kept");
        assert_eq!(s.wave.vr(4, l), 0xbeef_6666, "v4.h = s5's low half");
        assert_eq!(s.wave.vr(6, l), 0x5555_1234, "v6.l = the literal");
        assert_eq!(s.wave.vr(7, l), (0x100 + (l ^ 1) as u32) << 16 | 0x6666, "v7.h = v2.h of the neighbour lane");
    }
}

#[test]
fn gfx11_dpp_compares_permute_src0_and_clear_unwritten_lanes() {
    // Class and ordinary compares with DPP read src0 from the lane the control names; a lane
    // DPP does not write (row_mask leaves out the second row) gets 0 in the result.
    let s = run_gfx11(
        "v_cmp_class_f32_e64_dpp s4, v0, v1 quad_perm:[1,0,3,2] row_mask:0x1 bank_mask:0xf\n\
         v_cmp_gt_u32_dpp vcc_lo, v2, v3 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1",
        false,
        |s| {
            // Odd lanes hold -1.0, even lanes +inf; class mask 0x200 tests for +inf.
            s.set_v(0, |l| if l % 2 == 1 { (-1.0f32).to_bits() } else { f32::INFINITY.to_bits() });
            s.set_v(1, |_| 0x200);
            s.set_v(2, |l| 10 * l as u32);
            s.set_v(3, |_| 15);
        },
    );
    // Lanes 0..16: the neighbour's value, so odd lanes see +inf. Lanes 16..32: not written.
    assert_eq!(s.wave.s[4], 0x0000_aaaa);
    // row_shr:1 with bound_ctrl: lane l compares 10 (l - 1) > 15, the row's first lane 0 > 15.
    let want: u32 = (0..32).filter(|&l| l % 16 != 0 && 10 * (l - 1) > 15).map(|l| 1u32 << l).sum();
    assert_eq!(s.wave.s[106], want);
}

#[test]
fn gfx11_ds_cmpstore_takes_the_new_value_first() {
    // gfx11 ds_cmpstore_rtn_b32 vdst, addr, data(new), data2(compare): the reverse of gfx10's
    // ds_cmpst_rtn_b32 vdst, addr, data(compare), data2(new).
    let s = run_gfx11("ds_cmpstore_rtn_b32 v3, v0, v1, v2\n s_waitcnt lgkmcnt(0)", false, |s| {
        s.set_v(0, |l| 4 * l as u32);
        s.set_v(1, |_| 77);
        s.set_v(2, |l| if l % 2 == 0 { 5 } else { 6 });
        for l in 0..32 {
            s.lds[4 * l..4 * l + 4].copy_from_slice(&5u32.to_le_bytes());
        }
    });
    for l in 0..32usize {
        let now = u32::from_le_bytes(s.lds[4 * l..4 * l + 4].try_into().unwrap());
        assert_eq!((s.wave.vr(3, l), now), (5, if l % 2 == 0 { 77 } else { 5 }), "lane {l}");
    }
    let g10 = run32("ds_cmpst_rtn_b32 v3, v0, v1, v2\n s_waitcnt lgkmcnt(0)", |s| {
        s.set_v(0, |l| 4 * l as u32);
        s.set_v(1, |l| if l % 2 == 0 { 5 } else { 6 });
        s.set_v(2, |_| 77);
        for l in 0..32 {
            s.lds[4 * l..4 * l + 4].copy_from_slice(&5u32.to_le_bytes());
        }
    });
    assert_eq!(u32::from_le_bytes(g10.lds[0..4].try_into().unwrap()), 77, "gfx10: compare first, then the new value");
    assert_eq!(u32::from_le_bytes(g10.lds[4..8].try_into().unwrap()), 5);
}

#[test]
fn gfx11_new_alu_operations() {
    let s = run_gfx11(
        "v_maxmin_f32 v3, v0, v1, v2\n v_minmax_i32 v4, v0, v1, v2\n s_pack_hl_b32_b16 s4, s0, s1\n\
         v_cvt_nearest_i32_f32_e32 v5, v6\n v_cvt_floor_i32_f32_e32 v7, v6\n v_permlane64_b32 v8, v9",
        true,
        |s| {
            s.set_v(0, |_| 3.0f32.to_bits());
            s.set_v(1, |_| 5.0f32.to_bits());
            s.set_v(2, |_| 4.0f32.to_bits());
            s.set_v(6, |_| (-2.5f32).to_bits());
            s.set_v(9, |l| l as u32);
            s.wave.s[0] = 0xaaaa_bbbb;
            s.wave.s[1] = 0xcccc_dddd;
        },
    );
    assert_eq!(f32::from_bits(s.wave.vr(3, 0)), 4.0, "min(max(3, 5), 4)");
    // As integers the float bit patterns still order the same way here.
    assert_eq!(s.wave.vr(4, 0), 4.0f32.to_bits(), "max(min(3, 5), 4)");
    assert_eq!(s.wave.s[4], 0xdddd_aaaa, "{{ S1[15:0], S0[31:16] }}");
    assert_eq!((s.wave.vr(5, 0) as i32, s.wave.vr(7, 0) as i32), (-2, -3));
    assert_eq!((s.wave.vr(8, 0), s.wave.vr(8, 40)), (32, 8), "permlane64 swaps the wave64 halves");
}

#[test]
fn mode_register_through_setreg_and_getreg() {
    // Denormals flushed by writing MODE[7:4] = 0 with s_setreg, read back with s_getreg.
    let d = f32::from_bits(0x0000_0100);
    let s = run32(
        "s_mov_b32 s0, 0\n s_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s0\n v_mul_f32_e32 v1, 1.0, v0\n s_getreg_b32 s1, hwreg(HW_REG_MODE, 0, 10)",
        |s| s.set_v(0, |_| d.to_bits()),
    );
    assert_eq!(s.wave.vr(1, 0), 0, "flushed");
    assert_eq!(s.wave.s[1], 0x300, "IEEE (bit 9) and DX10 clamp (bit 8) kept, denormal bits cleared");
    // A directed rounding mode is not modelled: the float operation stops with an error naming it.
    let mut sn = Snippet::new(false);
    let e = sn.run(&asm("s_round_mode 0x3\n v_add_f32_e32 v1, v0, v0", false)).unwrap_err();
    assert!(e.contains("rounding mode") && e.contains("v_add_f32_e32"), "{e}");
}

#[test]
fn faults_name_the_instruction() {
    let mut s = Snippet::new(false);
    s.set_v(0, |_| 0x10_0000);
    let e = s.run(&asm("ds_read_b32 v1, v0", false)).unwrap_err();
    assert!(e.contains("ds_read_b32 v1, v0") && e.contains("LDS access out of bounds"), "{e}");
    let e = Snippet::new(false).run(&asm("global_load_dword v1, v[2:3], off", false)).unwrap_err();
    assert!(e.contains("global_load_dword") && e.contains("unmapped address 0x0"), "{e}");
    let e = Snippet::new(false).run(&asm("s_trap 2", false)).unwrap_err();
    assert!(e.contains("s_trap"), "{e}");
    let e = Snippet::new(false).run(&asm("image_load v[0:3], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D", false)).unwrap_err();
    assert!(e.contains("image_load") && e.contains("not emulated"), "{e}");
}

#[test]
fn dot_products_follow_the_pseudo_code() {
    // v_dot2_f32_f16: tmp = S2; tmp += lo*lo; tmp += hi*hi, rounding after each add. With
    // S2 = 1.0 and both products 2^-24 each add rounds back to 1.0 (adding the products first
    // would give 1 + 2^-23).
    let p = half::f16::from_f32(2f32.powi(-12)).to_bits() as u32;
    let s = run32("v_dot2_f32_f16 v3, v0, v1, v2", |s| {
        s.set_v(0, |_| p | p << 16);
        s.set_v(1, |_| p | p << 16);
        s.set_v(2, |_| 1.0f32.to_bits());
    });
    assert_eq!(f32::from_bits(s.wave.vr(3, 0)), 1.0);
    // gfx11 v_dot4_i32_iu8: neg_lo[0] makes A signed, neg_lo[1] makes B signed.
    let s = run_gfx11("v_dot4_i32_iu8 v3, v0, v1, v2 neg_lo:[1,0,0]\n v_dot4_i32_iu8 v4, v0, v1, v2", false, |s| {
        s.set_v(0, |_| 0xff02_80ff); // bytes (low first): -1/255, -128/128, 2, -1/255
        s.set_v(1, |_| 0x0103_0204);
        s.set_v(2, |_| 10);
    });
    let a = [0xffu8, 0x80, 0x02, 0xff];
    let b = [0x04u8, 0x02, 0x03, 0x01];
    let signed: i32 = 10 + (0..4).map(|k| a[k] as i8 as i32 * b[k] as i32).sum::<i32>();
    let unsigned: i32 = 10 + (0..4).map(|k| a[k] as i32 * b[k] as i32).sum::<i32>();
    assert_eq!((s.wave.vr(3, 0) as i32, s.wave.vr(4, 0) as i32), (signed, unsigned));
}

/// `src_lds_direct` (a source read from LDS at the address M0 holds) is refused by name, not
/// read as 0.
#[test]
fn lds_direct_sources_are_refused_by_name() {
    let mut s = Snippet::new(false);
    let e = s.run(&asm("v_mov_b32 v1, src_lds_direct", false)).err().expect("refused");
    assert!(e.to_string().contains("src_lds_direct"), "{e}");
}
