//! LDS (DS instructions), mirroring `rdna_emu::vmem::ds`: byte-addressed accesses to the
//! workgroup array of dwords, bounds-checked as the emulator checks them (out of bounds stops
//! the run with `STATUS_LDS_OUT_OF_BOUNDS`), and read-modify-write atomics. In the exact model
//! they are atomic because one invocation runs the whole workgroup; in the subgroup model a
//! wave's atomics run lane after lane under the workgroup's LDS lock ([`Gen::lanes_in_order`]),
//! and a write of part of a dword clears and sets its bytes with atomic and/or. A whole dword
//! at a multiple of four (what compilers emit) is one plain load or store in both models.

use rdna_emu::program::Step;
use rdna_emu::sem::{Atomic, DsKind};
use rspirv::spirv::{GLOp, Op, StorageClass, Word};

use super::{Gen, Lowered};

fn bits(raw: u64, lo: u32, n: u32) -> u32 {
    ((raw >> lo) & ((1u64 << n) - 1)) as u32
}

impl Gen {
    pub(super) fn lds_ptr_type(&mut self) -> Word {
        let u = self.t.u32;
        self.cached_type(super::valu::CachedType::LdsU32Ptr, |b| b.type_pointer(None, StorageClass::Workgroup, u))
    }

    /// Pointer to LDS dword `idx`, clamped into the array (callers check bounds first; the
    /// clamp only keeps a faulting run from touching memory outside it).
    fn lds_dword(&mut self, idx: Word) -> Word {
        self.touched_memory = true;
        let last = self.c32(self.lds_bytes.div_ceil(4).max(1) - 1);
        let i = self.gl(GLOp::UMin, self.t.u32, &[idx, last]);
        let pt = self.lds_ptr_type();
        self.b.access_chain(pt, None, self.lds, [i]).unwrap()
    }

    /// Checks `n` bytes at `a` lie inside LDS; outside, the run stops with the LDS status.
    pub(super) fn lds_check(&mut self, a: Word, n: u32) {
        // a + n > size, in 32 bits: a > size - n (always out when the LDS is smaller than n).
        let out = match self.lds_bytes.checked_sub(n) {
            Some(last) => {
                let last = self.c32(last);
                self.op(Op::UGreaterThan, self.t.bool, &[a, last])
            }
            None => self.b.constant_true(self.t.bool),
        };
        self.if_then(out, &mut |g: &mut Gen| g.fail(crate::STATUS_LDS_OUT_OF_BOUNDS));
    }

    /// Four bytes at any byte address `a` (little-endian): one dword where `a` is a multiple of
    /// four (what compilers emit), else from the two dwords they touch.
    pub(super) fn lds_read32(&mut self, a: Word) -> Word {
        let u = self.t.u32;
        let c2 = self.c32(2);
        let idx = self.op(Op::ShiftRightLogical, u, &[a, c2]);
        let aligned = self.dword_aligned(a);
        self.if_else_value(
            aligned,
            u,
            &mut |g: &mut Gen| {
                let p = g.lds_dword(idx);
                g.b.load(u, None, p, None, []).unwrap()
            },
            &mut |g: &mut Gen| g.lds_read32_straddling(a, idx),
        )
    }

    /// Whether byte address `a` is a multiple of four.
    fn dword_aligned(&mut self, a: Word) -> Word {
        let (m3, z) = (self.c32(3), self.c32(0));
        let low = self.op(Op::BitwiseAnd, self.t.u32, &[a, m3]);
        self.op(Op::IEqual, self.t.bool, &[low, z])
    }

    /// [`Gen::lds_read32`] at an address that is not a multiple of four (dword `idx` holds its
    /// first byte).
    fn lds_read32_straddling(&mut self, a: Word, idx: Word) -> Word {
        let (u, u64t) = (self.t.u32, self.t.u64);
        let lo_p = self.lds_dword(idx);
        let lo = self.b.load(u, None, lo_p, None, []).unwrap();
        let one = self.c32(1);
        let idx1 = self.op(Op::IAdd, u, &[idx, one]);
        let hi_p = self.lds_dword(idx1);
        let hi = self.b.load(u, None, hi_p, None, []).unwrap();
        let pair = self.join64(lo, hi);
        let (m3, c3) = (self.c32(3), self.c32(3));
        let sh = self.op(Op::BitwiseAnd, u, &[a, m3]);
        let sh = self.op(Op::ShiftLeftLogical, u, &[sh, c3]);
        let sh = self.op(Op::UConvert, u64t, &[sh]);
        let v = self.op(Op::ShiftRightLogical, u64t, &[pair, sh]);
        self.op(Op::UConvert, u, &[v])
    }

