//! Vector memory: FLAT/GLOBAL/SCRATCH and MUBUF (global memory, scratch, LDS through the flat
//! apertures) and DS (LDS, lane permutes).

use rdna_isa::{src, Format};

use crate::exec::{Reason, Shared};
use crate::program::{Src, Step};
use crate::sem::{Atomic, DsKind, MemKind};
use crate::wave::{sreg, Wave, PRIVATE_APERTURE_HI, SCRATCH_BUFFER_BASE, SHARED_APERTURE_HI};

#[inline]
fn bits(raw: u64, lo: u32, n: u32) -> u32 {
    ((raw >> lo) & ((1u64 << n) - 1)) as u32
}

/// Where one lane's access goes.
#[derive(Clone, Copy, Debug)]
enum Loc {
    Global(u64),
    Lds(u32),
    Scratch(u32),
    /// Out of a buffer's range: loads read 0, stores and atomics are dropped.
    Discard,
}

fn lds_range(lds_len: usize, addr: u32, n: usize) -> Result<std::ops::Range<usize>, Reason> {
    let a = addr as usize;
    if a.checked_add(n).is_some_and(|e| e <= lds_len) {
        Ok(a..a + n)
    } else {
        Err(format!("LDS access out of bounds: {n} bytes at {addr:#x} (LDS size {lds_len:#x})"))
    }
}

fn scratch_range(w: &Wave, lane: usize, addr: u32, n: usize) -> Result<std::ops::Range<usize>, Reason> {
    let a = addr as usize;
    if a.checked_add(n).is_some_and(|e| e <= w.scratch_size) {
        Ok(lane * w.scratch_size + a..lane * w.scratch_size + a + n)
    } else {
        Err(format!("scratch access out of bounds: {n} bytes at {addr:#x} (private segment {:#x} bytes per lane)", w.scratch_size))
    }
}

fn read_loc(w: &Wave, sh: &Shared, lane: usize, loc: Loc, out: &mut [u8]) -> Result<(), Reason> {
    match loc {
        Loc::Global(a) => sh.mem.read(a, out).map_err(|e| e.to_string()),
        Loc::Lds(a) => {
            let r = lds_range(sh.lds.len(), a, out.len())?;
            out.copy_from_slice(&sh.lds[r]);
            Ok(())
        }
        Loc::Scratch(a) => {
            let r = scratch_range(w, lane, a, out.len())?;
            out.copy_from_slice(&w.scratch[r]);
            Ok(())
        }
        Loc::Discard => {
            out.fill(0);
            Ok(())
        }
    }
}

fn write_loc(w: &mut Wave, sh: &mut Shared, lane: usize, loc: Loc, data: &[u8]) -> Result<(), Reason> {
    match loc {
        Loc::Global(a) => sh.mem.write(a, data).map_err(|e| e.to_string()),
        Loc::Lds(a) => {
            let r = lds_range(sh.lds.len(), a, data.len())?;
            sh.lds[r].copy_from_slice(data);
            Ok(())
        }
        Loc::Scratch(a) => {
            let r = scratch_range(w, lane, a, data.len())?;
            w.scratch[r].copy_from_slice(data);
            Ok(())
        }
        Loc::Discard => Ok(()),
    }
}

