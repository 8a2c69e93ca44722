//! SALU lowering, mirroring `rdna_emu::exec::salu` operation by operation (that function is
//! the reference: the same results and the same SCC).

use rdna_emu::program::{Src, Step};
use rdna_emu::sem::Salu;
use rspirv::spirv::{GLOp, Op, Word};

use super::{Gen, Lowered};

impl Gen {
    /// SCC = `v != 0` for a 32- or 64-bit value.
    fn scc_nonzero(&mut self, v: Word, wide: bool) {
        let z = if wide { self.c64(0) } else { self.c32(0) };
        let c = self.op(Op::INotEqual, self.t.bool, &[v, z]);
        self.wr_scc(c);
    }

    /// Bit 32 of a 64-bit intermediate as a bool (the carry of a 32-bit add).
    fn bit32(&mut self, r: Word) -> Word {
        let (c32, one) = (self.c64(32), self.c64(1));
        let h = self.op(Op::ShiftRightLogical, self.t.u64, &[r, c32]);
        let h = self.op(Op::BitwiseAnd, self.t.u64, &[h, one]);
        self.op(Op::IEqual, self.t.bool, &[h, one])
    }

    /// Lowest set bit index or all ones (`first_bit` in the emulator), 32 or 64 bits wide.
    pub(super) fn first_bit(&mut self, v: Word, wide: bool) -> Word {
        if wide {
            let (u, boolt) = (self.t.u32, self.t.bool);
            let (lo, hi) = self.split64(v);
            let l0 = self.gl(GLOp::FindILsb, u, &[lo]);
            let l1 = self.gl(GLOp::FindILsb, u, &[hi]);
            let c32 = self.c32(32);
            let l1b = self.op(Op::IAdd, u, &[l1, c32]);
            let z = self.c32(0);
            let none = self.c32(u32::MAX);
            let hi_set = self.op(Op::INotEqual, boolt, &[hi, z]);
            let lo_set = self.op(Op::INotEqual, boolt, &[lo, z]);
            let r = self.sel(u, hi_set, l1b, none);
            self.sel(u, lo_set, l0, r)
        } else {
            self.gl(GLOp::FindILsb, self.t.u32, &[v])
        }
    }

    /// Count of leading zeros from bit 31/63, or all ones for 0 (`s_flbit_i32_b32/_b64`).
    fn leading_zeros(&mut self, v: Word, wide: bool, signed: bool) -> Word {
        let (u, boolt) = (self.t.u32, self.t.bool);
        let none = self.c32(u32::MAX);
        if !wide {
            let msb = self.gl(if signed { GLOp::FindSMsb } else { GLOp::FindUMsb }, u, &[v]);
            let is_none = self.op(Op::IEqual, boolt, &[msb, none]);
            let c31 = self.c32(31);
            let r = self.op(Op::ISub, u, &[c31, msb]);
            return self.sel(u, is_none, none, r);
        }
        // 64-bit: for the signed form, count on !v when v < 0, then subtract the sign bit.
        let x = if signed {
            let z = self.c64(0);
            let neg = self.op(Op::SLessThan, boolt, &[v, z]);
            let nv = self.op(Op::Not, self.t.u64, &[v]);
            self.sel(self.t.u64, neg, nv, v)
        } else {
            v
        };
        let (lo, hi) = self.split64(x);
        let mh = self.gl(GLOp::FindUMsb, u, &[hi]);
        let ml = self.gl(GLOp::FindUMsb, u, &[lo]);
        let (c31, c63) = (self.c32(31), self.c32(63));
        let from_hi = self.op(Op::ISub, u, &[c31, mh]);
        let from_lo = self.op(Op::ISub, u, &[c63, ml]);
        let hi_none = self.op(Op::IEqual, boolt, &[mh, none]);
        let lo_none = self.op(Op::IEqual, boolt, &[ml, none]);
        let r = self.sel(u, lo_none, none, from_lo);
        let r = self.sel(u, hi_none, r, from_hi);
        if signed {
            let is_none = self.op(Op::IEqual, boolt, &[r, none]);
            let one = self.c32(1);
            let r1 = self.op(Op::ISub, u, &[r, one]);
            self.sel(u, is_none, none, r1)
        } else {
            r
        }
    }

