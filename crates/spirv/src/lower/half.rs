//! f16 arithmetic, mirroring `rdna_emu::float`: f16 operands widen to f32 exactly, results
//! round to f16 once with `f64_to_f16` (nearest even, from all 53 bits of an f64), and fused
//! multiply-adds round the exact value once through an f64 sum rounded to odd. Everything is
//! integer and f32/f64 arithmetic: no Float16 capability is needed.

use rdna_emu::program::{Src, Step};
use rdna_emu::sem::VOp;
use rdna_emu::valu::Mods;
use rspirv::spirv::{GLOp, Op, Word};

use super::{Gen, Lowered};

/// The VOP3P operations lowered, by kind (what `support::supports` admits).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Packed {
    Float,
    Int,
    Mix,
    /// Dot products of whole 32-bit sources (defined in the IR).
    Dot,
    /// gfx11's dot products whose sources' signedness the neg bits choose.
    MixedDot,
    /// `v_dot2_f32_bf16` (whole 32-bit sources, `Gen::lane_op`).
    Bf16Dot,
}

pub(crate) fn packed_class(op: VOp) -> Option<Packed> {
    use VOp::*;
    Some(match op {
        PkAddF16 | PkMulF16 | PkFmaF16 | PkFmacF16 | PkMinF16 | PkMaxF16 => Packed::Float,
        PkAddU16 | PkSubU16 | PkMulLoU16 | PkLshlrevB16 | PkLshrrevB16 | PkAshrrevI16 | PkMinI16 | PkMaxI16 | PkMinU16 | PkMaxU16 | PkMadU16
        | PkMadI16 | PkAddI16 | PkSubI16 => Packed::Int,
        FmaMixF32 | FmaMixloF16 | FmaMixhiF16 => Packed::Mix,
        Dot4U32U8 | Dot4I32I8 | Dot8I32I4 | Dot8U32U4 | Dot2I32I16 | Dot2U32U16 | Dot2F32F16 => Packed::Dot,
        Dot4I32Iu8 | Dot8I32Iu4 => Packed::MixedDot,
        Dot2F32Bf16 => Packed::Bf16Dot,
        _ => return None,
    })
}

impl Gen {
    /// The f16 in the low 16 bits of `bits` (a u32), widened to f32 exactly (NaNs quietened).
    pub(super) fn f16_to_f32(&mut self, bits: Word) -> Word {
        let (u, boolt) = (self.t.u32, self.t.bool);
        let c = |g: &mut Gen, v: u32| g.c32(v);
        let (m10, m5, c10, c13, c16) = (c(self, 0x3ff), c(self, 0x1f), c(self, 10), c(self, 13), c(self, 16));
        let man = self.op(Op::BitwiseAnd, u, &[bits, m10]);
        let exp = self.op(Op::ShiftRightLogical, u, &[bits, c10]);
        let exp = self.op(Op::BitwiseAnd, u, &[exp, m5]);
        let top = c(self, 0x8000);
        let s = self.op(Op::BitwiseAnd, u, &[bits, top]);
        let s = self.op(Op::ShiftLeftLogical, u, &[s, c16]);
        // Normal: rebias the exponent (15 → 127); infinity and NaN: all ones; zero and
        // denormals: the mantissa times 2^-24, exact in f32.
        let m13 = self.op(Op::ShiftLeftLogical, u, &[man, c13]);
        let bias = c(self, 112);
        let e = self.op(Op::IAdd, u, &[exp, bias]);
        let c23 = c(self, 23);
        let e = self.op(Op::ShiftLeftLogical, u, &[e, c23]);
        let normal = self.op(Op::BitwiseOr, u, &[e, m13]);
        // NaNs come out quiet, as `half`'s conversion (and x86's) makes them.
        let inf = c(self, 0x7f80_0000);
        let special = self.op(Op::BitwiseOr, u, &[inf, m13]);
        let z0 = c(self, 0);
        let is_nan = self.op(Op::INotEqual, boolt, &[man, z0]);
        let quiet = c(self, 0x40_0000);
        let qb = self.sel(u, is_nan, quiet, z0);
        let special = self.op(Op::BitwiseOr, u, &[special, qb]);
        let mf = self.op(Op::ConvertUToF, self.t.f32, &[man]);
        let scale = self.cf32(2f32.powi(-24));
        let small = self.op(Op::FMul, self.t.f32, &[mf, scale]);
        let small = self.from_f32(small);
        let (z, all) = (c(self, 0), c(self, 31));
        let is_small = self.op(Op::IEqual, boolt, &[exp, z]);
        let is_special = self.op(Op::IEqual, boolt, &[exp, all]);
        let v = self.sel(u, is_small, small, normal);
        let v = self.sel(u, is_special, special, v);
        let v = self.op(Op::BitwiseOr, u, &[v, s]);
        self.as_f32(v)
    }

