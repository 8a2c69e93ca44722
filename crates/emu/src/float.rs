//! Floating-point helpers with the GPU's conventions: denormal flushing per MODE, IEEE-mode
//! min/max, f16 conversion, and the classification used by `v_cmp_class`.

use half::f16;

/// Denormal handling of the current MODE, for one precision.
#[derive(Clone, Copy, Debug)]
pub struct Denorm {
    pub flush_in: bool,
    pub flush_out: bool,
}

impl Denorm {
    /// From a 2-bit MODE denorm field: bit 0 keeps input denormals, bit 1 keeps output ones.
    pub fn from_mode(bits: u32) -> Denorm {
        Denorm { flush_in: bits & 1 == 0, flush_out: bits & 2 == 0 }
    }

    #[inline]
    pub fn in32(self, bits: u64) -> f32 {
        let b = bits as u32;
        if self.flush_in && b & 0x7f80_0000 == 0 {
            f32::from_bits(b & 0x8000_0000)
        } else {
            f32::from_bits(b)
        }
    }

    #[inline]
    pub fn out32(self, f: f32) -> u64 {
        let b = f.to_bits();
        (if self.flush_out && b & 0x7f80_0000 == 0 { b & 0x8000_0000 } else { b }) as u64
    }

    #[inline]
    pub fn in64(self, bits: u64) -> f64 {
        if self.flush_in && bits & 0x7ff0_0000_0000_0000 == 0 {
            f64::from_bits(bits & 1 << 63)
        } else {
            f64::from_bits(bits)
        }
    }

    #[inline]
    pub fn out64(self, f: f64) -> u64 {
        let b = f.to_bits();
        if self.flush_out && b & 0x7ff0_0000_0000_0000 == 0 {
            b & 1 << 63
        } else {
            b
        }
    }

    /// An f16 operand (low 16 bits), widened to f32 (exactly).
    #[inline]
    pub fn in16(self, bits: u64) -> f32 {
        let b = bits as u16;
        let b = if self.flush_in && b & 0x7c00 == 0 { b & 0x8000 } else { b };
        f16::from_bits(b).to_f32()
    }

    /// Rounds an f64 result to f16 once (nearest even, [`f64_to_f16`]), and flushes per mode.
    #[inline]
    pub fn out16_f64(self, f: f64) -> u64 {
        let b = f64_to_f16(f);
        (if self.flush_out && b & 0x7c00 == 0 { b & 0x8000 } else { b }) as u64
    }

    /// Rounds to f16 (nearest even) and flushes per mode.
    #[inline]
    pub fn out16(self, f: f32) -> u64 {
        let b = f16::from_f32(f).to_bits();
        (if self.flush_out && b & 0x7c00 == 0 { b & 0x8000 } else { b }) as u64
    }
}

/// f64 → bf16, rounded once to nearest even from all 53 bits. (`half::bf16::from_f64` drops
/// the low 32 mantissa bits before rounding, so a value just above a midpoint can round down.)
/// Through f32 rounded to odd: f32 carries more than bf16's 8 bits + 2 at every exponent
/// (bf16 shares f32's exponent range, subnormals included), so rounding that to bf16 rounds
/// once. NaNs as `half::bf16::from_f64` makes them.
pub fn f64_to_bf16(x: f64) -> u16 {
    if x.is_nan() {
        return half::bf16::from_f64(x).to_bits();
    }
    let r = x as f32;
    let mut b = r.to_bits();
    if r as f64 != x {
        // Toward zero (an overflow to infinity becomes the largest finite), then odd.
        if (r as f64).abs() > x.abs() {
            b -= 1;
        }
        b |= 1;
    }
    half::bf16::from_f32(f32::from_bits(b)).to_bits()
}

