//! f64 arithmetic the driver cannot be trusted with, and the division helpers clang's f64 (and
//! f16) division is built from, mirroring the emulator's `div_scale`, `div_fixup64` and the
//! v_div_fmas arm: special cases and scaling by selection chains on bits and exponents.
//!
//! `fma64` is a fused multiply-add built from correctly rounded f64 operations (Vulkan makes
//! add, subtract and multiply correctly rounded; its `Fma` may be a separate multiply and add,
//! as lavapipe's is). f64 division and square root are taken from the driver, which is trusted
//! to round them correctly (lavapipe's and NVIDIA's do; the corpus checks both).

use rspirv::spirv::{Op, Word};

use super::Gen;

impl Gen {
    /// `v_div_fixup_f16/f32/f64` as the emulator's `div_fixup64` (f16 and f32 through f64, then
    /// back): the special cases of S1 / S2, else |S0| with the quotient's sign. `width`: 16
    /// (bits in the low half of a u32), 32 or 64 (a u64).
    pub(super) fn div_fixup(&mut self, width: u32, s0: Word, s1: Word, s2: Word) -> Word {
        let boolt = self.t.bool;
        let ft = self.f64t();
        let wide = width == 64;
        let ut = if wide { self.t.u64 } else { self.t.u32 };
        let c = |g: &mut Gen, v: u64| if wide { g.c64(v) } else { g.c32(v as u32) };
        let to_f64 = |g: &mut Gen, v: Word| match width {
            16 => {
                let x = g.f16_to_f32(v);
                g.op(Op::FConvert, ft, &[x])
            }
            32 => {
                let x = g.as_f32(v);
                g.op(Op::FConvert, ft, &[x])
            }
            _ => g.as_f64(v),
        };
        let (x0, x1, x2) = (to_f64(self, s0), to_f64(self, s1), to_f64(self, s2));
        let (sign_bit, quiet, neg_nan, inf) = match width {
            16 => (0x8000u64, 0x200u64, 0xfe00u64, 0x7c00u64),
            32 => (1 << 31, 1 << 22, 0xffc0_0000, 0x7f80_0000),
            _ => (1 << 63, 1 << 51, 0xfff8_0000_0000_0000, 0x7ff0_0000_0000_0000),
        };
        let (sb, qb) = (c(self, sign_bit), c(self, quiet));
        let z = c(self, 0);
        let sg1 = self.op(Op::BitwiseAnd, ut, &[s1, sb]);
        let sg2 = self.op(Op::BitwiseAnd, ut, &[s2, sb]);
        let sign = self.op(Op::BitwiseXor, ut, &[sg1, sg2]);
        let neg = self.op(Op::INotEqual, boolt, &[sign, z]);
        let zero = self.cf64(0.0);
        let is = |g: &mut Gen, code: Op, x: Word| if code == Op::FOrdEqual { g.op(code, boolt, &[x, zero]) } else { g.op(code, boolt, &[x]) };
        let (n0, n1, n2) = (is(self, Op::IsNan, x0), is(self, Op::IsNan, x1), is(self, Op::IsNan, x2));
        let (z1, z2) = (is(self, Op::FOrdEqual, x1), is(self, Op::FOrdEqual, x2));
        let (i1, i2) = (is(self, Op::IsInf, x1), is(self, Op::IsInf, x2));
        let infv = c(self, inf);
        let signed_inf = self.op(Op::BitwiseOr, ut, &[infv, sign]);
        // |S0| with the quotient's sign.
        let nsb = self.op(Op::Not, ut, &[sb]);
        let mag0 = self.op(Op::BitwiseAnd, ut, &[s0, nsb]);
        let mut r = self.op(Op::BitwiseOr, ut, &[mag0, sign]);
        // The tests, last first so that the first that holds wins.
        r = self.sel(ut, n0, signed_inf, r);
        let mut zero_res = self.op(Op::LogicalOr, boolt, &[i1, z2]);
        if width != 16 {
            // The exponents so far apart that the quotient rounds to zero (AMD's UNDERFLOW).
            let (e1, e2) = (self.exp_field(s1, wide), self.exp_field(s2, wide));
            let d = self.op(Op::ISub, self.t.u32, &[e2, e1]);
            let limit = self.c32(if wide { -1075i32 } else { -150 } as u32);
            let under = self.op(Op::SLessThan, boolt, &[d, limit]);
            zero_res = self.op(Op::LogicalOr, boolt, &[zero_res, under]);
        }
        r = self.sel(ut, zero_res, sign, r);
        let inf_res = self.op(Op::LogicalOr, boolt, &[z1, i2]);
        r = self.sel(ut, inf_res, signed_inf, r);
        let zz = self.op(Op::LogicalAnd, boolt, &[z1, z2]);
        let ii = self.op(Op::LogicalAnd, boolt, &[i1, i2]);
        let invalid = self.op(Op::LogicalOr, boolt, &[zz, ii]);
        let nn = c(self, neg_nan);
        r = self.sel(ut, invalid, nn, r);
        let q1 = self.op(Op::BitwiseOr, ut, &[s1, qb]);
        r = self.sel(ut, n1, q1, r);
        let q2 = self.op(Op::BitwiseOr, ut, &[s2, qb]);
        r = self.sel(ut, n2, q2, r);
        let _ = neg;
        if width == 16 {
            let lo16 = self.c32(0xffff);
            r = self.op(Op::BitwiseAnd, ut, &[r, lo16]);
        }
        r
    }

