//! Vector ALU: operand modifiers (abs/neg, DPP, SDWA, op_sel), every VALU operation, compares,
//! and writing results under EXEC. Sources are gathered for all lanes first, then each
//! operation runs as one loop over the lanes.

use rdna_isa::{Format, ImmTy};

use crate::exec::{Reason, Shared};
use crate::float::{self, Denorm};
use crate::program::{Src, Step};
use crate::sem::{Cond, Num, VOp};
use crate::wave::{sreg, Wave, LANES};

type Lanes = [u64; LANES];

#[inline]
fn bits(raw: u64, lo: u32, n: u32) -> u32 {
    ((raw >> lo) & ((1u64 << n) - 1)) as u32
}

/// Source modifiers decoded from the encoding.
#[derive(Clone, Copy, Default)]
pub struct Mods {
    pub neg: u8,
    pub abs: u8,
    pub clamp: bool,
    pub omod: u8,
    pub op_sel: u8,
    /// VOP3P: op_sel_hi (3 bits) and neg_hi.
    pub op_sel_hi: u8,
    pub neg_hi: u8,
    /// gfx11 true16 operands (`v1.h`): a 16-bit result keeps the other half of its register;
    /// op_sel bits 0 and 3 say which halves src0 and VDST name.
    pub true16: bool,
}

pub fn mods(st: &Step) -> Mods {
    let m = encoded_mods(st);
    // (True16 operands exist on gfx11 only: gfx10 steps skip the operand scan.)
    if st.inst.gen != rdna_isa::Generation::Gfx11 || !st.inst.entry.operands.iter().any(|o| o.class == rdna_isa::Class::Vgpr16) {
        return m;
    }
    // A half's register number has bit 7 set for the high half (src0's VGPRs from 256 in a
    // 9-bit field).
    let mut op_sel = 0;
    for o in st.inst.entry.operands.iter().filter(|o| o.class == rdna_isa::Class::Vgpr16) {
        let v = st.inst.field(o.field);
        let vgpr = o.field == rdna_isa::Field::Vdst || st.inst.format.is_dpp16() || st.inst.format.is_dpp8() || v >= 256;
        if vgpr && v & 0x80 != 0 {
            op_sel |= if o.field == rdna_isa::Field::Vdst { 8 } else { 1 };
        }
    }
    Mods { op_sel, true16: true, ..m }
}

/// The modifiers the encoding's modifier fields give.
fn encoded_mods(st: &Step) -> Mods {
    let raw = st.inst.raw;
    let f = st.inst.format;
    let vop3b = st.vop3b;
    match f {
        f if f.is_vop3() => Mods {
            neg: bits(raw, 61, 3) as u8,
            abs: if vop3b { 0 } else { bits(raw, 8, 3) as u8 },
            clamp: bits(raw, 15, 1) != 0,
            omod: bits(raw, 59, 2) as u8,
            op_sel: if vop3b { 0 } else { bits(raw, 11, 4) as u8 },
            ..Mods::default()
        },
        Format::Vop3p => Mods {
            neg: bits(raw, 61, 3) as u8,
            neg_hi: bits(raw, 8, 3) as u8,
            op_sel: bits(raw, 11, 3) as u8,
            op_sel_hi: (bits(raw, 59, 2) | bits(raw, 14, 1) << 2) as u8,
            clamp: bits(raw, 15, 1) != 0,
            ..Mods::default()
        },
        Format::Vop1Dpp16 | Format::Vop2Dpp16 | Format::VopcDpp16 => Mods {
            neg: (bits(raw, 52, 1) | bits(raw, 54, 1) << 1) as u8,
            abs: (bits(raw, 53, 1) | bits(raw, 55, 1) << 1) as u8,
            ..Mods::default()
        },
        Format::Vop1Sdwa | Format::Vop2Sdwa | Format::VopcSdwa => Mods {
            neg: (bits(raw, 52, 1) | bits(raw, 60, 1) << 1) as u8,
            abs: (bits(raw, 53, 1) | bits(raw, 61, 1) << 1) as u8,
            clamp: f != Format::VopcSdwa && bits(raw, 45, 1) != 0,
            omod: if f == Format::VopcSdwa { 0 } else { bits(raw, 46, 2) as u8 },
            ..Mods::default()
        },
        _ => Mods::default(),
    }
}

/// Which lanes a DPP instruction writes, and the permuted src0.
fn dpp(w: &Wave, st: &Step, src0: &mut Lanes) -> u64 {
    // The DPP dword is the second one, or the third for gfx11 VOP3 (moved into place here);
    // the src0 field that selected DPP8-with-fetch-inactive is in the first or second dword.
    let vop3 = st.inst.format.is_vop3();
    let raw = if vop3 { (st.inst.ext as u64) << 32 } else { st.inst.raw };
    let sel_src0 = if vop3 { bits(st.inst.raw, 32, 9) } else { bits(st.inst.raw, 0, 9) };
    let exec = w.exec();
    let n = w.lanes;
    let orig = *src0;
    let mut write = w.lane_mask;
    if st.inst.format.is_dpp8() {
        let fi = sel_src0 == rdna_isa::src::DPP8_FI as u32;
        for l in 0..n {
            let sel = bits(raw, 40 + 3 * (l as u32 & 7), 3) as usize;
            let from = (l & !7) | sel;
            src0[l] = if fi || exec >> from & 1 != 0 { orig[from] } else { 0 };
        }
        return write;
    }
    let ctrl = bits(raw, 40, 9);
    let fi = bits(raw, 50, 1) != 0;
    let bound_ctrl = bits(raw, 51, 1) != 0;
    let bank_mask = bits(raw, 56, 4);
    let row_mask = bits(raw, 60, 4);
    for l in 0..n {
        let row = l & !15;
        let i = l & 15;
        let from: Option<usize> = match ctrl {
            0x000..=0x0ff => Some((l & !3) | (ctrl as usize >> (2 * (l & 3)) & 3)),
            0x101..=0x10f => Some(i + (ctrl as usize & 15)).filter(|&j| j < 16).map(|j| row + j),
            0x111..=0x11f => i.checked_sub(ctrl as usize & 15).map(|j| row + j),
            0x121..=0x12f => Some(row + ((i + 16 - (ctrl as usize & 15)) & 15)),
            0x140 => Some(row + 15 - i),
            0x141 => Some(row + (i & 8) + 7 - (i & 7)),
            0x150..=0x15f => Some(row + (ctrl as usize & 15)),
            0x160..=0x16f => Some(row + (i ^ (ctrl as usize & 15))),
            _ => None,
        };
        let enabled = row_mask >> (l / 16) & 1 != 0 && bank_mask >> (i / 4) & 1 != 0;
        if !enabled {
            write &= !(1u64 << l);
            continue;
        }
        match from {
            Some(j) if j < n && (fi || exec >> j & 1 != 0) => src0[l] = orig[j],
            _ if bound_ctrl => src0[l] = 0,
            _ => write &= !(1u64 << l),
        }
    }
    write
}

/// Applies an SDWA source select (byte/word/dword, sign-extended or not).
#[inline]
fn sdwa_sel(v: u64, sel: u32, sext: bool) -> u64 {
    let (sh, w) = match sel {
        0..=3 => (8 * sel, 8),
        4 | 5 => (16 * (sel - 4), 16),
        _ => return v & 0xffff_ffff,
    };
    let x = (v >> sh) & ((1 << w) - 1);
    if sext {
        ((((x << (64 - w)) as i64) >> (64 - w)) as u64) & 0xffff_ffff
    } else {
        x
    }
}

/// Float sign-bit position of an operand: f16 (15), f64 (63) or 32-bit data (31).
pub fn sign_bit(imm: ImmTy, width: u8) -> u32 {
    match imm {
        ImmTy::F16 | ImmTy::I16 => 15,
        _ if width >= 2 => 63,
        _ => 31,
    }
}

/// Reads source `i` for all lanes, with its modifiers applied.
fn read_src(w: &Wave, st: &Step, m: &Mods, i: usize, out: &mut Lanes) {
    let s = st.src[i];
    if st.sw[i] >= 2 {
        w.read_v64(s, out);
    } else {
        w.read_v32(s, out);
    }
    let imm = st.imm[i];
    let f = st.inst.format;
    if f.is_sdwa() {
        let raw = st.inst.raw;
        let (sel, sext) = if i == 0 { (bits(raw, 48, 3), bits(raw, 51, 1) != 0) } else { (bits(raw, 56, 3), bits(raw, 59, 1) != 0) };
        for v in out.iter_mut().take(w.lanes) {
            *v = sdwa_sel(*v, sel, sext);
        }
    }
    if f == Format::Vop3p {
        return; // packed halves are selected by the operation
    }
    if m.op_sel >> i & 1 != 0 && matches!(imm, ImmTy::F16 | ImmTy::I16) {
        for v in out.iter_mut().take(w.lanes) {
            *v = (*v >> 16) & 0xffff;
        }
    }
    let sb = sign_bit(imm, st.sw[i]);
    if m.abs >> i & 1 != 0 {
        for v in out.iter_mut().take(w.lanes) {
            *v &= !(1u64 << sb);
        }
    }
    if m.neg >> i & 1 != 0 {
        for v in out.iter_mut().take(w.lanes) {
            *v ^= 1u64 << sb;
        }
    }
}


/// The result type of an operation, for clamping, output modifiers and SDWA/op_sel writes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Out {
    F32,
    F64,
    F16,
    U32,
    U64,
    U16,
    /// Packed 2×16-bit (VOP3P).
    Packed,
}

fn apply_omod_clamp32(b: u64, m: &Mods, dx: Denorm) -> u64 {
    let mut f = f32::from_bits(b as u32);
    match m.omod {
        1 => f *= 2.0,
        2 => f *= 4.0,
        3 => f *= 0.5,
        _ => {}
    }
    if m.clamp {
        f = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
    }
    if m.omod != 0 || m.clamp {
        dx.out32(f)
    } else {
        b
    }
}

