//! The AMD GPU ISA model shared by every stage of rdna: targets, encoding formats and the opcode
//! tables that say, for each opcode, its mnemonic and its operands.
//!
//! The tables in [`generated`] are produced by `gen/llvm_sweep.py` from sweeps of `llvm-mc-19` over
//! each format's opcode space, so that decoding and printing agree with LLVM by construction.

pub mod table;
pub mod generated {
    //! Generated opcode tables, one file per swept target. Regenerate with
    //! `python3 gen/llvm_sweep.py --all` (or `--mcpu gfx1030` for one).
    pub mod gfx600;
    pub mod gfx700;
    pub mod gfx803;
    pub mod gfx810;
    pub mod gfx900;
    pub mod gfx904;
    pub mod gfx906;
    pub mod gfx908;
    pub mod gfx90a;
    pub mod gfx942;
    pub mod gfx1010;
    pub mod gfx1011;
    pub mod gfx1012;
    pub mod gfx1030;
    pub mod gfx1100;
    pub mod gfx1150;
    pub mod gfx1200;
}
pub mod target;

pub use table::{Class, Field, ImmTy, MimgShapes, OpEntry, OpTable, Operand, Simm, TableSet};
pub use target::{Generation, Isa, Target};

/// The encoding formats of gfx10 (RDNA1/RDNA2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    Sop1,
    Sop2,
    Sopk,
    Sopc,
    Sopp,
    Smem,
    Vop1,
    Vop2,
    Vopc,
    /// VOP1/VOP2 with src0 = 0xFA: a DPP16 control dword follows.
    Vop1Dpp16,
    Vop2Dpp16,
    /// VOP1/VOP2 with src0 = 0xE9 (0xEA: fetch inactive lanes): a DPP8 lane-select dword follows.
    Vop1Dpp8,
    Vop2Dpp8,
    /// VOP1/VOP2/VOPC with src0 = 0xF9: an SDWA control dword follows.
    Vop1Sdwa,
    Vop2Sdwa,
    VopcSdwa,
    Vop3,
    Vop3p,
    Ds,
    Flat,
    Global,
    Scratch,
    Mubuf,
    Mtbuf,
    Vintrp,
    Exp,
    /// Image instructions, with optional NSA (non-sequential address) dwords.
    Mimg,
    /// gfx11: VOPC with src0 = 0xFA / 0xE9 (DPP16 / DPP8 dword follows).
    VopcDpp16,
    VopcDpp8,
    /// gfx11: VOP3 with src0 = 0xFA / 0xE9: a third dword carries the DPP control and real src0.
    Vop3Dpp16,
    Vop3Dpp8,
    /// gfx11: two VALU operations in one instruction (`v_dual_x ... :: v_dual_y ...`).
    Vopd,
    /// gfx11: parameter interpolation from VGPRs (`v_interp_p10_f32 ... wait_exp:N`).
    Vinterp,
    /// gfx11: LDS direct and parameter loads (`lds_param_load v1, attr0.x wait_vdst:0`).
    Ldsdir,
    /// gfx11: VOP3P with src0 = 0xFA / 0xE9: a third dword carries the DPP control and real src0.
    Vop3pDpp16,
    Vop3pDpp8,
}

