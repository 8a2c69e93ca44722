//! GPU targets: a swept opcode table set plus the features that change decoding or printing.

use crate::table::TableSet;

/// An encoding family: targets of one family share their formats' bit layouts.
/// Ordered by age: gfx7 first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Generation {
    /// gfx6 and gfx7 (GCN1 and GCN2: Southern and Sea Islands, PS4), which share their layouts:
    /// SMRD instead of SMEM, a 9-bit VOP3 opcode with clamp at bit
    /// 11, MUBUF addr64, FLAT without offsets; no SDWA, DPP or VOP3 literals. llvm-mc-19 cannot
    /// disassemble it: its tables are derived by assembling (`gen/gfx7_derive.py`).
    Gfx7,
    /// gfx8 (GCN3): gfx9's layouts with tba/tma at s108..s111 and twelve ttmp registers after them.
    Gfx8,
    /// gfx9 (GCN5, CDNA1–3): decoded and printed, not emulated.
    Gfx9,
    /// gfx10.1 and gfx10.3 (RDNA1, RDNA2).
    Gfx10,
    /// gfx11 (RDNA3, RDNA3.5).
    Gfx11,
    /// gfx12 (RDNA4): gfx11's ALU encodings; SMEM with 24-bit offsets, 96-bit VBUFFER,
    /// VFLAT/VGLOBAL/VSCRATCH and VIMAGE/VSAMPLE, `th:`/`scope:` cache policies.
    Gfx12,
}

impl Generation {
    /// gfx7, gfx8 or gfx9: GCN's encodings (wave64 only, VOP3 at 0b110100).
    pub fn is_gcn(self) -> bool {
        matches!(self, Generation::Gfx7 | Generation::Gfx8 | Generation::Gfx9)
    }

    /// Whether llvm-mc-19 disassembles this generation (gfx7 it only assembles).
    pub fn llvm_disassembles(self) -> bool {
        self != Generation::Gfx7
    }
}

/// A target whose opcode tables were swept from llvm-mc-19 (one file each in `generated/`).
/// Other targets of a family use the table set of the nearest swept one (see [`TARGETS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Isa {
    /// GCN1 (gfx600): gfx7's layouts without FLAT, flat_scratch or SMRD literal offsets.
    Gfx600,
    /// GCN2 (gfx700, PS4): derived by assembling, see [`Generation::Gfx7`].
    Gfx700,
    /// GCN3 (gfx803).
    Gfx803,
    /// GCN3 (gfx810, Stoney): packed 16-bit memory data, 13-bit FLAT offsets.
    Gfx810,
    /// GCN5 (gfx900).
    Gfx900,
    /// GCN5 (gfx904): gfx900 plus the mixed-precision FMAs.
    Gfx904,
    /// GCN5 (gfx906): gfx904 plus the dot-product instructions.
    Gfx906,
    /// CDNA1 (gfx908): MFMA and AccVGPRs.
    Gfx908,
    /// CDNA2 (gfx90a).
    Gfx90a,
    /// CDNA3 (gfx942).
    Gfx942,
    /// RDNA1 (gfx1010): still has `v_mac_f32` and friends, no gfx10.3 additions.
    Gfx1010,
    /// RDNA1 (gfx1011): gfx1010 plus some dot-product instructions.
    Gfx1011,
    /// RDNA1 (gfx1012): gfx1011 plus more dot-product instructions.
    Gfx1012,
    /// RDNA2 (gfx1030).
    Gfx1030,
    /// RDNA3 (gfx1100).
    Gfx1100,
    /// RDNA3.5 (gfx1150).
    Gfx1150,
    /// RDNA4 (gfx1200).
    Gfx1200,
}

impl Isa {
    pub const ALL: [Isa; 17] = [
        Isa::Gfx600,
        Isa::Gfx700,
        Isa::Gfx803,
        Isa::Gfx810,
        Isa::Gfx900,
        Isa::Gfx904,
        Isa::Gfx906,
        Isa::Gfx908,
        Isa::Gfx90a,
        Isa::Gfx942,
        Isa::Gfx1010,
        Isa::Gfx1011,
        Isa::Gfx1012,
        Isa::Gfx1030,
        Isa::Gfx1100,
        Isa::Gfx1150,
        Isa::Gfx1200,
    ];

