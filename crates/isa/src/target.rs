//! GPU targets: a base generation plus the features that change decoding or printing.

/// An ISA generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Generation {
    /// gfx10.1 and gfx10.3 (RDNA1, RDNA2).
    Gfx10,
    /// gfx11 (RDNA3, RDNA3.5).
    Gfx11,
}

/// A target as `--mcpu` names it, plus feature flags (`--mattr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub name: &'static str,
    pub generation: Generation,
    /// Wave64 printing (`vcc` instead of `vcc_lo`); wave32 is the default on gfx10+.
    pub wave64: bool,
}

/// Targets the decoder supports today, and the generation alias that names a representative one.
const TARGETS: &[(&str, Generation)] = &[
    ("gfx1030", Generation::Gfx10),
    ("gfx1031", Generation::Gfx10),
    ("gfx1032", Generation::Gfx10),
    ("gfx1033", Generation::Gfx10),
    ("gfx1034", Generation::Gfx10),
    ("gfx1035", Generation::Gfx10),
    ("gfx1036", Generation::Gfx10),
    ("gfx1100", Generation::Gfx11),
    ("gfx1101", Generation::Gfx11),
    ("gfx1102", Generation::Gfx11),
    ("gfx1103", Generation::Gfx11),
    ("gfx1150", Generation::Gfx11),
    ("gfx1151", Generation::Gfx11),
    ("gfx1152", Generation::Gfx11),
];

impl Target {
    /// Looks up a target by LLVM name (`gfx1030`) or generation alias (`rdna2`).
    pub fn from_name(name: &str) -> Option<Target> {
        let name = match name {
            "rdna2" | "gfx10.3" => "gfx1030",
            "rdna3" | "gfx11" => "gfx1100",
            "rdna3.5" => "gfx1150",
            n => n,
        };
        TARGETS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(name, generation)| Target { name, generation, wave64: false })
    }

    /// Applies an LLVM-style feature string such as `+wavefrontsize64`.
    pub fn with_features(mut self, mattr: &str) -> Result<Target, String> {
        for feat in mattr.split(',').map(str::trim).filter(|f| !f.is_empty()) {
            match feat {
                "+wavefrontsize64" | "-wavefrontsize32" => self.wave64 = true,
                "+wavefrontsize32" | "-wavefrontsize64" => self.wave64 = false,
                other => return Err(format!("unsupported feature '{other}' for {}", self.name)),
            }
        }
        Ok(self)
    }

    /// Names accepted by [`Target::from_name`].
    pub fn names() -> impl Iterator<Item = &'static str> {
        TARGETS.iter().map(|(n, _)| *n)
    }
}