impl Format {
    pub const ALL: [Format; 36] = [
        Format::Sop1,
        Format::Sop2,
        Format::Sopk,
        Format::Sopc,
        Format::Sopp,
        Format::Smem,
        Format::Vop1,
        Format::Vop2,
        Format::Vopc,
        Format::Vop1Dpp16,
        Format::Vop2Dpp16,
        Format::Vop1Dpp8,
        Format::Vop2Dpp8,
        Format::Vop1Sdwa,
        Format::Vop2Sdwa,
        Format::VopcSdwa,
        Format::Vop3,
        Format::Vop3p,
        Format::Ds,
        Format::Flat,
        Format::Global,
        Format::Scratch,
        Format::Mubuf,
        Format::Mtbuf,
        Format::Vintrp,
        Format::Exp,
        Format::Mimg,
        Format::VopcDpp16,
        Format::VopcDpp8,
        Format::Vop3Dpp16,
        Format::Vop3Dpp8,
        Format::Vopd,
        Format::Vinterp,
        Format::Ldsdir,
        Format::Vop3pDpp16,
        Format::Vop3pDpp8,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Format::Sop1 => "SOP1",
            Format::Sop2 => "SOP2",
            Format::Sopk => "SOPK",
            Format::Sopc => "SOPC",
            Format::Sopp => "SOPP",
            Format::Smem => "SMEM",
            Format::Vop1 => "VOP1",
            Format::Vop2 => "VOP2",
            Format::Vopc => "VOPC",
            Format::Vop1Dpp16 => "VOP1_DPP16",
            Format::Vop2Dpp16 => "VOP2_DPP16",
            Format::Vop1Dpp8 => "VOP1_DPP8",
            Format::Vop2Dpp8 => "VOP2_DPP8",
            Format::Vop1Sdwa => "VOP1_SDWA",
            Format::Vop2Sdwa => "VOP2_SDWA",
            Format::VopcSdwa => "VOPC_SDWA",
            Format::Vop3 => "VOP3",
            Format::Vop3p => "VOP3P",
            Format::Ds => "DS",
            Format::Flat => "FLAT",
            Format::Global => "GLOBAL",
            Format::Scratch => "SCRATCH",
            Format::Mubuf => "MUBUF",
            Format::Mtbuf => "MTBUF",
            Format::Vintrp => "VINTRP",
            Format::Exp => "EXP",
            Format::Mimg => "MIMG",
            Format::VopcDpp16 => "VOPC_DPP16",
            Format::VopcDpp8 => "VOPC_DPP8",
            Format::Vop3Dpp16 => "VOP3_DPP16",
            Format::Vop3Dpp8 => "VOP3_DPP8",
            Format::Vopd => "VOPD",
            Format::Vinterp => "VINTERP",
            Format::Ldsdir => "LDSDIR",
            Format::Vop3pDpp16 => "VOP3P_DPP16",
            Format::Vop3pDpp8 => "VOP3P_DPP8",
        }
    }

    /// The extended form (DPP16, DPP8, SDWA) that a VOP1/VOP2/VOPC src0 value selects, if any.
    #[inline]
    pub fn extended(self, src0: u16) -> Option<Format> {
        // Decoding asks this of every instruction: most leave at this test.
        if !matches!(src0, src::DPP16 | src::DPP8 | src::DPP8_FI | src::SDWA) {
            return None;
        }
        Some(match (self, src0) {
            (Format::Vop1, src::DPP16) => Format::Vop1Dpp16,
            (Format::Vop2, src::DPP16) => Format::Vop2Dpp16,
            (Format::Vop1, src::DPP8 | src::DPP8_FI) => Format::Vop1Dpp8,
            (Format::Vop2, src::DPP8 | src::DPP8_FI) => Format::Vop2Dpp8,
            (Format::Vop1, src::SDWA) => Format::Vop1Sdwa,
            (Format::Vop2, src::SDWA) => Format::Vop2Sdwa,
            (Format::Vopc, src::SDWA) => Format::VopcSdwa,
            (Format::Vopc, src::DPP16) => Format::VopcDpp16,
            (Format::Vopc, src::DPP8 | src::DPP8_FI) => Format::VopcDpp8,
            (Format::Vop3, src::DPP16) => Format::Vop3Dpp16,
            (Format::Vop3, src::DPP8 | src::DPP8_FI) => Format::Vop3Dpp8,
            (Format::Vop3p, src::DPP16) => Format::Vop3pDpp16,
            (Format::Vop3p, src::DPP8 | src::DPP8_FI) => Format::Vop3pDpp8,
            _ => return None,
        })
    }

    pub fn is_dpp16(self) -> bool {
        matches!(self, Format::Vop1Dpp16 | Format::Vop2Dpp16 | Format::VopcDpp16 | Format::Vop3Dpp16 | Format::Vop3pDpp16)
    }

    pub fn is_dpp8(self) -> bool {
        matches!(self, Format::Vop1Dpp8 | Format::Vop2Dpp8 | Format::VopcDpp8 | Format::Vop3Dpp8 | Format::Vop3pDpp8)
    }

    /// A VOP3 encoding (with or without DPP): modifiers sit where VOP3 keeps them.
    pub fn is_vop3(self) -> bool {
        matches!(self, Format::Vop3 | Format::Vop3Dpp16 | Format::Vop3Dpp8)
    }

    pub fn is_sdwa(self) -> bool {
        matches!(self, Format::Vop1Sdwa | Format::Vop2Sdwa | Format::VopcSdwa)
    }

    /// Size of the base encoding in bytes (without a literal constant).
    pub fn base_len(self) -> usize {
        match self {
            Format::Sop1 | Format::Sop2 | Format::Sopk | Format::Sopc | Format::Sopp => 4,
            Format::Vop1 | Format::Vop2 | Format::Vopc | Format::Vintrp | Format::Ldsdir => 4,
            Format::Vop3Dpp16 | Format::Vop3Dpp8 | Format::Vop3pDpp16 | Format::Vop3pDpp8 => 12,
            _ => 8,
        }
    }
}

