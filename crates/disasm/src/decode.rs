//! Bytes → [`Inst`]: format identification, opcode lookup and encoding checks.
//!
//! Decoding never allocates and never panics: every failure is a [`DecodeError`] that carries the
//! byte offset of the instruction.

use rdna_isa::{src, Format, Generation, Isa, OpEntry, Target};

use crate::plan::Plans;

/// One decoded instruction: its format, its table entry and its raw words.
///
/// Operand fields are read from the raw words on demand (see [`Inst::field`]), which keeps
/// decoding cheap; [`Inst::operands`] gives them as typed values.
#[derive(Clone, Copy, Debug)]
pub struct Inst {
    pub format: Format,
    pub entry: &'static OpEntry,
    /// The first two dwords of the encoding (the second is 0 for 32-bit formats).
    pub raw: u64,
    /// The 32-bit literal constant that follows the encoding, when an operand uses one.
    pub literal: Option<u32>,
    /// Length in bytes, literal included.
    pub len: u8,
    /// Decoded for a wave64 target: lane-mask operands are 64-bit.
    pub wave64: bool,
    /// MIMG NSA dwords: further address VGPRs, one per byte.
    pub nsa: [u32; 3],
    /// The third dword of gfx11 VOP3 DPP encodings (DPP control and the real src0).
    pub ext: u32,
    /// The generation the instruction was decoded for.
    pub gen: Generation,
    /// The swept tables the entry came from (the target's, or its fallback's).
    pub isa: Isa,
}

/// Why bytes could not be decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Fewer bytes remain than the encoding needs.
    #[error("truncated instruction at offset {offset:#x}: needs {needed} bytes, {available} left")]
    Truncated { offset: usize, needed: usize, available: usize },
    /// The word is not a valid encoding for the target.
    #[error("invalid encoding {word:#010x} at offset {offset:#x}")]
    Invalid { offset: usize, word: u32 },
}

impl DecodeError {
    pub fn offset(&self) -> usize {
        match *self {
            DecodeError::Truncated { offset, .. } | DecodeError::Invalid { offset, .. } => offset,
        }
    }
}

/// A decoder configured for one target.
#[derive(Clone, Copy, Debug)]
pub struct Decoder {
    pub target: Target,
    /// How each opcode's operands are checked, worked out on first use (see [`crate::plan`]).
    plans: &'static Plans,
}

#[inline]
fn bits(raw: u64, lo: u32, width: u32) -> u32 {
    // Bit 64 and above stand for fields a generation does not have: they read as zero.
    (raw.checked_shr(lo).unwrap_or(0) & ((1u64 << width) - 1)) as u32
}

/// Identifies the format of a first dword and extracts its opcode. VOP and SOP layouts are the
/// same from gfx8 to gfx12; the rest differ by generation (gfx7: SMRD, 9-bit VOP3 opcodes; gfx8/9:
/// GCN's memory layouts; gfx11: VOPD where gfx10 has VINTRP, FLAT's segment at bits 17:16, MTBUF's
/// 4-bit opcode at 18:15; gfx12: the 96-bit memory formats).
#[inline]
fn classify(w: u32, gen: Generation) -> Option<(Format, u32)> {
    let r = w as u64;
    if w >> 31 == 0 {
        return Some(match w >> 25 {
            0x3F => (Format::Vop1, bits(r, 9, 8)),
            0x3E => (Format::Vopc, bits(r, 17, 8)),
            op => (Format::Vop2, op),
        });
    }
    if w >> 30 == 0b10 {
        return Some(match w >> 23 {
            0x17D => (Format::Sop1, bits(r, 8, 8)),
            0x17E => (Format::Sopc, bits(r, 16, 7)),
            0x17F => (Format::Sopp, bits(r, 16, 7)),
            _ if w >> 28 == 0b1011 => (Format::Sopk, bits(r, 23, 5)),
            _ => (Format::Sop2, bits(r, 23, 7)),
        });
    }
    if gen == Generation::Gfx7 {
        if w >> 27 == 0b11000 {
            return Some((Format::Smem, bits(r, 22, 5))); // SMRD
        }
        return Some(match w >> 26 {
            0b110100 => (Format::Vop3, bits(r, 17, 9)),
            0b110010 => (Format::Vintrp, bits(r, 16, 2)),
            0b111110 => (Format::Exp, 0),
            0b110110 => (Format::Ds, bits(r, 18, 8)),
            0b110111 => (Format::Flat, bits(r, 18, 7)),
            0b111000 => (Format::Mubuf, bits(r, 18, 7)),
            0b111010 => (Format::Mtbuf, bits(r, 16, 3)),
            0b111100 => (Format::Mimg, bits(r, 18, 7)),
            _ => return None,
        });
    }
    if gen.is_gcn() {
        return Some(match w >> 26 {
            0b110000 => (Format::Smem, bits(r, 18, 8)),
            0b110100 if w >> 23 == 0b1_1010_0111 => (Format::Vop3p, bits(r, 16, 7)),
            0b110100 => (Format::Vop3, bits(r, 16, 10)),
            0b110101 => (Format::Vintrp, bits(r, 16, 2)),
            0b110001 => (Format::Exp, 0),
            0b110110 => (Format::Ds, bits(r, 17, 8)),
            0b110111 => (
                match bits(r, 14, 2) {
                    0 => Format::Flat,
                    1 => Format::Scratch,
                    2 => Format::Global,
                    _ => return None,
                },
                bits(r, 18, 7),
            ),
            0b111000 => (Format::Mubuf, bits(r, 18, 7)),
            0b111010 => (Format::Mtbuf, bits(r, 15, 4)),
            0b111100 => (Format::Mimg, bits(r, 18, 7)),
            _ => return None,
        });
    }
    if gen == Generation::Gfx12 {
        return Some(match w >> 26 {
            0b110010 => (Format::Vopd, 0),
            0b111110 => (Format::Exp, 0),
            0b110011 if w >> 24 == 0xcc && bits(r, 23, 1) == 0 => (Format::Vop3p, bits(r, 16, 7)),
            0b110011 if w >> 24 == 0xcd => (Format::Vinterp, bits(r, 16, 7)),
            0b110011 if w >> 24 == 0xce => (Format::Ldsdir, bits(r, 20, 2)),
            0b110101 => (Format::Vop3, bits(r, 16, 10)),
            0b110110 => (Format::Ds, bits(r, 18, 8)),
            0b111101 => (Format::Smem, bits(r, 13, 6)),
            // VBUFFER: typed (MTBUF) when bits 21:18 are 0b1000.
            0b110001 if bits(r, 18, 4) == 0b1000 => (Format::Mtbuf, bits(r, 14, 4)),
            0b110001 => (Format::Mubuf, bits(r, 14, 8)),
            0b111011 => (
                match bits(r, 24, 2) {
                    0 => Format::Flat,
                    1 => Format::Scratch,
                    2 => Format::Global,
                    _ => return None,
                },
                bits(r, 14, 8),
            ),
            // VIMAGE and VSAMPLE share one table: VSAMPLE's opcodes from 0x100.
            0b110100 => (Format::Mimg, bits(r, 14, 8)),
            0b111001 => (Format::Mimg, 0x100 | bits(r, 14, 8)),
            _ => return None,
        });
    }
    let g11 = gen == Generation::Gfx11;
    let flat_seg = if g11 { bits(r, 16, 2) } else { bits(r, 14, 2) };
    Some(match w >> 26 {
        0b110010 if g11 => (Format::Vopd, 0),
        0b110010 => (Format::Vintrp, bits(r, 16, 2)),
        0b111110 => (Format::Exp, 0),
        0b110011 if bits(r, 23, 3) == 0 && (!g11 || w >> 24 == 0xcc) => (Format::Vop3p, bits(r, 16, 7)),
        0b110011 if g11 && w >> 24 == 0xcd => (Format::Vinterp, bits(r, 16, 7)),
        0b110011 if g11 && w >> 24 == 0xce => (Format::Ldsdir, bits(r, 20, 2)),
        0b110101 => (Format::Vop3, bits(r, 16, 10)),
        0b110110 => (Format::Ds, bits(r, 18, 8)),
        0b110111 => (
            match flat_seg {
                0 => Format::Flat,
                1 => Format::Scratch,
                2 => Format::Global,
                _ => return None,
            },
            bits(r, 18, 7),
        ),
        0b111000 => (Format::Mubuf, bits(r, 18, 8)),
        // gfx10 MTBUF's opcode bit 3 lives in the second dword (bit 53); decode_at adds it.
        0b111010 if g11 => (Format::Mtbuf, bits(r, 15, 4)),
        0b111010 => (Format::Mtbuf, bits(r, 16, 3)),
        0b111101 => (Format::Smem, bits(r, 18, 8)),
        0b111100 if g11 => (Format::Mimg, bits(r, 18, 8)),
        0b111100 => (Format::Mimg, bits(r, 18, 7) | bits(r, 0, 1) << 7),
        _ => return None,
    })
}

