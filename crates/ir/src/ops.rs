//! The one list of IR operations. Each entry gives the operation's name (its text form), its
//! type rule ([`Sig`]) and what it means; the verifier checks every instruction against the
//! rule, [`crate::eval`] defines the meaning, and backends match on [`Op`] without a wildcard,
//! so an operation added here without a lowering does not compile.

use crate::Type;

/// How an operation's argument and result types relate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sig {
    /// No arguments; the value is the instruction's `imm`, of the instruction's type.
    Const,
    /// No arguments; reads the register `Reg::from_index(imm)` as the region starts.
    ReadReg,
    /// One argument, no result; the register `Reg::from_index(imm)` holds it when the region ends.
    WriteReg,
    /// One `Bool` argument, no result (lane regions): the running lane's bit of the lane mask
    /// held from SGPR `imm` when the region ends.
    WriteLaneBit,
    /// `(I32 lane, I32 value)`, no result (wave regions): VGPR `imm` of that lane gets the
    /// value, in program order.
    WriteLane,
    /// `(I64 address, I32 value)`, no result: a dword stored to device memory, in program order.
    Store,
    /// `(I32 address, I32 value)`, no result: the low `imm` bytes (1 to 4) stored to LDS.
    LdsStore,
    /// One `I32` address, no result: stops the run (the LDS status) unless `imm` bytes there lie
    /// inside LDS.
    Check,
    /// `(T, T) -> T` for an integer `T`.
    Binary,
    /// `(T, T) -> T` for any `T` (on `Bool`, the logical operation).
    Bitwise,
    /// `(T, T) -> T` for an integer `T`; the amount is taken modulo T's width, as AMD shifts do.
    Shift,
    /// `T -> T` for an integer `T`.
    Unary,
    /// `T -> I32` for an integer `T`.
    Count,
    /// `(T, T) -> Bool` for an integer `T`.
    Compare,
    /// `(T, T, T) -> T` for an integer `T`.
    Ternary,
    /// `(Bool, T, T) -> T` for any `T`.
    Select,
    /// No arguments; argument `imm` of the region, of the instruction's type, supplied by the
    /// backend that emits it (a value computed outside the IR).
    Arg,
    /// Fixed argument types and result type.
    Fixed(&'static [Type], Type),
}

