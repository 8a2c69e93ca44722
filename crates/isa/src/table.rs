//! The shape of the generated opcode tables (see `gen/llvm_sweep.py`).

/// An encoding field that carries an operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    Sdst,
    Ssrc0,
    Ssrc1,
    Simm16,
    Sdata,
    Sbase,
    Offset,
    Soffset,
    Vdst,
    Src0,
    Src1,
    Src2,
    Vsrc1,
    Addr,
    Data0,
    Data1,
    Data,
    Saddr,
    Vdata,
    Vaddr,
    Srsrc,
    Vsrc,
    Vsrc0,
    Vsrc2,
    Vsrc3,
    Ssamp,
}

impl Field {
    /// Every field, in declaration order.
    pub const ALL: [Field; 26] = [
        Field::Sdst,
        Field::Ssrc0,
        Field::Ssrc1,
        Field::Simm16,
        Field::Sdata,
        Field::Sbase,
        Field::Offset,
        Field::Soffset,
        Field::Vdst,
        Field::Src0,
        Field::Src1,
        Field::Src2,
        Field::Vsrc1,
        Field::Addr,
        Field::Data0,
        Field::Data1,
        Field::Data,
        Field::Saddr,
        Field::Vdata,
        Field::Vaddr,
        Field::Srsrc,
        Field::Vsrc,
        Field::Vsrc0,
        Field::Vsrc2,
        Field::Vsrc3,
        Field::Ssamp,
    ];

    /// The field's name as the ISA documents spell it.
    pub fn name(self) -> &'static str {
        match self {
            Field::Sdst => "SDST",
            Field::Ssrc0 => "SSRC0",
            Field::Ssrc1 => "SSRC1",
            Field::Simm16 => "SIMM16",
            Field::Sdata => "SDATA",
            Field::Sbase => "SBASE",
            Field::Offset => "OFFSET",
            Field::Soffset => "SOFFSET",
            Field::Vdst => "VDST",
            Field::Src0 => "SRC0",
            Field::Src1 => "SRC1",
            Field::Src2 => "SRC2",
            Field::Vsrc1 => "VSRC1",
            Field::Addr => "ADDR",
            Field::Data0 => "DATA0",
            Field::Data1 => "DATA1",
            Field::Data => "DATA",
            Field::Saddr => "SADDR",
            Field::Vdata => "VDATA",
            Field::Vaddr => "VADDR",
            Field::Srsrc => "SRSRC",
            Field::Vsrc => "VSRC",
            Field::Vsrc0 => "VSRC0",
            Field::Vsrc2 => "VSRC2",
            Field::Vsrc3 => "VSRC3",
            Field::Ssamp => "SSAMP",
        }
    }

    /// Whether the instruction writes this operand (destination fields), as opposed to reading it.
    /// Memory data fields depend on the instruction (loads write VDATA, stores read it): see
    /// [`OpEntry::writes`].
    pub fn is_destination(self) -> bool {
        matches!(self, Field::Sdst | Field::Vdst | Field::Sdata)
    }
}

/// The register file an operand names when it holds a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// Vector registers only (v0..v255).
    Vgpr,
    /// A 16-bit half of a vector register (gfx11 true16 operands, `v1.h`/`v1.l`): the register
    /// number's bit 7 says which half (v0..v127).
    Vgpr16,
    /// Accumulation registers of CDNA (a0..a255, MFMA operands).
    Agpr,
    /// Scalar registers or scalar sources (s0..s105, vcc, ttmp, m0, exec, constants where allowed).
    Sgpr,
    /// Not a register: an immediate or an encoded value.
    Other,
}

/// How constants in a source operand are typed, which decides how LLVM prints them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImmTy {
    /// The operand takes no constants (or the field is not a source).
    NoImm,
    /// 32-bit data: integers print in decimal when inline, floats as 0.5, 1.0, ...
    B32,
    /// 16-bit integer data: inline float constants print as their 16-bit patterns (0x3800).
    I16,
    /// 16-bit float data.
    F16,
    /// 64-bit float data: a literal is the high half of the double.
    F64,
    /// 64-bit integer data.
    B64,
}

/// One operand of an instruction, in the order LLVM prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operand {
    pub field: Field,
    pub class: Class,
    /// Width in dwords (v[4:7] is 4).
    pub width: u8,
    pub imm: ImmTy,
    /// Kinds of value (bits indexed by [`crate::src::value_class`]) LLVM refuses to decode here.
    pub reject: u16,
    /// Kinds of value LLVM decodes but marks `/*Invalid register…*/` or `/*Invalid immediate*/`.
    pub flag: u16,
    /// The LLVM register class named in that comment (`SReg_32`, `VGPR_32`, …).
    pub rc: &'static str,
    /// A lane mask: `width` dwords in wave32, twice that in wave64.
    pub mask: bool,
    /// Where only v0..v127 are valid (gfx11 16-bit operations): the LLVM register class named in
    /// the note printed after a higher VGPR; empty where any VGPR is fine.
    pub lo128: &'static str,
}