    /// Writes the low `n` (1 to 4) bytes of `v` at byte address `a`: a whole dword at a multiple
    /// of four is stored as it is, the rest merged into the one or two dwords they touch.
    pub(super) fn lds_write(&mut self, a: Word, v: Word, n: u32) {
        if n == 4 {
            let aligned = self.dword_aligned(a);
            self.if_else(
                aligned,
                &mut |g: &mut Gen| {
                    let c2 = g.c32(2);
                    let idx = g.op(Op::ShiftRightLogical, g.t.u32, &[a, c2]);
                    let p = g.lds_dword(idx);
                    g.b.store(p, v, None, []).unwrap();
                },
                &mut |g: &mut Gen| g.lds_merge(a, v, n),
            );
        } else {
            self.lds_merge(a, v, n);
        }
    }

    /// Writes the low `n` bytes of `v` at `a` into the dwords they touch, keeping their other
    /// bytes.
    fn lds_merge(&mut self, a: Word, v: Word, n: u32) {
        let (u, u64t) = (self.t.u32, self.t.u64);
        let c2 = self.c32(2);
        let idx = self.op(Op::ShiftRightLogical, u, &[a, c2]);
        let (m3, c3) = (self.c32(3), self.c32(3));
        let sh = self.op(Op::BitwiseAnd, u, &[a, m3]);
        let sh = self.op(Op::ShiftLeftLogical, u, &[sh, c3]);
        let sh = self.op(Op::UConvert, u64t, &[sh]);
        let bytes = self.c64(if n == 4 { 0xffff_ffff } else { (1u64 << (8 * n)) - 1 });
        let m = self.op(Op::ShiftLeftLogical, u64t, &[bytes, sh]);
        let v64 = self.op(Op::UConvert, u64t, &[v]);
        let v64 = self.op(Op::BitwiseAnd, u64t, &[v64, bytes]);
        let d = self.op(Op::ShiftLeftLogical, u64t, &[v64, sh]);
        let one = self.c32(1);
        let idx1 = self.op(Op::IAdd, u, &[idx, one]);
        for (half, i) in [(0u64, idx), (32, idx1)] {
            let ch = self.c64(half);
            let mh = self.op(Op::ShiftRightLogical, u64t, &[m, ch]);
            let mh = self.op(Op::UConvert, u, &[mh]);
            let dh = self.op(Op::ShiftRightLogical, u64t, &[d, ch]);
            let dh = self.op(Op::UConvert, u, &[dh]);
            let z = self.c32(0);
            let touched = self.op(Op::INotEqual, self.t.bool, &[mh, z]);
            self.if_then(touched, &mut |g: &mut Gen| {
                let p = g.lds_dword(i);
                let keep = g.op(Op::Not, u, &[mh]);
                if g.own_lane.is_some() {
                    // Other lanes may write the dword's other bytes at the same time.
                    let scope = g.c32(rspirv::spirv::Scope::Workgroup as u32);
                    let sem = g.c32(0);
                    g.b.atomic_and(u, None, p, scope, sem, keep).unwrap();
                    g.b.atomic_or(u, None, p, scope, sem, dh).unwrap();
                    return;
                }
                let old = g.b.load(u, None, p, None, []).unwrap();
                let kept = g.op(Op::BitwiseAnd, u, &[old, keep]);
                let new = g.op(Op::BitwiseOr, u, &[kept, dh]);
                g.b.store(p, new, None, []).unwrap();
            });
        }
    }

    /// One lane's 32- or 64-bit operand at VGPR `r`.
    fn vdata64(&mut self, r: u16, lane: Word, x2: bool) -> Result<Word, String> {
        let lo = self.rd_v(r, lane)?;
        if x2 {
            let hi = self.rd_v(r + 1, lane)?;
            Ok(self.join64(lo, hi))
        } else {
            Ok(self.op(Op::UConvert, self.t.u64, &[lo]))
        }
    }

    fn put_returned(&mut self, r: u16, lane: Word, v: Word, x2: bool) -> Lowered {
        let (lo, hi) = self.split64(v);
        self.wr_v(r, lane, lo)?;
        if x2 {
            self.wr_v(r + 1, lane, hi)?;
        }
        Ok(())
    }