impl Decoder {
    pub fn new(target: Target) -> Decoder {
        Decoder { target, plans: Plans::of(target) }
    }

    /// Decodes the instruction at the start of `bytes`.
    #[inline]
    pub fn decode(&self, bytes: &[u8]) -> Result<(Inst, usize), DecodeError> {
        self.decode_at(bytes, 0)
    }

    /// Decodes the instruction at `offset` in `code`; errors report that offset.
    #[inline]
    pub fn decode_at(&self, code: &[u8], offset: usize) -> Result<(Inst, usize), DecodeError> {
        self.decode_with(code, offset, true)
    }

    /// [`Decoder::decode`] with every operand checked by the definition instead of the plans
    /// (the reference the plans are tested against).
    #[cfg(test)]
    pub(crate) fn decode_by_definition(&self, bytes: &[u8]) -> Result<(Inst, usize), DecodeError> {
        self.decode_with(bytes, 0, false)
    }

    fn decode_with(&self, code: &[u8], offset: usize, planned: bool) -> Result<(Inst, usize), DecodeError> {
        let bytes = code.get(offset..).unwrap_or(&[]);
        let word = |i: usize| -> Option<u32> {
            bytes.get(4 * i..4 * i + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let truncated = |needed: usize| DecodeError::Truncated { offset, needed, available: bytes.len() };
        let w0 = word(0).ok_or_else(|| truncated(4))?;
        let invalid = DecodeError::Invalid { offset, word: w0 };
        let gen = self.target.generation;
        let (mut format, mut op) = classify(w0, gen).ok_or(invalid)?;
        // gfx7 has no SDWA or DPP: there 0xf9/0xfa are reserved source values.
        let extends = gen != Generation::Gfx7 && !matches!(format, Format::Vop3 | Format::Vop3p);
        if let Some(ext) = format.extended((w0 & 0x1ff) as u16).filter(|_| extends) {
            format = ext;
        }
        if matches!(format, Format::Vop3 | Format::Vop3p) && matches!(gen, Generation::Gfx11 | Generation::Gfx12) {
            // gfx11 VOP3/VOP3P DPP: src0 (bits 40:32) selects it, a third dword follows.
            if let Some(w1) = word(1) {
                if let Some(ext) = format.extended((w1 & 0x1ff) as u16) {
                    format = ext;
                }
            }
        }
        // gfx7's SMRD is one dword.
        let base = match (gen, format) {
            (Generation::Gfx7, Format::Smem) => 4,
            // gfx12's VBUFFER and VFLAT are three dwords (the third: VADDR and the offset).
            (Generation::Gfx12, Format::Mubuf | Format::Mtbuf | Format::Flat | Format::Global | Format::Scratch | Format::Mimg) => 12,
            _ => format.base_len(),
        };
        let raw = if base >= 8 { w0 as u64 | (word(1).ok_or_else(|| truncated(8))? as u64) << 32 } else { w0 as u64 };
        let ext = if base == 12 { word(2).ok_or_else(|| truncated(12))? } else { 0 };
        if format == Format::Mtbuf && gen == Generation::Gfx10 {
            op |= bits(raw, 53, 1) << 3;
        }
        let t = &self.target;
        let plan = self.plans.get(format, op).ok_or(invalid)?;
        let (entry, isa) = (plan.entry, plan.isa);
        if raw & plan.must_zero != 0 {
            return Err(invalid);
        }
        let saddr = swap_m0_null(gen, bits(raw, 48, 7) as u16);
        let ok = match format {
            // FLAT (segment 0) has no scalar address (the field must be 0 on gfx8/gfx9) and no
            // load into LDS; an LDS load cannot also set bit 55 (nv, or gfx90a's acc).
            // gfx7 MUBUF/MTBUF: addr64 takes a VGPR pair and excludes offen and idxen; tfe only
            // on loads; lds only on the one-dword loads and not with tfe; MTBUF's reserved
            // number format 6.
            Format::Mubuf | Format::Mtbuf if gen == Generation::Gfx7 => {
                let n = entry.name;
                let addr64_ok = bits(raw, 15, 1) == 0 || (bits(raw, 12, 2) == 0 && bits(raw, 32, 8) != 255);
                let pair_ok = bits(raw, 12, 2) != 3 || bits(raw, 32, 8) != 255;
                let tfe_ok = bits(raw, 55, 1) == 0 || format == Format::Mtbuf || n.contains("load");
                let lds_ok = format == Format::Mtbuf
                    || bits(raw, 16, 1) == 0
                    || (bits(raw, 55, 1) == 0
                        && ["ubyte", "sbyte", "ushort", "sshort", "dword", "format_x"].iter().any(|k| n == format!("buffer_load_{k}")));
                let nfmt_ok = format == Format::Mubuf || bits(raw, 23, 3) != 6;
                addr64_ok && pair_ok && tfe_ok && lds_ok && nfmt_ok
            }
            Format::Flat if gen == Generation::Gfx7 => true,
            // gfx7 MIMG: gathers take one channel; atomics one dword or a pair (cmpswap a pair
            // or a quad).
            Format::Mimg if gen == Generation::Gfx7 => {
                let dmask = bits(raw, 8, 4);
                let n = entry.name;
                if n.starts_with("image_gather4") {
                    dmask.count_ones() == 1
                } else if n.starts_with("image_atomic") {
                    let tfe_ok = bits(raw, 16, 1) == 0;
                    tfe_ok && if n.contains("cmpswap") { matches!(dmask, 3 | 15) } else { matches!(dmask, 1 | 3) }
                } else {
                    true
                }
            }
            // gfx7 interpolation: attributes 0-32, and v_interp_mov_f32's parameters p10/p20/p0.
            Format::Vintrp if gen == Generation::Gfx7 => {
                bits(raw, 10, 6) <= 32 && (entry.name != "v_interp_mov_f32" || bits(raw, 0, 8) <= 2)
            }
            // gfx7 export targets: mrt0-7, mrtz, null, pos0-3, param0-31.
            Format::Exp if gen == Generation::Gfx7 => matches!(bits(raw, 4, 6), 0..=9 | 12..=15 | 32..=63),
            Format::Flat if gen.is_gcn() => saddr == 0 && bits(raw, 13, 1) == 0,
            Format::Global | Format::Scratch if gen.is_gcn() && bits(raw, 13, 1) != 0 && bits(raw, 55, 1) != 0 && self.target.isa != Isa::Gfx942 => false,
            Format::Global | Format::Scratch if gen.is_gcn() => {
                saddr == src::EXEC_HI || crate::print::scalar_reg_ok(saddr, if format == Format::Global { 2 } else { 1 })
            }
            // gfx12 VFLAT: SADDR in bits 6:0.
            Format::Flat if gen == Generation::Gfx12 => swap_m0_null(gen, bits(raw, 0, 7) as u16) == src::NULL,
            // (the cache-control operations without operands take no SGPR address at all)
            Format::Global if gen == Generation::Gfx12 => {
                let s = swap_m0_null(gen, bits(raw, 0, 7) as u16);
                s == src::NULL || (crate::print::scalar_reg_ok(s, 2) && !entry.operands.is_empty())
            }
            Format::Scratch if gen == Generation::Gfx12 => {
                let s = swap_m0_null(gen, bits(raw, 0, 7) as u16);
                s == src::NULL || crate::print::scalar_reg_ok(s, 1)
            }
            // gfx12 VBUFFER: with idxen and offen the address is a pair, which cannot start at v255.
            Format::Mubuf | Format::Mtbuf if gen == Generation::Gfx12 => bits(raw, 62, 2) != 3 || ext & 0xff != 255,
            // The GWS operations and ds_ordered_count work on GDS: they exist only with the gds bit
            // (bit 16 on gfx8/gfx9, bit 17 on gfx6/gfx7 and gfx10+).
            Format::Ds if entry.name.starts_with("ds_gws_") || entry.name == "ds_ordered_count" => {
                bits(raw, if matches!(gen, Generation::Gfx8 | Generation::Gfx9) { 16 } else { 17 }, 1) != 0
            }
            // VOPD is a wave32 encoding.
            Format::Vopd => !self.target.wave64 && vopd_ok(isa, raw),
            // FLAT (segment 0) has no scalar address: the SADDR field must hold null (0x7d).
            Format::Flat => saddr == src::NULL,
            Format::Global => saddr == src::NULL || crate::print::scalar_reg_ok(saddr, 2),
            Format::Scratch if gen == Generation::Gfx11 => saddr == src::NULL || crate::print::scalar_reg_ok(saddr, 1),
            Format::Scratch => matches!(saddr, src::NULL | src::EXEC_HI) || crate::print::scalar_reg_ok(saddr, 1),
            // SDWA selects 7 is reserved (llvm-mc-19 crashes on it): rejected as invalid.
            f if f.is_sdwa() => {
                let sels: &[u32] = match f {
                    Format::Vop1Sdwa => &[40, 48],
                    Format::Vop2Sdwa => &[40, 48, 56],
                    _ => &[48, 56],
                };
                sels.iter().all(|&lo| bits(raw, lo, 3) != 7)
            }
            // With idxen and offen the address is a VGPR pair, which cannot start at v255.
            Format::Mubuf | Format::Mtbuf if gen == Generation::Gfx11 => bits(raw, 54, 2) != 3 || bits(raw, 32, 8) != 255,
            Format::Mubuf | Format::Mtbuf if gen.is_gcn() && bits(raw, 12, 2) == 3 && bits(raw, 32, 8) == 255 => false,
            // buffer_store_lds_dword exists only with its lds bit.
            Format::Mubuf if entry.name == "buffer_store_lds_dword" => bits(raw, 16, 1) != 0,
            // A MUBUF load into LDS cannot also return a status dword.
            Format::Mubuf => !(bits(raw, 16, 1) != 0 && bits(raw, 55, 1) != 0),
            _ => true,
        };
        if !ok {
            return Err(invalid);
        }
        let mut inst = Inst { format, entry, raw, literal: None, len: base as u8, wave64: self.target.wave64, nsa: [0; 3], ext, gen, isa };
        if format == Format::Mimg {
            let n = MimgBits::of(gen).nsa_dwords(raw) as usize;
            for k in 0..n {
                inst.nsa[k] = word(2 + k).ok_or_else(|| truncated(base + 4 * (k + 1)))?;
            }
            inst.len += 4 * n as u8;
            if !mimg_shape_ok(&inst) {
                return Err(invalid);
            }
        }
        let Some(uses_literal) = (if format == Format::Vopd {
            Some(vopd_literal(raw))
        } else if planned {
            plan.check(&inst)
        } else {
            Self::check_sources(&inst)
        }) else {
            return Err(invalid);
        };
        if gen == Generation::Gfx7 && !gfx7_constant_bus_ok(&inst) {
            return Err(invalid);
        }
        // gfx7 SMRD: an OFFSET of 0xff without imm means a literal offset dword.
        let smrd_literal = gen == Generation::Gfx7 && t.isa != Isa::Gfx600 && format == Format::Smem && bits(raw, 0, 9) == 0xff
            && inst.entry.operands.iter().any(|o| o.field == rdna_isa::Field::Offset);
        if uses_literal || smrd_literal || plan.literal_token {
            let lit = word(base / 4).ok_or_else(|| truncated(base + 4))?;
            inst.literal = Some(lit);
            inst.len += 4;
        }
        Ok((inst, inst.len as usize))
    }

    /// Operand values that LLVM rejects: reserved source values, registers past the end of their
    /// file, and the extended encodings (DPP, SDWA) that are not decoded yet.
    /// Returns whether a source uses the literal dword, or None if an operand is invalid.
    /// This is the definition; decoding runs it through the opcode's [`Plan`](crate::plan::Plan).
    pub(crate) fn check_sources(inst: &Inst) -> Option<bool> {
        let mut literal = false;
        for i in 0..inst.entry.operands.len() {
            literal |= Self::check_operand(inst, i)?;
        }
        Some(literal)
    }

    /// Whether the `i`-th operand is not one LLVM rejects (None if it is), and whether it is the
    /// literal.
    pub(crate) fn check_operand(inst: &Inst, i: usize) -> Option<bool> {
        use crate::print::{scalar_reg_ok, source_ok};
        use rdna_isa::{Class, Field};
        let mut literal = false;
        let op = &inst.entry.operands[i];
        let v = inst.field(op.field);
        let w = operand_width(inst, op);
        if operand_unchecked(inst, op) {
            return Some(false);
        }
        let ok = match inst.source_kind(i) {
            // gfx7 has no 1/(2*pi) constant and no VOP3 literals; buffer offsets cannot be
            // src_vccz/src_execz/src_scc/src_lds_direct.
            SourceKind::Valu | SourceKind::Salu
                if inst.gen == Generation::Gfx7
                    && (v == src::INV_2PI
                        || (v == src::LITERAL && inst.format == Format::Vop3)
                        || (matches!(inst.format, Format::Mubuf | Format::Mtbuf) && (251..=254).contains(&v))
                        // src_lds_direct: VOP3 takes it as an unmodified SRC0 only.
                        || (v == 254 && inst.format == Format::Vop3 && (op.field != Field::Src0 || inst.raw & (1 << 8 | 1 << 61) != 0))
                        || (v == 254 && inst.entry.name.contains("rev"))
                        || (w >= 2 && inst.format.name().starts_with("SOP") && (251..=254).contains(&v))
                        // No 16-bit inline integers: the operand would need a literal.
                        || (matches!(op.imm, rdna_isa::ImmTy::F16 | rdna_isa::ImmTy::I16) && (129..=208).contains(&v))) =>
            {
                false
            }
            SourceKind::Valu | SourceKind::Salu => {
                literal |= v == rdna_isa::src::LITERAL;
                source_ok(v, w)
            }
            // SDWA sources with their S0/S1 bit are scalar sources (no literal).
            SourceKind::None if inst.format.is_sdwa() && sdwa_scalar(inst, op.field) => {
                v != rdna_isa::src::LITERAL && source_ok(swap_m0_null(inst.gen, v), w)
            }
            SourceKind::None => match (inst.format, op.field, op.class) {
                (Format::Smem, Field::Sbase, _) => scalar_reg_ok(scaled_value(inst, op), w),
                (Format::Mubuf | Format::Mtbuf, Field::Srsrc, _) => scalar_reg_ok(scaled_value(inst, op), 4),
                // gfx11 lets a resource or sampler be null.
                // gfx12: 9-bit fields LLVM prints whatever they hold (flagging what is wrong).
                (Format::Mimg, Field::Srsrc | Field::Ssamp, _) if inst.gen == Generation::Gfx12 => {
                    let v = scaled_value(inst, op);
                    v != src::LITERAL && crate::print::source_ok(v, w)
                }
                (Format::Mimg, Field::Srsrc | Field::Ssamp, _) => {
                    let v = scaled_value(inst, op);
                    (inst.gen == Generation::Gfx11 && v == src::NULL) || scalar_reg_ok(v, w)
                }
                (Format::Mimg, _, _) => true,
                // gfx7 SMRD OFFSET without imm: an SGPR, or 0xff for a literal.
                (Format::Smem, Field::Offset, _) if inst.gen == Generation::Gfx7 => {
                    // (gfx6 has no literal offsets, and no s104/s105)
                    let sgpr = swap_m0_null(inst.gen, v);
                    bits(inst.raw, 8, 1) != 0
                        || (v == 0xff && inst.isa != Isa::Gfx600)
                        || (v < 128 && scalar_reg_ok(sgpr, 1) && !(inst.isa == Isa::Gfx600 && (600..=601).contains(&sgpr)))
                }
                (_, Field::Simm16 | Field::Offset, _) => true,
                (_, _, Class::Vgpr | Class::Agpr) => v as u32 + w <= 256,
                // Every 8-bit value names a half (v0..v127, low or high).
                (_, _, Class::Vgpr16) => true,
                (_, Field::Vdst, Class::Sgpr) => source_ok(swap_m0_null(inst.gen, v), w) && v != rdna_isa::src::LITERAL,
                (_, _, Class::Sgpr) => scalar_reg_ok(v, w),
                (_, _, Class::Other) => true,
            },
        };
        let class = rdna_isa::src::value_class(scaled_value(inst, op));
        // gfx7 has no null or aperture registers, and no way to write what LLVM marks invalid.
        let gfx7_bad = inst.gen == Generation::Gfx7 && {
            let sv = scaled_value(inst, op);
            matches!(class, 6 | 12)
                || op.flag & (1 << class) != 0
                // gfx6 has no flat_scratch (s104/s105 do not exist there).
                || (inst.isa == Isa::Gfx600
                    && ((600..=601).contains(&sv) || (op.class == Class::Sgpr && matches!(sv, 104 | 105))))
                // flat_scratch and tba/tma are pairs; gfx7 has twelve ttmp registers.
                || ((600..=607).contains(&sv) && w >= 4)
                || ((108..=119).contains(&sv) && sv as u32 + w > 120 && op.class != Class::Vgpr)
        };
        if !ok || gfx7_bad || op.reject & (1 << class) != 0 {
            return None;
        }
        Some(literal)
    }
}

/// Operand fields that are not sources although their field says so: every value is valid.
pub(crate) fn operand_unchecked(inst: &Inst, op: &rdna_isa::Operand) -> bool {
    // an 8-bit message id, not a source: every value is one (255 too)
    (op.field == rdna_isa::Field::Ssrc0 && inst.entry.name.starts_with("s_sendmsg_rtn"))
        // an 8-bit index mode, not a source
        || (op.field == rdna_isa::Field::Ssrc1 && inst.entry.name == "s_set_gpr_idx_on")
        // gfx8/gfx9 VOP3 interpolation: SRC0 holds attribute, channel and `high`
        || (op.class == rdna_isa::Class::Other && crate::print::is_vop3_interp(inst))
}

/// gfx7 VALU instructions read at most one scalar value through the constant bus: an SGPR (the
/// same one may be read twice), a literal, or an implicit VCC (carry-in, v_cndmask_b32_e32) or M0
/// (v_movrel*). Inline constants are free.
fn gfx7_constant_bus_ok(inst: &Inst) -> bool {
    if !matches!(inst.format, Format::Vop1 | Format::Vop2 | Format::Vopc | Format::Vop3) {
        return true;
    }
    // The same register at the same width is one read.
    let mut first = None;
    let mut reads = 0;
    let mut read = |v: u16, w: u32| {
        if first != Some((v, w)) {
            reads += 1;
            first.get_or_insert((v, w));
        }
    };
    for (i, op) in inst.entry.operands.iter().enumerate() {
        if inst.source_kind(i) != SourceKind::Valu {
            continue;
        }
        let v = inst.field(op.field);
        // SGPRs and special registers, src_vccz/src_execz/src_scc/src_lds_direct, the literal.
        if v < 128 || v >= 600 || (251..=255).contains(&v) {
            read(v, if v == src::LITERAL { 1 } else { operand_width(inst, op) });
        }
    }
    let vcc_width = if inst.wave64 { 2 } else { 1 };
    if inst.entry.name.starts_with("v_div_fmas") {
        read(src::VCC_LO, vcc_width);
    }
    let toks = inst.entry.tokens;
    if inst.format != Format::Vop3 && toks.len() > 2 && matches!(toks.last(), Some(&"vcc")) {
        read(src::VCC_LO, vcc_width);
    }
    if toks.contains(&"<literal>") {
        read(src::LITERAL, 1);
    }
    if inst.entry.name.starts_with("v_movrel") {
        read(src::M0, 1);
    }
    reads <= 1
}

/// Which source encoding an operand field uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum SourceKind {
    /// A 9-bit VALU source (SGPR, VGPR, constant or literal).
    Valu,
    /// An 8-bit SALU source (SGPR or constant or literal).
    Salu,
    /// A plain register or immediate field.
    None,
}

/// rdna numbers scalar registers as gfx10 does; this maps a generation's encoded scalar number
/// to that numbering where they read it. gfx11 swapped m0 (125) and null (124). gfx8 and gfx9
/// have registers gfx10 lacks at s102..s105 (flat_scratch, xnack_mask) and, on gfx8, s108..s111
/// (tba, tma) with the twelve ttmp registers after them: those get the numbers in [`src::GCN`]
/// (above the 9-bit source range), gfx8's ttmp0..11 become 108..119.
#[inline]
pub fn swap_m0_null(gen: Generation, v: u16) -> u16 {
    match (gen, v) {
        (Generation::Gfx11 | Generation::Gfx12, 124) => 125,
        (Generation::Gfx11 | Generation::Gfx12, 125) => 124,
        (Generation::Gfx8 | Generation::Gfx9, 102..=105) => v - 102 + gcn::FLAT_SCRATCH_LO,
        (Generation::Gfx7, 104..=105) => v - 104 + gcn::FLAT_SCRATCH_LO,
        (Generation::Gfx7 | Generation::Gfx8, 108..=111) => v - 108 + gcn::TBA_LO,
        (Generation::Gfx7 | Generation::Gfx8, 112..=123) => v - 4,
        _ => v,
    }
}

/// rdna's numbers for the scalar registers only gfx8/gfx9 have (see [`swap_m0_null`]).
pub mod gcn {
    pub const FLAT_SCRATCH_LO: u16 = 600;
    pub const XNACK_MASK_LO: u16 = 602;
    pub const TBA_LO: u16 = 604;
    pub const TMA_LO: u16 = 606;
    /// Names of 600..=607 (one dword) and of the even ones as pairs.
    pub const NAMES: [(&str, &str); 4] =
        [("flat_scratch", "flat_scratch_lo"), ("xnack_mask", "xnack_mask_lo"), ("tba", "tba_lo"), ("tma", "tma_lo")];
    pub const HI_NAMES: [&str; 4] = ["flat_scratch_hi", "xnack_mask_hi", "tba_hi", "tma_hi"];
}

/// VOPD fields: X and Y opcodes name operations that exist, and a one-source operation
/// (v_dual_mov_b32) leaves its VSRC1 field zero.
fn vopd_ok(isa: Isa, raw: u64) -> bool {
    let (x, y) = (bits(raw, 22, 4) as usize, bits(raw, 17, 5) as usize);
    let Some((vopd_x, vopd_y)) = isa.tables().vopd else { return false };
    let (Some(xn), Some(yn)) = (vopd_x.get(x), vopd_y.get(y)) else { return false };
    let unary_ok = |name: &str, vsrc1: u32| name != "v_dual_mov_b32" || vsrc1 == 0;
    // Both src0 fields are 9-bit VALU sources: reserved values are invalid.
    let src_ok = |lo: u32| crate::print::source_ok(swap_m0_null(Generation::Gfx11, bits(raw, lo, 9) as u16), 1);
    !xn.is_empty()
        && !yn.is_empty()
        && unary_ok(xn, bits(raw, 9, 8))
        && unary_ok(yn, bits(raw, 41, 8))
        && src_ok(0)
        && src_ok(32)
}

/// Whether a VOPD instruction carries a literal: a 255 source or an fmaak/fmamk half.
fn vopd_literal(raw: u64) -> bool {
    let (x, y) = (bits(raw, 22, 4), bits(raw, 17, 5));
    bits(raw, 0, 9) == 255 || bits(raw, 32, 9) == 255 || matches!(x, 1 | 2) || matches!(y, 1 | 2)
}

impl Inst {
    /// The raw value of an operand field (scalar register numbers in rdna's numbering: see
    /// [`swap_m0_null`]).
    #[inline]
    pub fn field(&self, field: rdna_isa::Field) -> u16 {
        use rdna_isa::Field::*;
        let (lo, width) = self.field_span(field);
        let v = if lo >= 64 {
            (self.ext >> (lo - 64) & ((1u32 << width) - 1)) as u16
        } else {
            bits(self.raw, lo as u32, width as u32) as u16
        };
        if matches!(self.gen, Generation::Gfx11 | Generation::Gfx12 | Generation::Gfx7 | Generation::Gfx8 | Generation::Gfx9) {
            let scalar = match field {
                Sdst | Ssrc0 | Ssrc1 | Sdata | Soffset | Saddr | Src1 | Src2 => true,
                Src0 => width == 9,
                _ => false,
            };
            if scalar {
                return swap_m0_null(self.gen, v);
            }
        }
        v
    }

