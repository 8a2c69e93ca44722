//! Executes steps on a wave: the dispatch over instruction families, scalar ALU, branches and
//! scalar memory. Vector ALU is in `valu.rs`, vector and LDS memory in `vmem.rs`.

use crate::program::{Program, Src, Step};
use crate::sem::{BranchIf, Kind, Salu};
use crate::wave::{sreg, Wave};
use crate::Memory;

/// What the scheduler does after a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Next,
    /// Continue at this step index.
    Jump(usize),
    Barrier,
    End,
}

/// Why a step faulted (the caller adds kernel, PC and instruction text).
pub type Reason = String;

/// What a workgroup shares between its waves while one of them executes.
pub struct Shared<'a> {
    pub prog: &'a Program,
    pub mem: &'a Memory,
    pub lds: &'a mut [u8],
    /// Guest address of the kernel's entry (what s_getpc_b64 is relative to).
    pub code_addr: u64,
    /// Counter for `ds_append` / `ds_consume` of GDS-less LDS use (per workgroup).
    pub cycles: u64,
    /// The VALU fast path's working arrays.
    pub scratch: crate::fast::Scratch,
}

/// Executes one step.
pub fn step(w: &mut Wave, sh: &mut Shared, st: &Step) -> Result<Flow, Reason> {
    match st.kind {
        Kind::Nop => Ok(Flow::Next),
        Kind::EndPgm => Ok(Flow::End),
        Kind::Barrier => Ok(Flow::Barrier),
        Kind::Branch(cond) => branch(w, sh, st, cond),
        Kind::Salu(op) => salu(w, sh, st, op),
        Kind::SLogic { op, wide } => {
            let (a, b) = if wide { (w.read_s64(st.src[0]), w.read_s64(st.src[1])) } else { (w.read_s32(st.src[0]) as u64, w.read_s32(st.src[1]) as u64) };
            let d = op.apply(a, b);
            if wide {
                w.write_s64(st.dst, d);
                w.scc = d != 0;
            } else {
                w.write_s(st.dst, d as u32);
                w.scc = d as u32 != 0;
            }
            Ok(Flow::Next)
        }
        Kind::SaveExec { op, wrexec } => {
            let s0 = w.read_mask(st.src[0]);
            let exec = w.exec();
            // EXEC = op(S0, EXEC): andn2 is S0 & ~EXEC, andn1 is ~S0 & EXEC.
            let new = op.apply(s0, exec) & w.lane_mask;
            if wrexec {
                w.set_exec(new);
                w.write_mask(st.dst, new);
            } else {
                w.write_mask(st.dst, exec);
                w.set_exec(new);
            }
            w.scc = new != 0;
            Ok(Flow::Next)
        }
        Kind::Smem(m) => smem(w, sh, st, m),
        Kind::Valu(op) => {
            if st.fast && crate::fast::exec(w, st, op, &mut sh.scratch) {
                return Ok(Flow::Next);
            }
            crate::valu::valu(w, sh, st, op).map(|_| Flow::Next)
        }
        Kind::Vcmp { ty, cond, x } => {
            if st.fast && crate::fast::compare(w, st, ty, cond, x, &mut sh.scratch) {
                return Ok(Flow::Next);
            }
            crate::valu::compare(w, st, ty, cond, x).map(|_| Flow::Next)
        }
        Kind::VcmpClass { ty, x } => crate::valu::compare_class(w, st, ty, x).map(|_| Flow::Next),
        Kind::Mem(m) => crate::vmem::mem(w, sh, st, m).map(|_| Flow::Next),
        Kind::Ds(d) => crate::vmem::ds(w, sh, st, d).map(|_| Flow::Next),
        Kind::Vopd => crate::valu::vopd(w, st).map(|_| Flow::Next),
        Kind::Sendmsg => {
            // gfx11 kernels end with MSG_DEALLOC_VGPRS, a hint with no effect here.
            let id = w.read_s32(st.src[0]) & 0xf;
            if id == 3 {
                Ok(Flow::Next)
            } else {
                Err(format!("s_sendmsg message {id} has no meaning for a compute dispatch here"))
            }
        }
        Kind::Invalid(word) => Err(format!("not a valid instruction (word {word:#010x})")),
        Kind::Unsupported(why) => Err(format!("unsupported: {why}")),
    }
}