    /// `rdna_emu::vmem::atomic_apply` for the integer operations, on u64 values (32-bit
    /// operations use the low halves and give a zero-extended result).
    pub(super) fn atomic_apply(&mut self, op: Atomic, x2: bool, old: Word, data: Word, data2: Word) -> Result<Word, String> {
        let (u64t, boolt) = (self.t.u64, self.t.bool);
        let mask = self.c64(if x2 { u64::MAX } else { 0xffff_ffff });
        let w = |g: &mut Gen, v: Word| g.op(Op::BitwiseAnd, u64t, &[v, mask]);
        // Signed views: sign-extended from bit 31 for 32-bit operations.
        let sx = |g: &mut Gen, v: Word| {
            if x2 {
                v
            } else {
                let c32 = g.c64(32);
                let t = g.op(Op::ShiftLeftLogical, u64t, &[v, c32]);
                g.op(Op::ShiftRightArithmetic, u64t, &[t, c32])
            }
        };
        let (wo, wd) = (w(self, old), w(self, data));
        let r = match op {
            Atomic::Swap => data,
            Atomic::CmpSwap => {
                let wd2 = w(self, data2);
                let eq = self.op(Op::IEqual, boolt, &[wo, wd2]);
                self.sel(u64t, eq, data, old)
            }
            Atomic::Add => self.op(Op::IAdd, u64t, &[old, data]),
            // ds_add_f32 / ds_add_rtn_f32: an f32 add of the low halves, rounded once.
            Atomic::FAdd if !x2 => {
                let (u, f) = (self.t.u32, self.t.f32);
                let (o, d) = (self.op(Op::UConvert, u, &[old]), self.op(Op::UConvert, u, &[data]));
                let (fo, fd) = (self.op(Op::Bitcast, f, &[o]), self.op(Op::Bitcast, f, &[d]));
                let sum = self.op(Op::FAdd, f, &[fo, fd]);
                let bits = self.op(Op::Bitcast, u, &[sum]);
                self.op(Op::UConvert, u64t, &[bits])
            }
            Atomic::FMin | Atomic::FMax => {
                // As `rdna_emu::float::minmax32/64` in IEEE mode.
                if x2 {
                    self.fminmax(true, old, data, op == Atomic::FMax)
                } else {
                    let u = self.t.u32;
                    let (o, d) = (self.op(Op::UConvert, u, &[old]), self.op(Op::UConvert, u, &[data]));
                    let r = self.fminmax(false, o, d, op == Atomic::FMax);
                    self.op(Op::UConvert, u64t, &[r])
                }
            }
            Atomic::FCmpSwap => {
                // Float equality (-0 equals +0, NaN nothing): data = new value, data2 = compare.
                let eq = if x2 {
                    let ft = self.f64t();
                    let (a, b) = (self.op(Op::Bitcast, ft, &[old]), self.op(Op::Bitcast, ft, &[data2]));
                    self.op(Op::FOrdEqual, boolt, &[a, b])
                } else {
                    let (u, f) = (self.t.u32, self.t.f32);
                    let (a, b) = (self.op(Op::UConvert, u, &[old]), self.op(Op::UConvert, u, &[data2]));
                    let (a, b) = (self.op(Op::Bitcast, f, &[a]), self.op(Op::Bitcast, f, &[b]));
                    self.op(Op::FOrdEqual, boolt, &[a, b])
                };
                self.sel(u64t, eq, data, old)
            }
            Atomic::CSub => {
                let ge = self.op(Op::UGreaterThanEqual, boolt, &[wo, wd]);
                let d = self.op(Op::ISub, u64t, &[wo, wd]);
                let z = self.c64(0);
                self.sel(u64t, ge, d, z)
            }
            Atomic::Sub => self.op(Op::ISub, u64t, &[old, data]),
            Atomic::Rsub => self.op(Op::ISub, u64t, &[data, old]),
            Atomic::SMin | Atomic::SMax => {
                let (so, sd) = (sx(self, old), sx(self, data));
                let pick_old = self.op(if op == Atomic::SMin { Op::SLessThan } else { Op::SGreaterThan }, boolt, &[so, sd]);
                self.sel(u64t, pick_old, so, sd)
            }
            Atomic::UMin => self.gl(GLOp::UMin, u64t, &[wo, wd]),
            Atomic::UMax => self.gl(GLOp::UMax, u64t, &[wo, wd]),
            Atomic::And => self.op(Op::BitwiseAnd, u64t, &[old, data]),
            Atomic::Or => self.op(Op::BitwiseOr, u64t, &[old, data]),
            Atomic::Xor => self.op(Op::BitwiseXor, u64t, &[old, data]),
            Atomic::Inc => {
                let wrap = self.op(Op::UGreaterThanEqual, boolt, &[wo, wd]);
                let (one, z) = (self.c64(1), self.c64(0));
                let up = self.op(Op::IAdd, u64t, &[old, one]);
                self.sel(u64t, wrap, z, up)
            }
            Atomic::Dec => {
                let z = self.c64(0);
                let is0 = self.op(Op::IEqual, boolt, &[wo, z]);
                let above = self.op(Op::UGreaterThan, boolt, &[wo, wd]);
                let reset = self.op(Op::LogicalOr, boolt, &[is0, above]);
                let one = self.c64(1);
                let down = self.op(Op::ISub, u64t, &[old, one]);
                self.sel(u64t, reset, data, down)
            }
            Atomic::Mskor => {
                let nd = self.op(Op::Not, u64t, &[data]);
                let k = self.op(Op::BitwiseAnd, u64t, &[old, nd]);
                self.op(Op::BitwiseOr, u64t, &[k, data2])
            }
            Atomic::CondXchg32 => {
                // Each 32-bit half takes its data half (bit 31 cleared) when that half's bit 31
                // is set (measured on RDNA2 hardware, seed 003).
                let mut r = old;
                for half in 0..2u64 {
                    let top = self.c64(1 << (32 * half + 31));
                    let t = self.op(Op::BitwiseAnd, u64t, &[data, top]);
                    let z = self.c64(0);
                    let set = self.op(Op::INotEqual, boolt, &[t, z]);
                    let field = self.c64(0x7fff_ffffu64 << (32 * half));
                    let whole = self.c64(0xffff_ffffu64 << (32 * half));
                    let nf = self.op(Op::Not, u64t, &[whole]);
                    let kept = self.op(Op::BitwiseAnd, u64t, &[r, nf]);
                    let put = self.op(Op::BitwiseAnd, u64t, &[data, field]);
                    let nr = self.op(Op::BitwiseOr, u64t, &[kept, put]);
                    r = self.sel(u64t, set, nr, r);
                }
                r
            }
            Atomic::Wrap => {
                let ge = self.op(Op::UGreaterThanEqual, boolt, &[wo, wd]);
                let s = self.op(Op::ISub, u64t, &[old, data]);
                let a = self.op(Op::IAdd, u64t, &[old, data2]);
                self.sel(u64t, ge, s, a)
            }
            other => return Err(format!("internal: LDS atomic {other:?} admitted by `supports` without a lowering")),
        };
        Ok(w(self, r))
    }

