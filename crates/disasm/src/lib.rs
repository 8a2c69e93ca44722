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
mod plan;

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
    /// A run of zero bytes skipped, as llvm-objdump skips them (printing `...`): only where
    /// asked for ([`Listing::objdump`]).
    Zeros { offset: usize, len: usize },
}

/// How a linear disassembly walks the bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    /// Skip runs of 8 or more zero bytes at an instruction boundary (in whole dwords) as one
    /// [`Line::Zeros`], as `llvm-objdump -d` does; llvm-mc decodes every dword.
    pub skip_zeros: bool,
}

impl Listing {
    /// `llvm-objdump -d`'s walk.
    pub fn objdump() -> Listing {
        Listing { skip_zeros: true }
    }
}

/// The zero bytes llvm-objdump skips at the start of `rest`: none below 8, else whole dwords.
fn skippable_zeros(rest: &[u8]) -> usize {
    let n = rest.iter().take_while(|&&b| b == 0).count();
    if n < 8 {
        0
    } else {
        n & !3
    }
}

/// Decodes a whole byte stream in order, one line per instruction.
///
/// Invalid words become [`Line::Invalid`] and decoding continues at the next dword, as llvm-mc
/// does; a truncated instruction at the end is reported as invalid words.
pub fn disassemble(dec: &Decoder, opts: PrintOptions, code: &[u8], each: impl FnMut(Line<'_>)) {
    disassemble_range(dec, opts, Listing::default(), code, 0, code.len(), each);
}

/// [`disassemble`] from offset `from` (taken as an instruction boundary) until the first
/// boundary at or past `until`; returns that boundary.
pub fn disassemble_range(dec: &Decoder, opts: PrintOptions, listing: Listing, code: &[u8], from: usize, until: usize, mut each: impl FnMut(Line<'_>)) -> usize {
    let mut off = from;
    let mut text = String::with_capacity(128);
    while off < until.min(code.len()) {
        if listing.skip_zeros {
            let len = skippable_zeros(&code[off..]);
            if len > 0 {
                each(Line::Zeros { offset: off, len });
                off += len;
                continue;
            }
        }
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
                return code.len();
            }
            Err(_) => {
                let word = u32::from_le_bytes([code[off], code[off + 1], code[off + 2], code[off + 3]]);
                each(Line::Invalid { offset: off, word });
                off += 4;
            }
        }
    }
    off
}

/// One piece of a parallel disassembly: lines decoded from a guessed start.
struct Piece {
    start: usize,
    end: usize,
    /// (code offset, position in `out`) of each line.
    lines: Vec<(usize, usize)>,
    out: Vec<u8>,
}

/// Output buffers of written pieces, for the next pieces: a fresh buffer of megabytes is fresh
/// pages, which the system clears on first touch (a quarter of the time of `rdna dis` on a
/// large code object went to that).
#[derive(Default)]
struct Buffers(std::sync::Mutex<Vec<(Vec<(usize, usize)>, Vec<u8>)>>);

impl Buffers {
    /// Empty line and text buffers for `lines` lines and `bytes` of text, used ones where
    /// there are some.
    fn take(&self, lines: usize, bytes: usize) -> (Vec<(usize, usize)>, Vec<u8>) {
        let (mut l, mut out) = self.0.lock().unwrap_or_else(|e| e.into_inner()).pop().unwrap_or_default();
        l.clear();
        l.reserve(lines);
        out.clear();
        out.reserve(bytes);
        (l, out)
    }

    fn give(&self, p: Piece) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push((p.lines, p.out));
    }
}