/// The step index a branch with this signed dword offset reaches.
fn target(sh: &Shared, st: &Step, simm: i64) -> Result<usize, Reason> {
    let dest = st.pc as i64 + 4 + simm * 4;
    if dest < 0 {
        return Err(format!("branch to before the program start (offset {dest})"));
    }
    sh.prog.at(dest as u64).ok_or_else(|| format!("branch into the middle of an instruction or past the code (offset {dest:#x})"))
}

fn branch(w: &mut Wave, sh: &Shared, st: &Step, cond: BranchIf) -> Result<Flow, Reason> {
    let taken = match cond {
        BranchIf::Always => true,
        BranchIf::Scc0 => !w.scc,
        BranchIf::Scc1 => w.scc,
        BranchIf::Vccz => w.vcc() == 0,
        BranchIf::Vccnz => w.vcc() != 0,
        BranchIf::Execz => w.exec() == 0,
        BranchIf::Execnz => w.exec() != 0,
    };
    if !taken {
        return Ok(Flow::Next);
    }
    let simm = w.read_s32(st.src[0]) as u16 as i16 as i64;
    target(sh, st, simm).map(Flow::Jump)
}

/// A guest code address to a step index.
fn jump_to(sh: &Shared, addr: u64) -> Result<Flow, Reason> {
    let off = addr.wrapping_sub(sh.code_addr);
    sh.prog.at(off).map(Flow::Jump).ok_or_else(|| format!("jump to {addr:#x}, which is not an instruction of this kernel"))
}

fn bfe64(v: u64, offset: u32, width: u32) -> u64 {
    if width == 0 {
        return 0;
    }
    let x = v >> offset;
    if width >= 64 {
        x
    } else {
        x & ((1u64 << width) - 1)
    }
}

fn sext(v: u64, width: u32) -> u64 {
    if width == 0 || width >= 64 {
        return v;
    }
    let sh = 64 - width;
    (((v << sh) as i64) >> sh) as u64
}

/// Hardware register numbers of `s_getreg`/`s_setreg`.
pub const HW_REG_MODE: u32 = 1;
pub const HW_REG_STATUS: u32 = 2;
pub const HW_REG_HW_ID: u32 = 4;
pub const HW_REG_GPR_ALLOC: u32 = 5;
pub const HW_REG_LDS_ALLOC: u32 = 6;

/// The GPR_ALLOC value every wave reads: all 256 VGPRs (in blocks of 8, less one).
pub const GPR_ALLOC: u32 = (256 / 8 - 1) << 8;

/// LDS_ALLOC for a workgroup's LDS bytes: the size in 512-byte blocks, at bit 12.
pub fn lds_alloc(lds_bytes: u32) -> u32 {
    (lds_bytes / 512) << 12
}

/// STATUS as the emulator keeps it: SCC (bit 0), EXECZ (9), VCCZ (10).
pub fn status(scc: bool, exec_zero: bool, vcc_zero: bool) -> u32 {
    scc as u32 | (exec_zero as u32) << 9 | (vcc_zero as u32) << 10
}

/// A field of a hardware register, as `s_getreg_b32`'s immediate selects it: the register
/// (bits 5:0), the first bit (10:6) and the width less one (15:11).
pub fn hwreg_field(simm: u16) -> (u32, u32, u32) {
    (simm as u32 & 0x3f, simm as u32 >> 6 & 0x1f, (simm as u32 >> 11 & 0x1f) + 1)
}