    /// `bytes` (4 or 8) bytes at `a` as a u64.
    fn lds_read64(&mut self, a: Word, x2: bool) -> Word {
        let lo = self.lds_read32(a);
        if x2 {
            let four = self.c32(4);
            let a4 = self.op(Op::IAdd, self.t.u32, &[a, four]);
            let hi = self.lds_read32(a4);
            self.join64(lo, hi)
        } else {
            self.op(Op::UConvert, self.t.u64, &[lo])
        }
    }

    fn lds_write64(&mut self, a: Word, v: Word, x2: bool) {
        let (lo, hi) = self.split64(v);
        self.lds_write(a, lo, 4);
        if x2 {
            let four = self.c32(4);
            let a4 = self.op(Op::IAdd, self.t.u32, &[a, four]);
            self.lds_write(a4, hi, 4);
        }
    }

    pub(super) fn ds(&mut self, st: &Step, k: DsKind) -> Lowered {
        let raw = st.inst.raw;
        if bits(raw, 17, 1) != 0 {
            return Err("GDS is not available to compute dispatches".into());
        }
        if self.lds_bytes == 0 && !matches!(k, DsKind::Nop | DsKind::Swizzle | DsKind::Permute | DsKind::Bpermute) {
            return Err("a DS instruction in a kernel without LDS".into());
        }
        let (off0, off1) = (bits(raw, 0, 8), bits(raw, 8, 8));
        let offset = off0 | off1 << 8;
        let addr_r = bits(raw, 32, 8) as u16;
        let d0 = bits(raw, 40, 8) as u16;
        let d1 = bits(raw, 48, 8) as u16;
        let vdst = bits(raw, 56, 8) as u16;
        match k {
            DsKind::Nop => Ok(()),
            DsKind::Read { bytes, sext, d16, hi } => self.lanes_loop(true, &mut |g: &mut Gen, lane: Word| {
                let a = g.ds_addr(addr_r, offset, lane)?;
                g.lds_check(a, bytes as u32);
                if bytes >= 4 {
                    for i in 0..bytes as u32 / 4 {
                        let o = g.c32(4 * i);
                        let ai = g.op(Op::IAdd, g.t.u32, &[a, o]);
                        let v = g.lds_read32(ai);
                        g.wr_v(vdst + i as u16, lane, v)?;
                    }
                    return Ok(());
                }
                let v = g.lds_read32(a);
                let (z, w) = (g.c32(0), g.c32(8 * bytes as u32));
                let mut v = g.op(if sext { Op::BitFieldSExtract } else { Op::BitFieldUExtract }, g.t.u32, &[v, z, w]);
                if d16 {
                    let old = g.rd_v(vdst, lane)?;
                    v = g.merge_half(old, v, hi);
                }
                g.wr_v(vdst, lane, v)
            }),
            DsKind::Write { bytes, hi } => self.lanes_loop(true, &mut |g: &mut Gen, lane: Word| {
                let a = g.ds_addr(addr_r, offset, lane)?;
                g.lds_check(a, bytes as u32);
                for i in 0..(bytes as u32).div_ceil(4) {
                    let o = g.c32(4 * i);
                    let ai = g.op(Op::IAdd, g.t.u32, &[a, o]);
                    let mut v = g.rd_v(d0 + i as u16, lane)?;
                    if hi {
                        let c16 = g.c32(16);
                        v = g.op(Op::ShiftRightLogical, g.t.u32, &[v, c16]);
                    }
                    g.lds_write(ai, v, (bytes as u32).min(4));
                }
                Ok(())
            }),
            DsKind::Read2 { bytes, st64 } | DsKind::Write2 { bytes, st64 } => {
                let read = matches!(k, DsKind::Read2 { .. });
                let stride = bytes as u32 * if st64 { 64 } else { 1 };
                let dw = bytes as u16 / 4;
                self.lanes_loop(true, &mut |g: &mut Gen, lane: Word| {
                    let base = g.rd_v(addr_r, lane)?;
                    for (i, o) in [off0, off1].into_iter().enumerate() {
                        let co = g.c32(o.wrapping_mul(stride));
                        let a = g.op(Op::IAdd, g.t.u32, &[base, co]);
                        g.lds_check(a, bytes as u32);
                        for j in 0..dw {
                            let cj = g.c32(4 * j as u32);
                            let aj = g.op(Op::IAdd, g.t.u32, &[a, cj]);
                            if read {
                                let v = g.lds_read32(aj);
                                g.wr_v(vdst + i as u16 * dw + j, lane, v)?;
                            } else {
                                let v = g.rd_v(if i == 0 { d0 } else { d1 } + j, lane)?;
                                g.lds_write(aj, v, 4);
                            }
                        }
                    }
                    Ok(())
                })
            }
            // `ds_wrxchg2*_rtn` / `ds_storexchg_2addr*_rtn`: at each of the two addresses in
            // turn, the old value read, DATA0/DATA1 written, the old value returned; lane after
            // lane, as the emulator (lanes may share addresses).
            DsKind::Xchg2 { bytes, st64 } => {
                let stride = bytes as u32 * if st64 { 64 } else { 1 };
                let dw = bytes as u16 / 4;
                self.lanes_in_order(&mut |g: &mut Gen, lane: Word| {
                    let base = g.rd_v(addr_r, lane)?;
                    for (i, o) in [off0, off1].into_iter().enumerate() {
                        let co = g.c32(o.wrapping_mul(stride));
                        let a = g.op(Op::IAdd, g.t.u32, &[base, co]);
                        g.lds_check(a, bytes as u32);
                        let at: Vec<Word> = (0..dw)
                            .map(|j| {
                                let cj = g.c32(4 * j as u32);
                                g.op(Op::IAdd, g.t.u32, &[a, cj])
                            })
                            .collect();
                        let old: Vec<Word> = at.iter().map(|&aj| g.lds_read32(aj)).collect();
                        for (j, &aj) in at.iter().enumerate() {
                            let v = g.rd_v(if i == 0 { d0 } else { d1 } + j as u16, lane)?;
                            g.lds_write(aj, v, 4);
                        }
                        for (j, &v) in old.iter().enumerate() {
                            g.wr_v(vdst + i as u16 * dw + j as u16, lane, v)?;
                        }
                    }
                    Ok(())
                })
            }
            DsKind::Atomic { op, x2, rtn } | DsKind::CmpStore { op, x2, rtn } => {
                let cmpstore = matches!(k, DsKind::CmpStore { .. });
                self.lanes_in_order(&mut |g: &mut Gen, lane: Word| {
                    let a = g.ds_addr(addr_r, offset, lane)?;
                    g.lds_check(a, if x2 { 8 } else { 4 });
                    let (x, y) = (g.vdata64(d0, lane, x2)?, g.vdata64(d1, lane, x2)?);
                    // gfx10 ds_cmpst: DATA0 is the compare value, DATA1 the new value; gfx11
                    // ds_cmpstore: new, then compare.
                    let (data, data2) = if !cmpstore && matches!(op, Atomic::CmpSwap | Atomic::FCmpSwap) { (y, x) } else { (x, y) };
                    let old = g.lds_read64(a, x2);
                    let new = g.atomic_apply(op, x2, old, data, data2)?;
                    g.lds_write64(a, new, x2);
                    if rtn {
                        g.put_returned(vdst, lane, old, x2)?;
                    }
                    Ok(())
                })
            }
            DsKind::Swizzle | DsKind::Permute | DsKind::Bpermute => self.lane_permute(k, addr_r, d0, vdst, offset),
            // M0[15:0] + offset + 4 × lane: one dword per lane, no address VGPR.
            DsKind::ReadAddtid | DsKind::WriteAddtid => {
                let m0 = self.m0_base(offset);
                self.lanes_loop(true, &mut |g: &mut Gen, lane: Word| {
                    let four = g.c32(4);
                    let at = g.op(Op::IMul, g.t.u32, &[lane, four]);
                    let a = g.op(Op::IAdd, g.t.u32, &[m0, at]);
                    g.lds_check(a, 4);
                    if k == DsKind::ReadAddtid {
                        let v = g.lds_read32(a);
                        g.wr_v(vdst, lane, v)
                    } else {
                        let v = g.rd_v(d0, lane)?;
                        g.lds_write(a, v, 4);
                        Ok(())
                    }
                })
            }
            DsKind::Append | DsKind::Consume => self.append(k == DsKind::Append, offset, vdst),
        }
    }