    /// Where an operand field sits: (lowest bit, width), bits 64 and up in the third dword
    /// ([`Inst::ext`]). Fields wider than 16 bits (SMEM offsets) read truncated through
    /// [`Inst::field`]; the assembler uses the whole span.
    pub fn field_span(&self, field: rdna_isa::Field) -> (u8, u8) {
        use rdna_isa::Field::*;
        if matches!(self.format, Format::Vop3Dpp16 | Format::Vop3Dpp8 | Format::Vop3pDpp16 | Format::Vop3pDpp8) && field == Src0 {
            return (64, 8);
        }
        if self.format == Format::Mimg && field == Ssamp && self.gen != Generation::Gfx12 {
            return (MimgBits::of(self.gen).ssamp as u8, 5);
        }
        match (self.gen, self.format, field) {
            // gfx7's SMRD: SDST 21:15, SBASE 14:9, OFFSET 7:0 (bit 8: immediate).
            (Generation::Gfx7, Format::Smem, Sdata) => (15, 7),
            (Generation::Gfx7, Format::Smem, Sbase) => (9, 6),
            (Generation::Gfx7, Format::Smem, Offset) => (0, 8),
            // gfx7's VOP2 v_readlane_b32/v_writelane_b32: the lane select is an 8-bit scalar
            // source in the VSRC1 bits.
            (Generation::Gfx7, Format::Vop2, Src1) => (9, 8),
            // gfx12: SMEM's 24-bit offset; VBUFFER and VFLAT fields (VADDR/ADDR in the third dword).
            (Generation::Gfx12, Format::Smem, Offset) => (32, 24),
            (Generation::Gfx12, Format::Mubuf | Format::Mtbuf, Vdata) => (32, 8),
            (Generation::Gfx12, Format::Mubuf | Format::Mtbuf, Vaddr) => (64, 8),
            (Generation::Gfx12, Format::Mubuf | Format::Mtbuf, Srsrc) => (41, 7),
            (Generation::Gfx12, Format::Mubuf | Format::Mtbuf, Soffset) => (0, 7),
            (Generation::Gfx12, Format::Flat | Format::Global | Format::Scratch, Vdst) => (32, 8),
            (Generation::Gfx12, Format::Flat | Format::Global | Format::Scratch, Addr) => (64, 8),
            (Generation::Gfx12, Format::Flat | Format::Global | Format::Scratch, Data) => (55, 8),
            (Generation::Gfx12, Format::Flat | Format::Global | Format::Scratch, Saddr) => (0, 7),
            // VIMAGE/VSAMPLE: 9-bit resource and sampler fields, the first address in the third dword.
            (Generation::Gfx12, Format::Mimg, Vdata) => (32, 8),
            (Generation::Gfx12, Format::Mimg, Vaddr) => (64, 8),
            (Generation::Gfx12, Format::Mimg, Srsrc) => (41, 9),
            (Generation::Gfx12, Format::Mimg, Ssamp) => (55, 9),
            _ => FIELD_POS[self.format as usize][field as usize],
        }
    }