/// `value`'s bits from `offset`, `size` of them.
pub fn hwreg_extract(value: u32, offset: u32, size: u32) -> u32 {
    let v = value >> offset;
    if size >= 32 { v } else { v & ((1 << size) - 1) }
}

fn hwreg_read(w: &Wave, sh: &Shared, id: u32) -> u32 {
    match id {
        HW_REG_MODE => w.mode.0,
        // STATUS: SCC (bit 0), EXECZ (9), VCCZ (10), IN_BARRIER.. kept simple.
        HW_REG_STATUS => status(w.scc, w.exec() == 0, w.vcc() == 0),
        HW_REG_HW_ID => w.wave_id,
        HW_REG_GPR_ALLOC => ((w.v.len() / crate::wave::LANES / 8).saturating_sub(1) as u32) << 8,
        HW_REG_LDS_ALLOC => lds_alloc(sh.lds.len() as u32),
        _ => w.hwreg.get(id as usize).copied().unwrap_or(0),
    }
}

fn hwreg_write(w: &mut Wave, simm: u32, value: u32) -> Result<(), Reason> {
    let id = simm & 0x3f;
    let offset = simm >> 6 & 0x1f;
    let size = (simm >> 11 & 0x1f) + 1;
    let mask = if size >= 32 { u32::MAX } else { ((1u32 << size) - 1) << offset };
    let put = |old: u32| old & !mask | (value << offset) & mask;
    match id {
        HW_REG_MODE => w.mode.0 = put(w.mode.0),
        1..=31 => {
            let r = &mut w.hwreg[id as usize];
            *r = put(*r);
        }
        _ => return Err(format!("s_setreg of hardware register {id}")),
    }
    Ok(())
}