/// Applies an atomic operation to an old value (32- or 64-bit); `data` and `data2` are the
/// operands in the order the instruction's family defines (see callers).
pub fn atomic_apply(op: Atomic, x2: bool, old: u64, data: u64, data2: u64) -> u64 {
    let w = |v: u64| if x2 { v } else { v & 0xffff_ffff };
    let (s_old, s_data) = if x2 { (old as i64, data as i64) } else { (old as u32 as i32 as i64, data as u32 as i32 as i64) };
    let f = |v: u64| if x2 { f64::from_bits(v) } else { f32::from_bits(v as u32) as f64 };
    let tof = |v: f64| if x2 { v.to_bits() } else { (v as f32).to_bits() as u64 };
    w(match op {
        Atomic::Swap => data,
        Atomic::CmpSwap | Atomic::FCmpSwap => {
            // data = new value, data2 = compare value.
            let eq = if op == Atomic::FCmpSwap { f(old) == f(data2) } else { w(old) == w(data2) };
            if eq {
                data
            } else {
                old
            }
        }
        Atomic::Add => old.wrapping_add(data),
        Atomic::Sub => old.wrapping_sub(data),
        Atomic::Rsub => data.wrapping_sub(old),
        Atomic::SMin => s_old.min(s_data) as u64,
        Atomic::SMax => s_old.max(s_data) as u64,
        Atomic::UMin => w(old).min(w(data)),
        Atomic::UMax => w(old).max(w(data)),
        Atomic::And => old & data,
        Atomic::Or => old | data,
        Atomic::Xor => old ^ data,
        Atomic::Inc => {
            if w(old) >= w(data) {
                0
            } else {
                old + 1
            }
        }
        Atomic::Dec => {
            if w(old) == 0 || w(old) > w(data) {
                data
            } else {
                old - 1
            }
        }
        Atomic::FMin | Atomic::FMax => {
            let (a, b) = (f(old), f(data));
            let max = op == Atomic::FMax;
            tof(if x2 { crate::float::minmax64(a, b, max, true) } else { crate::float::minmax32(a as f32, b as f32, max, true) as f64 })
        }
        Atomic::FAdd => {
            if x2 {
                (f(old) + f(data)).to_bits()
            } else {
                (f32::from_bits(old as u32) + f32::from_bits(data as u32)).to_bits() as u64
            }
        }
        Atomic::Mskor => (old & !data) | data2,
        Atomic::CondXchg32 => {
            // Each 32-bit half is replaced by its data half (bit 31 cleared) when that data
            // half's bit 31 is set: measured on RDNA2 hardware (seed 003).
            let mut r = old;
            for half in 0..2 {
                let d = (data >> (32 * half)) as u32;
                if d >> 31 != 0 {
                    r = r & !(0xffff_ffffu64 << (32 * half)) | ((d & 0x7fff_ffff) as u64) << (32 * half);
                }
            }
            r
        }
        Atomic::CSub => w(old).saturating_sub(w(data)),
        Atomic::Wrap => {
            if w(old) >= w(data) {
                old.wrapping_sub(data)
            } else {
                old.wrapping_add(data2)
            }
        }
    })
}

/// One lane's 32- or 64-bit operand starting at VGPR `r`.
fn vdata64(w: &Wave, r: u16, lane: usize, x2: bool) -> u64 {
    let lo = w.vr(r as usize, lane) as u64;
    if x2 {
        lo | (w.vr(r as usize + 1, lane) as u64) << 32
    } else {
        lo
    }
}

/// Writes a returned 32- or 64-bit value to VGPR `r` of one lane.
fn put_returned(w: &mut Wave, r: u16, lane: usize, v: u64, x2: bool) {
    w.set_vr(r as usize, lane, v as u32);
    if x2 {
        w.set_vr(r as usize + 1, lane, (v >> 32) as u32);
    }
}

/// Reads `n` dwords of VGPR data starting at register `r` for one lane.
fn vdata(w: &Wave, r: u16, lane: usize, n: usize, out: &mut [u8]) {
    for k in 0..n {
        out[4 * k..4 * k + 4].copy_from_slice(&w.vr(r as usize + k, lane).to_le_bytes());
    }
}

fn put_loaded(w: &mut Wave, vdst: u16, lane: usize, buf: &[u8], bytes: u8, sext: bool, d16: bool, hi: bool) {
    let n = bytes as usize;
    if n >= 4 {
        for k in 0..n / 4 {
            let v = u32::from_le_bytes(buf[4 * k..4 * k + 4].try_into().unwrap_or([0; 4]));
            w.set_vr(vdst as usize + k, lane, v);
        }
        return;
    }
    let raw = if n == 1 { buf[0] as u32 } else { u16::from_le_bytes([buf[0], buf[1]]) as u32 };
    let v = match (n, sext) {
        (1, true) => raw as u8 as i8 as i32 as u32,
        (2, true) => raw as u16 as i16 as i32 as u32,
        _ => raw,
    };
    if d16 {
        let old = w.vr(vdst as usize, lane);
        let nv = if hi { old & 0xffff | (v & 0xffff) << 16 } else { old & 0xffff_0000 | v & 0xffff };
        w.set_vr(vdst as usize, lane, nv);
    } else {
        w.set_vr(vdst as usize, lane, v);
    }
}