/// f64 → f16, rounded once to nearest even from all 53 bits. (`half::f16::from_f64` is not
/// this: with F16C it goes through f32, rounding twice, and without it drops the low 32 mantissa
/// bits, so its result depends on the host.) NaNs keep their top mantissa bits and become
/// quiet, as `half::f16::from_f32` makes them.
pub fn f64_to_f16(x: f64) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 63) as u16) << 15;
    let exp = (b >> 52 & 0x7ff) as i32;
    let man = b & ((1 << 52) - 1);
    if exp == 0x7ff {
        let quiet = if man != 0 { 0x200 } else { 0 };
        return sign | 0x7c00 | quiet | (man >> 42) as u16;
    }
    let e = exp - 1023 + 15;
    if e >= 31 {
        return sign | 0x7c00;
    }
    // Keep 10 mantissa bits (fewer below the normal range): drop `s` bits of the significand.
    let full = if exp == 0 { man } else { man | 1 << 52 };
    let s = if e >= 1 { 42 } else { (43 - e).min(63) } as u32;
    let kept = full >> s;
    let half = 1u64 << (s - 1);
    let rest = full & ((1u64 << s) - 1);
    let up = rest > half || rest == half && kept & 1 == 1;
    let body = if e >= 1 { (e as u64) << 10 | (kept & 0x3ff) } else { kept };
    sign | (body + up as u64) as u16
}

/// `x · y + z` for f16 operands (widened to f32) with one rounding, as f64 rounded to odd: the
/// product is exact in f64 and the sum keeps a sticky bit for what f64 cannot hold, so rounding
/// the result to f16 ([`f64_to_f16`]) rounds the exact value once (53 ≥ 11 + 2 bits).
pub fn fma16_exact(x: f32, y: f32, z: f32) -> f64 {
    let p = x as f64 * y as f64;
    round_to_odd_sum(p, z as f64)
}

/// `x · y + z` for f32 operands, scaled by `2^k`, rounded to f32 once: the product is exact in
/// f64, the sum rounded to odd keeps what f64 cannot hold as a sticky bit, and scaling by a
/// power of two is exact in f64 for the exponents an f32 operation needs.
pub fn fma32_scaled(x: f32, y: f32, z: f32, k: i32) -> f32 {
    let s = round_to_odd_sum(x as f64 * y as f64, z as f64);
    ldexp64(s, k) as f32
}

/// `a + b` rounded to odd: the nearest-even sum, moved one unit toward the exact sum when it is
/// inexact and its last bit is even.
pub fn round_to_odd_sum(a: f64, b: f64) -> f64 {
    let s = a + b;
    if !s.is_finite() {
        return s;
    }
    let bb = s - a;
    let err = (a - (s - bb)) + (b - bb);
    let bits = s.to_bits();
    if err == 0.0 || bits & 1 == 1 {
        return s;
    }
    // Toward the error: up in magnitude when it has the sum's sign (s is never 0 here unless
    // the exact sum is err itself, which the two-sum rules out).
    let away = (s < 0.0) == (err < 0.0);
    f64::from_bits(if away { bits + 1 } else { bits - 1 })
}

/// f32 → f16 rounding toward zero (`v_cvt_pkrtz_f16_f32`).
pub fn f32_to_f16_rtz(f: f32) -> u16 {
    let n = f16::from_f32(f);
    if n.is_nan() || n.is_infinite() && f.is_infinite() {
        return n.to_bits();
    }
    // Step back one ulp toward zero if rounding went away from zero.
    let back = n.to_f32();
    if back.abs() > f.abs() {
        let b = n.to_bits();
        if b & 0x7fff == 0 {
            return b;
        }
        return b - 1;
    }
    n.to_bits()
}

#[inline]
pub fn is_snan32(b: u32) -> bool {
    b & 0x7f80_0000 == 0x7f80_0000 && b & 0x7f_ffff != 0 && b & 0x40_0000 == 0
}

#[inline]
pub fn is_snan64(b: u64) -> bool {
    b & 0x7ff0_0000_0000_0000 == 0x7ff0_0000_0000_0000 && b & 0xf_ffff_ffff_ffff != 0 && b & 0x8_0000_0000_0000 == 0
}

