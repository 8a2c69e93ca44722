//! VALU lowering: one lane's arithmetic, mirroring `rdna_emu::valu::valu_lanes` operation by
//! operation (that function is the reference; each arm here follows the arm of the same name).
//! Operations the IR defines (`rdna_frontend::lift::vector_op`: the 32-bit integer family) take
//! that definition here too, for their DPP, SDWA and modifier forms; their plain forms are
//! lifted into IR lane regions before they reach this file.
//!
//! Sources are read with the emulator's modifier decoding (`rdna_emu::valu::mods`): abs and
//! neg act on the operand's sign bit, op_sel picks the high half of a 16-bit operand (and of
//! a 16-bit result), clamp and omod act on float results. Packed (VOP3P) operations are in
//! `half.rs`; SDWA is refused with a reason naming it.

use rdna_emu::program::{Src, Step};
use rdna_emu::sem::VOp;
use rdna_emu::valu::{mods, sign_bit, Mods};
use rspirv::dr::Operand;
use rspirv::spirv::{Capability, Decoration, GLOp, Op, Word};

use super::{Gen, Lowered};

/// Types [`Gen::cached_type`] remembers.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum CachedType {
    F64,
    U32x4,
    LdsU32Ptr,
    PsbU64Ptr,
    U8,
    PsbU8Ptr,
}

/// What an operation produces, for output modifiers and the registers it writes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Out {
    U32,
    F32,
    U64,
    F64,
    /// 16-bit results: the low half written and the high half zeroed, or with op_sel[3] the
    /// high half written and the low kept.
    F16,
    U16,
}

/// The result kind of every operation lowered per lane; `None`: not lowered yet.
pub(crate) fn out_of(op: VOp) -> Option<Out> {
    use VOp::*;
    Some(match op {
        MovB32 | AddNcU32 | SubNcU32 | SubrevNcU32 | LshlrevB32 | LshrrevB32 | AshrrevI32 | AndB32 | OrB32 | XorB32 | NotB32 | XnorB32 | LshlOrB32
        | LshlAddU32 | AddLshlU32 | Add3U32 | AndOrB32 | Or3B32 | Xor3B32 | XadU32 | MulLoU32 | MulHiU32 | MulHiI32 | MulU32U24 | MulI32I24
        | MulHiU32U24 | MulHiI32I24 | MadU32U24 | MadI32I24 | CndmaskB32 | AddCoU32 | SubCoU32 | SubrevCoU32 | AddCoCiU32 | SubCoCiU32
        | SubrevCoCiU32 | MbcntLoU32B32 | MbcntHiU32B32 | BfeU32 | BfeI32 | BfiB32 | BfmB32 | AlignbitB32 | AlignbyteB32 | MinI32 | MaxI32
        | MinU32 | MaxU32 | Min3I32 | Max3I32 | Min3U32 | Max3U32 | Med3I32 | Med3U32 | BfrevB32 | FfbhU32 | FfblB32 | FfbhI32 | BcntU32B32
        | CvtU32F32 | CvtI32F32 | CvtU32F64 | CvtI32F64 | FrexpExpI32F32 | FrexpExpI32F64 | CvtPkU16U32 | CvtPkI16I32 | CvtPkU8F32
        | CvtPknormI16F32 | CvtPknormU16F32 | CvtPknormI16F16 | CvtPknormU16F16 | Dot2U32U16 | Dot4cI32I8 | MaxminI32 | MinmaxI32 | MaxminU32
        | MinmaxU32 | CvtI32I16 | CvtU32U16 | CvtPkI16F32 | CvtPkU16F32 => Out::U32,
        SatPkU8I16 | AndB16 | OrB16 | XorB16 | NotB16 | CndmaskB16 | CvtNormI16F16 | CvtNormU16F16 | MovB16 => Out::U16,
        MaxminF16 | MinmaxF16 | Dot2F16F16 => Out::F16,
        CvtOffF32I4 | Dot2F32F16 | Dot2cF32F16 | MaxminF32 | MinmaxF32 | MullitF32 => Out::F32,
        AddNcU16 | SubNcU16 | AddNcI16 | SubNcI16 | MulLoU16 | MadU16 | MadI16 | LshlrevB16 | LshrrevB16 | AshrrevI16 | MinI16 | MaxI16 | MinU16
        | MaxU16 | Min3I16 | Max3I16 | Min3U16 | Max3U16 | Med3I16 | Med3U16 => Out::U16,
        MadU32U16 | MadI32I16 => Out::U32,
        AddF16 | SubF16 | SubrevF16 | MulF16 | FmaF16 | FmacF16 | FmamkF16 | FmaakF16 | MinF16 | MaxF16 | CvtF16F32 | DivFixupF16 | SinF16 | CosF16 | ExpF16 | LogF16
        | CeilF16 | FloorF16 | TruncF16 | RndneF16 | SqrtF16 | RcpF16 | RsqF16 | FractF16 | FrexpMantF16 | LdexpF16 | Min3F16 | Max3F16 | Med3F16
        | CvtF16U16 | CvtF16I16 => Out::F16,
        CvtU16F16 | CvtI16F16 | FrexpExpI16F16 => Out::U16,
        CvtF32F16 | CubeidF32 | CubescF32 | CubetcF32 | CubemaF32 => Out::F32,
        SadU8 | SadHiU8 | MsadU8 | SadU16 | SadU32 | LerpU8 | PermB32 => Out::U32,
        QsadPkU16U8 | MqsadPkU16U8 => Out::U64,
        Dot2Bf16Bf16 => Out::U16,
        PackB32F16 | CvtPkrtzF16F32 => Out::U32,
        DivFixupF32 | DivScaleF32 | DivFmasF32 => Out::F32,
        DivFixupF64 | DivScaleF64 | DivFmasF64 | RcpF64 | RsqF64 => Out::F64,
        AddF32 | SubF32 | SubrevF32 | MulF32 | MulLegacyF32 | FmacF32 | FmaF32 | FmamkF32 | FmaakF32 | MinF32 | MaxF32 | Min3F32 | Max3F32 | CvtF32U32
        | CvtF32I32 | CvtF32Ubyte0 | CvtF32Ubyte1 | CvtF32Ubyte2 | CvtF32Ubyte3 | CvtF32F64 | TruncF32 | FloorF32 | CeilF32 | RndneF32
        | RcpF32 | RcpIflagF32 | LdexpF32 | FrexpMantF32 | FractF32 | Med3F32 | SqrtF32 | SinF32 | CosF32 | ExpF32 | LogF32 | RsqF32 | FmaLegacyF32 | FmacLegacyF32 => Out::F32,
        AddNcI32 | SubNcI32 | CvtFlrI32F32 | CvtRpiI32F32 => Out::U32,
        MadU64U32 | MadI64I32 | LshlrevB64 | LshrrevB64 | AshrrevI64 => Out::U64,
        AddF64 | MulF64 | FmaF64 | MinF64 | MaxF64 | LdexpF64 | CvtF64F32 | CvtF64I32 | CvtF64U32 | TruncF64 | FloorF64 | CeilF64 | RndneF64
        | FrexpMantF64 | SqrtF64 | FractF64 | TrigPreopF64 => Out::F64,
        _ => return None,
    })
}

/// VGPR-indexed moves: M0 adds to the source and/or destination register number.
pub(super) fn indexes_vgprs(op: VOp) -> bool {
    use VOp::*;
    matches!(op, MovrelsB32 | MovreldB32 | MovrelsdB32 | Movrelsd2B32 | SwaprelB32)
}

/// Operations whose third source is a lane mask (VCC, or SRC2 in VOP3), not a lane value.
pub(super) fn reads_mask(op: VOp) -> bool {
    use VOp::*;
    matches!(op, CndmaskB32 | CndmaskB16 | AddCoCiU32 | SubCoCiU32 | SubrevCoCiU32)
}

pub(super) fn writes_carry(op: VOp) -> bool {
    use VOp::*;
    matches!(op, AddCoU32 | SubCoU32 | SubrevCoU32 | AddCoCiU32 | SubCoCiU32 | SubrevCoCiU32 | MadU64U32 | MadI64I32 | DivScaleF64 | DivScaleF32)
}

impl Gen {
    /// Appends `code` with result type `ty` and id operands `args`; returns the result id.
    pub(super) fn op(&mut self, code: Op, ty: Word, args: &[Word]) -> Word {
        let id = self.b.value(code, ty, None, args);
        // Each float operation rounds on its own: a driver must not fuse a multiply and an add.
        if matches!(code, Op::FAdd | Op::FSub | Op::FMul | Op::FDiv) {
            self.b.decorate(id, Decoration::NoContraction, []);
            let id = if matches!(code, Op::FAdd | Op::FSub) { self.zero_sign(code == Op::FSub, ty, args[0], args[1], id) } else { id };
            return self.nan_of_operands(ty, args[0], args[1], id);
        }
        id
    }

    /// An exactly zero sum or difference with IEEE's sign, chosen here: -0 only for
    /// (-0) + (-0) and (-0) - (+0). (Lavapipe folds `0 - x` into `-x` when it can see the zero,
    /// giving -0 for +0 - +0, despite NoContraction and SignedZeroInfNanPreserve.)
    fn zero_sign(&mut self, sub: bool, ty: Word, a: Word, b: Word, r: Word) -> Word {
        let wide = ty != self.t.f32;
        let (ut, sign) = if wide { (self.t.u64, self.c64(1 << 63)) } else { (self.t.u32, self.c32(1 << 31)) };
        let boolt = self.t.bool;
        let zero = if wide { self.cf64(0.0) } else { self.cf32(0.0) };
        let neg_zero = self.b.value(Op::Bitcast, ty, None, &[sign]);
        let sign_of = |g: &mut Gen, x: Word| {
            let bits = g.b.value(Op::Bitcast, ut, None, &[x]);
            let s = g.b.value(Op::BitwiseAnd, ut, None, &[bits, sign]);
            let z = if wide { g.c64(0) } else { g.c32(0) };
            g.b.value(Op::INotEqual, boolt, None, &[s, z])
        };
        let (sa, sb) = (sign_of(self, a), sign_of(self, b));
        // The second operand's sign as added: flipped for a difference.
        let sb = if sub { self.b.value(Op::LogicalNot, boolt, None, &[sb]) } else { sb };
        let both = self.b.value(Op::LogicalAnd, boolt, None, &[sa, sb]);
        let z = self.b.value(Op::Select, ty, None, &[both, neg_zero, zero]);
        let is_zero = self.b.value(Op::FOrdEqual, boolt, None, &[r, zero]);
        self.b.value(Op::Select, ty, None, &[is_zero, z, r])
    }