    /// A VOPD half: (X or Y operation name, vdst, src0 (9-bit source), vsrc1).
    pub fn vopd_half(&self, y: bool) -> (&'static str, u16, u16, u16) {
        let (vopd_x, vopd_y) = self.isa.tables().vopd.unwrap_or((&[""; 16], &[""; 32]));
        let raw = self.raw;
        if y {
            let vdstx = bits(raw, 56, 8) as u16;
            let vdsty = (bits(raw, 49, 7) as u16) << 1 | ((vdstx & 1) ^ 1);
            let name = vopd_y.get(bits(raw, 17, 5) as usize).copied().unwrap_or("");
            (name, vdsty, swap_m0_null(self.gen, bits(raw, 32, 9) as u16), bits(raw, 41, 8) as u16)
        } else {
            let name = vopd_x.get(bits(raw, 22, 4) as usize).copied().unwrap_or("");
            (name, bits(raw, 56, 8) as u16, swap_m0_null(self.gen, bits(raw, 0, 9) as u16), bits(raw, 9, 8) as u16)
        }
    }

    /// The source encoding of the `i`-th operand.
    pub(crate) fn source_kind(&self, i: usize) -> SourceKind {
        use rdna_isa::Field::*;
        match (self.format, self.entry.operands[i].field) {
            (f, Src0) if f.is_dpp16() || f.is_dpp8() || f.is_sdwa() => SourceKind::None,
            (_, Src0 | Src1 | Src2) => SourceKind::Valu,
            (_, Ssrc0 | Ssrc1) => SourceKind::Salu,
            (Format::Mubuf | Format::Mtbuf, Soffset) => SourceKind::Salu,
            _ => SourceKind::None,
        }
    }