fn piece(dec: &Decoder, opts: PrintOptions, listing: Listing, code: &[u8], from: usize, until: usize, format: &(impl Fn(&Line<'_>, &mut Vec<u8>) + Sync), buffers: &Buffers) -> Piece {
    // `llvm-objdump -d`'s layout takes 17-21 bytes of text per byte of code (the corpus, the
    // one-million-instruction stream): room for 24 saves growing the buffer by copying.
    let (mut lines, mut out) = buffers.take((until - from) / 4, (until - from) * 24);
    let end = disassemble_range(dec, opts, listing, code, from, until, |line| {
        let offset = match line {
            Line::Inst { offset, .. } | Line::Invalid { offset, .. } | Line::Trailing { offset, .. } | Line::Zeros { offset, .. } => offset,
        };
        lines.push((offset, out.len()));
        format(&line, &mut out);
    });
    Piece { start: from, end, lines, out }
}

/// [`disassemble`] on `threads` threads, each line formatted by `format` and the text handed to
/// `sink` in order, byte for byte what one thread would give.
///
/// The code is cut into pieces of `piece_bytes`, each decoded from its first dword as if an
/// instruction started there. Stitching them in order, where the previous piece's last
/// instruction ends past a piece's start, the piece is taken from that boundary if its own
/// decoding passed through it (from there on the two decodings are the same), and decoded again
/// from it otherwise.
pub fn disassemble_parallel<E>(
    dec: &Decoder,
    opts: PrintOptions,
    listing: Listing,
    code: &[u8],
    threads: usize,
    piece_bytes: usize,
    format: impl Fn(&Line<'_>, &mut Vec<u8>) + Sync,
    mut sink: impl FnMut(&[u8]) -> Result<(), E>,
) -> Result<(), E> {
    let piece_bytes = piece_bytes.max(4) / 4 * 4;
    let starts: Vec<usize> = (0..code.len()).step_by(piece_bytes).collect();
    let nominal_end = |i: usize| starts.get(i + 1).copied().unwrap_or(code.len());
    let buffers = Buffers::default();
    let decode = |i: usize| piece(dec, opts, listing, code, starts[i], nominal_end(i), &format, &buffers);
    let mut at = 0;
    // Stitches piece `i` onto the text so far (see above) and hands it to `sink`.
    let mut stitch = |i: usize, p: Piece| -> Result<(), E> {
        if at >= nominal_end(i) {
            return Ok(()); // the previous piece's last instruction covers all of this one
        }
        if at == p.start {
            sink(&p.out)?;
            at = p.end;
        } else if let Ok(k) = p.lines.binary_search_by_key(&at, |l| l.0) {
            sink(&p.out[p.lines[k].1..])?;
            at = p.end;
        } else {
            let redo = piece(dec, opts, listing, code, at, nominal_end(i), &format, &buffers);
            sink(&redo.out)?;
            at = redo.end;
            buffers.give(redo);
        }
        buffers.give(p);
        Ok(())
    };
    // One piece (every small function) runs here: a thread's start and join cost more than
    // decoding it.
    if threads <= 1 || starts.len() <= 1 {
        for i in 0..starts.len() {
            stitch(i, decode(i))?;
        }
        return Ok(());
    }
    // `threads` helpers take pieces in order, at most `ahead` past the one this thread is
    // writing, while this thread stitches and writes them as they come: the output overlaps
    // the decoding, and memory stays bounded whatever the code's size.
    let ahead = threads * 2;
    struct Shared {
        next: usize,
        written: usize,
        done: Vec<Option<Piece>>,
        stop: bool,
        /// A helper panicked (a decoder bug): the caller decodes the rest itself, so the panic
        /// surfaces there instead of leaving it waiting.
        failed: bool,
    }
    let shared = std::sync::Mutex::new(Shared { next: 0, written: 0, done: (0..starts.len()).map(|_| None).collect(), stop: false, failed: false });
    let changed = std::sync::Condvar::new();
    let lock = || shared.lock().unwrap_or_else(|e| e.into_inner());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = {
                    let mut g = lock();
                    while !g.stop && !g.failed && g.next < g.done.len() && g.next >= g.written + ahead {
                        g = changed.wait(g).unwrap_or_else(|e| e.into_inner());
                    }
                    if g.stop || g.failed || g.next >= g.done.len() {
                        return;
                    }
                    g.next += 1;
                    g.next - 1
                };
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| decode(i))) {
                    Ok(p) => lock().done[i] = Some(p),
                    Err(_) => {
                        lock().failed = true;
                        changed.notify_all();
                        return;
                    }
                }
                changed.notify_all();
            });
        }
        let mut result = Ok(());
        for i in 0..starts.len() {
            let p = {
                let mut g = lock();
                loop {
                    if let Some(p) = g.done[i].take() {
                        g.written = i + 1;
                        break p;
                    }
                    if g.failed {
                        drop(g);
                        break decode(i);
                    }
                    g = changed.wait(g).unwrap_or_else(|e| e.into_inner());
                }
            };
            changed.notify_all();
            result = stitch(i, p);
            if result.is_err() {
                break;
            }
        }
        lock().stop = true;
        changed.notify_all();
        result
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Parallel disassembly equals the sequential one on bytes where pieces start mid-instruction.
    #[test]
    fn parallel_disassembly_is_the_sequential_one() {
        let dec = Decoder::new(rdna_isa::Target::from_name("gfx1030").unwrap());
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        // Valid instructions of several lengths (VOP3 8 bytes, with literals 12) among random words.
        let mut code = Vec::new();
        for i in 0..6000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let w = x as u32;
            match i % 4 {
                0 => code.extend_from_slice(&[0xd5, 0x02, 0x03, 0x7e].map(|b| b ^ (w as u8 & 1))),
                1 => code.extend_from_slice(&w.to_le_bytes()),
                2 => code.extend_from_slice(&[0x01, 0x00, 0x2b, 0xd5, 0x02, 0x07, 0x02, 0x00]),
                _ => code.extend_from_slice(&[0xff, 0x04, 0x00, 0x4a, w as u8, 0x00, 0x00, 0x3f]),
            }
        }
        // Zero runs of 4 to 40 bytes, which an objdump listing skips from 8 bytes on.
        for (i, z) in (0..120).map(|i| (i * 50 + 7, 4 * (1 + i % 10))) {
            code.splice(i * 4..i * 4, std::iter::repeat(0u8).take(z));
        }
        code.extend_from_slice(&[0x01, 0x02]);
        let format = |line: &Line<'_>, out: &mut Vec<u8>| {
            out.extend_from_slice(format!("{line:?}\n").as_bytes());
        };
        for listing in [Listing::default(), Listing::objdump()] {
            let mut want = Vec::new();
            disassemble_range(&dec, PrintOptions::default(), listing, &code, 0, code.len(), |l| format(&l, &mut want));
            assert_eq!(listing.skip_zeros, String::from_utf8_lossy(&want).contains("Zeros"));
            for (threads, piece) in [(1, 8), (2, 4), (2, 12), (3, 20), (4, 64), (2, 1 << 20)] {
                let mut got = Vec::new();
                disassemble_parallel(&dec, PrintOptions::default(), listing, &code, threads, piece, format, |b| {
                    got.extend_from_slice(b);
                    Ok::<(), ()>(())
                })
                .unwrap();
                assert!(got == want, "{threads} threads, pieces of {piece} bytes differ ({listing:?})");
            }
        }
        // A sink that fails (a closed pipe) stops the run with its error, helpers and all.
        let mut calls = 0;
        let r = disassemble_parallel(&dec, PrintOptions::default(), Listing::default(), &code, 2, 16, format, |_| {
            calls += 1;
            Err("closed")
        });
        assert_eq!((r, calls), (Err("closed"), 1));
        // A panic while decoding a piece (a bug) surfaces as a panic of the call, not a hang.
        let bomb = |line: &Line<'_>, out: &mut Vec<u8>| {
            assert!(!matches!(line, Line::Inst { offset: 4000..=4100, .. }), "planted");
            format(line, out)
        };
        let r = std::panic::catch_unwind(|| disassemble_parallel(&dec, PrintOptions::default(), Listing::default(), &code, 2, 64, bomb, |_| Ok::<(), ()>(())));
        assert!(r.is_err());
    }
}