    /// A NaN result as the emulator's host gives it: the first operand's NaN if it is one,
    /// else the second's, quieted (drivers may return any NaN: lavapipe clears the sign).
    fn nan_of_operands(&mut self, ty: Word, a: Word, b: Word, r: Word) -> Word {
        let (ut, quiet) = if ty == self.t.f32 { (self.t.u32, self.c32(1 << 22)) } else { (self.t.u64, self.c64(1 << 51)) };
        let boolt = self.t.bool;
        let quieted = |g: &mut Gen, x: Word| {
            let bits = g.b.value(Op::Bitcast, ut, None, &[x]);
            let q = g.b.value(Op::BitwiseOr, ut, None, &[bits, quiet]);
            g.b.value(Op::Bitcast, ty, None, &[q])
        };
        let (qa, qb) = (quieted(self, a), quieted(self, b));
        let na = self.b.value(Op::IsNan, boolt, None, &[a]);
        let nb = self.b.value(Op::IsNan, boolt, None, &[b]);
        let r = self.b.value(Op::Select, ty, None, &[nb, qb, r]);
        self.b.value(Op::Select, ty, None, &[na, qa, r])
    }

    /// A correctly rounded f32 fused multiply-add that does not trust the driver's `Fma` (Mesa
    /// lavapipe lowers it to a separate multiply and add). The product of two f32 is exact in
    /// f64; the f64 sum is rounded to odd, after which one rounding to f32 gives the fused
    /// result (f64 carries more than 24 + 2 bits). About 60 instructions.
    pub(super) fn fma32(&mut self, x: Word, y: Word, z: Word) -> Word {
        if self.fma == crate::FmaLowering::Fused {
            return self.fma32_fused(x, y, z);
        }
        self.fma32_exact(x, y, z)
    }

    /// [`Gen::fma32`]'s exact lowering: the sum rounded to odd in f64, then once to f32 (a
    /// function of the module: [`Gen::call_helper`]).
    fn fma32_exact(&mut self, x: Word, y: Word, z: Word) -> Word {
        let (u, f) = (self.t.u32, self.t.f32);
        self.call_helper(super::Helper::Fma32, u, f, &[x, y, z], |g, p| g.fma32_exact_body(p[0], p[1], p[2]))
    }

    fn fma32_exact_body(&mut self, x: Word, y: Word, z: Word) -> Word {
        let odd = self.fma32_odd(x, y, z);
        let r = self.op(Op::FConvert, self.t.f32, &[odd]);
        let r = self.from_f32(r);
        let is = self.op(Op::IsNan, self.t.bool, &[odd]);
        self.fma32_nan(x, y, z, is, r)
    }

    /// [`Gen::fma32`] by the driver's `Fma` ([`crate::FmaLowering::Fused`]). Where an operand or
    /// the result is zero or a denormal, or the result is infinite or a NaN, the exact lowering
    /// gives the result instead: a driver may flush denormals in its `Fma` (NVIDIA's turned a
    /// residual of `k_div32` into zero), a zero result may be a flushed one, and the exact
    /// lowering gives NaNs the emulator's bits. One test covers the lot: the smallest exponent
    /// field of the operands and the result is zero, or the result's is all ones (zero
    /// operands, which are exact either way, take the slow path too; that is the price of a
    /// check of four ands, three mins and two compares instead of five range tests).
    fn fma32_fused(&mut self, x: Word, y: Word, z: Word) -> Word {
        let (u, boolt) = (self.t.u32, self.t.bool);
        let f = self.gl(GLOp::Fma, self.t.f32, &[x, y, z]);
        let r = self.from_f32(f);
        let exponent = self.c32(0x7f80_0000);
        let er = self.op(Op::BitwiseAnd, u, &[r, exponent]);
        let mut least = er;
        for v in [x, y, z] {
            let bits = self.from_f32(v);
            let e = self.op(Op::BitwiseAnd, u, &[bits, exponent]);
            least = self.gl(GLOp::UMin, u, &[least, e]);
        }
        let zero = self.c32(0);
        let low = self.op(Op::IEqual, boolt, &[least, zero]);
        let high = self.op(Op::IEqual, boolt, &[er, exponent]);
        let slow = self.op(Op::LogicalOr, boolt, &[low, high]);
        let var = self.fma_result;
        self.b.store(var, r, None, []).unwrap();
        self.if_then(slow, &mut |g: &mut Gen| {
            let exact = g.fma32_exact(x, y, z);
            g.b.store(var, exact, None, []).unwrap();
        });
        self.b.load(u, None, var, None, []).unwrap()
    }

    /// An f32 fma's result bits `r`, or where it is a NaN (`is_nan`) the emulator's (x86's
    /// rule): the first NaN operand of x, y, z quietened, else the default NaN 0xffc00000 of
    /// an invalid operation (∞ · 0, ∞ - ∞).
    pub(super) fn fma32_nan(&mut self, x: Word, y: Word, z: Word, is_nan: Word, r: Word) -> Word {
        let (u, boolt) = (self.t.u32, self.t.bool);
        let quiet = self.c32(1 << 22);
        let mut nan = self.c32(0xffc0_0000);
        for v in [z, y, x] {
            let is = self.op(Op::IsNan, boolt, &[v]);
            let bits = self.from_f32(v);
            let q = self.op(Op::BitwiseOr, u, &[bits, quiet]);
            nan = self.sel(u, is, q, nan);
        }
        self.sel(u, is_nan, nan, r)
    }

    /// `x · y + z` of f32 values as an f64 rounded to odd (`rdna_emu::float::fma32_scaled`
    /// before its one rounding): the product is exact in f64. A NaN result is some NaN: the
    /// caller gives it the emulator's bits ([`Gen::fma32_nan`]). The arithmetic skips `op`'s
    /// NaN fix-ups for that reason, and its zero-sign fix-up but for the sum: the two-sum's
    /// error terms are read only for being zero and for their sign when they are not.
    pub(super) fn fma32_odd(&mut self, x: Word, y: Word, z: Word) -> Word {
        let ft = self.f64t();
        let (x, y, z) = (self.op(Op::FConvert, ft, &[x]), self.op(Op::FConvert, ft, &[y]), self.op(Op::FConvert, ft, &[z]));
        let p = self.raw_op(Op::FMul, ft, &[x, y]);
        let s = self.raw_op(Op::FAdd, ft, &[p, z]);
        let s = self.zero_sign(false, ft, p, z, s);
        let bb = self.raw_op(Op::FSub, ft, &[s, p]);
        let t1 = self.raw_op(Op::FSub, ft, &[s, bb]);
        let t1 = self.raw_op(Op::FSub, ft, &[p, t1]);
        let t2 = self.raw_op(Op::FSub, ft, &[z, bb]);
        let err = self.raw_op(Op::FAdd, ft, &[t1, t2]);
        self.round_to_odd(s, err)
    }

    /// Knuth's two-sum of f64 values: (s, err) with s = p + z rounded and err = (p + z) - s
    /// exactly (no overflow assumed).
    pub(super) fn two_sum(&mut self, p: Word, z: Word) -> (Word, Word) {
        let ft = self.f64t();
        let s = self.op(Op::FAdd, ft, &[p, z]);
        // err = (p - (s - bb)) + (z - bb), bb = s - p. Where s is finite, so is every term, and
        // what callers read of err is whether it is zero and its sign when it is not, so the
        // terms of two computed values skip `op`'s NaN and signed-zero fix-ups (about 20
        // instructions each, which made an f32 fma 200); `z - bb` keeps them, as z may be a
        // constant zero that a driver folds.
        let bb = self.raw_op(Op::FSub, ft, &[s, p]);
        let t1 = self.raw_op(Op::FSub, ft, &[s, bb]);
        let t1 = self.raw_op(Op::FSub, ft, &[p, t1]);
        let t2 = self.op(Op::FSub, ft, &[z, bb]);
        (s, self.raw_op(Op::FAdd, ft, &[t1, t2]))
    }

    /// A float operation with no fix-ups but NoContraction (see [`Gen::op`]), for
    /// intermediate values whose NaN payloads and zero signs nothing reads.
    fn raw_op(&mut self, code: Op, ty: Word, args: &[Word]) -> Word {
        let id = self.b.value(code, ty, None, args);
        self.b.decorate(id, Decoration::NoContraction, []);
        id
    }

    /// `rdna_emu::float::round_to_odd_sum`: `p + z` (f64) rounded to odd, from the nearest-even
    /// sum and its exact two-sum error.
    pub(super) fn round_to_odd_sum(&mut self, p: Word, z: Word) -> Word {
        let (s, err) = self.two_sum(p, z);
        self.round_to_odd(s, err)
    }

    /// The nearest-even sum `s` rounded to odd, given its exact error `err`.
    fn round_to_odd(&mut self, s: Word, err: Word) -> Word {
        let (u64t, boolt) = (self.t.u64, self.t.bool);
        let zero = self.cf64(0.0);
        let inexact = self.op(Op::FOrdNotEqual, boolt, &[err, zero]);
        let bits = self.from_f64(s);
        let one = self.c64(1);
        let lsb = self.op(Op::BitwiseAnd, u64t, &[bits, one]);
        let z64 = self.c64(0);
        let even = self.op(Op::IEqual, boolt, &[lsb, z64]);
        let (inf, nan) = (self.op(Op::IsInf, boolt, &[s]), self.op(Op::IsNan, boolt, &[s]));
        let special = self.op(Op::LogicalOr, boolt, &[inf, nan]);
        let finite = self.op(Op::LogicalNot, boolt, &[special]);
        let fix = self.op(Op::LogicalAnd, boolt, &[inexact, even]);
        let fix = self.op(Op::LogicalAnd, boolt, &[fix, finite]);
        // Toward the error: up in magnitude when it has the sum's sign.
        let (s_neg, e_neg) = (self.op(Op::FOrdLessThan, boolt, &[s, zero]), self.op(Op::FOrdLessThan, boolt, &[err, zero]));
        let away = self.op(Op::LogicalEqual, boolt, &[s_neg, e_neg]);
        let up = self.op(Op::IAdd, u64t, &[bits, one]);
        let down = self.op(Op::ISub, u64t, &[bits, one]);
        let moved = self.sel(u64t, away, up, down);
        let odd = self.sel(u64t, fix, moved, bits);
        self.as_f64(odd)
    }

    /// `body` on `args` (each of type `param`) as a call of a function of the module that
    /// returns a `ret`: the function is written at the first call with this `key` (the
    /// interrupted block resumes after it), and every call with the key calls it. This keeps
    /// modules small and quick to build; the function is marked `Inline`, so a driver still
    /// compiles the code it would have compiled inline.
    pub(super) fn call_helper(&mut self, key: super::Helper, ret: Word, param: Word, args: &[Word], body: impl FnOnce(&mut Gen, &[Word]) -> Word) -> Word {
        let function = match self.helpers.get(&key) {
            Some(&f) => f,
            None => {
                let fn_ty = self.b.type_function(ret, args.iter().map(|_| param));
                let interrupted = self.b.begin_helper();
                // Marked for inlining: drivers get the code they got when it was written inline.
                let f = self.b.begin_function(ret, None, rspirv::spirv::FunctionControl::INLINE, fn_ty).unwrap();
                let params: Vec<Word> = args.iter().map(|_| self.b.function_parameter(param).unwrap()).collect();
                self.b.begin_block(None).unwrap();
                let r = body(self, &params);
                self.b.ret_value(r).unwrap();
                self.b.end_function().unwrap();
                self.b.end_helper(interrupted);
                self.helpers.insert(key, f);
                f
            }
        };
        self.b.function_call(ret, None, function, args.iter().copied()).unwrap()
    }

