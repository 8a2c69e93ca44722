//! A kernel decoded once into steps: each instruction's semantics and operands are resolved
//! here, so execution never looks at encodings or mnemonics again.

use rdna_disasm::{Decoder, Inst, PrintOptions};
use rdna_isa::{src, Field, Format, ImmTy};

use crate::sem::{self, Kind};

/// A resolved operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    None,
    Sgpr(u16),
    Vgpr(u16),
    /// A constant (inline or literal), already typed for the operand's width and data type.
    Const(u64),
    Scc,
    Vccz,
    Execz,
}

/// One decoded instruction, ready to execute.
#[derive(Clone, Debug)]
pub struct Step {
    /// Byte offset from the start of the program.
    pub pc: u32,
    pub inst: Inst,
    pub kind: Kind,
    /// Sources in order: SSRC0/SRC0, SSRC1/SRC1/VSRC1, SRC2 (or, for SMEM/SOPK, the base/imm).
    pub src: [Src; 3],
    /// Each source's width in dwords.
    pub sw: [u8; 3],
    /// Destination register (VDST or SDST).
    pub dst: u16,
    pub dw: u8,
    /// Second (scalar) destination: VOP3B carry-out, VOPC-in-VOP3 mask destination.
    pub sdst: u16,
    /// How each source's constants are typed (also which sign bit abs/neg act on).
    pub imm: [ImmTy; 3],
    /// Number of source operands.
    pub nsrc: u8,
    /// A VOP3 encoding with a scalar destination field (VOP3B: no abs, no op_sel).
    pub vop3b: bool,
    /// Qualifies for the VALU fast path (`fast.rs`): a plain 32-bit operation, no modifiers.
    pub fast: bool,
    /// A VALU or compare encoding with no modifiers at all (VOP1/VOP2/VOPC, or VOP3 with
    /// abs, neg, op_sel, clamp and omod zero): what the recompiler lowers today.
    pub plain: bool,
}

impl Step {
    /// Every SGPR range the instruction names, as (first, count): its SGPR operand fields, its
    /// decoded sources and a VOP3 scalar destination. Registers it reaches implicitly (VCC,
    /// EXEC, M0, SCC) are not listed. `None` when it indexes SGPRs through M0 (`s_movrel*`) and
    /// so may reach any.
    pub fn sgprs_named(&self) -> Option<Vec<(u16, u16)>> {
        if self.indexes_sgprs() {
            return None;
        }
        let mut named = Vec::new();
        for op in self.inst.entry.operands {
            let source_field = matches!(op.field, Field::Src0 | Field::Src1 | Field::Src2);
            if op.class == rdna_isa::Class::Sgpr && !source_field {
                let mut raw = self.inst.field(op.field);
                if self.inst.format == Format::Smem && op.field == Field::Sbase {
                    raw *= 2;
                }
                named.push((raw, (op.width as u16).max(1)));
            }
        }
        for (s, w) in self.src.iter().zip(self.sw) {
            if let Src::Sgpr(r) = s {
                named.push((*r, (w as u16).max(1)));
            }
        }
        if self.sdst < 106 {
            named.push((self.sdst, 2));
        }
        Some(named)
    }

    /// Whether the instruction computes the number of an SGPR it reads or writes (`s_movrel*`,
    /// through M0), so that it may reach any.
    fn indexes_sgprs(&self) -> bool {
        self.inst.entry.name.starts_with("s_movrel")
    }

    /// The SGPR ranges the instruction may write, as (first, count): its destination fields
    /// (SDST, SDATA, an SGPR VDST) and a VOP3 scalar destination, whatever this instruction does
    /// with them (so a superset: `s_cmpk_*` reads its SDST, a scalar store its SDATA). Registers
    /// written implicitly (VCC, EXEC, M0, SCC) are not listed. `None` when it indexes SGPRs
    /// through M0 (`s_movrel*`) and so may write any.
    pub fn sgprs_written(&self) -> Option<Vec<(u16, u16)>> {
        if self.indexes_sgprs() {
            return None;
        }
        let mut written = Vec::new();
        for op in self.inst.entry.operands {
            if op.class == rdna_isa::Class::Sgpr && matches!(op.field, Field::Sdst | Field::Sdata | Field::Vdst) {
                written.push((self.inst.field(op.field), (op.width as u16).max(1)));
            }
        }
        if self.sdst < 106 {
            written.push((self.sdst, 2));
        }
        Some(written)
    }