    /// Whether a literal dword follows this instruction.
    pub fn has_literal(&self) -> bool {
        self.literal.is_some()
    }

    /// The mnemonic, as LLVM prints it.
    pub fn mnemonic(&self) -> &'static str {
        self.entry.name
    }
}

/// The width in dwords of an operand, where it depends on other fields of the encoding.
pub(crate) fn operand_width(inst: &Inst, op: &rdna_isa::Operand) -> u32 {
    use rdna_isa::Field;
    let w = if op.mask && inst.wave64 { 2 * op.width as u32 } else { op.width as u32 };
    match (inst.format, op.field) {
        // tfe adds a status dword to the data.
        (Format::Mubuf | Format::Mtbuf, Field::Vdata)
            if bits(inst.raw, match inst.gen { Generation::Gfx11 => 53, Generation::Gfx12 => 22, _ => 55 }, 1) != 0
                && !matches!(inst.isa, Isa::Gfx90a | Isa::Gfx942) =>
        {
            w + 1
        }
        // gfx12's transposing loads spread over twice the lanes in wave64: half the registers.
        (Format::Global, Field::Vdst) if inst.wave64 && inst.entry.name.starts_with("global_load_tr") => w / 2,
        // WMMA accumulators spread over twice the lanes in wave64: half the registers each.
        (Format::Vop3p, Field::Vdst | Field::Src2) if inst.wave64 && inst.entry.name.starts_with("v_wmma") => w / 2,
        // With an SGPR base the VGPR address is a 32-bit offset.
        (Format::Global, Field::Addr) if !flat_saddr_off(inst) => 1,
        _ => w,
    }
}