/// `v_min_f32`/`v_max_f32`: a quiet NaN loses to a number; in IEEE mode a signalling NaN input
/// gives a quiet NaN; -0 orders below +0.
#[inline]
pub fn minmax32(a: f32, b: f32, max: bool, ieee: bool) -> f32 {
    if ieee && (is_snan32(a.to_bits()) || is_snan32(b.to_bits())) {
        let n = if a.is_nan() { a } else { b };
        return f32::from_bits(n.to_bits() | 0x40_0000);
    }
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    let lt = a < b || (a == b && a.is_sign_negative() && !b.is_sign_negative());
    if lt != max {
        a
    } else {
        b
    }
}

#[inline]
pub fn minmax64(a: f64, b: f64, max: bool, ieee: bool) -> f64 {
    if ieee && (is_snan64(a.to_bits()) || is_snan64(b.to_bits())) {
        let n = if a.is_nan() { a } else { b };
        return f64::from_bits(n.to_bits() | 0x8_0000_0000_0000);
    }
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    let lt = a < b || (a == b && a.is_sign_negative() && !b.is_sign_negative());
    if lt != max {
        a
    } else {
        b
    }
}

/// `v_med3_f32`: with any NaN, the minimum of the three; else the middle value.
pub fn med3_32(a: f32, b: f32, c: f32, ieee: bool) -> f32 {
    if a.is_nan() || b.is_nan() || c.is_nan() {
        return minmax32(minmax32(a, b, false, ieee), c, false, ieee);
    }
    let mx = minmax32(minmax32(a, b, true, ieee), c, true, ieee);
    if mx.to_bits() == a.to_bits() {
        minmax32(b, c, true, ieee)
    } else if mx.to_bits() == b.to_bits() {
        minmax32(a, c, true, ieee)
    } else {
        minmax32(a, b, true, ieee)
    }
}

/// The `v_cmp_class` bit of a value: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0,
/// 6 +0, 7 +denormal, 8 +normal, 9 +inf.
pub fn class_bit(sign: bool, exp_all_ones: bool, exp_zero: bool, mant_zero: bool, quiet: bool) -> u32 {
    if exp_all_ones {
        if !mant_zero {
            return if quiet { 1 } else { 0 };
        }
        return if sign { 2 } else { 9 };
    }
    if exp_zero {
        if mant_zero {
            return if sign { 5 } else { 6 };
        }
        return if sign { 4 } else { 7 };
    }
    if sign {
        3
    } else {
        8
    }
}

pub fn class32(b: u32) -> u32 {
    class_bit(b >> 31 != 0, b & 0x7f80_0000 == 0x7f80_0000, b & 0x7f80_0000 == 0, b & 0x7f_ffff == 0, b & 0x40_0000 != 0)
}

pub fn class64(b: u64) -> u32 {
    let e = b >> 52 & 0x7ff;
    class_bit(b >> 63 != 0, e == 0x7ff, e == 0, b & 0xf_ffff_ffff_ffff == 0, b >> 51 & 1 != 0)
}

pub fn class16(b: u16) -> u32 {
    let e = b >> 10 & 0x1f;
    class_bit(b >> 15 != 0, e == 0x1f, e == 0, b & 0x3ff == 0, b >> 9 & 1 != 0)
}

/// The biased exponent field.
pub fn exp32(f: f32) -> i32 {
    (f.to_bits() >> 23 & 0xff) as i32
}

pub fn exp64(f: f64) -> i32 {
    (f.to_bits() >> 52 & 0x7ff) as i32
}