/// Performs an atomic at `loc` for one lane and returns the old value.
fn atomic_at(w: &mut Wave, sh: &mut Shared, lane: usize, loc: Loc, op: Atomic, x2: bool, data: u64, data2: u64) -> Result<u64, Reason> {
    match loc {
        Loc::Global(a) => {
            if x2 {
                sh.mem.atomic64(a, |old| atomic_apply(op, true, old, data, data2)).map_err(|e| e.to_string())
            } else {
                sh.mem.atomic32(a, |old| atomic_apply(op, false, old as u64, data, data2) as u32).map(|v| v as u64).map_err(|e| e.to_string())
            }
        }
        Loc::Discard => Ok(0),
        _ => {
            // LDS and scratch belong to this workgroup's thread: a read-modify-write is atomic.
            let n = if x2 { 8 } else { 4 };
            let mut b = [0u8; 8];
            read_loc(w, sh, lane, loc, &mut b[..n])?;
            let old = u64::from_le_bytes(b);
            let new = atomic_apply(op, x2, old, data, data2);
            write_loc(w, sh, lane, loc, &new.to_le_bytes()[..n])?;
            Ok(old)
        }
    }
}

/// A flat address to the memory it reaches.
fn flat_loc(a: u64) -> Loc {
    match (a >> 32) as u32 {
        SHARED_APERTURE_HI => Loc::Lds(a as u32),
        PRIVATE_APERTURE_HI => Loc::Scratch(a as u32),
        _ => Loc::Global(a),
    }
}