    /// Where a carry-out or VCC-style mask result goes: the SDST field of a VOP3 encoding, VCC
    /// for the short (e32) forms, which have no such field.
    pub fn carry_dst(&self) -> u16 {
        if self.inst.format.is_vop3() {
            self.sdst
        } else {
            crate::wave::sreg::VCC as u16
        }
    }

    /// The instruction's dwords in hex, space-separated, as llvm-objdump shows them.
    pub fn hex_words(&self) -> String {
        let i = &self.inst;
        let n = (i.len as usize / 4).max(1);
        // The encoding's own dwords (one or two), then any extra ones, then the literal.
        let body = (n - i.literal.is_some() as usize).max(1);
        let mut w = vec![i.raw as u32];
        if body >= 2 {
            w.push((i.raw >> 32) as u32);
        }
        // Dwords between the first two and the literal: the gfx11 VOP3 DPP word or MIMG NSA words.
        let mut extra = std::iter::once(i.ext).chain(i.nsa);
        while w.len() < body {
            w.push(extra.next().unwrap_or(0));
        }
        w.extend(i.literal);
        w.iter().map(|x| format!("{x:08X}")).collect::<Vec<_>>().join(" ")
    }

    /// The instruction's text, as LLVM prints it.
    pub fn text(&self) -> String {
        rdna_disasm::to_text(&self.inst, PrintOptions { wave64: self.inst.wave64 })
    }
}

/// A decoded program.
pub struct Program {
    pub steps: Vec<Step>,
    /// `index[offset / 4 - first_word]`: the step starting at that byte offset, or `u32::MAX`
    /// (only the decoded range is indexed: a code object can hold much more code).
    index: Vec<u32>,
    first_word: usize,
    /// Guest address of byte 0 of the program.
    pub base: u64,
    pub wave64: bool,
    pub target: &'static str,
}

impl Program {
    /// Decodes `code` linearly. Words that do not decode become [`Kind::Invalid`] steps, which
    /// fault only if executed (kernels are followed by padding and other functions).
    pub fn decode(dec: &Decoder, code: &[u8], base: u64) -> Program {
        Program::decode_range(dec, code, base, 0..code.len())
    }

    /// Decodes only `code[range]` (offsets stay those of `code`): one function of a code object
    /// holding many, when only that one is needed.
    pub fn decode_range(dec: &Decoder, code: &[u8], base: u64, range: std::ops::Range<usize>) -> Program {
        let end = range.end.min(code.len());
        let first_word = range.start / 4;
        let mut steps = Vec::with_capacity(end.saturating_sub(range.start) / 6);
        let mut index = vec![u32::MAX; end.div_ceil(4).saturating_sub(first_word)];
        let mut off = range.start;
        while off + 4 <= end {
            let (inst, len) = match dec.decode_at(&code[..end], off) {
                Ok(x) => x,
                Err(_) => {
                    index[off / 4 - first_word] = steps.len() as u32;
                    // An invalid word still needs an Inst for the trace: decode s_nop's shape
                    // would mislead, so keep a placeholder with the raw word.
                    let w = u32::from_le_bytes([code[off], code[off + 1], code[off + 2], code[off + 3]]);
                    if let Some(s) = invalid_step(dec, off as u32, w) {
                        steps.push(s);
                    }
                    off += 4;
                    continue;
                }
            };
            index[off / 4 - first_word] = steps.len() as u32;
            steps.push(resolve(inst, off as u32));
            off += len;
        }
        Program { steps, index, first_word, base, wave64: dec.target.wave64, target: dec.target.name }
    }

    /// The step at byte offset `off`, if an instruction starts there.
    #[inline]
    /// Whether byte offset `off` lies in the decoded range.
    pub fn covers(&self, off: u64) -> bool {
        ((off / 4) as usize).checked_sub(self.first_word).is_some_and(|w| w < self.index.len())
    }

    pub fn at(&self, off: u64) -> Option<usize> {
        if off % 4 != 0 {
            return None;
        }
        let i = *self.index.get(((off / 4) as usize).checked_sub(self.first_word)?)?;
        (i != u32::MAX).then_some(i as usize)
    }
}