    /// The exponent `v_div_fmas` scales by where VCC is set (`rdna_emu::valu::div_fmas_scale`):
    /// ±64 (f64: ±128), positive when S2's exponent field is at least the bias.
    pub(super) fn div_fmas_scale(&mut self, s2: Word, wide: bool) -> Word {
        let (u, boolt) = (self.t.u32, self.t.bool);
        let e = self.exp_field(s2, wide);
        let (bias, scale) = if wide { (1023u32, 128i32) } else { (127, 64) };
        let cb = self.c32(bias);
        let big = self.op(Op::UGreaterThanEqual, boolt, &[e, cb]);
        let (up, down) = (self.c32(scale as u32), self.c32(-scale as u32));
        self.sel(u, big, up, down)
    }

    /// `v_div_scale_f32/f64` as the emulator's `div_scale` (AMD's pseudo-code): S0 scaled by
    /// 2^64/2^128 or their inverse, or kept, so that the reciprocal iteration neither under- nor
    /// overflows; returns (result bits, the VCC bit). The first case that holds decides. f32
    /// operands are widened to f64 (exactly); the f32 quotient's class is that of the f64
    /// quotient rounded to f32, the same since a quotient of 24-bit numbers cannot lie within
    /// 2^-53 of an f32 midpoint unless it is one.
    pub(super) fn div_scale(&mut self, wide: bool, s0: Word, s1: Word, s2: Word) -> (Word, Word) {
        let (u, boolt) = (self.t.u32, self.t.bool);
        let ft = self.f64t();
        let widen = |g: &mut Gen, s: Word| {
            if wide {
                g.as_f64(s)
            } else {
                let f = g.as_f32(s);
                g.op(Op::FConvert, ft, &[f])
            }
        };
        let (x0, x1, x2) = (widen(self, s0), widen(self, s1), widen(self, s2));
        // Exponent field and subnormality in the operation's own width.
        let exp = |g: &mut Gen, bits: Word| g.exp_field(bits, wide);
        let narrow = |g: &mut Gen, x: Word| if wide { g.from_f64(x) } else { let f = g.op(Op::FConvert, g.t.f32, &[x]); g.from_f32(f) };
        let zero = self.cf64(0.0);
        let z32 = self.c32(0);
        // Subnormal in the operation's width: exponent field 0, magnitude bits not all 0.
        let subnormal = |g: &mut Gen, x: Word| {
            let b = narrow(g, x);
            let e = exp(g, b);
            let e0 = g.op(Op::IEqual, boolt, &[e, z32]);
            let nz = if wide {
                g.op(Op::FUnordNotEqual, boolt, &[x, zero])
            } else {
                let m = g.c32(0x7fff_ffff);
                let mag = g.op(Op::BitwiseAnd, u, &[b, m]);
                g.op(Op::INotEqual, boolt, &[mag, z32])
            };
            g.op(Op::LogicalAnd, boolt, &[e0, nz])
        };
        let (e1, e2) = (exp(self, s1), exp(self, s2));
        let (scale, near_max, tiny): (i32, u32, u32) = if wide { (128, 768, 53) } else { (64, 96, 23) };
        let cs = self.c32(scale as u32);
        let up = self.ldexp64(x0, cs);
        let ms = self.c32(-scale as u32);
        let down = self.ldexp64(x0, ms);
        let eq1 = self.op(Op::FOrdEqual, boolt, &[x0, x1]);
        let eq2 = self.op(Op::FOrdEqual, boolt, &[x0, x2]);
        let up_if1 = self.sel(ft, eq1, up, x0);
        let up_if2 = self.sel(ft, eq2, up, x0);
        let one = self.cf64(1.0);
        let r1 = self.op(Op::FDiv, ft, &[one, x1]);
        // 1 / S1 in f64 denormal or zero (AMD's pseudo-code tests it in f64 for both widths).
        let r1_zero = self.op(Op::FOrdEqual, boolt, &[r1, zero]);
        let r1_sub = {
            let b = self.from_f64(r1);
            let e = self.exp_field64(b);
            let e0 = self.op(Op::IEqual, boolt, &[e, z32]);
            let nz = self.op(Op::FUnordNotEqual, boolt, &[r1, zero]);
            self.op(Op::LogicalAnd, boolt, &[e0, nz])
        };
        let rcp_denorm = self.op(Op::LogicalOr, boolt, &[r1_sub, r1_zero]);
        let q = self.op(Op::FDiv, ft, &[x2, x1]);
        let q_denorm = subnormal(self, q);
        let tr = self.b.constant_true(boolt);
        let fl = self.b.constant_false(boolt);
        // From the last case to the first.
        let ctiny = self.c32(tiny);
        let is_tiny = self.op(Op::ULessThanEqual, boolt, &[e2, ctiny]);
        let mut r = self.sel(ft, is_tiny, up, x0);
        let mut v = fl;
        r = self.sel(ft, q_denorm, up_if2, r);
        v = self.sel(boolt, q_denorm, tr, v);
        r = self.sel(ft, rcp_denorm, down, r);
        v = self.sel(boolt, rcp_denorm, fl, v);
        let both = self.op(Op::LogicalAnd, boolt, &[rcp_denorm, q_denorm]);
        r = self.sel(ft, both, up_if1, r);
        v = self.sel(boolt, both, tr, v);
        let s1_sub = subnormal(self, x1);
        r = self.sel(ft, s1_sub, up, r);
        v = self.sel(boolt, s1_sub, fl, v);
        let d = self.op(Op::ISub, u, &[e2, e1]);
        let cnear = self.c32(near_max);
        let near = self.op(Op::SGreaterThanEqual, boolt, &[d, cnear]);
        r = self.sel(ft, near, up_if1, r);
        v = self.sel(boolt, near, tr, v);
        let (z1, z2) = (self.op(Op::FOrdEqual, boolt, &[x1, zero]), self.op(Op::FOrdEqual, boolt, &[x2, zero]));
        let zz = self.op(Op::LogicalOr, boolt, &[z1, z2]);
        let nan = self.cf64(f64::NAN);
        r = self.sel(ft, zz, nan, r);
        v = self.sel(boolt, zz, fl, v);
        if wide {
            (self.from_f64(r), v)
        } else {
            // NaN: the emulator's f32::NAN.
            let rb = narrow(self, r);
            let n32 = self.c32(f32::NAN.to_bits());
            (self.sel(u, zz, n32, rb), v)
        }
    }