/// `x * 2^n`, exact where the result is representable, rounding once otherwise.
pub fn ldexp64(x: f64, n: i32) -> f64 {
    let n = n.clamp(-2200, 2200);
    let mut r = x;
    let mut k = n;
    while k > 1000 {
        r *= 2f64.powi(1000);
        k -= 1000;
    }
    while k < -1000 {
        // Scale in steps that cannot round before the last one.
        r *= 2f64.powi(-1000);
        k += 1000;
    }
    r * 2f64.powi(k)
}

pub fn ldexp32(x: f32, n: i32) -> f32 {
    // f64 holds every f32 times any power of two in range exactly; one rounding at the end.
    (ldexp64(x as f64, n.clamp(-400, 400))) as f32
}

/// `frexp`: mantissa in [0.5, 1) and exponent, with the GPU's answers for 0, inf and NaN.
pub fn frexp64(x: f64) -> (f64, i32) {
    if x == 0.0 || x.is_nan() || x.is_infinite() {
        return (x, 0);
    }
    let b = x.to_bits();
    let e = (b >> 52 & 0x7ff) as i32;
    if e == 0 {
        let (m, e2) = frexp64(x * 2f64.powi(64));
        return (m, e2 - 64);
    }
    let m = f64::from_bits(b & !(0x7ff << 52) | (1022u64 << 52));
    (m, e - 1022)
}

pub fn frexp32(x: f32) -> (f32, i32) {
    let (m, e) = frexp64(x as f64);
    (m as f32, e)
}


/// Taylor coefficients of `sin(2πt)` (odd powers, `t¹` first) or `cos(2πt)` (even powers, `t⁰`
/// first), computed from `TAU` in f64: `cₙ = -cₙ₋₂ · TAU² / (n(n−1))`. Enough terms for |t| ≤ 1/8
/// that the series' remainder is below 1e-19.
const fn taylor_2pi<const N: usize>(first: u32) -> [f64; N] {
    let mut c = [0.0; N];
    let tau = std::f64::consts::TAU;
    c[0] = if first == 1 { tau } else { 1.0 };
    let mut i = 1;
    while i < N {
        let n = (first + 2 * i as u32) as f64;
        c[i] = -c[i - 1] * (tau * tau) / (n * (n - 1.0));
        i += 1;
    }
    c
}

/// [`taylor_2pi`] for the sine: coefficients of `t, t³, …, t¹⁷`.
pub const SIN_2PI: [f64; 9] = taylor_2pi::<9>(1);
/// [`taylor_2pi`] for the cosine: coefficients of `1, t², …, t¹⁸`.
pub const COS_2PI: [f64; 10] = taylor_2pi::<10>(0);
/// Adding and subtracting this rounds an f64 below 2⁵¹ in magnitude to the nearest integer (ties
/// to even), using nothing but two IEEE additions.
pub const ROUND_INT_F64: f64 = 6_755_399_441_055_744.0; // 1.5 · 2⁵²

/// `sin(2πx)` (or `cos(2πx)`) of a finite f32 or f16 value `x` given in revolutions, as
/// `v_sin_f32`/`v_cos_f32` (and the f16 forms) define it. The definition is made of IEEE f64
/// additions and multiplications only, so that the recompiler can emit the very same steps
/// and agree to the bit: the argument is reduced exactly (`x − round(x)`, then by quarter
/// turns to |t| ≤ 1/8), then a Taylor polynomial in `t` runs in Horner form. Its result is
/// within about 2⁻⁵² of the true value, so rounded to f32 it is the correctly rounded one
/// except where the true value lies within that of a rounding boundary (the test in
/// `tests/semantics.rs` bounds it at one ulp and measures how rarely it differs).
pub fn sin_cos_revolutions(x: f64, cos: bool) -> f64 {
    // Whole turns: every value from 2⁵¹ up is an integer, with no fraction of a turn left.
    let r = if x.abs() >= 2_251_799_813_685_248.0 { 0.0 } else { x - ((x + ROUND_INT_F64) - ROUND_INT_F64) };
    let q = (4.0 * r + ROUND_INT_F64) - ROUND_INT_F64;
    let t = r - q * 0.25;
    let quarter = (q as i32 + cos as i32) & 3;
    let t2 = t * t;
    let v = if quarter & 1 == 0 {
        t * SIN_2PI.iter().rev().fold(0.0, |acc, &c| acc * t2 + c)
    } else {
        COS_2PI.iter().rev().fold(0.0, |acc, &c| acc * t2 + c)
    };
    if quarter >= 2 { -v } else { v }
}

