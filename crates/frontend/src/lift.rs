//! Lifting decoded instructions into the IR ([`rdna_ir`]): SALU operations, scalar logic and
//! the EXEC-saving forms into wave regions ([`lift`]); plain 32-bit integer VALU operations into
//! lane regions ([`lift_lane`]). One arm per operation, each mirroring `rdna_emu::exec` and
//! `rdna_emu::valu` (the references); `tests/lift.rs` runs every arm against the emulator.
//!
//! Sources and destinations follow the emulator's register file: reads of SGPRs past 127 and
//! of `null` are 0, writes to them vanish, lane masks are one SGPR in wave32 and a pair in
//! wave64.

use rdna_emu::program::{Src, Step};
use rdna_emu::sem::{Cond, DsKind, Kind, Logic, MemKind, Num, Salu, Smem, VOp};
use rdna_isa::Format;
use rdna_ir::{Builder, Op, Reg, Value};

const NULL: u16 = 125;
const VCC: u16 = 106;
const EXEC: u16 = 126;

/// Whether [`lift`] handles instructions of this kind (what `rdna isa --coverage` reports).
pub fn lifts(kind: Kind) -> bool {
    match kind {
        Kind::SLogic { .. } | Kind::SaveExec { .. } | Kind::Smem(_) => true,
        Kind::Salu(op) => lifts_salu(op),
        Kind::Valu(VOp::ReadfirstlaneB32 | VOp::ReadlaneB32 | VOp::WritelaneB32) => true,
        _ => false,
    }
}

fn lifts_salu(op: Salu) -> bool {
    use Salu::*;
    matches!(
        op,
        MovB32 | MovB64 | CmovB32 | CmovB64 | CselectB32 | CselectB64 | CmovkI32 | NotB32 | NotB64 | BrevB32 | Bcnt0B32 | Bcnt1B32 | Bcnt0B64
            | Bcnt1B64 | Ff0B32 | Ff1B32 | Ff0B64 | Ff1B64 | FlbitB32 | FlbitI32 | FlbitB64 | FlbitI64 | SextI8 | SextI16 | Bitset0B32 | Bitset1B32
            | AbsI32 | AddU32 | AddcU32 | SubU32 | SubbU32 | AddI32 | SubI32 | AddkI32 | MinI32 | MaxI32 | MinU32 | MaxU32 | LshlB32 | LshrB32
            | AshrI32 | LshlB64 | LshrB64 | AshrI64 | BfmB32 | MulI32 | MulkI32 | MulHiU32 | MulHiI32 | BfeU32 | BfeI32 | BfeU64 | BfeI64
            | AbsdiffI32 | Lshl1AddU32 | Lshl2AddU32 | Lshl3AddU32 | Lshl4AddU32 | PackLl | PackLh | PackHh | PackHl | MovkI32 | CmpkEqI32
            | CmpkLgI32 | CmpkGtI32 | CmpkGeI32 | CmpkLtI32 | CmpkLeI32 | CmpkEqU32 | CmpkLgU32 | CmpkGtU32 | CmpkGeU32 | CmpkLtU32 | CmpkLeU32
            | CmpEqU32 | CmpLgU32 | CmpGtU32 | CmpGeU32 | CmpLtU32 | CmpLeU32 | CmpEqI32 | CmpLgI32 | CmpGtI32 | CmpGeI32 | CmpLtI32 | CmpLeI32
            | CmpEqU64 | CmpLgU64 | Bitcmp0B32 | Bitcmp1B32 | Bitcmp0B64 | Bitcmp1B64 | GetPc | SetPc | SwapPc | CallB64 | SetregB32
            | SetregImm32B32 | BfmB64 | BrevB64 | Bitset0B64 | Bitset1B64 | QuadmaskB32 | QuadmaskB64 | WqmB32 | WqmB64 | BitreplicateB64 | Version
    )
}

/// Scalar state access for one wave size.
struct Lifter<'a> {
    b: &'a mut Builder,
    lanes: u32,
}

impl Lifter<'_> {
    fn sgpr(&mut self, r: u16) -> Value {
        if r >= 128 || r == NULL {
            self.b.c32(0)
        } else {
            self.b.read(Reg::Sgpr(r as u8))
        }
    }

    fn set(&mut self, r: u16, v: Value) {
        if r < 128 && r != NULL {
            self.b.write(Reg::Sgpr(r as u8), v);
        }
    }

    fn set64(&mut self, r: u16, v: Value) {
        if r == NULL {
            return;
        }
        let (lo, hi) = (self.b.op(Op::Lo, &[v]), self.b.op(Op::Hi, &[v]));
        self.set(r, lo);
        self.set(r + 1, hi);
    }

    fn scc(&mut self) -> Value {
        self.b.read(Reg::Scc)
    }

    fn set_scc(&mut self, c: Value) {
        self.b.write(Reg::Scc, c);
    }

    /// SCC = `v != 0`.
    fn scc_nonzero(&mut self, v: Value) {
        let z = self.b.konst(self.b.ty(v), 0);
        let c = self.b.op(Op::Ne, &[v, z]);
        self.set_scc(c);
    }

    /// A lane mask held in SGPRs from `r`, as 64 bits.
    fn mask(&mut self, r: u16) -> Value {
        if r >= 128 {
            return self.b.c64(0);
        }
        let lo = self.sgpr(r);
        if self.lanes == 64 {
            let hi = self.sgpr(r + 1);
            self.b.op(Op::Concat, &[lo, hi])
        } else {
            self.b.op(Op::ZExt, &[lo])
        }
    }

    fn set_mask(&mut self, r: u16, m: Value) {
        if self.lanes == 64 {
            self.set64(r, m);
        } else {
            let lo = self.b.op(Op::Lo, &[m]);
            self.set(r, lo);
        }
    }

    fn src32(&mut self, s: Src) -> Result<Value, String> {
        Ok(match s {
            Src::Sgpr(r) => self.sgpr(r),
            Src::Vgpr(r) if self.b.is_per_lane() && r < 256 => self.b.read(Reg::Vgpr(r as u8)),
            Src::Const(c) => self.b.c32(c as u32),
            Src::Scc => {
                let c = self.scc();
                self.b.op(Op::BoolToInt, &[c])
            }
            Src::Vccz | Src::Execz => {
                let m = self.mask(if s == Src::Vccz { VCC } else { EXEC });
                let z = self.b.c64(0);
                let c = self.b.op(Op::Eq, &[m, z]);
                self.b.op(Op::BoolToInt, &[c])
            }
            Src::Vgpr(_) | Src::None => return Err(format!("scalar source {s:?}")),
        })
    }

    fn src64(&mut self, s: Src) -> Result<Value, String> {
        Ok(match s {
            Src::Sgpr(r) => {
                let (lo, hi) = (self.sgpr(r), self.sgpr(r + 1));
                self.b.op(Op::Concat, &[lo, hi])
            }
            Src::Vgpr(r) if self.b.is_per_lane() && r < 255 => {
                let (lo, hi) = (self.b.read(Reg::Vgpr(r as u8)), self.b.read(Reg::Vgpr(r as u8 + 1)));
                self.b.op(Op::Concat, &[lo, hi])
            }
            Src::Const(c) => self.b.c64(c),
            other => {
                let v = self.src32(other)?;
                self.b.op(Op::ZExt, &[v])
            }
        })
    }

    /// A lane-mask source: an SGPR mask, or a constant cut to the wave's lanes.
    fn mask_src(&mut self, s: Src) -> Result<Value, String> {
        if let Src::Sgpr(r) = s {
            return Ok(self.mask(r));
        }
        let v = self.src64(s)?;
        let keep = self.lane_mask();
        Ok(self.b.op(Op::And, &[v, keep]))
    }

    fn lane_mask(&mut self) -> Value {
        self.b.c64(if self.lanes == 64 { u64::MAX } else { u32::MAX as u64 })
    }

    fn op(&mut self, op: Op, args: &[Value]) -> Value {
        self.b.op(op, args)
    }

    fn logic(&mut self, op: Logic, a: Value, b: Value) -> Value {
        let r = match op {
            Logic::And | Logic::Nand => self.op(Op::And, &[a, b]),
            Logic::Or | Logic::Nor => self.op(Op::Or, &[a, b]),
            Logic::Xor | Logic::Xnor => self.op(Op::Xor, &[a, b]),
            Logic::Andn2 | Logic::Orn2 => {
                let nb = self.op(Op::Not, &[b]);
                self.op(if op == Logic::Andn2 { Op::And } else { Op::Or }, &[a, nb])
            }
            Logic::Andn1 | Logic::Orn1 => {
                let na = self.op(Op::Not, &[a]);
                self.op(if op == Logic::Andn1 { Op::And } else { Op::Or }, &[na, b])
            }
        };
        if matches!(op, Logic::Nand | Logic::Nor | Logic::Xnor) { self.op(Op::Not, &[r]) } else { r }
    }
}

/// Lifts one scalar instruction ([`lifts`] says which) into `b`, whose region runs in a wave of
/// `lanes` lanes; `text_offset` is the instruction's offset in `.text` (for PC reads).
pub fn lift(b: &mut Builder, st: &Step, lanes: u32, text_offset: u64) -> Result<(), String> {
    let mut l = Lifter { b, lanes };
    match st.kind {
        Kind::SLogic { op, wide } => {
            let (a, c) = if wide { (l.src64(st.src[0])?, l.src64(st.src[1])?) } else { (l.src32(st.src[0])?, l.src32(st.src[1])?) };
            let r = l.logic(op, a, c);
            if wide { l.set64(st.dst, r) } else { l.set(st.dst, r) }
            l.scc_nonzero(r);
            Ok(())
        }
        // SDST = EXEC, EXEC = op(S0, EXEC) (wrexec: SDST = the new EXEC); SCC = EXEC != 0.
        Kind::SaveExec { op, wrexec } => {
            let s0 = l.mask_src(st.src[0])?;
            let exec = l.mask(EXEC);
            let new = l.logic(op, s0, exec);
            let keep = l.lane_mask();
            let new = l.op(Op::And, &[new, keep]);
            // In the emulator's order, which decides where SDST is EXEC itself.
            if wrexec {
                l.set_mask(EXEC, new);
                l.set_mask(st.dst, new);
            } else {
                l.set_mask(st.dst, exec);
                l.set_mask(EXEC, new);
            }
            l.scc_nonzero(new);
            Ok(())
        }
        Kind::Salu(op) => salu(&mut l, st, op, text_offset),
        Kind::Smem(m) => smem(&mut l, st, m),
        Kind::Valu(op @ (VOp::ReadfirstlaneB32 | VOp::ReadlaneB32 | VOp::WritelaneB32)) => lane_access(&mut l, st, op),
        other => Err(format!("internal: {other:?} is not a scalar operation")),
    }
}