    /// `x · y + z` rounded once (f64 Words), for every input. x and y are scaled to [1, 2) and
    /// z by the same power of two (kept as a sign-only sticky value when far below the product,
    /// and returned as the result when far above it); the core ([`Gen::fma64_core`]) then runs
    /// in a range where it is exact, and scaling back is exact for a normal result; a subnormal
    /// one is rounded to its grid once by [`Gen::round_subnormal`]. An infinite z with finite x and y gives
    /// z; other zeros, infinities and NaNs take the driver's `Fma`, exact for them whether it
    /// is fused or not.
    ///
    /// The body is a function of the module, written at the first use and called at each: it
    /// is about 1,000 SPIR-V instructions, which an f64 division (three fmas in
    /// `v_div_scale`/`v_div_fmas`/`v_fma_f64` steps) would otherwise repeat several times.
    pub(super) fn fma64(&mut self, x: Word, y: Word, z: Word) -> Word {
        let ft = self.f64t();
        self.call_helper(super::Helper::Fma64, ft, ft, &[x, y, z], |g, p| g.fma64_body(p[0], p[1], p[2]))
    }

    /// [`Gen::fma64`]'s body, on the helper function's parameters.
    fn fma64_body(&mut self, x: Word, y: Word, z: Word) -> Word {
        let (i, boolt) = (self.t.u32, self.t.bool);
        let ft = self.f64t();
        let finite_nonzero = |g: &mut Gen, v: Word| {
            let zero = g.cf64(0.0);
            let nz = g.op(Op::FOrdNotEqual, boolt, &[v, zero]);
            let inf = g.op(Op::IsInf, boolt, &[v]);
            let fin = g.op(Op::LogicalNot, boolt, &[inf]);
            g.op(Op::LogicalAnd, boolt, &[nz, fin])
        };
        let (fx, fy, fz) = (finite_nonzero(self, x), finite_nonzero(self, y), finite_nonzero(self, z));
        // A zero z takes the main path too: an unfused driver turns a product that underflows
        // to -0 plus +0 into +0.
        let z_inf = self.op(Op::IsInf, boolt, &[z]);
        let z_nan = self.op(Op::IsNan, boolt, &[z]);
        let z_bad = self.op(Op::LogicalOr, boolt, &[z_inf, z_nan]);
        let z_finite = self.op(Op::LogicalNot, boolt, &[z_bad]);
        let plain = self.op(Op::LogicalAnd, boolt, &[fx, fy]);
        let plain = self.op(Op::LogicalAnd, boolt, &[plain, z_finite]);
        let ((xs, ex), (ys, ey), (zs, ez)) = (self.unit_scale(x), self.unit_scale(y), self.unit_scale(z));
        let k = self.op(Op::IAdd, i, &[ex, ey]);
        let d = self.op(Op::ISub, i, &[ez, k]);
        // z' = z · 2^-k: its mantissa with exponent d, or a sticky 2^-200 below the product's
        // lowest bit (2^-104).
        let scaled_z = self.with_exponent(zs, d);
        let m200 = self.c32(-200i32 as u32);
        let sticky = self.gl(rspirv::spirv::GLOp::FSign, ft, &[z]);
        let tiny = self.cf64(2f64.powi(-200));
        let sticky = self.op(Op::FMul, ft, &[sticky, tiny]);
        let far_below = self.op(Op::SLessThan, boolt, &[d, m200]);
        let zz = self.sel(ft, far_below, sticky, scaled_z);
        let zero = self.cf64(0.0);
        let zz = self.sel(ft, fz, zz, zero);
        let (th, v) = self.fma64_core(xs, ys, zz);
        let rn = self.op(Op::FAdd, ft, &[th, v]);
        let (_, er) = self.unit_scale(rn);
        let e = self.op(Op::IAdd, i, &[er, k]);
        let c1022 = self.c32(-1022i32 as u32);
        let subnormal = self.op(Op::SLessThan, boolt, &[e, c1022]);
        let normal = self.ldexp64(rn, k);
        let sub = self.round_subnormal(th, v, k);
        let r = self.sel(ft, subnormal, sub, normal);
        // z far above the product (more than 2^60 times it): the product only breaks no tie.
        let c60 = self.c32(60);
        let far_above = self.op(Op::SGreaterThan, boolt, &[d, c60]);
        let far_above = self.op(Op::LogicalAnd, boolt, &[far_above, fz]);
        let r = self.sel(ft, far_above, z, r);
        let driver = self.gl(rspirv::spirv::GLOp::Fma, ft, &[x, y, z]);
        let r = self.sel(ft, plain, r, driver);
        // An infinite z with finite x and y is the result: an unfused driver would overflow the
        // product and make NaN of inf - inf.
        let finite = |g: &mut Gen, v: Word| {
            let inf = g.op(Op::IsInf, boolt, &[v]);
            let nan = g.op(Op::IsNan, boolt, &[v]);
            let bad = g.op(Op::LogicalOr, boolt, &[inf, nan]);
            g.op(Op::LogicalNot, boolt, &[bad])
        };
        let (gx, gy) = (finite(self, x), finite(self, y));
        let z_inf = self.op(Op::IsInf, boolt, &[z]);
        let only_z = self.op(Op::LogicalAnd, boolt, &[gx, gy]);
        let only_z = self.op(Op::LogicalAnd, boolt, &[only_z, z_inf]);
        self.sel(ft, only_z, z, r)
    }

