//! Encodings aimed at one opcode: each format's fixed bits (its identifying pattern and opcode
//! position, per generation) with the remaining bits taken from the caller.
//!
//! The differential tests fill the free bits at random; the assembler fills them with zeros to get
//! a first encoding of an instruction and with ones to learn which bits are free.

use rdna_isa::{Format, Generation, Isa};

/// The caller's bits for an aimed encoding: five dwords for the free bits and a word of choices
/// (bit 0: give GLOBAL/SCRATCH no scalar address; bits 3:1 all set: a gfx7 SMRD literal offset).
#[derive(Clone, Copy, Debug, Default)]
pub struct Fill {
    pub words: [u32; 5],
    pub choices: u32,
}

/// The first dword's fixed bits for each format, for generating encodings aimed at a format.
pub fn format_ident(f: Format) -> (u32, u32) {
    match f {
        Format::Sop1 => (0xff80_0000, 0xbe80_0000),
        Format::Sop2 => (0xc000_0000, 0x8000_0000),
        Format::Sopk => (0xf000_0000, 0xb000_0000),
        Format::Sopc => (0xff80_0000, 0xbf00_0000),
        Format::Sopp => (0xff80_0000, 0xbf80_0000),
        Format::Smem => (0xfc00_0000, 0xf400_0000),
        Format::Vop1 => (0xfe00_0000, 0x7e00_0000),
        Format::Vop2 => (0x8000_0000, 0x0000_0000),
        Format::Vopc => (0xfe00_0000, 0x7c00_0000),
        // Extended forms are reached through VOP1/VOP2/VOPC's src0 and sampled there.
        Format::Vop1Dpp16 => (0xfe00_01ff, 0x7e00_00fa),
        Format::Vop1Dpp8 => (0xfe00_01fc, 0x7e00_00e8),
        Format::Vop1Sdwa => (0xfe00_01ff, 0x7e00_00f9),
        Format::Vop2Dpp16 => (0x8000_01ff, 0x0000_00fa),
        Format::Vop2Dpp8 => (0x8000_01fc, 0x0000_00e8),
        Format::Vop2Sdwa => (0x8000_01ff, 0x0000_00f9),
        Format::VopcSdwa => (0xfe00_01ff, 0x7c00_00f9),
        Format::Vop3 => (0xfc00_0000, 0xd400_0000),
        Format::Vop3p => (0xff80_0000, 0xcc00_0000),
        Format::Ds => (0xfc00_0000, 0xd800_0000),
        Format::Flat => (0xfc00_c000, 0xdc00_0000),
        Format::Scratch => (0xfc00_c000, 0xdc00_4000),
        Format::Global => (0xfc00_c000, 0xdc00_8000),
        Format::Mubuf => (0xfc00_0000, 0xe000_0000),
        Format::Mtbuf => (0xfc00_0000, 0xe800_0000),
        Format::Vintrp => (0xfc00_0000, 0xc800_0000),
        Format::Exp => (0xfc00_0000, 0xf800_0000),
        Format::Mimg => (0xfc00_0000, 0xf000_0000),
        // gfx11 only.
        Format::VopcDpp16 => (0xfe00_01ff, 0x7c00_00fa),
        Format::VopcDpp8 => (0xfe00_01fc, 0x7c00_00e8),
        Format::Vop3Dpp16 | Format::Vop3Dpp8 => (0xfc00_0000, 0xd400_0000),
        Format::Vopd => (0xfc00_0000, 0xc800_0000),
        Format::Vinterp => (0xff80_0000, 0xcd00_0000),
        Format::Vop3pDpp16 | Format::Vop3pDpp8 => (0xff80_0000, 0xcc00_0000),
        Format::Ldsdir => (0xffc0_0000, 0xce00_0000),
    }
}

/// Five dwords aimed at format `f` with opcode `op` in `isa`'s encoding family.
pub fn aimed_for(isa: Isa, f: Format, op: u32, fill: Fill) -> [u32; 5] {
    match isa.generation() {
        Generation::Gfx7 => aimed_gfx7(isa, f, op, fill),
        Generation::Gfx8 | Generation::Gfx9 => aimed_gfx9(f, op, fill),
        Generation::Gfx10 => aimed(f, op, fill),
        Generation::Gfx11 => aimed_gfx11(f, op, fill),
        Generation::Gfx12 => aimed_gfx12(f, op, fill),
    }
}