fn salu(l: &mut Lifter, st: &Step, op: Salu, text_offset: u64) -> Result<(), String> {
    use rdna_ir::Type::{I32, I64};
    use Salu::*;
    let d = st.dst;
    let a32 = |l: &mut Lifter| l.src32(st.src[0]);
    let b32 = |l: &mut Lifter| l.src32(st.src[1]);
    let a64 = |l: &mut Lifter| l.src64(st.src[0]);
    let b64 = |l: &mut Lifter| l.src64(st.src[1]);
    // SOPK: the 16-bit immediate is source 0, the register operand is SDST.
    let simm = match st.src[0] {
        Src::Const(c) => Some(c as u16),
        _ => None,
    };
    let simm = || simm.ok_or_else(|| "SOPK without an immediate".to_string());
    let sext16 = |k: u16| k as i16 as i32 as u32;
    match op {
        MovB32 => {
            let a = a32(l)?;
            l.set(d, a);
        }
        MovB64 => {
            let a = a64(l)?;
            l.set64(d, a);
        }
        // The PC as the emulator has it; where control goes (calls, returns, long branches) is
        // the block's exit.
        GetPc | SwapPc | CallB64 => {
            let pc = l.b.code_address(text_offset + st.inst.len as u64);
            l.set64(d, pc);
        }
        // s_version states the code's ISA version; it does nothing.
        SetPc | Version => {}
        // Each bit of the source twice, side by side: spread the bits to the even positions
        // (halving the stride each step), then copy them one up.
        BitreplicateB64 => {
            let a = a32(l)?;
            let mut x = l.op(Op::ZExt, &[a]);
            for (shift, mask) in [(16u64, 0x0000_ffff_0000_ffffu64), (8, 0x00ff_00ff_00ff_00ff), (4, 0x0f0f_0f0f_0f0f_0f0f), (2, 0x3333_3333_3333_3333), (1, 0x5555_5555_5555_5555)] {
                let (k, m) = (l.b.c64(shift), l.b.c64(mask));
                let up = l.op(Op::Shl, &[x, k]);
                let y = l.op(Op::Or, &[x, up]);
                x = l.op(Op::And, &[y, m]);
            }
            let one = l.b.c64(1);
            let up = l.op(Op::Shl, &[x, one]);
            let r = l.op(Op::Or, &[x, up]);
            l.set64(d, r);
        }
        // Hardware registers other than MODE are only seen through s_getreg, which the
        // recompiler refuses for a register the kernel writes; so writing them changes nothing
        // a recompiled kernel can see (clang's prologue sets FLAT_SCR_LO/HI).
        SetregB32 | SetregImm32B32 => {
            let id = simm()? & 0x3f;
            if id == 1 || id >= 32 {
                return Err(format!("s_setreg of hardware register {id} is not recompiled yet"));
            }
        }
        CmovB32 | CselectB32 | CmovkI32 => {
            let c = l.scc();
            let (a, b) = match op {
                CmovB32 => (a32(l)?, l.sgpr(d)),
                CselectB32 => (a32(l)?, b32(l)?),
                _ => (l.b.c32(sext16(simm()?)), l.sgpr(d)),
            };
            let r = l.op(Op::Select, &[c, a, b]);
            l.set(d, r);
        }
        CmovB64 | CselectB64 => {
            let c = l.scc();
            let (a, b) = if op == CmovB64 { (a64(l)?, l.src64(Src::Sgpr(d))?) } else { (a64(l)?, b64(l)?) };
            let r = l.op(Op::Select, &[c, a, b]);
            l.set64(d, r);
        }
        NotB32 | NotB64 => {
            let a = if op == NotB64 { a64(l)? } else { a32(l)? };
            let r = l.op(Op::Not, &[a]);
            if op == NotB64 { l.set64(d, r) } else { l.set(d, r) }
            l.scc_nonzero(r);
        }
        BrevB32 | BrevB64 => {
            let a = if op == BrevB64 { a64(l)? } else { a32(l)? };
            let r = l.op(Op::BitReverse, &[a]);
            if op == BrevB64 { l.set64(d, r) } else { l.set(d, r) }
        }
        Bcnt0B32 | Bcnt1B32 | Bcnt0B64 | Bcnt1B64 => {
            let a = if matches!(op, Bcnt0B64 | Bcnt1B64) { a64(l)? } else { a32(l)? };
            let a = if matches!(op, Bcnt0B32 | Bcnt0B64) { l.op(Op::Not, &[a]) } else { a };
            let r = l.op(Op::BitCount, &[a]);
            l.set(d, r);
            l.scc_nonzero(r);
        }
        Ff0B32 | Ff1B32 | Ff0B64 | Ff1B64 => {
            let a = if matches!(op, Ff0B64 | Ff1B64) { a64(l)? } else { a32(l)? };
            let a = if matches!(op, Ff0B32 | Ff0B64) { l.op(Op::Not, &[a]) } else { a };
            let r = l.op(Op::FindLsb, &[a]);
            l.set(d, r);
        }
        // Leading zeros (b32/b64), or leading copies of the sign bit, the sign included
        // (i32/i64); all ones where there is no such bit.
        FlbitB32 | FlbitI32 | FlbitB64 | FlbitI64 => {
            let wide = matches!(op, FlbitB64 | FlbitI64);
            let a = if wide { a64(l)? } else { a32(l)? };
            let x = if matches!(op, FlbitI32 | FlbitI64) {
                let z = l.b.konst(l.b.ty(a), 0);
                let neg = l.op(Op::SLt, &[a, z]);
                let na = l.op(Op::Not, &[a]);
                l.op(Op::Select, &[neg, na, a])
            } else {
                a
            };
            let msb = l.op(Op::FindMsb, &[x]);
            let none = l.b.c32(u32::MAX);
            let is_none = l.op(Op::Eq, &[msb, none]);
            let top = l.b.c32(if wide { 63 } else { 31 });
            let n = l.op(Op::ISub, &[top, msb]);
            let r = l.op(Op::Select, &[is_none, none, n]);
            l.set(d, r);
        }
        SextI8 | SextI16 => {
            let a = a32(l)?;
            let k = l.b.c32(if op == SextI8 { 24 } else { 16 });
            let up = l.op(Op::Shl, &[a, k]);
            let r = l.op(Op::AShr, &[up, k]);
            l.set(d, r);
        }
        Bitset0B32 | Bitset1B32 | Bitset0B64 | Bitset1B64 => {
            let wide = matches!(op, Bitset0B64 | Bitset1B64);
            let a = a32(l)?;
            let (cur, sh, one) = if wide { (l.src64(Src::Sgpr(d))?, l.op(Op::ZExt, &[a]), l.b.c64(1)) } else { (l.sgpr(d), a, l.b.c32(1)) };
            let bit = l.op(Op::Shl, &[one, sh]);
            let r = if matches!(op, Bitset0B32 | Bitset0B64) {
                let nb = l.op(Op::Not, &[bit]);
                l.op(Op::And, &[cur, nb])
            } else {
                l.op(Op::Or, &[cur, bit])
            };
            if wide { l.set64(d, r) } else { l.set(d, r) }
        }
        AbsI32 | AbsdiffI32 => {
            let a = a32(l)?;
            let x = if op == AbsdiffI32 {
                let b = b32(l)?;
                l.op(Op::ISub, &[a, b])
            } else {
                a
            };
            let z = l.b.c32(0);
            let neg = l.op(Op::SLt, &[x, z]);
            let nx = l.op(Op::ISub, &[z, x]);
            let r = l.op(Op::Select, &[neg, nx, x]);
            l.set(d, r);
            l.scc_nonzero(r);
        }
        AddU32 | AddcU32 | SubU32 | SubbU32 => {
            let (a, b) = (a32(l)?, b32(l)?);
            let (a, b) = (l.op(Op::ZExt, &[a]), l.op(Op::ZExt, &[b]));
            let code = if matches!(op, AddU32 | AddcU32) { Op::IAdd } else { Op::ISub };
            let mut r = l.op(code, &[a, b]);
            if matches!(op, AddcU32 | SubbU32) {
                let c = l.scc();
                let c = l.op(Op::BoolToInt, &[c]);
                let c = l.op(Op::ZExt, &[c]);
                r = l.op(code, &[r, c]);
            }
            let lo = l.op(Op::Lo, &[r]);
            l.set(d, lo);
            // Carry or borrow: bit 32 of the 64-bit result.
            let hi = l.op(Op::Hi, &[r]);
            let one = l.b.c32(1);
            let bit = l.op(Op::And, &[hi, one]);
            l.scc_nonzero(bit);
        }
        AddI32 | SubI32 | AddkI32 => {
            let (a, b) = if op == AddkI32 { (l.sgpr(d), l.b.c32(sext16(simm()?))) } else { (a32(l)?, b32(l)?) };
            let r = l.op(if op == SubI32 { Op::ISub } else { Op::IAdd }, &[a, b]);
            l.set(d, r);
            // Signed overflow: the operands' signs (for sub, a's and !b's) agree and differ
            // from the result's.
            let bb = if op == SubI32 { l.op(Op::Not, &[b]) } else { b };
            let x1 = l.op(Op::Xor, &[a, r]);
            let x2 = l.op(Op::Xor, &[bb, r]);
            let both = l.op(Op::And, &[x1, x2]);
            let z = l.b.c32(0);
            let c = l.op(Op::SLt, &[both, z]);
            l.set_scc(c);
        }
        MinI32 | MaxI32 | MinU32 | MaxU32 => {
            let (a, b) = (a32(l)?, b32(l)?);
            let code = match op {
                MinI32 => Op::SLt,
                MaxI32 => Op::SGt,
                MinU32 => Op::ULt,
                _ => Op::UGt,
            };
            let pick_a = l.op(code, &[a, b]);
            let r = l.op(Op::Select, &[pick_a, a, b]);
            l.set(d, r);
            l.set_scc(pick_a);
        }
        LshlB32 | LshrB32 | AshrI32 | LshlB64 | LshrB64 | AshrI64 => {
            let wide = matches!(op, LshlB64 | LshrB64 | AshrI64);
            let a = if wide { a64(l)? } else { a32(l)? };
            let b = b32(l)?;
            let b = if wide { l.op(Op::ZExt, &[b]) } else { b };
            let code = match op {
                LshlB32 | LshlB64 => Op::Shl,
                LshrB32 | LshrB64 => Op::LShr,
                _ => Op::AShr,
            };
            let r = l.op(code, &[a, b]);
            if wide { l.set64(d, r) } else { l.set(d, r) }
            l.scc_nonzero(r);
        }
        // ((1 << (a mod n)) - 1) << (b mod n), n the width.
        BfmB32 | BfmB64 => {
            let (a, b) = (a32(l)?, b32(l)?);
            let (a, b, one) = if op == BfmB64 { (l.op(Op::ZExt, &[a]), l.op(Op::ZExt, &[b]), l.b.c64(1)) } else { (a, b, l.b.c32(1)) };
            let x = l.op(Op::Shl, &[one, a]);
            let x = l.op(Op::ISub, &[x, one]);
            let r = l.op(Op::Shl, &[x, b]);
            if op == BfmB64 { l.set64(d, r) } else { l.set(d, r) }
        }
        QuadmaskB32 | QuadmaskB64 | WqmB32 | WqmB64 => {
            // Per quad of lanes (4 bits): one bit (quadmask) or all four (wqm) where any is set.
            let wide = matches!(op, QuadmaskB64 | WqmB64);
            let v = if wide { a64(l)? } else { let a = a32(l)?; l.op(Op::ZExt, &[a]) };
            let (nib, z) = (l.b.c64(0xf), l.b.c64(0));
            let mut r = z;
            for q in 0..if wide { 16 } else { 8 } {
                let sh = l.b.c64(4 * q);
                let n = l.op(Op::LShr, &[v, sh]);
                let n = l.op(Op::And, &[n, nib]);
                let any = l.op(Op::Ne, &[n, z]);
                let put = l.b.c64(if matches!(op, QuadmaskB32 | QuadmaskB64) { 1 << q } else { 0xf << (4 * q) });
                let put = l.op(Op::Select, &[any, put, z]);
                r = l.op(Op::Or, &[r, put]);
            }
            if wide {
                l.set64(d, r);
            } else {
                let r32 = l.op(Op::Lo, &[r]);
                l.set(d, r32);
            }
            l.scc_nonzero(r);
        }
        MulI32 | MulkI32 => {
            let (a, b) = if op == MulkI32 { (l.sgpr(d), l.b.c32(sext16(simm()?))) } else { (a32(l)?, b32(l)?) };
            let r = l.op(Op::IMul, &[a, b]);
            l.set(d, r);
        }
        MulHiU32 | MulHiI32 => {
            let (a, b) = (a32(l)?, b32(l)?);
            let ext = if op == MulHiU32 { Op::ZExt } else { Op::SExt };
            let (a, b) = (l.op(ext, &[a]), l.op(ext, &[b]));
            let p = l.op(Op::IMul, &[a, b]);
            let r = l.op(Op::Hi, &[p]);
            l.set(d, r);
        }
        BfeU32 | BfeI32 | BfeU64 | BfeI64 => {
            // Offset in S1[4:0] (5:0 for 64 bits), width in S1[22:16] capped at the size.
            let wide = matches!(op, BfeU64 | BfeI64);
            let signed = matches!(op, BfeI32 | BfeI64);
            let (ty, bits) = if wide { (I64, 64) } else { (I32, 32) };
            let a = if wide { a64(l)? } else { a32(l)? };
            let b = b32(l)?;
            let c16 = l.b.c32(16);
            let w = l.op(Op::LShr, &[b, c16]);
            let m7f = l.b.c32(0x7f);
            let w = l.op(Op::And, &[w, m7f]);
            let cap = l.b.c32(bits);
            let w = l.op(Op::UMin, &[w, cap]);
            let (off, wt) = if wide { (l.op(Op::ZExt, &[b]), l.op(Op::ZExt, &[w])) } else { (b, w) };
            let shifted = l.op(if signed { Op::AShr } else { Op::LShr }, &[a, off]);
            // Keep the low w bits (w == size keeps all), then sign-extend from bit w-1.
            let full = l.op(Op::Eq, &[w, cap]);
            let (one, zero, all) = (l.b.konst(ty, 1), l.b.konst(ty, 0), l.b.konst(ty, u64::MAX));
            let m = l.op(Op::Shl, &[one, wt]);
            let m = l.op(Op::ISub, &[m, one]);
            let m = l.op(Op::Select, &[full, all, m]);
            let mut r = l.op(Op::And, &[shifted, m]);
            if signed {
                // Shift the field's top bit to the sign and back (w = 0 gives 0).
                let size = l.b.konst(ty, bits as u64);
                let up = l.op(Op::ISub, &[size, wt]);
                let x = l.op(Op::Shl, &[r, up]);
                let x = l.op(Op::AShr, &[x, up]);
                let z32 = l.b.c32(0);
                let zero_w = l.op(Op::Eq, &[w, z32]);
                r = l.op(Op::Select, &[zero_w, zero, x]);
            }
            if wide { l.set64(d, r) } else { l.set(d, r) }
            l.scc_nonzero(r);
        }
        Lshl1AddU32 | Lshl2AddU32 | Lshl3AddU32 | Lshl4AddU32 => {
            let n = match op {
                Lshl1AddU32 => 1,
                Lshl2AddU32 => 2,
                Lshl3AddU32 => 3,
                _ => 4,
            };
            let (a, b) = (a32(l)?, b32(l)?);
            let (a, b) = (l.op(Op::ZExt, &[a]), l.op(Op::ZExt, &[b]));
            let k = l.b.c64(n);
            let x = l.op(Op::Shl, &[a, k]);
            let r = l.op(Op::IAdd, &[x, b]);
            let lo = l.op(Op::Lo, &[r]);
            l.set(d, lo);
            let hi = l.op(Op::Hi, &[r]);
            l.scc_nonzero(hi);
        }
        PackLl | PackLh | PackHh | PackHl => {
            let (a, b) = (a32(l)?, b32(l)?);
            let (c16, lo16, hi16) = (l.b.c32(16), l.b.c32(0xffff), l.b.c32(0xffff_0000));
            let lo = if matches!(op, PackLl | PackLh) { l.op(Op::And, &[a, lo16]) } else { l.op(Op::LShr, &[a, c16]) };
            let hi = if matches!(op, PackLl | PackHl) { l.op(Op::Shl, &[b, c16]) } else { l.op(Op::And, &[b, hi16]) };
            let r = l.op(Op::Or, &[lo, hi]);
            l.set(d, r);
        }
        MovkI32 => {
            let k = l.b.c32(sext16(simm()?));
            l.set(d, k);
        }
        CmpkEqI32 | CmpkLgI32 | CmpkGtI32 | CmpkGeI32 | CmpkLtI32 | CmpkLeI32 | CmpkEqU32 | CmpkLgU32 | CmpkGtU32 | CmpkGeU32 | CmpkLtU32
        | CmpkLeU32 => {
            let signed = matches!(op, CmpkEqI32 | CmpkLgI32 | CmpkGtI32 | CmpkGeI32 | CmpkLtI32 | CmpkLeI32);
            let s = simm()?;
            let k = l.b.c32(if signed { sext16(s) } else { s as u32 });
            let a = l.sgpr(d);
            let code = match op {
                CmpkEqI32 | CmpkEqU32 => Op::Eq,
                CmpkLgI32 | CmpkLgU32 => Op::Ne,
                CmpkGtI32 => Op::SGt,
                CmpkGeI32 => Op::SGe,
                CmpkLtI32 => Op::SLt,
                CmpkLeI32 => Op::SLe,
                CmpkGtU32 => Op::UGt,
                CmpkGeU32 => Op::UGe,
                CmpkLtU32 => Op::ULt,
                _ => Op::ULe,
            };
            let c = l.op(code, &[a, k]);
            l.set_scc(c);
        }
        CmpEqU32 | CmpLgU32 | CmpGtU32 | CmpGeU32 | CmpLtU32 | CmpLeU32 | CmpEqI32 | CmpLgI32 | CmpGtI32 | CmpGeI32 | CmpLtI32 | CmpLeI32 => {
            let (a, b) = (a32(l)?, b32(l)?);
            let code = match op {
                CmpEqU32 | CmpEqI32 => Op::Eq,
                CmpLgU32 | CmpLgI32 => Op::Ne,
                CmpGtU32 => Op::UGt,
                CmpGeU32 => Op::UGe,
                CmpLtU32 => Op::ULt,
                CmpLeU32 => Op::ULe,
                CmpGtI32 => Op::SGt,
                CmpGeI32 => Op::SGe,
                CmpLtI32 => Op::SLt,
                _ => Op::SLe,
            };
            let c = l.op(code, &[a, b]);
            l.set_scc(c);
        }
        CmpEqU64 | CmpLgU64 => {
            let (a, b) = (a64(l)?, b64(l)?);
            let c = l.op(if op == CmpEqU64 { Op::Eq } else { Op::Ne }, &[a, b]);
            l.set_scc(c);
        }
        Bitcmp0B32 | Bitcmp1B32 | Bitcmp0B64 | Bitcmp1B64 => {
            let wide = matches!(op, Bitcmp0B64 | Bitcmp1B64);
            let a = if wide { a64(l)? } else { a32(l)? };
            let b = b32(l)?;
            let (sh, one) = if wide { (l.op(Op::ZExt, &[b]), l.b.c64(1)) } else { (b, l.b.c32(1)) };
            let x = l.op(Op::LShr, &[a, sh]);
            let bit = l.op(Op::And, &[x, one]);
            let c = l.op(if matches!(op, Bitcmp1B32 | Bitcmp1B64) { Op::Eq } else { Op::Ne }, &[bit, one]);
            l.set_scc(c);
        }
        _ => return Err(format!("scalar operation {op:?} is not recompiled yet")),
    }
    Ok(())
}