/// Executes one VALU operation.
pub fn valu(w: &mut Wave, sh: &mut Shared, st: &Step, op: VOp) -> Result<(), Reason> {
    let _ = sh;
    let n = w.lanes;
    let exec = w.exec();
    let m = mods(st);
    if w.mode.0 & 0xf != 0 && ["_f16", "_f32", "_f64"].iter().any(|t| st.inst.entry.name.contains(t)) {
        return Err(format!("float rounding mode {:#x} (MODE[3:0]) is not modelled: only round-to-nearest-even is", w.mode.0 & 0xf));
    }
    // Lane-crossing and register-indexed operations first.
    match op {
        VOp::Nop | VOp::Pipeflush | VOp::Clrexcp => return Ok(()),
        VOp::WmmaF32F16 | VOp::WmmaF32Bf16 | VOp::WmmaF16F16 | VOp::WmmaBf16Bf16 | VOp::WmmaI32Iu8 | VOp::WmmaI32Iu4 => {
            return wmma(w, st, op, &m);
        }
        VOp::ReadfirstlaneB32 => {
            let Src::Vgpr(r) = st.src[0] else { return Err("v_readfirstlane of a non-VGPR".into()) };
            let lane = if exec == 0 { 0 } else { exec.trailing_zeros() as usize };
            let v = w.vr(r as usize, lane);
            w.write_s(st.dst, v);
            return Ok(());
        }
        VOp::ReadlaneB32 => {
            let Src::Vgpr(r) = st.src[0] else { return Err("v_readlane of a non-VGPR".into()) };
            let lane = (w.read_s32(st.src[1]) as usize) & (n - 1);
            let v = w.vr(r as usize, lane);
            w.write_s(st.dst, v);
            return Ok(());
        }
        VOp::WritelaneB32 => {
            let v = w.read_s32(st.src[0]);
            let lane = (w.read_s32(st.src[1]) as usize) & (n - 1);
            w.set_vr(st.dst as usize, lane, v);
            return Ok(());
        }
        VOp::Permlane16B32 | VOp::Permlanex16B32 => {
            let Src::Vgpr(r) = st.src[0] else { return Err("v_permlane of a non-VGPR".into()) };
            let (sel_lo, sel_hi) = (w.read_s32(st.src[1]) as u64, w.read_s32(st.src[2]) as u64);
            let sel = sel_lo | sel_hi << 32;
            let fi = m.op_sel & 1 != 0;
            let bound_ctrl = m.op_sel & 2 != 0;
            let old: Vec<u32> = (0..n).map(|l| w.vr(r as usize, l)).collect();
            let mut res = [0u32; LANES];
            let mut write = 0u64;
            for l in 0..n {
                let row = l & !15;
                let other = if op == VOp::Permlanex16B32 { row ^ 16 } else { row };
                let from = other + ((sel >> (4 * (l & 15))) & 15) as usize;
                if from < n && (fi || exec >> from & 1 != 0) {
                    res[l] = old[from];
                    write |= 1 << l;
                } else if bound_ctrl {
                    res[l] = 0;
                    write |= 1 << l;
                }
            }
            for l in 0..n {
                if (exec & write) >> l & 1 != 0 {
                    w.set_vr(st.dst as usize, l, res[l]);
                }
            }
            return Ok(());
        }
        VOp::MovrelsB32 | VOp::MovreldB32 | VOp::MovrelsdB32 | VOp::Movrelsd2B32 | VOp::SwapB32 | VOp::SwaprelB32 => {
            let m0 = w.s[sreg::M0] as usize;
            let Src::Vgpr(s) = st.src[0] else { return Err("VGPR-indexed move of a non-VGPR".into()) };
            let (src, dst) = match op {
                VOp::MovrelsB32 => (s as usize + m0, st.dst as usize),
                VOp::MovreldB32 => (s as usize, st.dst as usize + m0),
                VOp::MovrelsdB32 => (s as usize + m0, st.dst as usize + m0),
                // _2 and swaprel take two indices from M0: source [9:0], destination [25:16].
                VOp::Movrelsd2B32 | VOp::SwaprelB32 => (s as usize + (m0 & 0x3ff), st.dst as usize + (m0 >> 16 & 0x3ff)),
                _ => (s as usize, st.dst as usize),
            };
            let nv = w.v.len() / LANES;
            if src >= nv || dst >= nv {
                return Err(format!("VGPR index out of range (M0 = {m0})"));
            }
            for l in 0..n {
                if exec >> l & 1 != 0 {
                    let a = w.vr(src, l);
                    if matches!(op, VOp::SwapB32 | VOp::SwaprelB32) {
                        let (x, y) = if op == VOp::SwapB32 { (s as usize, st.dst as usize) } else { (src, dst) };
                        let (vx, vy) = (w.vr(x, l), w.vr(y, l));
                        w.set_vr(x, l, vy);
                        w.set_vr(y, l, vx);
                    } else {
                        w.set_vr(dst, l, a);
                    }
                }
            }
            return Ok(());
        }
        _ => {}
    }

    // Per-lane work buffers live in the wave, so no instruction pays for zeroing them.
    let mut bufs = std::mem::take(&mut w.tmp);
    if bufs.len() < 4 {
        bufs = vec![[0u64; LANES]; 4];
    }
    let res = valu_lanes(w, st, op, &m, &mut bufs);
    w.tmp = bufs;
    res
}