    /// The LDS half of a FLAT atomic: the lanes whose address lies in the shared aperture, in
    /// lane order as DS atomics run (`lanes_in_order`); the other lanes' accesses were made in
    /// device memory before, and the two never touch the same bytes.
    pub(super) fn flat_atomic_lds(&mut self, vaddr: u16, offset: u64, op: Atomic, x2: bool, vdata: u16, ret: Option<u16>) -> Lowered {
        if self.lds_bytes == 0 {
            // No LDS: such an address is out of bounds, as in the emulator.
            return self.lanes_loop(true, &mut |g: &mut Gen, lane: Word| {
                let (is_lds, _) = g.flat_lds_address(vaddr, offset, lane)?;
                g.if_then(is_lds, &mut |g: &mut Gen| g.fail(crate::STATUS_LDS_OUT_OF_BOUNDS));
                Ok(())
            });
        }
        self.lanes_in_order(&mut |g: &mut Gen, lane: Word| {
            let (is_lds, a) = g.flat_lds_address(vaddr, offset, lane)?;
            let mut r: Lowered = Ok(());
            g.if_then(is_lds, &mut |g: &mut Gen| {
                r = (|| {
                    g.lds_check(a, if x2 { 8 } else { 4 });
                    let data = g.vdata64(vdata, lane, x2)?;
                    let data2 = if op == Atomic::CmpSwap { g.vdata64(vdata + if x2 { 2 } else { 1 }, lane, x2)? } else { data };
                    let old = g.lds_read64(a, x2);
                    let new = g.atomic_apply(op, x2, old, data, data2)?;
                    g.lds_write64(a, new, x2);
                    if let Some(vdst) = ret {
                        g.put_returned(vdst, lane, old, x2)?;
                    }
                    Ok(())
                })();
            });
            r
        })
    }

