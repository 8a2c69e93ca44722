//! `v_sin`, `v_cos` and `v_exp` (f32 and f16), step for step as
//! `rdna_emu::float::sin_cos_revolutions` and `exp2_f64` define them: IEEE f64 additions and
//! multiplications only (each kept unfused by `Gen::op`), so the result agrees with the
//! emulator's to the bit on any device with IEEE f64.

use rdna_emu::float::{COS_2PI, EXP2_TAYLOR, ROUND_INT_F64, SIN_2PI};
use rspirv::spirv::{GLOp, Op, Word};

use super::Gen;

impl Gen {
    /// `sin(2πx)` or `cos(2πx)` of a finite f64 `x` (revolutions), as an f64.
    fn sin_cos_revolutions(&mut self, x: Word, cos: bool) -> Word {
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
    fn exp2_f64(&mut self, x: Word) -> Word {
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
}