    /// The generated tables of this target.
    pub fn tables(self) -> &'static TableSet {
        use crate::generated::*;
        match self {
            Isa::Gfx600 => &gfx600::TABLES,
            Isa::Gfx700 => &gfx700::TABLES,
            Isa::Gfx803 => &gfx803::TABLES,
            Isa::Gfx810 => &gfx810::TABLES,
            Isa::Gfx900 => &gfx900::TABLES,
            Isa::Gfx904 => &gfx904::TABLES,
            Isa::Gfx906 => &gfx906::TABLES,
            Isa::Gfx908 => &gfx908::TABLES,
            Isa::Gfx90a => &gfx90a::TABLES,
            Isa::Gfx942 => &gfx942::TABLES,
            Isa::Gfx1010 => &gfx1010::TABLES,
            Isa::Gfx1011 => &gfx1011::TABLES,
            Isa::Gfx1012 => &gfx1012::TABLES,
            Isa::Gfx1030 => &gfx1030::TABLES,
            Isa::Gfx1100 => &gfx1100::TABLES,
            Isa::Gfx1150 => &gfx1150::TABLES,
            Isa::Gfx1200 => &gfx1200::TABLES,
        }
    }

    pub fn generation(self) -> Generation {
        match self {
            Isa::Gfx600 | Isa::Gfx700 => Generation::Gfx7,
            Isa::Gfx803 | Isa::Gfx810 => Generation::Gfx8,
            Isa::Gfx900 | Isa::Gfx904 | Isa::Gfx906 | Isa::Gfx908 | Isa::Gfx90a | Isa::Gfx942 => Generation::Gfx9,
            Isa::Gfx1010 | Isa::Gfx1011 | Isa::Gfx1012 | Isa::Gfx1030 => Generation::Gfx10,
            Isa::Gfx1100 | Isa::Gfx1150 => Generation::Gfx11,
            Isa::Gfx1200 => Generation::Gfx12,
        }
    }

    /// The llvm-mc target name the tables were swept on.
    pub fn name(self) -> &'static str {
        self.tables().mcpu
    }
}

/// A target as `--mcpu` names it, plus feature flags (`--mattr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub name: &'static str,
    pub generation: Generation,
    /// The opcode tables used for this target.
    pub isa: Isa,
    /// Opcodes `isa` leaves undefined are looked up here (`+gfx1010-opcodes`): console code mixes
    /// generations, e.g. PS5 shaders use gfx1010's `v_mac_f32` beside gfx1030 instructions.
    pub fallback: Option<Isa>,
    /// Wave64 printing (`vcc` instead of `vcc_lo`); wave32 is the default on gfx10+, gfx9 and
    /// older have wave64 only.
    pub wave64: bool,
}