/// Whether [`lift_lane`] handles this step: a plain 32-bit integer VALU operation (no
/// modifiers, DPP, SDWA or packed form; every source one dword), or a plain integer compare.
pub fn lifts_lane(st: &Step) -> bool {
    let f = st.inst.format;
    let plain = st.plain && !f.is_dpp16() && !f.is_dpp8() && !f.is_sdwa();
    if let Kind::VcmpClass { ty, .. } = st.kind {
        let m = rdna_emu::valu::mods(st);
        return matches!(ty, Num::F16 | Num::F32 | Num::F64) && !m.clamp && m.omod == 0 && !f.is_dpp16() && !f.is_dpp8() && !f.is_sdwa();
    }
    if let Kind::Vcmp { ty, .. } = st.kind {
        // Float compares may carry source abs/neg.
        let m = rdna_emu::valu::mods(st);
        let float = matches!(ty, Num::F16 | Num::F32 | Num::F64);
        let mods_ok = plain || (float && m.op_sel == 0 && !m.clamp && m.omod == 0 && !f.is_dpp16() && !f.is_dpp8() && !f.is_sdwa());
        return mods_ok && matches!(ty, Num::I16 | Num::U16 | Num::I32 | Num::U32 | Num::I64 | Num::U64 | Num::F16 | Num::F32 | Num::F64);
    }
    if st.kind == Kind::Vopd {
        return (0..2).all(|y| vopd_op(st.inst.vopd_half(y == 1).0).is_some());
    }
    if let Kind::Mem(MemKind::Load { bytes: 4 | 8 | 12 | 16, sext: false, d16: false, hi: false }) = st.kind {
        // GLOBAL whole-dword loads (not the gfx10 form that loads into LDS).
        let gfx10 = st.inst.gen != rdna_isa::Generation::Gfx11;
        return f == Format::Global && !(gfx10 && st.inst.raw >> 13 & 1 != 0);
    }
    if let Kind::Mem(MemKind::Store { bytes: 4 | 8 | 12 | 16, hi: false }) = st.kind {
        return f == Format::Global;
    }
    if let Kind::Ds(k) = st.kind {
        // LDS (not GDS) reads of whole dwords and writes without the high-half form.
        let lds = st.inst.raw >> 17 & 1 == 0;
        return lds
            && matches!(
                k,
                DsKind::Read { bytes: 4 | 8 | 12 | 16, sext: false, d16: false, hi: false }
                    | DsKind::Write { bytes: 1 | 2 | 4 | 8 | 12 | 16, hi: false }
                    | DsKind::Read2 { bytes: 4 | 8, .. }
                    | DsKind::Write2 { bytes: 4 | 8, .. }
            );
    }
    let Kind::Valu(op) = st.kind else { return false };
    // Source abs/neg for any operation, output clamp/omod for f32 results; no op_sel.
    let m = rdna_emu::valu::mods(st);
    let modifiers_ok = !(m.clamp || m.omod != 0) || f32_result(op);
    // A mask source (SRC2 of v_cndmask and the carry-in forms) is a wave-wide value.
    let lane_sources = if reads_mask(op) { 2 } else { st.nsrc as usize };
    // A carry-out into EXEC changes the lanes that run while they run: not in a region.
    let carry_into_exec = writes_carry(op) && (EXEC..EXEC + 2).contains(&st.carry_dst());
    modifiers_ok
        && !f.is_dpp16()
        && !f.is_dpp8()
        && !f.is_sdwa()
        && f != Format::Vop3p
        && defines_vector_op(op)
        && st.sw[..lane_sources.min(3)].iter().zip(wide_sources(op)).all(|(&w, wide)| w <= if wide { 2 } else { 1 })
        && st.dst < 255
        && !carry_into_exec
}

/// The lifted operations whose result is an f32 (where clamp and omod apply).
fn f32_result(op: VOp) -> bool {
    use VOp::*;
    matches!(
        op,
        AddF32 | SubF32 | SubrevF32 | MulF32 | FmaF32 | FmacF32 | FmamkF32 | FmaakF32 | MinF32 | MaxF32 | CvtF32I32 | CvtF32U32 | TruncF32 | FloorF32
            | CeilF32 | RndneF32 | SqrtF32 | RcpF32 | RcpIflagF32 | FractF32 | LdexpF32 | MulLegacyF32 | Med3F32 | Min3F32 | Max3F32 | CvtF32Ubyte0
            | CvtF32Ubyte1 | CvtF32Ubyte2 | CvtF32Ubyte3 | CvtF32F16 | CvtOffF32I4 | Dot2F32F16 | Dot2cF32F16 | MaxminF32 | MinmaxF32 | MullitF32
    )
}

fn writes_carry(op: VOp) -> bool {
    use VOp::*;
    matches!(op, AddCoU32 | AddCoCiU32 | SubCoU32 | SubCoCiU32 | SubrevCoU32 | SubrevCoCiU32)
}

fn reads_mask(op: VOp) -> bool {
    matches!(op, VOp::CndmaskB32 | VOp::CndmaskB16 | VOp::AddCoCiU32 | VOp::SubCoCiU32 | VOp::SubrevCoCiU32)
}