/// `v_sin_f32`/`v_cos_f32` on f32 bits: NaNs come back quieted, infinities give the default
/// NaN, finite values [`sin_cos_revolutions`] rounded to f32.
pub fn sin_cos32(x: f32, cos: bool) -> f32 {
    if x.is_nan() {
        f32::from_bits(x.to_bits() | 0x40_0000)
    } else if x.is_infinite() {
        f32::from_bits(0x7fc0_0000)
    } else {
        sin_cos_revolutions(x as f64, cos) as f32
    }
}

/// `v_sin_f16`/`v_cos_f16`, as [`sin_cos32`] for f16 bits, rounded once to f16.
pub fn sin_cos16(x: u16, cos: bool) -> u16 {
    if x & 0x7c00 == 0x7c00 {
        return if x & 0x3ff != 0 { x | 0x200 } else { 0x7e00 };
    }
    f64_to_f16(sin_cos_revolutions(half::f16::from_bits(x).to_f64(), cos))
}

/// Taylor coefficients of `2^f = e^(f ln 2)`: `(ln 2)^k / k!` for k = 0..16, computed in f64.
/// For |f| ≤ 1/2 the series' remainder is below 1e-19.
pub const EXP2_TAYLOR: [f64; 16] = {
    let mut c = [1.0; 16];
    let mut k = 1;
    while k < 16 {
        c[k] = c[k - 1] * std::f64::consts::LN_2 / k as f64;
        k += 1;
    }
    c
};

/// `2^x` of a finite or infinite f32 or f16 value `x` (not NaN), as `v_exp_f32`/`v_exp_f16`
/// define it: clamped to ±200 (beyond the f32 range either way), split exactly into an integer
/// `n` and `f` in [-1/2, 1/2], `2^f` by a Taylor polynomial in Horner form, then scaled by `2^n`
/// (exact in f64). IEEE f64 additions and multiplications only, so that the recompiler can emit
/// the same steps; within about 2⁻⁵² of the true value (bounded against libm in
/// `tests/semantics.rs`).
pub fn exp2_f64(x: f64) -> f64 {
    let x = x.clamp(-200.0, 200.0);
    let n = (x + ROUND_INT_F64) - ROUND_INT_F64;
    let f = x - n;
    let p = EXP2_TAYLOR.iter().rev().fold(0.0, |acc, &c| acc * f + c);
    p * f64::from_bits(((n as i64 + 1023) as u64) << 52)
}

/// `v_exp_f32`: NaNs come back quieted, everything else [`exp2_f64`] rounded to f32.
pub fn exp2_32(x: f32) -> f32 {
    if x.is_nan() {
        f32::from_bits(x.to_bits() | 0x40_0000)
    } else {
        exp2_f64(x as f64) as f32
    }
}

/// `v_exp_f16`, as [`exp2_32`] on f16 bits, rounded once to f16.
pub fn exp2_16(x: u16) -> u16 {
    if x & 0x7c00 == 0x7c00 && x & 0x3ff != 0 {
        return x | 0x200;
    }
    f64_to_f16(exp2_f64(half::f16::from_bits(x).to_f64()))
}

#[path = "generated/log2_table.rs"]
mod log2_table;
pub use log2_table::LOG2_BINS;