    /// `rdna_emu::float::f64_to_f16`: an f64 rounded to the nearest even f16, as u32 bits.
    pub(super) fn f64_to_f16(&mut self, x: Word) -> Word {
        let (u, u64t, boolt) = (self.t.u32, self.t.u64, self.t.bool);
        let b = self.from_f64(x);
        let c64 = |g: &mut Gen, v: u64| g.c64(v);
        let (c63, mman) = (c64(self, 63), c64(self, (1 << 52) - 1));
        let sign = self.op(Op::ShiftRightLogical, u64t, &[b, c63]);
        let sign = self.op(Op::UConvert, u, &[sign]);
        let c15 = self.c32(15);
        let sign = self.op(Op::ShiftLeftLogical, u, &[sign, c15]);
        let exp = self.exp_field64(b);
        let man = self.op(Op::BitwiseAnd, u64t, &[b, mman]);
        // Infinity and NaN.
        let c42 = c64(self, 42);
        let top = self.op(Op::ShiftRightLogical, u64t, &[man, c42]);
        let top = self.op(Op::UConvert, u, &[top]);
        let z64 = c64(self, 0);
        let is_nan = self.op(Op::INotEqual, boolt, &[man, z64]);
        let (q, z) = (self.c32(0x200), self.c32(0));
        let quiet = self.sel(u, is_nan, q, z);
        let c7c = self.c32(0x7c00);
        let special = self.op(Op::BitwiseOr, u, &[c7c, quiet]);
        let special = self.op(Op::BitwiseOr, u, &[special, top]);
        let c7ff = self.c32(0x7ff);
        let is_special = self.op(Op::IEqual, boolt, &[exp, c7ff]);
        // Finite: e is the f16 exponent (signed); s the bits dropped from the significand.
        let rebias = self.c32(1023 - 15);
        let e = self.op(Op::ISub, u, &[exp, rebias]);
        let c31 = self.c32(31);
        let too_big = self.op(Op::SGreaterThanEqual, boolt, &[e, c31]);
        let one = self.c32(1);
        let normal = self.op(Op::SGreaterThanEqual, boolt, &[e, one]);
        let hidden = c64(self, 1 << 52);
        let with = self.op(Op::BitwiseOr, u64t, &[man, hidden]);
        let is_den = self.op(Op::IEqual, boolt, &[exp, z]);
        let full = self.sel(u64t, is_den, man, with);
        let c43 = self.c32(43);
        let sd = self.op(Op::ISub, u, &[c43, e]);
        let c63u = self.c32(63);
        let sd = self.gl(rspirv::spirv::GLOp::SMin, u, &[sd, c63u]);
        let c42u = self.c32(42);
        let s = self.sel(u, normal, c42u, sd);
        let s64 = self.op(Op::UConvert, u64t, &[s]);
        let kept = self.op(Op::ShiftRightLogical, u64t, &[full, s64]);
        let one64 = c64(self, 1);
        let s1 = self.op(Op::ISub, u64t, &[s64, one64]);
        let half = self.op(Op::ShiftLeftLogical, u64t, &[one64, s1]);
        let span = self.op(Op::ShiftLeftLogical, u64t, &[one64, s64]);
        let span = self.op(Op::ISub, u64t, &[span, one64]);
        let rest = self.op(Op::BitwiseAnd, u64t, &[full, span]);
        let above = self.op(Op::UGreaterThan, boolt, &[rest, half]);
        let tie = self.op(Op::IEqual, boolt, &[rest, half]);
        let lsb = self.op(Op::BitwiseAnd, u64t, &[kept, one64]);
        let odd = self.op(Op::IEqual, boolt, &[lsb, one64]);
        let tie_odd = self.op(Op::LogicalAnd, boolt, &[tie, odd]);
        let up = self.op(Op::LogicalOr, boolt, &[above, tie_odd]);
        let kept = self.op(Op::UConvert, u, &[kept]);
        let m3ff = self.c32(0x3ff);
        let mant = self.op(Op::BitwiseAnd, u, &[kept, m3ff]);
        let c10 = self.c32(10);
        let eb = self.op(Op::ShiftLeftLogical, u, &[e, c10]);
        let nbody = self.op(Op::BitwiseOr, u, &[eb, mant]);
        let body = self.sel(u, normal, nbody, kept);
        let inc = self.sel(u, up, one, z);
        let body = self.op(Op::IAdd, u, &[body, inc]);
        let body = self.sel(u, too_big, c7c, body);
        let body = self.sel(u, is_special, special, body);
        self.op(Op::BitwiseOr, u, &[sign, body])
    }