fn salu(w: &mut Wave, sh: &mut Shared, st: &Step, op: Salu) -> Result<Flow, Reason> {
    use Salu::*;
    let a32 = || w.read_s32(st.src[0]);
    let b32 = || w.read_s32(st.src[1]);
    let a64 = || w.read_s64(st.src[0]);
    let b64 = || w.read_s64(st.src[1]);
    let simm = w.read_s32(st.src[0]) as u16;
    let k = simm as i16 as i32 as u32;
    // SOPK reads its register operand from SDST.
    let dval = w.s.get(st.dst as usize).copied().unwrap_or(0);
    let d = st.dst;
    let next_pc = sh.code_addr + st.pc as u64 + st.inst.len as u64;
    match op {
        MovB32 => w.write_s(d, a32()),
        MovB64 => w.write_s64(d, a64()),
        CmovB32 => {
            if w.scc {
                w.write_s(d, a32())
            }
        }
        CmovB64 => {
            if w.scc {
                w.write_s64(d, a64())
            }
        }
        NotB32 => {
            let r = !a32();
            w.write_s(d, r);
            w.scc = r != 0;
        }
        NotB64 => {
            let r = !a64();
            w.write_s64(d, r);
            w.scc = r != 0;
        }
        WqmB32 | WqmB64 => {
            let v = a64();
            let mut r = 0u64;
            for q in 0..16 {
                if v >> (4 * q) & 0xf != 0 {
                    r |= 0xf << (4 * q);
                }
            }
            if op == WqmB32 {
                r &= 0xffff_ffff;
                w.write_s(d, r as u32);
            } else {
                w.write_s64(d, r);
            }
            w.scc = r != 0;
        }
        BrevB32 => w.write_s(d, a32().reverse_bits()),
        BrevB64 => w.write_s64(d, a64().reverse_bits()),
        Bcnt0B32 | Bcnt1B32 | Bcnt0B64 | Bcnt1B64 => {
            let r = match op {
                Bcnt0B32 => a32().count_zeros(),
                Bcnt1B32 => a32().count_ones(),
                Bcnt0B64 => a64().count_zeros(),
                _ => a64().count_ones(),
            };
            w.write_s(d, r);
            w.scc = r != 0;
        }
        Ff0B32 => w.write_s(d, first_bit(!a32() as u64, 32)),
        Ff1B32 => w.write_s(d, first_bit(a32() as u64, 32)),
        Ff0B64 => w.write_s(d, first_bit(!a64(), 64)),
        Ff1B64 => w.write_s(d, first_bit(a64(), 64)),
        FlbitB32 => w.write_s(d, { let v = a32(); if v == 0 { u32::MAX } else { v.leading_zeros() } }),
        FlbitB64 => w.write_s(d, { let v = a64(); if v == 0 { u32::MAX } else { v.leading_zeros() } }),
        // Leading copies of the sign bit, the sign bit included (S_CLS_I32's pseudo-code).
        FlbitI32 => w.write_s(d, { let v = a32() as i32; let x = if v < 0 { !v } else { v } as u32; if x == 0 { u32::MAX } else { x.leading_zeros() } }),
        FlbitI64 => w.write_s(d, { let v = a64() as i64; let x = if v < 0 { !v } else { v } as u64; if x == 0 { u32::MAX } else { x.leading_zeros() } }),
        SextI8 => w.write_s(d, a32() as i8 as i32 as u32),
        SextI16 => w.write_s(d, a32() as i16 as i32 as u32),
        Bitset0B32 => w.write_s(d, dval & !(1 << (a32() & 31))),
        Bitset1B32 => w.write_s(d, dval | 1 << (a32() & 31)),
        Bitset0B64 | Bitset1B64 => {
            let cur = w.read_s64(Src::Sgpr(d));
            let bit = 1u64 << (a32() & 63);
            w.write_s64(d, if op == Bitset0B64 { cur & !bit } else { cur | bit });
        }
        GetPc => w.write_s64(d, next_pc),
        SetPc => return jump_to(sh, a64()),
        SwapPc => {
            let to = a64();
            w.write_s64(d, next_pc);
            return jump_to(sh, to);
        }
        CallB64 => {
            w.write_s64(d, next_pc);
            return target(sh, st, simm as i16 as i64).map(Flow::Jump);
        }
        QuadmaskB32 | QuadmaskB64 => {
            let v = a64();
            let n = if op == QuadmaskB32 { 8 } else { 16 };
            let mut r = 0u64;
            for q in 0..n {
                if v >> (4 * q) & 0xf != 0 {
                    r |= 1 << q;
                }
            }
            if op == QuadmaskB32 {
                w.write_s(d, r as u32)
            } else {
                w.write_s64(d, r)
            }
            w.scc = r != 0;
        }
        MovrelsB32 | MovrelsB64 | MovreldB32 | MovreldB64 => {
            let m0 = w.s[sreg::M0] as u16;
            match op {
                MovrelsB32 => {
                    let Src::Sgpr(r) = st.src[0] else { return Err("s_movrels with a non-register source".into()) };
                    let v = w.read_s32(Src::Sgpr(r.wrapping_add(m0)));
                    w.write_s(d, v)
                }
                MovrelsB64 => {
                    let Src::Sgpr(r) = st.src[0] else { return Err("s_movrels with a non-register source".into()) };
                    let v = w.read_s64(Src::Sgpr(r.wrapping_add(m0)));
                    w.write_s64(d, v)
                }
                MovreldB32 => w.write_s(d.wrapping_add(m0), a32()),
                _ => w.write_s64(d.wrapping_add(m0), a64()),
            }
        }
        Movrelsd2B32 => {
            // SGPR[D + M0[25:16]] = SGPR[S0 + M0[9:0]]
            let m0 = w.s[sreg::M0];
            let Src::Sgpr(r) = st.src[0] else { return Err("s_movrelsd_2 with a non-register source".into()) };
            let v = w.read_s32(Src::Sgpr(r.wrapping_add((m0 & 0x3ff) as u16)));
            w.write_s(d.wrapping_add((m0 >> 16 & 0x3ff) as u16), v);
        }
        AbsI32 => {
            let r = (a32() as i32).wrapping_abs() as u32;
            w.write_s(d, r);
            w.scc = r != 0;
        }
        BitreplicateB64 => {
            let v = a32();
            let mut r = 0u64;
            for i in 0..32 {
                if v >> i & 1 != 0 {
                    r |= 3 << (2 * i);
                }
            }
            w.write_s64(d, r);
        }
        AddU32 => {
            let (r, c) = a32().overflowing_add(b32());
            w.write_s(d, r);
            w.scc = c;
        }
        SubU32 => {
            let (r, c) = a32().overflowing_sub(b32());
            w.write_s(d, r);
            w.scc = c;
        }
        AddI32 => {
            let (r, o) = (a32() as i32).overflowing_add(b32() as i32);
            w.write_s(d, r as u32);
            w.scc = o;
        }
        SubI32 => {
            let (r, o) = (a32() as i32).overflowing_sub(b32() as i32);
            w.write_s(d, r as u32);
            w.scc = o;
        }
        AddcU32 => {
            let r = a32() as u64 + b32() as u64 + w.scc as u64;
            w.write_s(d, r as u32);
            w.scc = r >> 32 != 0;
        }
        SubbU32 => {
            let r = (a32() as u64).wrapping_sub(b32() as u64).wrapping_sub(w.scc as u64);
            w.write_s(d, r as u32);
            w.scc = r >> 32 != 0;
        }
        MinI32 | MaxI32 | MinU32 | MaxU32 => {
            let (a, b) = (a32(), b32());
            let pick_a = match op {
                MinI32 => (a as i32) < (b as i32),
                MaxI32 => (a as i32) > (b as i32),
                MinU32 => a < b,
                _ => a > b,
            };
            w.write_s(d, if pick_a { a } else { b });
            w.scc = pick_a;
        }
        CselectB32 => w.write_s(d, if w.scc { a32() } else { b32() }),
        CselectB64 => w.write_s64(d, if w.scc { a64() } else { b64() }),
        LshlB32 | LshrB32 | AshrI32 => {
            let (a, s) = (a32(), b32() & 31);
            let r = match op {
                LshlB32 => a << s,
                LshrB32 => a >> s,
                _ => ((a as i32) >> s) as u32,
            };
            w.write_s(d, r);
            w.scc = r != 0;
        }
        LshlB64 | LshrB64 | AshrI64 => {
            let (a, s) = (a64(), b32() & 63);
            let r = match op {
                LshlB64 => a << s,
                LshrB64 => a >> s,
                _ => ((a as i64) >> s) as u64,
            };
            w.write_s64(d, r);
            w.scc = r != 0;
        }
        BfmB32 => w.write_s(d, (((1u64 << (a32() & 31)) - 1) as u32) << (b32() & 31)),
        BfmB64 => {
            let m = (1u128 << (a32() & 63)) - 1;
            w.write_s64(d, (m as u64) << (b32() & 63));
        }
        MulI32 => w.write_s(d, a32().wrapping_mul(b32())),
        MulHiU32 => w.write_s(d, ((a32() as u64 * b32() as u64) >> 32) as u32),
        MulHiI32 => w.write_s(d, ((a32() as i32 as i64 * b32() as i32 as i64) >> 32) as u32),
        BfeU32 | BfeI32 => {
            let (a, b) = (a32(), b32());
            let (off, width) = (b & 31, (b >> 16) & 0x7f);
            let width = width.min(32);
            // The signed form shifts arithmetically: bits above 31 are copies of the sign.
            let shifted = if op == BfeI32 { ((a as i32) >> off) as u32 } else { a >> off };
            let mut r = bfe64(shifted as u64, 0, width);
            if op == BfeI32 {
                r = sext(r, width);
            }
            let r = r as u32;
            w.write_s(d, r);
            w.scc = r != 0;
        }
        BfeU64 | BfeI64 => {
            let (a, b) = (a64(), b32());
            let (off, width) = (b & 63, ((b >> 16) & 0x7f).min(64));
            let shifted = if op == BfeI64 { ((a as i64) >> off) as u64 } else { a >> off };
            let mut r = bfe64(shifted, 0, width);
            if op == BfeI64 {
                r = sext(r, width);
            }
            w.write_s64(d, r);
            w.scc = r != 0;
        }
        AbsdiffI32 => {
            let r = (a32() as i32).wrapping_sub(b32() as i32).wrapping_abs() as u32;
            w.write_s(d, r);
            w.scc = r != 0;
        }
        Lshl1AddU32 | Lshl2AddU32 | Lshl3AddU32 | Lshl4AddU32 => {
            let n = match op { Lshl1AddU32 => 1, Lshl2AddU32 => 2, Lshl3AddU32 => 3, _ => 4 };
            let r = ((a32() as u64) << n) + b32() as u64;
            w.write_s(d, r as u32);
            w.scc = r >> 32 != 0;
        }
        PackLl => w.write_s(d, a32() & 0xffff | b32() << 16),
        PackLh => w.write_s(d, a32() & 0xffff | b32() & 0xffff_0000),
        PackHh => w.write_s(d, a32() >> 16 | b32() & 0xffff_0000),
        PackHl => w.write_s(d, a32() >> 16 | b32() << 16),
        MovkI32 => w.write_s(d, k),
        CmovkI32 => {
            if w.scc {
                w.write_s(d, k)
            }
        }
        AddkI32 => {
            let (r, o) = (dval as i32).overflowing_add(k as i32);
            w.write_s(d, r as u32);
            w.scc = o;
        }
        MulkI32 => w.write_s(d, dval.wrapping_mul(k)),
        CmpkEqI32 | CmpkLgI32 | CmpkGtI32 | CmpkGeI32 | CmpkLtI32 | CmpkLeI32 => {
            let (a, b) = (dval as i32, k as i32);
            w.scc = match op { CmpkEqI32 => a == b, CmpkLgI32 => a != b, CmpkGtI32 => a > b, CmpkGeI32 => a >= b, CmpkLtI32 => a < b, _ => a <= b };
        }
        CmpkEqU32 | CmpkLgU32 | CmpkGtU32 | CmpkGeU32 | CmpkLtU32 | CmpkLeU32 => {
            let (a, b) = (dval, simm as u32);
            w.scc = match op { CmpkEqU32 => a == b, CmpkLgU32 => a != b, CmpkGtU32 => a > b, CmpkGeU32 => a >= b, CmpkLtU32 => a < b, _ => a <= b };
        }
        CmpEqI32 | CmpLgI32 | CmpGtI32 | CmpGeI32 | CmpLtI32 | CmpLeI32 => {
            let (a, b) = (a32() as i32, b32() as i32);
            w.scc = match op { CmpEqI32 => a == b, CmpLgI32 => a != b, CmpGtI32 => a > b, CmpGeI32 => a >= b, CmpLtI32 => a < b, _ => a <= b };
        }
        CmpEqU32 | CmpLgU32 | CmpGtU32 | CmpGeU32 | CmpLtU32 | CmpLeU32 => {
            let (a, b) = (a32(), b32());
            w.scc = match op { CmpEqU32 => a == b, CmpLgU32 => a != b, CmpGtU32 => a > b, CmpGeU32 => a >= b, CmpLtU32 => a < b, _ => a <= b };
        }
        CmpEqU64 => w.scc = a64() == b64(),
        CmpLgU64 => w.scc = a64() != b64(),
        Bitcmp0B32 => w.scc = a32() >> (b32() & 31) & 1 == 0,
        Bitcmp1B32 => w.scc = a32() >> (b32() & 31) & 1 == 1,
        Bitcmp0B64 => w.scc = a64() >> (b32() & 63) & 1 == 0,
        Bitcmp1B64 => w.scc = a64() >> (b32() & 63) & 1 == 1,
        GetregB32 => {
            let (id, offset, size) = hwreg_field(simm);
            let v = hwreg_read(w, sh, id);
            w.write_s(d, hwreg_extract(v, offset, size));
        }
        SetregB32 => hwreg_write(w, simm as u32, dval)?,
        SetregImm32B32 => hwreg_write(w, simm as u32, st.inst.literal.unwrap_or(0))?,
        RoundMode => w.mode.0 = w.mode.0 & !0xf | simm as u32 & 0xf,
        DenormMode => w.mode.0 = w.mode.0 & !0xf0 | (simm as u32 & 0xf) << 4,
        Version => {}
        SendmsgRtnB32 | SendmsgRtnB64 => {
            // gfx11 message returns: the realtime clock (131) reads the deterministic clock below;
            // doorbell, dispatch id and trap addresses read 0 here.
            let msg = st.inst.raw as u32 & 0xff;
            let v = match msg {
                131 => w.executed,
                128..=133 => 0,
                _ => return Err(format!("s_sendmsg_rtn message {msg} is not emulated")),
            };
            if op == SendmsgRtnB64 {
                w.write_s64(d, v)
            } else {
                w.write_s(d, v as u32)
            }
        }
        Memtime | Memrealtime => {
            // A deterministic clock: instructions executed by this wave so far.
            w.write_s64(d, w.executed);
            sh.cycles = w.executed;
        }
    }
    Ok(Flow::Next)
}