    /// A GLSL.std.450 instruction.
    pub(super) fn gl(&mut self, f: GLOp, ty: Word, args: &[Word]) -> Word {
        let glsl = self.glsl;
        self.b.ext_inst(ty, None, glsl, f as u32, args.iter().map(|&a| Operand::IdRef(a))).unwrap()
    }

    /// The 64-bit float type (declaring the capability on first use).
    pub(super) fn f64t(&mut self) -> Word {
        if !self.uses_f64 {
            self.uses_f64 = true;
            self.b.capability(Capability::Float64);
        }
        self.cached_type(CachedType::F64, |b| b.type_float(64))
    }

    /// A type declared once, remembered here by a small key.
    pub(super) fn cached_type(&mut self, key: CachedType, make: impl FnOnce(&mut crate::emit::Builder) -> Word) -> Word {
        if let Some(&t) = self.type_cache.get(&key) {
            return t;
        }
        let t = make(&mut self.b);
        self.type_cache.insert(key, t);
        t
    }

    pub(super) fn cf32(&mut self, v: f32) -> Word {
        let t = self.t.f32;
        *self.consts.entry((t, v.to_bits() as u64)).or_insert_with(|| self.b.constant_bit32(t, v.to_bits()))
    }

    pub(super) fn cf64(&mut self, v: f64) -> Word {
        let t = self.f64t();
        *self.consts.entry((t, v.to_bits())).or_insert_with(|| self.b.constant_bit64(t, v.to_bits()))
    }

    pub(super) fn as_f32(&mut self, u: Word) -> Word {
        self.op(Op::Bitcast, self.t.f32, &[u])
    }

    pub(super) fn as_f64(&mut self, u: Word) -> Word {
        let t = self.f64t();
        self.op(Op::Bitcast, t, &[u])
    }

    pub(super) fn from_f32(&mut self, f: Word) -> Word {
        self.op(Op::Bitcast, self.t.u32, &[f])
    }

    pub(super) fn from_f64(&mut self, f: Word) -> Word {
        self.op(Op::Bitcast, self.t.u64, &[f])
    }

    pub(super) fn sel(&mut self, ty: Word, c: Word, a: Word, b: Word) -> Word {
        self.op(Op::Select, ty, &[c, a, b])
    }

    /// `v_min/max_f32|f64` exactly as `rdna_emu::float::minmax32/64`: a signalling NaN input
    /// gives that NaN quieted (IEEE mode), a quiet NaN loses to a number, -0 orders below +0.
    pub(super) fn fminmax(&mut self, wide: bool, a: Word, b: Word, max: bool) -> Word {
        let (ut, boolt) = (if wide { self.t.u64 } else { self.t.u32 }, self.t.bool);
        let (fa, fb) = if wide { (self.as_f64(a), self.as_f64(b)) } else { (self.as_f32(a), self.as_f32(b)) };
        let (na, nb) = (self.op(Op::IsNan, boolt, &[fa]), self.op(Op::IsNan, boolt, &[fb]));
        let quiet_bit = if wide { self.c64(1 << 51) } else { self.c32(1 << 22) };
        let zero = if wide { self.c64(0) } else { self.c32(0) };
        let (qa, qb) = (self.op(Op::BitwiseAnd, ut, &[a, quiet_bit]), self.op(Op::BitwiseAnd, ut, &[b, quiet_bit]));
        let (qa0, qb0) = (self.op(Op::IEqual, boolt, &[qa, zero]), self.op(Op::IEqual, boolt, &[qb, zero]));
        let (sa, sb) = (self.op(Op::LogicalAnd, boolt, &[na, qa0]), self.op(Op::LogicalAnd, boolt, &[nb, qb0]));
        let any_snan = self.op(Op::LogicalOr, boolt, &[sa, sb]);
        let nan = self.sel(ut, na, a, b);
        let quieted = self.op(Op::BitwiseOr, ut, &[nan, quiet_bit]);
        // Ordered: a < b, or equal with a negative and b not.
        let lt = self.op(Op::FOrdLessThan, boolt, &[fa, fb]);
        let eq = self.op(Op::FOrdEqual, boolt, &[fa, fb]);
        let sign = if wide { self.c64(1 << 63) } else { self.c32(1 << 31) };
        let (ga, gb) = (self.op(Op::BitwiseAnd, ut, &[a, sign]), self.op(Op::BitwiseAnd, ut, &[b, sign]));
        let (neg_a, neg_b) = (self.op(Op::INotEqual, boolt, &[ga, zero]), self.op(Op::INotEqual, boolt, &[gb, zero]));
        let pos_b = self.op(Op::LogicalNot, boolt, &[neg_b]);
        let z = self.op(Op::LogicalAnd, boolt, &[neg_a, pos_b]);
        let z = self.op(Op::LogicalAnd, boolt, &[eq, z]);
        let lt = self.op(Op::LogicalOr, boolt, &[lt, z]);
        let ordered = if max { self.sel(ut, lt, b, a) } else { self.sel(ut, lt, a, b) };
        let r = self.sel(ut, nb, a, ordered);
        let r = self.sel(ut, na, b, r);
        self.sel(ut, any_snan, quieted, r)
    }

    /// The cube-map operations as the emulator's arm: the major axis is z when |z| is the
    /// largest, else y when |y| ≥ |x|, else x (comparisons with NaN are false); results from
    /// selections, sign flips and a doubling.
    fn cube(&mut self, op: VOp, a: Word, b: Word, c: Word) -> Word {
        use VOp::*;
        let (u, f, boolt) = (self.t.u32, self.t.f32, self.t.bool);
        let (x, y, z) = (self.as_f32(a), self.as_f32(b), self.as_f32(c));
        let (ax, ay, az) = (self.gl(GLOp::FAbs, f, &[x]), self.gl(GLOp::FAbs, f, &[y]), self.gl(GLOp::FAbs, f, &[z]));
        let zx = self.op(Op::FOrdGreaterThanEqual, boolt, &[az, ax]);
        let zy = self.op(Op::FOrdGreaterThanEqual, boolt, &[az, ay]);
        let zmaj = self.op(Op::LogicalAnd, boolt, &[zx, zy]);
        let yx = self.op(Op::FOrdGreaterThanEqual, boolt, &[ay, ax]);
        let nz = self.op(Op::LogicalNot, boolt, &[zmaj]);
        let ymaj = self.op(Op::LogicalAnd, boolt, &[nz, yx]);
        let zero = self.cf32(0.0);
        let (xn, yn, zn) = (self.op(Op::FOrdLessThan, boolt, &[x, zero]), self.op(Op::FOrdLessThan, boolt, &[y, zero]), self.op(Op::FOrdLessThan, boolt, &[z, zero]));
        let sign = self.c32(1 << 31);
        let neg = |g: &mut Gen, v: Word| g.op(Op::BitwiseXor, u, &[v, sign]);
        match op {
            CubeidF32 => {
                let k = |g: &mut Gen, v: f32| g.c32(v.to_bits());
                let (k0, k1, k2, k3, k4, k5) = (k(self, 0.0), k(self, 1.0), k(self, 2.0), k(self, 3.0), k(self, 4.0), k(self, 5.0));
                let xs = self.sel(u, xn, k1, k0);
                let ys = self.sel(u, yn, k3, k2);
                let zs = self.sel(u, zn, k5, k4);
                let r = self.sel(u, ymaj, ys, xs);
                self.sel(u, zmaj, zs, r)
            }
            CubescF32 => {
                let (nx, nzv) = (neg(self, a), neg(self, c));
                let xs = self.sel(u, xn, c, nzv);
                let zs = self.sel(u, zn, nx, a);
                let r = self.sel(u, ymaj, a, xs);
                self.sel(u, zmaj, zs, r)
            }
            CubetcF32 => {
                let (ny, nzv) = (neg(self, b), neg(self, c));
                let ys = self.sel(u, yn, nzv, c);
                let r = self.sel(u, ymaj, ys, ny);
                self.sel(u, zmaj, ny, r)
            }
            _ => {
                let m = self.sel(f, ymaj, y, x);
                let m = self.sel(f, zmaj, z, m);
                let two = self.cf32(2.0);
                let r = self.op(Op::FMul, f, &[two, m]);
                self.from_f32(r)
            }
        }
    }

    /// `x` (f32 or f64 bits) rounded to an integer, to nearest even or (`trunc`) toward zero,
    /// from correctly rounded additions: |x| + 2^(p-1) - 2^(p-1) rounds |x| to an integer
    /// (ties to even), one less if that went above |x| when truncating, the sign put back, NaNs
    /// quieted. (Lavapipe's f64 `RoundEven` and `Trunc` are wrong: RoundEven(3.5) gives 3, and
    /// values above 2^50 keep their fractions.)
    pub(super) fn round_int(&mut self, bits: Word, wide: bool, trunc: bool) -> Word {
        let boolt = self.t.bool;
        let (ft, ut) = if wide { (self.f64t(), self.t.u64) } else { (self.t.f32, self.t.u32) };
        let x = if wide { self.as_f64(bits) } else { self.as_f32(bits) };
        let c = |g: &mut Gen, v: f64| if wide { g.cf64(v) } else { g.cf32(v as f32) };
        let a = self.gl(GLOp::FAbs, ft, &[x]);
        let big = c(self, if wide { 2f64.powi(52) } else { 2f64.powi(23) });
        let r = self.op(Op::FAdd, ft, &[a, big]);
        let r = self.op(Op::FSub, ft, &[r, big]);
        let r = if trunc {
            let over = self.op(Op::FOrdGreaterThan, boolt, &[r, a]);
            let one = c(self, 1.0);
            let less = self.op(Op::FSub, ft, &[r, one]);
            self.sel(ft, over, less, r)
        } else {
            r
        };
        let small = self.op(Op::FOrdLessThan, boolt, &[a, big]);
        let r = self.sel(ft, small, r, a);
        let r = if wide { self.from_f64(r) } else { self.from_f32(r) };
        let sign = if wide { self.c64(1 << 63) } else { self.c32(1 << 31) };
        let s = self.op(Op::BitwiseAnd, ut, &[bits, sign]);
        let r = self.op(Op::BitwiseOr, ut, &[r, s]);
        let nan = self.op(Op::IsNan, boolt, &[x]);
        let quiet = if wide { self.c64(1 << 51) } else { self.c32(1 << 22) };
        let q = self.op(Op::BitwiseOr, ut, &[bits, quiet]);
        self.sel(ut, nan, q, r)
    }

