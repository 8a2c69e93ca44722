//! `v_sin`, `v_cos`, `v_exp` and `v_log` (f32 and f16), step for step as
//! `rdna_emu::float::sin_cos_revolutions`, `exp2_f64` and `log2_f64` define them: IEEE f64 additions and
//! multiplications only (each kept unfused by `Gen::op`), so the result agrees with the
//! emulator's to the bit on any device with IEEE f64.

use rdna_emu::float::{COS_2PI, EXP2_TAYLOR, LOG2_1P, LOG2_BINS, ROUND_INT_F64, SIN_2PI};
use rspirv::spirv::{GLOp, Op, Word};

use super::Gen;

impl Gen {
    /// `sin(2πx)` or `cos(2πx)` of a finite f64 `x` (revolutions), as an f64.
    /// (A function of the module: [`Gen::call_helper`].)
    fn sin_cos_revolutions(&mut self, x: Word, cos: bool) -> Word {
        let ft = self.f64t();
        self.call_helper(super::Helper::SinCosRevolutions(cos), ft, ft, &[x], |g, p| g.sin_cos_revolutions_body(p[0], cos))
    }

    fn sin_cos_revolutions_body(&mut self, x: Word, cos: bool) -> Word {
        let (ft, u, boolt) = (self.f64t(), self.t.u32, self.t.bool);
        let round = |g: &mut Gen, v: Word| {
            let c = g.cf64(ROUND_INT_F64);
            let s = g.op(Op::FAdd, ft, &[v, c]);
            g.op(Op::FSub, ft, &[s, c])
        };
        // The fraction of a turn, exactly; none from 2^51 up.
        let n = round(self, x);
        let frac = self.op(Op::FSub, ft, &[x, n]);
        let ax = self.gl(GLOp::FAbs, ft, &[x]);
        let limit = self.cf64(2f64.powi(51));
        let whole = self.op(Op::FOrdGreaterThanEqual, boolt, &[ax, limit]);
        let zero = self.cf64(0.0);
        let r = self.sel(ft, whole, zero, frac);
        // Quarter turns: q in -2..=2, t = r - q/4 in [-1/8, 1/8].
        let four = self.cf64(4.0);
        let r4 = self.op(Op::FMul, ft, &[r, four]);
        let q = round(self, r4);
        let quarter = self.cf64(0.25);
        let qq = self.op(Op::FMul, ft, &[q, quarter]);
        let t = self.op(Op::FSub, ft, &[r, qq]);
        let t2 = self.op(Op::FMul, ft, &[t, t]);
        let horner = |g: &mut Gen, coeffs: &[f64]| {
            let mut acc = g.cf64(*coeffs.last().unwrap());
            for &c in coeffs.iter().rev().skip(1) {
                let m = g.op(Op::FMul, ft, &[acc, t2]);
                let c = g.cf64(c);
                acc = g.op(Op::FAdd, ft, &[m, c]);
            }
            acc
        };
        let sp = horner(self, &SIN_2PI);
        let sin = self.op(Op::FMul, ft, &[t, sp]);
        let cos_v = horner(self, &COS_2PI);
        // Which quarter: (q + cos) & 3 picks sin, cos, -sin, -cos.
        let qi = self.op(Op::ConvertFToS, u, &[q]);
        let k = self.c32(cos as u32);
        let qi = self.op(Op::IAdd, u, &[qi, k]);
        let (one, two, three) = (self.c32(1), self.c32(2), self.c32(3));
        let qi = self.op(Op::BitwiseAnd, u, &[qi, three]);
        let odd = self.op(Op::BitwiseAnd, u, &[qi, one]);
        let odd = self.op(Op::IEqual, boolt, &[odd, one]);
        let v = self.sel(ft, odd, cos_v, sin);
        let negative = self.op(Op::UGreaterThanEqual, boolt, &[qi, two]);
        let nv = self.op(Op::FNegate, ft, &[v]);
        self.sel(ft, negative, nv, v)
    }