/// A step for a word that does not decode: it keeps an `s_nop`-shaped Inst only so that the
/// step has something to print; executing it faults with the raw word.
fn invalid_step(dec: &Decoder, pc: u32, word: u32) -> Option<Step> {
    let (inst, _) = dec.decode(&0xbf80_0000u32.to_le_bytes()).ok()?;
    let mut s = resolve(inst, pc);
    s.kind = Kind::Invalid(word);
    Some(s)
}

/// Resolves an instruction's semantics and operands.
pub fn resolve(inst: Inst, pc: u32) -> Step {
    let kind = sem::classify(&inst);
    let mut step = Step {
        pc,
        inst,
        kind,
        src: [Src::None; 3],
        sw: [1; 3],
        dst: src::NULL,
        dw: 1,
        sdst: src::NULL,
        imm: [ImmTy::B32; 3],
        nsrc: 0,
        vop3b: inst.format.is_vop3() && inst.entry.operands.iter().any(|o| o.field == Field::Sdst),
        fast: false,
        plain: false,
    };
    let wave64 = inst.wave64;
    let mut lds_direct = false;
    for op in inst.entry.operands {
        let raw = inst.field(op.field);
        let width = if op.mask && wave64 { op.width * 2 } else { op.width };
        let slot = match op.field {
            Field::Ssrc0 | Field::Src0 => Some(0),
            Field::Ssrc1 | Field::Src1 | Field::Vsrc1 => Some(1),
            Field::Src2 => Some(2),
            _ => None,
        };
        match (op.field, slot) {
            (_, Some(i)) => {
                let is_vgpr_field = matches!(op.field, Field::Vsrc1)
                    || (op.field == Field::Src0 && (inst.format.is_dpp16() || inst.format.is_dpp8()))
                    || (inst.format.is_sdwa() && !sdwa_scalar(&inst, op.field));
                step.src[i] = if is_vgpr_field {
                    Src::Vgpr(raw)
                } else if inst.format.is_sdwa() {
                    operand(raw, op.imm, width, None)
                } else {
                    let sop = matches!(op.field, Field::Ssrc0 | Field::Ssrc1);
                    // Packed f16 operations take inline float constants as f16 values (in the
                    // low half; op_sel_hi picks the half each lane half reads).
                    let packed_f16 = inst.format == Format::Vop3p && inst.entry.name.contains("_f16") && !inst.entry.name.starts_with("v_fma_mix");
                    let imm = if packed_f16 { ImmTy::F16 } else { op.imm };
                    lds_direct |= (if sop { raw & 0xff } else { raw }) == SRC_LDS_DIRECT;
                    operand(if sop { raw & 0xff } else { raw }, imm, width, inst.literal)
                };
                step.sw[i] = width;
                step.imm[i] = op.imm;
                if op.class == rdna_isa::Class::Vgpr16 {
                    // A true16 half: the register without its half bit (`valu::mods` keeps that
                    // as op_sel), read as 16-bit data.
                    if let Src::Vgpr(r) = step.src[i] {
                        step.src[i] = Src::Vgpr(r & 0x7f);
                    }
                    step.imm[i] = ImmTy::I16;
                }
                step.nsrc += 1;
            }
            (Field::Vdst | Field::Sdst, _) if op.field == Field::Sdst && inst.format.is_vop3() => {
                // VOP3B carry-out or VOPC's mask destination.
                step.sdst = raw;
                if inst.entry.operands.iter().all(|o| o.field != Field::Vdst) {
                    step.dst = raw;
                    step.dw = width;
                }
            }
            (Field::Vdst | Field::Sdst, _) => {
                // A VDST field naming an SGPR (compare masks, readlane) uses the scalar numbering.
                step.dst = match op.class {
                    rdna_isa::Class::Sgpr => rdna_disasm::decode::swap_m0_null(inst.gen, raw),
                    // A true16 half (see `valu::mods`).
                    rdna_isa::Class::Vgpr16 => raw & 0x7f,
                    _ => raw,
                };
                step.dw = width;
            }
            (Field::Simm16, _) => {
                step.src[0] = Src::Const(raw as u64);
            }
            // s_memtime and s_memrealtime: SMEM encodings whose SDATA is a plain destination
            // (loads address their registers from the raw word).
            (Field::Sdata, _) if matches!(step.kind, Kind::Salu(_)) => {
                step.dst = raw;
                step.dw = width;
            }
            _ => {}
        }
    }
    // An LDS read addressed by M0 in place of a source: refused by name rather than read as 0.
    if lds_direct && !matches!(step.kind, Kind::Invalid(_)) {
        step.kind = Kind::Unsupported("src_lds_direct (a source read from LDS at M0) is not emulated");
    }
    // VOP3 modifier bits: abs [10:8], op_sel [14:11], clamp [15], omod [60:59], neg [63:61]
    // (VOP3B keeps its carry-out SDST in [14:8]).
    let plain_vop3 = inst.format == Format::Vop3
        && inst.raw >> 59 == 0
        && if step.vop3b { inst.raw & (1 << 15) == 0 } else { inst.raw & (0xff << 8) == 0 };
    let plain = matches!(inst.format, Format::Vop1 | Format::Vop2 | Format::Vopc) || plain_vop3;
    step.plain = plain;
    let narrow = step.sw.iter().take(step.nsrc as usize).all(|&w| w == 1);
    step.fast = match step.kind {
        Kind::Valu(crate::sem::VOp::MadU64U32 | crate::sem::VOp::MadI64I32) => plain && step.sw[0] == 1 && step.sw[1] == 1 && step.dw == 2,
        Kind::Valu(op) => plain && narrow && step.dw == 1 && crate::fast::supported(op),
        Kind::Vcmp { ty, .. } => plain && narrow && crate::fast::compare_supported(ty),
        _ => false,
    };
    // VOPC e32 writes VCC; its source slot 1 is VSRC1.
    if matches!(inst.format, Format::Vopc | Format::VopcSdwa | Format::VopcDpp16 | Format::VopcDpp8) {
        step.sdst = if inst.format == Format::VopcSdwa && inst.raw >> 47 & 1 != 0 {
            (inst.raw >> 40 & 0x7f) as u16
        } else {
            crate::wave::sreg::VCC as u16
        };
        step.dst = step.sdst;
    }
    step
}