    /// Rust's saturating float-to-integer conversion (`as u32` / `as i32`): NaN gives 0.
    pub(super) fn f_to_int_sat(&mut self, x: Word, wide: bool, signed: bool) -> Word {
        let (u, boolt) = (self.t.u32, self.t.bool);
        let ft = if wide { self.f64t() } else { self.t.f32 };
        let c = |g: &mut Gen, v: f64| if wide { g.cf64(v) } else { g.cf32(v as f32) };
        let t = self.gl(GLOp::Trunc, ft, &[x]);
        let nan = self.op(Op::IsNan, boolt, &[x]);
        let (lo, hi) = if signed { (-2147483648.0, 2147483648.0) } else { (0.0, 4294967296.0) };
        let (clo, chi) = (c(self, lo), c(self, hi));
        let below = self.op(Op::FOrdLessThanEqual, boolt, &[t, clo]);
        let above = self.op(Op::FOrdGreaterThanEqual, boolt, &[t, chi]);
        let inside = self.op(Op::FOrdGreaterThan, boolt, &[t, clo]);
        let inside2 = self.op(Op::FOrdLessThan, boolt, &[t, chi]);
        let inside = self.op(Op::LogicalAnd, boolt, &[inside, inside2]);
        // Convert only an in-range value (out of range the conversion is undefined).
        let zero_f = c(self, 0.0);
        let safe = self.sel(ft, inside, t, zero_f);
        let v = self.op(if signed { Op::ConvertFToS } else { Op::ConvertFToU }, u, &[safe]);
        let (vlo, vhi, z) = if signed { (self.c32(i32::MIN as u32), self.c32(i32::MAX as u32), self.c32(0)) } else { (self.c32(0), self.c32(u32::MAX), self.c32(0)) };
        let v = self.sel(u, below, vlo, v);
        let v = self.sel(u, above, vhi, v);
        self.sel(u, nan, z, v)
    }

    /// `x · 2^n` for an f64 `x` and `n` in [-1000, 1000]: 2^n is a normal f64, built from bits.
    pub(super) fn scale_f64(&mut self, x: Word, n: Word) -> Word {
        let (i, u64t) = (self.t.u32, self.t.u64);
        let bias = self.c32(1023);
        let e = self.op(Op::IAdd, i, &[n, bias]);
        let e = self.op(Op::UConvert, u64t, &[e]);
        let c52 = self.c64(52);
        let bits = self.op(Op::ShiftLeftLogical, u64t, &[e, c52]);
        let p = self.as_f64(bits);
        let ft = self.f64t();
        self.op(Op::FMul, ft, &[x, p])
    }

    /// `rdna_emu::float::ldexp64`: `n` clamped to ±2200, applied in steps of at most 2^1000.
    pub(super) fn ldexp64(&mut self, x: Word, n: Word) -> Word {
        let (i, boolt) = (self.t.u32, self.t.bool);
        let ft = self.f64t();
        let (lo, hi) = (self.c32(-2200i32 as u32), self.c32(2200));
        let n = self.gl(GLOp::SClamp, i, &[n, lo, hi]);
        let (mut r, mut k) = (x, n);
        for _ in 0..2 {
            for up in [true, false] {
                let (lim, step) = if up { (self.c32(1000), self.cf64(2f64.powi(1000))) } else { (self.c32(-1000i32 as u32), self.cf64(2f64.powi(-1000))) };
                let go = self.op(if up { Op::SGreaterThan } else { Op::SLessThan }, boolt, &[k, lim]);
                let scaled = self.op(Op::FMul, ft, &[r, step]);
                r = self.sel(ft, go, scaled, r);
                let moved = self.op(Op::ISub, i, &[k, lim]);
                k = self.sel(i, go, moved, k);
            }
        }
        self.scale_f64(r, k)
    }

    /// The table `v_trig_preop_f64` reads: the bits of 2/π after the point
    /// ([`rdna_emu::valu::TWO_OVER_PI`]), 32 to a word, first bit the most significant, with
    /// zero words after them for the widest window an exponent can ask for (bit 2613 + 53).
    pub(super) fn two_over_pi_table(&mut self) -> Word {
        const WORDS: usize = 85;
        let digits = rdna_emu::valu::TWO_OVER_PI.as_bytes();
        let words: Vec<u32> = (0..WORDS).map(|w| (0..8).fold(0u32, |acc, k| acc << 4 | digits.get(8 * w + k).and_then(|c| (*c as char).to_digit(16)).unwrap_or(0))).collect();
        self.u32_table(&words)
    }

    /// A Function-scope array of u32 initialised with `words` (read with an access chain and
    /// `t.fn_u32`).
    pub(super) fn u32_table(&mut self, words: &[u32]) -> Word {
        let ids: Vec<Word> = words.iter().map(|&w| self.c32(w)).collect();
        let u32t = self.t.u32;
        let n = self.c32(words.len() as u32);
        let arr = self.b.type_array(u32t, n);
        let table = self.b.constant_composite(arr, &ids);
        let ptr = self.b.type_pointer(None, rspirv::spirv::StorageClass::Function, arr);
        self.b.variable(ptr, None, rspirv::spirv::StorageClass::Function, Some(table))
    }

    /// `v_trig_preop_f64` as `rdna_emu::valu::trig_preop`: the 53 bits of 2/π from bit
    /// `(sel & 31) * 53` (further by the exponent's excess over 1077), times 2^-(53 + that bit).
    fn trig_preop(&mut self, bits: Word, sel: Word) -> Word {
        let (i, u64t, boolt) = (self.t.u32, self.t.u64, self.t.bool);
        let c52 = self.c64(52);
        let e = self.op(Op::ShiftRightLogical, u64t, &[bits, c52]);
        let e = self.op(Op::UConvert, i, &[e]);
        let m7ff = self.c32(0x7ff);
        let e = self.op(Op::BitwiseAnd, i, &[e, m7ff]);
        let (m31, c53) = (self.c32(31), self.c32(53));
        let s = self.op(Op::BitwiseAnd, i, &[sel, m31]);
        let base = self.op(Op::IMul, i, &[s, c53]);
        let c1077 = self.c32(1077);
        let big = self.op(Op::UGreaterThan, boolt, &[e, c1077]);
        let excess = self.op(Op::ISub, i, &[e, c1077]);
        let zero = self.c32(0);
        let excess = self.sel(i, big, excess, zero);
        let shift = self.op(Op::IAdd, i, &[base, excess]);
        let c5 = self.c32(5);
        let w = self.op(Op::ShiftRightLogical, i, &[shift, c5]);
        let r = self.op(Op::BitwiseAnd, i, &[shift, m31]);
        let fn_u32 = self.t.fn_u32;
        let word = |g: &mut Self, k: u32| {
            let kc = g.c32(k);
            let idx = g.op(Op::IAdd, i, &[w, kc]);
            let p = g.b.access_chain(fn_u32, None, g.two_over_pi, [idx]).unwrap();
            let v = g.b.load(i, None, p, None, []).unwrap();
            g.op(Op::UConvert, u64t, &[v])
        };
        let (w0, w1, w2) = (word(self, 0), word(self, 1), word(self, 2));
        let c32 = self.c64(32);
        let hi = self.op(Op::ShiftLeftLogical, u64t, &[w0, c32]);
        let hi = self.op(Op::BitwiseOr, u64t, &[hi, w1]);
        let r64 = self.op(Op::UConvert, u64t, &[r]);
        let top = self.op(Op::ShiftLeftLogical, u64t, &[hi, r64]);
        let low = self.op(Op::ShiftLeftLogical, u64t, &[w2, r64]);
        let low = self.op(Op::ShiftRightLogical, u64t, &[low, c32]);
        let top = self.op(Op::BitwiseOr, u64t, &[top, low]);
        let c11 = self.c64(11);
        let mant = self.op(Op::ShiftRightLogical, u64t, &[top, c11]);
        let ft = self.f64t();
        let m = self.op(Op::ConvertUToF, ft, &[mant]);
        // 2^-(53 + shift), and 2^128 more for exponents from 1968 (as the emulator).
        let m53 = self.c32(-53i32 as u32);
        let scale = self.op(Op::ISub, i, &[m53, shift]);
        let c1968 = self.c32(1968);
        let huge = self.op(Op::UGreaterThanEqual, boolt, &[e, c1968]);
        let c128 = self.c32(128);
        let up = self.op(Op::IAdd, i, &[scale, c128]);
        let scale = self.sel(i, huge, up, scale);
        let r = self.ldexp64(m, scale);
        self.from_f64(r)
    }

    /// `rdna_emu::float::frexp64` on an f64 given as bits: (mantissa bits, exponent); zero,
    /// infinities and NaN give themselves and 0. Denormals are scaled by 2^64 first.
    pub(super) fn frexp64(&mut self, bits: Word) -> (Word, Word) {
        let (i, u64t, boolt) = (self.t.u32, self.t.u64, self.t.bool);
        let ft = self.f64t();
        let x = self.as_f64(bits);
        let scaled = self.cf64(2f64.powi(64));
        let xs = self.op(Op::FMul, ft, &[x, scaled]);
        let xs = self.from_f64(xs);
        let c52 = self.c64(52);
        let m7ff = self.c64(0x7ff);
        let e0 = self.op(Op::ShiftRightLogical, u64t, &[bits, c52]);
        let e0 = self.op(Op::BitwiseAnd, u64t, &[e0, m7ff]);
        let z64 = self.c64(0);
        let denorm = self.op(Op::IEqual, boolt, &[e0, z64]);
        let b = self.sel(u64t, denorm, xs, bits);
        let e = self.op(Op::ShiftRightLogical, u64t, &[b, c52]);
        let e = self.op(Op::BitwiseAnd, u64t, &[e, m7ff]);
        let e = self.op(Op::UConvert, i, &[e]);
        let adj = self.c32(1022);
        let e = self.op(Op::ISub, i, &[e, adj]);
        let c64n = self.c32(64);
        let e_den = self.op(Op::ISub, i, &[e, c64n]);
        let e = self.sel(i, denorm, e_den, e);
        let keep = self.c64(!(0x7ffu64 << 52));
        let m = self.op(Op::BitwiseAnd, u64t, &[b, keep]);
        let half = self.c64(1022 << 52);
        let m = self.op(Op::BitwiseOr, u64t, &[m, half]);
        // Specials: zero, inf, NaN.
        let zero = self.cf64(0.0);
        let is_zero = self.op(Op::FOrdEqual, boolt, &[x, zero]);
        let is_nan = self.op(Op::IsNan, boolt, &[x]);
        let is_inf = self.op(Op::IsInf, boolt, &[x]);
        let special = self.op(Op::LogicalOr, boolt, &[is_zero, is_nan]);
        let special = self.op(Op::LogicalOr, boolt, &[special, is_inf]);
        let m = self.sel(u64t, special, bits, m);
        let z = self.c32(0);
        let e = self.sel(i, special, z, e);
        (m, e)
    }

    /// Source `i` of a VALU instruction for one lane, 32 or 64 bits wide, with abs/neg applied.
    pub(super) fn vsrc(&mut self, st: &Step, m: &Mods, i: usize, lane: Word) -> Result<Word, String> {
        let wide = st.sw[i] >= 2;
        let mut v = if wide { self.src64(st.src[i], Some(lane))? } else { self.src32(st.src[i], Some(lane))? };
        if st.inst.format.is_sdwa() && i < 2 && !wide {
            // SDWA source selection: a byte or word, zero- or sign-extended.
            let raw = st.inst.raw;
            let (sel, sext) = if i == 0 { ((raw >> 48) & 7, (raw >> 51) & 1 != 0) } else { ((raw >> 56) & 7, (raw >> 59) & 1 != 0) };
            if sel <= 5 {
                let (sh, w) = if sel <= 3 { (8 * sel as u32, 8) } else { (16 * (sel as u32 - 4), 16) };
                let (o, cw) = (self.c32(sh), self.c32(w));
                v = self.op(if sext { Op::BitFieldSExtract } else { Op::BitFieldUExtract }, self.t.u32, &[v, o, cw]);
            }
        }
        if m.op_sel >> i & 1 != 0 && matches!(st.imm[i], rdna_isa::ImmTy::F16 | rdna_isa::ImmTy::I16) && !wide {
            let (c16, lo16) = (self.c32(16), self.c32(0xffff));
            let hi = self.op(Op::ShiftRightLogical, self.t.u32, &[v, c16]);
            v = self.op(Op::BitwiseAnd, self.t.u32, &[hi, lo16]);
        }
        let sb = sign_bit(st.imm[i], st.sw[i]) as u64;
        let ty = if wide { self.t.u64 } else { self.t.u32 };
        let bit = if wide { self.c64(1 << sb) } else { self.c32(1 << sb) };
        if m.abs >> i & 1 != 0 {
            let nb = self.op(Op::Not, ty, &[bit]);
            v = self.op(Op::BitwiseAnd, ty, &[v, nb]);
        }
        if m.neg >> i & 1 != 0 {
            v = self.op(Op::BitwiseXor, ty, &[v, bit]);
        }
        Ok(v)
    }