    /// `v_sin_f32`/`v_cos_f32` on f32 bits (`rdna_emu::float::sin_cos32`).
    pub(super) fn sin_cos32(&mut self, a: Word, cos: bool) -> Word {
        let (f, u, boolt) = (self.t.f32, self.t.u32, self.t.bool);
        let ft = self.f64t();
        let x = self.as_f32(a);
        let xd = self.op(Op::FConvert, ft, &[x]);
        let v = self.sin_cos_revolutions(xd, cos);
        let r = self.op(Op::FConvert, f, &[v]);
        let r = self.from_f32(r);
        let quiet = self.c32(0x40_0000);
        let qnan = self.op(Op::BitwiseOr, u, &[a, quiet]);
        let default_nan = self.c32(0x7fc0_0000);
        let (nan, inf) = (self.op(Op::IsNan, boolt, &[x]), self.op(Op::IsInf, boolt, &[x]));
        let r = self.sel(u, inf, default_nan, r);
        self.sel(u, nan, qnan, r)
    }

    /// `v_sin_f16`/`v_cos_f16` on f16 bits (`rdna_emu::float::sin_cos16`), rounded once.
    pub(super) fn sin_cos16(&mut self, a: Word, cos: bool) -> Word {
        let (u, boolt) = (self.t.u32, self.t.bool);
        let ft = self.f64t();
        let x = self.f16_to_f32(a);
        let xd = self.op(Op::FConvert, ft, &[x]);
        let v = self.sin_cos_revolutions(xd, cos);
        let r = self.f64_to_f16(v);
        let (m16, exp, man) = (self.c32(0xffff), self.c32(0x7c00), self.c32(0x3ff));
        let h = self.op(Op::BitwiseAnd, u, &[a, m16]);
        let e = self.op(Op::BitwiseAnd, u, &[h, exp]);
        let special = self.op(Op::IEqual, boolt, &[e, exp]);
        let m = self.op(Op::BitwiseAnd, u, &[h, man]);
        let z = self.c32(0);
        let is_nan = self.op(Op::INotEqual, boolt, &[m, z]);
        let quiet = self.c32(0x200);
        let qnan = self.op(Op::BitwiseOr, u, &[h, quiet]);
        let default_nan = self.c32(0x7e00);
        let s = self.sel(u, is_nan, qnan, default_nan);
        self.sel(u, special, s, r)
    }

    /// `2^x` of a non-NaN f64 (`rdna_emu::float::exp2_f64`).
    /// (A function of the module: [`Gen::call_helper`].)
    fn exp2_f64(&mut self, x: Word) -> Word {
        let ft = self.f64t();
        self.call_helper(super::Helper::Exp2, ft, ft, &[x], |g, p| g.exp2_f64_body(p[0]))
    }

    fn exp2_f64_body(&mut self, x: Word) -> Word {
        let (ft, u, u64t) = (self.f64t(), self.t.u32, self.t.u64);
        let (lo, hi) = (self.cf64(-200.0), self.cf64(200.0));
        let x = self.gl(GLOp::FClamp, ft, &[x, lo, hi]);
        let c = self.cf64(ROUND_INT_F64);
        let s = self.op(Op::FAdd, ft, &[x, c]);
        let n = self.op(Op::FSub, ft, &[s, c]);
        let f = self.op(Op::FSub, ft, &[x, n]);
        let mut p = self.cf64(*EXP2_TAYLOR.last().unwrap());
        for &k in EXP2_TAYLOR.iter().rev().skip(1) {
            let m = self.op(Op::FMul, ft, &[p, f]);
            let k = self.cf64(k);
            p = self.op(Op::FAdd, ft, &[m, k]);
        }
        let ni = self.op(Op::ConvertFToS, u, &[n]);
        let bias = self.c32(1023);
        let e = self.op(Op::IAdd, u, &[ni, bias]);
        let e = self.op(Op::UConvert, u64t, &[e]);
        let c52 = self.c64(52);
        let e = self.op(Op::ShiftLeftLogical, u64t, &[e, c52]);
        let scale = self.as_f64(e);
        self.op(Op::FMul, ft, &[p, scale])
    }