/// The lane-parallel part of [`valu`]: `bufs` holds the three sources and the result.
fn valu_lanes(w: &mut Wave, st: &Step, op: VOp, m: &Mods, bufs: &mut [Lanes]) -> Result<(), Reason> {
    let m = *m;
    let n = w.lanes;
    let exec = w.exec();
    let dx32 = Denorm::from_mode(w.mode.denorm32());
    let dx64 = Denorm::from_mode(w.mode.denorm64());
    let ieee = w.mode.ieee();
    let [a, b, c, r] = bufs else { return Err("internal: VALU buffers".into()) };
    let nsrc = st.nsrc as usize;
    read_src(w, st, &m, 0, a);
    if nsrc > 1 {
        read_src(w, st, &m, 1, b);
    }
    if nsrc > 2 {
        read_src(w, st, &m, 2, c);
    }
    // Two-address forms: accumulate into / take a constant from fixed places.
    match op {
        VOp::MacF32 | VOp::FmacF32 | VOp::FmacLegacyF32 | VOp::FmacF16 | VOp::PkFmacF16 | VOp::Dot2cF32F16 | VOp::Dot4cI32I8 => {
            w.read_v32(Src::Vgpr(st.dst), c);
        }
        VOp::MadmkF32 | VOp::FmamkF32 | VOp::FmamkF16 => {
            // D = S0 * K + S1
            c.copy_from_slice(&b[..]);
            b.fill(st.inst.literal.unwrap_or(0) as u64);
        }
        VOp::MadakF32 | VOp::FmaakF32 | VOp::FmaakF16 => c.fill(st.inst.literal.unwrap_or(0) as u64),
        _ => {}
    }
    let mut write_mask = exec;
    if st.inst.format.is_dpp16() || st.inst.format.is_dpp8() {
        write_mask &= dpp(w, st, a);
    }
    let mut carry = 0u64;
    let vcc_in = if matches!(op, VOp::AddCoCiU32 | VOp::SubCoCiU32 | VOp::SubrevCoCiU32 | VOp::CndmaskB32 | VOp::DivFmasF32 | VOp::DivFmasF64) {
        if st.inst.format.is_vop3() && !matches!(op, VOp::DivFmasF32 | VOp::DivFmasF64) {
            w.read_mask(st.src[2])
        } else {
            w.vcc()
        }
    } else {
        0
    };

    macro_rules! each {
        ($l:ident => $e:expr) => {
            for $l in 0..n {
                r[$l] = $e;
            }
        };
    }
    let f32_ = |x: u64| dx32.in32(x);
    let o32 = |x: f32| dx32.out32(x);
    let f64_ = |x: u64| dx64.in64(x);
    let o64 = |x: f64| dx64.out64(x);
    let h = |x: u64| dx64.in16(x);
    let oh = |x: f32| dx64.out16(x);
    let u = |x: u64| x as u32;
    let i = |x: u64| x as u32 as i32;
    let s24 = |x: u64| ((x as u32) << 8) as i32 >> 8;
    let u24 = |x: u64| x & 0xff_ffff;

    use VOp::*;
    let out = match op {
        MovB32 => {
            each!(l => a[l] & 0xffff_ffff);
            Out::U32
        }
        CndmaskB32 => {
            each!(l => if vcc_in >> l & 1 != 0 { b[l] } else { a[l] } & 0xffff_ffff);
            Out::U32
        }
        AddF32 => { each!(l => o32(f32_(a[l]) + f32_(b[l]))); Out::F32 }
        SubF32 => { each!(l => o32(f32_(a[l]) - f32_(b[l]))); Out::F32 }
        SubrevF32 => { each!(l => o32(f32_(b[l]) - f32_(a[l]))); Out::F32 }
        MulF32 => { each!(l => o32(f32_(a[l]) * f32_(b[l]))); Out::F32 }
        MulLegacyF32 => { each!(l => { let (x, y) = (f32_(a[l]), f32_(b[l])); o32(if x == 0.0 || y == 0.0 { 0.0 } else { x * y }) }); Out::F32 }
        MinF32 => { each!(l => o32(float::minmax32(f32_(a[l]), f32_(b[l]), false, ieee))); Out::F32 }
        MaxF32 => { each!(l => o32(float::minmax32(f32_(a[l]), f32_(b[l]), true, ieee))); Out::F32 }
        MacF32 | MadF32 | MadmkF32 | MadakF32 => {
            // Unfused multiply-add: the product rounds before the add.
            each!(l => o32(dx32.in32(dx32.out32(f32_(a[l]) * f32_(b[l])) ) + f32_(c[l])));
            Out::F32
        }
        FmacF32 | FmaF32 | FmamkF32 | FmaakF32 => { each!(l => o32(f32_(a[l]).mul_add(f32_(b[l]), f32_(c[l])))); Out::F32 }
        FmacLegacyF32 | FmaLegacyF32 => {
            each!(l => { let (x, y) = (f32_(a[l]), f32_(b[l])); o32(if x == 0.0 || y == 0.0 { f32_(c[l]) + 0.0 } else { x.mul_add(y, f32_(c[l])) }) });
            Out::F32
        }
        LdexpF32 => { each!(l => o32(float::ldexp32(f32_(a[l]), i(b[l])))); Out::F32 }
        MulI32I24 => { each!(l => (s24(a[l]) as i64 * s24(b[l]) as i64) as u32 as u64); Out::U32 }
        MulHiI32I24 => { each!(l => ((s24(a[l]) as i64 * s24(b[l]) as i64) >> 32) as u32 as u64); Out::U32 }
        MulU32U24 => { each!(l => (u24(a[l]) * u24(b[l])) & 0xffff_ffff); Out::U32 }
        MulHiU32U24 => { each!(l => (u24(a[l]) * u24(b[l])) >> 32); Out::U32 }
        MinI32 => { each!(l => i(a[l]).min(i(b[l])) as u32 as u64); Out::U32 }
        MaxI32 => { each!(l => i(a[l]).max(i(b[l])) as u32 as u64); Out::U32 }
        MinU32 => { each!(l => u(a[l]).min(u(b[l])) as u64); Out::U32 }
        MaxU32 => { each!(l => u(a[l]).max(u(b[l])) as u64); Out::U32 }
        LshrrevB32 => { each!(l => (u(b[l]) >> (a[l] & 31)) as u64); Out::U32 }
        AshrrevI32 => { each!(l => (i(b[l]) >> (a[l] & 31)) as u32 as u64); Out::U32 }
        LshlrevB32 => { each!(l => (u(b[l]) << (a[l] & 31)) as u64); Out::U32 }
        AndB32 => { each!(l => a[l] & b[l] & 0xffff_ffff); Out::U32 }
        OrB32 => { each!(l => (a[l] | b[l]) & 0xffff_ffff); Out::U32 }
        XorB32 => { each!(l => (a[l] ^ b[l]) & 0xffff_ffff); Out::U32 }
        XnorB32 => { each!(l => !(a[l] ^ b[l]) & 0xffff_ffff); Out::U32 }
        NotB32 => { each!(l => !a[l] & 0xffff_ffff); Out::U32 }
        AddNcU32 => { each!(l => if m.clamp { (u(a[l]) as u64 + u(b[l]) as u64).min(u32::MAX as u64) } else { u(a[l]).wrapping_add(u(b[l])) as u64 }); Out::U32 }
        SubNcU32 => { each!(l => if m.clamp { u(a[l]).saturating_sub(u(b[l])) as u64 } else { u(a[l]).wrapping_sub(u(b[l])) as u64 }); Out::U32 }
        SubrevNcU32 => { each!(l => if m.clamp { u(b[l]).saturating_sub(u(a[l])) as u64 } else { u(b[l]).wrapping_sub(u(a[l])) as u64 }); Out::U32 }
        AddNcI32 => { each!(l => if m.clamp { i(a[l]).saturating_add(i(b[l])) } else { i(a[l]).wrapping_add(i(b[l])) } as u32 as u64); Out::U32 }
        SubNcI32 => { each!(l => if m.clamp { i(a[l]).saturating_sub(i(b[l])) } else { i(a[l]).wrapping_sub(i(b[l])) } as u32 as u64); Out::U32 }
        AddCoU32 | AddCoCiU32 => {
            for l in 0..n {
                let cin = if op == AddCoCiU32 { vcc_in >> l & 1 } else { 0 };
                let s = a[l] as u32 as u64 + b[l] as u32 as u64 + cin;
                r[l] = if m.clamp && s > u32::MAX as u64 { u32::MAX as u64 } else { s & 0xffff_ffff };
                carry |= (s >> 32 & 1) << l;
            }
            Out::U32
        }
        SubCoU32 | SubCoCiU32 | SubrevCoU32 | SubrevCoCiU32 => {
            let rev = matches!(op, SubrevCoU32 | SubrevCoCiU32);
            for l in 0..n {
                let cin = if matches!(op, SubCoCiU32 | SubrevCoCiU32) { vcc_in >> l & 1 } else { 0 };
                let (x, y) = if rev { (b[l] as u32 as u64, a[l] as u32 as u64) } else { (a[l] as u32 as u64, b[l] as u32 as u64) };
                let borrow = x < y + cin;
                r[l] = if m.clamp && borrow { 0 } else { x.wrapping_sub(y + cin) & 0xffff_ffff };
                carry |= (borrow as u64) << l;
            }
            Out::U32
        }
        CvtF32I32 => { each!(l => o32(i(a[l]) as f32)); Out::F32 }
        CvtF32U32 => { each!(l => o32(u(a[l]) as f32)); Out::F32 }
        CvtU32F32 => { each!(l => f32_(a[l]) as u32 as u64); Out::U32 }
        CvtI32F32 => { each!(l => f32_(a[l]) as i32 as u32 as u64); Out::U32 }
        CvtRpiI32F32 => { each!(l => (f32_(a[l]) + 0.5).floor() as i32 as u32 as u64); Out::U32 }
        CvtFlrI32F32 => { each!(l => f32_(a[l]).floor() as i32 as u32 as u64); Out::U32 }
        CvtOffF32I4 => { each!(l => o32(((((a[l] & 15) as i32) << 28 >> 28) as f32) / 16.0)); Out::F32 }
        CvtF16F32 => { each!(l => oh(f32_(a[l]))); Out::F16 }
        CvtF32F16 => { each!(l => o32(h(a[l]))); Out::F32 }
        CvtF32F64 => { each!(l => o32(f64_(a[l]) as f32)); Out::F32 }
        CvtF64F32 => { each!(l => o64(f32_(a[l]) as f64)); Out::F64 }
        CvtF32Ubyte0 | CvtF32Ubyte1 | CvtF32Ubyte2 | CvtF32Ubyte3 => {
            let sh = match op { CvtF32Ubyte0 => 0, CvtF32Ubyte1 => 8, CvtF32Ubyte2 => 16, _ => 24 };
            each!(l => o32(((a[l] >> sh) & 0xff) as f32));
            Out::F32
        }
        CvtU32F64 => { each!(l => f64_(a[l]) as u32 as u64); Out::U32 }
        CvtI32F64 => { each!(l => f64_(a[l]) as i32 as u32 as u64); Out::U32 }
        CvtF64I32 => { each!(l => o64(i(a[l]) as f64)); Out::F64 }
        CvtF64U32 => { each!(l => o64(u(a[l]) as f64)); Out::F64 }
        CvtF16U16 => { each!(l => oh((a[l] & 0xffff) as f32)); Out::F16 }
        CvtF16I16 => { each!(l => oh((a[l] as u16 as i16) as f32)); Out::F16 }
        CvtU16F16 => { each!(l => h(a[l]) as u16 as u64); Out::U16 }
        CvtI16F16 => { each!(l => h(a[l]) as i16 as u16 as u64); Out::U16 }
        FractF32 => { each!(l => { let x = f32_(a[l]); o32(if x.is_infinite() { f32::NAN } else { (x - x.floor()).min(f32::from_bits(0x3f7f_ffff)) }) }); Out::F32 }
        TruncF32 => { each!(l => o32(f32_(a[l]).trunc())); Out::F32 }
        CeilF32 => { each!(l => o32(f32_(a[l]).ceil())); Out::F32 }
        RndneF32 => { each!(l => o32(f32_(a[l]).round_ties_even())); Out::F32 }
        FloorF32 => { each!(l => o32(f32_(a[l]).floor())); Out::F32 }
        ExpF32 => { each!(l => o32(float::exp2_32(f32_(a[l])))); Out::F32 }
        LogF32 => { each!(l => o32(float::log2_32(f32_(a[l])))); Out::F32 }
        RcpF32 | RcpIflagF32 => { each!(l => o32((1.0 / f32_(a[l]) as f64) as f32)); Out::F32 }
        RsqF32 => { each!(l => o32((1.0 / (f32_(a[l]) as f64).sqrt()) as f32)); Out::F32 }
        SqrtF32 => { each!(l => o32(f32_(a[l]).sqrt())); Out::F32 }
        SinF32 | CosF32 => { each!(l => o32(float::sin_cos32(f32_(a[l]), op == CosF32))); Out::F32 }
        RcpF64 => { each!(l => o64(1.0 / f64_(a[l]))); Out::F64 }
        RsqF64 => { each!(l => o64(1.0 / f64_(a[l]).sqrt())); Out::F64 }
        SqrtF64 => { each!(l => o64(f64_(a[l]).sqrt())); Out::F64 }
        TruncF64 => { each!(l => o64(f64_(a[l]).trunc())); Out::F64 }
        CeilF64 => { each!(l => o64(f64_(a[l]).ceil())); Out::F64 }
        RndneF64 => { each!(l => o64(f64_(a[l]).round_ties_even())); Out::F64 }
        FloorF64 => { each!(l => o64(f64_(a[l]).floor())); Out::F64 }
        FractF64 => { each!(l => { let x = f64_(a[l]); o64(if x.is_infinite() { f64::NAN } else { (x - x.floor()).min(f64::from_bits(0x3fef_ffff_ffff_ffff)) }) }); Out::F64 }
        FrexpExpI32F64 => { each!(l => float::frexp64(f64_(a[l])).1 as u32 as u64); Out::U32 }
        FrexpMantF64 => { each!(l => o64(float::frexp64(f64_(a[l])).0)); Out::F64 }
        FrexpExpI32F32 => { each!(l => float::frexp32(f32_(a[l])).1 as u32 as u64); Out::U32 }
        FrexpMantF32 => { each!(l => o32(float::frexp32(f32_(a[l])).0)); Out::F32 }
        BfrevB32 => { each!(l => u(a[l]).reverse_bits() as u64); Out::U32 }
        FfbhU32 => { each!(l => { let x = u(a[l]); if x == 0 { u32::MAX } else { x.leading_zeros() } } as u64); Out::U32 }
        FfblB32 => { each!(l => { let x = u(a[l]); if x == 0 { u32::MAX } else { x.trailing_zeros() } } as u64); Out::U32 }
        // Leading copies of the sign bit, the sign bit included (V_CLS_I32's pseudo-code).
        FfbhI32 => { each!(l => { let v = i(a[l]); let x = if v < 0 { !v } else { v } as u32; if x == 0 { u32::MAX } else { x.leading_zeros() } } as u64); Out::U32 }
        AddF64 => { each!(l => o64(f64_(a[l]) + f64_(b[l]))); Out::F64 }
        MulF64 => { each!(l => o64(f64_(a[l]) * f64_(b[l]))); Out::F64 }
        MinF64 => { each!(l => o64(float::minmax64(f64_(a[l]), f64_(b[l]), false, ieee))); Out::F64 }
        MaxF64 => { each!(l => o64(float::minmax64(f64_(a[l]), f64_(b[l]), true, ieee))); Out::F64 }
        FmaF64 => { each!(l => o64(f64_(a[l]).mul_add(f64_(b[l]), f64_(c[l])))); Out::F64 }
        LdexpF64 => { each!(l => o64(float::ldexp64(f64_(a[l]), i(b[l])))); Out::F64 }
        DivScaleF32 => {
            for l in 0..n {
                let (s0, s1, s2) = (f32_(a[l]), f32_(b[l]), f32_(c[l]));
                let (d, v) = div_scale(s0, s1, s2);
                r[l] = o32(d);
                carry |= (v as u64) << l;
            }
            Out::F32
        }
        DivScaleF64 => {
            for l in 0..n {
                let (d, v) = div_scale(f64_(a[l]), f64_(b[l]), f64_(c[l]));
                r[l] = o64(d);
                carry |= (v as u64) << l;
            }
            Out::F64
        }
        DivFmasF32 => {
            // See `div_fmas_scale`.
            // Scaled before the one rounding, so a denormal result is not rounded twice.
            each!(l => { let k = if vcc_in >> l & 1 != 0 { div_fmas_scale(float::exp32(f32_(c[l])), 127, 64) } else { 0 }; o32(float::fma32_scaled(f32_(a[l]), f32_(b[l]), f32_(c[l]), k)) });
            Out::F32
        }
        DivFmasF64 => {
            each!(l => { let f = f64_(a[l]).mul_add(f64_(b[l]), f64_(c[l])); o64(if vcc_in >> l & 1 != 0 { float::ldexp64(f, div_fmas_scale(float::exp64(f64_(c[l])), 1023, 128)) } else { f }) });
            Out::F64
        }
        DivFixupF32 => { each!(l => o32(div_fixup32(f32_(a[l]), f32_(b[l]), f32_(c[l])))); Out::F32 }
        DivFixupF64 => { each!(l => o64(div_fixup64(f64_(a[l]), f64_(b[l]), f64_(c[l])))); Out::F64 }
        TrigPreopF64 => { each!(l => o64(trig_preop(f64_(a[l]), u(b[l])))); Out::F64 }
        MadU32U24 => { each!(l => (u24(a[l]) * u24(b[l])).wrapping_add(c[l]) & 0xffff_ffff); Out::U32 }
        MadI32I24 => { each!(l => (s24(a[l]) as i64 * s24(b[l]) as i64 + i(c[l]) as i64) as u32 as u64); Out::U32 }
        BfeU32 => { each!(l => { let (off, wd) = (b[l] & 31, c[l] & 31); if wd == 0 { 0 } else { (u(a[l]) as u64 >> off) & ((1 << wd) - 1) } }); Out::U32 }
        BfeI32 => {
            // Arithmetic shift first (bits above 31 are copies of the sign), then mask and extend.
            each!(l => { let (off, wd) = (b[l] & 31, c[l] & 31); if wd == 0 { 0 } else { let x = ((i(a[l]) >> off) as u32 as u64) & ((1 << wd) - 1); ((((x << (64 - wd)) as i64) >> (64 - wd)) as u32) as u64 } });
            Out::U32
        }
        BfiB32 => { each!(l => (a[l] & b[l] | !a[l] & c[l]) & 0xffff_ffff); Out::U32 }
        BfmB32 => { each!(l => (((1u64 << (a[l] & 31)) - 1) << (b[l] & 31)) & 0xffff_ffff); Out::U32 }
        AlignbitB32 => { each!(l => (((a[l] & 0xffff_ffff) << 32 | b[l] & 0xffff_ffff) >> (c[l] & 31)) & 0xffff_ffff); Out::U32 }
        AlignbyteB32 => { each!(l => (((a[l] & 0xffff_ffff) << 32 | b[l] & 0xffff_ffff) >> (8 * (c[l] & 3))) & 0xffff_ffff); Out::U32 }
        Min3F32 => { each!(l => o32(float::minmax32(float::minmax32(f32_(a[l]), f32_(b[l]), false, ieee), f32_(c[l]), false, ieee))); Out::F32 }
        Max3F32 => { each!(l => o32(float::minmax32(float::minmax32(f32_(a[l]), f32_(b[l]), true, ieee), f32_(c[l]), true, ieee))); Out::F32 }
        Med3F32 => { each!(l => o32(float::med3_32(f32_(a[l]), f32_(b[l]), f32_(c[l]), ieee))); Out::F32 }
        Min3I32 => { each!(l => i(a[l]).min(i(b[l])).min(i(c[l])) as u32 as u64); Out::U32 }
        Max3I32 => { each!(l => i(a[l]).max(i(b[l])).max(i(c[l])) as u32 as u64); Out::U32 }
        Min3U32 => { each!(l => u(a[l]).min(u(b[l])).min(u(c[l])) as u64); Out::U32 }
        Max3U32 => { each!(l => u(a[l]).max(u(b[l])).max(u(c[l])) as u64); Out::U32 }
        Med3I32 => { each!(l => { let (x, y, z) = (i(a[l]), i(b[l]), i(c[l])); x.max(y).min(x.min(y).max(z)) as u32 as u64 }); Out::U32 }
        Med3U32 => { each!(l => { let (x, y, z) = (u(a[l]), u(b[l]), u(c[l])); x.max(y).min(x.min(y).max(z)) as u64 }); Out::U32 }
        SadU8 | SadHiU8 | MsadU8 => {
            each!(l => {
                let mut t: u32 = 0;
                for k in 0..4 {
                    let (x, y) = ((a[l] >> (8 * k)) as u8, (b[l] >> (8 * k)) as u8);
                    if op == MsadU8 && y == 0 { continue; }
                    t += x.abs_diff(y) as u32;
                }
                (if op == SadHiU8 { t << 16 } else { t }).wrapping_add(u(c[l])) as u64
            });
            Out::U32
        }
        SadU16 => { each!(l => ((a[l] as u16).abs_diff(b[l] as u16) as u32 + ((a[l] >> 16) as u16).abs_diff((b[l] >> 16) as u16) as u32).wrapping_add(u(c[l])) as u64); Out::U32 }
        SadU32 => { each!(l => u(a[l]).abs_diff(u(b[l])).wrapping_add(u(c[l])) as u64); Out::U32 }
        LerpU8 => {
            each!(l => {
                let mut t = 0u32;
                for k in 0..4 {
                    let x = (a[l] >> (8 * k)) as u8 as u32 + (b[l] >> (8 * k)) as u8 as u32 + ((c[l] >> (8 * k)) & 1) as u32;
                    t |= ((x >> 1) & 0xff) << (8 * k);
                }
                t as u64
            });
            Out::U32
        }
        MulLoU32 => { each!(l => u(a[l]).wrapping_mul(u(b[l])) as u64); Out::U32 }
        MulHiU32 => { each!(l => (u(a[l]) as u64 * u(b[l]) as u64) >> 32); Out::U32 }
        MulHiI32 => { each!(l => ((i(a[l]) as i64 * i(b[l]) as i64) >> 32) as u32 as u64); Out::U32 }
        MadU64U32 => {
            for l in 0..n {
                let p = u(a[l]) as u128 * u(b[l]) as u128 + c[l] as u128;
                r[l] = p as u64;
                carry |= ((p >> 64 != 0) as u64) << l;
            }
            Out::U64
        }
        MadI64I32 => {
            for l in 0..n {
                let p = i(a[l]) as i128 * i(b[l]) as i128 + c[l] as i64 as i128;
                r[l] = p as u64;
                carry |= ((p < i64::MIN as i128 || p > i64::MAX as i128) as u64) << l;
            }
            Out::U64
        }
        LshlrevB64 => { each!(l => b[l] << (a[l] & 63)); Out::U64 }
        LshrrevB64 => { each!(l => b[l] >> (a[l] & 63)); Out::U64 }
        AshrrevI64 => { each!(l => ((b[l] as i64) >> (a[l] & 63)) as u64); Out::U64 }
        XadU32 => { each!(l => (u(a[l]) ^ u(b[l])).wrapping_add(u(c[l])) as u64); Out::U32 }
        LshlAddU32 => { each!(l => (u(a[l]) << (b[l] & 31)).wrapping_add(u(c[l])) as u64); Out::U32 }
        AddLshlU32 => { each!(l => (u(a[l]).wrapping_add(u(b[l])) << (c[l] & 31)) as u64); Out::U32 }
        Add3U32 => { each!(l => u(a[l]).wrapping_add(u(b[l])).wrapping_add(u(c[l])) as u64); Out::U32 }
        LshlOrB32 => { each!(l => ((u(a[l]) << (b[l] & 31)) | u(c[l])) as u64); Out::U32 }
        AndOrB32 => { each!(l => ((a[l] & b[l]) | c[l]) & 0xffff_ffff); Out::U32 }
        Or3B32 => { each!(l => (a[l] | b[l] | c[l]) & 0xffff_ffff); Out::U32 }
        Xor3B32 => { each!(l => (a[l] ^ b[l] ^ c[l]) & 0xffff_ffff); Out::U32 }
        PermB32 => { each!(l => perm(u(a[l]), u(b[l]), u(c[l])) as u64); Out::U32 }
        BcntU32B32 => { each!(l => u(a[l]).count_ones().wrapping_add(u(b[l])) as u64); Out::U32 }
        MbcntLoU32B32 => { each!(l => { let mask = if l >= 32 { u32::MAX } else { ((1u64 << l) - 1) as u32 }; (u(a[l]) & mask).count_ones().wrapping_add(u(b[l])) as u64 }); Out::U32 }
        MbcntHiU32B32 => { each!(l => { let mask = if l < 32 { 0 } else { ((1u64 << (l - 32)) - 1) as u32 }; (u(a[l]) & mask).count_ones().wrapping_add(u(b[l])) as u64 }); Out::U32 }
        CvtPkrtzF16F32 => { each!(l => (float::f32_to_f16_rtz(f32_(a[l])) as u64) | (float::f32_to_f16_rtz(f32_(b[l])) as u64) << 16); Out::U32 }
        CvtPkU16U32 => { each!(l => (u(a[l]).min(0xffff) as u64) | (u(b[l]).min(0xffff) as u64) << 16); Out::U32 }
        CvtPkI16I32 => { each!(l => (i(a[l]).clamp(-32768, 32767) as u16 as u64) | (i(b[l]).clamp(-32768, 32767) as u16 as u64) << 16); Out::U32 }
        CvtPkU8F32 => {
            each!(l => { let byte = (c[l] & 3) * 8; let v = f32_(a[l]).round_ties_even().clamp(0.0, 255.0) as u64; (c[l] & !(0xffu64 << byte) | v << byte) & 0xffff_ffff });
            Out::U32
        }
        CvtPknormI16F32 => { each!(l => { let f = |x: f32| (x.clamp(-1.0, 1.0) * 32767.0).round_ties_even() as i16 as u16 as u64; f(f32_(a[l])) | f(f32_(b[l])) << 16 }); Out::U32 }
        CvtPknormU16F32 => { each!(l => { let f = |x: f32| (x.clamp(0.0, 1.0) * 65535.0).round_ties_even() as u16 as u64; f(f32_(a[l])) | f(f32_(b[l])) << 16 }); Out::U32 }
        PackB32F16 => { each!(l => (a[l] & 0xffff) | (b[l] & 0xffff) << 16); Out::U32 }
        AddF16 => { each!(l => oh(h(a[l]) + h(b[l]))); Out::F16 }
        SubF16 => { each!(l => oh(h(a[l]) - h(b[l]))); Out::F16 }
        SubrevF16 => { each!(l => oh(h(b[l]) - h(a[l]))); Out::F16 }
        MulF16 => { each!(l => oh(h(a[l]) * h(b[l]))); Out::F16 }
        FmacF16 | FmaF16 | FmamkF16 | FmaakF16 => {
            // One rounding, to f16, of the exact value.
            each!(l => dx64.out16_f64(float::fma16_exact(h(a[l]), h(b[l]), h(c[l]))));
            Out::F16
        }
        MinF16 => { each!(l => oh(float::minmax32(h(a[l]), h(b[l]), false, ieee))); Out::F16 }
        MaxF16 => { each!(l => oh(float::minmax32(h(a[l]), h(b[l]), true, ieee))); Out::F16 }
        Min3F16 => { each!(l => oh(float::minmax32(float::minmax32(h(a[l]), h(b[l]), false, ieee), h(c[l]), false, ieee))); Out::F16 }
        Max3F16 => { each!(l => oh(float::minmax32(float::minmax32(h(a[l]), h(b[l]), true, ieee), h(c[l]), true, ieee))); Out::F16 }
        Med3F16 => { each!(l => oh(float::med3_32(h(a[l]), h(b[l]), h(c[l]), ieee))); Out::F16 }
        LdexpF16 => { each!(l => oh(float::ldexp32(h(a[l]), (b[l] as u16 as i16) as i32))); Out::F16 }
        SqrtF16 => { each!(l => oh(h(a[l]).sqrt())); Out::F16 }
        RcpF16 => { each!(l => oh(1.0 / h(a[l]))); Out::F16 }
        RsqF16 => { each!(l => oh(1.0 / h(a[l]).sqrt())); Out::F16 }
        LogF16 => { each!(l => oh(half::f16::from_bits(float::log2_16(half::f16::from_f32(h(a[l])).to_bits())).to_f32())); Out::F16 }
        ExpF16 => { each!(l => oh(half::f16::from_bits(float::exp2_16(half::f16::from_f32(h(a[l])).to_bits())).to_f32())); Out::F16 }
        FloorF16 => { each!(l => oh(h(a[l]).floor())); Out::F16 }
        CeilF16 => { each!(l => oh(h(a[l]).ceil())); Out::F16 }
        TruncF16 => { each!(l => oh(h(a[l]).trunc())); Out::F16 }
        RndneF16 => { each!(l => oh(h(a[l]).round_ties_even())); Out::F16 }
        FractF16 => { each!(l => { let x = h(a[l]); oh(if x.is_infinite() { f32::NAN } else { (x - x.floor()).min(half::f16::from_bits(0x3bff).to_f32()) }) }); Out::F16 }
        SinF16 | CosF16 => { each!(l => oh(half::f16::from_bits(float::sin_cos16(half::f16::from_f32(h(a[l])).to_bits(), op == CosF16)).to_f32())); Out::F16 }
        FrexpMantF16 => { each!(l => oh(float::frexp32(h(a[l])).0)); Out::F16 }
        FrexpExpI16F16 => { each!(l => float::frexp32(h(a[l])).1 as i16 as u16 as u64); Out::U16 }
        DivFixupF16 => { each!(l => oh(div_fixup32(h(a[l]), h(b[l]), h(c[l])))); Out::F16 }
        AddNcU16 => { each!(l => if m.clamp { (a[l] as u16).saturating_add(b[l] as u16) } else { (a[l] as u16).wrapping_add(b[l] as u16) } as u64); Out::U16 }
        SubNcU16 => { each!(l => if m.clamp { (a[l] as u16).saturating_sub(b[l] as u16) } else { (a[l] as u16).wrapping_sub(b[l] as u16) } as u64); Out::U16 }
        AddNcI16 => { each!(l => if m.clamp { (a[l] as i16).saturating_add(b[l] as i16) } else { (a[l] as i16).wrapping_add(b[l] as i16) } as u16 as u64); Out::U16 }
        SubNcI16 => { each!(l => if m.clamp { (a[l] as i16).saturating_sub(b[l] as i16) } else { (a[l] as i16).wrapping_sub(b[l] as i16) } as u16 as u64); Out::U16 }
        MulLoU16 => { each!(l => (a[l] as u16).wrapping_mul(b[l] as u16) as u64); Out::U16 }
        LshlrevB16 => { each!(l => ((b[l] as u16) << (a[l] & 15)) as u64); Out::U16 }
        LshrrevB16 => { each!(l => ((b[l] as u16) >> (a[l] & 15)) as u64); Out::U16 }
        AshrrevI16 => { each!(l => ((b[l] as i16) >> (a[l] & 15)) as u16 as u64); Out::U16 }
        MinI16 => { each!(l => (a[l] as i16).min(b[l] as i16) as u16 as u64); Out::U16 }
        MaxI16 => { each!(l => (a[l] as i16).max(b[l] as i16) as u16 as u64); Out::U16 }
        MinU16 => { each!(l => (a[l] as u16).min(b[l] as u16) as u64); Out::U16 }
        MaxU16 => { each!(l => (a[l] as u16).max(b[l] as u16) as u64); Out::U16 }
        Min3I16 => { each!(l => (a[l] as i16).min(b[l] as i16).min(c[l] as i16) as u16 as u64); Out::U16 }
        Max3I16 => { each!(l => (a[l] as i16).max(b[l] as i16).max(c[l] as i16) as u16 as u64); Out::U16 }
        Min3U16 => { each!(l => (a[l] as u16).min(b[l] as u16).min(c[l] as u16) as u64); Out::U16 }
        Max3U16 => { each!(l => (a[l] as u16).max(b[l] as u16).max(c[l] as u16) as u64); Out::U16 }
        Med3I16 => { each!(l => { let (x, y, z) = (a[l] as i16, b[l] as i16, c[l] as i16); x.max(y).min(x.min(y).max(z)) as u16 as u64 }); Out::U16 }
        Med3U16 => { each!(l => { let (x, y, z) = (a[l] as u16, b[l] as u16, c[l] as u16); x.max(y).min(x.min(y).max(z)) as u64 }); Out::U16 }
        MadU16 => { each!(l => (a[l] as u16).wrapping_mul(b[l] as u16).wrapping_add(c[l] as u16) as u64); Out::U16 }
        MadI16 => { each!(l => (a[l] as i16).wrapping_mul(b[l] as i16).wrapping_add(c[l] as i16) as u16 as u64); Out::U16 }
        MadU32U16 => { each!(l => ((a[l] as u16 as u32) * (b[l] as u16 as u32)).wrapping_add(u(c[l])) as u64); Out::U32 }
        MadI32I16 => { each!(l => ((a[l] as i16 as i32) * (b[l] as i16 as i32)).wrapping_add(i(c[l])) as u32 as u64); Out::U32 }
        FmaMixF32 | FmaMixloF16 | FmaMixhiF16 => {
            let srcs = [&*a, &*b, &*c];
            for l in 0..n {
                let mut v = [0f64; 3];
                for (k, s) in srcs.iter().enumerate() {
                    let x = if m.op_sel_hi >> k & 1 != 0 {
                        let half = if m.op_sel >> k & 1 != 0 { s[l] >> 16 } else { s[l] } & 0xffff;
                        h(half) as f64
                    } else if matches!(st.src[k], Src::Const(_)) {
                        // A constant read as f32: the table types mix constants as f16 values.
                        h(s[l]) as f64
                    } else {
                        f32_(s[l]) as f64
                    };
                    let x = if m.neg_hi >> k & 1 != 0 { x.abs() } else { x };
                    v[k] = if m.neg >> k & 1 != 0 { -x } else { x };
                }
                let f = (v[0] as f32).mul_add(v[1] as f32, v[2] as f32);
                let f = if m.clamp { if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) } } else { f };
                r[l] = if op == FmaMixF32 { o32(f) } else { oh(f) };
            }
            if op == FmaMixF32 {
                Out::U32
            } else {
                // mixlo/mixhi write one half and keep the other.
                let hi = op == FmaMixhiF16;
                for l in 0..n {
                    let old = w.vr(st.dst as usize, l) as u64;
                    r[l] = if hi { old & 0xffff | (r[l] & 0xffff) << 16 } else { old & 0xffff_0000 | r[l] & 0xffff };
                }
                Out::U32
            }
        }
        PkAddF16 | PkMulF16 | PkFmaF16 | PkFmacF16 | PkMinF16 | PkMaxF16 | PkAddU16 | PkAddI16 | PkSubU16 | PkSubI16 | PkMulLoU16
        | PkLshlrevB16 | PkLshrrevB16 | PkAshrrevI16 | PkMinI16 | PkMaxI16 | PkMinU16 | PkMaxU16 | PkMadU16 | PkMadI16 => {
            packed(op, &m, a, b, c, r, n, dx64, ieee, st.inst.format == Format::Vop3p);
            Out::Packed
        }
        Dot2F32F16 | Dot2cF32F16 => {
            // tmp = S2; tmp += lo*lo; tmp += hi*hi (the products are exact in f32).
            each!(l => o32((f32_(c[l]) + h(a[l]) * h(b[l])) + h(a[l] >> 16) * h(b[l] >> 16)));
            Out::F32
        }
        Dot2F32Bf16 => {
            let bf = |v: u64| bf16_to_f32(v as u16);
            each!(l => o32((f32_(c[l]) + bf(a[l]) * bf(b[l])) + bf(a[l] >> 16) * bf(b[l] >> 16)));
            Out::F32
        }
        Dot2Bf16Bf16 => {
            let bf = |v: u64| bf16_to_f32(v as u16);
            let r16 = |x: f32| half::bf16::from_f32(x).to_f32();
            each!(l => {
                let t = r16(bf(c[l]) + bf(a[l]) * bf(b[l]));
                half::bf16::from_f32(t + bf(a[l] >> 16) * bf(b[l] >> 16)).to_bits() as u64
            });
            Out::U16
        }
        Dot4I32Iu8 | Dot8I32Iu4 => {
            // NEG[0] / NEG[1] say whether A / B are signed.
            let (sa, sb) = (m.neg & 1 != 0, m.neg & 2 != 0);
            let (bits_w, n_el) = if op == Dot4I32Iu8 { (8u32, 4) } else { (4, 8) };
            let ext = |v: u64, k: u32, signed: bool| -> i64 {
                let x = (v >> (bits_w * k)) & ((1 << bits_w) - 1);
                if signed { ((x << (64 - bits_w)) as i64) >> (64 - bits_w) } else { x as i64 }
            };
            each!(l => {
                let sum = (0..n_el).fold(i(c[l]) as i64, |t, k| t + ext(a[l], k, sa) * ext(b[l], k, sb));
                if m.clamp { sum.clamp(i32::MIN as i64, i32::MAX as i64) as i32 as u32 as u64 } else { sum as i32 as u32 as u64 }
            });
            Out::U32
        }
        Dot2I32I16 => { each!(l => ((a[l] as i16 as i32).wrapping_mul(b[l] as i16 as i32).wrapping_add(((a[l] >> 16) as i16 as i32).wrapping_mul((b[l] >> 16) as i16 as i32))).wrapping_add(i(c[l])) as u32 as u64); Out::U32 }
        Dot2U32U16 => { each!(l => ((a[l] as u16 as u32) * (b[l] as u16 as u32)).wrapping_add(((a[l] >> 16) as u16 as u32) * ((b[l] >> 16) as u16 as u32)).wrapping_add(u(c[l])) as u64); Out::U32 }
        Dot4I32I8 | Dot4cI32I8 => { each!(l => (0..4).fold(i(c[l]), |t, k| t.wrapping_add(((a[l] >> (8 * k)) as i8 as i32) * ((b[l] >> (8 * k)) as i8 as i32))) as u32 as u64); Out::U32 }
        Dot4U32U8 => { each!(l => (0..4).fold(u(c[l]), |t, k| t.wrapping_add(((a[l] >> (8 * k)) as u8 as u32) * ((b[l] >> (8 * k)) as u8 as u32))) as u64); Out::U32 }
        Dot8I32I4 => { each!(l => (0..8).fold(i(c[l]), |t, k| t.wrapping_add((((a[l] >> (4 * k)) as i32) << 28 >> 28) * (((b[l] >> (4 * k)) as i32) << 28 >> 28))) as u32 as u64); Out::U32 }
        Dot8U32U4 => { each!(l => (0..8).fold(u(c[l]), |t, k| t.wrapping_add((((a[l] >> (4 * k)) & 15) as u32) * (((b[l] >> (4 * k)) & 15) as u32))) as u64); Out::U32 }
        MaxminF32 | MinmaxF32 => {
            // maxmin: min(max(S0, S1), S2); minmax: max(min(S0, S1), S2).
            let inner_max = op == MaxminF32;
            each!(l => o32(float::minmax32(float::minmax32(f32_(a[l]), f32_(b[l]), inner_max, ieee), f32_(c[l]), !inner_max, ieee)));
            Out::F32
        }
        MaxminF16 | MinmaxF16 => {
            let inner_max = op == MaxminF16;
            each!(l => oh(float::minmax32(float::minmax32(h(a[l]), h(b[l]), inner_max, ieee), h(c[l]), !inner_max, ieee)));
            Out::F16
        }
        CvtI32I16 => { each!(l => a[l] as u16 as i16 as i32 as u32 as u64); Out::U32 }
        CvtU32U16 => { each!(l => a[l] & 0xffff); Out::U32 }
        MovB16 => { each!(l => a[l] & 0xffff); Out::U16 }
        CvtPkI16F32 => { each!(l => (f32_(a[l]) as i16 as u16 as u64) | (f32_(b[l]) as i16 as u16 as u64) << 16); Out::U32 }
        CvtPkU16F32 => { each!(l => (f32_(a[l]) as u16 as u64) | (f32_(b[l]) as u16 as u64) << 16); Out::U32 }
        Dot2F16F16 => {
            // Accumulated in half precision, one rounding per step as the pseudo-code writes it.
            each!(l => {
                let t = h(c[l]);
                let t = half::f16::from_f32(t + h(a[l]) * h(b[l])).to_f32();
                oh(t + h(a[l] >> 16) * h(b[l] >> 16))
            });
            Out::F16
        }
        MaxminI32 => { each!(l => i(a[l]).max(i(b[l])).min(i(c[l])) as u32 as u64); Out::U32 }
        MinmaxI32 => { each!(l => i(a[l]).min(i(b[l])).max(i(c[l])) as u32 as u64); Out::U32 }
        MaxminU32 => { each!(l => u(a[l]).max(u(b[l])).min(u(c[l])) as u64); Out::U32 }
        MinmaxU32 => { each!(l => u(a[l]).min(u(b[l])).max(u(c[l])) as u64); Out::U32 }
        AndB16 => { each!(l => a[l] & b[l] & 0xffff); Out::U16 }
        OrB16 => { each!(l => (a[l] | b[l]) & 0xffff); Out::U16 }
        XorB16 => { each!(l => (a[l] ^ b[l]) & 0xffff); Out::U16 }
        NotB16 => { each!(l => !a[l] & 0xffff); Out::U16 }
        CndmaskB16 => { each!(l => if w.read_mask(st.src[2]) >> l & 1 != 0 { b[l] } else { a[l] } & 0xffff); Out::U16 }
        Permlane64B32 => {
            // Swap the two 32-lane halves of a wave64 (no effect in wave32).
            let src = *a;
            each!(l => if n == 64 { src[l ^ 32] } else { src[l] } & 0xffff_ffff);
            Out::U32
        }
        CubeidF32 | CubescF32 | CubetcF32 | CubemaF32 => {
            each!(l => {
                let (x, y, z) = (f32_(a[l]), f32_(b[l]), f32_(c[l]));
                let zmaj = z.abs() >= x.abs() && z.abs() >= y.abs();
                let ymaj = !zmaj && y.abs() >= x.abs();
                let v = match op {
                    CubeidF32 => if zmaj { if z < 0.0 { 5.0 } else { 4.0 } } else if ymaj { if y < 0.0 { 3.0 } else { 2.0 } } else if x < 0.0 { 1.0 } else { 0.0 },
                    CubescF32 => if zmaj { if z < 0.0 { -x } else { x } } else if ymaj { x } else if x < 0.0 { z } else { -z },
                    CubetcF32 => if zmaj { -y } else if ymaj { if y < 0.0 { -z } else { z } } else { -y },
                    _ => 2.0 * if zmaj { z } else if ymaj { y } else { x },
                };
                o32(v)
            });
            Out::F32
        }
        MullitF32 => {
            each!(l => { let (x, y, z) = (f32_(a[l]), f32_(b[l]), f32_(c[l])); o32(if y == -f32::MAX || y == f32::NEG_INFINITY || y.is_nan() || z <= 0.0 || z.is_nan() { -f32::MAX } else { x * y }) });
            Out::F32
        }
        CvtNormI16F16 | CvtNormU16F16 => {
            each!(l => if op == CvtNormI16F16 { snorm16(h(a[l])) } else { unorm16(h(a[l])) } as u64);
            Out::U16
        }
        CvtPknormI16F16 => { each!(l => snorm16(h(a[l])) as u64 | (snorm16(h(b[l])) as u64) << 16); Out::U32 }
        CvtPknormU16F16 => { each!(l => unorm16(h(a[l])) as u64 | (unorm16(h(b[l])) as u64) << 16); Out::U32 }
        SatPkU8I16 => {
            let sat = |x: i16| x.clamp(0, 255) as u64;
            each!(l => sat(a[l] as u16 as i16) | sat((a[l] >> 16) as u16 as i16) << 8);
            Out::U16
        }
        QsadPkU16U8 | MqsadPkU16U8 => {
            each!(l => {
                let mut t = 0u64;
                for k in 0..4 {
                    let src = (a[l] >> (8 * k)) as u32;
                    let acc = (c[l] >> (16 * k)) as u16 as u32;
                    let s = sad_bytes(src, b[l] as u32, op == MqsadPkU16U8).wrapping_add(acc);
                    t |= (s as u16 as u64) << (16 * k);
                }
                t
            });
            Out::U64
        }
        MqsadU32U8 => {
            // Four 32-bit results into VDST..VDST+3; S2 is a 128-bit accumulator.
            let Src::Vgpr(acc) = st.src[2] else { return Err("v_mqsad_u32_u8 with a non-VGPR accumulator".into()) };
            let d = st.dst as usize;
            for l in 0..n {
                if write_mask >> l & 1 == 0 {
                    continue;
                }
                let res: Vec<u32> = (0..4).map(|k| sad_bytes((a[l] >> (8 * k)) as u32, b[l] as u32, true).wrapping_add(w.vr(acc as usize + k, l))).collect();
                for (k, v) in res.into_iter().enumerate() {
                    w.set_vr(d + k, l, v);
                }
            }
            return Ok(());
        }
        ReadfirstlaneB32 | ReadlaneB32 | WritelaneB32 | Permlane16B32 | Permlanex16B32 | MovrelsB32 | MovreldB32 | MovrelsdB32 | Movrelsd2B32
        | SwapB32 | SwaprelB32 | Nop | Pipeflush | Clrexcp | WmmaF32F16 | WmmaF32Bf16 | WmmaF16F16 | WmmaBf16Bf16 | WmmaI32Iu8
        | WmmaI32Iu4 => unreachable_handled(op)?,
    };
    write_result(w, st, &m, out, r, write_mask, dx32, dx64)?;
    // Carry-out / VCC results (VOP3B SDST, or VCC for the e32 forms).
    let writes_carry = matches!(op, VOp::AddCoU32 | VOp::SubCoU32 | VOp::SubrevCoU32 | VOp::AddCoCiU32 | VOp::SubCoCiU32 | VOp::SubrevCoCiU32 | VOp::DivScaleF32 | VOp::DivScaleF64 | VOp::MadU64U32 | VOp::MadI64I32);
    if writes_carry {
        // Lanes that did not run write 0 to the mask.
        w.write_mask(st.carry_dst(), carry & exec);
    }
    Ok(())
}