    /// `ds_swizzle_b32`, `ds_permute_b32` and `ds_bpermute_b32`, as `rdna_emu::vmem::ds` runs
    /// them: lanes exchange values without LDS. Every lane's result is gathered in the spare row
    /// first (0 where no enabled source reaches it), then copied to VDST for the enabled lanes,
    /// so no lane reads a register another lane has already replaced. Gathers read other lanes
    /// outside any EXEC test, as the subgroup model's shuffles need.
    fn lane_permute(&mut self, k: DsKind, addr_r: u16, d0: u16, vdst: u16, offset: u32) -> Lowered {
        for r in [addr_r, d0, vdst] {
            if r as u32 >= self.vgprs {
                return Err(format!("v{r} is beyond the registers this kernel was given"));
            }
        }
        let spare = self.spare_row();
        let exec = self.exec();
        let u = self.t.u32;
        let (c2, c3, c31, n31) = (self.c32(2), self.c32(3), self.c32(31), self.c32(!31));
        // The lane `lane` reads (swizzle, bpermute) or writes (permute): for the address forms,
        // (ADDR + offset) / 4 mod 32 in the lane's half of a wave64.
        let source = |g: &mut Gen, lane: Word| -> Result<Word, String> {
            if k == DsKind::Swizzle {
                return Ok(if offset & 0x8000 != 0 {
                    // Quad-permute mode.
                    let q = g.op(Op::BitwiseAnd, u, &[lane, c3]);
                    let one = g.c32(1);
                    let sh = g.op(Op::ShiftLeftLogical, u, &[q, one]);
                    let co = g.c32(offset);
                    let pick = g.op(Op::ShiftRightLogical, u, &[co, sh]);
                    let pick = g.op(Op::BitwiseAnd, u, &[pick, c3]);
                    let nq = g.c32(!3);
                    let base = g.op(Op::BitwiseAnd, u, &[lane, nq]);
                    g.op(Op::BitwiseOr, u, &[base, pick])
                } else {
                    // The and/or/xor bit-mask mode.
                    let (and, or, xor) = (g.c32(offset & 31), g.c32(offset >> 5 & 31), g.c32(offset >> 10 & 31));
                    let low = g.op(Op::BitwiseAnd, u, &[lane, c31]);
                    let low = g.op(Op::BitwiseAnd, u, &[low, and]);
                    let low = g.op(Op::BitwiseOr, u, &[low, or]);
                    let low = g.op(Op::BitwiseXor, u, &[low, xor]);
                    let base = g.op(Op::BitwiseAnd, u, &[lane, n31]);
                    g.op(Op::BitwiseOr, u, &[base, low])
                });
            }
            let a = g.ds_addr(addr_r, offset, lane)?;
            let idx = g.op(Op::ShiftRightLogical, u, &[a, c2]);
            let idx = g.op(Op::BitwiseAnd, u, &[idx, c31]);
            let base = g.op(Op::BitwiseAnd, u, &[lane, n31]);
            Ok(g.op(Op::BitwiseOr, u, &[base, idx]))
        };
        if k != DsKind::Permute {
            let src = if k == DsKind::Swizzle { addr_r } else { d0 };
            self.lanes_loop(false, &mut |g: &mut Gen, lane: Word| {
                let j = source(g, lane)?;
                let v = g.rd_row(src, j);
                let on = g.mask_bit(exec, j);
                let z = g.c32(0);
                let v = g.sel(u, on, v, z);
                g.wr_row(spare, lane, v);
                Ok(())
            })?;
        } else if self.own_lane.is_none() {
            // Forward permute: each enabled lane writes its data to its target's spare row, in
            // lane order (the last writer wins).
            self.lanes_loop(false, &mut |g: &mut Gen, lane: Word| {
                let z = g.c32(0);
                g.wr_row(spare, lane, z);
                Ok(())
            })?;
            self.lanes_loop(true, &mut |g: &mut Gen, lane: Word| {
                let other = source(g, lane)?;
                let v = g.rd_row(d0, lane);
                g.wr_row(spare, other, v);
                Ok(())
            })?;
        } else {
            // Subgroup model: a lane cannot write another's register, so each lane gathers,
            // from every enabled lane in lane order, the data of those whose target it is.
            self.lanes_loop(false, &mut |g: &mut Gen, me: Word| {
                let target = source(g, me)?;
                let data = g.rd_row(d0, me);
                let z = g.c32(0);
                g.wr_row(spare, me, z);
                let n = g.c32(g.lanes);
                let var = g.zero_var;
                g.counted_loop(var, n, &mut |g: &mut Gen, j: Word| {
                    let tj = g.shuffle(target, j);
                    let vj = g.shuffle(data, j);
                    let hit = g.op(Op::IEqual, g.t.bool, &[tj, me]);
                    let on = g.mask_bit(exec, j);
                    let hit = g.op(Op::LogicalAnd, g.t.bool, &[hit, on]);
                    let old = g.rd_row(spare, me);
                    let v = g.sel(u, hit, vj, old);
                    g.wr_row(spare, me, v);
                    Ok(())
                })
            })?;
        }
        self.lanes_loop(true, &mut |g: &mut Gen, lane: Word| {
            let v = g.rd_row(spare, lane);
            g.wr_v(vdst, lane, v)
        })
    }