/// Every target llvm-mc-19 accepts, with the product family it belongs to and the swept tables
/// that decode it (None: known, not decoded yet).
pub const TARGETS: &[(&str, &str, Option<Isa>)] = &[
    ("gfx600", "GCN1 (Southern Islands)", Some(Isa::Gfx600)),
    ("gfx601", "GCN1 (Southern Islands)", Some(Isa::Gfx600)),
    ("gfx602", "GCN1 (Southern Islands)", Some(Isa::Gfx600)),
    ("gfx700", "GCN2 (Sea Islands, PS4)", Some(Isa::Gfx700)),
    ("gfx701", "GCN2 (Sea Islands, PS4)", Some(Isa::Gfx700)),
    ("gfx702", "GCN2 (Sea Islands, PS4)", Some(Isa::Gfx700)),
    ("gfx703", "GCN2 (Sea Islands, PS4)", Some(Isa::Gfx700)),
    ("gfx704", "GCN2 (Sea Islands, PS4)", Some(Isa::Gfx700)),
    ("gfx705", "GCN2 (Sea Islands, PS4)", Some(Isa::Gfx700)),
    ("gfx801", "GCN3 (Volcanic Islands)", Some(Isa::Gfx803)),
    ("gfx802", "GCN3 (Volcanic Islands)", Some(Isa::Gfx803)),
    ("gfx803", "GCN3 (Volcanic Islands)", Some(Isa::Gfx803)),
    ("gfx805", "GCN3 (Volcanic Islands)", Some(Isa::Gfx803)),
    ("gfx810", "GCN3 (Volcanic Islands)", Some(Isa::Gfx810)),
    ("gfx900", "GCN5 (Vega)", Some(Isa::Gfx900)),
    ("gfx902", "GCN5 (Vega)", Some(Isa::Gfx900)),
    ("gfx904", "GCN5 (Vega)", Some(Isa::Gfx904)),
    ("gfx906", "GCN5 (Vega)", Some(Isa::Gfx906)),
    ("gfx909", "GCN5 (Vega)", Some(Isa::Gfx900)),
    ("gfx90c", "GCN5 (Vega)", Some(Isa::Gfx900)),
    ("gfx9-generic", "GCN5 (Vega)", Some(Isa::Gfx900)),
    ("gfx908", "CDNA1", Some(Isa::Gfx908)),
    ("gfx90a", "CDNA2", Some(Isa::Gfx90a)),
    ("gfx940", "CDNA3", Some(Isa::Gfx942)),
    ("gfx941", "CDNA3", Some(Isa::Gfx942)),
    ("gfx942", "CDNA3", Some(Isa::Gfx942)),
    ("gfx1010", "RDNA1", Some(Isa::Gfx1010)),
    ("gfx1011", "RDNA1", Some(Isa::Gfx1011)),
    ("gfx1012", "RDNA1", Some(Isa::Gfx1012)),
    ("gfx1013", "RDNA1", Some(Isa::Gfx1010)),
    ("gfx10-1-generic", "RDNA1", Some(Isa::Gfx1010)),
    ("gfx1030", "RDNA2", Some(Isa::Gfx1030)),
    ("gfx1031", "RDNA2", Some(Isa::Gfx1030)),
    ("gfx1032", "RDNA2", Some(Isa::Gfx1030)),
    ("gfx1033", "RDNA2", Some(Isa::Gfx1030)),
    ("gfx1034", "RDNA2", Some(Isa::Gfx1030)),
    ("gfx1035", "RDNA2", Some(Isa::Gfx1030)),
    ("gfx1036", "RDNA2", Some(Isa::Gfx1030)),
    ("gfx10-3-generic", "RDNA2", Some(Isa::Gfx1030)),
    ("gfx1100", "RDNA3", Some(Isa::Gfx1100)),
    ("gfx1101", "RDNA3", Some(Isa::Gfx1100)),
    ("gfx1102", "RDNA3", Some(Isa::Gfx1100)),
    ("gfx1103", "RDNA3", Some(Isa::Gfx1100)),
    ("gfx11-generic", "RDNA3", Some(Isa::Gfx1100)),
    ("gfx1150", "RDNA3.5", Some(Isa::Gfx1150)),
    ("gfx1151", "RDNA3.5", Some(Isa::Gfx1150)),
    ("gfx1152", "RDNA3.5", Some(Isa::Gfx1150)),
    ("gfx1200", "RDNA4", Some(Isa::Gfx1200)),
    ("gfx1201", "RDNA4", Some(Isa::Gfx1200)),
    ("gfx12-generic", "RDNA4", Some(Isa::Gfx1200)),
];

/// Generation names and LLVM's older product names, each standing for one target.
pub const ALIASES: &[(&str, &str)] = &[
    ("gcn1", "gfx600"),
    ("gcn2", "gfx700"),
    ("ps4", "gfx700"),
    ("gcn3", "gfx803"),
    ("gcn5", "gfx900"),
    ("vega", "gfx900"),
    ("cdna1", "gfx908"),
    ("cdna2", "gfx90a"),
    ("cdna3", "gfx942"),
    ("rdna1", "gfx1010"),
    ("rdna2", "gfx1030"),
    ("ps5", "gfx1030"),
    ("rdna3", "gfx1100"),
    ("rdna3.5", "gfx1150"),
    ("rdna4", "gfx1200"),
    ("gfx10.1", "gfx1010"),
    ("gfx10.3", "gfx1030"),
    ("gfx11", "gfx1100"),
    ("gfx12", "gfx1200"),
    ("tahiti", "gfx600"),
    ("pitcairn", "gfx601"),
    ("verde", "gfx601"),
    ("oland", "gfx602"),
    ("hainan", "gfx602"),
    ("bonaire", "gfx704"),
    ("kaveri", "gfx700"),
    ("hawaii", "gfx701"),
    ("kabini", "gfx703"),
    ("mullins", "gfx703"),
    ("iceland", "gfx802"),
    ("tonga", "gfx802"),
    ("carrizo", "gfx801"),
    ("fiji", "gfx803"),
    ("polaris10", "gfx803"),
    ("polaris11", "gfx803"),
    ("tongapro", "gfx805"),
    ("stoney", "gfx810"),
];