    /// `v_exp_f32` on f32 bits (`rdna_emu::float::exp2_32`).
    pub(super) fn exp2_32(&mut self, a: Word) -> Word {
        let (f, u, boolt) = (self.t.f32, self.t.u32, self.t.bool);
        let ft = self.f64t();
        let x = self.as_f32(a);
        let xd = self.op(Op::FConvert, ft, &[x]);
        let v = self.exp2_f64(xd);
        let r = self.op(Op::FConvert, f, &[v]);
        let r = self.from_f32(r);
        let quiet = self.c32(0x40_0000);
        let qnan = self.op(Op::BitwiseOr, u, &[a, quiet]);
        let nan = self.op(Op::IsNan, boolt, &[x]);
        self.sel(u, nan, qnan, r)
    }

    /// `v_exp_f16` on f16 bits (`rdna_emu::float::exp2_16`), rounded once.
    pub(super) fn exp2_16(&mut self, a: Word) -> Word {
        let (u, boolt) = (self.t.u32, self.t.bool);
        let ft = self.f64t();
        let x = self.f16_to_f32(a);
        let xd = self.op(Op::FConvert, ft, &[x]);
        let v = self.exp2_f64(xd);
        let r = self.f64_to_f16(v);
        let m16 = self.c32(0xffff);
        let h = self.op(Op::BitwiseAnd, u, &[a, m16]);
        let quiet = self.c32(0x200);
        let qnan = self.op(Op::BitwiseOr, u, &[h, quiet]);
        let nan = self.op(Op::IsNan, boolt, &[x]);
        self.sel(u, nan, qnan, r)
    }

    /// `log2(x)` of a finite positive f64 (`rdna_emu::float::log2_f64`); the bin's table entry
    /// is chosen by a chain of selects (64 entries, no memory).
    /// (A function of the module: [`Gen::call_helper`].)
    fn log2_f64(&mut self, x: Word) -> Word {
        let ft = self.f64t();
        self.call_helper(super::Helper::Log2, ft, ft, &[x], |g, p| g.log2_f64_body(p[0]))
    }

    fn log2_f64_body(&mut self, x: Word) -> Word {
        let (ft, u, u64t, boolt) = (self.f64t(), self.t.u32, self.t.u64, self.t.bool);
        let b = self.from_f64(x);
        let (c52, c46, m11, m6) = (self.c64(52), self.c64(46), self.c64(0x7ff), self.c64(63));
        let e = self.op(Op::ShiftRightLogical, u64t, &[b, c52]);
        let e = self.op(Op::BitwiseAnd, u64t, &[e, m11]);
        let e = self.op(Op::UConvert, u, &[e]);
        let bias = self.c32(1023);
        let e = self.op(Op::ISub, u, &[e, bias]);
        let (man, one_exp) = (self.c64((1 << 52) - 1), self.c64(1023 << 52));
        let m = self.op(Op::BitwiseAnd, u64t, &[b, man]);
        let m = self.op(Op::BitwiseOr, u64t, &[m, one_exp]);
        let m = self.as_f64(m);
        let bin = self.op(Op::ShiftRightLogical, u64t, &[b, c46]);
        let bin = self.op(Op::BitwiseAnd, u64t, &[bin, m6]);
        let bin = self.op(Op::UConvert, u, &[bin]);
        let c32 = self.c32(32);
        let upper = self.op(Op::UGreaterThanEqual, boolt, &[bin, c32]);
        let half = self.cf64(0.5);
        let mh = self.op(Op::FMul, ft, &[m, half]);
        let m = self.sel(ft, upper, mh, m);
        let one = self.c32(1);
        let e1 = self.op(Op::IAdd, u, &[e, one]);
        let e = self.sel(u, upper, e1, e);
        let (mut inv, mut t) = (self.cf64(LOG2_BINS[0].0), self.cf64(LOG2_BINS[0].1));
        for (i, &(bi, bt)) in LOG2_BINS.iter().enumerate().skip(1) {
            let ci = self.c32(i as u32);
            let here = self.op(Op::IEqual, boolt, &[bin, ci]);
            let (vi, vt) = (self.cf64(bi), self.cf64(bt));
            inv = self.sel(ft, here, vi, inv);
            t = self.sel(ft, here, vt, t);
        }
        let one_f = self.cf64(1.0);
        let mi = self.op(Op::FMul, ft, &[m, inv]);
        let r = self.op(Op::FSub, ft, &[mi, one_f]);
        let mut p = self.cf64(*LOG2_1P.last().unwrap());
        for &k in LOG2_1P.iter().rev().skip(1) {
            let q = self.op(Op::FMul, ft, &[p, r]);
            let k = self.cf64(k);
            p = self.op(Op::FAdd, ft, &[q, k]);
        }
        let p = self.op(Op::FMul, ft, &[r, p]);
        let ef = self.op(Op::ConvertSToF, ft, &[e]);
        let et = self.op(Op::FAdd, ft, &[ef, t]);
        self.op(Op::FAdd, ft, &[et, p])
    }