fn unreachable_handled(op: VOp) -> Result<Out, Reason> {
    Err(format!("internal: {op:?} reached the generic VALU path"))
}

/// Packed 16-bit math (VOP3P): each half with its own op_sel/op_sel_hi source half and negation.
#[allow(clippy::too_many_arguments)]
fn packed(op: VOp, m: &Mods, a: &Lanes, b: &Lanes, c: &Lanes, r: &mut Lanes, n: usize, dx: Denorm, ieee: bool, vop3p: bool) {
    use VOp::*;
    let (op_sel, op_sel_hi) = if vop3p { (m.op_sel, m.op_sel_hi) } else { (0, 7) };
    let float = matches!(op, PkAddF16 | PkMulF16 | PkFmaF16 | PkFmacF16 | PkMinF16 | PkMaxF16);
    for l in 0..n {
        let srcs = [a[l], b[l], c[l]];
        let mut res = 0u64;
        for half in 0..2 {
            let mut x = [0u16; 3];
            for k in 0..3 {
                let hi = if half == 0 { op_sel >> k & 1 } else { op_sel_hi >> k & 1 } != 0;
                let mut v = (if hi { srcs[k] >> 16 } else { srcs[k] }) as u16;
                let negb = if half == 0 { m.neg } else { m.neg_hi };
                if float && negb >> k & 1 != 0 {
                    v ^= 0x8000;
                }
                x[k] = v;
            }
            let f = |v: u16| dx.in16(v as u64);
            let v: u16 = match op {
                PkAddF16 => dx.out16(f(x[0]) + f(x[1])) as u16,
                PkMulF16 => dx.out16(f(x[0]) * f(x[1])) as u16,
                PkFmaF16 | PkFmacF16 => dx.out16_f64(float::fma16_exact(f(x[0]), f(x[1]), f(x[2]))) as u16,
                PkMinF16 => dx.out16(float::minmax32(f(x[0]), f(x[1]), false, ieee)) as u16,
                PkMaxF16 => dx.out16(float::minmax32(f(x[0]), f(x[1]), true, ieee)) as u16,
                PkAddU16 => if m.clamp { x[0].saturating_add(x[1]) } else { x[0].wrapping_add(x[1]) },
                PkAddI16 => if m.clamp { (x[0] as i16).saturating_add(x[1] as i16) as u16 } else { x[0].wrapping_add(x[1]) },
                PkSubU16 => if m.clamp { x[0].saturating_sub(x[1]) } else { x[0].wrapping_sub(x[1]) },
                PkSubI16 => if m.clamp { (x[0] as i16).saturating_sub(x[1] as i16) as u16 } else { x[0].wrapping_sub(x[1]) },
                PkMulLoU16 => x[0].wrapping_mul(x[1]),
                PkLshlrevB16 => x[1] << (x[0] & 15),
                PkLshrrevB16 => x[1] >> (x[0] & 15),
                PkAshrrevI16 => ((x[1] as i16) >> (x[0] & 15)) as u16,
                PkMinI16 => (x[0] as i16).min(x[1] as i16) as u16,
                PkMaxI16 => (x[0] as i16).max(x[1] as i16) as u16,
                PkMinU16 => x[0].min(x[1]),
                PkMaxU16 => x[0].max(x[1]),
                PkMadU16 => x[0].wrapping_mul(x[1]).wrapping_add(x[2]),
                _ => (x[0] as i16).wrapping_mul(x[1] as i16).wrapping_add(x[2] as i16) as u16,
            };
            let v = if float && m.clamp {
                let fv = half::f16::from_bits(v).to_f32();
                dx.out16(if fv.is_nan() { 0.0 } else { fv.clamp(0.0, 1.0) }) as u16
            } else {
                v
            };
            res |= (v as u64) << (16 * half);
        }
        r[l] = res;
    }
}

