//! The recompiler's intermediate representation.
//!
//! A [`Body`] is a straight-line region of a kernel's basic block in typed SSA form: every
//! value is defined once, by the instruction that computes it, before any use. The wave's
//! scalar state (SGPRs, among them VCC, M0 and EXEC, and SCC) enters through [`Op::ReadReg`]
//! and leaves through [`Op::WriteReg`]; [`Builder`] constructs that form from reads and writes
//! of registers in program order. Lane masks (EXEC, VCC, compare results in SGPRs) stay
//! wave-width integers, so mask logic is integer logic on whole masks.
//!
//! Operations come from one list ([`ops`]): it fixes each operation's type rule, which
//! [`verify`] checks, and its meaning, which [`eval`] defines (constant folding and the
//! reference interpreter [`run`] and the partial one [`run_known`] use it). Passes: [`fold`] (constants, selects on constants,
//! repeated computations, writes of a register's own value), [`dce`], and the analysis
//! [`uniform`] (which values are wave-uniform).
//!
//! A region runs once for the wave (scalar instructions) or once per lane ([`Body::per_lane`]:
//! vector instructions, for the lanes EXEC enables, which is how EXEC predicates them). A lane
//! region reads the wave's SGPRs as uniform inputs and its lane's VGPRs, writes its lane's
//! VGPRs, and sets its lane's bit of a lane mask with [`Op::WriteLaneBit`] (a ballot, seen from
//! the wave); whole-mask values read in a lane and tested for the lane's bit are the
//! inverse-ballot, lowered to a per-lane boolean where it is that.
//!
//! Control flow stays in the frontend's structured tree; regions are what it holds between
//! branches.

pub mod ops;
mod passes;
mod print;
mod verify;

pub use ops::{Op, Sig};
pub use passes::{dce, eval, fold, optimize, run, run_known, uniform, Effect, Inputs};
pub use verify::{verify, VerifyError};

// FxHash: the keys are small integers and instructions, hashed on every step; SipHash
// was a tenth of the recompile time.
use rustc_hash::FxHashMap as HashMap;

/// A value's type. Integers carry no sign; operations say how they read them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Bool,
    I32,
    I64,
}

impl Type {
    /// The bits a value of this type keeps.
    pub fn mask(self) -> u64 {
        match self {
            Type::Bool => 1,
            Type::I32 => u32::MAX as u64,
            Type::I64 => u64::MAX,
        }
    }

    pub fn bits(self) -> u32 {
        match self {
            Type::Bool => 1,
            Type::I32 => 32,
            Type::I64 => 64,
        }
    }

    pub fn is_int(self) -> bool {
        self != Type::Bool
    }
}

/// A piece of wave state a region reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reg {
    /// SGPR 0–127 in gfx10's numbering (VCC is 106–107, M0 124, EXEC 126–127).
    Sgpr(u8),
    Scc,
    /// The running lane's VGPR (lane regions only).
    Vgpr(u8),
}

impl Reg {
    pub const COUNT: usize = 129 + 256;

    pub fn index(self) -> usize {
        match self {
            Reg::Sgpr(r) => r as usize,
            Reg::Scc => 128,
            Reg::Vgpr(r) => 129 + r as usize,
        }
    }

    pub fn from_index(i: u64) -> Option<Reg> {
        match i {
            0..=127 => Some(Reg::Sgpr(i as u8)),
            128 => Some(Reg::Scc),
            129..=384 => Some(Reg::Vgpr((i - 129) as u8)),
            _ => None,
        }
    }

    pub fn ty(self) -> Type {
        match self {
            Reg::Sgpr(_) | Reg::Vgpr(_) => Type::I32,
            Reg::Scc => Type::Bool,
        }
    }
}

/// A value: the index of the instruction that defines it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(pub u32);

/// One instruction. `ty` is the result's type (for [`Op::WriteReg`], the written value's);
/// `args` beyond [`Op::arity`] are unused; `imm` is the constant or the register index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Inst {
    pub op: Op,
    pub ty: Type,
    pub args: [Value; 3],
    pub imm: u64,
}

impl Inst {
    pub fn args(&self) -> &[Value] {
        &self.args[..self.op.arity()]
    }
}