/// Whether [`vector_op`] defines this operation.
pub fn defines_vector_op(op: VOp) -> bool {
    use VOp::*;
    matches!(
        op,
        MovB32 | CndmaskB32 | MulI32I24 | MulHiI32I24 | MulU32U24 | MulHiU32U24 | MinI32 | MaxI32 | MinU32 | MaxU32 | LshrrevB32 | AshrrevI32
            | LshlrevB32 | AndB32 | OrB32 | XorB32 | XnorB32 | NotB32 | AddNcU32 | SubNcU32 | SubrevNcU32 | AddNcI32 | SubNcI32 | AddCoU32
            | AddCoCiU32 | SubCoU32 | SubCoCiU32 | SubrevCoU32 | SubrevCoCiU32 | MulLoU32 | MulHiU32 | MulHiI32 | MadU32U24 | MadI32I24 | BfeU32
            | BfeI32 | BfiB32 | BfmB32 | AlignbitB32 | AlignbyteB32 | Min3I32 | Max3I32 | Min3U32 | Max3U32 | Med3I32 | Med3U32 | LshlAddU32
            | AddLshlU32 | Add3U32 | LshlOrB32 | AndOrB32 | Or3B32 | Xor3B32 | XadU32 | BcntU32B32 | MbcntLoU32B32 | MbcntHiU32B32 | BfrevB32
            | FfbhU32 | FfblB32 | FfbhI32 | AddF32 | SubF32 | SubrevF32 | MulF32 | FmaF32 | FmacF32 | FmamkF32 | FmaakF32 | MinF32 | MaxF32
            | CvtF32I32 | CvtF32U32 | CvtI32F32 | CvtU32F32 | LshlrevB64 | LshrrevB64 | AshrrevI64 | MadU64U32 | MadI64I32 | AddF64 | MulF64
            | FmaF64 | MinF64 | MaxF64 | TruncF32 | FloorF32 | CeilF32 | RndneF32 | SqrtF32 | RcpF32 | RcpIflagF32 | FractF32 | LdexpF32
            | MulLegacyF32 | Med3F32 | Min3F32 | Max3F32 | CvtFlrI32F32 | CvtRpiI32F32 | CvtF32Ubyte0 | CvtF32Ubyte1 | CvtF32Ubyte2 | CvtF32Ubyte3
    ) || half_result(op)
        || matches!(
            op,
            MadU32U16 | MadI32I16 | CvtF32F16 | CvtPkU16U32 | CvtPkI16I32 | CvtPkU8F32 | CvtPknormI16F32 | CvtPknormU16F32 | CvtPknormI16F16
                | CvtPknormU16F16 | CvtOffF32I4 | Dot2U32U16 | Dot2I32I16 | Dot4I32I8 | Dot4cI32I8 | Dot4U32U8 | Dot8I32I4 | Dot8U32U4
                | Dot2F32F16 | Dot2cF32F16 | MaxminI32 | MinmaxI32 | MaxminU32 | MinmaxU32 | MaxminF32 | MinmaxF32 | CvtI32I16 | CvtU32U16
                | MullitF32 | CvtPkI16F32 | CvtPkU16F32
        )
}

/// The lifted operations with an f16 result (written as [`u16_result`]'s are).
pub fn f16_result(op: VOp) -> bool {
    use VOp::*;
    matches!(op, AddF16 | SubF16 | SubrevF16 | MulF16 | MinF16 | MaxF16 | CvtF16F32 | MaxminF16 | MinmaxF16 | Dot2F16F16)
}

/// The lifted operations with a 16-bit result of either kind.
fn half_result(op: VOp) -> bool {
    u16_result(op) || f16_result(op)
}

/// The lifted operations with a 16-bit integer result (written to the low half with the high
/// half zeroed, or with op_sel[3] to the high half with the low kept).
pub fn u16_result(op: VOp) -> bool {
    use VOp::*;
    matches!(
        op,
        AddNcU16 | SubNcU16 | AddNcI16 | SubNcI16 | MulLoU16 | MadU16 | MadI16 | LshlrevB16 | LshrrevB16 | AshrrevI16 | MinI16 | MaxI16 | MinU16
            | MaxU16 | Min3I16 | Max3I16 | Min3U16 | Max3U16 | Med3I16 | Med3U16 | SatPkU8I16 | AndB16 | OrB16 | XorB16 | NotB16 | CndmaskB16
            | CvtNormI16F16 | CvtNormU16F16
    )
}

/// Which sources of a lifted vector operation are 64 bits wide (a register pair or a 64-bit
/// constant); the others are 32.
pub fn wide_sources(op: VOp) -> [bool; 3] {
    use VOp::*;
    match op {
        LshlrevB64 | LshrrevB64 | AshrrevI64 => [false, true, false],
        MadU64U32 | MadI64I32 => [false, false, true],
        AddF64 | MulF64 | FmaF64 | MinF64 | MaxF64 => [true, true, true],
        _ => [false; 3],
    }
}

/// Lifts one vector instruction ([`lifts_lane`] says which) into the lane region `b` (see
/// [`rdna_ir::Builder::per_lane`]) of a wave of `lanes` lanes.
pub fn lift_lane(b: &mut Builder, st: &Step, lanes: u32) -> Result<(), String> {
    if !b.is_per_lane() {
        return Err("internal: a vector operation in a wave region".into());
    }
    let mut l = Lifter { b, lanes };
    if let Kind::Vcmp { ty, cond, x } = st.kind {
        return compare(&mut l, st, ty, cond, x);
    }
    if st.kind == Kind::Vopd {
        return vopd(&mut l, st);
    }
    if let Kind::Mem(MemKind::Load { bytes, .. }) = st.kind {
        return global_load(&mut l, st, bytes);
    }
    if let Kind::Mem(MemKind::Store { bytes, .. }) = st.kind {
        return global_store(&mut l, st, bytes);
    }
    if let Kind::Ds(k) = st.kind {
        return lds_access(&mut l, st, k);
    }
    if let Kind::VcmpClass { ty, x } = st.kind {
        let a = l.lane_src(st, 0, ty == Num::F64)?;
        let mask = l.lane_src(st, 1, false)?;
        let t = class_test(l.b, ty, a, mask)?;
        let d = if x { EXEC } else { st.dst };
        if d < 128 && d != NULL {
            l.b.write_lane_bit(d as u8, t);
        }
        return Ok(());
    }
    let Kind::Valu(op) = st.kind else { return Err(format!("internal: {:?} is not a vector operation", st.kind)) };
    let reads_mask = reads_mask(op);
    let n = if reads_mask { 2 } else { st.nsrc as usize };
    let mut s = Vec::with_capacity(3);
    let wide = wide_sources(op);
    let m = rdna_emu::valu::mods(st);
    for (i, &w) in wide.iter().enumerate().take(n) {
        s.push(l.lane_src(st, i, w)?);
    }
    // Two-address forms: accumulate into VDST, or take the literal constant K.
    let k = st.inst.literal.unwrap_or(0);
    match op {
        VOp::FmacF32 | VOp::Dot2cF32F16 | VOp::Dot4cI32I8 => s.push(l.b.read(Reg::Vgpr(st.dst as u8))),
        VOp::FmamkF32 => {
            s.push(s[1]);
            s[1] = l.b.c32(k);
        }
        VOp::FmaakF32 => s.push(l.b.c32(k)),
        _ => {}
    }
    // The lane's bit of the carry-in / select mask: SRC2 in VOP3, VCC otherwise.
    let cin = if reads_mask { Some(l.lane_bit_of(if st.inst.format.is_vop3() { st.src[2] } else { Src::Sgpr(VCC) })?) } else { None };
    let (mut r, carry) = vector_op(l.b, op, &s, cin)?;
    // Output modifiers (f32 results): omod scales, then clamp limits to [0, 1].
    if m.omod != 0 {
        let k = l.b.c32([1.0f32, 2.0, 4.0, 0.5][m.omod as usize].to_bits());
        r = l.op(Op::FMul, &[r, k]);
    }
    if m.clamp {
        r = l.op(Op::FClamp01, &[r]);
    }
    if half_result(op) {
        let lo16 = l.b.c32(0xffff);
        r = l.op(Op::And, &[r, lo16]);
        if m.op_sel >> 3 & 1 != 0 {
            let old = l.b.read(Reg::Vgpr(st.dst as u8));
            let keep = l.op(Op::And, &[old, lo16]);
            let k16 = l.b.c32(16);
            let hi = l.op(Op::Shl, &[r, k16]);
            r = l.op(Op::Or, &[keep, hi]);
        }
    }
    if l.b.ty(r) == rdna_ir::Type::I64 {
        let (lo, hi) = (l.op(Op::Lo, &[r]), l.op(Op::Hi, &[r]));
        l.b.write(Reg::Vgpr(st.dst as u8), lo);
        l.b.write(Reg::Vgpr(st.dst as u8 + 1), hi);
    } else {
        l.b.write(Reg::Vgpr(st.dst as u8), r);
    }
    if let Some(bit) = carry {
        let d = st.carry_dst();
        if d < 128 && d != NULL {
            l.b.write_lane_bit(d as u8, bit);
        }
    }
    Ok(())
}