/// Writes a result to VDST (or to SGPRs for readlane-like dests) under EXEC and the DPP mask,
/// with clamp/omod, SDWA dst_sel and op_sel for 16-bit results.
#[allow(clippy::too_many_arguments)]
fn write_result(w: &mut Wave, st: &Step, m: &Mods, out: Out, r: &Lanes, mask: u64, dx32: Denorm, dx64: Denorm) -> Result<(), Reason> {
    let n = w.lanes;
    let d = st.dst as usize;
    let sdwa = st.inst.format.is_sdwa();
    let raw = st.inst.raw;
    // 64-bit results without output modifiers: two registers straight from the lanes.
    if matches!(out, Out::U64 | Out::F64) && !m.clamp && m.omod == 0 {
        let (lo, hi) = (d * LANES, (d + 1) * LANES);
        if hi + n <= w.v.len() {
            let (a, b) = w.v.split_at_mut(hi);
            for (l, ((x, y), &v)) in a[lo..lo + n].iter_mut().zip(b[..n].iter_mut()).zip(r.iter()).enumerate() {
                if mask >> l & 1 != 0 {
                    *x = v as u32;
                    *y = (v >> 32) as u32;
                }
            }
        }
        return Ok(());
    }
    // The common case: a 32-bit result, no output modifiers.
    if matches!(out, Out::U32 | Out::F32 | Out::Packed) && !sdwa && !m.clamp && m.omod == 0 {
        if let Some(dst) = w.v.get_mut(d * LANES..d * LANES + n) {
            for (l, (x, &v)) in dst.iter_mut().zip(r.iter()).enumerate() {
                if mask >> l & 1 != 0 {
                    *x = v as u32;
                }
            }
        }
        return Ok(());
    }
    for l in 0..n {
        if mask >> l & 1 == 0 {
            continue;
        }
        let mut v = r[l];
        match out {
            Out::F32 => v = apply_omod_clamp32(v, m, dx32),
            Out::F64 => {
                if m.omod != 0 || m.clamp {
                    let mut f = f64::from_bits(v);
                    match m.omod {
                        1 => f *= 2.0,
                        2 => f *= 4.0,
                        3 => f *= 0.5,
                        _ => {}
                    }
                    if m.clamp {
                        f = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
                    }
                    v = dx64.out64(f);
                }
            }
            Out::F16 => {
                if m.omod != 0 || m.clamp {
                    let mut f = half::f16::from_bits(v as u16).to_f32();
                    match m.omod {
                        1 => f *= 2.0,
                        2 => f *= 4.0,
                        3 => f *= 0.5,
                        _ => {}
                    }
                    if m.clamp {
                        f = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
                    }
                    v = dx64.out16(f);
                }
            }
            _ => {}
        }
        match out {
            Out::F64 | Out::U64 => {
                w.set_vr(d, l, v as u32);
                w.set_vr(d + 1, l, (v >> 32) as u32);
            }
            Out::F16 | Out::U16 if !sdwa => {
                // op_sel[3] writes the high half and keeps the low; otherwise the low half is
                // written and the high half zeroed (kept, for true16 operands).
                let old = w.vr(d, l);
                let nv = if m.op_sel >> 3 & 1 != 0 {
                    old & 0xffff | (v as u32 & 0xffff) << 16
                } else if m.true16 {
                    old & 0xffff_0000 | v as u32 & 0xffff
                } else {
                    v as u32 & 0xffff
                };
                w.set_vr(d, l, nv);
            }
            _ if sdwa => {
                let dst_sel = bits(raw, 40, 3);
                let unused = bits(raw, 43, 2);
                let old = w.vr(d, l);
                let v = v as u32;
                let (sh, wd) = match dst_sel {
                    0..=3 => (8 * dst_sel, 8),
                    4 | 5 => (16 * (dst_sel - 4), 16),
                    _ => (0, 32),
                };
                let nv = if wd == 32 {
                    v
                } else {
                    let fm = ((1u64 << wd) - 1) as u32;
                    let part = (v & fm) << sh;
                    let keep_mask = !(fm << sh);
                    match unused {
                        2 => old & keep_mask | part,
                        1 => {
                            // Sign-extend the written part into the bits above it.
                            let sext = ((part << (32 - sh - wd)) as i32 >> (32 - sh - wd)) as u32;
                            let below = if sh == 0 { 0 } else { (1u32 << sh) - 1 };
                            sext & !below
                        }
                        _ => part,
                    }
                };
                w.set_vr(d, l, nv);
            }
            _ => w.set_vr(d, l, v as u32),
        }
    }
    Ok(())
}