/// Whether a GLOBAL/SCRATCH instruction has no scalar address: SADDR holds null (gfx8/gfx9:
/// 0x7f, read as exec_hi).
pub(crate) fn flat_saddr_off(inst: &Inst) -> bool {
    let off = if inst.gen.is_gcn() { src::EXEC_HI } else { src::NULL };
    inst.field(rdna_isa::Field::Saddr) == off
}

/// An operand field's value as a source-operand number (SMEM bases and buffer resources are stored
/// divided by 2 and 4).
pub(crate) fn scaled_value(inst: &Inst, op: &rdna_isa::Operand) -> u16 {
    use rdna_isa::Field;
    let v = inst.field(op.field);
    match (inst.format, op.field) {
        (Format::Smem, Field::Sbase) => swap_m0_null(inst.gen, v * 2),
        // gfx12 names the buffer/image resource and the sampler by their first register.
        (Format::Mubuf | Format::Mtbuf | Format::Mimg, Field::Srsrc | Field::Ssamp) if inst.gen == Generation::Gfx12 => {
            swap_m0_null(inst.gen, v)
        }
        (Format::Mubuf | Format::Mtbuf | Format::Mimg, Field::Srsrc | Field::Ssamp) => swap_m0_null(inst.gen, v * 4),
        _ => v,
    }
}