/// What a lifted vector operation computes in one lane from its sources' values (`cin`: the
/// lane's bit of the mask v_cndmask and the carry-in forms read): the result, and the lane's
/// carry-out bit for the forms that write one. The one definition of these operations: lane
/// regions use it, and so does the backend for their DPP, SDWA and modifier forms.
pub fn vector_op(b: &mut Builder, op: VOp, s: &[Value], cin: Option<Value>) -> Result<(Value, Option<Value>), String> {
    use VOp::*;
    let mut l = Lifter { b, lanes: 0 };
    if s.is_empty() {
        return Err("no sources".into());
    }
    let cin = || cin.ok_or_else(|| "internal: no mask bit".to_string());
    let (a, b_, c) = (s[0], s.get(1).copied(), s.get(2).copied());
    let b = || b_.ok_or_else(|| "missing second source".to_string());
    let c = || c.ok_or_else(|| "missing third source".to_string());
    let k = |l: &mut Lifter, v: u32| l.b.c32(v);
    let s24 = |l: &mut Lifter, x: Value| {
        let eight = l.b.c32(8);
        let up = l.op(Op::Shl, &[x, eight]);
        l.op(Op::AShr, &[up, eight])
    };
    let u24 = |l: &mut Lifter, x: Value| {
        let m = l.b.c32(0xff_ffff);
        l.op(Op::And, &[x, m])
    };
    let s16 = |l: &mut Lifter, x: Value| {
        let k16 = l.b.c32(16);
        let up = l.op(Op::Shl, &[x, k16]);
        l.op(Op::AShr, &[up, k16])
    };
    let u16v = |l: &mut Lifter, x: Value| {
        let m = l.b.c32(0xffff);
        l.op(Op::And, &[x, m])
    };
    let min_max = |l: &mut Lifter, code: Op, x: Value, y: Value| {
        let pick_x = l.op(code, &[x, y]);
        l.op(Op::Select, &[pick_x, x, y])
    };
    let mut carry = None;
    let r = match op {
        MovB32 => a,
        CndmaskB32 => l.op(Op::Select, &[cin()?, b()?, a]),
        MulI32I24 => {
            let (x, y) = (s24(&mut l, a), s24(&mut l, b()?));
            l.op(Op::IMul, &[x, y])
        }
        MulHiI32I24 | MulHiU32U24 => {
            let (x, y) = if op == MulHiI32I24 { (s24(&mut l, a), s24(&mut l, b()?)) } else { (u24(&mut l, a), u24(&mut l, b()?)) };
            let ext = if op == MulHiI32I24 { Op::SExt } else { Op::ZExt };
            let (x, y) = (l.op(ext, &[x]), l.op(ext, &[y]));
            let p = l.op(Op::IMul, &[x, y]);
            l.op(Op::Hi, &[p])
        }
        MulU32U24 => {
            let (x, y) = (u24(&mut l, a), u24(&mut l, b()?));
            l.op(Op::IMul, &[x, y])
        }
        MinI32 => min_max(&mut l, Op::SLt, a, b()?),
        MaxI32 => min_max(&mut l, Op::SGt, a, b()?),
        MinU32 => min_max(&mut l, Op::ULt, a, b()?),
        MaxU32 => min_max(&mut l, Op::UGt, a, b()?),
        Min3I32 | Max3I32 | Min3U32 | Max3U32 => {
            let code = match op {
                Min3I32 => Op::SLt,
                Max3I32 => Op::SGt,
                Min3U32 => Op::ULt,
                _ => Op::UGt,
            };
            let x = min_max(&mut l, code, a, b()?);
            min_max(&mut l, code, x, c()?)
        }
        // max(x, y) then min with max(min(x, y), z).
        Med3I32 | Med3U32 => {
            let (lt, gt) = if op == Med3I32 { (Op::SLt, Op::SGt) } else { (Op::ULt, Op::UGt) };
            let y = b()?;
            let hi = min_max(&mut l, gt, a, y);
            let lo = min_max(&mut l, lt, a, y);
            let lo = min_max(&mut l, gt, lo, c()?);
            min_max(&mut l, lt, hi, lo)
        }
        LshrrevB32 => l.op(Op::LShr, &[b()?, a]),
        AshrrevI32 => l.op(Op::AShr, &[b()?, a]),
        LshlrevB32 => l.op(Op::Shl, &[b()?, a]),
        AndB32 => l.op(Op::And, &[a, b()?]),
        OrB32 => l.op(Op::Or, &[a, b()?]),
        XorB32 => l.op(Op::Xor, &[a, b()?]),
        XnorB32 => {
            let x = l.op(Op::Xor, &[a, b()?]);
            l.op(Op::Not, &[x])
        }
        NotB32 => l.op(Op::Not, &[a]),
        AddNcU32 | AddNcI32 => l.op(Op::IAdd, &[a, b()?]),
        SubNcU32 | SubNcI32 => l.op(Op::ISub, &[a, b()?]),
        SubrevNcU32 => l.op(Op::ISub, &[b()?, a]),
        // Sums and differences in 64 bits: bit 32 is the carry, a negative result the borrow.
        AddCoU32 | AddCoCiU32 | SubCoU32 | SubCoCiU32 | SubrevCoU32 | SubrevCoCiU32 => {
            let (x, y) = if matches!(op, SubrevCoU32 | SubrevCoCiU32) { (b()?, a) } else { (a, b()?) };
            let (x, y) = (l.op(Op::ZExt, &[x]), l.op(Op::ZExt, &[y]));
            let cin = if matches!(op, AddCoCiU32 | SubCoCiU32 | SubrevCoCiU32) {
                let i = l.op(Op::BoolToInt, &[cin()?]);
                l.op(Op::ZExt, &[i])
            } else {
                l.b.c64(0)
            };
            let add = matches!(op, AddCoU32 | AddCoCiU32);
            let y = l.op(Op::IAdd, &[y, cin]);
            let full = l.op(if add { Op::IAdd } else { Op::ISub }, &[x, y]);
            carry = Some(if add {
                let hi = l.op(Op::Hi, &[full]);
                let one = l.b.c32(1);
                let bit = l.op(Op::And, &[hi, one]);
                l.op(Op::Eq, &[bit, one])
            } else {
                l.op(Op::ULt, &[x, y])
            });
            l.op(Op::Lo, &[full])
        }
        MulLoU32 => l.op(Op::IMul, &[a, b()?]),
        MulHiU32 | MulHiI32 => {
            let ext = if op == MulHiU32 { Op::ZExt } else { Op::SExt };
            let (x, y) = (l.op(ext, &[a]), l.op(ext, &[b()?]));
            let p = l.op(Op::IMul, &[x, y]);
            l.op(Op::Hi, &[p])
        }
        MadU32U24 | MadI32I24 => {
            let (x, y) = if op == MadI32I24 { (s24(&mut l, a), s24(&mut l, b()?)) } else { (u24(&mut l, a), u24(&mut l, b()?)) };
            let p = l.op(Op::IMul, &[x, y]);
            l.op(Op::IAdd, &[p, c()?])
        }
        // The field at b[4:0], c[4:0] bits wide (0 wide: 0); the signed form extends its top bit.
        BfeU32 | BfeI32 => {
            let shifted = l.op(if op == BfeI32 { Op::AShr } else { Op::LShr }, &[a, b()?]);
            let (one, wd) = (k(&mut l, 1), c()?);
            let m = l.op(Op::Shl, &[one, wd]);
            let m = l.op(Op::ISub, &[m, one]);
            let x = l.op(Op::And, &[shifted, m]);
            if op == BfeI32 {
                let (thirty_one, thirty_two) = (k(&mut l, 31), k(&mut l, 32));
                let w = l.op(Op::And, &[wd, thirty_one]);
                let up = l.op(Op::ISub, &[thirty_two, w]);
                let y = l.op(Op::Shl, &[x, up]);
                l.op(Op::AShr, &[y, up])
            } else {
                x
            }
        }
        BfiB32 => {
            let x = l.op(Op::And, &[a, b()?]);
            let na = l.op(Op::Not, &[a]);
            let y = l.op(Op::And, &[na, c()?]);
            l.op(Op::Or, &[x, y])
        }
        BfmB32 => {
            let one = k(&mut l, 1);
            let m = l.op(Op::Shl, &[one, a]);
            let m = l.op(Op::ISub, &[m, one]);
            l.op(Op::Shl, &[m, b()?])
        }
        // {a, b} as 64 bits, shifted right by c[4:0] bits (alignbyte: c[1:0] bytes).
        AlignbitB32 | AlignbyteB32 => {
            let wide = l.op(Op::Concat, &[b()?, a]);
            let amount = if op == AlignbitB32 {
                let m = k(&mut l, 31);
                l.op(Op::And, &[c()?, m])
            } else {
                let (m, three) = (k(&mut l, 3), k(&mut l, 3));
                let by = l.op(Op::And, &[c()?, m]);
                l.op(Op::Shl, &[by, three])
            };
            let amount = l.op(Op::ZExt, &[amount]);
            let x = l.op(Op::LShr, &[wide, amount]);
            l.op(Op::Lo, &[x])
        }
        LshlAddU32 | LshlOrB32 => {
            let x = l.op(Op::Shl, &[a, b()?]);
            l.op(if op == LshlAddU32 { Op::IAdd } else { Op::Or }, &[x, c()?])
        }
        AddLshlU32 => {
            let x = l.op(Op::IAdd, &[a, b()?]);
            l.op(Op::Shl, &[x, c()?])
        }
        Add3U32 | Or3B32 | Xor3B32 => {
            let code = match op {
                Add3U32 => Op::IAdd,
                Or3B32 => Op::Or,
                _ => Op::Xor,
            };
            let x = l.op(code, &[a, b()?]);
            l.op(code, &[x, c()?])
        }
        AndOrB32 => {
            let x = l.op(Op::And, &[a, b()?]);
            l.op(Op::Or, &[x, c()?])
        }
        XadU32 => {
            let x = l.op(Op::Xor, &[a, b()?]);
            l.op(Op::IAdd, &[x, c()?])
        }
        BcntU32B32 => {
            let x = l.op(Op::BitCount, &[a]);
            l.op(Op::IAdd, &[x, b()?])
        }
        // Bits of a below the lane's bit in the low (high) half of a wave-wide mask, plus b.
        MbcntLoU32B32 | MbcntHiU32B32 => {
            let lane = l.b.lane_id();
            let lane = l.op(Op::ZExt, &[lane]);
            let one = l.b.c64(1);
            let below = l.op(Op::Shl, &[one, lane]);
            let below = l.op(Op::ISub, &[below, one]);
            let half = l.op(if op == MbcntLoU32B32 { Op::Lo } else { Op::Hi }, &[below]);
            let x = l.op(Op::And, &[a, half]);
            let x = l.op(Op::BitCount, &[x]);
            l.op(Op::IAdd, &[x, b()?])
        }
        BfrevB32 => l.op(Op::BitReverse, &[a]),
        FfblB32 => l.op(Op::FindLsb, &[a]),
        // Leading zeros, or leading copies of the sign bit (the sign included); all ones
        // where there is no such bit.
        FfbhU32 | FfbhI32 => {
            let x = if op == FfbhI32 {
                let z = k(&mut l, 0);
                let neg = l.op(Op::SLt, &[a, z]);
                let na = l.op(Op::Not, &[a]);
                l.op(Op::Select, &[neg, na, a])
            } else {
                a
            };
            let msb = l.op(Op::FindMsb, &[x]);
            let none = k(&mut l, u32::MAX);
            let is_none = l.op(Op::Eq, &[msb, none]);
            let top = k(&mut l, 31);
            let n = l.op(Op::ISub, &[top, msb]);
            l.op(Op::Select, &[is_none, none, n])
        }
        AddF32 => l.op(Op::FAdd, &[a, b()?]),
        SubF32 => l.op(Op::FSub, &[a, b()?]),
        SubrevF32 => l.op(Op::FSub, &[b()?, a]),
        MulF32 => l.op(Op::FMul, &[a, b()?]),
        FmaF32 | FmacF32 | FmamkF32 | FmaakF32 => l.op(Op::Fma, &[a, b()?, c()?]),
        MinF32 => l.op(Op::FMin, &[a, b()?]),
        MaxF32 => l.op(Op::FMax, &[a, b()?]),
        CvtF32I32 => l.op(Op::SToF, &[a]),
        CvtF32U32 => l.op(Op::UToF, &[a]),
        CvtI32F32 => l.op(Op::FToS, &[a]),
        CvtU32F32 => l.op(Op::FToU, &[a]),
        LshlrevB64 | LshrrevB64 | AshrrevI64 => {
            let amount = l.op(Op::ZExt, &[a]);
            let code = match op {
                LshlrevB64 => Op::Shl,
                LshrrevB64 => Op::LShr,
                _ => Op::AShr,
            };
            l.op(code, &[b()?, amount])
        }
        // A 64-bit product plus a 64-bit addend; the carry-out is unsigned overflow of the sum
        // (u64) or leaving the i64 range (i64).
        MadU64U32 | MadI64I32 => {
            let ext = if op == MadU64U32 { Op::ZExt } else { Op::SExt };
            let (x, y) = (l.op(ext, &[a]), l.op(ext, &[b()?]));
            let (p, c) = (l.op(Op::IMul, &[x, y]), c()?);
            let r = l.op(Op::IAdd, &[p, c]);
            carry = Some(if op == MadU64U32 {
                l.op(Op::ULt, &[r, c])
            } else {
                let (x1, x2) = (l.op(Op::Xor, &[p, r]), l.op(Op::Xor, &[c, r]));
                let both = l.op(Op::And, &[x1, x2]);
                let z = l.b.c64(0);
                l.op(Op::SLt, &[both, z])
            });
            r
        }
        AddF64 => l.op(Op::FAdd, &[a, b()?]),
        MulF64 => l.op(Op::FMul, &[a, b()?]),
        FmaF64 => l.op(Op::Fma, &[a, b()?, c()?]),
        MinF64 => l.op(Op::FMin, &[a, b()?]),
        MaxF64 => l.op(Op::FMax, &[a, b()?]),
        TruncF32 => l.op(Op::FTrunc, &[a]),
        FloorF32 => l.op(Op::FFloor, &[a]),
        CeilF32 => l.op(Op::FCeil, &[a]),
        RndneF32 => l.op(Op::FRndne, &[a]),
        SqrtF32 => l.op(Op::FSqrt, &[a]),
        RcpF32 | RcpIflagF32 => l.op(Op::FRcp, &[a]),
        FractF32 => l.op(Op::FFract, &[a]),
        LdexpF32 => l.op(Op::FLdexp, &[a, b()?]),
        MulLegacyF32 => l.op(Op::FMulLegacy, &[a, b()?]),
        Med3F32 => l.op(Op::FMed3, &[a, b()?, c()?]),
        Min3F32 | Max3F32 => {
            let code = if op == Min3F32 { Op::FMin } else { Op::FMax };
            let x = l.op(code, &[a, b()?]);
            l.op(code, &[x, c()?])
        }
        // floor(x), or floor(x + 0.5) with the addition rounded in f32, to a saturated integer.
        CvtFlrI32F32 | CvtRpiI32F32 => {
            let x = if op == CvtRpiI32F32 {
                let half = k(&mut l, 0.5f32.to_bits());
                l.op(Op::FAdd, &[a, half])
            } else {
                a
            };
            let x = l.op(Op::FFloor, &[x]);
            l.op(Op::FToS, &[x])
        }
        CvtF32Ubyte0 | CvtF32Ubyte1 | CvtF32Ubyte2 | CvtF32Ubyte3 => {
            let shift = match op {
                CvtF32Ubyte0 => 0,
                CvtF32Ubyte1 => 8,
                CvtF32Ubyte2 => 16,
                _ => 24,
            };
            let (sh, m) = (k(&mut l, shift), k(&mut l, 0xff));
            let x = l.op(Op::LShr, &[a, sh]);
            let x = l.op(Op::And, &[x, m]);
            l.op(Op::UToF, &[x])
        }
        // 16-bit integers in 32-bit operations: the low half of the result is what counts.
        AddNcU16 | AddNcI16 => l.op(Op::IAdd, &[a, b()?]),
        SubNcU16 | SubNcI16 => l.op(Op::ISub, &[a, b()?]),
        MulLoU16 => l.op(Op::IMul, &[a, b()?]),
        MadU16 | MadI16 => {
            let p = l.op(Op::IMul, &[a, b()?]);
            l.op(Op::IAdd, &[p, c()?])
        }
        LshlrevB16 | LshrrevB16 | AshrrevI16 => {
            let k15 = k(&mut l, 15);
            let amount = l.op(Op::And, &[a, k15]);
            let v = b()?;
            let v = if op == AshrrevI16 { s16(&mut l, v) } else { u16v(&mut l, v) };
            l.op(match op {
                LshlrevB16 => Op::Shl,
                LshrrevB16 => Op::LShr,
                _ => Op::AShr,
            }, &[v, amount])
        }
        MinI16 | MaxI16 | MinU16 | MaxU16 | Min3I16 | Max3I16 | Min3U16 | Max3U16 | Med3I16 | Med3U16 => {
            let signed = matches!(op, MinI16 | MaxI16 | Min3I16 | Max3I16 | Med3I16);
            let ext = |l: &mut Lifter, v: Value| if signed { s16(l, v) } else { u16v(l, v) };
            let (lt, gt) = if signed { (Op::SLt, Op::SGt) } else { (Op::ULt, Op::UGt) };
            let (x, y) = (ext(&mut l, a), b()?);
            let y = ext(&mut l, y);
            match op {
                MinI16 | MinU16 => min_max(&mut l, lt, x, y),
                MaxI16 | MaxU16 => min_max(&mut l, gt, x, y),
                _ => {
                    let z = c()?;
                    let z = ext(&mut l, z);
                    match op {
                        Min3I16 | Min3U16 => {
                            let m = min_max(&mut l, lt, x, y);
                            min_max(&mut l, lt, m, z)
                        }
                        Max3I16 | Max3U16 => {
                            let m = min_max(&mut l, gt, x, y);
                            min_max(&mut l, gt, m, z)
                        }
                        _ => {
                            let hi = min_max(&mut l, gt, x, y);
                            let lo = min_max(&mut l, lt, x, y);
                            let lo = min_max(&mut l, gt, lo, z);
                            min_max(&mut l, lt, hi, lo)
                        }
                    }
                }
            }
        }
        // f16 arithmetic as the emulator does it: widened exactly to f32, computed there,
        // rounded once to f16.
        AddF16 | SubF16 | SubrevF16 | MulF16 | MinF16 | MaxF16 => {
            let (x, y) = (l.op(Op::HalfToF32, &[a]), b()?);
            let y = l.op(Op::HalfToF32, &[y]);
            let r = match op {
                AddF16 => l.op(Op::FAdd, &[x, y]),
                SubF16 => l.op(Op::FSub, &[x, y]),
                SubrevF16 => l.op(Op::FSub, &[y, x]),
                MulF16 => l.op(Op::FMul, &[x, y]),
                MinF16 => l.op(Op::FMin, &[x, y]),
                _ => l.op(Op::FMax, &[x, y]),
            };
            l.op(Op::F32ToHalf, &[r])
        }
        CvtF16F32 => l.op(Op::F32ToHalf, &[a]),
        CvtF32F16 => l.op(Op::HalfToF32, &[a]),
        MadU32U16 | MadI32I16 => {
            let ext = |l: &mut Lifter, v: Value| if op == MadI32I16 { s16(l, v) } else { u16v(l, v) };
            let x = ext(&mut l, a);
            let y = b()?;
            let y = ext(&mut l, y);
            let p = l.op(Op::IMul, &[x, y]);
            l.op(Op::IAdd, &[p, c()?])
        }
        // Saturated to 16 bits each, packed low then high.
        CvtPkU16U32 => {
            let m = k(&mut l, 0xffff);
            let x = min_max(&mut l, Op::ULt, a, m);
            let y = b()?;
            let y = min_max(&mut l, Op::ULt, y, m);
            pack16(&mut l, x, y)
        }
        CvtPkI16I32 => {
            let (lo, hi) = (k(&mut l, -32768i32 as u32), k(&mut l, 32767));
            let clamp = |l: &mut Lifter, v: Value| {
                let v = min_max(l, Op::SGt, v, lo);
                min_max(l, Op::SLt, v, hi)
            };
            let x = clamp(&mut l, a);
            let y = b()?;
            let y = clamp(&mut l, y);
            pack16(&mut l, x, y)
        }
        // Each signed 16-bit half saturated to an unsigned byte.
        SatPkU8I16 => {
            let (z, m) = (k(&mut l, 0), k(&mut l, 255));
            let sat = |l: &mut Lifter, v: Value| {
                let v = s16(l, v);
                let v = min_max(l, Op::SGt, v, z);
                min_max(l, Op::SLt, v, m)
            };
            let x = sat(&mut l, a);
            let k16 = k(&mut l, 16);
            let hi = l.op(Op::LShr, &[a, k16]);
            let y = sat(&mut l, hi);
            let k8 = k(&mut l, 8);
            let y = l.op(Op::Shl, &[y, k8]);
            l.op(Op::Or, &[x, y])
        }
        // The float rounded to nearest even and saturated to a byte (NaN: 0), into byte c[1:0]
        // of c.
        CvtPkU8F32 => {
            let r = l.op(Op::FRndne, &[a]);
            let (z, top) = (k(&mut l, 0), k(&mut l, 255.0f32.to_bits()));
            let r = l.op(Op::FMax, &[r, z]);
            let r = l.op(Op::FMin, &[r, top]);
            let v = l.op(Op::FToU, &[r]);
            let nan = l.op(Op::FUnord, &[a, a]);
            let v = l.op(Op::Select, &[nan, z, v]);
            let cc = c()?;
            let (three, eight, ff) = (k(&mut l, 3), k(&mut l, 8), k(&mut l, 0xff));
            let at = l.op(Op::And, &[cc, three]);
            let at = l.op(Op::IMul, &[at, eight]);
            let hole = l.op(Op::Shl, &[ff, at]);
            let hole = l.op(Op::Not, &[hole]);
            let kept = l.op(Op::And, &[cc, hole]);
            let v = l.op(Op::Shl, &[v, at]);
            l.op(Op::Or, &[kept, v])
        }
        CvtPknormI16F32 | CvtPknormU16F32 | CvtPknormI16F16 | CvtPknormU16F16 => {
            let signed = matches!(op, CvtPknormI16F32 | CvtPknormI16F16);
            let half = matches!(op, CvtPknormI16F16 | CvtPknormU16F16);
            let y = b()?;
            let (x, y) = if half { (l.op(Op::HalfToF32, &[a]), l.op(Op::HalfToF32, &[y])) } else { (a, y) };
            let x = norm16(&mut l, x, signed);
            let y = norm16(&mut l, y, signed);
            pack16(&mut l, x, y)
        }
        CvtNormI16F16 | CvtNormU16F16 => {
            let x = l.op(Op::HalfToF32, &[a]);
            norm16(&mut l, x, op == CvtNormI16F16)
        }
        // The signed 4-bit field a[3:0] as a fraction of 16.
        CvtOffF32I4 => {
            let k28 = k(&mut l, 28);
            let x = l.op(Op::Shl, &[a, k28]);
            let x = l.op(Op::AShr, &[x, k28]);
            let x = l.op(Op::SToF, &[x]);
            let sixteenth = k(&mut l, (1.0f32 / 16.0).to_bits());
            l.op(Op::FMul, &[x, sixteenth])
        }
        // Wrapping sums of products of 16-, 8- or 4-bit fields (extended by signedness), plus c.
        Dot2U32U16 | Dot2I32I16 | Dot4I32I8 | Dot4cI32I8 | Dot4U32U8 | Dot8I32I4 | Dot8U32U4 => {
            let (bits, signed) = match op {
                Dot2U32U16 => (16, false),
                Dot2I32I16 => (16, true),
                Dot4I32I8 | Dot4cI32I8 => (8, true),
                Dot4U32U8 => (8, false),
                Dot8I32I4 => (4, true),
                _ => (4, false),
            };
            let y = b()?;
            let mut t = c()?;
            for i in 0..32 / bits {
                let (fx, fy) = (field(&mut l, a, bits * i, bits, signed), field(&mut l, y, bits * i, bits, signed));
                let p = l.op(Op::IMul, &[fx, fy]);
                t = l.op(Op::IAdd, &[t, p]);
            }
            t
        }
        // c + lo·lo, then + hi·hi, each sum rounded in f32 (the products of f16s are exact).
        Dot2F32F16 | Dot2cF32F16 => {
            let y = b()?;
            let k16 = k(&mut l, 16);
            let (ah, bh) = (l.op(Op::LShr, &[a, k16]), l.op(Op::LShr, &[y, k16]));
            let [al, bl, ah, bh] = [a, y, ah, bh].map(|v| l.op(Op::HalfToF32, &[v]));
            let lo = l.op(Op::FMul, &[al, bl]);
            let hi = l.op(Op::FMul, &[ah, bh]);
            let t = l.op(Op::FAdd, &[c()?, lo]);
            l.op(Op::FAdd, &[t, hi])
        }
        // maxmin: min(max(a, b), c); minmax: max(min(a, b), c).
        MaxminI32 | MinmaxI32 | MaxminU32 | MinmaxU32 => {
            let (first, second) = match op {
                MaxminI32 => (Op::SGt, Op::SLt),
                MinmaxI32 => (Op::SLt, Op::SGt),
                MaxminU32 => (Op::UGt, Op::ULt),
                _ => (Op::ULt, Op::UGt),
            };
            let x = min_max(&mut l, first, a, b()?);
            min_max(&mut l, second, x, c()?)
        }
        MaxminF32 | MinmaxF32 => {
            let (first, second) = if op == MaxminF32 { (Op::FMax, Op::FMin) } else { (Op::FMin, Op::FMax) };
            let x = l.op(first, &[a, b()?]);
            l.op(second, &[x, c()?])
        }
        MaxminF16 | MinmaxF16 => {
            let (first, second) = if op == MaxminF16 { (Op::FMax, Op::FMin) } else { (Op::FMin, Op::FMax) };
            let (y, z) = (b()?, c()?);
            let [x, y, z] = [a, y, z].map(|v| l.op(Op::HalfToF32, &[v]));
            let x = l.op(first, &[x, y]);
            let x = l.op(second, &[x, z]);
            l.op(Op::F32ToHalf, &[x])
        }
        CndmaskB16 => l.op(Op::Select, &[cin()?, b()?, a]),
        // Truncated to an integer, saturated to 16 bits (NaN: 0), packed low then high.
        CvtPkI16F32 | CvtPkU16F32 => {
            let signed = op == CvtPkI16F32;
            let (lo, hi) = if signed { (k(&mut l, -32768i32 as u32), k(&mut l, 32767)) } else { (k(&mut l, 0), k(&mut l, 0xffff)) };
            let sat = |l: &mut Lifter, v: Value| {
                let v = l.op(if signed { Op::FToS } else { Op::FToU }, &[v]);
                if signed {
                    let v = min_max(l, Op::SGt, v, lo);
                    min_max(l, Op::SLt, v, hi)
                } else {
                    min_max(l, Op::ULt, v, hi)
                }
            };
            let x = sat(&mut l, a);
            let y = b()?;
            let y = sat(&mut l, y);
            pack16(&mut l, x, y)
        }
        // In half precision: c + lo·lo rounded to f16, then + hi·hi rounded again.
        Dot2F16F16 => {
            let y = b()?;
            let k16 = k(&mut l, 16);
            let (ah, bh) = (l.op(Op::LShr, &[a, k16]), l.op(Op::LShr, &[y, k16]));
            let cc = c()?;
            let [al, bl, ah, bh, cc] = [a, y, ah, bh, cc].map(|v| l.op(Op::HalfToF32, &[v]));
            let lo = l.op(Op::FMul, &[al, bl]);
            let t = l.op(Op::FAdd, &[cc, lo]);
            let t = l.op(Op::F32ToHalf, &[t]);
            let t = l.op(Op::HalfToF32, &[t]);
            let hi = l.op(Op::FMul, &[ah, bh]);
            let t = l.op(Op::FAdd, &[t, hi]);
            l.op(Op::F32ToHalf, &[t])
        }
        CvtI32I16 => s16(&mut l, a),
        CvtU32U16 => u16v(&mut l, a),
        AndB16 => l.op(Op::And, &[a, b()?]),
        OrB16 => l.op(Op::Or, &[a, b()?]),
        XorB16 => l.op(Op::Xor, &[a, b()?]),
        NotB16 => l.op(Op::Not, &[a]),
        // a · b, or -f32::MAX where b is -f32::MAX, -infinity or NaN, or c is not above 0.
        MullitF32 => {
            let (y, z) = (b()?, c()?);
            let (lowest, ninf, zero) = (k(&mut l, (-f32::MAX).to_bits()), k(&mut l, f32::NEG_INFINITY.to_bits()), k(&mut l, 0));
            let conds = [l.op(Op::FEq, &[y, lowest]), l.op(Op::FEq, &[y, ninf]), l.op(Op::FUnord, &[y, y]), l.op(Op::FLt, &[z, zero]), l.op(Op::FEq, &[z, zero]), l.op(Op::FUnord, &[z, z])];
            let any = conds[1..].iter().fold(conds[0], |acc, &c| {
                let (ai, ci) = (l.op(Op::BoolToInt, &[acc]), l.op(Op::BoolToInt, &[c]));
                let o = l.op(Op::Or, &[ai, ci]);
                let one = l.b.c32(1);
                l.op(Op::Eq, &[o, one])
            });
            let p = l.op(Op::FMul, &[a, y]);
            l.op(Op::Select, &[any, lowest, p])
        }
        _ => return Err(format!("internal: vector operation {op:?} is not lifted")),
    };
    Ok((r, carry))
}