/// f16 to a signed normalised 16-bit integer.
fn snorm16(x: f32) -> u16 {
    if x.is_nan() {
        return 0;
    }
    (x.clamp(-1.0, 1.0) * 32767.0).round_ties_even() as i16 as u16
}

fn unorm16(x: f32) -> u16 {
    if x.is_nan() {
        return 0;
    }
    (x.clamp(0.0, 1.0) * 65535.0).round_ties_even() as u16
}

/// Sum of absolute byte differences of two dwords; `masked` skips bytes where `b` is 0 (msad).
fn sad_bytes(a: u32, b: u32, masked: bool) -> u32 {
    (0..4)
        .map(|k| {
            let (x, y) = ((a >> (8 * k)) as u8, (b >> (8 * k)) as u8);
            if masked && y == 0 {
                0
            } else {
                x.abs_diff(y) as u32
            }
        })
        .sum()
}

/// `v_perm_b32` byte selection over {S0, S1}.
fn perm(s0: u32, s1: u32, sel: u32) -> u32 {
    let data = (s0 as u64) << 32 | s1 as u64;
    let byte = |k: u32| -> u32 {
        let b = |i: u32| ((data >> (8 * i)) & 0xff) as u32;
        match k {
            0..=7 => b(k),
            8 => (b(1) >> 7) * 0xff,
            9 => (b(3) >> 7) * 0xff,
            10 => (b(5) >> 7) * 0xff,
            11 => (b(7) >> 7) * 0xff,
            12 => 0,
            _ => 0xff,
        }
    };
    (0..4).fold(0, |acc, i| acc | byte(sel >> (8 * i) & 0xff) << (8 * i))
}

