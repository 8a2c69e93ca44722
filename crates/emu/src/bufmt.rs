//! Typed buffer accesses (`buffer_load_format_*`, `tbuffer_*`): the gfx10 unified buffer formats,
//! their component layout and the conversions to and from 32-bit register values.
//!
//! The format names come from the generated MTBUF table (`BUF_FMT_<widths>_<kind>`, widths listed
//! from the highest component down, as AMD names them). Conversions: UNORM/SNORM divide by
//! 2^n - 1 / 2^(n-1) - 1 (correctly rounded; SNORM clamps to -1), SCALED converts the integer,
//! UINT/SINT extend, FLOAT widens f16 and the unsigned 11/10-bit floats exactly. Stores clamp
//! normalised values and round to nearest even.

use half::f16;

/// How the bits of each component are interpreted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumFmt {
    Unorm,
    Snorm,
    Uscaled,
    Sscaled,
    Uint,
    Sint,
    Float,
}

/// A decoded buffer format: component widths from X upward and the numeric kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufFormat {
    pub widths: Vec<u32>,
    pub num: NumFmt,
}

impl BufFormat {
    /// The format with this 7-bit gfx10 unified format number, if it is a valid one.
    pub fn from_gfx10(fmt: u32) -> Option<BufFormat> {
        BufFormat::from_number(rdna_isa::Generation::Gfx10, fmt)
    }

    /// The format with this 7-bit unified format number in a generation.
    pub fn from_number(gen: rdna_isa::Generation, fmt: u32) -> Option<BufFormat> {
        // Format numbers are the same for every target of a family.
        let names = match gen {
            // gfx9's MTBUF has separate data and number formats, not unified numbers.
            rdna_isa::Generation::Gfx7 | rdna_isa::Generation::Gfx8 | rdna_isa::Generation::Gfx9 | rdna_isa::Generation::Gfx12 => return None,
            rdna_isa::Generation::Gfx10 => rdna_isa::Isa::Gfx1030.tables().mtbuf_formats,
            rdna_isa::Generation::Gfx11 => rdna_isa::Isa::Gfx1100.tables().mtbuf_formats,
        };
        // Format 1 is the default (8_UNORM); LLVM prints it as nothing.
        let name = match fmt {
            1 => "[BUF_FMT_8_UNORM]",
            f => names.get(f as usize)?,
        };
        let body = name.strip_prefix("[BUF_FMT_")?.strip_suffix(']')?;
        let (widths, kind) = body.rsplit_once('_')?;
        let mut widths: Vec<u32> = widths.split('_').map(|w| w.parse().ok()).collect::<Option<_>>()?;
        widths.reverse();
        let num = match kind {
            "UNORM" => NumFmt::Unorm,
            "SNORM" => NumFmt::Snorm,
            "USCALED" => NumFmt::Uscaled,
            "SSCALED" => NumFmt::Sscaled,
            "UINT" => NumFmt::Uint,
            "SINT" => NumFmt::Sint,
            "FLOAT" => NumFmt::Float,
            _ => return None,
        };
        Some(BufFormat { widths, num })
    }

    /// Bytes one element occupies.
    pub fn bytes(&self) -> usize {
        (self.widths.iter().sum::<u32>() as usize).div_ceil(8)
    }

    /// Whether components are numbers the shader sees as floats (W defaults to 1.0, not 1).
    fn float_like(&self) -> bool {
        !matches!(self.num, NumFmt::Uint | NumFmt::Sint)
    }

    /// Unpacks an element into four 32-bit register values (missing components: 0, 0, 0, 1).
    pub fn unpack(&self, data: &[u8]) -> Result<[u32; 4], String> {
        let mut bits = [0u8; 16];
        bits[..data.len().min(16)].copy_from_slice(&data[..data.len().min(16)]);
        let raw = u128::from_le_bytes(bits);
        let one = if self.float_like() { 1.0f32.to_bits() } else { 1 };
        let mut out = [0, 0, 0, one];
        let mut pos = 0;
        for (c, &w) in self.widths.iter().enumerate() {
            let v = ((raw >> pos) & ((1u128 << w) - 1)) as u64;
            pos += w;
            let max = ((1u64 << w) - 1) as f64;
            let half = ((1u64 << (w - 1)) - 1) as f64;
            let signed = (((v << (64 - w)) as i64) >> (64 - w)) as f64;
            out[c] = match self.num {
                NumFmt::Unorm => ((v as f64 / max) as f32).to_bits(),
                NumFmt::Snorm => ((signed / half).max(-1.0) as f32).to_bits(),
                NumFmt::Uscaled => (v as f32).to_bits(),
                NumFmt::Sscaled => (signed as f32).to_bits(),
                NumFmt::Uint => v as u32,
                NumFmt::Sint => signed as i64 as u32,
                NumFmt::Float => match w {
                    32 => v as u32,
                    16 => f16::from_bits(v as u16).to_f32().to_bits(),
                    11 | 10 => small_float(v as u32, w - 5).to_bits(),
                    _ => return Err(format!("{w}-bit float components are not a buffer format")),
                },
            };
        }
        Ok(out)
    }

