//! RDNA3 WMMA (`v_wmma_*_16x16x16_*`, wave32), as `rdna_emu::valu::wmma` computes it: lane `l`
//! holds row `l % 16` of A and column `l % 16` of B; element `v` of C and D in lane `l` is row
//! `2v + l / 16`, column `l % 16`. Float products are exact in f64 and summed in order of `k`,
//! then C is added and the sum rounded once; integer sums are exact.
//!
//! Every lane's result is computed first (reading other lanes' A and B: subgroup shuffles in the
//! subgroup model, so outside any EXEC test) into the spare rows, then written under EXEC, so D
//! may overlap A, B or C.

use rdna_emu::program::{Src, Step};
use rdna_emu::sem::VOp;
use rdna_emu::valu::Mods;
use rspirv::spirv::{Op, Word};

use super::{Gen, Lowered};

/// Rows past the VGPRs a kernel with WMMA needs for staging (one per element of D).
pub(super) const WMMA_SPARE_ROWS: u32 = 8;

/// The WMMA operations lowered.
pub(crate) fn is_wmma(op: VOp) -> bool {
    matches!(op, VOp::WmmaF32F16 | VOp::WmmaF32Bf16 | VOp::WmmaF16F16 | VOp::WmmaBf16Bf16 | VOp::WmmaI32Iu8 | VOp::WmmaI32Iu4)
}

impl Gen {
    pub(super) fn wmma(&mut self, st: &Step, op: VOp, m: &Mods) -> Lowered {
        use VOp::*;
        if self.lanes != 32 {
            return Err("WMMA in wave64 is not recompiled (the emulator does not run it either)".into());
        }
        let (Src::Vgpr(ra), Src::Vgpr(rb)) = (st.src[0], st.src[1]) else { return Err("WMMA sources must be VGPRs".into()) };
        let float = matches!(op, WmmaF32F16 | WmmaF32Bf16 | WmmaF16F16 | WmmaBf16Bf16);
        if float && (m.neg != 0 || m.neg_hi != 0) {
            return Err("WMMA with negated float inputs is not recompiled (the emulator does not run it either)".into());
        }
        if self.spare_rows < WMMA_SPARE_ROWS {
            return Err("internal: WMMA without its staging rows".into());
        }
        let hi_half = m.op_sel >> 2 & 1 != 0;
        let (a_signed, b_signed) = (m.neg & 1 != 0, m.neg & 2 != 0);
        // Elements per register: 2 halves, 4 bytes or 8 nibbles.
        let per_reg = match op {
            WmmaI32Iu8 => 4,
            WmmaI32Iu4 => 8,
            _ => 2,
        };
        let regs = 16 / per_reg;
        let spare = self.spare_row();
        let (u, u64t) = (self.t.u32, self.t.u64);
        let dst = st.dst;
        let src_c = st.src[2];
        let clamp = m.clamp;
        // Element k of a fragment (its registers' words): an f64 for float operations, else an
        // i64.
        let elem = |g: &mut Gen, words: &[Word], k: u32, signed: bool| -> Word {
            let w = words[(k / per_reg) as usize];
            let bits = 32 / per_reg;
            let (at, width) = (g.c32(bits * (k % per_reg)), g.c32(bits));
            match op {
                WmmaI32Iu8 | WmmaI32Iu4 => {
                    let x = g.op(if signed { Op::BitFieldSExtract } else { Op::BitFieldUExtract }, u, &[w, at, width]);
                    g.op(Op::SConvert, u64t, &[x])
                }
                _ => {
                    let h = g.op(Op::ShiftRightLogical, u, &[w, at]);
                    let f = if matches!(op, WmmaF32Bf16 | WmmaBf16Bf16) {
                        g.bf16_to_f32(h, false)
                    } else {
                        g.f16_to_f32(h)
                    };
                    let ft = g.f64t();
                    g.op(Op::FConvert, ft, &[f])
                }
            }
        };
        // Pass 1, every lane: the products into the spare rows.
        self.lanes_loop(false, &mut |g: &mut Gen, lane: Word| {
            let (c15, c4) = (g.c32(15), g.c32(4));
            let col = g.op(Op::BitwiseAnd, u, &[lane, c15]);
            let upper = g.op(Op::ShiftRightLogical, u, &[lane, c4]);
            let b_words: Vec<Word> = (0..regs).map(|j| g.rd_row(rb + j as u16, col)).collect();
            for v in 0..8u16 {
                let c2v = g.c32(2 * v as u32);
                let row = g.op(Op::IAdd, u, &[c2v, upper]);
                let a_words: Vec<Word> = (0..regs).map(|j| g.rd_row(ra + j as u16, row)).collect();
                let c_raw = match src_c {
                    Src::Vgpr(rc) => g.rd_row(rc + v, lane),
                    other => g.src32(other, None)?,
                };
                let (add, mul, ty) = if float { (Op::FAdd, Op::FMul, g.f64t()) } else { (Op::IAdd, Op::IMul, u64t) };
                let mut sum = None;
                for k in 0..16 {
                    let x = elem(g, &a_words, k, a_signed);
                    let y = elem(g, &b_words, k, b_signed);
                    let p = g.op(mul, ty, &[x, y]);
                    sum = Some(match sum {
                        None => p,
                        Some(s) => g.op(add, ty, &[s, p]),
                    });
                }
                let sum = sum.unwrap();
                let r = match op {
                    WmmaF32F16 | WmmaF32Bf16 => {
                        let c = g.as_f32(c_raw);
                        let c = g.op(Op::FConvert, ty, &[c]);
                        let s = g.op(Op::FAdd, ty, &[sum, c]);
                        let f = g.op(Op::FConvert, g.t.f32, &[s]);
                        g.from_f32(f)
                    }
                    WmmaF16F16 | WmmaBf16Bf16 => {
                        let c16 = g.c32(if hi_half { 16 } else { 0 });
                        let ch = g.op(Op::ShiftRightLogical, u, &[c_raw, c16]);
                        let c = if op == WmmaF16F16 { g.f16_to_f32(ch) } else { g.bf16_to_f32(ch, false) };
                        let c = g.op(Op::FConvert, ty, &[c]);
                        let s = g.op(Op::FAdd, ty, &[sum, c]);
                        let h = if op == WmmaF16F16 { g.f64_to_f16(s) } else { g.f64_to_bf16(s) };
                        // The other half is C's register's (0 for a C that is not a VGPR).
                        let old = if matches!(src_c, Src::Vgpr(_)) { c_raw } else { g.c32(0) };
                        g.merge_half(old, h, hi_half)
                    }
                    _ => {
                        let c = g.op(Op::SConvert, u64t, &[c_raw]);
                        let s = g.op(Op::IAdd, u64t, &[sum, c]);
                        let s = if clamp {
                            let (lo, hi) = (g.c64(i32::MIN as i64 as u64), g.c64(i32::MAX as u64));
                            let s = g.gl(rspirv::spirv::GLOp::SMax, u64t, &[s, lo]);
                            g.gl(rspirv::spirv::GLOp::SMin, u64t, &[s, hi])
                        } else {
                            s
                        };
                        g.op(Op::UConvert, u, &[s])
                    }
                };
                g.wr_row(spare + v, lane, r);
            }
            Ok(())
        })?;
        // Pass 2, the lanes EXEC enables: D.
        self.lanes_loop(true, &mut |g: &mut Gen, lane: Word| {
            for v in 0..8u16 {
                let r = g.rd_row(spare + v, lane);
                g.wr_v(dst + v, lane, r)?;
            }
            Ok(())
        })
    }
}