/// Writes opcode `op` of format `f` into an encoding (the format's first-dword pattern must already
/// be there).
pub fn set_opcode(f: Format, op: u32, w: &mut [u32; 5]) {
    let (lo, width) = match f {
        Format::Sop1 => (8, 8),
        Format::Sop2 => (23, 7),
        Format::Sopk => (23, 5),
        Format::Sopc | Format::Sopp => (16, 7),
        Format::Smem | Format::Ds | Format::Mubuf => (18, 8),
        Format::Vop1 | Format::Vop1Dpp16 | Format::Vop1Dpp8 | Format::Vop1Sdwa => (9, 8),
        Format::Vop2 | Format::Vop2Dpp16 | Format::Vop2Dpp8 | Format::Vop2Sdwa => (25, 6),
        Format::Vopc | Format::VopcSdwa | Format::VopcDpp16 | Format::VopcDpp8 => (17, 8),
        Format::Vop3 | Format::Vop3Dpp16 | Format::Vop3Dpp8 => (16, 10),
        Format::Vopd => (22, 4),
        Format::Vop3p | Format::Vop3pDpp16 | Format::Vop3pDpp8 => (16, 7),
        Format::Flat | Format::Scratch | Format::Global => (18, 7),
        Format::Mtbuf => {
            // Opcode bit 3 lives in the second dword (bit 53 of the encoding).
            w[1] = (w[1] & !(1 << 21)) | (op >> 3 & 1) << 21;
            (16, 3)
        }
        Format::Vintrp => (16, 2),
        Format::Vinterp => (16, 7),
        Format::Ldsdir => (20, 2),
        Format::Exp => return,
        Format::Mimg => {
            w[0] = (w[0] & !(0x7f << 18 | 1)) | (op & 0x7f) << 18 | op >> 7;
            return;
        }
    };
    let mask = ((1u32 << width) - 1) << lo;
    w[0] = (w[0] & !mask) | ((op << lo) & mask);
}

/// Five dwords with format `f`'s pattern and opcode `op`.
pub fn aimed(f: Format, op: u32, fill: Fill) -> [u32; 5] {
    let mut w = fill.words;
    let (mask, val) = format_ident(f);
    w[0] = (w[0] & !mask) | val;
    set_opcode(f, op, &mut w);
    if f == Format::Flat {
        // FLAT is only valid with SADDR = null; random SADDR bits would almost never hit it.
        w[1] = (w[1] & !(0x7f << 16)) | 0x7d << 16;
    }
    w
}

/// Five dwords aimed at gfx11 format `f` with opcode `op` (gfx11 moves FLAT's segment to
/// bits 17:16 and MTBUF's opcode to 18:15; VOPD replaces VINTRP; VOP3 DPP is selected by the
/// second dword's src0).
pub fn aimed_gfx11(f: Format, op: u32, fill: Fill) -> [u32; 5] {
    let mut w = fill.words;
    let (mask, val) = match f {
        Format::Flat => (0xfc03_0000, 0xdc00_0000),
        Format::Scratch => (0xfc03_0000, 0xdc01_0000),
        Format::Global => (0xfc03_0000, 0xdc02_0000),
        Format::Vopd => (0xfc00_0000, 0xc800_0000),
        f => format_ident(f),
    };
    w[0] = (w[0] & !mask) | val;
    match f {
        Format::Mtbuf => w[0] = (w[0] & !(0xf << 15)) | (op & 0xf) << 15,
        Format::Vopd => {}
        f => set_opcode(f, op, &mut w),
    }
    match f {
        // FLAT needs SADDR = null (124 on gfx11).
        Format::Flat => w[1] = (w[1] & !(0x7f << 16)) | 0x7c << 16,
        Format::Vop3Dpp16 | Format::Vop3pDpp16 => w[1] = (w[1] & !0x1ff) | 0xfa,
        // DPP8 is src0 0xE9, or 0xEA to fetch inactive lanes: bits 1:0 stay free.
        Format::Vop3Dpp8 | Format::Vop3pDpp8 => w[1] = (w[1] & !0x1fc) | 0xe8,
        _ => {}
    }
    w
}