/// Whether an SDWA source field names a scalar source (its S0/S1 bit is set).
pub(crate) fn sdwa_scalar(inst: &Inst, field: rdna_isa::Field) -> bool {
    if inst.gen == Generation::Gfx8 {
        return false; // gfx8's SDWA sources are always VGPRs
    }
    let b = if field == rdna_isa::Field::Src0 { 55 } else { 63 };
    bits(inst.raw, b, 1) != 0
}

/// The shape LLVM gives a MIMG instruction: (address VGPRs, data VGPRs), 0 where it rejects it.
pub(crate) fn mimg_shape(inst: &Inst) -> (u32, u32) {
    let Some(shapes) = inst.isa.tables().mimg else { return (0, 0) };
    let Some(&i) = inst.isa.tables().get(Format::Mimg).index.get(inst.entry.op as usize) else { return (0, 0) };
    let Some(&t) = shapes.index.get(i as usize) else { return (0, 0) };
    let raw = inst.raw;
    let mb = MimgBits::of_inst(inst);
    let comps = bits(raw, mb.dmask, 4).count_ones().max(1);
    let k = ((mb.dim(raw) * 2 + bits(raw, mb.a16, 1)) * 4 + mb.nsa_dwords(raw)) * 16
        + (comps - 1) * 4
        + bits(raw, mb.d16, 1) * 2
        + bits(raw, mb.tfe, 1);
    let b = shapes.tables[t as usize][k as usize] as u32;
    let (addr, data) = (b & 31, b >> 5);
    let nsa = mb.nsa_dwords(raw);
    let vdata = inst.field(rdna_isa::Field::Vdata) as u32;
    let vaddr = inst.field(rdna_isa::Field::Vaddr) as u32;
    if inst.gen == Generation::Gfx12 {
        // gfx12 lists its addresses field by field: only the data must fit, else LLVM keeps the
        // encoded variant's data width.
        if b == 0 {
            return (0, 0);
        }
        if vdata + data > 256 {
            let o = shapes.original[i as usize][0] as u32;
            return if o != 0 && vdata + (o >> 5) <= 256 { (addr, o >> 5) } else { (0, 0) };
        }
        return (addr, data);
    }
    if b != 0 && (vdata + data > 256 || (nsa == 0 && vaddr + addr > 256)) {
        if inst.gen == Generation::Gfx7 {
            return (0, 0); // no text for gfx7 says "the encoded variant": the registers must fit
        }
        // No register tuple that wide at this position: LLVM keeps the encoded variant.
        let o = shapes.original[i as usize][nsa as usize] as u32;
        let (addr, data) = (o & 31, o >> 5);
        let fits = vdata + data <= 256 && (nsa != 0 || vaddr + addr <= 256);
        return if fits { (addr, data) } else { (0, 0) };
    }
    (addr, data)
}

/// The most address VGPRs a MIMG opcode takes in any dim (full-width addresses, one channel).
fn mimg_max_addresses(inst: &Inst) -> u32 {
    let t = inst.isa.tables();
    let Some(shapes) = t.mimg else { return 0 };
    let Some(&i) = t.get(Format::Mimg).index.get(inst.entry.op as usize) else { return 0 };
    let Some(&k) = shapes.index.get(i as usize) else { return 0 };
    (0..8).map(|dim| shapes.tables[k as usize][dim * 2 * 4 * 16] as u32 & 31).max().unwrap_or(0)
}

fn mimg_shape_ok(inst: &Inst) -> bool {
    let (a, d) = mimg_shape(inst);
    if inst.gen == Generation::Gfx12 {
        // LLVM requires the address fields the opcode never uses (past its most addresses over
        // every dim, without a16) to be zero (VIMAGE has five fields, the fifth in bits 63:56;
        // VSAMPLE four).
        let n = mimg_max_addresses(inst);
        let fields = if inst.entry.op >= 0x100 { 4 } else { 5 };
        let field = |k: u32| if k < 4 { inst.ext >> (8 * k) & 0xff } else { bits(inst.raw, 56, 8) };
        if (n..fields).any(|k| field(k) != 0) {
            return false;
        }
    }
    let nsa = MimgBits::of(inst.gen).nsa_dwords(inst.raw) != 0 || inst.gen == Generation::Gfx12;
    let (vdata, vaddr) = (inst.field(rdna_isa::Field::Vdata) as u32, inst.field(rdna_isa::Field::Vaddr) as u32);
    a != 0 && d != 0 && vdata + d <= 256 && (nsa || vaddr + a <= 256)
}

/// Where a generation keeps the MIMG fields that shape the operands and modifiers (bit numbers in
/// the first two dwords).
#[derive(Clone, Copy, Debug)]
pub(crate) struct MimgBits {
    /// Bit 64 where the generation has no dim field.
    dim_lo: u32,
    pub dmask: u32,
    nsa_lo: u32,
    nsa_width: u32,
    pub a16: u32,
    pub d16: u32,
    pub tfe: u32,
    pub lwe: u32,
    pub unorm: u32,
    pub glc: u32,
    pub slc: u32,
    pub dlc: u32,
    pub r128: u32,
    pub ssamp: u32,
}