    /// An SDWA result merged into VDST by dst_sel (byte, word or dword) and dst_unused (zero,
    /// sign-extend or keep the other bits), as the emulator writes it.
    fn sdwa_dst(&mut self, st: &Step, v: Word, lane: Word) -> Result<Word, String> {
        let u = self.t.u32;
        let raw = st.inst.raw;
        let (dst_sel, unused) = ((raw >> 40) & 7, (raw >> 43) & 3);
        if dst_sel > 5 {
            return Ok(v);
        }
        let (sh, w) = if dst_sel <= 3 { (8 * dst_sel as u32, 8) } else { (16 * (dst_sel as u32 - 4), 16) };
        let fm = ((1u64 << w) - 1) as u32;
        let (cfm, csh) = (self.c32(fm), self.c32(sh));
        let part = self.op(Op::BitwiseAnd, u, &[v, cfm]);
        let part = self.op(Op::ShiftLeftLogical, u, &[part, csh]);
        Ok(match unused {
            2 => {
                let old = self.rd_v(st.dst, lane)?;
                let keep = self.c32(!(fm << sh));
                let kept = self.op(Op::BitwiseAnd, u, &[old, keep]);
                self.op(Op::BitwiseOr, u, &[kept, part])
            }
            1 => {
                // The written part sign-extended upward; the bits below it zero.
                let up = self.c32(32 - sh - w);
                let t = self.op(Op::ShiftLeftLogical, u, &[part, up]);
                let t = self.op(Op::ShiftRightArithmetic, u, &[t, up]);
                let below = self.c32(if sh == 0 { !0 } else { !((1u32 << sh) - 1) });
                self.op(Op::BitwiseAnd, u, &[t, below])
            }
            _ => part,
        })
    }

    pub(super) fn valu(&mut self, st: &Step, op: VOp) -> Lowered {
        use VOp::*;
        // The encoding and the operation were checked by `support::supports`.
        let m = mods(st);
        if matches!(op, Permlane16B32 | Permlanex16B32) {
            return self.permlane16(st, &m, op == Permlanex16B32);
        }
        if super::wmma::is_wmma(op) {
            return self.wmma(st, op, &m);
        }
        if st.inst.format == rdna_isa::Format::Vop3p {
            return self.packed(st, op, &m);
        }
        if op == PkFmacF16 {
            // The VOP2 form: both halves from the low and high halves of each source; with DPP,
            // src0 permuted as the emulator reads it.
            let dpp = if st.inst.format.is_dpp16() || st.inst.format.is_dpp8() { Some(self.dpp_gather(st, &m)?) } else { None };
            let m = Mods { op_sel: 0, op_sel_hi: 7, ..m };
            return self.packed_dpp(st, op, &m, dpp);
        }
        // Wave-level operations: one lane read or written, not a loop.
        match op {
            SwapB32 => {
                // Each enabled lane exchanges its two registers.
                let Src::Vgpr(r) = st.src[0] else { return Err("v_swap_b32 of a non-VGPR".into()) };
                let d = st.dst;
                return self.lanes_loop(true, &mut |g: &mut Gen, lane: Word| {
                    let (x, y) = (g.rd_v(r, lane)?, g.rd_v(d, lane)?);
                    g.wr_v(r, lane, y)?;
                    g.wr_v(d, lane, x)
                });
            }
            MqsadU32U8 => {
                // Four masked byte SADs (a's bytes from k against b's), each plus dword k of the
                // 128-bit accumulator S2, into VDST..VDST+3.
                let Src::Vgpr(acc) = st.src[2] else { return Err("v_mqsad_u32_u8 with a non-VGPR accumulator".into()) };
                let st2 = st.clone();
                return self.lanes_loop(true, &mut |g: &mut Gen, lane: Word| {
                    let (u, u64t) = (g.t.u32, g.t.u64);
                    let (a, b) = (g.vsrc(&st2, &m, 0, lane)?, g.vsrc(&st2, &m, 1, lane)?);
                    let mut res = [0; 4];
                    for (k, r) in res.iter_mut().enumerate() {
                        let sh = g.c64(8 * k as u64);
                        let src = g.op(Op::ShiftRightLogical, u64t, &[a, sh]);
                        let src = g.op(Op::UConvert, u, &[src]);
                        let s = g.sad_bytes(src, b, true);
                        let c = g.rd_v(acc + k as u16, lane)?;
                        *r = g.op(Op::IAdd, u, &[s, c]);
                    }
                    for (k, &r) in res.iter().enumerate() {
                        g.wr_v(st2.dst + k as u16, lane, r)?;
                    }
                    Ok(())
                });
            }
            Permlane64B32 => return self.permlane64(st, &m),
            _ => {}
        }
        if indexes_vgprs(op) {
            return self.indexed_move(st, op);
        }
        let Some(out) = out_of(op) else { return Err(format!("internal: vector operation {op:?} admitted by `supports` without a lowering")) };
        if (m.clamp || m.omod != 0) && !matches!(out, Out::F32 | Out::F64 | Out::F16) {
            return Err(format!("clamp on the integer operation {op:?} is not recompiled yet"));
        }
        // v_div_fmas reads VCC whatever its encoding, besides its three sources.
        let mask_in = if reads_mask(op) {
            Some(self.mask_in(st)?)
        } else if matches!(op, DivFmasF64 | DivFmasF32) {
            Some(self.rd_mask(super::VCC))
        } else {
            None
        };
        // DPP: src0 as permuted across lanes, gathered in the spare row, and the lanes written.
        let dpp = if st.inst.format.is_dpp16() || st.inst.format.is_dpp8() { Some(self.dpp_gather(st, &m)?) } else { None };
        let carry = writes_carry(op);
        if carry {
            self.mask_begin();
        }
        let st2 = st.clone();
        self.lanes_loop(true, &mut |g: &mut Gen, lane: Word| {
            let st = &st2;
            let n = if reads_mask(op) { 2 } else { st.nsrc as usize };
            let mut s = [0; 3];
            for (i, v) in s.iter_mut().enumerate().take(n) {
                *v = if i == 0 && dpp.is_some() { g.rd_row(g.spare_row(), lane) } else { g.vsrc(st, &m, i, lane)? };
            }
            // Two-address forms: accumulate into VDST, or take the literal constant K.
            match op {
                FmacF32 | FmacF16 | FmacLegacyF32 | Dot2cF32F16 | Dot4cI32I8 => s[2] = g.rd_v(st.dst, lane)?,
                FmamkF32 | FmamkF16 => {
                    s[2] = s[1];
                    s[1] = g.c32(st.inst.literal.unwrap_or(0));
                }
                FmaakF32 | FmaakF16 => s[2] = g.c32(st.inst.literal.unwrap_or(0)),
                _ => {}
            }
            let r = g.lane_op(op, s, mask_in, lane)?;
            let mut r = g.output_modifiers(r, out, &m);
            // A lane DPP does not write keeps VDST whole (16-bit results included).
            let kept = match dpp {
                Some(written) => Some((g.mask_bit(written, lane), g.rd_v(st.dst, lane)?)),
                None => None,
            };
            if let Some((on, old)) = kept {
                if !matches!(out, Out::F16 | Out::U16) {
                    r = g.sel(g.t.u32, on, r, old);
                }
            }
            if matches!(out, Out::U64 | Out::F64) {
                let (lo, hi) = g.split64(r);
                g.wr_v(st.dst, lane, lo)?;
                g.wr_v(st.dst + 1, lane, hi)
            } else if st.inst.format.is_sdwa() {
                let v = g.sdwa_dst(st, r, lane)?;
                g.wr_v(st.dst, lane, v)
            } else if matches!(out, Out::F16 | Out::U16) {
                let lo16 = g.c32(0xffff);
                let v = g.op(Op::BitwiseAnd, g.t.u32, &[r, lo16]);
                let v = if m.op_sel >> 3 & 1 != 0 {
                    let old = g.rd_v(st.dst, lane)?;
                    let keep = g.op(Op::BitwiseAnd, g.t.u32, &[old, lo16]);
                    let c16 = g.c32(16);
                    let hi = g.op(Op::ShiftLeftLogical, g.t.u32, &[v, c16]);
                    g.op(Op::BitwiseOr, g.t.u32, &[keep, hi])
                } else if m.true16 {
                    // A true16 low half keeps the high one.
                    let old = g.rd_v(st.dst, lane)?;
                    g.merge_half(old, v, false)
                } else {
                    v
                };
                let v = match kept {
                    Some((on, old)) => g.sel(g.t.u32, on, v, old),
                    None => v,
                };
                g.wr_v(st.dst, lane, v)
            } else {
                g.wr_v(st.dst, lane, r)
            }
        })?;
        if carry {
            self.mask_end(st.carry_dst());
        }
        Ok(())
    }