    /// The subnormal result 2^k · (th + v), rounded once to the subnormal grid: s = th + v
    /// rounded to nearest and its exact error e; s in units of 2^-1074 (an exact
    /// scaling) rounded to an integer with ties to even, except that a tie e breaks toward e's
    /// side (s was itself rounded); an exact zero is +0.
    fn round_subnormal(&mut self, th: Word, v: Word, k: Word) -> Word {
        let (i, boolt) = (self.t.u32, self.t.bool);
        let ft = self.f64t();
        let (rn, e) = self.two_sum(th, v);
        let c1074 = self.c32(1074);
        let sh = self.op(Op::IAdd, i, &[k, c1074]);
        let m = self.ldexp64(rn, sh);
        let mb = self.from_f64(m);
        let n = self.round_int(mb, true, false);
        let n = self.as_f64(n);
        let diff = self.op(Op::FSub, ft, &[m, n]);
        let ad = self.gl(rspirv::spirv::GLOp::FAbs, ft, &[diff]);
        let (half, zero) = (self.cf64(0.5), self.cf64(0.0));
        let tie = self.op(Op::FOrdEqual, boolt, &[ad, half]);
        let inexact = self.op(Op::FOrdNotEqual, boolt, &[e, zero]);
        let tie = self.op(Op::LogicalAnd, boolt, &[tie, inexact]);
        let (dp, ep) = (self.op(Op::FOrdGreaterThan, boolt, &[diff, zero]), self.op(Op::FOrdGreaterThan, boolt, &[e, zero]));
        let same = self.op(Op::LogicalEqual, boolt, &[dp, ep]);
        let fix = self.op(Op::LogicalAnd, boolt, &[tie, same]);
        let two = self.cf64(2.0);
        let step = self.op(Op::FMul, ft, &[diff, two]);
        let other = self.op(Op::FAdd, ft, &[n, step]);
        let n = self.sel(ft, fix, other, n);
        let unit = self.cf64(f64::from_bits(1));
        let r = self.op(Op::FMul, ft, &[n, unit]);
        let exact_zero = self.op(Op::FOrdEqual, boolt, &[rn, zero]);
        self.sel(ft, exact_zero, zero, r)
    }