/// FLAT, GLOBAL, SCRATCH and MUBUF loads, stores and atomics.
pub fn mem(w: &mut Wave, sh: &mut Shared, st: &Step, k: MemKind) -> Result<(), Reason> {
    let raw = st.inst.raw;
    let f = st.inst.format;
    let exec = w.exec();
    let n = w.lanes;
    // Per-lane locations.
    let mut locs = [Loc::Discard; 64];
    if let MemKind::Addtid { store } = k {
        // SADDR + offset + 4 × lane: one dword per lane, no VGPR address.
        let saddr = st.inst.field(rdna_isa::Field::Saddr);
        let base = if saddr == src::NULL { 0 } else { w.read_s64(Src::Sgpr(saddr)) };
        let offset = ((bits(raw, 0, 12) << 20) as i32 >> 20) as i64;
        let reg = if store { bits(raw, 40, 8) } else { bits(raw, 56, 8) } as usize;
        for l in (0..n).filter(|l| exec >> l & 1 != 0) {
            let a = base.wrapping_add(offset as u64).wrapping_add(4 * l as u64);
            if store {
                let v = w.vr(reg, l).to_le_bytes();
                sh.mem.write(a, &v).map_err(|e| e.to_string())?;
            } else {
                let v = sh.mem.read_u32(a).map_err(|e| e.to_string())?;
                w.set_vr(reg, l, v);
            }
        }
        return Ok(());
    }
    let g11 = st.inst.gen == rdna_isa::Generation::Gfx11;
    let (vdst, data_reg, returns) = if matches!(f, Format::Mubuf | Format::Mtbuf) {
        let glc = bits(raw, 14, 1) != 0;
        (bits(raw, 40, 8) as u16, bits(raw, 40, 8) as u16, glc)
    } else {
        // A FLAT atomic returns the old value with glc (bit 16 on gfx10, 14 on gfx11).
        (bits(raw, 56, 8) as u16, bits(raw, 40, 8) as u16, bits(raw, if g11 { 14 } else { 16 }, 1) != 0)
    };
    match f {
        Format::Flat | Format::Global | Format::Scratch => {
            if !g11 && bits(raw, 13, 1) != 0 {
                return Err("FLAT loads into LDS (lds bit) are not emulated".into());
            }
            // Offsets: FLAT unsigned, GLOBAL/SCRATCH signed; 12 bits on gfx10, 13 on gfx11.
            let ow = if g11 { 13 } else { 12 };
            let off = bits(raw, 0, ow);
            let offset = if f == Format::Flat { off as i64 } else { ((off << (32 - ow)) as i32 >> (32 - ow)) as i64 };
            let saddr = st.inst.field(rdna_isa::Field::Saddr);
            let vaddr = bits(raw, 32, 8) as usize;
            // gfx11 scratch: the SVE bit says whether the VGPR address takes part.
            let sve = bits(raw, 55, 1) != 0;
            for l in 0..n {
                if exec >> l & 1 == 0 {
                    continue;
                }
                locs[l] = match f {
                    Format::Flat => flat_loc((w.vr(vaddr, l) as u64 | (w.vr(vaddr + 1, l) as u64) << 32).wrapping_add(offset as u64)),
                    Format::Global if saddr != src::NULL => {
                        Loc::Global(w.read_s64(Src::Sgpr(saddr)).wrapping_add(w.vr(vaddr, l) as u64).wrapping_add(offset as u64))
                    }
                    Format::Global => Loc::Global((w.vr(vaddr, l) as u64 | (w.vr(vaddr + 1, l) as u64) << 32).wrapping_add(offset as u64)),
                    _ if g11 => {
                        let v = if sve { w.vr(vaddr, l) } else { 0 };
                        let s = if saddr == src::NULL { 0 } else { w.read_s32(Src::Sgpr(saddr)) };
                        Loc::Scratch(v.wrapping_add(s).wrapping_add(offset as u32))
                    }
                    _ => {
                        let base = if matches!(saddr, src::NULL | src::EXEC_HI) { w.vr(vaddr, l) } else { w.read_s32(Src::Sgpr(saddr)) };
                        Loc::Scratch(base.wrapping_add(offset as u32))
                    }
                };
            }
        }
        Format::Mubuf | Format::Mtbuf => {
            if (f == Format::Mubuf && !g11 && bits(raw, 16, 1) != 0) || bits(raw, if g11 { 53 } else { 55 }, 1) != 0 {
                return Err("buffer lds/tfe forms are not emulated".into());
            }
            let srsrc = (bits(raw, 48, 5) * 4) as u16;
            let rs = [0, 1, 2, 3].map(|i| w.read_s32(Src::Sgpr(srsrc + i)));
            let base = rs[0] as u64 | ((rs[1] & 0xffff) as u64) << 32;
            let stride = (rs[1] >> 16 & 0x3fff) as u64;
            let num_records = rs[2] as u64;
            let add_tid = rs[3] >> 23 & 1 != 0;
            if rs[1] >> 30 != 0 && base < SCRATCH_BUFFER_BASE {
                return Err("swizzled buffer resources are not emulated".into());
            }
            let soffset = st.inst.field(rdna_isa::Field::Soffset);
            let soff = w.read_s32(if soffset == src::NULL { Src::Const(0) } else { src_of(soffset) }) as u64;
            let inst_off = bits(raw, 0, 12) as u64;
            let (offen, idxen) = if g11 { (bits(raw, 54, 1) != 0, bits(raw, 55, 1) != 0) } else { (bits(raw, 12, 1) != 0, bits(raw, 13, 1) != 0) };
            let vaddr = bits(raw, 32, 8) as usize;
            let size = match k {
                MemKind::Format { .. } => {
                    let n = if f == Format::Mtbuf { bits(raw, 19, 7) } else { rs[3] >> 12 & 0x7f };
                    crate::bufmt::BufFormat::from_number(st.inst.gen, n).map_or(1, |b| b.bytes()) as u64
                }
                _ => mem_size(k) as u64,
            };
            for l in 0..n {
                if exec >> l & 1 == 0 {
                    continue;
                }
                let mut index = if idxen { w.vr(vaddr, l) as u64 } else { 0 };
                if add_tid {
                    index += l as u64;
                }
                let voff = if offen { w.vr(vaddr + idxen as usize, l) as u64 } else { 0 };
                let offset = voff + inst_off;
                let oob = if stride == 0 { offset + size > num_records } else { index >= num_records };
                let a = base.wrapping_add(soff).wrapping_add(offset).wrapping_add(stride * index);
                locs[l] = if oob {
                    Loc::Discard
                } else if (SCRATCH_BUFFER_BASE..SCRATCH_BUFFER_BASE + (1 << 32)).contains(&a) {
                    Loc::Scratch((a - SCRATCH_BUFFER_BASE) as u32)
                } else {
                    Loc::Global(a)
                };
            }
        }
        _ => return Err("not a vector memory instruction".into()),
    }
    let mut buf = [0u8; 16];
    match k {
        MemKind::Addtid { .. } => {}
        MemKind::Format { store, comps, d16, hi } => {
            let srsrc = (bits(raw, 48, 5) * 4) as u16;
            let word3 = w.read_s32(Src::Sgpr(srsrc + 3));
            let fmt_num = if f == Format::Mtbuf { bits(raw, 19, 7) } else { word3 >> 12 & 0x7f };
            let fmt = crate::bufmt::BufFormat::from_number(st.inst.gen, fmt_num).ok_or_else(|| format!("buffer format {fmt_num} is not valid"))?;
            let size = fmt.bytes();
            let one = if matches!(fmt.num, crate::bufmt::NumFmt::Uint | crate::bufmt::NumFmt::Sint) { 1 } else { 1.0f32.to_bits() };
            let regs = if d16 { (comps as usize).div_ceil(2) } else { comps as usize };
            for l in (0..n).filter(|l| exec >> l & 1 != 0) {
                let mut elem = [0u8; 16];
                read_loc(w, sh, l, locs[l], &mut elem[..size])?;
                if store {
                    let mut vals = [0u32; 4];
                    for (c, v) in vals.iter_mut().enumerate().take(comps as usize) {
                        *v = if d16 {
                            let r = w.vr(data_reg as usize + c / 2, l);
                            let h = if hi { r >> 16 } else { r >> (16 * (c % 2)) } as u16;
                            // 16-bit data: floats widen from f16, integers from the low bits.
                            if one == 1 { h as u32 } else { half::f16::from_bits(h).to_f32().to_bits() }
                        } else {
                            w.vr(data_reg as usize + c, l)
                        };
                    }
                    let packed = fmt.pack(&vals, comps as usize, &elem[..size])?;
                    write_loc(w, sh, l, locs[l], &packed)?;
                } else {
                    let raw_comps = fmt.unpack(&elem[..size])?;
                    let sel = [0, 3, 6, 9].map(|s| word3 >> s & 7);
                    let comps_v: Vec<u32> = (0..comps as usize).map(|c| crate::bufmt::dst_sel(sel[c], &raw_comps, one)).collect();
                    if d16 {
                        let h = |v: u32| if one == 1 { v & 0xffff } else { half::f16::from_f32(f32::from_bits(v)).to_bits() as u32 };
                        if hi {
                            let old = w.vr(vdst_for_load(f, vdst, data_reg) as usize, l);
                            w.set_vr(vdst_for_load(f, vdst, data_reg) as usize, l, old & 0xffff | h(comps_v[0]) << 16);
                        } else {
                            for r in 0..regs {
                                let lo = h(comps_v[2 * r]);
                                let hi16 = comps_v.get(2 * r + 1).map_or(0, |&v| h(v));
                                w.set_vr(data_reg as usize + r, l, lo | hi16 << 16);
                            }
                        }
                    } else {
                        for (c, v) in comps_v.iter().enumerate() {
                            w.set_vr(data_reg as usize + c, l, *v);
                        }
                    }
                }
            }
        }
        MemKind::Load { bytes, sext, d16, hi } => {
            for l in 0..n {
                if exec >> l & 1 == 0 {
                    continue;
                }
                read_loc(w, sh, l, locs[l], &mut buf[..bytes as usize])?;
                put_loaded(w, vdst_for_load(f, vdst, data_reg), l, &buf, bytes, sext, d16, hi);
            }
        }
        MemKind::Store { bytes, hi } => {
            for l in 0..n {
                if exec >> l & 1 == 0 {
                    continue;
                }
                let nb = bytes as usize;
                vdata(w, data_reg, l, nb.div_ceil(4), &mut buf);
                if hi {
                    buf.copy_within(2..4, 0);
                }
                let data = buf;
                write_loc(w, sh, l, locs[l], &data[..nb])?;
            }
        }
        MemKind::Atomic { op, x2 } => {
            let dw = if x2 { 2 } else { 1 };
            for l in 0..n {
                if exec >> l & 1 == 0 {
                    continue;
                }
                let data = vdata64(w, data_reg, l, x2);
                // cmpswap: {new, cmp} in consecutive registers.
                let data2 = if matches!(op, Atomic::CmpSwap | Atomic::FCmpSwap) { vdata64(w, data_reg + dw, l, x2) } else { 0 };
                let old = atomic_at(w, sh, l, locs[l], op, x2, data, data2)?;
                if returns {
                    put_returned(w, if f == Format::Mubuf { data_reg } else { vdst }, l, old, x2);
                }
            }
        }
    }
    Ok(())
}

