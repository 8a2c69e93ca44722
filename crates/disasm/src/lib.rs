//! Decoding and LLVM-exact printing of AMD GPU machine code.
//!
//! ```
//! use rdna_disasm::{Decoder, PrintOptions};
//! use rdna_isa::Target;
//! let dec = Decoder::new(Target::from_name("gfx1030").unwrap());
//! let (inst, len) = dec.decode(&[0x02, 0x03, 0x02, 0x7e]).unwrap();
//! assert_eq!(len, 4);
//! assert_eq!(rdna_disasm::to_text(&inst, PrintOptions::default()), "v_mov_b32_e32 v1, v2");
//! ```

pub mod aim;
pub mod decode;
pub mod hex;
pub mod print;

pub use decode::{DecodeError, Decoder, Inst};
pub use print::{print, PrintOptions};

/// The text of one instruction.
pub fn to_text(inst: &Inst, opts: PrintOptions) -> String {
    let mut s = String::new();
    if print(inst, opts, &mut s).is_err() {
        s.clear();
        s.push_str("<unprintable>");
    }
    s
}

/// One line of a linear disassembly: the bytes it covers and what they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// A decoded instruction and its text (valid for the duration of the callback).
    Inst { offset: usize, len: usize, text: &'a str },
    /// A dword that is not a valid encoding (printed as `.long 0x...`); decoding resumes after it.
    Invalid { offset: usize, word: u32 },
    /// Fewer than four bytes left at the end.
    Trailing { offset: usize, bytes: &'a [u8] },
}

/// Decodes a whole byte stream in order, one line per instruction.
///
/// Invalid words become [`Line::Invalid`] and decoding continues at the next dword, as llvm-mc
/// does; a truncated instruction at the end is reported as invalid words.
pub fn disassemble(dec: &Decoder, opts: PrintOptions, code: &[u8], mut each: impl FnMut(Line<'_>)) {
    let mut off = 0;
    let mut text = String::with_capacity(128);
    while off < code.len() {
        match dec.decode_at(code, off) {
            Ok((inst, len)) => {
                text.clear();
                if print(&inst, opts, &mut text).is_ok() {
                    each(Line::Inst { offset: off, len, text: &text });
                    off += len;
                    continue;
                }
                let word = u32::from_le_bytes(code[off..off + 4].try_into().unwrap_or([0; 4]));
                each(Line::Invalid { offset: off, word });
                off += 4;
            }
            Err(_) if code.len() - off < 4 => {
                each(Line::Trailing { offset: off, bytes: &code[off..] });
                break;
            }
            Err(_) => {
                let word = u32::from_le_bytes([code[off], code[off + 1], code[off + 2], code[off + 3]]);
                each(Line::Invalid { offset: off, word });
                off += 4;
            }
        }
    }
}

/// An instruction's text with its encoding comment, spaced as llvm-mc -show-encoding spaces it
/// (the comment at column 40, or one space after a longer text).
pub fn text_with_encoding(text: &str, bytes: &[u8]) -> String {
    let pad = if text.len() < 40 { 40 - text.len() } else { 1 };
    format!("{text}{:pad$}{}", "", encoding_comment(bytes))
}

/// Formats bytes as llvm-mc's `; encoding: [0x..,..]` list.
pub fn encoding_comment(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(16 + bytes.len() * 5);
    s.push_str("; encoding: [");
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&format!("0x{b:02x}"));
    }
    s.push(']');
    s
}