/// Five dwords aimed at gfx8/gfx9 format `f` with opcode `op` (VOP3 at 0b110100, SMEM at
/// 0b110000, DS's opcode at 24:17, 7-bit MUBUF/MIMG opcodes, EXP and VINTRP at their gfx9 patterns).
pub fn aimed_gfx9(f: Format, op: u32, fill: Fill) -> [u32; 5] {
    let ident = match f {
        Format::Vop3 => Some((0xfc00_0000, 0xd000_0000)),
        Format::Vop3p => Some((0xff80_0000, 0xd380_0000)),
        Format::Smem => Some((0xfc00_0000, 0xc000_0000)),
        Format::Vintrp => Some((0xfc00_0000, 0xd400_0000)),
        Format::Exp => Some((0xfc00_0000, 0xc400_0000)),
        _ => None,
    };
    let opcode = match f {
        Format::Ds => Some((17, 8)),
        Format::Mubuf | Format::Mimg => Some((18, 7)),
        Format::Mtbuf => Some((15, 4)),
        Format::Exp => Some((0, 0)),
        _ => None,
    };
    let mut w = aimed_words(f, op, fill, ident, opcode);
    if matches!(f, Format::Flat | Format::Global | Format::Scratch) && fill.choices & 1 != 0 {
        // "off" (0x7f) in half the cases: random SADDR bits would rarely hit it.
        w[1] = (w[1] & !(0x7f << 16)) | 0x7f << 16;
    }
    w
}

/// Five dwords with a first-dword pattern (`ident`: mask and value; the format's gfx10
/// pattern where None) and opcode `op` in `opcode` (lowest bit, width; where None, where gfx10
/// keeps it; width 0: no opcode field).
fn aimed_words(f: Format, op: u32, fill: Fill, ident: Option<(u32, u32)>, opcode: Option<(u32, u32)>) -> [u32; 5] {
    let mut w = fill.words;
    let (mask, val) = ident.unwrap_or_else(|| format_ident(f));
    w[0] = (w[0] & !mask) | val;
    match opcode {
        None => set_opcode(f, op, &mut w),
        Some((_, 0)) => {}
        Some((lo, width)) => {
            let m = ((1u32 << width) - 1) << lo;
            w[0] = (w[0] & !m) | ((op << lo) & m);
        }
    }
    w
}

/// Five dwords aimed at gfx7 format `f` with opcode `op`: SMRD at 0b11000 (opcode 26:22),
/// VOP3's 9-bit opcode at 25:17, DS's at 25:18, MTBUF's 3-bit opcode at 18:16, VINTRP at 0b110010.
/// The bits the entry marks ignored (fields it does not use, reserved bits) are cleared: the
/// disassembly cannot show them, so reassembly could not give them back.
pub fn aimed_gfx7(isa: Isa, f: Format, op: u32, fill: Fill) -> [u32; 5] {
    let ident = match f {
        Format::Smem => Some((0xf800_0000, 0xc000_0000)),
        Format::Vop3 => Some((0xfc00_0000, 0xd000_0000)),
        Format::Flat => Some((0xfc00_0000, 0xdc00_0000)),
        _ => None,
    };
    let opcode = match f {
        Format::Smem => Some((22, 5)),
        Format::Vop3 => Some((17, 9)),
        Format::Ds => Some((18, 8)),
        Format::Flat | Format::Mubuf | Format::Mimg => Some((18, 7)),
        Format::Mtbuf => Some((16, 3)),
        Format::Vintrp => Some((16, 2)),
        Format::Exp => Some((0, 0)),
        _ => None,
    };
    let mut w = aimed_words(f, op, fill, ident, opcode);
    if f == Format::Smem && fill.choices >> 1 & 7 == 7 {
        w[0] = (w[0] & !0x1ff) | 0xff; // a literal offset
    }
    if let Some(e) = isa.tables().get(f).get(op) {
        w[0] &= !(e.ignored as u32);
        w[1] &= !((e.ignored >> 32) as u32);
        canonical_gfx7(f, e, &mut w);
    }
    w
}