    /// The bf16 in the low (`high`: high) half of `bits` (a u32) as an f32 value (exact).
    pub(super) fn bf16_to_f32(&mut self, bits: Word, high: bool) -> Word {
        let u = self.t.u32;
        let b = if high {
            let m = self.c32(0xffff_0000);
            self.op(Op::BitwiseAnd, u, &[bits, m])
        } else {
            let c16 = self.c32(16);
            self.op(Op::ShiftLeftLogical, u, &[bits, c16])
        };
        self.as_f32(b)
    }

    /// f32 bits rounded to the nearest even bf16 (`half::bf16::from_f32`), as u32 bits: NaNs
    /// keep their top bits and become quiet.
    pub(super) fn f32_to_bf16(&mut self, x: Word) -> Word {
        let (u, boolt) = (self.t.u32, self.t.bool);
        let c = |g: &mut Gen, v: u32| g.c32(v);
        let (abs_m, inf, c16) = (c(self, 0x7fff_ffff), c(self, 0x7f80_0000), c(self, 16));
        let top = self.op(Op::ShiftRightLogical, u, &[x, c16]);
        let a = self.op(Op::BitwiseAnd, u, &[x, abs_m]);
        let nan = self.op(Op::UGreaterThan, boolt, &[a, inf]);
        let q = c(self, 0x40);
        let quiet = self.op(Op::BitwiseOr, u, &[top, q]);
        // Up when the bit below bf16's last is set and anything else (lower bits, or the last
        // bit itself) is too.
        let (half_bit, rest) = (c(self, 0x8000), c(self, 0x1_7fff));
        let z = c(self, 0);
        let hb = self.op(Op::BitwiseAnd, u, &[x, half_bit]);
        let hb = self.op(Op::INotEqual, boolt, &[hb, z]);
        let rb = self.op(Op::BitwiseAnd, u, &[x, rest]);
        let rb = self.op(Op::INotEqual, boolt, &[rb, z]);
        let up = self.op(Op::LogicalAnd, boolt, &[hb, rb]);
        let one = c(self, 1);
        let inc = self.sel(u, up, one, z);
        let r = self.op(Op::IAdd, u, &[top, inc]);
        let r = self.sel(u, nan, quiet, r);
        let m16 = c(self, 0xffff);
        self.op(Op::BitwiseAnd, u, &[r, m16])
    }