fn sdwa_scalar(inst: &Inst, field: Field) -> bool {
    let b = if field == Field::Src0 { 55 } else { 63 };
    inst.raw >> b & 1 != 0
}

/// The source encoding of `src_lds_direct`.
const SRC_LDS_DIRECT: u16 = 254;

/// A source value (9-bit VALU or 8-bit SALU encoding) as an operand of the given type.
pub fn operand(v: u16, imm: ImmTy, width: u8, literal: Option<u32>) -> Src {
    match v {
        0..=127 => Src::Sgpr(v),
        128..=208 => {
            let i = src::inline_int(v).unwrap_or(0) as i64;
            Src::Const(if width >= 2 { i as u64 } else if matches!(imm, ImmTy::I16 | ImmTy::F16) { i as u64 & 0xffff_ffff } else { i as u32 as u64 })
        }
        240..=248 => {
            let (f32b, f16b, f64b) = src::inline_float(v).unwrap_or((0, 0, 0));
            Src::Const(match imm {
                ImmTy::F16 | ImmTy::I16 => f16b as u64,
                ImmTy::F64 | ImmTy::B64 => f64b,
                _ if width >= 2 => f64b,
                _ => f32b as u64,
            })
        }
        src::LITERAL => {
            let l = literal.unwrap_or(0) as u64;
            Src::Const(match imm {
                ImmTy::F64 => l << 32,
                _ => l,
            })
        }
        // Aperture registers: a 32-bit read gives the high half of the address, a 64-bit read
        // the whole base (or the last byte, for the limits).
        235..=238 => {
            let hi = if v <= 236 { crate::wave::SHARED_APERTURE_HI } else { crate::wave::PRIVATE_APERTURE_HI } as u64;
            let limit = v == 236 || v == 238;
            Src::Const(match (width >= 2, limit) {
                (true, false) => hi << 32,
                (true, true) => hi << 32 | 0xffff_ffff,
                (false, _) => hi,
            })
        }
        239 => Src::Const(0),
        251 => Src::Vccz,
        252 => Src::Execz,
        253 => Src::Scc,
        256..=511 => Src::Vgpr(v - 256),
        _ => Src::None,
    }
}