    /// `log2` of an f32 value (f16 ones widened) as an f64, with the special inputs replaced by
    /// 1 (their results are chosen after); returns it and the tests (NaN, ±∞, ±0, negative).
    fn log2_finite(&mut self, x: Word) -> (Word, [Word; 4]) {
        let boolt = self.t.bool;
        let ft = self.f64t();
        let xd = self.op(Op::FConvert, ft, &[x]);
        let (one, zero) = (self.cf64(1.0), self.cf32(0.0));
        let (nan, inf) = (self.op(Op::IsNan, boolt, &[x]), self.op(Op::IsInf, boolt, &[x]));
        let is_zero = self.op(Op::FOrdEqual, boolt, &[x, zero]);
        let negative = self.op(Op::FOrdLessThan, boolt, &[x, zero]);
        let odd = self.op(Op::LogicalOr, boolt, &[nan, inf]);
        let odd = self.op(Op::LogicalOr, boolt, &[odd, is_zero]);
        let odd = self.op(Op::LogicalOr, boolt, &[odd, negative]);
        let xs = self.sel(ft, odd, one, xd);
        (self.log2_f64(xs), [nan, inf, is_zero, negative])
    }

    /// The results of `v_log` for special inputs, over `r`: +∞ itself, a negative input the
    /// default NaN, ±0 -∞, a NaN quietened. `bits` is the input, `width` 16 or 32.
    fn log2_specials(&mut self, r: Word, bits: Word, tests: [Word; 4], width: u32) -> Word {
        let u = self.t.u32;
        let [nan, inf, is_zero, negative] = tests;
        let (quiet, ninf, dnan) = if width == 16 { (0x200, 0xfc00, 0xfe00) } else { (0x40_0000, 0xff80_0000, 0xffc0_0000) };
        let quiet = self.c32(quiet);
        let qnan = self.op(Op::BitwiseOr, u, &[bits, quiet]);
        let (ninf, dnan) = (self.c32(ninf), self.c32(dnan));
        let r = self.sel(u, inf, bits, r);
        let r = self.sel(u, negative, dnan, r);
        let r = self.sel(u, is_zero, ninf, r);
        self.sel(u, nan, qnan, r)
    }

    /// `v_log_f32` on f32 bits (`rdna_emu::float::log2_32`).
    pub(super) fn log2_32(&mut self, a: Word) -> Word {
        let x = self.as_f32(a);
        let (v, tests) = self.log2_finite(x);
        let r = self.op(Op::FConvert, self.t.f32, &[v]);
        let r = self.from_f32(r);
        self.log2_specials(r, a, tests, 32)
    }

    /// `v_log_f16` on f16 bits (`rdna_emu::float::log2_16`), rounded once.
    pub(super) fn log2_16(&mut self, a: Word) -> Word {
        let m16 = self.c32(0xffff);
        let h = self.op(Op::BitwiseAnd, self.t.u32, &[a, m16]);
        let x = self.f16_to_f32(h);
        let (v, tests) = self.log2_finite(x);
        let r = self.f64_to_f16(v);
        self.log2_specials(r, h, tests, 16)
    }
}