    /// `rdna_emu::float::f64_to_bf16`: an f64 value rounded once to the nearest even bf16
    /// (through f32 rounded to odd), as u32 bits.
    pub(super) fn f64_to_bf16(&mut self, x: Word) -> Word {
        let (u, u64t, boolt, ft) = (self.t.u32, self.t.u64, self.t.bool, self.f64t());
        let r = self.op(Op::FConvert, self.t.f32, &[x]);
        let back = self.op(Op::FConvert, ft, &[r]);
        let inexact = self.op(Op::FUnordNotEqual, boolt, &[back, x]);
        let (ab, ax) = (self.gl(GLOp::FAbs, ft, &[back]), self.gl(GLOp::FAbs, ft, &[x]));
        let over = self.op(Op::FOrdGreaterThan, boolt, &[ab, ax]);
        let b = self.from_f32(r);
        let (one, z) = (self.c32(1), self.c32(0));
        let dec = self.sel(u, over, one, z);
        let b = self.op(Op::ISub, u, &[b, dec]);
        let odd = self.sel(u, inexact, one, z);
        let b = self.op(Op::BitwiseOr, u, &[b, odd]);
        let r = self.f32_to_bf16(b);
        // NaN: half's f64 conversion (sign, quiet exponent, the top mantissa bits).
        let bits = self.from_f64(x);
        let c32 = self.c64(32);
        let hi = self.op(Op::ShiftRightLogical, u64t, &[bits, c32]);
        let hi = self.op(Op::UConvert, u, &[hi]);
        let (c16, sign_m, man_m, c13, q) = (self.c32(16), self.c32(0x8000), self.c32(0xf_ffff), self.c32(13), self.c32(0x7fc0));
        let s = self.op(Op::ShiftRightLogical, u, &[hi, c16]);
        let s = self.op(Op::BitwiseAnd, u, &[s, sign_m]);
        let m = self.op(Op::BitwiseAnd, u, &[hi, man_m]);
        let m = self.op(Op::ShiftRightLogical, u, &[m, c13]);
        let n = self.op(Op::BitwiseOr, u, &[s, q]);
        let n = self.op(Op::BitwiseOr, u, &[n, m]);
        let nan = self.op(Op::IsNan, boolt, &[x]);
        self.sel(u, nan, n, r)
    }

    /// An f32 rounded to the nearest even f16 (`half::f16::from_f32`), as u32 bits.
    pub(super) fn f32_to_f16(&mut self, x: Word) -> Word {
        let ft = self.f64t();
        let w = self.op(Op::FConvert, ft, &[x]);
        self.f64_to_f16(w)
    }

    /// `rdna_emu::float::fma16_exact` rounded to f16: `x · y + z` (f32 values) rounded once.
    pub(super) fn fma16(&mut self, x: Word, y: Word, z: Word) -> Word {
        let ft = self.f64t();
        let (x, y, z) = (self.op(Op::FConvert, ft, &[x]), self.op(Op::FConvert, ft, &[y]), self.op(Op::FConvert, ft, &[z]));
        let p = self.op(Op::FMul, ft, &[x, y]);
        let s = self.round_to_odd_sum(p, z);
        self.f64_to_f16(s)
    }

    /// `rdna_emu::float::f32_to_f16_rtz`: to f16 toward zero (one step back toward zero when
    /// rounding to nearest went away from it).
    pub(super) fn f32_to_f16_rtz(&mut self, x: Word) -> Word {
        let (u, boolt, f) = (self.t.u32, self.t.bool, self.t.f32);
        let n = self.f32_to_f16(x);
        let back = self.f16_to_f32(n);
        let (ab, ax) = (self.gl(rspirv::spirv::GLOp::FAbs, f, &[back]), self.gl(rspirv::spirv::GLOp::FAbs, f, &[x]));
        let away = self.op(Op::FOrdGreaterThan, boolt, &[ab, ax]);
        let m7fff = self.c32(0x7fff);
        let mag = self.op(Op::BitwiseAnd, u, &[n, m7fff]);
        let z = self.c32(0);
        let nonzero = self.op(Op::INotEqual, boolt, &[mag, z]);
        let c7c = self.c32(0x7c00);
        let is_inf = self.op(Op::IEqual, boolt, &[mag, c7c]);
        let x_inf = self.op(Op::IsInf, boolt, &[x]);
        let both_inf = self.op(Op::LogicalAnd, boolt, &[is_inf, x_inf]);
        let keep_inf = self.op(Op::LogicalNot, boolt, &[both_inf]);
        // A NaN compares false, so `away` is false for it.
        let step = self.op(Op::LogicalAnd, boolt, &[away, nonzero]);
        let step = self.op(Op::LogicalAnd, boolt, &[step, keep_inf]);
        let one = self.c32(1);
        let less = self.op(Op::ISub, u, &[n, one]);
        self.sel(u, step, less, n)
    }