    /// Runs `body` for each lane EXEC enables, one lane after another in lane order, as the
    /// emulator applies a wave's LDS atomics. Exact model: the lane loop. Subgroup model: the
    /// wave takes the workgroup's LDS lock (other waves' atomics wait), then lane j runs in
    /// step j of a loop, with a subgroup barrier between steps.
    fn lanes_in_order(&mut self, body: &mut dyn FnMut(&mut Gen, Word) -> Lowered) -> Lowered {
        let Some(me) = self.own_lane else { return self.lanes_loop(true, body) };
        let shared = self.waves > 1;
        if shared {
            self.lds_lock(me, true);
        }
        let exec = self.exec();
        let n = self.c32(self.lanes);
        let var = self.zero_var;
        let mut result = Ok(());
        self.counted_loop(var, n, &mut |g: &mut Gen, j: Word| {
            let mine = g.op(Op::IEqual, g.t.bool, &[me, j]);
            let on = g.mask_bit(exec, me);
            let turn = g.op(Op::LogicalAnd, g.t.bool, &[mine, on]);
            g.if_then(turn, &mut |g: &mut Gen| {
                if result.is_ok() {
                    result = body(g, me);
                }
            });
            g.subgroup_barrier();
            Ok(())
        })?;
        if shared {
            self.lds_lock(me, false);
        }
        result
    }