    /// Packs up to four register values into an element (components beyond `count` keep the
    /// bits in `old`).
    pub fn pack(&self, vals: &[u32], count: usize, old: &[u8]) -> Result<Vec<u8>, String> {
        let mut bits = [0u8; 16];
        bits[..old.len().min(16)].copy_from_slice(&old[..old.len().min(16)]);
        let mut raw = u128::from_le_bytes(bits);
        let mut pos = 0;
        for (c, &w) in self.widths.iter().enumerate() {
            if c < count {
                let v = vals[c];
                let f = f32::from_bits(v) as f64;
                let umax = ((1u64 << w) - 1) as f64;
                let smax = ((1u64 << (w - 1)) - 1) as f64;
                let nan0 = |x: f64| if x.is_nan() { 0.0 } else { x };
                let enc: u64 = match self.num {
                    NumFmt::Unorm => (nan0(f).clamp(0.0, 1.0) * umax).round_ties_even() as u64,
                    NumFmt::Snorm => (nan0(f).clamp(-1.0, 1.0) * smax).round_ties_even() as i64 as u64,
                    NumFmt::Uscaled => nan0(f).round_ties_even().clamp(0.0, umax) as u64,
                    NumFmt::Sscaled => nan0(f).round_ties_even().clamp(-smax - 1.0, smax) as i64 as u64,
                    NumFmt::Uint | NumFmt::Sint => v as u64,
                    NumFmt::Float => match w {
                        32 => v as u64,
                        16 => f16::from_f32(f32::from_bits(v)).to_bits() as u64,
                        _ => return Err(format!("stores to {w}-bit float components are not emulated")),
                    },
                };
                let mask = (1u128 << w) - 1;
                raw = raw & !(mask << pos) | ((enc as u128 & mask) << pos);
            }
            pos += w;
        }
        Ok(raw.to_le_bytes()[..self.bytes()].to_vec())
    }
}

/// An unsigned float with a 5-bit exponent and `mant` mantissa bits (the 11- and 10-bit packed
/// formats), widened exactly.
fn small_float(v: u32, mant: u32) -> f32 {
    let e = (v >> mant) & 31;
    let m = v & ((1 << mant) - 1);
    match e {
        0 => m as f32 * 2f32.powi(-14 - mant as i32),
        31 if m == 0 => f32::INFINITY,
        31 => f32::NAN,
        _ => (1.0 + m as f32 / (1 << mant) as f32) * 2f32.powi(e as i32 - 15),
    }
}

/// The register value a destination select gives: 0 = 0, 1 = 1, 4..7 = X..W.
pub fn dst_sel(sel: u32, comps: &[u32; 4], one: u32) -> u32 {
    match sel {
        1 => one,
        4..=7 => comps[(sel - 4) as usize],
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_from_the_generated_names() {
        let f = BufFormat::from_gfx10(22).unwrap();
        assert_eq!((f.widths.clone(), f.num, f.bytes()), (vec![32], NumFmt::Float, 4));
        let f = BufFormat::from_gfx10(56).unwrap(); // 8_8_8_8_UNORM
        assert_eq!((f.widths.clone(), f.num), (vec![8, 8, 8, 8], NumFmt::Unorm));
        let f = BufFormat::from_gfx10(30).unwrap(); // 10_11_11_UNORM: X and Y 11 bits, Z 10 bits
        assert_eq!(f.widths, vec![11, 11, 10]);
        assert!(BufFormat::from_gfx10(0).is_none(), "BUF_FMT_INVALID");
        assert!(BufFormat::from_gfx10(100).is_none());
    }

    #[test]
    fn unorm_snorm_and_defaults() {
        let f = BufFormat::from_gfx10(56).unwrap();
        let v = f.unpack(&[0, 255, 51, 128]).unwrap();
        assert_eq!(v.map(f32::from_bits), [0.0, 1.0, 0.2, 128.0 / 255.0]);
        let f = BufFormat::from_gfx10(8).unwrap(); // 16_SNORM
        let v = f.unpack(&0x8000u16.to_le_bytes()).unwrap();
        assert_eq!(v.map(f32::from_bits), [-1.0, 0.0, 0.0, 1.0], "-32768 clamps to -1; W defaults to 1.0");
        let f = BufFormat::from_gfx10(27).unwrap(); // 16_16_UINT
        assert_eq!(f.unpack(&[1, 0, 2, 0]).unwrap(), [1, 2, 0, 1], "integer W defaults to 1");
    }

    #[test]
    fn pack_round_trips() {
        let f = BufFormat::from_gfx10(56).unwrap();
        let vals = [0.0f32, 1.0, 0.2, 2.0].map(f32::to_bits);
        assert_eq!(f.pack(&vals, 4, &[0; 4]).unwrap(), vec![0, 255, 51, 255]);
        assert_eq!(f.pack(&vals, 2, &[9, 9, 9, 9]).unwrap(), vec![0, 255, 9, 9], "only the stored components change");
    }
}