/// The low 16 bits of `x` and of `y`, as one word (`y` high).
fn pack16(l: &mut Lifter, x: Value, y: Value) -> Value {
    let (m, k16) = (l.b.c32(0xffff), l.b.c32(16));
    let x = l.op(Op::And, &[x, m]);
    let y = l.op(Op::Shl, &[y, k16]);
    l.op(Op::Or, &[x, y])
}

/// The `bits`-wide field of `v` at bit `at`, extended by signedness.
fn field(l: &mut Lifter, v: Value, at: u32, bits: u32, signed: bool) -> Value {
    let (up, down) = (l.b.c32(32 - at - bits), l.b.c32(32 - bits));
    let x = l.op(Op::Shl, &[v, up]);
    l.op(if signed { Op::AShr } else { Op::LShr }, &[x, down])
}

/// An f32 as a normalized 16-bit integer (signed: [-1, 1] to ±32767; unsigned: [0, 1] to
/// 65535), rounded to nearest even; NaN gives 0. In the low 16 bits.
fn norm16(l: &mut Lifter, x: Value, signed: bool) -> Value {
    let (lo, hi, scale) = if signed { (-1.0f32, 1.0f32, 32767.0f32) } else { (0.0, 1.0, 65535.0) };
    let (lo, hi, scale) = (l.b.c32(lo.to_bits()), l.b.c32(hi.to_bits()), l.b.c32(scale.to_bits()));
    let v = l.op(Op::FMax, &[x, lo]);
    let v = l.op(Op::FMin, &[v, hi]);
    let v = l.op(Op::FMul, &[v, scale]);
    let v = l.op(Op::FRndne, &[v]);
    let v = l.op(if signed { Op::FToS } else { Op::FToU }, &[v]);
    let m = l.b.c32(0xffff);
    let v = l.op(Op::And, &[v, m]);
    let nan = l.op(Op::FUnord, &[x, x]);
    let z = l.b.c32(0);
    l.op(Op::Select, &[nan, z, v])
}