/// One opcode of one encoding format.
#[derive(Clone, Copy, Debug)]
pub struct OpEntry {
    pub op: u16,
    /// The mnemonic exactly as LLVM prints it (with `_e32`/`_e64` where LLVM adds one).
    pub name: &'static str,
    pub operands: &'static [Operand],
    /// The printed operand list of the sweep, with implicit operands (`vcc_lo`, `off`) spelled
    /// out and the field operands left empty.
    pub tokens: &'static [&'static str],
    /// Bits (of the first two dwords) that LLVM requires to be zero for this opcode.
    pub must_zero: u64,
    /// Bits (of the first two dwords) that LLVM ignores for this opcode: flipping one alone
    /// changes neither validity nor text. Modifiers are printed from the other bits only.
    pub ignored: u64,
    /// Modifier bits that LLVM prints as `sext(...)` for this opcode (the DPP neg bits of integer
    /// operands).
    pub sext: u64,
    /// How the 16-bit immediate of SOPP/SOPK instructions prints.
    pub simm: Simm,
}

impl OpEntry {
    /// Whether the instruction writes the operand in `field`.
    pub fn writes(&self, field: Field) -> bool {
        match field {
            Field::Vdata | Field::Data | Field::Data0 => {
                let n = self.name;
                (n.contains("load") || n.contains("_rtn") || n.contains("read")) && field == Field::Vdata
            }
            f => f.is_destination(),
        }
    }
}

/// An opcode table with a dense index for O(1) lookup.
#[derive(Clone, Copy, Debug)]
pub struct OpTable {
    pub entries: &'static [OpEntry],
    /// `index[op]` is the position in `entries`, or `u16::MAX` where the opcode is not defined.
    pub index: &'static [u16],
}

impl OpTable {
    #[inline]
    pub fn get(&self, op: u32) -> Option<&'static OpEntry> {
        let i = *self.index.get(op as usize)?;
        if i == u16::MAX {
            None
        } else {
            self.entries.get(i as usize)
        }
    }

    pub fn by_name(&self, name: &str) -> Option<&'static OpEntry> {
        self.entries.iter().find(|e| e.name == name)
    }
}

/// Everything the generator learned about one swept target: the opcode table of each format and
/// the names LLVM gives to encoded values. One per file in `generated/`.
pub struct TableSet {
    /// The llvm-mc target the tables were swept on.
    pub mcpu: &'static str,
    /// The opcode table of a format (empty where the target lacks the format).
    pub table: fn(crate::Format) -> &'static OpTable,
    /// The `format:` text of each MTBUF format value (empty: the default, not printed).
    pub mtbuf_formats: &'static [&'static str; 128],
    /// `hwreg(...)` register names by id (empty: printed as a number).
    pub hwreg_names: &'static [&'static str; 64],
    /// `sendmsg(...)` message names by id.
    pub sendmsg_names: &'static [&'static str; 16],
    /// `s_version` code names.
    pub version_names: &'static [&'static str; 64],
    /// VOPD X and Y operation names by opcode (gfx11 and later).
    pub vopd: Option<(&'static [&'static str; 16], &'static [&'static str; 32])>,
    /// MIMG operand shapes (gfx10 MIMG; see [`MimgShapes`]).
    pub mimg: Option<MimgShapes>,
}

impl TableSet {
    /// The opcode table of `format`.
    #[inline]
    pub fn get(&self, format: crate::Format) -> &'static OpTable {
        (self.table)(format)
    }
}

impl std::fmt::Debug for TableSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TableSet({})", self.mcpu)
    }
}

/// How many data and address VGPRs LLVM prints for a MIMG opcode, measured per shape because LLVM
/// re-picks the opcode variant from dim, a16, NSA, dmask, d16 and tfe.
#[derive(Clone, Copy, Debug)]
pub struct MimgShapes {
    /// Distinct shape tables: `[((dim * 2 + a16) * 4 + nsa) * 16 + (components - 1) * 4 + d16 * 2 + tfe]`,
    /// each `data VGPRs << 5 | address VGPRs`, 0 where LLVM rejects the encoding.
    pub tables: &'static [[u8; 1024]],
    /// Per MIMG entry: the encoded variant's shape per NSA count, kept when the re-picked variant
    /// would run past v255.
    pub original: &'static [[u8; 4]],
    /// Per MIMG entry: whether LLVM prints two spaces after the mnemonic in the NSA form.
    pub nsa_gap: &'static [bool],
    /// Per MIMG entry: its table in `tables`.
    pub index: &'static [u8],
}

/// How a SOPP/SOPK 16-bit immediate is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Simm {
    /// The instruction has no 16-bit immediate.
    NoSimm,
    /// Always hexadecimal (`0x1234`).
    Hex,
    /// Always unsigned decimal (branch offsets).
    Dec,
    /// Decimal up to 64, hexadecimal above.
    U16,
    /// Decimal, and left out entirely when zero (`s_endpgm`).
    DecOpt,
    /// A structured operand with its own syntax: `hwreg(...)`, `sendmsg(...)`, `s_waitcnt` fields.
    Special,
}

#[cfg(test)]
mod tests {
    use super::Field;

    #[test]
    fn field_all_is_in_declaration_order() {
        // Decoders index tables by `field as usize`; ALL must list every variant at its index.
        for (i, f) in Field::ALL.iter().enumerate() {
            assert_eq!(*f as usize, i, "{f:?}");
        }
        assert_eq!(Field::ALL.len(), Field::Ssamp as usize + 1);
    }
}