fn vdst_for_load(f: Format, vdst: u16, data: u16) -> u16 {
    if f == Format::Mubuf {
        data
    } else {
        vdst
    }
}

fn src_of(v: u16) -> Src {
    match v {
        0..=127 => Src::Sgpr(v),
        128..=192 => Src::Const(v as u64 - 128),
        193..=208 => Src::Const((192 - v as i64) as u64),
        _ => Src::Const(0),
    }
}

fn mem_size(k: MemKind) -> u8 {
    match k {
        MemKind::Load { bytes, .. } | MemKind::Store { bytes, .. } => bytes,
        MemKind::Atomic { x2, .. } => {
            if x2 {
                8
            } else {
                4
            }
        }
        MemKind::Addtid { .. } => 4,
        // Typed accesses take their size from the buffer format (see the caller).
        MemKind::Format { .. } => 4,
    }
}

/// LDS instructions and the DS lane permutes.
pub fn ds(w: &mut Wave, sh: &mut Shared, st: &Step, k: DsKind) -> Result<(), Reason> {
    let raw = st.inst.raw;
    if bits(raw, 17, 1) != 0 {
        return Err("GDS is not available to compute dispatches here".into());
    }
    let exec = w.exec();
    let n = w.lanes;
    let (off0, off1) = (bits(raw, 0, 8), bits(raw, 8, 8));
    let offset = off0 | off1 << 8;
    let addr_r = bits(raw, 32, 8) as usize;
    let d0 = bits(raw, 40, 8) as u16;
    let d1 = bits(raw, 48, 8) as u16;
    let vdst = bits(raw, 56, 8) as u16;
    let addr = |w: &Wave, l: usize| w.vr(addr_r, l);
    let mut buf = [0u8; 16];
    match k {
        DsKind::Nop => {}
        DsKind::Read { bytes, sext, d16, hi } => {
            for l in (0..n).filter(|l| exec >> l & 1 != 0) {
                let a = addr(w, l).wrapping_add(offset);
                read_loc(w, sh, l, Loc::Lds(a), &mut buf[..bytes as usize])?;
                put_loaded(w, vdst, l, &buf, bytes, sext, d16, hi);
            }
        }
        DsKind::Write { bytes, hi } => {
            for l in (0..n).filter(|l| exec >> l & 1 != 0) {
                let a = addr(w, l).wrapping_add(offset);
                vdata(w, d0, l, (bytes as usize).div_ceil(4), &mut buf);
                if hi {
                    buf.copy_within(2..4, 0);
                }
                let data = buf;
                write_loc(w, sh, l, Loc::Lds(a), &data[..bytes as usize])?;
            }
        }
        DsKind::Read2 { bytes, st64 } | DsKind::Write2 { bytes, st64 } | DsKind::Xchg2 { bytes, st64 } => {
            let stride = bytes as u32 * if st64 { 64 } else { 1 };
            let dw = bytes as usize / 4;
            for l in (0..n).filter(|l| exec >> l & 1 != 0) {
                let base = addr(w, l);
                for (i, o) in [off0, off1].into_iter().enumerate() {
                    let a = base.wrapping_add(o * stride);
                    let dr = if i == 0 { d0 } else { d1 };
                    match k {
                        DsKind::Read2 { .. } => {
                            read_loc(w, sh, l, Loc::Lds(a), &mut buf[..bytes as usize])?;
                            put_loaded(w, vdst + (i * dw) as u16, l, &buf, bytes, false, false, false);
                        }
                        DsKind::Write2 { .. } => {
                            vdata(w, dr, l, dw, &mut buf);
                            let data = buf;
                            write_loc(w, sh, l, Loc::Lds(a), &data[..bytes as usize])?;
                        }
                        _ => {
                            let mut old = [0u8; 8];
                            read_loc(w, sh, l, Loc::Lds(a), &mut old[..bytes as usize])?;
                            vdata(w, dr, l, dw, &mut buf);
                            let data = buf;
                            write_loc(w, sh, l, Loc::Lds(a), &data[..bytes as usize])?;
                            put_loaded(w, vdst + (i * dw) as u16, l, &old, bytes, false, false, false);
                        }
                    }
                }
            }
        }
        DsKind::Atomic { op, x2, rtn } => {
            for l in (0..n).filter(|l| exec >> l & 1 != 0) {
                let a = addr(w, l).wrapping_add(offset);
                let (x, y) = (vdata64(w, d0, l, x2), vdata64(w, d1, l, x2));
                // gfx10 ds_cmpst: DATA0 is the compare value, DATA1 the new value.
                let (data, data2) = match op {
                    Atomic::CmpSwap | Atomic::FCmpSwap => (y, x),
                    _ => (x, y),
                };
                let old = atomic_at(w, sh, l, Loc::Lds(a), op, x2, data, data2)?;
                if rtn {
                    put_returned(w, vdst, l, old, x2);
                }
            }
        }
        DsKind::CmpStore { op, x2, rtn } => {
            for l in (0..n).filter(|l| exec >> l & 1 != 0) {
                let a = addr(w, l).wrapping_add(offset);
                let (new, cmp) = (vdata64(w, d0, l, x2), vdata64(w, d1, l, x2));
                let old = atomic_at(w, sh, l, Loc::Lds(a), op, x2, new, cmp)?;
                if rtn {
                    put_returned(w, vdst, l, old, x2);
                }
            }
        }
        DsKind::Swizzle => {
            // The data operand sits in the ADDR field.
            let input: Vec<u32> = (0..n).map(|l| w.vr(addr_r, l)).collect();
            for l in (0..n).filter(|l| exec >> l & 1 != 0) {
                let j = if offset & 0x8000 != 0 {
                    (l & !3) | (offset as usize >> (2 * (l & 3)) & 3)
                } else if offset < 0x8000 {
                    let (and, or, xor) = (offset as usize & 31, offset as usize >> 5 & 31, offset as usize >> 10 & 31);
                    (l & !31) | ((((l & 31) & and) | or) ^ xor)
                } else {
                    return Err(format!("ds_swizzle offset {offset:#x} (FFT/rotate mode) is not emulated"));
                };
                let v = if exec >> j & 1 != 0 { input[j] } else { 0 };
                w.set_vr(vdst as usize, l, v);
            }
        }
        DsKind::Permute | DsKind::Bpermute => {
            let mut tmp = [0u32; 64];
            for l in (0..n).filter(|l| exec >> l & 1 != 0) {
                let other = (l & !31) | ((addr(w, l).wrapping_add(offset) / 4) as usize % 32);
                if k == DsKind::Bpermute {
                    if exec >> other & 1 != 0 {
                        tmp[l] = w.vr(d0 as usize, other);
                    }
                } else {
                    tmp[other] = w.vr(d0 as usize, l);
                }
            }
            for l in (0..n).filter(|l| exec >> l & 1 != 0) {
                w.set_vr(vdst as usize, l, tmp[l]);
            }
        }
        DsKind::Append | DsKind::Consume => {
            // One atomic add/sub of the active-lane count at M0's base + offset; every lane gets
            // the old value.
            let a = (w.s[sreg::M0] & 0xffff).wrapping_add(offset);
            let cnt = exec.count_ones();
            let mut b4 = [0u8; 4];
            read_loc(w, sh, 0, Loc::Lds(a), &mut b4)?;
            let old = u32::from_le_bytes(b4);
            let new = if k == DsKind::Append { old.wrapping_add(cnt) } else { old.wrapping_sub(cnt) };
            write_loc(w, sh, 0, Loc::Lds(a), &new.to_le_bytes())?;
            for l in (0..n).filter(|l| exec >> l & 1 != 0) {
                w.set_vr(vdst as usize, l, old);
            }
        }
        DsKind::ReadAddtid | DsKind::WriteAddtid => {
            let m0 = w.s[sreg::M0] & 0xffff;
            for l in (0..n).filter(|l| exec >> l & 1 != 0) {
                let a = m0.wrapping_add(offset).wrapping_add(4 * l as u32);
                if k == DsKind::ReadAddtid {
                    read_loc(w, sh, l, Loc::Lds(a), &mut buf[..4])?;
                    put_loaded(w, vdst, l, &buf, 4, false, false, false);
                } else {
                    let v = w.vr(d0 as usize, l).to_le_bytes();
                    write_loc(w, sh, l, Loc::Lds(a), &v)?;
                }
            }
        }
    }
    Ok(())
}