    /// VOP3P operations, as `rdna_emu::valu::packed` (and the emulator's fma_mix arm) run them:
    /// each 16-bit half takes its sources' halves by op_sel (low result) and op_sel_hi (high
    /// result), with neg_lo/neg_hi on float sources.
    pub(super) fn packed(&mut self, st: &Step, op: VOp, m: &Mods) -> Lowered {
        self.packed_dpp(st, op, m, None)
    }

    /// [`Gen::packed`], with DPP: src0 from the spare row `dpp_gather` filled, and lanes
    /// outside `dpp` (the lanes DPP writes) keeping VDST.
    pub(super) fn packed_dpp(&mut self, st: &Step, op: VOp, m: &Mods, dpp: Option<Word>) -> Lowered {
        let Some(class) = packed_class(op) else { return Err(format!("internal: packed operation {op:?} admitted by `supports` without a lowering")) };
        let (float, int, mix) = (class == Packed::Float, class == Packed::Int, class == Packed::Mix);
        if class == Packed::MixedDot {
            return self.mixed_dot(st, op, m);
        }
        if (int || class == Packed::Dot) && m.clamp {
            return Err("clamp on packed integer operations is not recompiled yet".into());
        }
        if class == Packed::Dot && (m.neg | m.neg_hi) != 0 {
            return Err("signedness modifiers on dot products are not recompiled yet".into());
        }
        let st2 = st.clone();
        let m = *m;
        self.lanes_loop(true, &mut |g: &mut Gen, lane: Word| {
            let u = g.t.u32;
            let mut src = [g.c32(0); 3];
            for (k, v) in src.iter_mut().enumerate().take(st2.nsrc as usize) {
                *v = if k == 0 && dpp.is_some() { g.rd_row(g.spare_row(), lane) } else { g.src32(st2.src[k], Some(lane))? };
            }
            if op == VOp::PkFmacF16 {
                // Accumulates into VDST.
                src[2] = g.rd_v(st2.dst, lane)?;
            }
            let (lo16, c16) = (g.c32(0xffff), g.c32(16));
            let r = if mix {
                g.fma_mix(&st2, op, &m, src, lane)?
            } else if class == Packed::Bf16Dot {
                g.lane_op(op, src, None, lane)?
            } else if class == Packed::Dot {
                // Whole 32-bit sources: the IR's definition (`rdna_frontend::lift::vector_op`).
                g.vector_op_ir(op, src, None, lane)?
            } else if let Some(r) = g.byte_op(op, src) {
                r
            } else {
                let mut halves = [0; 2];
                for (half, out) in halves.iter_mut().enumerate() {
                    let mut x = [0; 3];
                    for k in 0..3 {
                        let hi = if half == 0 { m.op_sel >> k & 1 } else { m.op_sel_hi >> k & 1 } != 0;
                        let v = if hi { g.op(Op::ShiftRightLogical, u, &[src[k], c16]) } else { src[k] };
                        let mut v = g.op(Op::BitwiseAnd, u, &[v, lo16]);
                        let negb = if half == 0 { m.neg } else { m.neg_hi };
                        if float && negb >> k & 1 != 0 {
                            let sb = g.c32(0x8000);
                            v = g.op(Op::BitwiseXor, u, &[v, sb]);
                        }
                        x[k] = v;
                    }
                    *out = g.packed_half(op, x, m.clamp);
                }
                let hi = g.op(Op::ShiftLeftLogical, u, &[halves[1], c16]);
                g.op(Op::BitwiseOr, u, &[halves[0], hi])
            };
            let r = match dpp {
                Some(written) => {
                    let on = g.mask_bit(written, lane);
                    let old = g.rd_v(st2.dst, lane)?;
                    g.sel(u, on, r, old)
                }
                None => r,
            };
            g.wr_v(st2.dst, lane, r)
        })
    }