/// Clears what the hardware ignores and a disassembly therefore cannot show: the low bits of
/// scalar register tuples (s[4:5] is all an odd first register can mean) and the fields of
/// disabled export sources.
fn canonical_gfx7(f: Format, e: &rdna_isa::OpEntry, w: &mut [u32; 5]) {
    use rdna_isa::{Class, Field};
    let mut raw = w[0] as u64 | (w[1] as u64) << 32;
    for op in e.operands {
        // 9-bit sources read scalars below 128 whatever class the sweep saw; other fields only
        // where they hold scalar registers.
        if op.width < 2 {
            continue;
        }
        let (lo, width) = match (f, op.field) {
            (Format::Sop1 | Format::Sop2 | Format::Sopk, Field::Sdst) => (16, 7),
            (Format::Vop3, Field::Sdst) => (8, 7),
            (Format::Vop3, Field::Vdst) if op.class == Class::Sgpr => (0, 8),
            (_, Field::Ssrc0) if op.class == Class::Sgpr => (0, 8),
            (_, Field::Ssrc1) if op.class == Class::Sgpr => (8, 8),
            (Format::Smem, Field::Sdata) => (15, 7),
            (Format::Smem, Field::Sbase) => (9, 6),
            (Format::Vop1 | Format::Vop2 | Format::Vopc, Field::Src0) => (0, 9),
            (_, Field::Src0) => (32, 9),
            (_, Field::Src1) => (41, 9),
            (_, Field::Src2) => (50, 9),
            _ => continue,
        };
        let v = (raw >> lo) & ((1 << width) - 1);
        if op.field == Field::Sbase {
            if op.width >= 4 {
                raw &= !(1u64 << lo); // SBASE counts pairs: a quad starts at an even pair
            }
            continue;
        }
        if v < 128 {
            let align = if op.width >= 4 && v < 124 { 3 } else { 1 };
            raw &= !(align << lo);
        }
    }
    if f == Format::Mubuf && raw >> 16 & 1 != 0 {
        raw &= !(0xffu64 << 40); // a load into LDS has no VDATA
    }
    if matches!(f, Format::Mubuf | Format::Mtbuf) && raw >> 12 & 0xb == 0 {
        raw &= !(0xffu64 << 32); // no offen, idxen or addr64: no VGPR address
    }
    if f == Format::Ds && e.name == "ds_swizzle_b32" && raw >> 15 & 1 != 0 {
        raw &= !(0x7fu64 << 8); // QUAD_PERM reads the low byte only
    }
    if f == Format::Exp {
        let compr = raw >> 10 & 1 != 0;
        if compr {
            // Compressed exports enable their two sources by bit pairs; LLVM writes both bits.
            for k in 0..2 {
                if raw >> (2 * k) & 3 != 0 {
                    raw |= 3 << (2 * k);
                }
            }
        }
        let en = raw & 0xf;
        for k in 0..4 {
            // With compr the sources are VSRC0, VSRC0, VSRC1, VSRC1 (enable bits in pairs).
            let used = if compr { k < 2 && en >> (2 * k) & 3 != 0 } else { en >> k & 1 != 0 };
            if !used {
                raw &= !(0xffu64 << (32 + 8 * k));
            }
        }
    }
    w[0] = raw as u32;
    w[1] = (raw >> 32) as u32;
}

/// Five dwords aimed at gfx12 format `f` with opcode `op`: gfx11's patterns except SMEM
/// (opcode 18:13), VBUFFER (0b110001: MUBUF opcode 21:14, MTBUF 17:14 under 0b1000), VFLAT
/// (0b111011, segment 25:24, opcode 21:14, SADDR 6:0) and VIMAGE/VSAMPLE (0b110100/0b111001,
/// opcode 21:14).
pub fn aimed_gfx12(f: Format, op: u32, fill: Fill) -> [u32; 5] {
    let (ident, opcode) = match f {
        Format::Smem => ((0xfc00_0000, 0xf400_0000), (13, 6)),
        Format::Mubuf => ((0xfc00_0000, 0xc400_0000), (14, 8)),
        Format::Mtbuf => ((0xfc3c_0000, 0xc420_0000), (14, 4)),
        Format::Flat => ((0xff00_0000, 0xec00_0000), (14, 8)),
        Format::Scratch => ((0xff00_0000, 0xed00_0000), (14, 8)),
        Format::Global => ((0xff00_0000, 0xee00_0000), (14, 8)),
        // VIMAGE, or VSAMPLE for the merged table's opcodes from 0x100.
        Format::Mimg if op >= 0x100 => ((0xfc00_0000, 0xe400_0000), (14, 8)),
        Format::Mimg => ((0xfc00_0000, 0xd000_0000), (14, 8)),
        _ => return aimed_gfx11(f, op, fill),
    };
    let mut w = aimed_words(f, op, fill, Some(ident), Some(opcode));
    // FLAT needs SADDR = null (124); GLOBAL/SCRATCH get it in half the cases.
    if f == Format::Flat || (matches!(f, Format::Global | Format::Scratch) && fill.choices & 1 != 0) {
        w[0] = (w[0] & !0x7f) | 0x7c;
    }
    w
}