/// A format a generation does not have.
pub(crate) static EMPTY_TABLE: OpTable = OpTable { entries: &[], index: &[] };

/// VOPD has no per-opcode table: one entry stands for every pair (the operations are
/// `TableSet::vopd`, indexed by the instruction's two opcode fields).
static VOPD_ENTRY: [OpEntry; 1] = [OpEntry {
    op: 0,
    name: "v_dual",
    operands: &[],
    tokens: &[],
    must_zero: 0,
    ignored: 0,
    sext: 0,
    simm: Simm::NoSimm,
}];
pub(crate) static VOPD_TABLE: OpTable = OpTable { entries: &VOPD_ENTRY, index: &[0] };

/// Source-operand values of gfx10 with a fixed meaning (9-bit VALU sources, 8-bit SALU sources).
pub mod src {
    pub const VCC_LO: u16 = 106;
    pub const VCC_HI: u16 = 107;
    pub const TTMP0: u16 = 108;
    pub const M0: u16 = 124;
    pub const NULL: u16 = 125;
    pub const EXEC_LO: u16 = 126;
    pub const EXEC_HI: u16 = 127;
    pub const ZERO: u16 = 128;
    /// The inline constant 1/(2*pi) (gfx8 and later).
    pub const INV_2PI: u16 = 248;
    pub const DPP8: u16 = 233;
    pub const DPP8_FI: u16 = 234;
    pub const SDWA: u16 = 249;
    pub const DPP16: u16 = 250;
    pub const LITERAL: u16 = 255;
    pub const VGPR0: u16 = 256;

    /// The kind of a source value, as the generator probes them: 0 VGPR, 1 SGPR, 2 ttmp, 3 vcc_lo,
    /// 4 vcc_hi, 5 m0, 6 null, 7 exec_lo, 8 exec_hi, 9 inline integer, 10 inline float, 11 literal,
    /// 12 src_shared_base..src_pops_exiting_wave_id, 13 src_vccz/src_execz/src_scc, 14 src_lds_direct,
    /// 15 anything else (reserved).
    pub fn value_class(v: u16) -> u32 {
        match v {
            // gfx8/gfx9's flat_scratch, xnack_mask, tba and tma, in rdna's numbering.
            600..=607 => 1,
            256.. => 0,
            0..=105 => 1,
            108..=123 => 2,
            VCC_LO => 3,
            VCC_HI => 4,
            M0 => 5,
            NULL => 6,
            EXEC_LO => 7,
            EXEC_HI => 8,
            128..=208 => 9,
            240..=248 => 10,
            LITERAL => 11,
            235..=239 => 12,
            251..=253 => 13,
            254 => 14,
            _ => 15,
        }
    }