/// Coefficients of `log2(1 + r) / r` as a polynomial in `r`: `(-1)^n / ((n + 1) ln 2)`, n = 0..10.
/// For |r| ≤ 1/64 the series' remainder is below 1e-19.
pub const LOG2_1P: [f64; 10] = {
    let mut c = [0.0; 10];
    let mut n = 0;
    while n < 10 {
        let v = 1.0 / ((n + 1) as f64 * std::f64::consts::LN_2);
        c[n] = if n % 2 == 0 { v } else { -v };
        n += 1;
    }
    c
};

/// `log2(x)` of a finite positive f32 or f16 value `x` (widened, so normal in f64), as
/// `v_log_f32`/`v_log_f16` define it: `x = 2^e · m`, the mantissa's bin in [`LOG2_BINS`] gives an
/// approximate reciprocal `inv` (on a grid that keeps `m · inv` exact) and `t = -log2(inv)`, and
/// `log2(x) = (e + t) + log2(1 + r)` with `r = m · inv − 1` small, by a polynomial. IEEE f64
/// additions and multiplications only, for the recompiler to emit alike; within a few 2⁻⁵³ of
/// the true value, with full relative accuracy near 1 (bounded against libm in
/// `tests/semantics.rs`).
pub fn log2_f64(x: f64) -> f64 {
    let b = x.to_bits();
    let e = (b >> 52 & 0x7ff) as i64 - 1023;
    let m = f64::from_bits(b & ((1 << 52) - 1) | 1023 << 52);
    let bin = (b >> 46 & 63) as usize;
    // Mantissas from 1.5 up are taken as m / 2 in [0.75, 1): the bins then centre on 1.
    let (m, e) = if bin >= 32 { (m * 0.5, e + 1) } else { (m, e) };
    let (inv, t) = LOG2_BINS[bin];
    let r = m * inv - 1.0;
    let p = r * LOG2_1P.iter().rev().fold(0.0, |acc, &c| acc * r + c);
    (e as f64 + t) + p
}

/// `v_log_f32`: NaNs come back quieted, a negative input gives x86's default NaN 0xffc00000,
/// ±0 gives -∞, +∞ itself; the rest [`log2_f64`] rounded to f32.
pub fn log2_32(x: f32) -> f32 {
    if x.is_nan() {
        f32::from_bits(x.to_bits() | 0x40_0000)
    } else if x == 0.0 {
        f32::NEG_INFINITY
    } else if x < 0.0 {
        f32::from_bits(0xffc0_0000)
    } else if x.is_infinite() {
        x
    } else {
        log2_f64(x as f64) as f32
    }
}

/// `v_log_f16`, as [`log2_32`] on f16 bits, rounded once to f16.
pub fn log2_16(x: u16) -> u16 {
    let (nan, zero, negative, inf) = (x & 0x7c00 == 0x7c00 && x & 0x3ff != 0, x & 0x7fff == 0, x & 0x8000 != 0, x == 0x7c00);
    if nan {
        x | 0x200
    } else if zero {
        0xfc00
    } else if negative {
        0xfe00
    } else if inf {
        x
    } else {
        f64_to_f16(log2_f64(half::f16::from_bits(x).to_f64()))
    }
}

#[cfg(test)]
mod half_tests {
    use super::*;