    pub(super) fn salu(&mut self, st: &Step, op: Salu) -> Lowered {
        use Salu::*;
        let (u, u64t, boolt) = (self.t.u32, self.t.u64, self.t.bool);
        let d = st.dst;
        let a32 = |g: &mut Gen| g.src32(st.src[0], None);
        let b32 = |g: &mut Gen| g.src32(st.src[1], None);
        let a64 = |g: &mut Gen| g.src64(st.src[0], None);
        let b64 = |g: &mut Gen| g.src64(st.src[1], None);
        // SOPK: the 16-bit immediate is source 0, the register operand is SDST.
        let simm = |_: &mut Gen| -> Result<u32, String> {
            match st.src[0] {
                Src::Const(c) => Ok(c as u16 as u32),
                _ => Err("SOPK without an immediate".into()),
            }
        };
        match op {
            MovB32 => {
                let a = a32(self)?;
                self.wr_s(d, a);
            }
            MovB64 => {
                let a = a64(self)?;
                self.wr_s64(d, a);
            }
            // The PC as the emulator has it: the image's address plus the offset in it. Where
            // control goes (calls, returns, long branches) is the block's exit.
            GetPc | SwapPc | CallB64 => {
                let next = self.c64(self.text_in_image + st.pc as u64 + st.inst.len as u64);
                let pc = self.op(Op::IAdd, u64t, &[self.image, next]);
                self.wr_s64(d, pc);
            }
            SetPc => {}
            // Hardware registers other than MODE are only seen through s_getreg, which is not
            // lowered; so writing them changes nothing a lowered kernel can see. (clang's
            // prologue sets FLAT_SCR_LO/HI.)
            SetregB32 | SetregImm32B32 => {
                let id = simm(self)? & 0x3f;
                if id == 1 || id >= 32 {
                    return Err(format!("s_setreg of hardware register {id} is not recompiled yet"));
                }
            }
            CmovB32 | CmovB64 | CselectB32 | CselectB64 | CmovkI32 => {
                let c = self.rd_scc();
                let wide = matches!(op, CmovB64 | CselectB64);
                let (a, b) = match op {
                    CmovB32 => (a32(self)?, self.rd_s(d)),
                    CmovB64 => (a64(self)?, self.rd_s64(d)),
                    CselectB32 => (a32(self)?, b32(self)?),
                    CselectB64 => (a64(self)?, b64(self)?),
                    _ => {
                        let k = simm(self)? as u16 as i16 as i32 as u32;
                        let k = self.c32(k);
                        (k, self.rd_s(d))
                    }
                };
                let r = self.sel(if wide { u64t } else { u }, c, a, b);
                if wide { self.wr_s64(d, r) } else { self.wr_s(d, r) }
            }
            NotB32 | NotB64 => {
                let wide = op == NotB64;
                let a = if wide { a64(self)? } else { a32(self)? };
                let r = self.op(Op::Not, if wide { u64t } else { u }, &[a]);
                if wide { self.wr_s64(d, r) } else { self.wr_s(d, r) }
                self.scc_nonzero(r, wide);
            }
            BrevB32 => {
                let a = a32(self)?;
                let r = self.op(Op::BitReverse, u, &[a]);
                self.wr_s(d, r);
            }
            Bcnt0B32 | Bcnt1B32 | Bcnt0B64 | Bcnt1B64 => {
                let r = if matches!(op, Bcnt0B32 | Bcnt1B32) {
                    let a = a32(self)?;
                    let a = if op == Bcnt0B32 { self.op(Op::Not, u, &[a]) } else { a };
                    self.op(Op::BitCount, u, &[a])
                } else {
                    let a = a64(self)?;
                    let a = if op == Bcnt0B64 { self.op(Op::Not, u64t, &[a]) } else { a };
                    let (lo, hi) = self.split64(a);
                    let (x, y) = (self.op(Op::BitCount, u, &[lo]), self.op(Op::BitCount, u, &[hi]));
                    self.op(Op::IAdd, u, &[x, y])
                };
                self.wr_s(d, r);
                self.scc_nonzero(r, false);
            }
            Ff0B32 | Ff1B32 | Ff0B64 | Ff1B64 => {
                let wide = matches!(op, Ff0B64 | Ff1B64);
                let a = if wide { a64(self)? } else { a32(self)? };
                let a = if matches!(op, Ff0B32 | Ff0B64) { self.op(Op::Not, if wide { u64t } else { u }, &[a]) } else { a };
                let r = self.first_bit(a, wide);
                self.wr_s(d, r);
            }
            FlbitB32 | FlbitI32 | FlbitB64 | FlbitI64 => {
                let wide = matches!(op, FlbitB64 | FlbitI64);
                let a = if wide { a64(self)? } else { a32(self)? };
                let r = self.leading_zeros(a, wide, matches!(op, FlbitI32 | FlbitI64));
                self.wr_s(d, r);
            }
            SextI8 | SextI16 => {
                let a = a32(self)?;
                let (z, w) = (self.c32(0), self.c32(if op == SextI8 { 8 } else { 16 }));
                let r = self.op(Op::BitFieldSExtract, u, &[a, z, w]);
                self.wr_s(d, r);
            }
            Bitset0B32 | Bitset1B32 => {
                let (a, cur) = (a32(self)?, self.rd_s(d));
                let m31 = self.c32(31);
                let sh = self.op(Op::BitwiseAnd, u, &[a, m31]);
                let one = self.c32(1);
                let bit = self.op(Op::ShiftLeftLogical, u, &[one, sh]);
                let r = if op == Bitset0B32 {
                    let nb = self.op(Op::Not, u, &[bit]);
                    self.op(Op::BitwiseAnd, u, &[cur, nb])
                } else {
                    self.op(Op::BitwiseOr, u, &[cur, bit])
                };
                self.wr_s(d, r);
            }
            AbsI32 => {
                let a = a32(self)?;
                let r = self.gl(GLOp::SAbs, u, &[a]);
                self.wr_s(d, r);
                self.scc_nonzero(r, false);
            }
            AddU32 | AddcU32 | SubU32 | SubbU32 => {
                let (a, b) = (a32(self)?, b32(self)?);
                let (a, b) = (self.op(Op::UConvert, u64t, &[a]), self.op(Op::UConvert, u64t, &[b]));
                let cin = if matches!(op, AddcU32 | SubbU32) {
                    let c = self.rd_scc();
                    let (one, zero) = (self.c64(1), self.c64(0));
                    self.sel(u64t, c, one, zero)
                } else {
                    self.c64(0)
                };
                let code = if matches!(op, AddU32 | AddcU32) { Op::IAdd } else { Op::ISub };
                let s = self.op(code, u64t, &[a, b]);
                let r = self.op(code, u64t, &[s, cin]);
                let lo = self.op(Op::UConvert, u, &[r]);
                self.wr_s(d, lo);
                // Carry or borrow: bit 32 of the 64-bit result.
                let c = self.bit32(r);
                self.wr_scc(c);
            }
            AddI32 | SubI32 | AddkI32 => {
                let (a, b) = if op == AddkI32 {
                    let k = simm(self)? as u16 as i16 as i32 as u32;
                    (self.rd_s(d), self.c32(k))
                } else {
                    (a32(self)?, b32(self)?)
                };
                let r = self.op(if op == SubI32 { Op::ISub } else { Op::IAdd }, u, &[a, b]);
                self.wr_s(d, r);
                // Signed overflow: the operands' signs (for sub, a's and !b's) agree and differ from the result's.
                let bb = if op == SubI32 { self.op(Op::Not, u, &[b]) } else { b };
                let x1 = self.op(Op::BitwiseXor, u, &[a, r]);
                let x2 = self.op(Op::BitwiseXor, u, &[bb, r]);
                let both = self.op(Op::BitwiseAnd, u, &[x1, x2]);
                let z = self.c32(0);
                let c = self.op(Op::SLessThan, boolt, &[both, z]);
                self.wr_scc(c);
            }
            MinI32 | MaxI32 | MinU32 | MaxU32 => {
                let (a, b) = (a32(self)?, b32(self)?);
                let code = match op {
                    MinI32 => Op::SLessThan,
                    MaxI32 => Op::SGreaterThan,
                    MinU32 => Op::ULessThan,
                    _ => Op::UGreaterThan,
                };
                let pick_a = self.op(code, boolt, &[a, b]);
                let r = self.sel(u, pick_a, a, b);
                self.wr_s(d, r);
                self.wr_scc(pick_a);
            }
            LshlB32 | LshrB32 | AshrI32 => {
                let (a, b) = (a32(self)?, b32(self)?);
                let m = self.c32(31);
                let sh = self.op(Op::BitwiseAnd, u, &[b, m]);
                let code = match op {
                    LshlB32 => Op::ShiftLeftLogical,
                    LshrB32 => Op::ShiftRightLogical,
                    _ => Op::ShiftRightArithmetic,
                };
                let r = self.op(code, u, &[a, sh]);
                self.wr_s(d, r);
                self.scc_nonzero(r, false);
            }
            LshlB64 | LshrB64 | AshrI64 => {
                let (a, b) = (a64(self)?, b32(self)?);
                let m = self.c32(63);
                let sh = self.op(Op::BitwiseAnd, u, &[b, m]);
                let sh = self.op(Op::UConvert, u64t, &[sh]);
                let code = match op {
                    LshlB64 => Op::ShiftLeftLogical,
                    LshrB64 => Op::ShiftRightLogical,
                    _ => Op::ShiftRightArithmetic,
                };
                let r = self.op(code, u64t, &[a, sh]);
                self.wr_s64(d, r);
                self.scc_nonzero(r, true);
            }
            BfmB64 => {
                // ((1 << (a & 63)) - 1) << (b & 63), with a width of 64 giving all ones.
                let (a, b) = (a32(self)?, b32(self)?);
                let m = self.c32(63);
                let (w, off) = (self.op(Op::BitwiseAnd, u, &[a, m]), self.op(Op::BitwiseAnd, u, &[b, m]));
                let (w, off) = (self.op(Op::UConvert, u64t, &[w]), self.op(Op::UConvert, u64t, &[off]));
                let one = self.c64(1);
                let x = self.op(Op::ShiftLeftLogical, u64t, &[one, w]);
                let x = self.op(Op::ISub, u64t, &[x, one]);
                let r = self.op(Op::ShiftLeftLogical, u64t, &[x, off]);
                self.wr_s64(d, r);
            }
            BrevB64 => {
                let a = a64(self)?;
                let (lo, hi) = self.split64(a);
                let (lo, hi) = (self.op(Op::BitReverse, u, &[lo]), self.op(Op::BitReverse, u, &[hi]));
                let r = self.join64(hi, lo);
                self.wr_s64(d, r);
            }
            Bitset0B64 | Bitset1B64 => {
                let (a, cur) = (a32(self)?, self.rd_s64(d));
                let m63 = self.c32(63);
                let sh = self.op(Op::BitwiseAnd, u, &[a, m63]);
                let sh = self.op(Op::UConvert, u64t, &[sh]);
                let one = self.c64(1);
                let bit = self.op(Op::ShiftLeftLogical, u64t, &[one, sh]);
                let r = if op == Bitset0B64 {
                    let nb = self.op(Op::Not, u64t, &[bit]);
                    self.op(Op::BitwiseAnd, u64t, &[cur, nb])
                } else {
                    self.op(Op::BitwiseOr, u64t, &[cur, bit])
                };
                self.wr_s64(d, r);
            }
            QuadmaskB32 | QuadmaskB64 | WqmB32 | WqmB64 => {
                // Per quad of lanes (4 bits): one bit (quadmask) or all four (wqm) where any is set.
                let wide = matches!(op, QuadmaskB64 | WqmB64);
                let v = if wide { a64(self)? } else { let a = a32(self)?; self.op(Op::UConvert, u64t, &[a]) };
                let (nib, z) = (self.c64(0xf), self.c64(0));
                let mut r = z;
                for q in 0..if wide { 16 } else { 8 } {
                    let sh = self.c64(4 * q);
                    let n = self.op(Op::ShiftRightLogical, u64t, &[v, sh]);
                    let n = self.op(Op::BitwiseAnd, u64t, &[n, nib]);
                    let any = self.op(Op::INotEqual, boolt, &[n, z]);
                    let put = self.c64(if matches!(op, QuadmaskB32 | QuadmaskB64) { 1 << q } else { 0xf << (4 * q) });
                    let put = self.sel(u64t, any, put, z);
                    r = self.op(Op::BitwiseOr, u64t, &[r, put]);
                }
                if wide {
                    self.wr_s64(d, r);
                } else {
                    let r32 = self.op(Op::UConvert, u, &[r]);
                    self.wr_s(d, r32);
                }
                self.scc_nonzero(r, true);
            }
            BfmB32 => {
                let (a, b) = (a32(self)?, b32(self)?);
                let m = self.c32(31);
                let (w, off) = (self.op(Op::BitwiseAnd, u, &[a, m]), self.op(Op::BitwiseAnd, u, &[b, m]));
                let one = self.c32(1);
                let x = self.op(Op::ShiftLeftLogical, u, &[one, w]);
                let x = self.op(Op::ISub, u, &[x, one]);
                let r = self.op(Op::ShiftLeftLogical, u, &[x, off]);
                self.wr_s(d, r);
            }
            MulI32 | MulkI32 => {
                let (a, b) = if op == MulkI32 {
                    let k = simm(self)? as u16 as i16 as i32 as u32;
                    (self.rd_s(d), self.c32(k))
                } else {
                    (a32(self)?, b32(self)?)
                };
                let r = self.op(Op::IMul, u, &[a, b]);
                self.wr_s(d, r);
            }
            MulHiU32 | MulHiI32 => {
                let (a, b) = (a32(self)?, b32(self)?);
                let code = if op == MulHiU32 { Op::UConvert } else { Op::SConvert };
                let (a, b) = (self.op(code, u64t, &[a]), self.op(code, u64t, &[b]));
                let p = self.op(Op::IMul, u64t, &[a, b]);
                let c32 = self.c64(32);
                let h = self.op(Op::ShiftRightLogical, u64t, &[p, c32]);
                let r = self.op(Op::UConvert, u, &[h]);
                self.wr_s(d, r);
            }
            BfeU32 | BfeI32 | BfeU64 | BfeI64 => {
                // Offset in S1[5:0] (4:0 for 32 bits), width in S1[22:16] capped at the size.
                let wide = matches!(op, BfeU64 | BfeI64);
                let signed = matches!(op, BfeI32 | BfeI64);
                let (ty, bits) = if wide { (u64t, 64) } else { (u, 32) };
                let a = if wide { a64(self)? } else { a32(self)? };
                let b = b32(self)?;
                let mo = self.c32(bits - 1);
                let off = self.op(Op::BitwiseAnd, u, &[b, mo]);
                let c16 = self.c32(16);
                let w = self.op(Op::ShiftRightLogical, u, &[b, c16]);
                let m7f = self.c32(0x7f);
                let w = self.op(Op::BitwiseAnd, u, &[w, m7f]);
                let cap = self.c32(bits);
                let w = self.gl(GLOp::UMin, u, &[w, cap]);
                let (off, wt) = if wide { (self.op(Op::UConvert, u64t, &[off]), self.op(Op::UConvert, u64t, &[w])) } else { (off, w) };
                let shifted = self.op(if signed { Op::ShiftRightArithmetic } else { Op::ShiftRightLogical }, ty, &[a, off]);
                // Keep the low w bits (w == size keeps all), then sign-extend from bit w-1.
                let full = self.op(Op::IEqual, boolt, &[w, cap]);
                let (one, zero) = if wide { (self.c64(1), self.c64(0)) } else { (self.c32(1), self.c32(0)) };
                let wt_safe = self.sel(ty, full, zero, wt);
                let m = self.op(Op::ShiftLeftLogical, ty, &[one, wt_safe]);
                let m = self.op(Op::ISub, ty, &[m, one]);
                let all = if wide { self.c64(u64::MAX) } else { self.c32(u32::MAX) };
                let m = self.sel(ty, full, all, m);
                let mut r = self.op(Op::BitwiseAnd, ty, &[shifted, m]);
                if signed {
                    // Shift the field's top bit to the sign and back (w = 0 stays 0).
                    let size = if wide { self.c64(64) } else { self.c32(32) };
                    let up = self.op(Op::ISub, ty, &[size, wt]);
                    let z32 = self.c32(0);
                    let zero_w = self.op(Op::IEqual, boolt, &[w, z32]);
                    let up_safe = self.sel(ty, zero_w, zero, up);
                    let x = self.op(Op::ShiftLeftLogical, ty, &[r, up_safe]);
                    let x = self.op(Op::ShiftRightArithmetic, ty, &[x, up_safe]);
                    r = self.sel(ty, zero_w, zero, x);
                }
                if wide { self.wr_s64(d, r) } else { self.wr_s(d, r) }
                self.scc_nonzero(r, wide);
            }
            AbsdiffI32 => {
                let (a, b) = (a32(self)?, b32(self)?);
                let x = self.op(Op::ISub, u, &[a, b]);
                let r = self.gl(GLOp::SAbs, u, &[x]);
                self.wr_s(d, r);
                self.scc_nonzero(r, false);
            }
            Lshl1AddU32 | Lshl2AddU32 | Lshl3AddU32 | Lshl4AddU32 => {
                let n = match op {
                    Lshl1AddU32 => 1,
                    Lshl2AddU32 => 2,
                    Lshl3AddU32 => 3,
                    _ => 4,
                };
                let (a, b) = (a32(self)?, b32(self)?);
                let (a, b) = (self.op(Op::UConvert, u64t, &[a]), self.op(Op::UConvert, u64t, &[b]));
                let k = self.c64(n);
                let x = self.op(Op::ShiftLeftLogical, u64t, &[a, k]);
                let r = self.op(Op::IAdd, u64t, &[x, b]);
                let lo = self.op(Op::UConvert, u, &[r]);
                self.wr_s(d, lo);
                let c32 = self.c64(32);
                let h = self.op(Op::ShiftRightLogical, u64t, &[r, c32]);
                self.scc_nonzero(h, true);
            }
            PackLl | PackLh | PackHh | PackHl => {
                let (a, b) = (a32(self)?, b32(self)?);
                let (c16, lo16, hi16) = (self.c32(16), self.c32(0xffff), self.c32(0xffff_0000));
                let lo = match op {
                    PackLl | PackLh => self.op(Op::BitwiseAnd, u, &[a, lo16]),
                    _ => self.op(Op::ShiftRightLogical, u, &[a, c16]),
                };
                let hi = match op {
                    PackLl | PackHl => self.op(Op::ShiftLeftLogical, u, &[b, c16]),
                    _ => self.op(Op::BitwiseAnd, u, &[b, hi16]),
                };
                let r = self.op(Op::BitwiseOr, u, &[lo, hi]);
                self.wr_s(d, r);
            }
            MovkI32 => {
                let k = simm(self)? as u16 as i16 as i32 as u32;
                let k = self.c32(k);
                self.wr_s(d, k);
            }
            CmpkEqI32 | CmpkLgI32 | CmpkGtI32 | CmpkGeI32 | CmpkLtI32 | CmpkLeI32 | CmpkEqU32 | CmpkLgU32 | CmpkGtU32 | CmpkGeU32 | CmpkLtU32
            | CmpkLeU32 => {
                let signed = matches!(op, CmpkEqI32 | CmpkLgI32 | CmpkGtI32 | CmpkGeI32 | CmpkLtI32 | CmpkLeI32);
                let s = simm(self)?;
                let k = self.c32(if signed { s as u16 as i16 as i32 as u32 } else { s });
                let a = self.rd_s(d);
                let code = match op {
                    CmpkEqI32 | CmpkEqU32 => Op::IEqual,
                    CmpkLgI32 | CmpkLgU32 => Op::INotEqual,
                    CmpkGtI32 => Op::SGreaterThan,
                    CmpkGeI32 => Op::SGreaterThanEqual,
                    CmpkLtI32 => Op::SLessThan,
                    CmpkLeI32 => Op::SLessThanEqual,
                    CmpkGtU32 => Op::UGreaterThan,
                    CmpkGeU32 => Op::UGreaterThanEqual,
                    CmpkLtU32 => Op::ULessThan,
                    _ => Op::ULessThanEqual,
                };
                let c = self.op(code, boolt, &[a, k]);
                self.wr_scc(c);
            }
            CmpEqU32 | CmpLgU32 | CmpGtU32 | CmpGeU32 | CmpLtU32 | CmpLeU32 | CmpEqI32 | CmpLgI32 | CmpGtI32 | CmpGeI32 | CmpLtI32 | CmpLeI32 => {
                let (a, b) = (a32(self)?, b32(self)?);
                let code = match op {
                    CmpEqU32 | CmpEqI32 => Op::IEqual,
                    CmpLgU32 | CmpLgI32 => Op::INotEqual,
                    CmpGtU32 => Op::UGreaterThan,
                    CmpGeU32 => Op::UGreaterThanEqual,
                    CmpLtU32 => Op::ULessThan,
                    CmpLeU32 => Op::ULessThanEqual,
                    CmpGtI32 => Op::SGreaterThan,
                    CmpGeI32 => Op::SGreaterThanEqual,
                    CmpLtI32 => Op::SLessThan,
                    _ => Op::SLessThanEqual,
                };
                let c = self.op(code, boolt, &[a, b]);
                self.wr_scc(c);
            }
            CmpEqU64 | CmpLgU64 => {
                let (a, b) = (a64(self)?, b64(self)?);
                let c = self.op(if op == CmpEqU64 { Op::IEqual } else { Op::INotEqual }, boolt, &[a, b]);
                self.wr_scc(c);
            }
            Bitcmp0B32 | Bitcmp1B32 | Bitcmp0B64 | Bitcmp1B64 => {
                let wide = matches!(op, Bitcmp0B64 | Bitcmp1B64);
                let (ty, a) = if wide { (u64t, a64(self)?) } else { (u, a32(self)?) };
                let b = b32(self)?;
                let m = self.c32(if wide { 63 } else { 31 });
                let sh = self.op(Op::BitwiseAnd, u, &[b, m]);
                let sh = if wide { self.op(Op::UConvert, u64t, &[sh]) } else { sh };
                let x = self.op(Op::ShiftRightLogical, ty, &[a, sh]);
                let one = if wide { self.c64(1) } else { self.c32(1) };
                let bit = self.op(Op::BitwiseAnd, ty, &[x, one]);
                let c = self.op(if matches!(op, Bitcmp1B32 | Bitcmp1B64) { Op::IEqual } else { Op::INotEqual }, boolt, &[bit, one]);
                self.wr_scc(c);
            }
            _ => return Err(format!("internal: scalar operation {op:?} admitted by `supports` without a lowering")),
        }
        Ok(())
    }
}