/// Index of the lowest set bit, or -1 (all ones) if none.
fn first_bit(v: u64, width: u32) -> u32 {
    let v = if width == 32 { v & 0xffff_ffff } else { v };
    if v == 0 {
        u32::MAX
    } else {
        v.trailing_zeros()
    }
}

fn smem(w: &mut Wave, sh: &mut Shared, st: &Step, m: crate::sem::Smem) -> Result<Flow, Reason> {
    let raw = st.inst.raw;
    let sbase = ((raw & 0x3f) * 2) as u16;
    let offset = ((raw >> 32) & 0x1f_ffff) as u32;
    let offset = ((offset << 11) as i32 >> 11) as i64;
    let soffset = st.inst.field(rdna_isa::Field::Soffset);
    let soff = if soffset == rdna_isa::src::NULL { 0 } else { w.read_s32(Src::Sgpr(soffset)) as u64 };
    let base = if m.buffer {
        // A buffer resource: base address in the first 48 bits.
        w.read_s64(Src::Sgpr(sbase)) & 0xffff_ffff_ffff
    } else {
        w.read_s64(Src::Sgpr(sbase))
    };
    // Scalar loads ignore the two low address bits.
    let addr = base.wrapping_add(offset as u64).wrapping_add(soff) & !3;
    let mut buf = [0u8; 64];
    let n = m.dwords as usize * 4;
    if m.buffer {
        let num_records = w.read_s32(Src::Sgpr(sbase + 2)) as u64;
        let rel = (offset as u64).wrapping_add(soff) & !3;
        // 64-bit wrapping arithmetic throughout, as the address above (a negative offset wraps).
        for i in 0..m.dwords as usize {
            let o = rel.wrapping_add(4 * i as u64);
            let v = if o.wrapping_add(4) <= num_records { sh.mem.read_u32(addr.wrapping_add(4 * i as u64)).map_err(|e| e.to_string())? } else { 0 };
            buf[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
        }
    } else {
        sh.mem.read(addr, &mut buf[..n]).map_err(|e| e.to_string())?;
    }
    let sdata = ((raw >> 6) & 0x7f) as u16;
    for i in 0..m.dwords as u16 {
        let v = u32::from_le_bytes(buf[4 * i as usize..4 * i as usize + 4].try_into().unwrap_or([0; 4]));
        w.write_s(sdata + i, v);
    }
    Ok(Flow::Next)
}