/// What `v_div_scale` needs of a float type: the pseudo-code is the same for f32 and f64 with
/// these constants.
trait DivScale: Copy + PartialEq + std::ops::Div<Output = Self> {
    /// Exponent distance at which the quotient nears the largest value (96 / 768).
    const NEAR_MAX: i32;
    /// The scale factor's exponent (64 / 128).
    const SCALE: i32;
    /// Exponent below which the numerator is tiny (23 / 53).
    const TINY: i32;
    fn exp(self) -> i32;
    fn zero(self) -> bool;
    fn subnormal(self) -> bool;
    /// Whether 1 / self, in f64, is denormal (or zero).
    fn rcp_denorm(self) -> bool;
    fn ldexp(self, n: i32) -> Self;
    fn nan() -> Self;
}

impl DivScale for f32 {
    const NEAR_MAX: i32 = 96;
    const SCALE: i32 = 64;
    const TINY: i32 = 23;
    fn exp(self) -> i32 {
        float::exp32(self)
    }
    fn zero(self) -> bool {
        self == 0.0
    }
    fn subnormal(self) -> bool {
        self.is_subnormal()
    }
    fn rcp_denorm(self) -> bool {
        // AMD's pseudo-code tests 1 / S1 computed in f64 against f64 denormals, as for f64.
        let r = 1.0 / self as f64;
        r.is_subnormal() || r == 0.0
    }
    fn ldexp(self, n: i32) -> f32 {
        float::ldexp32(self, n)
    }
    fn nan() -> f32 {
        f32::NAN
    }
}

impl DivScale for f64 {
    const NEAR_MAX: i32 = 768;
    const SCALE: i32 = 128;
    const TINY: i32 = 53;
    fn exp(self) -> i32 {
        float::exp64(self)
    }
    fn zero(self) -> bool {
        self == 0.0
    }
    fn subnormal(self) -> bool {
        self.is_subnormal()
    }
    fn rcp_denorm(self) -> bool {
        let r = 1.0 / self;
        r.is_subnormal() || r == 0.0
    }
    fn ldexp(self, n: i32) -> f64 {
        float::ldexp64(self, n)
    }
    fn nan() -> f64 {
        f64::NAN
    }
}

/// `v_div_scale_f32/f64` (AMD pseudo-code): scales numerator or denominator so that the
/// reciprocal iteration cannot under- or overflow; returns (value, VCC bit).
fn div_scale<F: DivScale>(s0: F, s1: F, s2: F) -> (F, bool) {
    if s2.zero() || s1.zero() {
        return (F::nan(), false);
    }
    let up = |x: F| x.ldexp(F::SCALE);
    if s2.exp() - s1.exp() >= F::NEAR_MAX {
        return (if s0 == s1 { up(s0) } else { s0 }, true);
    }
    if s1.subnormal() {
        return (up(s0), false);
    }
    let (rcp_denorm, q_denorm) = (s1.rcp_denorm(), (s2 / s1).subnormal());
    if rcp_denorm && q_denorm {
        return (if s0 == s1 { up(s0) } else { s0 }, true);
    }
    if rcp_denorm {
        return (s0.ldexp(-F::SCALE), false);
    }
    if q_denorm {
        return (if s0 == s2 { up(s0) } else { s0 }, true);
    }
    if s2.exp() <= F::TINY {
        return (up(s0), false);
    }
    (s0, false)
}

/// The power of two `v_div_fmas_f32/f64` scales by where VCC is set: 2^64 (f64: 2^128) when the
/// quotient estimate S2 is at least 1 (exponent field ≥ the bias), else 2^-64 (2^-128), undoing
/// whichever way `v_div_scale` moved the operands. AMD's pseudo-code writes a fixed 2^32 (f64:
/// 2^64), which cannot undo div_scale's 2^64 (2^128) and leaves LLVM's division sequence off by
/// a power of two in exactly the cases div_scale flags; with this rule the sequence is correctly
/// rounded on every operand pair tested (`tests/corpus.rs`, `k_div32`), as the hardware's
/// division is known to be. Not measured on hardware here.
fn div_fmas_scale(s2_exponent: i32, bias: i32, scale: i32) -> i32 {
    if s2_exponent >= bias {
        scale
    } else {
        -scale
    }
}

/// `v_div_fixup_f32`: special cases of S2/S1, else S0 with the quotient's sign. Widening to f64
/// keeps every case (NaN payloads included) and narrowing back is exact; only the underflow
/// test needs f32 exponents.
fn div_fixup32(s0: f32, s1: f32, s2: f32) -> f32 {
    div_fixup_with(s0 as f64, s1 as f64, s2 as f64, float::exp32(s2) - float::exp32(s1) < -150) as f32
}

/// `v_div_fixup_f64`.
fn div_fixup64(s0: f64, s1: f64, s2: f64) -> f64 {
    div_fixup_with(s0, s1, s2, float::exp64(s2) - float::exp64(s1) < -1075)
}

/// The div_fixup cases in AMD's order; `underflow`: the exponents of S2 and S1 are far enough
/// apart that the quotient rounds to zero (UNDERFLOW, taken as a signed zero).
fn div_fixup_with(s0: f64, s1: f64, s2: f64, underflow: bool) -> f64 {
    let sign = s1.is_sign_negative() ^ s2.is_sign_negative();
    if s2.is_nan() {
        return f64::from_bits(s2.to_bits() | 0x8_0000_0000_0000);
    }
    if s1.is_nan() {
        return f64::from_bits(s1.to_bits() | 0x8_0000_0000_0000);
    }
    if s1 == 0.0 && s2 == 0.0 || s1.is_infinite() && s2.is_infinite() {
        return f64::from_bits(0xfff8_0000_0000_0000);
    }
    if s1 == 0.0 || s2.is_infinite() {
        return if sign { f64::NEG_INFINITY } else { f64::INFINITY };
    }
    if s1.is_infinite() || s2 == 0.0 || underflow {
        return if sign { -0.0 } else { 0.0 };
    }
    if s0.is_nan() {
        return if sign { f64::NEG_INFINITY } else { f64::INFINITY };
    }
    if sign {
        -s0.abs()
    } else {
        s0.abs()
    }
}

/// 2/π to 1200+ bits (hexadecimal fraction digits), for `v_trig_preop_f64`.
pub const TWO_OVER_PI: &str = "a2f9836e4e441529fc2757d1f534ddc0db6295993c439041fe5163abdebbc561b7246e3a424dd2e006492eea09d1921cfe1deb1cb129a73ee88235f52ebb4484e99c7026b45f7e413991d639835339f49c845f8bbdf9283b1ff897ffde05980fef2f118b5a0a6d1f6d367ecf27cb09b74f463f669e5fea2d7527bac7ebe5f17b3d0739f78a5292ea6bfb5fb11f8d5d0856033046fc7b6babf0cfbc209af4361da9e391615ee61b086599855f14a068408dffd8804d73273106061556ca73a8c960e27bc08c6b";

fn trig_preop(x: f64, sel: u32) -> f64 {
    let e = float::exp64(x);
    let mut shift = (sel & 31) as i64 * 53;
    if e > 1077 {
        shift += e as i64 - 1077;
    }
    // Take 53 bits of 2/π starting at bit `shift` after the binary point.
    let mut mant: u64 = 0;
    for k in 0..53 {
        let bit = shift + k;
        let digit = (bit / 4) as usize;
        let nib = TWO_OVER_PI.as_bytes().get(digit).and_then(|c| (*c as char).to_digit(16)).unwrap_or(0) as u64;
        let b = nib >> (3 - bit % 4) & 1;
        mant = mant << 1 | b;
    }
    let mut scale = -53 - shift as i32;
    if e >= 1968 {
        scale += 128;
    }
    float::ldexp64(mant as f64, scale)
}