impl Lifter<'_> {
    /// Source `i` of a vector instruction for the running lane (a register pair or a 64-bit
    /// constant when `wide`), with abs and neg applied to its sign bit as the emulator applies them.
    fn lane_src(&mut self, st: &Step, i: usize, wide: bool) -> Result<Value, String> {
        let m = rdna_emu::valu::mods(st);
        let mut v = if wide { self.src64(st.src[i])? } else { self.src32(st.src[i])? };
        // op_sel picks the high half of a 16-bit operand.
        if m.op_sel >> i & 1 != 0 && matches!(st.imm[i], rdna_isa::ImmTy::I16 | rdna_isa::ImmTy::F16) && !wide {
            let (k16, lo16) = (self.b.c32(16), self.b.c32(0xffff));
            let hi = self.op(Op::LShr, &[v, k16]);
            v = self.op(Op::And, &[hi, lo16]);
        }
        let sign = 1u64 << rdna_emu::valu::sign_bit(st.imm[i], st.sw[i]);
        let ty = self.b.ty(v);
        if m.abs >> i & 1 != 0 {
            let keep = self.b.konst(ty, !sign);
            v = self.op(Op::And, &[v, keep]);
        }
        if m.neg >> i & 1 != 0 {
            let flip = self.b.konst(ty, sign);
            v = self.op(Op::Xor, &[v, flip]);
        }
        Ok(v)
    }

    /// The running lane's bit of a lane-mask source: the bit this region set, if it set one,
    /// else the mask's bit (an SGPR mask, or a constant cut to the wave's lanes).
    fn lane_bit_of(&mut self, s: Src) -> Result<Value, String> {
        if let Src::Sgpr(r) = s {
            if let Some(bit) = (r < 128).then(|| self.b.lane_bit(r as u8)).flatten() {
                return Ok(bit);
            }
        }
        let m = self.mask_src(s)?;
        let lane = self.b.lane_id();
        let lane = self.op(Op::ZExt, &[lane]);
        let x = self.op(Op::LShr, &[m, lane]);
        let one = self.b.c64(1);
        let bit = self.op(Op::And, &[x, one]);
        Ok(self.op(Op::Eq, &[bit, one]))
    }
}

/// An integer or float compare: the lane's bit of SDST (`v_cmpx`: of EXEC) is whether one of
/// the relations `cond` names holds (less, equal, greater, unordered).
fn compare(l: &mut Lifter, st: &Step, ty: Num, cond: Cond, x: bool) -> Result<(), String> {
    let wide = matches!(ty, Num::I64 | Num::U64 | Num::F64);
    let (a, b) = (l.lane_src(st, 0, wide)?, l.lane_src(st, 1, wide)?);
    let t = compare_values(l.b, ty, cond, a, b)?;
    let d = if x { EXEC } else { st.dst };
    if d < 128 && d != NULL {
        l.b.write_lane_bit(d as u8, t);
    }
    Ok(())
}

/// Whether `a` and `b`, numbers of type `ty` (16-bit ones in the low halves; f16 widened
/// exactly), stand in one of the relations `cond` names. The one definition of the compares.
pub fn compare_values(b: &mut Builder, ty: Num, cond: Cond, mut x: Value, mut y: Value) -> Result<Value, String> {
    match ty {
        Num::I16 => {
            let k = b.c32(16);
            for v in [&mut x, &mut y] {
                let up = b.op(Op::Shl, &[*v, k]);
                *v = b.op(Op::AShr, &[up, k]);
            }
        }
        Num::U16 => {
            let m = b.c32(0xffff);
            x = b.op(Op::And, &[x, m]);
            y = b.op(Op::And, &[y, m]);
        }
        Num::F16 => {
            x = b.op(Op::HalfToF32, &[x]);
            y = b.op(Op::HalfToF32, &[y]);
        }
        _ => {}
    }
    let signed = matches!(ty, Num::I16 | Num::I32 | Num::I64);
    let float = matches!(ty, Num::F16 | Num::F32 | Num::F64);
    let relations = if float {
        [(cond.lt, Op::FLt), (cond.eq, Op::FEq), (cond.gt, Op::FGt), (cond.unord, Op::FUnord)]
    } else {
        // Integers are never unordered.
        [(cond.lt, if signed { Op::SLt } else { Op::ULt }), (cond.eq, Op::Eq), (cond.gt, if signed { Op::SGt } else { Op::UGt }), (false, Op::Eq)]
    };
    let mut t = b.bool(false);
    for (on, code) in relations {
        if on {
            let c = b.op(code, &[x, y]);
            t = b.op(Op::Or, &[t, c]);
        }
    }
    Ok(t)
}

/// The operation a VOPD half (`v_dual_*`) runs, where it is one [`vector_op`] defines.
pub fn vopd_op(name: &str) -> Option<VOp> {
    use VOp::*;
    // gfx11's names of the gfx10 operations (v_mul_dx9_zero_f32, v_dot2acc_f32_f16).
    let base = rdna_emu::sem::gfx11_to_gfx10(&name.replace("v_dual_", "v_"));
    VOp::from_name(&base).filter(|&op| {
        matches!(op, MovB32 | AddF32 | SubF32 | SubrevF32 | MulF32 | MulLegacyF32 | FmacF32 | FmaakF32 | FmamkF32 | MaxF32 | MinF32 | CndmaskB32 | AddNcU32 | LshlrevB32 | AndB32 | Dot2cF32F16)
    })
}

/// A VOPD instruction (gfx11 dual issue): both halves read their sources before either writes,
/// which SSA gives by computing both before the writes.
fn vopd(l: &mut Lifter, st: &Step) -> Result<(), String> {
    use VOp::*;
    let lit = st.inst.literal.unwrap_or(0);
    let mut results = Vec::with_capacity(2);
    for y in [false, true] {
        let (name, vdst, src0, vsrc1) = st.inst.vopd_half(y);
        let op = vopd_op(name).ok_or_else(|| format!("VOPD operation {name} is not recompiled yet"))?;
        if vdst > 255 || vsrc1 > 255 {
            return Err("a VOPD register out of range".into());
        }
        let a = l.src32(rdna_emu::program::operand(src0, rdna_isa::ImmTy::B32, 1, st.inst.literal))?;
        let b = l.b.read(Reg::Vgpr(vsrc1 as u8));
        // fmac accumulates into VDST; fmaak adds K; fmamk multiplies by K: S0 * K + S1.
        let (b, c) = match op {
            FmacF32 | Dot2cF32F16 => (b, l.b.read(Reg::Vgpr(vdst as u8))),
            FmaakF32 => (b, l.b.c32(lit)),
            FmamkF32 => (l.b.c32(lit), b),
            _ => (b, a),
        };
        let cin = if op == CndmaskB32 { Some(l.lane_bit_of(Src::Sgpr(VCC))?) } else { None };
        let (r, _) = vector_op(l.b, op, &[a, b, c], cin)?;
        results.push((vdst, r));
    }
    for (vdst, r) in results {
        l.b.write(Reg::Vgpr(vdst as u8), r);
    }
    Ok(())
}