    /// A finite nonzero f64 as (mantissa in [1, 2) with its sign, unbiased exponent), from
    /// [`Gen::frexp64`] (subnormals normalised; zeros, infinities and NaNs give values the
    /// callers do not use).
    fn unit_scale(&mut self, v: Word) -> (Word, Word) {
        let b = self.from_f64(v);
        let (m, e) = self.frexp64(b);
        let m = self.as_f64(m);
        let z = self.c32(0);
        let one = self.c32(1);
        (self.with_exponent(m, z), self.op(Op::ISub, self.t.u32, &[e, one]))
    }

    /// The biased exponent field of f64 bits (`wide`, a u64) or f32 bits (a u32), as a u32.
    pub(super) fn exp_field(&mut self, bits: Word, wide: bool) -> Word {
        if wide {
            return self.exp_field64(bits);
        }
        let (c23, m) = (self.c32(23), self.c32(0xff));
        let e = self.op(Op::ShiftRightLogical, self.t.u32, &[bits, c23]);
        self.op(Op::BitwiseAnd, self.t.u32, &[e, m])
    }

    /// The biased exponent field of f64 bits (a u64), as a u32.
    pub(super) fn exp_field64(&mut self, bits: Word) -> Word {
        let (c52, m) = (self.c64(52), self.c64(0x7ff));
        let e = self.op(Op::ShiftRightLogical, self.t.u64, &[bits, c52]);
        let e = self.op(Op::BitwiseAnd, self.t.u64, &[e, m]);
        self.op(Op::UConvert, self.t.u32, &[e])
    }