    /// One half of a packed operation on 16-bit values (in the low bits of u32s).
    fn packed_half(&mut self, op: VOp, x: [Word; 3], clamp: bool) -> Word {
        use VOp::*;
        let (u, f, boolt) = (self.t.u32, self.t.f32, self.t.bool);
        let lo16 = self.c32(0xffff);
        let sext = |g: &mut Gen, v: Word| {
            let c16 = g.c32(16);
            let t = g.op(Op::ShiftLeftLogical, u, &[v, c16]);
            g.op(Op::ShiftRightArithmetic, u, &[t, c16])
        };
        let r = match op {
            PkAddF16 | PkMulF16 | PkFmaF16 | PkFmacF16 | PkMinF16 | PkMaxF16 => {
                let (a, b) = (self.f16_to_f32(x[0]), self.f16_to_f32(x[1]));
                let r = match op {
                    PkAddF16 => {
                        let r = self.op(Op::FAdd, f, &[a, b]);
                        self.f32_to_f16(r)
                    }
                    PkMulF16 => {
                        let r = self.op(Op::FMul, f, &[a, b]);
                        self.f32_to_f16(r)
                    }
                    PkFmaF16 | PkFmacF16 => {
                        let c = self.f16_to_f32(x[2]);
                        self.fma16(a, b, c)
                    }
                    _ => {
                        let (a, b) = (self.from_f32(a), self.from_f32(b));
                        let r = self.fminmax(false, a, b, op == PkMaxF16);
                        let r = self.as_f32(r);
                        self.f32_to_f16(r)
                    }
                };
                // Clamp as any f16 result (the emulator's packed arm does the same).
                let m = Mods { clamp, ..Mods::default() };
                self.output_modifiers(r, super::valu::Out::F16, &m)
            }
            PkAddU16 | PkAddI16 => self.op(Op::IAdd, u, &[x[0], x[1]]),
            PkSubU16 | PkSubI16 => self.op(Op::ISub, u, &[x[0], x[1]]),
            PkMulLoU16 => self.op(Op::IMul, u, &[x[0], x[1]]),
            PkMadU16 | PkMadI16 => {
                let p = self.op(Op::IMul, u, &[x[0], x[1]]);
                self.op(Op::IAdd, u, &[p, x[2]])
            }
            PkLshlrevB16 | PkLshrrevB16 | PkAshrrevI16 => {
                let c15 = self.c32(15);
                let n = self.op(Op::BitwiseAnd, u, &[x[0], c15]);
                match op {
                    PkLshlrevB16 => self.op(Op::ShiftLeftLogical, u, &[x[1], n]),
                    PkLshrrevB16 => self.op(Op::ShiftRightLogical, u, &[x[1], n]),
                    _ => {
                        let v = sext(self, x[1]);
                        self.op(Op::ShiftRightArithmetic, u, &[v, n])
                    }
                }
            }
            _ => {
                // Min/max, signed or unsigned.
                let signed = matches!(op, PkMinI16 | PkMaxI16);
                let (a, b) = if signed { (sext(self, x[0]), sext(self, x[1])) } else { (x[0], x[1]) };
                let lt = self.op(if signed { Op::SLessThan } else { Op::ULessThan }, boolt, &[a, b]);
                if matches!(op, PkMinI16 | PkMinU16) { self.sel(u, lt, a, b) } else { self.sel(u, lt, b, a) }
            }
        };
        self.op(Op::BitwiseAnd, u, &[r, lo16])
    }