    /// `v_movrels/movreld/movrelsd/movrelsd_2_b32` and `v_swaprel_b32`, as the emulator runs
    /// them: M0 (or for _2 and swaprel its bits [9:0] and [25:16]) added to the source and/or
    /// destination register; each enabled lane moves (swaprel: exchanges) its own registers. An
    /// index past v255 stops the run with [`crate::STATUS_VGPR_INDEX`] whatever EXEC is.
    fn indexed_move(&mut self, st: &Step, op: VOp) -> Lowered {
        use VOp::*;
        let Src::Vgpr(s) = st.src[0] else { return Err("a VGPR-indexed move of a non-VGPR".into()) };
        let (u, u64t, boolt) = (self.t.u32, self.t.u64, self.t.bool);
        let m0 = self.rd_s(super::M0);
        let two = matches!(op, Movrelsd2B32 | SwaprelB32);
        let (src_off, dst_off) = if two {
            let (m10, k16) = (self.c32(0x3ff), self.c32(16));
            let lo = self.op(Op::BitwiseAnd, u, &[m0, m10]);
            let hi = self.op(Op::ShiftRightLogical, u, &[m0, k16]);
            (lo, self.op(Op::BitwiseAnd, u, &[hi, m10]))
        } else {
            (m0, m0)
        };
        let zero = self.c32(0);
        let (src_off, dst_off) = match op {
            MovrelsB32 => (src_off, zero),
            MovreldB32 => (zero, dst_off),
            _ => (src_off, dst_off),
        };
        // Register numbers in 64 bits (M0 is a whole u32), checked against the 256 registers.
        let index = |g: &mut Gen, base: u16, off: Word| {
            let b = g.c64(base as u64);
            let o = g.op(Op::UConvert, u64t, &[off]);
            g.op(Op::IAdd, u64t, &[b, o])
        };
        let (src, dst) = (index(self, s, src_off), index(self, st.dst, dst_off));
        let limit = self.c64(256);
        let bad_s = self.op(Op::UGreaterThanEqual, boolt, &[src, limit]);
        let bad_d = self.op(Op::UGreaterThanEqual, boolt, &[dst, limit]);
        let bad = self.op(Op::LogicalOr, boolt, &[bad_s, bad_d]);
        self.if_then(bad, &mut |g: &mut Gen| g.fail(crate::STATUS_VGPR_INDEX));
        // Kept inside the registers once the run has stopped.
        let top = self.c64(255);
        let clamp = |g: &mut Gen, x: Word| {
            let x = g.gl(GLOp::UMin, u64t, &[x, top]);
            g.op(Op::UConvert, u, &[x])
        };
        let (src, dst) = (clamp(self, src), clamp(self, dst));
        self.lanes_loop(true, &mut |g: &mut Gen, lane: Word| {
            let x = g.rd_v_at(src, lane);
            if op == SwaprelB32 {
                let y = g.rd_v_at(dst, lane);
                g.wr_v_at(src, lane, y);
            }
            g.wr_v_at(dst, lane, x);
            Ok(())
        })
    }

    /// DPP16 and DPP8 (VOP1/VOP2/VOPC encodings, and gfx11's VOP3 ones), as
    /// `rdna_emu::valu::dpp` applies them: every lane's src0 (modifiers applied) read from the
    /// lane the control selects, into the spare row; returns the mask of lanes the instruction
    /// writes (all lanes for DPP8; for DPP16 the row and bank masks, and lanes whose source is
    /// missing or disabled only with bound_ctrl, which reads 0 there). A lane that does not
    /// read another's keeps its own src0 in the row, as in the emulator: a carry-out is
    /// computed from it though the result is not written.
    pub(super) fn dpp_gather(&mut self, st: &Step, m: &Mods) -> Result<Word, String> {
        if st.sw[0] != 1 || !matches!(st.src[0], Src::Vgpr(_)) {
            return Err("DPP on other than a 32-bit VGPR source is not recompiled".into());
        }
        // The DPP dword follows the first (VOP1/VOP2/VOPC) or the first two (VOP3, where the
        // src0 field naming DPP8 with fetch-inactive is in the second).
        let vop3 = st.inst.format.is_vop3();
        let raw = if vop3 { (st.inst.ext as u64) << 32 } else { st.inst.raw };
        let src0_field = if vop3 { (st.inst.raw >> 32) as u32 & 0x1ff } else { st.inst.raw as u32 & 0x1ff };
        let bits = |lo: u32, n: u32| ((raw >> lo) & ((1u64 << n) - 1)) as u32;
        let dpp8 = st.inst.format.is_dpp8();
        let fi = if dpp8 { src0_field == rdna_isa::src::DPP8_FI as u32 } else { bits(50, 1) != 0 };
        let (ctrl, bound_ctrl, bank_mask, row_mask) = (bits(40, 9), bits(51, 1) != 0, bits(56, 4), bits(60, 4));
        let lanes = self.lanes;
        let exec = self.exec();
        let spare = self.spare_row();
        self.mask_begin();
        let st2 = st.clone();
        let m2 = *m;
        self.lanes_loop(false, &mut |g: &mut Gen, l: Word| {
            let (u, boolt) = (g.t.u32, g.t.bool);
            let c = |g: &mut Gen, v: u32| g.c32(v);
            let and = |g: &mut Gen, a: Word, k: u32| {
                let k = g.c32(k);
                g.op(Op::BitwiseAnd, u, &[a, k])
            };
            let or = |g: &mut Gen, a: Word, b: Word| g.op(Op::BitwiseOr, u, &[a, b]);
            let tru = g.b.constant_true(boolt);
            // (source lane, whether there is one, whether this lane is enabled)
            let (from, has, enabled) = if dpp8 {
                let sels = g.c32(bits(40, 24));
                let i = and(g, l, 7);
                let three = c(g, 3);
                let sh = g.op(Op::IMul, u, &[i, three]);
                let sel = g.op(Op::ShiftRightLogical, u, &[sels, sh]);
                let sel = and(g, sel, 7);
                let row = and(g, l, !7);
                (or(g, row, sel), tru, tru)
            } else {
                let row = and(g, l, !15);
                let i = and(g, l, 15);
                let k = ctrl & 15;
                let (from, has) = match ctrl {
                    0x000..=0x0ff => {
                        let q = and(g, l, 3);
                        let one = c(g, 1);
                        let sh = g.op(Op::ShiftLeftLogical, u, &[q, one]);
                        let cc = c(g, ctrl);
                        let pick = g.op(Op::ShiftRightLogical, u, &[cc, sh]);
                        let pick = and(g, pick, 3);
                        let quad = and(g, l, !3);
                        (or(g, quad, pick), tru)
                    }
                    0x101..=0x10f => {
                        let ck = c(g, k);
                        let j = g.op(Op::IAdd, u, &[i, ck]);
                        let c16 = c(g, 16);
                        let has = g.op(Op::ULessThan, boolt, &[j, c16]);
                        let j = and(g, j, 15);
                        (g.op(Op::IAdd, u, &[row, j]), has)
                    }
                    0x111..=0x11f => {
                        let ck = c(g, k);
                        let has = g.op(Op::UGreaterThanEqual, boolt, &[i, ck]);
                        let j = g.op(Op::ISub, u, &[i, ck]);
                        let j = and(g, j, 15);
                        (g.op(Op::IAdd, u, &[row, j]), has)
                    }
                    0x121..=0x12f => {
                        let ck = c(g, 16 - k);
                        let j = g.op(Op::IAdd, u, &[i, ck]);
                        let j = and(g, j, 15);
                        (g.op(Op::IAdd, u, &[row, j]), tru)
                    }
                    0x140 => {
                        let c15 = c(g, 15);
                        let j = g.op(Op::ISub, u, &[c15, i]);
                        (g.op(Op::IAdd, u, &[row, j]), tru)
                    }
                    0x141 => {
                        let hi = and(g, i, 8);
                        let lo = and(g, i, 7);
                        let c7 = c(g, 7);
                        let j = g.op(Op::ISub, u, &[c7, lo]);
                        let j = g.op(Op::IAdd, u, &[hi, j]);
                        (g.op(Op::IAdd, u, &[row, j]), tru)
                    }
                    0x150..=0x15f => {
                        let ck = c(g, k);
                        (g.op(Op::IAdd, u, &[row, ck]), tru)
                    }
                    0x160..=0x16f => {
                        let ck = c(g, k);
                        let j = g.op(Op::BitwiseXor, u, &[i, ck]);
                        (g.op(Op::IAdd, u, &[row, j]), tru)
                    }
                    _ => (l, g.b.constant_false(boolt)),
                };
                let c4 = c(g, 4);
                let rsh = g.op(Op::ShiftRightLogical, u, &[l, c4]);
                let rm = c(g, row_mask);
                let r_on = g.op(Op::ShiftRightLogical, u, &[rm, rsh]);
                let r_on = and(g, r_on, 1);
                let c2 = c(g, 2);
                let bsh = g.op(Op::ShiftRightLogical, u, &[i, c2]);
                let bm = c(g, bank_mask);
                let b_on = g.op(Op::ShiftRightLogical, u, &[bm, bsh]);
                let b_on = g.op(Op::BitwiseAnd, u, &[b_on, r_on]);
                let one = c(g, 1);
                let enabled = g.op(Op::IEqual, boolt, &[b_on, one]);
                (from, has, enabled)
            };
            // Every source lane is inside the wave; with none, read this lane (and discard it).
            let n = c(g, lanes);
            let inside = g.op(Op::ULessThan, boolt, &[from, n]);
            let has = g.op(Op::LogicalAnd, boolt, &[has, inside]);
            let from = g.sel(u, has, from, l);
            let live = if fi { tru } else { g.mask_bit(exec, from) };
            let ok = g.op(Op::LogicalAnd, boolt, &[has, live]);
            // As the emulator: a disabled lane keeps its own src0; an enabled one reads its
            // source lane's, or without one 0 (bound_ctrl, DPP8) or again its own.
            let v = g.vsrc(&st2, &m2, 0, from)?;
            let v = if dpp8 {
                let z = c(g, 0);
                g.sel(u, ok, v, z)
            } else {
                let mine = g.vsrc(&st2, &m2, 0, l)?;
                let missing = if bound_ctrl { c(g, 0) } else { mine };
                let v = g.sel(u, ok, v, missing);
                g.sel(u, enabled, v, mine)
            };
            g.wr_row(spare, l, v);
            let write = if bound_ctrl || dpp8 { enabled } else { g.op(Op::LogicalAnd, boolt, &[enabled, ok]) };
            g.mask_set(l, write);
            Ok(())
        })?;
        Ok(self.b.load(self.t.u64, None, self.mask, None, []).unwrap())
    }

    /// `v_permlane16_b32` / `v_permlanex16_b32`, as the emulator runs them: lane i of each row
    /// of 16 reads the lane the 64-bit selector (SRC1, SRC2) names for it, in its own row or
    /// (x16) the other row of its half; gathered in the spare row first. A missing or disabled
    /// source (unless op_sel[0], fetch inactive) writes 0 with op_sel[1] (bound_ctrl), else
    /// nothing.
    fn permlane16(&mut self, st: &Step, m: &Mods, x16: bool) -> Lowered {
        let Src::Vgpr(r) = st.src[0] else { return Err("v_permlane of a non-VGPR".into()) };
        if r as u32 >= self.vgprs || st.dst as u32 >= self.vgprs {
            return Err("a v_permlane register beyond the registers this kernel was given".into());
        }
        let (fi, bound_ctrl) = (m.op_sel & 1 != 0, m.op_sel & 2 != 0);
        let lo = self.src32(st.src[1], None)?;
        let hi = self.src32(st.src[2], None)?;
        let sel = self.join64(lo, hi);
        let exec = self.exec();
        let spare = self.spare_row();
        let lanes = self.lanes;
        self.mask_begin();
        self.lanes_loop(false, &mut |g: &mut Gen, l: Word| {
            let (u, u64t, boolt) = (g.t.u32, g.t.u64, g.t.bool);
            let (m15, n15, c16, c2) = (g.c32(15), g.c32(!15), g.c32(16), g.c32(2));
            let row = g.op(Op::BitwiseAnd, u, &[l, n15]);
            let row = if x16 { g.op(Op::BitwiseXor, u, &[row, c16]) } else { row };
            let i = g.op(Op::BitwiseAnd, u, &[l, m15]);
            let sh = g.op(Op::ShiftLeftLogical, u, &[i, c2]);
            let sh = g.op(Op::UConvert, u64t, &[sh]);
            let idx = g.op(Op::ShiftRightLogical, u64t, &[sel, sh]);
            let idx = g.op(Op::UConvert, u, &[idx]);
            let idx = g.op(Op::BitwiseAnd, u, &[idx, m15]);
            let from = g.op(Op::IAdd, u, &[row, idx]);
            let n = g.c32(lanes);
            let inside = g.op(Op::ULessThan, boolt, &[from, n]);
            let from = g.sel(u, inside, from, l);
            let ok = if fi {
                inside
            } else {
                let live = g.mask_bit(exec, from);
                g.op(Op::LogicalAnd, boolt, &[inside, live])
            };
            let v = g.rd_row(r, from);
            let z = g.c32(0);
            let v = g.sel(u, ok, v, z);
            g.wr_row(spare, l, v);
            let write = if bound_ctrl { g.b.constant_true(boolt) } else { ok };
            g.mask_set(l, write);
            Ok(())
        })?;
        let written = self.b.load(self.t.u64, None, self.mask, None, []).unwrap();
        self.lanes_loop(true, &mut |g: &mut Gen, l: Word| {
            let on = g.mask_bit(written, l);
            let v = g.rd_row(spare, l);
            let old = g.rd_v(st.dst, l)?;
            let v = g.sel(g.t.u32, on, v, old);
            g.wr_v(st.dst, l, v)
        })
    }