/// A straight-line region in SSA form (see the crate docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Body {
    pub insts: Vec<Inst>,
    /// Whether the region runs once per lane (vector instructions) rather than once for the wave.
    pub per_lane: bool,
}

impl Body {
    pub fn ty(&self, v: Value) -> Type {
        self.insts[v.0 as usize].ty
    }

    pub fn inst(&self, v: Value) -> &Inst {
        &self.insts[v.0 as usize]
    }

    /// The constant a value is, if it is one.
    pub fn constant(&self, v: Value) -> Option<u64> {
        let i = self.inst(v);
        (i.op == Op::Const).then_some(i.imm)
    }
}

/// Builds a [`Body`] from register reads and writes in program order (SSA construction: a
/// read after a write in the region is the written value; the first read of a register becomes
/// one [`Op::ReadReg`]; each register written gets one [`Op::WriteReg`] at the end).
pub struct Builder {
    body: Body,
    /// Each register's current value, by register index (regions touch few registers: a
    /// short list is cheaper to make and search than a table of every register).
    current: Vec<(u16, Value)>,
    /// Registers written, by index.
    written: Vec<u16>,
    consts: HashMap<(Type, u64), Value>,
    /// Lane regions: the lane's bit set for each mask (by first SGPR), in the order first set.
    lane_bits: Vec<(u8, Value)>,
}

impl Default for Builder {
    fn default() -> Self {
        Builder::new()
    }
}

impl Builder {
    /// A wave region.
    pub fn new() -> Builder {
        Builder { body: Body::default(), current: Vec::new(), written: Vec::new(), consts: HashMap::default(), lane_bits: Vec::new() }
    }

    /// A lane region.
    pub fn per_lane() -> Builder {
        let mut b = Builder::new();
        b.body.per_lane = true;
        b
    }

    pub fn is_per_lane(&self) -> bool {
        self.body.per_lane
    }

    pub fn ty(&self, v: Value) -> Type {
        self.body.ty(v)
    }

    fn push(&mut self, i: Inst) -> Value {
        self.body.insts.push(i);
        Value(self.body.insts.len() as u32 - 1)
    }

    /// A constant of type `ty` (the bits beyond its width are dropped).
    pub fn konst(&mut self, ty: Type, v: u64) -> Value {
        let v = v & ty.mask();
        if let Some(&c) = self.consts.get(&(ty, v)) {
            return c;
        }
        let c = self.push(Inst { op: Op::Const, ty, args: [Value(0); 3], imm: v });
        self.consts.insert((ty, v), c);
        c
    }

    pub fn c32(&mut self, v: u32) -> Value {
        self.konst(Type::I32, v as u64)
    }

    pub fn c64(&mut self, v: u64) -> Value {
        self.konst(Type::I64, v)
    }

    pub fn bool(&mut self, v: bool) -> Value {
        self.konst(Type::Bool, v as u64)
    }

    /// Emits `op` on `args` (the count must be its arity); the result type follows from the
    /// operation's rule and the arguments' types (checked by [`verify`]).
    pub fn op(&mut self, op: Op, args: &[Value]) -> Value {
        debug_assert_eq!(args.len(), op.arity(), "{op:?}");
        let ty = match op.sig() {
            Sig::Binary | Sig::Bitwise | Sig::Shift | Sig::Unary | Sig::Ternary => self.ty(args[0]),
            Sig::Count => Type::I32,
            Sig::Compare => Type::Bool,
            Sig::Select => self.ty(args[1]),
            Sig::Fixed(_, r) => r,
            Sig::Const | Sig::ReadReg | Sig::WriteReg | Sig::WriteLaneBit | Sig::WriteLane | Sig::Store | Sig::LdsStore | Sig::Check | Sig::Arg => panic!("Builder::op: {op:?} has its own constructor"),
        };
        let mut a = [Value(0); 3];
        a[..args.len()].copy_from_slice(args);
        self.push(Inst { op, ty, args: a, imm: 0 })
    }

    /// Argument `k` of the region, of type `ty` (a value its emitter supplies).
    pub fn arg(&mut self, k: u64, ty: Type) -> Value {
        self.push(Inst { op: Op::Arg, ty, args: [Value(0); 3], imm: k })
    }

    /// The instructions so far, without the region's register writes (for emitting a
    /// computation whose results the emitter uses directly).
    pub fn peek(&self) -> &Body {
        &self.body
    }