macro_rules! ops {
    ($( $(#[doc = $doc:literal])* $name:ident $text:literal $sig:expr; )*) => {
        /// An IR operation (see the module docs).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Op { $( $(#[doc = $doc])* $name, )* }

        impl Op {
            /// Every operation, in list order.
            pub const ALL: &'static [Op] = &[$(Op::$name),*];

            /// The operation's type rule.
            pub const fn sig(self) -> Sig {
                match self { $(Op::$name => $sig,)* }
            }

            /// The operation's name in the IR's text form.
            pub fn name(self) -> &'static str {
                match self { $(Op::$name => $text,)* }
            }
        }
    };
}

use Type::{Bool, I32, I64};

ops! {
    /// A constant.
    Const "const" Sig::Const;
    /// A wave register's value where the region starts (SSA construction puts one read before
    /// the first use and none after a write).
    ReadReg "read" Sig::ReadReg;
    /// A wave register's value where the region ends (one per register written, after every
    /// other instruction that uses it).
    WriteReg "write" Sig::WriteReg;
    /// Wave regions: VGPR `imm` as the lane given holds it (in program order: after a
    /// [`Op::WriteLane`] of it before, the written value).
    ReadLane "read_lane" Sig::Fixed(&[I32], I32);
    /// Wave regions: writes one lane of a VGPR (see [`Sig::WriteLane`]).
    WriteLane "write_lane" Sig::WriteLane;
    /// A dword of device memory at a 4-byte-aligned address (read in program order; not merged
    /// with another load).
    Load32 "load" Sig::Fixed(&[I64], I32);
    /// Stores a dword to device memory at a 4-byte-aligned address (see [`Sig::Store`]); loads
    /// after it in the region see it.
    Store32 "store" Sig::Store;
    /// LDS bounds: see [`Sig::Check`].
    LdsCheck "lds_check" Sig::Check;
    /// Four bytes of LDS at any byte address, little-endian (after an [`Op::LdsCheck`] of them).
    LdsLoad "lds_load" Sig::Fixed(&[I32], I32);
    /// Stores to LDS (see [`Sig::LdsStore`]), in program order.
    LdsStore "lds_store" Sig::LdsStore;
    /// An address that is always readable, for a load whose value is then discarded.
    SafeAddress "safe_address" Sig::Fixed(&[], I64);
    /// Lane regions: the running lane's bit of a lane mask (a compare or carry-out), set when
    /// the region ends; the mask's bits of lanes EXEC disables are cleared.
    WriteLaneBit "write_lane_bit" Sig::WriteLaneBit;
    /// A value supplied by the backend emitting the region (see [`Sig::Arg`]).
    Arg "arg" Sig::Arg;
    /// Lane regions: the running lane's index in the wave.
    LaneId "lane_id" Sig::Fixed(&[], I32);
    /// The emulator's address of byte `imm` of the kernel's `.text` (where the code object image
    /// lies is known only when the kernel runs).
    CodeAddress "code_address" Sig::Fixed(&[], I64);

    /// Wrapping addition.
    IAdd "iadd" Sig::Binary;
    /// Wrapping subtraction.
    ISub "isub" Sig::Binary;
    /// Wrapping multiplication (the low half of the product).
    IMul "imul" Sig::Binary;
    /// Bitwise (on `Bool`, logical) and.
    And "and" Sig::Bitwise;
    /// Bitwise (on `Bool`, logical) or.
    Or "or" Sig::Bitwise;
    /// Bitwise (on `Bool`, logical) exclusive or.
    Xor "xor" Sig::Bitwise;
    /// Unsigned minimum.
    UMin "umin" Sig::Binary;
    /// Shift left; the amount modulo the width.
    Shl "shl" Sig::Shift;
    /// Logical shift right; the amount modulo the width.
    LShr "lshr" Sig::Shift;
    /// Arithmetic shift right; the amount modulo the width.
    AShr "ashr" Sig::Shift;

    /// Bitwise complement.
    Not "not" Sig::Unary;
    /// Bits in reverse order.
    BitReverse "bitreverse" Sig::Unary;
    /// Set bits.
    BitCount "bitcount" Sig::Count;
    /// Index of the lowest set bit, all ones for 0.
    FindLsb "findlsb" Sig::Count;
    /// Index of the highest set bit, all ones for 0.
    FindMsb "findmsb" Sig::Count;

    Eq "eq" Sig::Compare;
    Ne "ne" Sig::Compare;
    ULt "ult" Sig::Compare;
    ULe "ule" Sig::Compare;
    UGt "ugt" Sig::Compare;
    UGe "uge" Sig::Compare;
    SLt "slt" Sig::Compare;
    SLe "sle" Sig::Compare;
    SGt "sgt" Sig::Compare;
    SGe "sge" Sig::Compare;

    // Floats are held as their bits: an I32 is an f32, an I64 an f64. Every operation rounds
    // once, to nearest even, and keeps denormals; NaNs propagate as the host's arithmetic
    // propagates them (see rdna_emu::float for min and max).
    /// Float addition.
    FAdd "fadd" Sig::Binary;
    /// Float subtraction.
    FSub "fsub" Sig::Binary;
    /// Float multiplication.
    FMul "fmul" Sig::Binary;
    /// Fused multiply-add, one rounding.
    Fma "fma" Sig::Ternary;
    /// IEEE-mode minimum (`rdna_emu::float::minmax32/64`: a signalling NaN gives its quiet
    /// form, a quiet NaN the other operand, -0 below +0).
    FMin "fmin" Sig::Binary;
    /// IEEE-mode maximum, as [`Op::FMin`].
    FMax "fmax" Sig::Binary;
    /// The clamp output modifier: the float limited to [0, 1], NaN to +0 (-0 stays -0).
    FClamp01 "fclamp01" Sig::Unary;
    /// Float to signed 32-bit integer, toward zero, saturating (NaN gives 0).
    FToS "ftos" Sig::Count;
    /// Float to unsigned 32-bit integer, toward zero, saturating (NaN and negatives give 0).
    FToU "ftou" Sig::Count;
    /// f32 toward zero to an integer value.
    FTrunc "ftrunc" Sig::Fixed(&[I32], I32);
    /// f32 down to an integer value.
    FFloor "ffloor" Sig::Fixed(&[I32], I32);
    /// f32 up to an integer value.
    FCeil "fceil" Sig::Fixed(&[I32], I32);
    /// f32 to the nearest integer value, ties to even.
    FRndne "frndne" Sig::Fixed(&[I32], I32);
    /// f32 square root, correctly rounded (a negative input gives the default NaN 0xffc00000,
    /// a NaN its quiet form).
    FSqrt "fsqrt" Sig::Fixed(&[I32], I32);
    /// f32 reciprocal: 1/x in f64, rounded once to f32.
    FRcp "frcp" Sig::Fixed(&[I32], I32);
    /// f32 fractional part x - floor(x), at most the largest f32 below 1 (a NaN gives that
    /// bound, ±∞ the quiet NaN 0x7fc00000).
    FFract "ffract" Sig::Fixed(&[I32], I32);
    /// f32 x · 2^n (n clamped to ±400), one rounding.
    FLdexp "fldexp" Sig::Fixed(&[I32, I32], I32);
    /// f32 product with DX9's rule: a zero factor gives +0 whatever the other.
    FMulLegacy "fmul_legacy" Sig::Fixed(&[I32, I32], I32);
    /// f32 IEEE-mode median of three (`rdna_emu::float::med3_32`).
    FMed3 "fmed3" Sig::Fixed(&[I32, I32, I32], I32);
    /// The f16 in the low half, widened exactly to f32 (a NaN quietened).
    HalfToF32 "half_to_f32" Sig::Fixed(&[I32], I32);
    /// f32 rounded to f16 (nearest even; a NaN keeps its top mantissa bits, quietened), in the
    /// low half with the high half zero.
    F32ToHalf "f32_to_half" Sig::Fixed(&[I32], I32);
    /// Signed 32-bit integer to f32, rounded to nearest even.
    SToF "stof" Sig::Fixed(&[I32], I32);
    /// Unsigned 32-bit integer to f32, rounded to nearest even.
    UToF "utof" Sig::Fixed(&[I32], I32);

    /// Float compares (f32 or f64 by width): ordered less, equal, greater; unordered (a NaN).
    FLt "flt" Sig::Compare;
    FEq "feq" Sig::Compare;
    FGt "fgt" Sig::Compare;
    FUnord "funord" Sig::Compare;

    /// The second argument where the first holds, else the third.
    Select "select" Sig::Select;
    /// Zero extension to 64 bits.
    ZExt "zext" Sig::Fixed(&[I32], I64);
    /// Sign extension to 64 bits.
    SExt "sext" Sig::Fixed(&[I32], I64);
    /// The low 32 bits.
    Lo "lo" Sig::Fixed(&[I64], I32);
    /// The high 32 bits.
    Hi "hi" Sig::Fixed(&[I64], I32);
    /// A 64-bit value from its low and high halves.
    Concat "concat" Sig::Fixed(&[I32, I32], I64);
    /// 1 for true, 0 for false.
    BoolToInt "bool_to_int" Sig::Fixed(&[Bool], I32);
}

impl Sig {
    const fn arity(self) -> usize {
        match self {
            Sig::Const | Sig::ReadReg | Sig::Arg => 0,
            Sig::WriteReg | Sig::WriteLaneBit | Sig::Unary | Sig::Count | Sig::Check => 1,
            Sig::Binary | Sig::Bitwise | Sig::Shift | Sig::Compare | Sig::WriteLane | Sig::Store | Sig::LdsStore => 2,
            Sig::Select | Sig::Ternary => 3,
            Sig::Fixed(args, _) => args.len(),
        }
    }

    const fn has_result(self) -> bool {
        !matches!(self, Sig::WriteReg | Sig::WriteLaneBit | Sig::WriteLane | Sig::Store | Sig::LdsStore | Sig::Check)
    }
}

/// Each operation's arity and whether it has a result, by `Op as usize` (the passes ask for
/// these per instruction; the `sig` match is computed once, at compile time).
const SHAPE: [(u8, bool); Op::ALL.len()] = {
    let mut t = [(0u8, false); Op::ALL.len()];
    let mut i = 0;
    while i < t.len() {
        let sig = Op::ALL[i].sig();
        t[i] = (sig.arity() as u8, sig.has_result());
        i += 1;
    }
    t
};

impl Op {
    /// How many arguments the operation takes.
    pub fn arity(self) -> usize {
        SHAPE[self as usize].0 as usize
    }

    /// Whether the instruction produces a value.
    pub fn has_result(self) -> bool {
        SHAPE[self as usize].1
    }

    /// Whether two instances with the same arguments may differ (memory and VGPR reads, which
    /// value numbering must not merge).
    pub fn reads_state(self) -> bool {
        matches!(self, Op::Load32 | Op::ReadLane | Op::LdsLoad)
    }

    /// Whether the operation only makes sense run once per lane ([`crate::Body::per_lane`]).
    pub fn per_lane(self) -> bool {
        matches!(self, Op::WriteLaneBit | Op::LaneId)
    }
}

#[cfg(test)]
mod shape_tests {
    use super::*;

    /// `SHAPE` is indexed by `Op as usize`: that must be the operation's place in `ALL`, and
    /// the table must say what the type rule says.
    #[test]
    fn shape_table_follows_the_type_rules() {
        for (i, &op) in Op::ALL.iter().enumerate() {
            assert_eq!(op as usize, i);
            let sig = op.sig();
            let arity = match sig {
                Sig::Fixed(args, _) => args.len(),
                Sig::Select | Sig::Ternary => 3,
                Sig::Const | Sig::ReadReg | Sig::Arg => 0,
                Sig::WriteReg | Sig::WriteLaneBit | Sig::Unary | Sig::Count | Sig::Check => 1,
                _ => 2,
            };
            assert_eq!(op.arity(), arity, "{op:?}");
        }
        assert!(Op::IAdd.has_result() && !Op::Store32.has_result() && !Op::WriteReg.has_result());
    }
}