/// Scalar loads, as `rdna_emu::exec::smem`: the address is SBASE plus the signed offset plus
/// SOFFSET, its two low bits ignored; through a buffer resource (`s_buffer_load_*`) the base is
/// the resource's low 48 bits and dwords past its `num_records` bytes read 0.
fn smem(l: &mut Lifter, st: &Step, m: Smem) -> Result<(), String> {
    let raw = st.inst.raw;
    let sbase = ((raw & 0x3f) * 2) as u16;
    let offset = ((((raw >> 32) & 0x1f_ffff) as u32) << 11) as i32 >> 11;
    let soffset = st.inst.field(rdna_isa::Field::Soffset);
    let sdata = ((raw >> 6) & 0x7f) as u16;
    let soff = if soffset == NULL { l.b.c32(0) } else { l.sgpr(soffset) };
    let soff = l.op(Op::ZExt, &[soff]);
    let mut base = l.src64(Src::Sgpr(sbase))?;
    if m.buffer {
        let low48 = l.b.c64(0xffff_ffff_ffff);
        base = l.op(Op::And, &[base, low48]);
    }
    let off = l.b.c64(offset as i64 as u64);
    let rel = l.op(Op::IAdd, &[off, soff]);
    let aligned = l.b.c64(!3);
    let addr = l.op(Op::IAdd, &[base, rel]);
    let addr = l.op(Op::And, &[addr, aligned]);
    let records = if m.buffer {
        let r = l.sgpr(sbase + 2);
        Some(l.op(Op::ZExt, &[r]))
    } else {
        None
    };
    let rel = l.op(Op::And, &[rel, aligned]);
    for i in 0..m.dwords as u16 {
        let at = l.b.c64(4 * i as u64);
        let a = l.op(Op::IAdd, &[addr, at]);
        let v = match records {
            Some(records) => {
                let past = l.b.c64(4 * i as u64 + 4);
                let end = l.op(Op::IAdd, &[rel, past]);
                let inside = l.op(Op::ULe, &[end, records]);
                let safe = l.b.safe_address();
                let from = l.op(Op::Select, &[inside, a, safe]);
                let v = l.op(Op::Load32, &[from]);
                let z = l.b.c32(0);
                l.op(Op::Select, &[inside, v, z])
            }
            None => l.op(Op::Load32, &[a]),
        };
        l.set(sdata + i, v);
    }
    Ok(())
}

/// One lane of a VGPR read into an SGPR (`v_readfirstlane_b32`: the lowest lane EXEC enables,
/// lane 0 when none; `v_readlane_b32`: the lane SRC1 names, modulo the wave size) or written
/// from a scalar (`v_writelane_b32`, whatever EXEC says), as `rdna_emu::valu` does them.
fn lane_access(l: &mut Lifter, st: &Step, op: VOp) -> Result<(), String> {
    let wave_lanes = l.b.c32(l.lanes - 1);
    if op == VOp::WritelaneB32 {
        let v = l.src32(st.src[0])?;
        let lane = l.src32(st.src[1])?;
        let lane = l.op(Op::And, &[lane, wave_lanes]);
        if st.dst > 255 {
            return Err("v_writelane of a register out of range".into());
        }
        l.b.write_lane(st.dst as u8, lane, v);
        return Ok(());
    }
    let Src::Vgpr(r) = st.src[0] else { return Err(format!("{} of a non-VGPR", st.inst.entry.name)) };
    let lane = if op == VOp::ReadfirstlaneB32 {
        let exec = l.mask(EXEC);
        let first = l.op(Op::FindLsb, &[exec]);
        let none = l.b.c32(u32::MAX);
        let is_none = l.op(Op::Eq, &[first, none]);
        let zero = l.b.c32(0);
        l.op(Op::Select, &[is_none, zero, first])
    } else {
        let lane = l.src32(st.src[1])?;
        l.op(Op::And, &[lane, wave_lanes])
    };
    let v = l.b.read_lane(r as u8, lane);
    l.set(st.dst, v);
    Ok(())
}

/// `v_cmp_class_*`: whether `mask` has the bit of the class of float `a` (f16 in the low half,
/// f32, or f64 bits), as `rdna_emu::float::class16/32/64` number them: 0 signalling NaN,
/// 1 quiet NaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
pub fn class_test(b: &mut Builder, ty: Num, a: Value, mask: Value) -> Result<Value, String> {
    let (ebits, mbits) = match ty {
        Num::F16 => (5u32, 10u32),
        Num::F32 => (8, 23),
        Num::F64 => (11, 52),
        _ => return Err(format!("internal: class compare of {ty:?}")),
    };
    let t = b.ty(a);
    let field = |b: &mut Builder, shift: u32, width: u32| {
        let (sh, m) = (b.konst(t, shift as u64), b.konst(t, (1u64 << width) - 1));
        let v = b.op(Op::LShr, &[a, sh]);
        b.op(Op::And, &[v, m])
    };
    let (sign, exp, mant, quiet) = (field(b, ebits + mbits, 1), field(b, mbits, ebits), field(b, 0, mbits), field(b, mbits - 1, 1));
    let (z, one, all) = (b.konst(t, 0), b.konst(t, 1), b.konst(t, (1u64 << ebits) - 1));
    let neg = b.op(Op::Eq, &[sign, one]);
    let exp_all = b.op(Op::Eq, &[exp, all]);
    let exp_zero = b.op(Op::Eq, &[exp, z]);
    let mant_zero = b.op(Op::Eq, &[mant, z]);
    let is_quiet = b.op(Op::Eq, &[quiet, one]);
    let pick = |b: &mut Builder, c: Value, yes: u32, no: u32| {
        let (y, n) = (b.c32(yes), b.c32(no));
        b.op(Op::Select, &[c, y, n])
    };
    let normal = pick(b, neg, 3, 8);
    let zero = pick(b, neg, 5, 6);
    let denorm = pick(b, neg, 4, 7);
    let inf = pick(b, neg, 2, 9);
    let nan = pick(b, is_quiet, 1, 0);
    let small = b.op(Op::Select, &[mant_zero, zero, denorm]);
    let special = b.op(Op::Select, &[mant_zero, inf, nan]);
    let bit = b.op(Op::Select, &[exp_zero, small, normal]);
    let bit = b.op(Op::Select, &[exp_all, special, bit]);
    let v = b.op(Op::LShr, &[mask, bit]);
    let one32 = b.c32(1);
    let v = b.op(Op::And, &[v, one32]);
    Ok(b.op(Op::Eq, &[v, one32]))
}

/// A GLOBAL access's address for the running lane, as `rdna_emu::vmem` computes it: SADDR's
/// 64 bits plus the lane's 32-bit VADDR, or without SADDR the lane's 64-bit VADDR pair, plus
/// the signed offset (12 bits on gfx10, 13 on gfx11).
fn global_address(l: &mut Lifter, st: &Step) -> Result<Value, String> {
    let raw = st.inst.raw;
    let ow = if st.inst.gen == rdna_isa::Generation::Gfx11 { 13 } else { 12 };
    let offset = (((raw & ((1 << ow) - 1)) as u32) << (32 - ow)) as i32 >> (32 - ow);
    let saddr = st.inst.field(rdna_isa::Field::Saddr);
    let vaddr = (raw >> 32 & 0xff) as u16;
    // Without SADDR the address is the pair VADDR, VADDR + 1.
    if saddr == NULL && vaddr > 254 {
        return Err("a GLOBAL address register past v255".into());
    }
    let base = if saddr != NULL {
        let s = l.src64(Src::Sgpr(saddr))?;
        let v = l.b.read(Reg::Vgpr(vaddr as u8));
        let v = l.op(Op::ZExt, &[v]);
        l.op(Op::IAdd, &[s, v])
    } else {
        l.src64(Src::Vgpr(vaddr))?
    };
    let off = l.b.c64(offset as i64 as u64);
    Ok(l.op(Op::IAdd, &[base, off]))
}

/// A GLOBAL load of whole dwords: dword `i` goes to VDST + i.
fn global_load(l: &mut Lifter, st: &Step, bytes: u8) -> Result<(), String> {
    let vdst = (st.inst.raw >> 56 & 0xff) as u16;
    if vdst as u32 + bytes as u32 / 4 > 256 {
        return Err("a GLOBAL register range past v255".into());
    }
    let addr = global_address(l, st)?;
    let mut loaded = Vec::with_capacity(bytes as usize / 4);
    for i in 0..bytes as u64 / 4 {
        let at = l.b.c64(4 * i);
        let a = l.op(Op::IAdd, &[addr, at]);
        loaded.push(l.op(Op::Load32, &[a]));
    }
    for (i, v) in loaded.into_iter().enumerate() {
        l.b.write(Reg::Vgpr(vdst as u8 + i as u8), v);
    }
    Ok(())
}

/// A GLOBAL store of whole dwords: VDATA + i to dword `i`.
fn global_store(l: &mut Lifter, st: &Step, bytes: u8) -> Result<(), String> {
    let vdata = (st.inst.raw >> 40 & 0xff) as u16;
    if vdata as u32 + bytes as u32 / 4 > 256 {
        return Err("a GLOBAL register range past v255".into());
    }
    let addr = global_address(l, st)?;
    for i in 0..bytes as u64 / 4 {
        let at = l.b.c64(4 * i);
        let a = l.op(Op::IAdd, &[addr, at]);
        let v = l.b.read(Reg::Vgpr(vdata as u8 + i as u8));
        l.b.store(a, v);
    }
    Ok(())
}

/// LDS reads and writes, as `rdna_emu::vmem::ds` makes them: the lane's address VGPR plus the
/// 16-bit offset (read2/write2: plus offset0 and offset1 times the size, or 64 times it for
/// the st64 forms), each access checked against the LDS size first.
fn lds_access(l: &mut Lifter, st: &Step, k: DsKind) -> Result<(), String> {
    let raw = st.inst.raw;
    let field = |lo: u32| (raw >> lo & 0xff) as u16;
    let (off0, off1) = (field(0) as u32, field(8) as u32);
    let (addr_r, d0, d1, vdst) = (field(32), field(40), field(48), field(56));
    let base = l.b.read(Reg::Vgpr(addr_r as u8));
    let vgpr = |l: &mut Lifter, r: u16| -> Result<Value, String> {
        if r > 255 {
            return Err("an LDS register range past v255".into());
        }
        Ok(l.b.read(Reg::Vgpr(r as u8)))
    };
    let at = |l: &mut Lifter, a: Value, o: u32| {
        let o = l.b.c32(o);
        l.op(Op::IAdd, &[a, o])
    };
    match k {
        DsKind::Read { bytes, .. } | DsKind::Write { bytes, .. } => {
            let a = at(l, base, off0 | off1 << 8);
            l.b.lds_check(a, bytes as u32);
            let dwords = (bytes as u32).div_ceil(4);
            if matches!(k, DsKind::Read { .. }) {
                if vdst as u32 + dwords > 256 {
                    return Err("an LDS register range past v255".into());
                }
                let loaded: Vec<Value> = (0..dwords).map(|i| {
                    let ai = at(l, a, 4 * i);
                    l.op(Op::LdsLoad, &[ai])
                }).collect();
                for (i, v) in loaded.into_iter().enumerate() {
                    l.b.write(Reg::Vgpr(vdst as u8 + i as u8), v);
                }
            } else {
                for i in 0..dwords {
                    let v = vgpr(l, d0 + i as u16)?;
                    let ai = at(l, a, 4 * i);
                    l.b.lds_store(ai, v, (bytes as u32).min(4));
                }
            }
        }
        DsKind::Read2 { bytes, st64 } | DsKind::Write2 { bytes, st64 } => {
            let stride = bytes as u32 * if st64 { 64 } else { 1 };
            let dw = bytes as u32 / 4;
            let read = matches!(k, DsKind::Read2 { .. });
            if read && vdst as u32 + 2 * dw > 256 {
                return Err("an LDS register range past v255".into());
            }
            let mut loaded = Vec::new();
            for (i, o) in [off0, off1].into_iter().enumerate() {
                let a = at(l, base, o.wrapping_mul(stride));
                l.b.lds_check(a, bytes as u32);
                for j in 0..dw {
                    let aj = at(l, a, 4 * j);
                    if read {
                        loaded.push((vdst + (i as u32 * dw + j) as u16, l.op(Op::LdsLoad, &[aj])));
                    } else {
                        let v = vgpr(l, if i == 0 { d0 } else { d1 } + j as u16)?;
                        l.b.lds_store(aj, v, 4);
                    }
                }
            }
            for (r, v) in loaded {
                l.b.write(Reg::Vgpr(r as u8), v);
            }
        }
        other => return Err(format!("internal: LDS operation {other:?} is not lifted")),
    }
    Ok(())
}