    /// VGPR `r` of lane `lane` (wave regions).
    pub fn read_lane(&mut self, r: u8, lane: Value) -> Value {
        self.push(Inst { op: Op::ReadLane, ty: Type::I32, args: [lane, Value(0), Value(0)], imm: r as u64 })
    }

    /// Writes VGPR `r` of lane `lane` (wave regions), in program order.
    pub fn write_lane(&mut self, r: u8, lane: Value, v: Value) {
        self.push(Inst { op: Op::WriteLane, ty: Type::I32, args: [lane, v, Value(0)], imm: r as u64 });
    }

    /// Stores `v` to device memory at `addr`, in program order.
    pub fn store(&mut self, addr: Value, v: Value) {
        self.push(Inst { op: Op::Store32, ty: Type::I32, args: [addr, v, Value(0)], imm: 0 });
    }

    /// Stops the run unless `bytes` of LDS at `addr` exist.
    pub fn lds_check(&mut self, addr: Value, bytes: u32) {
        self.push(Inst { op: Op::LdsCheck, ty: Type::I32, args: [addr, Value(0), Value(0)], imm: bytes as u64 });
    }

    /// Stores the low `bytes` (1 to 4) of `v` to LDS at `addr`.
    pub fn lds_store(&mut self, addr: Value, v: Value, bytes: u32) {
        self.push(Inst { op: Op::LdsStore, ty: Type::I32, args: [addr, v, Value(0)], imm: bytes as u64 });
    }

    /// An address that is always readable (see [`Op::SafeAddress`]).
    pub fn safe_address(&mut self) -> Value {
        self.op(Op::SafeAddress, &[])
    }

    /// The running lane's index (lane regions).
    pub fn lane_id(&mut self) -> Value {
        self.push(Inst { op: Op::LaneId, ty: Type::I32, args: [Value(0); 3], imm: 0 })
    }

    /// Sets the running lane's bit of the lane mask held from SGPR `mask` (lane regions).
    pub fn write_lane_bit(&mut self, mask: u8, bit: Value) {
        match self.lane_bits.iter_mut().find(|(m, _)| *m == mask) {
            Some(e) => e.1 = bit,
            None => self.lane_bits.push((mask, bit)),
        }
    }

    /// The lane's bit this region set in the mask held from SGPR `mask`, if it set one.
    pub fn lane_bit(&self, mask: u8) -> Option<Value> {
        self.lane_bits.iter().find(|(m, _)| *m == mask).map(|e| e.1)
    }

    /// The emulator's address of byte `offset` of `.text`.
    pub fn code_address(&mut self, offset: u64) -> Value {
        self.push(Inst { op: Op::CodeAddress, ty: Type::I64, args: [Value(0); 3], imm: offset })
    }

    /// A register's current value.
    pub fn read(&mut self, r: Reg) -> Value {
        let ix = r.index() as u16;
        if let Some(&(_, v)) = self.current.iter().find(|e| e.0 == ix) {
            return v;
        }
        let v = self.push(Inst { op: Op::ReadReg, ty: r.ty(), args: [Value(0); 3], imm: ix as u64 });
        self.current.push((ix, v));
        v
    }

    /// Gives a register a new value.
    pub fn write(&mut self, r: Reg, v: Value) {
        let ix = r.index() as u16;
        match self.current.iter_mut().find(|e| e.0 == ix) {
            Some(e) => e.1 = v,
            None => self.current.push((ix, v)),
        }
        if !self.written.contains(&ix) {
            self.written.push(ix);
        }
    }

    /// The region, with a write of every register it changed.
    pub fn finish(mut self) -> Body {
        let mut written = std::mem::take(&mut self.written);
        written.sort_unstable();
        for ix in written {
            let v = self.current.iter().find(|e| e.0 == ix).expect("a written register has a value").1;
            let ty = self.body.ty(v);
            self.push(Inst { op: Op::WriteReg, ty, args: [v, Value(0), Value(0)], imm: ix as u64 });
        }
        for (m, v) in std::mem::take(&mut self.lane_bits) {
            self.push(Inst { op: Op::WriteLaneBit, ty: Type::Bool, args: [v, Value(0), Value(0)], imm: m as u64 });
        }
        self.body
    }
}