    /// `v` (normal) with its exponent replaced by `e` (unbiased, in the normal range).
    fn with_exponent(&mut self, v: Word, e: Word) -> Word {
        let (i, u64t) = (self.t.u32, self.t.u64);
        let b = self.from_f64(v);
        let keep = self.c64(!(0x7ffu64 << 52));
        let b = self.op(Op::BitwiseAnd, u64t, &[b, keep]);
        let bias = self.c32(1023);
        let e = self.op(Op::IAdd, i, &[e, bias]);
        let e = self.op(Op::UConvert, u64t, &[e]);
        let c52 = self.c64(52);
        let e = self.op(Op::ShiftLeftLogical, u64t, &[e, c52]);
        let b = self.op(Op::BitwiseOr, u64t, &[b, e]);
        self.as_f64(b)
    }

    /// Boldo and Melquiond's emulated FMA for |x|, |y| in [1, 2) and |z| at most 2^61: Dekker's
    /// exact product ph + pl (Veltkamp splitting), th + tl = z + ph exactly, and v = tl + pl
    /// rounded to odd; `th + v` rounded once is the fused result. Returns (th, v).
    fn fma64_core(&mut self, x: Word, y: Word, z: Word) -> (Word, Word) {
        let ft = self.f64t();
        let split = |g: &mut Gen, v: Word| {
            let k = g.cf64(134_217_729.0);
            let t = g.op(Op::FMul, ft, &[v, k]);
            let d = g.op(Op::FSub, ft, &[t, v]);
            let hi = g.op(Op::FSub, ft, &[t, d]);
            let lo = g.op(Op::FSub, ft, &[v, hi]);
            (hi, lo)
        };
        let ((xh, xl), (yh, yl)) = (split(self, x), split(self, y));
        let ph = self.op(Op::FMul, ft, &[x, y]);
        let hh = self.op(Op::FMul, ft, &[xh, yh]);
        let e = self.op(Op::FSub, ft, &[hh, ph]);
        let hl = self.op(Op::FMul, ft, &[xh, yl]);
        let e = self.op(Op::FAdd, ft, &[e, hl]);
        let lh = self.op(Op::FMul, ft, &[xl, yh]);
        let e = self.op(Op::FAdd, ft, &[e, lh]);
        let ll = self.op(Op::FMul, ft, &[xl, yl]);
        let pl = self.op(Op::FAdd, ft, &[e, ll]);
        let (th, tl) = self.two_sum(z, ph);
        let v = self.round_to_odd_sum(tl, pl);
        (th, v)
    }
}