impl Target {
    /// Looks up a target by LLVM name (`gfx1030`), generation alias (`rdna2`) or LLVM's product
    /// name (`fiji`). Only targets rdna decodes are returned; see [`Target::lookup`] for why not.
    pub fn from_name(name: &str) -> Option<Target> {
        Target::lookup(name).ok()
    }

    /// Like [`Target::from_name`], with an error that says whether the name is unknown or names a
    /// target rdna does not decode yet. `ps5` is gfx1030 with `+gfx1010-opcodes`.
    pub fn lookup(name: &str) -> Result<Target, String> {
        let canonical = ALIASES.iter().find(|(a, _)| *a == name).map_or(name, |&(_, t)| t);
        let Some(&(tname, family, isa)) = TARGETS.iter().find(|(n, _, _)| *n == canonical) else {
            return Err(format!("unknown target '{name}' (see `rdna isa --targets`)"));
        };
        let Some(isa) = isa else {
            return Err(format!("{tname} ({family}) is an llvm-mc-19 target that rdna does not decode yet"));
        };
        let fallback = (name == "ps5").then_some(Isa::Gfx1010);
        let wave64 = isa.generation().is_gcn();
        Ok(Target { name: tname, generation: isa.generation(), isa, fallback, wave64 })
    }

    /// Applies an LLVM-style feature string such as `+wavefrontsize64`, and rdna's
    /// `+<swept target>-opcodes` (opcodes the target lacks decode as that target defines them).
    pub fn with_features(mut self, mattr: &str) -> Result<Target, String> {
        for feat in mattr.split(',').map(str::trim).filter(|f| !f.is_empty()) {
            match feat {
                "+wavefrontsize64" | "-wavefrontsize32" => self.wave64 = true,
                "+wavefrontsize32" | "-wavefrontsize64" if self.generation.is_gcn() => {
                    return Err(format!("{} runs wave64 only", self.name))
                }
                "+wavefrontsize32" | "-wavefrontsize64" => self.wave64 = false,
                other => {
                    let extra = other.strip_prefix('+').and_then(|f| f.strip_suffix("-opcodes"));
                    match extra.and_then(|n| Isa::ALL.into_iter().find(|i| i.name() == n)) {
                        Some(isa) if isa.generation() == self.generation && isa != self.isa => self.fallback = Some(isa),
                        Some(isa) => {
                            return Err(format!("'{other}': {} is not another target of {}'s encoding family", isa.name(), self.name))
                        }
                        None => return Err(format!("unsupported feature '{other}' for {}", self.name)),
                    }
                }
            }
        }
        Ok(self)
    }

    /// Names accepted by [`Target::from_name`] (targets rdna decodes).
    pub fn names() -> impl Iterator<Item = &'static str> {
        TARGETS.iter().filter(|(_, _, isa)| isa.is_some()).map(|(n, _, _)| *n)
    }

    /// The opcode table of `format` on this target.
    #[inline]
    pub fn table(&self, format: crate::Format) -> &'static crate::OpTable {
        self.isa.tables().get(format)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_alias_names_a_listed_target() {
        for (alias, t) in ALIASES {
            assert!(TARGETS.iter().any(|(n, _, _)| n == t), "{alias} -> {t}");
        }
    }

    #[test]
    fn lookup_explains_what_it_refuses() {
        assert_eq!(Target::lookup("rdna2").unwrap().name, "gfx1030");
        assert_eq!(Target::lookup("ps5").unwrap().fallback, Some(Isa::Gfx1010));
        assert_eq!(Target::lookup("rdna4").unwrap().isa, Isa::Gfx1200);
        assert_eq!(Target::lookup("cdna3").unwrap().isa, Isa::Gfx942);
        assert!(Target::lookup("gfx9999").unwrap_err().contains("unknown target"));
        let t = Target::lookup("gfx1030").unwrap().with_features("+gfx1010-opcodes").unwrap();
        assert_eq!(t.fallback, Some(Isa::Gfx1010));
        assert!(Target::lookup("gfx1030").unwrap().with_features("+gfx1100-opcodes").is_err());
    }
}