    /// A deterministic stream of test values.
    fn values(n: usize) -> impl Iterator<Item = u64> {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        (0..n).map(move |_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
    }

    #[test]
    fn f64_to_f16_agrees_with_the_f32_conversion_where_f32_holds_the_value() {
        // half's f32 → f16 rounds once from all 24 bits: the oracle for f64s that are f32s.
        for r in values(200_000) {
            let f = f32::from_bits(r as u32);
            let want = f16::from_f32(f).to_bits();
            assert_eq!(f64_to_f16(f as f64), want, "{f:e} ({:#x})", f.to_bits());
        }
    }

    #[test]
    fn f64_to_f16_rounds_to_the_nearest_even_f16() {
        // The f16 values either side of x and their midpoint are exact in f64, so the nearest
        // can be decided exactly.
        for r in values(200_000) {
            // Exponents around the f16 range, random 52-bit mantissas.
            let e = 1023 - 30 + (r >> 52) % 50;
            let x = f64::from_bits(r & (1 << 63 | ((1 << 52) - 1)) | e << 52);
            let h = f64_to_f16(x);
            let got = f16::from_bits(h).to_f64();
            if got.is_infinite() {
                assert!(x.abs() >= 65520.0, "{x:e} rounded to infinity");
                continue;
            }
            let step = |b: u16| f16::from_bits(b).to_f64();
            let (below, above) = if got.abs() <= x.abs() { (h, h + 1) } else { (h - 1, h) };
            let (lo, hi) = (step(below).abs(), step(above & 0x7fff | below & 0x8000).abs());
            let mid = (lo + hi) / 2.0;
            let want = if x.abs() < mid || x.abs() == mid && below & 1 == 0 { below } else { above };
            assert_eq!(h, want, "{x:e}: got {got:e}");
        }
    }

    #[test]
    fn f64_to_bf16_rounds_to_the_nearest_even_bf16() {
        // half's f32 → bf16 rounds once from all 24 bits: the oracle where f32 holds the value.
        for r in values(100_000) {
            let f = f32::from_bits(r as u32);
            if !f.is_nan() {
                assert_eq!(f64_to_bf16(f as f64), half::bf16::from_f32(f).to_bits(), "{f:e}");
            }
        }
        // Elsewhere: the bf16 values either side of x and their midpoint are exact in f64.
        for r in values(100_000) {
            // Exponents across bf16's range (subnormals and overflow included).
            let e = 1023 - 140 + (r >> 52) % 270;
            let x = f64::from_bits(r & (1 << 63 | ((1 << 52) - 1)) | e << 52);
            let h = f64_to_bf16(x);
            let got = half::bf16::from_bits(h).to_f64();
            let step = |b: u16| half::bf16::from_bits(b).to_f64();
            if got.is_infinite() {
                let max = step(0x7f7f);
                assert!(x.abs() >= max + (max - step(0x7f7e)) / 2.0, "{x:e} rounded to infinity");
                continue;
            }
            let (below, above) = if got.abs() <= x.abs() { (h, h + 1) } else { (h - 1, h) };
            let (lo, hi) = (step(below).abs(), step(above & 0x7fff | below & 0x8000).abs());
            let mid = (lo + hi) / 2.0;
            let want = if x.abs() < mid || x.abs() == mid && below & 1 == 0 { below } else { above };
            assert_eq!(h, want, "{x:e}: got {got:e}");
        }
        // Just above a midpoint, by less than f32 can hold: half's f64 conversion ties it to
        // even (down); the nearest is up.
        let x = 1.0 + 2f64.powi(-8) + 2f64.powi(-40);
        assert_eq!(f64_to_bf16(x), 0x3f81);
        assert_eq!(half::bf16::from_f64(x).to_bits(), 0x3f80, "half drops the low bits");
    }

    #[test]
    fn fma16_rounds_once() {
        // (1 + 2^-11) · 2^14 is the midpoint of two f16s (their spacing there is 2^4). An addend
        // of 2^-40 lies 54 bits below it, beyond an f64 sum: rounded to odd it still breaks the
        // tie upward, where a plain f64 sum would tie to even, downward.
        let x = (1.0 + 2f32.powi(-11)) * 16384.0;
        let two14 = f16::from_f32(16384.0).to_bits();
        assert_eq!(f64_to_f16(fma16_exact(x, 1.0, 0.0)), two14);
        assert_eq!(f64_to_f16(x as f64 + 2f64.powi(-40)), two14, "the plain f64 sum loses the addend");
        assert_eq!(f64_to_f16(fma16_exact(x, 1.0, 2f32.powi(-40))), two14 + 1);
        assert_eq!(f64_to_f16(fma16_exact(x, 1.0, -2f32.powi(-40))), two14);
    }
}