    /// Subgroup model: takes (`acquire`) or gives back the workgroup's LDS lock for the whole
    /// wave; lane 0 does the atomic, and every lane loops until it has succeeded.
    fn lds_lock(&mut self, me: Word, acquire: bool) {
        let (u, boolt) = (self.t.u32, self.t.bool);
        let scope = self.c32(rspirv::spirv::Scope::Workgroup as u32);
        let z = self.c32(0);
        let lane0 = self.op(Op::IEqual, boolt, &[me, z]);
        if !acquire {
            self.subgroup_barrier();
            let sem = self.c32((rspirv::spirv::MemorySemantics::RELEASE | rspirv::spirv::MemorySemantics::WORKGROUP_MEMORY).bits());
            let lock = self.lds_lock;
            self.if_then(lane0, &mut |g: &mut Gen| g.b.atomic_store(lock, scope, sem, z).unwrap());
            return;
        }
        let lp = self.loop_begin();
        self.loop_enter(&lp, None);
        let (header, cont, merge) = (lp.header, lp.cont, lp.merge);
        let f = self.b.constant_false(boolt);
        self.b.store(self.got_lock, f, None, []).unwrap();
        let (sem, relaxed) = (self.c32((rspirv::spirv::MemorySemantics::ACQUIRE | rspirv::spirv::MemorySemantics::WORKGROUP_MEMORY).bits()), self.c32(0));
        let (lock, got) = (self.lds_lock, self.got_lock);
        self.if_then(lane0, &mut |g: &mut Gen| {
            let one = g.c32(1);
            let was = g.b.atomic_compare_exchange(u, None, lock, scope, sem, relaxed, one, z).unwrap();
            let ok = g.op(Op::IEqual, boolt, &[was, z]);
            g.b.store(got, ok, None, []).unwrap();
        });
        self.b.branch(cont).unwrap();
        self.b.begin_block(Some(cont)).unwrap();
        let mine = self.b.load(boolt, None, self.got_lock, None, []).unwrap();
        let all = self.ballot(mine);
        let z64 = self.c64(0);
        let taken = self.op(Op::INotEqual, boolt, &[all, z64]);
        self.count_iteration();
        self.b.branch_conditional(taken, merge, header, []).unwrap();
        self.b.begin_block(Some(merge)).unwrap();
        self.subgroup_barrier();
    }

    /// M0[15:0] + `offset` (wrapping), the base of the M0-addressed DS forms.
    fn m0_base(&mut self, offset: u32) -> Word {
        let u = self.t.u32;
        let m0 = self.rd_s(super::M0);
        let (m16, o) = (self.c32(0xffff), self.c32(offset));
        let m0 = self.op(Op::BitwiseAnd, u, &[m0, m16]);
        self.op(Op::IAdd, u, &[m0, o])
    }

    /// `ds_append` / `ds_consume`, as the emulator runs them: one add (subtract) of the
    /// number of enabled lanes to the dword at M0[15:0] + offset, for the whole wave; every
    /// enabled lane gets the value from before. Subgroup model: under the workgroup's LDS lock
    /// (as the other LDS atomics), every lane reads, then lane 0 writes.
    fn append(&mut self, add: bool, offset: u32, vdst: u16) -> Lowered {
        let u = self.t.u32;
        let a = self.m0_base(offset);
        let exec = self.exec();
        let (lo, hi) = self.split64(exec);
        let (lo, hi) = (self.op(Op::BitCount, u, &[lo]), self.op(Op::BitCount, u, &[hi]));
        let count = self.op(Op::IAdd, u, &[lo, hi]);
        let me = self.own_lane;
        let shared = me.is_some() && self.waves > 1;
        if let (Some(me), true) = (me, shared) {
            self.lds_lock(me, true);
        }
        self.lds_check(a, 4);
        let old = self.lds_read32(a);
        let new = self.op(if add { Op::IAdd } else { Op::ISub }, u, &[old, count]);
        match me {
            Some(me) => {
                self.subgroup_barrier();
                let z = self.c32(0);
                let lane0 = self.op(Op::IEqual, self.t.bool, &[me, z]);
                self.if_then(lane0, &mut |g: &mut Gen| g.lds_write(a, new, 4));
                if shared {
                    self.lds_lock(me, false);
                } else {
                    self.subgroup_barrier();
                }
            }
            None => self.lds_write(a, new, 4),
        }
        self.lanes_loop(true, &mut |g: &mut Gen, lane: Word| g.wr_v(vdst, lane, old))
    }

    /// ADDR + offset for one lane (wrapping, as the emulator computes it).
    fn ds_addr(&mut self, addr_r: u16, offset: u32, lane: Word) -> Result<Word, String> {
        let a = self.rd_v(addr_r, lane)?;
        let o = self.c32(offset);
        Ok(self.op(Op::IAdd, self.t.u32, &[a, o]))
    }
}
