//! Byte- and halfword-wise integer operations (sums of absolute differences, lerp, byte
//! permute, dot products), mirroring the emulator's arms of the same names: unrolled over the
//! four bytes (two halves) of 32-bit values.

use rdna_emu::sem::VOp;
use rspirv::spirv::{Op, Word};

use super::Gen;

impl Gen {
    /// Byte `k` of `x` (a u32), zero-extended.
    fn byte(&mut self, x: Word, k: u32) -> Word {
        let u = self.t.u32;
        let sh = self.c32(8 * k);
        let v = self.op(Op::ShiftRightLogical, u, &[x, sh]);
        let m = self.c32(0xff);
        self.op(Op::BitwiseAnd, u, &[v, m])
    }

    fn abs_diff(&mut self, x: Word, y: Word) -> Word {
        let (u, boolt) = (self.t.u32, self.t.bool);
        let lt = self.op(Op::ULessThan, boolt, &[x, y]);
        let d1 = self.op(Op::ISub, u, &[y, x]);
        let d2 = self.op(Op::ISub, u, &[x, y]);
        self.sel(u, lt, d1, d2)
    }

    /// One lane of a byte/halfword operation; `None` for other operations.
    pub(super) fn byte_op(&mut self, op: VOp, [a, b, c]: [Word; 3]) -> Option<Word> {
        use VOp::*;
        let (u, boolt) = (self.t.u32, self.t.bool);
        Some(match op {
            SadU8 | SadHiU8 | MsadU8 => {
                let mut t = self.sad_bytes(a, b, op == MsadU8);
                if op == SadHiU8 {
                    let c16 = self.c32(16);
                    t = self.op(Op::ShiftLeftLogical, u, &[t, c16]);
                }
                self.op(Op::IAdd, u, &[t, c])
            }
            SadU16 => {
                let (m, c16) = (self.c32(0xffff), self.c32(16));
                let (alo, blo) = (self.op(Op::BitwiseAnd, u, &[a, m]), self.op(Op::BitwiseAnd, u, &[b, m]));
                let (ahi, bhi) = (self.op(Op::ShiftRightLogical, u, &[a, c16]), self.op(Op::ShiftRightLogical, u, &[b, c16]));
                let lo = self.abs_diff(alo, blo);
                let hi = self.abs_diff(ahi, bhi);
                let t = self.op(Op::IAdd, u, &[lo, hi]);
                self.op(Op::IAdd, u, &[t, c])
            }
            SadU32 => {
                let d = self.abs_diff(a, b);
                self.op(Op::IAdd, u, &[d, c])
            }
            LerpU8 => {
                // Per byte: (a + b + rounding bit from c's byte) / 2.
                let mut t = self.c32(0);
                let one = self.c32(1);
                for k in 0..4 {
                    let (x, y, r) = (self.byte(a, k), self.byte(b, k), self.byte(c, k));
                    let r = self.op(Op::BitwiseAnd, u, &[r, one]);
                    let s = self.op(Op::IAdd, u, &[x, y]);
                    let s = self.op(Op::IAdd, u, &[s, r]);
                    let s = self.op(Op::ShiftRightLogical, u, &[s, one]);
                    let m = self.c32(0xff);
                    let s = self.op(Op::BitwiseAnd, u, &[s, m]);
                    let sh = self.c32(8 * k);
                    let s = self.op(Op::ShiftLeftLogical, u, &[s, sh]);
                    t = self.op(Op::BitwiseOr, u, &[t, s]);
                }
                t
            }
            PermB32 => {
                // Each result byte picks from the eight bytes of {S0, S1} (S1 low), a sign
                // spread (8–11: bytes 1, 3, 5, 7), zero (12) or 0xff (13 and up).
                let u64t = self.t.u64;
                let data = self.join64(b, a);
                let mut t = self.c32(0);
                for i in 0..4 {
                    let s = self.byte(c, i);
                    let c7 = self.c32(7);
                    let lo = self.gl(rspirv::spirv::GLOp::UMin, u, &[s, c7]);
                    let c8 = self.c32(8);
                    let sh = self.op(Op::IMul, u, &[lo, c8]);
                    let sh = self.op(Op::UConvert, u64t, &[sh]);
                    let v = self.op(Op::ShiftRightLogical, u64t, &[data, sh]);
                    let v = self.op(Op::UConvert, u, &[v]);
                    let m = self.c32(0xff);
                    let picked = self.op(Op::BitwiseAnd, u, &[v, m]);
                    // Sign of byte 2(s-8)+1: bit 8(2(s-8)+1)+7 of the data.
                    let c8b = self.c32(8);
                    let k = self.op(Op::ISub, u, &[s, c8b]);
                    let c3 = self.c32(3);
                    let k = self.op(Op::BitwiseAnd, u, &[k, c3]);
                    let c16 = self.c32(16);
                    let pos = self.op(Op::IMul, u, &[k, c16]);
                    let c15 = self.c32(15);
                    let pos = self.op(Op::IAdd, u, &[pos, c15]);
                    let pos = self.op(Op::UConvert, u64t, &[pos]);
                    let sgn = self.op(Op::ShiftRightLogical, u64t, &[data, pos]);
                    let sgn = self.op(Op::UConvert, u, &[sgn]);
                    let one = self.c32(1);
                    let sgn = self.op(Op::BitwiseAnd, u, &[sgn, one]);
                    let spread = self.op(Op::IMul, u, &[sgn, m]);
                    let (c12, z) = (self.c32(12), self.c32(0));
                    let is_pick = self.op(Op::ULessThanEqual, boolt, &[s, c7]);
                    let is_sign = self.op(Op::ULessThan, boolt, &[s, c12]);
                    let is_zero = self.op(Op::IEqual, boolt, &[s, c12]);
                    let v = self.sel(u, is_zero, z, m);
                    let v = self.sel(u, is_sign, spread, v);
                    let v = self.sel(u, is_pick, picked, v);
                    let sh = self.c32(8 * i);
                    let v = self.op(Op::ShiftLeftLogical, u, &[v, sh]);
                    t = self.op(Op::BitwiseOr, u, &[t, v]);
                }
                t
            }
            // Four sums of absolute differences (a's bytes from k, k = 0..3, against b's four),
            // each plus a 16-bit field of the 64-bit c, packed into 64 bits; a and c are u64.
            QsadPkU16U8 | MqsadPkU16U8 => {
                let u64t = self.t.u64;
                let mut t = self.c64(0);
                for k in 0..4u64 {
                    let sh = self.c64(8 * k);
                    let src = self.op(Op::ShiftRightLogical, u64t, &[a, sh]);
                    let src = self.op(Op::UConvert, u, &[src]);
                    let s = self.sad_bytes(src, b, op == MqsadPkU16U8);
                    let sh = self.c64(16 * k);
                    let acc = self.op(Op::ShiftRightLogical, u64t, &[c, sh]);
                    let acc = self.op(Op::UConvert, u, &[acc]);
                    let s = self.op(Op::IAdd, u, &[s, acc]);
                    let m16 = self.c32(0xffff);
                    let s = self.op(Op::BitwiseAnd, u, &[s, m16]);
                    let s = self.op(Op::UConvert, u64t, &[s]);
                    let s = self.op(Op::ShiftLeftLogical, u64t, &[s, sh]);
                    t = self.op(Op::BitwiseOr, u64t, &[t, s]);
                }
                t
            }
            _ => return None,
        })
    }

    /// `rdna_emu::valu::sad_bytes`: the sum of |x - y| over the four bytes of two u32s;
    /// `masked`: bytes where y is zero count 0.
    pub(super) fn sad_bytes(&mut self, x: Word, y: Word, masked: bool) -> Word {
        let (u, boolt) = (self.t.u32, self.t.bool);
        let mut t = self.c32(0);
        for k in 0..4 {
            let (xb, yb) = (self.byte(x, k), self.byte(y, k));
            let mut d = self.abs_diff(xb, yb);
            if masked {
                let z = self.c32(0);
                let zero = self.op(Op::IEqual, boolt, &[yb, z]);
                d = self.sel(u, zero, z, d);
            }
            t = self.op(Op::IAdd, u, &[t, d]);
        }
        t
    }
}