/// VOPC compares (and v_cmpx): one result bit per active lane.
pub fn compare(w: &mut Wave, st: &Step, ty: Num, cond: Cond, x: bool) -> Result<(), Reason> {
    let n = w.lanes;
    let exec = w.exec();
    let m = mods(st);
    let mut a: Lanes = [0; LANES];
    let mut b: Lanes = [0; LANES];
    read_src(w, st, &m, 0, &mut a);
    read_src(w, st, &m, 1, &mut b);
    let mut mask = if st.inst.format.is_dpp16() || st.inst.format.is_dpp8() { dpp(w, st, &mut a) } else { u64::MAX };
    mask &= exec;
    let dx32 = Denorm::from_mode(w.mode.denorm32());
    let dx64 = Denorm::from_mode(w.mode.denorm64());
    let mut res = 0u64;
    for l in 0..n {
        if mask >> l & 1 == 0 {
            continue;
        }
        let ord = match ty {
            Num::F32 => dx32.in32(a[l]).partial_cmp(&dx32.in32(b[l])),
            Num::F64 => dx64.in64(a[l]).partial_cmp(&dx64.in64(b[l])),
            Num::F16 => dx64.in16(a[l]).partial_cmp(&dx64.in16(b[l])),
            Num::I16 => Some((a[l] as i16).cmp(&(b[l] as i16))),
            Num::U16 => Some((a[l] as u16).cmp(&(b[l] as u16))),
            Num::I32 => Some((a[l] as i32).cmp(&(b[l] as i32))),
            Num::U32 => Some((a[l] as u32).cmp(&(b[l] as u32))),
            Num::I64 => Some((a[l] as i64).cmp(&(b[l] as i64))),
            Num::U64 => Some(a[l].cmp(&b[l])),
        };
        let t = match ord {
            None => cond.unord,
            Some(std::cmp::Ordering::Less) => cond.lt,
            Some(std::cmp::Ordering::Equal) => cond.eq,
            Some(std::cmp::Ordering::Greater) => cond.gt,
        };
        res |= (t as u64) << l;
    }
    finish_compare(w, st, res, x);
    Ok(())
}

fn finish_compare(w: &mut Wave, st: &Step, res: u64, x: bool) {
    if x {
        w.set_exec(res);
    } else {
        w.write_mask(st.dst, res);
    }
}

pub fn compare_class(w: &mut Wave, st: &Step, ty: Num, x: bool) -> Result<(), Reason> {
    let n = w.lanes;
    let exec = w.exec();
    let m = mods(st);
    let mut a: Lanes = [0; LANES];
    let mut b: Lanes = [0; LANES];
    read_src(w, st, &m, 0, &mut a);
    read_src(w, st, &m, 1, &mut b);
    // DPP permutes src0 as for the other compares; lanes it does not write get 0.
    let mut mask = if st.inst.format.is_dpp16() || st.inst.format.is_dpp8() { dpp(w, st, &mut a) } else { u64::MAX };
    mask &= exec;
    let mut res = 0u64;
    for l in 0..n {
        if mask >> l & 1 == 0 {
            continue;
        }
        let bit = match ty {
            Num::F64 => float::class64(a[l]),
            Num::F16 => float::class16(a[l] as u16),
            _ => float::class32(a[l] as u32),
        };
        res |= ((b[l] >> bit) & 1) << l;
    }
    finish_compare(w, st, res, x);
    Ok(())
}

fn bf16_to_f32(b: u16) -> f32 {
    f32::from_bits((b as u32) << 16)
}

/// gfx11 WMMA (wave32): D = A × B + C on 16×16 tiles. Lane `l` holds row `l % 16` of A and column
/// `l % 16` of B (16 elements along K in 8, 4 or 2 VGPRs; both half-waves carry the same data, lanes
/// 0–15 are read); C and D element `v` of lane `l` is row `2v + l / 16`, column `l % 16` (AMD's
/// documented layout). Float tiles are summed exactly and rounded once; integer tiles wrap unless
/// clamped. 16-bit results go to the half op_sel[2] selects.
fn wmma(w: &mut Wave, st: &Step, op: VOp, m: &Mods) -> Result<(), Reason> {
    use VOp::*;
    if w.lanes != 32 {
        return Err("WMMA in wave64 is not emulated (its register layout is not documented here)".into());
    }
    let (Src::Vgpr(ra), Src::Vgpr(rb)) = (st.src[0], st.src[1]) else { return Err("WMMA sources must be VGPRs".into()) };
    let (ra, rb) = (ra as usize, rb as usize);
    let float = matches!(op, WmmaF32F16 | WmmaF32Bf16 | WmmaF16F16 | WmmaBf16Bf16);
    if float && (m.neg != 0 || m.neg_hi != 0) {
        return Err("WMMA with negated float inputs is not emulated".into());
    }
    let hi_half = m.op_sel >> 2 & 1 != 0;
    // Element k (0..16) of lane l's A or B fragment.
    let elem = |w: &Wave, base: usize, l: usize, k: usize, signed: bool| -> f64 {
        match op {
            WmmaF32F16 | WmmaF16F16 => half::f16::from_bits((w.vr(base + k / 2, l) >> (16 * (k % 2))) as u16).to_f64(),
            WmmaF32Bf16 | WmmaBf16Bf16 => bf16_to_f32((w.vr(base + k / 2, l) >> (16 * (k % 2))) as u16) as f64,
            WmmaI32Iu8 => {
                let b = (w.vr(base + k / 4, l) >> (8 * (k % 4))) as u8;
                if signed { b as i8 as f64 } else { b as f64 }
            }
            _ => {
                let nib = (w.vr(base + k / 8, l) >> (4 * (k % 8))) & 15;
                if signed { ((nib as i32) << 28 >> 28) as f64 } else { nib as f64 }
            }
        }
    };
    let (a_signed, b_signed) = (m.neg & 1 != 0, m.neg & 2 != 0);
    let mut a = [[0f64; 16]; 16];
    let mut b = [[0f64; 16]; 16];
    for i in 0..16 {
        for k in 0..16 {
            a[i][k] = elem(w, ra, i, k, a_signed);
            b[k][i] = elem(w, rb, i, k, b_signed);
        }
    }
    let d = st.dst as usize;
    let c_at = |w: &Wave, l: usize, v: usize| -> f64 {
        let raw = match st.src[2] {
            Src::Vgpr(rc) => w.vr(rc as usize + v, l),
            other => w.read_s32(other),
        };
        match op {
            WmmaF32F16 | WmmaF32Bf16 => f32::from_bits(raw) as f64,
            WmmaF16F16 => half::f16::from_bits(if hi_half { raw >> 16 } else { raw } as u16).to_f64(),
            WmmaBf16Bf16 => bf16_to_f32(if hi_half { raw >> 16 } else { raw } as u16) as f64,
            _ => raw as i32 as f64,
        }
    };
    let mut out = vec![[0u32; 8]; 32];
    for l in 0..32 {
        for v in 0..8 {
            let (row, col) = (2 * v + l / 16, l % 16);
            let sum: f64 = (0..16).map(|k| a[row][k] * b[k][col]).sum::<f64>() + c_at(w, l, v);
            let old = match st.src[2] {
                Src::Vgpr(rc) => w.vr(rc as usize + v, l),
                _ => 0,
            };
            let put16 = |h: u16| if hi_half { old & 0xffff | (h as u32) << 16 } else { old & 0xffff_0000 | h as u32 };
            out[l][v] = match op {
                WmmaF32F16 | WmmaF32Bf16 => (sum as f32).to_bits(),
                WmmaF16F16 => put16(float::f64_to_f16(sum)),
                WmmaBf16Bf16 => put16(float::f64_to_bf16(sum)),
                _ if m.clamp => sum.clamp(i32::MIN as f64, i32::MAX as f64) as i32 as u32,
                _ => (sum as i64) as u32,
            };
        }
    }
    let exec = w.exec();
    for (l, vals) in out.iter().enumerate() {
        if exec >> l & 1 != 0 {
            for (v, &x) in vals.iter().enumerate() {
                w.set_vr(d + v, l, x);
            }
        }
    }
    Ok(())
}

/// The VOPD operations the emulator implements (every one gfx11 defines).
pub const VOPD_OPS: &[&str] = &[
    "v_dual_mov_b32", "v_dual_add_f32", "v_dual_sub_f32", "v_dual_subrev_f32", "v_dual_mul_f32", "v_dual_mul_dx9_zero_f32",
    "v_dual_fmac_f32", "v_dual_fmaak_f32", "v_dual_fmamk_f32", "v_dual_max_f32", "v_dual_min_f32", "v_dual_cndmask_b32",
    "v_dual_dot2acc_f32_f16", "v_dual_add_nc_u32", "v_dual_lshlrev_b32", "v_dual_and_b32",
];

/// gfx11 VOPD: two operations from a fixed set; both read their sources before either writes.
pub fn vopd(w: &mut Wave, st: &Step) -> Result<(), Reason> {
    let n = w.lanes;
    let exec = w.exec();
    let dx = Denorm::from_mode(w.mode.denorm32());
    let dx16 = Denorm::from_mode(w.mode.denorm64());
    let ieee = w.mode.ieee();
    let lit = st.inst.literal.unwrap_or(0) as u64;
    let vcc = w.vcc();
    let mut results: Vec<(usize, Lanes)> = Vec::with_capacity(2);
    for y in [false, true] {
        let (name, vdst, src0, vsrc1) = st.inst.vopd_half(y);
        let mut a: Lanes = [0; LANES];
        let mut b: Lanes = [0; LANES];
        let mut d: Lanes = [0; LANES];
        w.read_v32(crate::program::operand(src0, ImmTy::B32, 1, st.inst.literal), &mut a);
        w.read_v32(Src::Vgpr(vsrc1), &mut b);
        w.read_v32(Src::Vgpr(vdst), &mut d);
        let f = |x: u64| dx.in32(x);
        let o = |x: f32| dx.out32(x);
        let mut r: Lanes = [0; LANES];
        for l in 0..n {
            let (x, yv, acc) = (a[l], b[l], d[l]);
            r[l] = match name {
                "v_dual_mov_b32" => x,
                "v_dual_add_f32" => o(f(x) + f(yv)),
                "v_dual_sub_f32" => o(f(x) - f(yv)),
                "v_dual_subrev_f32" => o(f(yv) - f(x)),
                "v_dual_mul_f32" => o(f(x) * f(yv)),
                "v_dual_mul_dx9_zero_f32" => o(if f(x) == 0.0 || f(yv) == 0.0 { 0.0 } else { f(x) * f(yv) }),
                "v_dual_fmac_f32" => o(f(x).mul_add(f(yv), f(acc))),
                "v_dual_fmaak_f32" => o(f(x).mul_add(f(yv), f(lit))),
                "v_dual_fmamk_f32" => o(f(x).mul_add(f(lit), f(yv))),
                "v_dual_max_f32" => o(float::minmax32(f(x), f(yv), true, ieee)),
                "v_dual_min_f32" => o(float::minmax32(f(x), f(yv), false, ieee)),
                "v_dual_cndmask_b32" => {
                    if vcc >> l & 1 != 0 {
                        yv
                    } else {
                        x
                    }
                }
                // As v_dot2acc_f32_f16: the accumulator plus the low product, then plus the
                // high one (each product of two f16 exact in f32), f16 inputs under the f16
                // denormal mode.
                "v_dual_dot2acc_f32_f16" => {
                    let hh = |v: u64| dx16.in16(v);
                    o((f(acc) + hh(x) * hh(yv)) + hh(x >> 16) * hh(yv >> 16))
                }
                "v_dual_add_nc_u32" => (x as u32).wrapping_add(yv as u32) as u64,
                "v_dual_lshlrev_b32" => ((yv as u32) << (x & 31)) as u64,
                "v_dual_and_b32" => x & yv,
                other => return Err(format!("VOPD operation {other} is not emulated")),
            };
        }
        results.push((vdst as usize, r));
    }
    for (vdst, r) in results {
        for (l, v) in r.iter().enumerate().take(n) {
            if exec >> l & 1 != 0 {
                w.set_vr(vdst, l, *v as u32);
            }
        }
    }
    Ok(())
}