impl MimgBits {
    pub(crate) const fn of(gen: Generation) -> MimgBits {
        match gen {
            Generation::Gfx10 => MimgBits {
                dim_lo: 3, dmask: 8, nsa_lo: 1, nsa_width: 2, a16: 62, d16: 63, tfe: 16, lwe: 17,
                unorm: 12, glc: 13, slc: 25, dlc: 7, r128: 15, ssamp: 53,
            },
            // gfx7: gfx8's layout without d16.
            Generation::Gfx7 => MimgBits {
                dim_lo: 64, dmask: 8, nsa_lo: 1, nsa_width: 0, a16: 15, d16: 64, tfe: 16, lwe: 17,
                unorm: 12, glc: 13, slc: 25, dlc: 64, r128: 64, ssamp: 53,
            },
            // gfx9: no dim and no NSA; bit 14 is `da`, bit 15 `r128` (`a16` on gfx9).
            Generation::Gfx8 | Generation::Gfx9 => MimgBits {
                dim_lo: 64, dmask: 8, nsa_lo: 1, nsa_width: 0, a16: 15, d16: 63, tfe: 16, lwe: 17,
                unorm: 12, glc: 13, slc: 25, dlc: 64, r128: 64, ssamp: 53,
            },
            // gfx12 VIMAGE (VSAMPLE: see `of_inst`): the addresses sit in their own fields.
            Generation::Gfx12 => MimgBits {
                dim_lo: 0, dmask: 22, nsa_lo: 0, nsa_width: 0, a16: 6, d16: 5, tfe: 55, lwe: 64,
                unorm: 64, glc: 64, slc: 64, dlc: 64, r128: 4, ssamp: 55,
            },
            // gfx11: one NSA bit (one dword of up to four more addresses).
            Generation::Gfx11 => MimgBits {
                dmask: 8,
                dim_lo: 2, nsa_lo: 0, nsa_width: 1, a16: 16, d16: 17, tfe: 53, lwe: 54,
                unorm: 7, glc: 14, slc: 12, dlc: 13, r128: 15, ssamp: 58,
            },
        }
    }

    /// How many NSA dwords follow the instruction.
    pub(crate) fn nsa_dwords(&self, raw: u64) -> u32 {
        bits(raw, self.nsa_lo, self.nsa_width)
    }

    pub(crate) fn dim(&self, raw: u64) -> u32 {
        bits(raw, self.dim_lo, 3)
    }

    /// The layout of this instruction's encoding (gfx12's VSAMPLE keeps tfe and lwe elsewhere
    /// than VIMAGE).
    pub(crate) fn of_inst(inst: &Inst) -> MimgBits {
        let mut mb = MimgBits::of(inst.gen);
        if inst.gen == Generation::Gfx12 && inst.entry.op >= 0x100 {
            mb.tfe = 3;
            mb.lwe = 40;
            mb.unorm = 13;
        }
        mb
    }
}

/// Where each operand field sits in each format: (lowest bit, width); width 0 where the format has
/// no such field.
const fn field_pos(format: Format, field: rdna_isa::Field) -> (u8, u8) {
    use rdna_isa::Field::*;
    match (format, field) {
        (Format::Sop2, Sdst) | (Format::Sopk, Sdst) | (Format::Sop1, Sdst) => (16, 7),
        (_, Ssrc0) => (0, 8),
        (_, Ssrc1) => (8, 8),
        (_, Simm16) => (0, 16),
        (Format::Smem, Sdata) => (6, 7),
        (Format::Smem, Sbase) => (0, 6),
        (Format::Smem, Offset) => (32, 21),
        (Format::Smem, Soffset) => (57, 7),
        (
            Format::Vop1 | Format::Vop2 | Format::Vop1Dpp16 | Format::Vop2Dpp16 | Format::Vop1Dpp8 | Format::Vop2Dpp8
            | Format::Vop1Sdwa | Format::Vop2Sdwa,
            Vdst,
        ) => (17, 8),
        (
            Format::Vop1Dpp16 | Format::Vop2Dpp16 | Format::Vop1Dpp8 | Format::Vop2Dpp8 | Format::Vop1Sdwa
            | Format::Vop2Sdwa | Format::VopcSdwa,
            Src0,
        ) => (32, 8),
        (Format::Vop2Dpp16 | Format::Vop2Dpp8 | Format::Vop2Sdwa | Format::VopcSdwa | Format::VopcDpp16 | Format::VopcDpp8, Vsrc1) => (9, 8),
        (Format::VopcDpp16 | Format::VopcDpp8, Src0) => (32, 8),
        (Format::Vop3Dpp16 | Format::Vop3Dpp8 | Format::Vop3pDpp16 | Format::Vop3pDpp8, Vdst) => (0, 8),
        (Format::Vop3Dpp16 | Format::Vop3Dpp8, Sdst) => (8, 7),
        (Format::Vopd, Vdst) => (56, 8),
        (Format::Vopd, Src0) => (0, 9),
        (Format::Vopd, Vsrc1) => (9, 8),
        (Format::Vop1, Src0) | (Format::Vop2, Src0) | (Format::Vopc, Src0) => (0, 9),
        (Format::Vop2, Vsrc1) | (Format::Vopc, Vsrc1) => (9, 8),
        (Format::Vop3, Vdst) | (Format::Vop3p, Vdst) | (Format::Vinterp, Vdst) | (Format::Ldsdir, Vdst) => (0, 8),
        (Format::Vintrp, Vdst) => (18, 8),
        (Format::Vintrp, Vsrc) => (0, 8),
        (Format::Mimg, Vdata) => (40, 8),
        (Format::Mimg, Vaddr) => (32, 8),
        (Format::Mimg, Srsrc) => (48, 5),
        (Format::Mimg, Ssamp) => (53, 5),
        (Format::Exp, Vsrc0) => (32, 8),
        (Format::Exp, Vsrc1) => (40, 8),
        (Format::Exp, Vsrc2) => (48, 8),
        (Format::Exp, Vsrc3) => (56, 8),
        (Format::Vop3, Sdst) => (8, 7),
        (_, Src0) => (32, 9),
        (_, Src1) => (41, 9),
        (_, Src2) => (50, 9),
        (Format::Ds, Vdst) => (56, 8),
        (Format::Ds, Addr) => (32, 8),
        (Format::Ds, Data0) => (40, 8),
        (Format::Ds, Data1) => (48, 8),
        (_, Vdst) => (56, 8),
        (_, Addr) => (32, 8),
        (_, Data) => (40, 8),
        (_, Saddr) => (48, 7),
        (_, Vdata) => (40, 8),
        (_, Vaddr) => (32, 8),
        (_, Srsrc) => (48, 5),
        (Format::Mubuf, Soffset) | (Format::Mtbuf, Soffset) => (56, 8),
        _ => (0, 0),
    }
}

/// `field_pos` for every (format, field), computed at compile time: decoding reads fields through it.
static FIELD_POS: [[(u8, u8); rdna_isa::Field::ALL.len()]; Format::ALL.len()] = {
    let mut t = [[(0u8, 0u8); rdna_isa::Field::ALL.len()]; Format::ALL.len()];
    let mut i = 0;
    while i < Format::ALL.len() {
        let mut j = 0;
        while j < rdna_isa::Field::ALL.len() {
            let (f, g) = (Format::ALL[i], rdna_isa::Field::ALL[j]);
            t[f as usize][g as usize] = field_pos(f, g);
            j += 1;
        }
        i += 1;
    }
    t
};