    /// gfx11's `v_dot4_i32_iu8` / `v_dot8_i32_iu4`, as the emulator: neg_lo[0] and neg_lo[1]
    /// say whether A's and B's 8- or 4-bit fields are signed; the sum with C is exact in 64
    /// bits, then wraps (or, with clamp, saturates) to 32.
    fn mixed_dot(&mut self, st: &Step, op: VOp, m: &Mods) -> Lowered {
        let (sa, sb, clamp) = (m.neg & 1 != 0, m.neg & 2 != 0, m.clamp);
        let bits = if op == VOp::Dot4I32Iu8 { 8 } else { 4 };
        let st2 = st.clone();
        self.lanes_loop(true, &mut |g: &mut Gen, lane: Word| {
            let (u, u64t, boolt) = (g.t.u32, g.t.u64, g.t.bool);
            let mut src = [g.c32(0); 3];
            for (k, v) in src.iter_mut().enumerate() {
                *v = g.src32(st2.src[k], Some(lane))?;
            }
            let wide_s = |g: &mut Gen, v: Word| g.op(Op::SConvert, u64t, &[v]);
            let mut t = wide_s(g, src[2]);
            for k in 0..32 / bits {
                let (at, w) = (g.c32(bits * k), g.c32(bits));
                let x = g.op(if sa { Op::BitFieldSExtract } else { Op::BitFieldUExtract }, u, &[src[0], at, w]);
                let y = g.op(if sb { Op::BitFieldSExtract } else { Op::BitFieldUExtract }, u, &[src[1], at, w]);
                // Each product fits in 32 bits.
                let p = g.op(Op::IMul, u, &[x, y]);
                let p = wide_s(g, p);
                t = g.op(Op::IAdd, u64t, &[t, p]);
            }
            if clamp {
                let (lo, hi) = (g.c64(i32::MIN as i64 as u64), g.c64(i32::MAX as u64));
                let below = g.op(Op::SLessThan, boolt, &[t, lo]);
                t = g.sel(u64t, below, lo, t);
                let above = g.op(Op::SGreaterThan, boolt, &[t, hi]);
                t = g.sel(u64t, above, hi, t);
            }
            let r = g.op(Op::UConvert, u, &[t]);
            g.wr_v(st2.dst, lane, r)
        })
    }

    /// `v_fma_mix_f32` / `v_fma_mixlo_f16` / `v_fma_mixhi_f16` for one lane, as the emulator:
    /// each source an f16 half (op_sel_hi set; op_sel picks the half) or an f32 (a constant read
    /// as f16), neg_hi taking the absolute value and neg negating; one f32 fma, clamp, then
    /// f32 bits or an f16 written into one half of VDST.
    fn fma_mix(&mut self, st: &Step, op: VOp, m: &Mods, src: [Word; 3], lane: Word) -> Result<Word, String> {
        let (u, f) = (self.t.u32, self.t.f32);
        let mut v = [0; 3];
        for k in 0..3 {
            let x = if m.op_sel_hi >> k & 1 != 0 {
                let s = if m.op_sel >> k & 1 != 0 {
                    let c16 = self.c32(16);
                    self.op(Op::ShiftRightLogical, u, &[src[k], c16])
                } else {
                    src[k]
                };
                self.f16_to_f32(s)
            } else if matches!(st.src[k], Src::Const(_)) {
                self.f16_to_f32(src[k])
            } else {
                self.as_f32(src[k])
            };
            let x = if m.neg_hi >> k & 1 != 0 { self.gl(rspirv::spirv::GLOp::FAbs, f, &[x]) } else { x };
            v[k] = if m.neg >> k & 1 != 0 { self.op(Op::FNegate, f, &[x]) } else { x };
        }
        let r = self.fma32(v[0], v[1], v[2]);
        let clamp = Mods { clamp: m.clamp, ..Mods::default() };
        let r = self.output_modifiers(r, super::valu::Out::F32, &clamp);
        if op == VOp::FmaMixF32 {
            return Ok(r);
        }
        let r = self.as_f32(r);
        let h = self.f32_to_f16(r);
        let old = self.rd_v(st.dst, lane)?;
        let c16 = self.c32(16);
        Ok(if op == VOp::FmaMixhiF16 {
            let lo16 = self.c32(0xffff);
            let keep = self.op(Op::BitwiseAnd, u, &[old, lo16]);
            let hi = self.op(Op::ShiftLeftLogical, u, &[h, c16]);
            self.op(Op::BitwiseOr, u, &[keep, hi])
        } else {
            let hi16 = self.c32(0xffff_0000);
            let keep = self.op(Op::BitwiseAnd, u, &[old, hi16]);
            self.op(Op::BitwiseOr, u, &[keep, h])
        })
    }
}