    /// `v_permlane64_b32`: each lane takes src0 from the lane 32 away (wave64; in wave32 its
    /// own), every lane's source read first, written under EXEC, as the emulator.
    fn permlane64(&mut self, st: &Step, m: &Mods) -> Lowered {
        let spare = self.spare_row();
        let lanes = self.lanes;
        let st2 = st.clone();
        let m = *m;
        self.lanes_loop(false, &mut |g: &mut Gen, l: Word| {
            let from = if lanes == 64 {
                let c32 = g.c32(32);
                g.op(Op::BitwiseXor, g.t.u32, &[l, c32])
            } else {
                l
            };
            let v = g.vsrc(&st2, &m, 0, from)?;
            g.wr_row(spare, l, v);
            Ok(())
        })?;
        self.lanes_loop(true, &mut |g: &mut Gen, l: Word| {
            let v = g.rd_row(spare, l);
            g.wr_v(st.dst, l, v)
        })
    }

    /// Clamp to [0, 1] (NaN to 0) and omod scaling of a float result, as the emulator's
    /// `apply_omod_clamp32` and its f64 counterpart.
    pub(super) fn output_modifiers(&mut self, r: Word, out: Out, m: &Mods) -> Word {
        if !(m.clamp || m.omod != 0) {
            return r;
        }
        if out == Out::F16 {
            // Widened, modified in f32, rounded back (as the emulator does).
            let x = self.f16_to_f32(r);
            let x = self.from_f32(x);
            let x = self.output_modifiers(x, Out::F32, m);
            let x = self.as_f32(x);
            return self.f32_to_f16(x);
        }
        let wide = out == Out::F64;
        let ft = if wide { self.f64t() } else { self.t.f32 };
        let c = |g: &mut Gen, v: f64| if wide { g.cf64(v) } else { g.cf32(v as f32) };
        let mut x = if wide { self.as_f64(r) } else { self.as_f32(r) };
        if m.omod != 0 {
            let k = c(self, [1.0, 2.0, 4.0, 0.5][m.omod as usize]);
            x = self.op(Op::FMul, ft, &[x, k]);
        }
        if m.clamp {
            x = self.clamp01(x, wide);
        }
        if wide { self.from_f64(x) } else { self.from_f32(x) }
    }

    /// The clamp output modifier on a float (f32, or f64 with `wide`): limited to [0, 1], NaN
    /// to +0, -0 kept.
    pub(super) fn clamp01(&mut self, x: Word, wide: bool) -> Word {
        let ft = if wide { self.f64t() } else { self.t.f32 };
        let (z, one) = if wide { (self.cf64(0.0), self.cf64(1.0)) } else { (self.cf32(0.0), self.cf32(1.0)) };
        let boolt = self.t.bool;
        let nan = self.op(Op::IsNan, boolt, &[x]);
        let lo = self.op(Op::FOrdLessThan, boolt, &[x, z]);
        let hi = self.op(Op::FOrdGreaterThan, boolt, &[x, one]);
        let x = self.sel(ft, hi, one, x);
        let x = self.sel(ft, lo, z, x);
        self.sel(ft, nan, z, x)
    }