    /// Names of the special sources 235..=254 (None where the value is reserved).
    pub fn special_name(v: u16) -> Option<&'static str> {
        Some(match v {
            235 => "src_shared_base",
            236 => "src_shared_limit",
            237 => "src_private_base",
            238 => "src_private_limit",
            239 => "src_pops_exiting_wave_id",
            251 => "src_vccz",
            252 => "src_execz",
            253 => "src_scc",
            254 => "src_lds_direct",
            _ => return None,
        })
    }

    /// The value of an inline integer constant (128..=208).
    pub fn inline_int(v: u16) -> Option<i32> {
        match v {
            128..=192 => Some(v as i32 - 128),
            193..=208 => Some(192 - v as i32),
            _ => None,
        }
    }

    /// Inline float constants 240..=248 as f32 bit patterns, f16 bit patterns and f64 bit patterns.
    pub fn inline_float(v: u16) -> Option<(u32, u16, u64)> {
        Some(match v {
            240 => (0x3f00_0000, 0x3800, 0x3fe0_0000_0000_0000),
            241 => (0xbf00_0000, 0xb800, 0xbfe0_0000_0000_0000),
            242 => (0x3f80_0000, 0x3c00, 0x3ff0_0000_0000_0000),
            243 => (0xbf80_0000, 0xbc00, 0xbff0_0000_0000_0000),
            244 => (0x4000_0000, 0x4000, 0x4000_0000_0000_0000),
            245 => (0xc000_0000, 0xc000, 0xc000_0000_0000_0000),
            246 => (0x4080_0000, 0x4400, 0x4010_0000_0000_0000),
            247 => (0xc080_0000, 0xc400, 0xc010_0000_0000_0000),
            248 => (0x3e22_f983, 0x3118, 0x3fc4_5f30_6dc9_c882),
            _ => return None,
        })
    }
}

/// One encoding of an instruction on one swept target.
#[derive(Clone, Copy, Debug)]
pub struct Encoding {
    pub isa: Isa,
    pub format: Format,
    pub entry: &'static OpEntry,
}

impl Encoding {
    /// What decides how the instruction is laid out: format, opcode and operand list (field,
    /// register class, width). Targets with equal layouts encode the instruction identically.
    pub fn layout(&self) -> String {
        let ops: Vec<String> =
            self.entry.operands.iter().map(|o| format!("{} {:?}x{}", o.field.name(), o.class, o.width)).collect();
        format!("{} opcode {:#x}: {}", self.format.name(), self.entry.op, ops.join(", "))
    }
}

/// Every swept target's encodings of the instruction LLVM names `name`, in target order: one ISA
/// model across generations, so tools can ask how an instruction differs between, say, RDNA2 and
/// CDNA3. (Instructions renamed between generations, such as gfx9's `global_load_dword` and
/// gfx11's `global_load_b32`, are separate names here.)
pub fn encodings_of(name: &str) -> Vec<Encoding> {
    let mut out = Vec::new();
    for isa in Isa::ALL {
        for format in Format::ALL {
            for entry in isa.tables().get(format).entries.iter().filter(|e| e.name == name) {
                out.push(Encoding { isa, format, entry });
            }
        }
    }
    out
}

/// The encodings of `name` grouped by layout: each group lists the targets that share it. One
/// group means the instruction is laid out the same on every target that has it.
pub fn layouts_of(name: &str) -> Vec<(String, Vec<Isa>)> {
    let mut groups: Vec<(String, Vec<Isa>)> = Vec::new();
    for e in encodings_of(name) {
        let key = e.layout();
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, isas)) if !isas.contains(&e.isa) => isas.push(e.isa),
            Some(_) => {}
            None => groups.push((key, vec![e.isa])),
        }
    }
    groups
}

#[cfg(test)]
mod across_tests {
    use super::*;

    #[test]
    fn v_mov_b32_is_vop1_opcode_1_everywhere() {
        // VOP1 opcode 1 on every generation swept (llvm-mc-19: `v_mov_b32_e32 v1, v2` is 0x7e020302).
        let e: Vec<Encoding> = encodings_of("v_mov_b32_e32");
        assert_eq!(e.iter().map(|e| e.isa).collect::<Vec<_>>(), Isa::ALL.to_vec());
        assert!(e.iter().all(|e| e.format == Format::Vop1 && e.entry.op == 1));
        assert_eq!(layouts_of("v_mov_b32_e32").len(), 1);
    }

    #[test]
    fn s_load_dword_differs_between_gcn_and_rdna() {
        // SMEM opcode 0 both on gfx9 and gfx10, but gfx9's offset field is narrower; gfx11 renamed it.
        let groups = layouts_of("s_load_dword");
        let gcn: Vec<Isa> = Isa::ALL.into_iter().filter(|i| i.generation().is_gcn()).collect();
        assert!(groups.iter().any(|(_, isas)| isas.iter().all(|i| gcn.contains(i))), "{groups:?}");
        assert!(groups.len() >= 2, "{groups:?}");
        assert!(encodings_of("s_load_dword").iter().all(|e| e.isa.generation() != Generation::Gfx11));
        assert!(!encodings_of("s_load_b32").is_empty());
    }
}