    /// One lane of `op` on its (modified) sources; 32- or 64-bit integer result bits.
    pub(super) fn lane_op(&mut self, op: VOp, [a, b, c]: [Word; 3], mask_in: Option<Word>, lane: Word) -> Result<Word, String> {
        use VOp::*;
        if let Some(r) = self.byte_op(op, [a, b, c]) {
            return Ok(r);
        }
        if rdna_frontend::lift::defines_vector_op(op) {
            return self.vector_op_ir(op, [a, b, c], mask_in, lane);
        }
        let (u, f) = (self.t.u32, self.t.f32);
        let f64un = |g: &mut Gen, fun: GLOp, x: Word| {
            let x = g.as_f64(x);
            let ft = g.f64t();
            let r = g.gl(fun, ft, &[x]);
            g.from_f64(r)
        };
        Ok(match op {
            MovB16 => {
                let m = self.c32(0xffff);
                self.op(Op::BitwiseAnd, u, &[a, m])
            }
            // c + lo·lo, then + hi·hi, in f32 (products of two bf16 are exact); for the bf16
            // result each sum is rounded to bf16 (`half::bf16::from_f32`), as the emulator.
            Dot2F32Bf16 | Dot2Bf16Bf16 => {
                let [al, ah, bl, bh] = [(a, false), (a, true), (b, false), (b, true)].map(|(v, hi)| self.bf16_to_f32(v, hi));
                let lo = self.op(Op::FMul, f, &[al, bl]);
                let hi = self.op(Op::FMul, f, &[ah, bh]);
                if op == Dot2F32Bf16 {
                    let c = self.as_f32(c);
                    let t = self.op(Op::FAdd, f, &[c, lo]);
                    let t = self.op(Op::FAdd, f, &[t, hi]);
                    self.from_f32(t)
                } else {
                    let c = self.bf16_to_f32(c, false);
                    let t = self.op(Op::FAdd, f, &[c, lo]);
                    let t = self.from_f32(t);
                    let t = self.f32_to_bf16(t);
                    let t = self.bf16_to_f32(t, false);
                    let t = self.op(Op::FAdd, f, &[t, hi]);
                    let t = self.from_f32(t);
                    self.f32_to_bf16(t)
                }
            }
            CvtU32F64 | CvtI32F64 => {
                let x = self.as_f64(a);
                self.f_to_int_sat(x, true, op == CvtI32F64)
            }
            FrexpExpI32F32 | FrexpExpI32F64 => {
                let x = if op == FrexpExpI32F32 {
                    let x = self.as_f32(a);
                    let ft = self.f64t();
                    let w = self.op(Op::FConvert, ft, &[x]);
                    self.from_f64(w)
                } else {
                    a
                };
                self.frexp64(x).1
            }
            RsqF32 => {
                // 1 / sqrt(x) in f64 (each rounded once, the driver's f64 trusted as for
                // v_rsq_f64), then to f32; the special values as x86 gives them to the emulator.
                let boolt = self.t.bool;
                let ft = self.f64t();
                let x = self.as_f32(a);
                let xd = self.op(Op::FConvert, ft, &[x]);
                let root = self.gl(GLOp::Sqrt, ft, &[xd]);
                let one = self.cf64(1.0);
                let q = self.op(Op::FDiv, ft, &[one, root]);
                let r = self.op(Op::FConvert, f, &[q]);
                let r = self.from_f32(r);
                let zero = self.cf32(0.0);
                let (nan, neg) = (self.op(Op::IsNan, boolt, &[x]), self.op(Op::FOrdLessThan, boolt, &[x, zero]));
                let is_zero = self.op(Op::FOrdEqual, boolt, &[x, zero]);
                let inf = self.op(Op::IsInf, boolt, &[x]);
                let quiet = self.c32(1 << 22);
                let qnan = self.op(Op::BitwiseOr, u, &[a, quiet]);
                let sign = self.c32(1 << 31);
                let sign = self.op(Op::BitwiseAnd, u, &[a, sign]);
                let inf_bits = self.c32(0x7f80_0000);
                let signed_inf = self.op(Op::BitwiseOr, u, &[inf_bits, sign]);
                let (z, dnan) = (self.c32(0), self.c32(0xffc0_0000));
                let r = self.sel(u, inf, z, r);
                let r = self.sel(u, is_zero, signed_inf, r);
                let r = self.sel(u, neg, dnan, r);
                self.sel(u, nan, qnan, r)
            }
            FmaLegacyF32 | FmacLegacyF32 => {
                // A fused multiply-add, except that a zero factor gives S2 + 0 whatever the other
                // factor is (infinity and NaN included): S2 itself, -0 becoming +0, a NaN quietened.
                let boolt = self.t.bool;
                let (x, y, cf) = (self.as_f32(a), self.as_f32(b), self.as_f32(c));
                let fused = self.fma32(x, y, cf);
                let zero = self.cf32(0.0);
                let (zx, zy) = (self.op(Op::FOrdEqual, boolt, &[x, zero]), self.op(Op::FOrdEqual, boolt, &[y, zero]));
                let zf = self.op(Op::LogicalOr, boolt, &[zx, zy]);
                let (cn, cz) = (self.op(Op::IsNan, boolt, &[cf]), self.op(Op::FOrdEqual, boolt, &[cf, zero]));
                let quiet = self.c32(1 << 22);
                let cq = self.op(Op::BitwiseOr, u, &[c, quiet]);
                let z32 = self.c32(0);
                let plus = self.sel(u, cz, z32, c);
                let plus = self.sel(u, cn, cq, plus);
                self.sel(u, zf, plus, fused)
            }
            FractF64 => {
                // x - floor(x) (floor from an exact trunc), at most the largest f64 below 1; a NaN
                // gives that bound (as the emulator's `min`), ±∞ the default NaN.
                let boolt = self.t.bool;
                let ft = self.f64t();
                let x = self.as_f64(a);
                let t = self.round_int(a, true, true);
                let t = self.as_f64(t);
                let over = self.op(Op::FOrdGreaterThan, boolt, &[t, x]);
                let one = self.cf64(1.0);
                let less = self.op(Op::FSub, ft, &[t, one]);
                let fl = self.sel(ft, over, less, t);
                let d = self.op(Op::FSub, ft, &[x, fl]);
                let bound = self.cf64(f64::from_bits(0x3fef_ffff_ffff_ffff));
                let below = self.op(Op::FOrdLessThan, boolt, &[d, bound]);
                let r = self.sel(ft, below, d, bound);
                let r = self.from_f64(r);
                let inf = self.op(Op::IsInf, boolt, &[x]);
                let nan = self.c64(0x7ff8_0000_0000_0000);
                self.sel(self.t.u64, inf, nan, r)
            }
            SqrtF64 => {
                // The driver's f64 square root (trusted, as for v_rsq_f64); the special values as
                // x86 gives them to the emulator.
                let boolt = self.t.bool;
                let ft = self.f64t();
                let u64t = self.t.u64;
                let x = self.as_f64(a);
                let root = self.gl(GLOp::Sqrt, ft, &[x]);
                let r = self.from_f64(root);
                let zero = self.cf64(0.0);
                let (nan, neg) = (self.op(Op::IsNan, boolt, &[x]), self.op(Op::FOrdLessThan, boolt, &[x, zero]));
                let (is_zero, inf) = (self.op(Op::FOrdEqual, boolt, &[x, zero]), self.op(Op::IsInf, boolt, &[x]));
                let keep = self.op(Op::LogicalOr, boolt, &[is_zero, inf]);
                let r = self.sel(u64t, keep, a, r);
                let dnan = self.c64(0xfff8_0000_0000_0000);
                let r = self.sel(u64t, neg, dnan, r);
                let quiet = self.c64(1 << 51);
                let q = self.op(Op::BitwiseOr, u64t, &[a, quiet]);
                self.sel(u64t, nan, q, r)
            }
            FmaF16 | FmacF16 | FmamkF16 | FmaakF16 => {
                let (x, y, z) = (self.f16_to_f32(a), self.f16_to_f32(b), self.f16_to_f32(c));
                self.fma16(x, y, z)
            }
            CeilF16 | FloorF16 | TruncF16 | RndneF16 | SqrtF16 | RcpF16 | RsqF16 | FractF16 | FrexpMantF16 | LdexpF16 | Min3F16 | Max3F16 | Med3F16 => {
                // As the emulator: the f16 operands widened to f32 (exactly), the f32 operation,
                // then one rounding to f16. (f16 results that are integers or mantissas are exact.)
                let wide = |g: &mut Gen, v: Word| {
                    let x = g.f16_to_f32(v);
                    g.from_f32(x)
                };
                let x = wide(self, a);
                let z = self.c32(0);
                let f32op = |g: &mut Gen, op: VOp, s: [Word; 3]| g.lane_op(op, s, None, lane);
                let r = match op {
                    CeilF16 => f32op(self, CeilF32, [x, z, z])?,
                    FloorF16 => f32op(self, FloorF32, [x, z, z])?,
                    TruncF16 => f32op(self, TruncF32, [x, z, z])?,
                    RndneF16 => f32op(self, RndneF32, [x, z, z])?,
                    SqrtF16 => f32op(self, SqrtF32, [x, z, z])?,
                    RcpF16 => f32op(self, RcpF32, [x, z, z])?,
                    RsqF16 => {
                        let root = f32op(self, SqrtF32, [x, z, z])?;
                        f32op(self, RcpF32, [root, z, z])?
                    }
                    FrexpMantF16 => f32op(self, FrexpMantF32, [x, z, z])?,
                    LdexpF16 => {
                        // The exponent is S1's low half, signed.
                        let c16 = self.c32(16);
                        let n = self.op(Op::BitFieldSExtract, u, &[b, z, c16]);
                        f32op(self, LdexpF32, [x, n, z])?
                    }
                    FractF16 => {
                        // x - floor(x), at most the largest f16 below 1; NaN gives that bound,
                        // ±∞ a quiet NaN (as FractF32).
                        let boolt = self.t.bool;
                        let xf = self.as_f32(x);
                        let fl = self.gl(GLOp::Floor, f, &[xf]);
                        let d = self.op(Op::FSub, f, &[xf, fl]);
                        let bound = self.cf32(1.0 - 2f32.powi(-11)); // f16 0x3bff
                        let below = self.op(Op::FOrdLessThan, boolt, &[d, bound]);
                        let r = self.sel(f, below, d, bound);
                        let r = self.from_f32(r);
                        let inf = self.op(Op::IsInf, boolt, &[xf]);
                        let nan = self.c32(0x7fc0_0000);
                        self.sel(u, inf, nan, r)
                    }
                    _ => {
                        let (y, w) = (wide(self, b), wide(self, c));
                        let f32_op = match op {
                            Min3F16 => Min3F32,
                            Max3F16 => Max3F32,
                            _ => Med3F32,
                        };
                        f32op(self, f32_op, [x, y, w])?
                    }
                };
                let r = self.as_f32(r);
                self.f32_to_f16(r)
            }
            FrexpExpI16F16 => {
                let x = self.f16_to_f32(a);
                let x = self.from_f32(x);
                let z = self.c32(0);
                let e = self.lane_op(FrexpExpI32F32, [x, z, z], None, lane)?;
                let m = self.c32(0xffff);
                self.op(Op::BitwiseAnd, u, &[e, m])
            }
            CvtF16U16 | CvtF16I16 => {
                // The 16-bit integer converts to f32 exactly, then rounds once to f16.
                let (z, c16) = (self.c32(0), self.c32(16));
                let r = if op == CvtF16I16 {
                    let v = self.op(Op::BitFieldSExtract, u, &[a, z, c16]);
                    self.op(Op::ConvertSToF, f, &[v])
                } else {
                    let v = self.op(Op::BitFieldUExtract, u, &[a, z, c16]);
                    self.op(Op::ConvertUToF, f, &[v])
                };
                self.f32_to_f16(r)
            }
            CvtU16F16 | CvtI16F16 => {
                // Rust's saturating `as u16`/`as i16` of the f16 value (NaN gives 0).
                let x = self.f16_to_f32(a);
                let signed = op == CvtI16F16;
                let r = self.f_to_int_sat(x, false, signed);
                let r = if signed {
                    let (lo, hi) = (self.c32(-32768i32 as u32), self.c32(32767));
                    self.gl(GLOp::SClamp, u, &[r, lo, hi])
                } else {
                    let hi = self.c32(0xffff);
                    self.gl(GLOp::UMin, u, &[r, hi])
                };
                let m = self.c32(0xffff);
                self.op(Op::BitwiseAnd, u, &[r, m])
            }
            SinF32 | CosF32 => self.sin_cos32(a, op == CosF32),
            SinF16 | CosF16 => self.sin_cos16(a, op == CosF16),
            ExpF32 => self.exp2_32(a),
            ExpF16 => self.exp2_16(a),
            LogF32 => self.log2_32(a),
            LogF16 => self.log2_16(a),
            PackB32F16 => {
                let (lo16, c16) = (self.c32(0xffff), self.c32(16));
                let lo = self.op(Op::BitwiseAnd, u, &[a, lo16]);
                let hi = self.op(Op::BitwiseAnd, u, &[b, lo16]);
                let hi = self.op(Op::ShiftLeftLogical, u, &[hi, c16]);
                self.op(Op::BitwiseOr, u, &[lo, hi])
            }
            CvtPkrtzF16F32 => {
                let (x, y) = (self.as_f32(a), self.as_f32(b));
                let (lo, hi) = (self.f32_to_f16_rtz(x), self.f32_to_f16_rtz(y));
                let c16 = self.c32(16);
                let hi = self.op(Op::ShiftLeftLogical, u, &[hi, c16]);
                self.op(Op::BitwiseOr, u, &[lo, hi])
            }
            RcpF64 | RsqF64 => {
                // 1 / x, or 1 / sqrt(x): each rounded once, as the emulator's f64 arithmetic
                // (the driver's f64 division and square root are trusted to be correctly
                // rounded, as lavapipe's and NVIDIA's are; the corpus checks both).
                let ft = self.f64t();
                let (one, x) = (self.cf64(1.0), self.as_f64(a));
                let x = if op == RsqF64 { self.gl(GLOp::Sqrt, ft, &[x]) } else { x };
                let r = self.op(Op::FDiv, ft, &[one, x]);
                self.from_f64(r)
            }
            DivFmasF64 => {
                // A fused multiply-add, scaled where VCC is set by 2^128, or 2^-128 when the
                // quotient estimate S2 is below 1 (`rdna_emu::valu::div_fmas_scale`).
                let (x, y, z) = (self.as_f64(a), self.as_f64(b), self.as_f64(c));
                let ft = self.f64t();
                let r = self.fma64(x, y, z);
                let k = self.div_fmas_scale(c, true);
                let scaled = self.ldexp64(r, k);
                let bit = self.mask_bit(mask_in.ok_or("internal: no VCC for v_div_fmas")?, lane);
                let r = self.sel(ft, bit, scaled, r);
                self.from_f64(r)
            }
            DivScaleF64 | DivScaleF32 => {
                let (r, v) = self.div_scale(op == DivScaleF64, a, b, c);
                self.mask_set(lane, v);
                r
            }
            DivFmasF32 => {
                // `rdna_emu::float::fma32_scaled`: the exact product, the sum rounded to odd in
                // f64, scaled (by 2^±64 where VCC is set, see DivFmasF64), then one rounding.
                let (x, y, z) = (self.as_f32(a), self.as_f32(b), self.as_f32(c));
                let odd = self.fma32_odd(x, y, z);
                let k = self.div_fmas_scale(c, false);
                let zero = self.c32(0);
                let bit = self.mask_bit(mask_in.ok_or("internal: no VCC for v_div_fmas")?, lane);
                let k = self.sel(self.t.u32, bit, k, zero);
                let scaled = self.ldexp64(odd, k);
                let r = self.op(Op::FConvert, f, &[scaled]);
                let r = self.from_f32(r);
                let is = self.op(Op::IsNan, self.t.bool, &[odd]);
                self.fma32_nan(x, y, z, is, r)
            }
            CubeidF32 | CubescF32 | CubetcF32 | CubemaF32 => self.cube(op, a, b, c),
            DivFixupF16 => self.div_fixup(16, a, b, c),
            DivFixupF32 => self.div_fixup(32, a, b, c),
            DivFixupF64 => self.div_fixup(64, a, b, c),
            CvtF32F64 => {
                let x = self.as_f64(a);
                let r = self.op(Op::FConvert, f, &[x]);
                self.from_f32(r)
            }
            FrexpMantF32 => {
                let x = self.as_f32(a);
                let ft = self.f64t();
                let w = self.op(Op::FConvert, ft, &[x]);
                let w = self.from_f64(w);
                let (mant, _) = self.frexp64(w);
                let mf = self.as_f64(mant);
                let r = self.op(Op::FConvert, f, &[mf]);
                self.from_f32(r)
            }
            LdexpF64 => {
                let x = self.as_f64(a);
                let r = self.ldexp64(x, b);
                self.from_f64(r)
            }
            CvtF64F32 => {
                let x = self.as_f32(a);
                let ft = self.f64t();
                let r = self.op(Op::FConvert, ft, &[x]);
                self.from_f64(r)
            }
            CvtF64I32 | CvtF64U32 => {
                let ft = self.f64t();
                let r = self.op(if op == CvtF64U32 { Op::ConvertUToF } else { Op::ConvertSToF }, ft, &[a]);
                self.from_f64(r)
            }
            TruncF64 => self.round_int(a, true, true),
            FloorF64 => f64un(self, GLOp::Floor, a),
            CeilF64 => f64un(self, GLOp::Ceil, a),
            RndneF64 => self.round_int(a, true, false),
            FrexpMantF64 => self.frexp64(a).0,
            TrigPreopF64 => self.trig_preop(a, b),
            _ => return Err(format!("internal: {op:?} is listed as lowered but has no lowering")),
        })
    }
}
