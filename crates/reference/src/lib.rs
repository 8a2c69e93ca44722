//! ISA reference pages, built from rdna's own model of each instruction.
//!
//! Nothing here is a table of its own: the opcode and operand lists come from `rdna-isa`'s swept
//! tables, the bit layout from the assembler's learned model of the instruction (`rdna-asm`: which
//! bits carry which piece of text), the example from the decoder and printer, the behaviour from
//! the emulator's classification (`rdna_emu::sem`), and the differences between generations from
//! comparing those layouts target by target. `words.rs` holds the project's own wording.

mod html;
mod text;
mod words;

use std::collections::HashMap;

use rdna_asm::model::{free_bits, get_value, render, Kind, Model, Render, Words};
use rdna_disasm::aim::{aimed_for, Fill};
use rdna_disasm::Decoder;
use rdna_isa::{Class, Format, Isa, OpEntry, Target};
use serde::Serialize;

pub use html::write_site;
pub use text::render_text;

/// One instruction on one generation.
#[derive(Clone, Debug, Serialize)]
pub struct Page {
    /// The name without encoding suffixes (`v_add_f32`; its `_e32`/`_e64`/`_dpp`/`_sdwa` forms
    /// are the page's encodings).
    pub name: String,
    /// The swept target whose tables the page describes (`gfx1030`).
    pub arch: String,
    /// Its generation (`RDNA2`).
    pub generation: String,
    pub category: String,
    pub description: String,
    pub encodings: Vec<EncodingPage>,
    pub behaviour: Behaviour,
    /// Every llvm-mc-19 target name whose tables have the instruction.
    pub targets: Vec<String>,
    /// The other swept targets with an instruction of this name, and how they lay it out.
    pub generations: Vec<GenerationNote>,
}

/// One encoding (format) of the instruction.
#[derive(Clone, Debug, Serialize)]
pub struct EncodingPage {
    /// The mnemonic of this encoding as LLVM prints it (`v_add_f32_e64`).
    pub mnemonic: String,
    pub format: String,
    /// Bits of the instruction without a literal constant.
    pub width: u32,
    pub opcode: u32,
    /// The fixed bits with the opcode and every operand and modifier field zero, as one number
    /// (the highest dword first), e.g. `0x00000000D9F80000` for `ds_condxchg32_rtn_b64` on gfx10.
    pub identifier: String,
    /// Fields from the highest bit down.
    pub layout: Vec<Segment>,
    pub operands: Vec<OperandInfo>,
    pub example: Option<Example>,
    /// Why there is no example, where there is none.
    pub example_note: Option<String>,
}

/// A run of bits with one meaning.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Segment {
    pub name: String,
    pub hi: u32,
    pub lo: u32,
    /// `encoding` (fixed bits), `opcode`, `operand`, `modifier` or `unassigned`.
    pub kind: String,
    /// The fixed value of `encoding` and `opcode` bits, most significant first (`110110`).
    pub bits: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct OperandInfo {
    /// The encoding field (`VDST`, `SRC0`, ...).
    pub field: String,
    /// `read` or `written`.
    pub access: String,
    /// What the operand may name, in words.
    pub class: String,
    /// Width of the encoding field in bits.
    pub field_bits: u32,
    /// Data the operand holds: width in bits and how it is read (`64 bits`, `32-bit float`).
    pub data: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct Example {
    pub text: String,
    pub bytes: Vec<u8>,
    /// The bytes as `llvm-mc -show-encoding` writes them.
    pub encoding: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct Behaviour {
    /// Pseudo-code in the project's notation, or a sentence where there is no formula.
    pub text: String,
    /// Where it comes from: `emulator` (rendered from `rdna_emu::sem`'s classification of the
    /// instruction, the same classification the emulator executes) or `description` (written by
    /// the project; the emulator does not run the instruction).
    pub source: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct GenerationNote {
    pub arch: String,
    pub generation: String,
    /// Formats and opcodes there (`VOP2 0x3`).
    pub encodings: Vec<String>,
    /// Empty where the instruction is laid out as on this page; else what differs (`opcode`,
    /// `format`, `field layout`, `operands`).
    pub differs: Vec<String>,
}

/// The generation a swept target belongs to (`RDNA2`, `GCN2`, `CDNA3`).
pub fn generation_of(isa: Isa) -> &'static str {
    rdna_isa::target::TARGETS
        .iter()
        .find(|(n, _, _)| *n == isa.name())
        .or_else(|| rdna_isa::target::TARGETS.iter().find(|(_, _, i)| *i == Some(isa)))
        .map_or("?", |(_, family, _)| family.split(" (").next().unwrap_or(family))
}

/// The name of an instruction without LLVM's encoding suffixes.
pub fn page_name(mnemonic: &str) -> &str {
    rdna_emu::sem::base_name(mnemonic)
}

/// Builds pages; remembers what it learned, so building many pages is quick.
pub struct Reference {
    decoders: HashMap<Isa, Decoder>,
    assemblers: HashMap<Isa, rdna_asm::Assembler>,
    learned: HashMap<(Isa, Format, u16), Option<Learned>>,
}

/// What the page needs from the assembler's model of one encoding.
#[derive(Clone, Debug)]
struct Learned {
    nwords: usize,
    layout: Vec<Segment>,
    identifier: Words,
    example: Option<Example>,
}

impl Default for Reference {
    fn default() -> Self {
        Self::new()
    }
}

impl Reference {
    pub fn new() -> Reference {
        Reference { decoders: HashMap::new(), assemblers: HashMap::new(), learned: HashMap::new() }
    }

    /// Every page name of `isa`, sorted.
    pub fn names(isa: Isa) -> Vec<String> {
        let tables = isa.tables();
        let mut names: Vec<String> = Vec::new();
        for f in Format::ALL {
            if f == Format::Vopd {
                continue;
            }
            for e in tables.get(f).entries {
                names.push(page_name(e.name).to_string());
            }
        }
        if let Some((x, y)) = tables.vopd {
            names.extend(x.iter().chain(y.iter()).filter(|n| !n.is_empty()).map(|n| n.to_string()));
        }
        names.sort_unstable();
        names.dedup();
        names
    }

    /// The encodings of the instruction `name` (with or without an encoding suffix) on `isa`.
    fn entries(isa: Isa, name: &str) -> Vec<(Format, &'static OpEntry)> {
        let tables = isa.tables();
        let base = page_name(name);
        let mut out = Vec::new();
        for f in Format::ALL {
            if f == Format::Vopd {
                continue;
            }
            for e in tables.get(f).entries.iter().filter(|e| page_name(e.name) == base) {
                out.push((f, e));
            }
        }
        out
    }

    /// The page of `name` on `isa`, or an error naming what is missing.
    pub fn page(&mut self, isa: Isa, name: &str) -> Result<Page, String> {
        if name.starts_with("v_dual_") {
            return self.vopd_page(isa, name);
        }
        let entries = Self::entries(isa, name);
        let Some(&(first_format, first_entry)) = entries.first() else {
            return Err(format!("no instruction named '{name}' on {} ({})", isa.name(), generation_of(isa)));
        };
        let base = page_name(name).to_string();
        let kind = rdna_emu::sem::classify_in(isa.generation(), rdna_emu::sem::base_name(first_entry.name), first_format);
        let mut encodings = Vec::new();
        for &(format, entry) in &entries {
            encodings.push(self.encoding(isa, format, entry));
        }
        let targets = rdna_isa::target::TARGETS
            .iter()
            .filter(|(_, _, i)| i.is_some_and(|i| !Self::entries(i, &base).is_empty()))
            .map(|(n, _, _)| n.to_string())
            .collect();
        let mut generations = Vec::new();
        for other in Isa::ALL.into_iter().filter(|&i| i != isa) {
            let theirs = Self::entries(other, &base);
            if theirs.is_empty() {
                continue;
            }
            let mut differs = Vec::new();
            let formats = |v: &[(Format, &OpEntry)]| v.iter().map(|(f, _)| *f).collect::<Vec<_>>();
            if formats(&theirs) != formats(&entries) {
                differs.push("format".to_string());
            }
            let mut opcode = false;
            let mut layout = false;
            let mut operands = false;
            for &(f, e) in &theirs {
                let Some(&(_, mine)) = entries.iter().find(|(g, _)| *g == f) else { continue };
                opcode |= e.op != mine.op;
                operands |= e.operands.iter().map(|o| (o.field, o.class, o.width)).ne(mine.operands.iter().map(|o| (o.field, o.class, o.width)));
                let a = self.learn(isa, f, mine).map(|l| strip_values(&l.layout));
                let b = self.learn(other, f, e).map(|l| strip_values(&l.layout));
                layout |= a != b;
            }
            for (flag, what) in [(opcode, "opcode"), (layout, "field layout"), (operands, "operands")] {
                if flag {
                    differs.push(what.to_string());
                }
            }
            generations.push(GenerationNote {
                arch: other.name().to_string(),
                generation: generation_of(other).to_string(),
                encodings: theirs.iter().map(|(f, e)| format!("{} {:#x}", f.name(), e.op)).collect(),
                differs,
            });
        }
        Ok(Page {
            category: words::category(first_format, &base).to_string(),
            description: words::description(&base, first_format, &kind),
            behaviour: words::behaviour(&base, first_format, &kind),
            name: base,
            arch: isa.name().to_string(),
            generation: generation_of(isa).to_string(),
            encodings,
            targets,
            generations,
        })
    }

    fn encoding(&mut self, isa: Isa, format: Format, entry: &'static OpEntry) -> EncodingPage {
        let learned = self.learn(isa, format, entry);
        // Without a model (no valid encoding found) the fixed bits still come from `aim`.
        let learned_ok = learned.is_some();
        let (nwords, layout, identifier, example) = match learned {
            Some(l) => (l.nwords, l.layout, l.identifier, l.example),
            None => {
                let id = fixed_bits(isa, format, entry.op as u32, &free_bits(isa, format, entry.op as u32));
                let n = format.base_len() / 4;
                (n, Vec::new(), id, None)
            }
        };
        let (example, example_note) = match example {
            Some(x) => match self.conventional(isa, format, entry, x) {
                Ok(x) => (Some(x), None),
                Err(note) => (None, Some(note)),
            },
            None if learned_ok => (None, Some("every operand value tried prints with a note that LLVM would reject it".to_string())),
            None => (None, Some(self.unreachable_note(isa, format, entry))),
        };
        let span_of = |field| layout.iter().find(|s: &&Segment| s.name == words::field_name(field)).map(|s| s.hi - s.lo + 1);
        let operands = entry
            .operands
            .iter()
            .map(|o| OperandInfo {
                field: words::field_name(o.field).to_string(),
                access: if entry.writes(o.field) { "written" } else { "read" }.to_string(),
                class: words::class(o.class, o.imm).to_string(),
                field_bits: span_of(o.field).unwrap_or(0),
                data: words::data(o.width, o.imm, o.class),
            })
            .collect();
        let (format_name, opcode) = format_of(isa, format, entry.op as u32);
        EncodingPage {
            mnemonic: entry.name.to_string(),
            format: format_name.to_string(),
            width: 32 * nwords as u32,
            opcode,
            identifier: hex_number(&identifier[..nwords]),
            layout,
            operands,
            example,
            example_note,
        }
    }

    /// The example's bytes as an assembler writes its text: LLVM fills some bits the text does
    /// not show by convention (a VOP3 `v_cmpx`'s EXEC destination, VOP3P's `op_sel_hi`), which
    /// the assembler applies and the learned base encoding may not have.
    ///
    /// None where the text selects another encoding (an operand-less VOP1's DPP form prints as
    /// the plain instruction; gfx12 decodes some VINTERP opcodes as aliases of others): no text
    /// gives this encoding, so there is no example for it.
    /// A VOPD operation's page: an encoding for each half it can be (X, Y), with an example that
    /// pairs it with `v_dual_mov_b32`.
    fn vopd_page(&mut self, isa: Isa, name: &str) -> Result<Page, String> {
        let lists = |isa: Isa| isa.tables().vopd.map(|(x, y)| (x.iter().position(|n| *n == name), y.iter().position(|n| *n == name)));
        let Some((xi, yi)) = lists(isa).filter(|(x, y)| x.is_some() || y.is_some()) else {
            return Err(format!("no instruction named '{name}' on {} ({})", isa.name(), generation_of(isa)));
        };
        let base = format!("v_{}", &name["v_dual_".len()..]);
        let kind = vopd_kind(isa, &base);
        let target = Target::lookup(isa.name()).expect("swept targets are known");
        let mut encodings = Vec::new();
        for (half, index) in [("X", xi), ("Y", yi)] {
            let Some(op) = index else { continue };
            let op = op as u32;
            let ident = 0xC800_0000u32 | if half == "X" { op << 22 } else { op << 17 };
            let layout = VOPD_LAYOUT
                .iter()
                .map(|&(n, hi, lo, kind)| {
                    let bits = (kind != "operand").then(|| (lo..=hi).rev().map(|b| if ident >> b & 1 != 0 { '1' } else { '0' }).collect());
                    let kind = if kind == "opcode" && !n.ends_with(half) { "operand" } else { kind };
                    Segment { name: n.to_string(), hi, lo, kind: kind.to_string(), bits: if kind == "operand" { None } else { bits } }
                })
                .collect();
            let operand = |f: &str, access: &str, class: &str, bits: u32| OperandInfo { field: f.into(), access: access.into(), class: class.into(), field_bits: bits, data: "32 bits".into() };
            let operands = vec![
                operand(&format!("VDST{half}"), "written", "vector register", if half == "X" { 8 } else { 7 }),
                operand(&format!("SRC0{half}"), "read", "vector register, scalar register or constant", 9),
                operand(&format!("VSRC1{half}"), "read", "vector register (where the operation has a second source)", 8),
            ];
            // The operation's operand forms, tried until one assembles and prints back unchanged.
            let forms = ["{d}, {a}, {b}", "{d}, {a}", "{d}, {a}, 0x1234, {b}", "{d}, {a}, {b}, 0x1234", "{d}, {a}, {b}, vcc_lo"];
            let asm = self.assemblers.entry(isa).or_insert_with(|| rdna_asm::Assembler::new(target));
            let dec = self.decoders.entry(isa).or_insert_with(|| Decoder::new(target));
            let mut example = None;
            for form in forms {
                let mine = |d: &str, a: &str, b: &str| format!("{name} {}", form.replace("{d}", d).replace("{a}", a).replace("{b}", b));
                let text = if half == "X" { format!("{} :: v_dual_mov_b32 v5, v9", mine("v4", "v8", "v12")) } else { format!("v_dual_mov_b32 v4, v8 :: {}", mine("v5", "v9", "v13")) };
                let Ok(bytes) = asm.assemble_stmt(&text, 1) else { continue };
                if let Ok((inst, n)) = dec.decode(&bytes) {
                    if n == bytes.len() && rdna_disasm::to_text(&inst, rdna_disasm::PrintOptions::default()) == text {
                        example = Some(Example { text, encoding: encoding_text(&bytes), bytes });
                        break;
                    }
                }
            }
            let example_note = example.is_none().then(|| "no operand form tried assembles".to_string());
            encodings.push(EncodingPage {
                mnemonic: name.to_string(),
                format: format!("VOPD ({half})"),
                width: 64,
                opcode: op,
                identifier: hex_number(&[ident, 0]),
                layout,
                operands,
                example,
                example_note,
            });
        }
        let targets = rdna_isa::target::TARGETS
            .iter()
            .filter(|(_, _, i)| i.is_some_and(|i| lists(i).is_some_and(|(x, y)| x.is_some() || y.is_some())))
            .map(|(n, _, _)| n.to_string())
            .collect();
        let generations = Isa::ALL
            .into_iter()
            .filter(|&i| i != isa)
            .filter_map(|i| {
                let (x, y) = lists(i)?;
                (x.is_some() || y.is_some()).then(|| {
                    let encodings: Vec<String> = [("X", x), ("Y", y)].iter().filter_map(|(h, o)| o.map(|o| format!("VOPD ({h}) {o:#x}"))).collect();
                    let differs = if (x, y) == (xi, yi) { Vec::new() } else { vec!["opcode".to_string()] };
                    GenerationNote { arch: i.name().into(), generation: generation_of(i).into(), encodings, differs }
                })
            })
            .collect();
        Ok(Page {
            category: words::category(Format::Vopd, name).to_string(),
            description: format!("{} One half of a dual-issue (VOPD) instruction.", words::description(&base, Format::Vop2, &kind)),
            behaviour: {
                let b = words::behaviour(&base, Format::Vop2, &kind);
                Behaviour { text: format!("{} (both halves read their sources before either writes)", b.text), source: b.source }
            },
            name: name.to_string(),
            arch: isa.name().to_string(),
            generation: generation_of(isa).to_string(),
            encodings,
            targets,
            generations,
        })
    }

    /// Drops what was learned to assemble `isa`'s examples (the assembler's tables are large; a
    /// site built one generation at a time needs them for one generation at a time).
    pub fn release(&mut self, isa: Isa) {
        self.assemblers.remove(&isa);
    }

    /// Why no encoding of an entry decodes as itself: the tables can hold an opcode that the
    /// decoder reads as another format (gfx9's VOP3 numbers of VOP3P instructions).
    fn unreachable_note(&mut self, isa: Isa, format: Format, entry: &'static OpEntry) -> String {
        let target = Target::lookup(isa.name()).expect("swept targets are known");
        let dec = self.decoders.entry(isa).or_insert_with(|| Decoder::new(target));
        let w = aimed_for(isa, format, entry.op as u32, Fill { words: [0; 5], choices: 0 });
        let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
        match dec.decode(&bytes) {
            Ok((inst, _)) if inst.format != format => {
                format!("its bytes are read as the {} encoding (opcode {:#x})", format_of(isa, inst.format, inst.entry.op as u32).0, inst.entry.op)
            }
            _ => "no valid encoding of it was found".to_string(),
        }
    }

    fn conventional(&mut self, isa: Isa, format: Format, entry: &'static OpEntry, x: Example) -> Result<Example, String> {
        // VOP3P's `op_sel_hi` has a default LLVM fills in where the text leaves it out (not
        // always all ones): prefer the text without it where that prints back unchanged.
        if let Some(i) = x.text.find(" op_sel_hi:[") {
            let end = x.text[i + 1..].find(' ').map_or(x.text.len(), |e| i + 1 + e);
            let shorter = format!("{}{}", &x.text[..i], &x.text[end..]);
            if let Ok(e) = self.conventional_text(isa, format, entry, &shorter) {
                return Ok(e);
            }
        }
        self.conventional_text(isa, format, entry, &x.text).or_else(|e| if e.is_empty() { Ok(x) } else { Err(e) })
    }

    /// `text` assembled; Err("") where the assembler refuses it or it prints differently, Err with
    /// a note where it selects another encoding.
    fn conventional_text(&mut self, isa: Isa, format: Format, entry: &'static OpEntry, text: &str) -> Result<Example, String> {
        let x = Example { text: text.to_string(), bytes: Vec::new(), encoding: String::new() };
        let target = Target::lookup(isa.name()).expect("swept targets are known");
        let asm = self.assemblers.entry(isa).or_insert_with(|| rdna_asm::Assembler::new(target));
        let Ok(bytes) = asm.assemble_stmt(&x.text, 1) else { return Err(String::new()) };
        let dec = self.decoders.entry(isa).or_insert_with(|| Decoder::new(target));
        match dec.decode(&bytes) {
            Ok((inst, n)) if n == bytes.len() && inst.format == format && std::ptr::eq(inst.entry, entry) => {
                if rdna_disasm::to_text(&inst, rdna_disasm::PrintOptions::default()) == x.text {
                    Ok(Example { encoding: encoding_text(&bytes), bytes, text: x.text })
                } else {
                    Err(String::new())
                }
            }
            Ok((inst, _)) => Err(format!("its text, `{}`, is read as the {} encoding (opcode {:#x})", x.text, format_of(isa, inst.format, inst.entry.op as u32).0, inst.entry.op)),
            Err(_) => Err(String::new()),
        }
    }

    fn learn(&mut self, isa: Isa, format: Format, entry: &'static OpEntry) -> Option<Learned> {
        if let Some(l) = self.learned.get(&(isa, format, entry.op)) {
            return l.clone();
        }
        let dec = self.decoders.entry(isa).or_insert_with(|| Decoder::new(Target::lookup(isa.name()).expect("swept targets are known")));
        let l = learn(dec, isa, format, entry);
        self.learned.insert((isa, format, entry.op), l.clone());
        l
    }

    /// What search matches for a page, without building the page: name, category, description
    /// and formats, in lowercase. The CLI's `--search` and the site's search box both use it.
    pub fn search_key(isa: Isa, name: &str) -> Option<(String, String)> {
        if let Some(single) = name.strip_prefix("v_dual_") {
            let base = format!("v_{single}");
            let desc = format!("{} One half of a dual-issue (VOPD) instruction.", words::description(&base, Format::Vop2, &vopd_kind(isa, &base)));
            return Some((format!("{name} {} {desc} vopd", words::category(Format::Vopd, name)).to_lowercase(), desc));
        }
        let entries = Self::entries(isa, name);
        let &(f, e) = entries.first()?;
        let base = page_name(name);
        let kind = rdna_emu::sem::classify_in(isa.generation(), rdna_emu::sem::base_name(e.name), f);
        let desc = words::description(base, f, &kind);
        let mut formats: Vec<&str> = entries.iter().map(|(f, e)| format_of(isa, *f, e.op as u32).0).collect();
        formats.dedup();
        Some((format!("{} {} {} {}", base, words::category(f, base), desc, formats.join(" ")).to_lowercase(), desc))
    }

    /// Pages whose search key has every word of `query` as a whole word (`add` finds
    /// `v_add_f32`, not `address`), those with every word in the name first, then by name.
    pub fn search(&mut self, isa: Isa, query: &str) -> Vec<(String, String)> {
        let terms: Vec<String> = query.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).map(|w| w.to_ascii_lowercase()).collect();
        let mut hits: Vec<(usize, String, String)> = Vec::new();
        for name in Self::names(isa) {
            let Some((key, desc)) = Self::search_key(isa, &name) else { continue };
            let words: Vec<&str> = key.split(|c: char| !c.is_ascii_alphanumeric()).collect();
            if terms.iter().all(|t| words.contains(&t.as_str())) {
                let score = terms.iter().filter(|t| !name.split('_').any(|w| w == t.as_str())).count();
                hits.push((score, name, desc));
            }
        }
        hits.sort();
        hits.into_iter().map(|(_, n, d)| (n, d)).collect()
    }

    /// Learns every encoding of the instructions of `isas` and of the same names on every other
    /// swept target (what their pages compare), on all cores.
    pub fn prepare(&mut self, isas: &[Isa]) {
        use rayon::prelude::*;
        let mut names: std::collections::HashSet<String> = std::collections::HashSet::new();
        for &isa in isas {
            names.extend(Self::names(isa));
        }
        for isa in Isa::ALL {
            let target = Target::lookup(isa.name()).expect("swept targets are known");
            let todo: Vec<(Format, &'static OpEntry)> = Format::ALL
                .into_iter()
                .filter(|&f| f != Format::Vopd)
                .flat_map(|f| isa.tables().get(f).entries.iter().map(move |e| (f, e)))
                .filter(|(f, e)| names.contains(page_name(e.name)) && !self.learned.contains_key(&(isa, *f, e.op)))
                .collect();
            let done: Vec<_> = todo.par_iter().map_init(|| Decoder::new(target), |dec, &(f, e)| ((isa, f, e.op), learn(dec, isa, f, e))).collect();
            self.learned.extend(done);
        }
    }
}

fn strip_values(layout: &[Segment]) -> Vec<(String, u32, u32)> {
    layout.iter().filter(|s| s.kind != "opcode").map(|s| (s.name.clone(), s.hi, s.lo)).collect()
}

/// What the emulator makes of a VOPD half's operation (`v_dual_add_f32` runs as `v_add_f32`).
fn vopd_kind(isa: Isa, base: &str) -> rdna_emu::sem::Kind {
    let k = rdna_emu::sem::classify_in(isa.generation(), base, Format::Vop2);
    if matches!(k, rdna_emu::sem::Kind::Invalid(_)) {
        rdna_emu::sem::classify_in(isa.generation(), base, Format::Vop1)
    } else {
        k
    }
}

/// VOPD's layout (gfx11 and gfx12): two operations, X in the low dword's opcode and sources, Y in
/// the high dword; VDSTY's low bit is the opposite of VDSTX's and is not encoded.
const VOPD_LAYOUT: [(&str, u32, u32, &str); 9] = [
    ("VDSTX", 63, 56, "operand"),
    ("VDSTY", 55, 49, "operand"),
    ("VSRC1Y", 48, 41, "operand"),
    ("SRC0Y", 40, 32, "operand"),
    ("ENCODING", 31, 26, "encoding"),
    ("OPX", 25, 22, "opcode"),
    ("OPY", 21, 17, "opcode"),
    ("VSRC1X", 16, 9, "operand"),
    ("SRC0X", 8, 0, "operand"),
];

/// The format's fixed bits and the opcode, everything else zero (`free`: the format's free bits).
fn fixed_bits(isa: Isa, format: Format, op: u32, free: &Words) -> Words {
    let zero = aimed_for(isa, format, op, Fill { words: [0; 5], choices: 0 });
    let mut w = [0u32; rdna_asm::model::WORDS];
    for i in 0..5 {
        w[i] = zero[i] & !free[i];
    }
    w
}

/// Opcode bit k's position in the encoding, for every bit the format's opcode field has.
fn opcode_bits(isa: Isa, format: Format, free: &Words) -> Vec<u32> {
    let zero = aimed_for(isa, format, 0, Fill { words: [0; 5], choices: 0 });
    let mut out = Vec::new();
    for k in 0..16 {
        let w = aimed_for(isa, format, 1 << k, Fill { words: [0; 5], choices: 0 });
        let diff: Vec<u32> = (0..160u32).filter(|&b| (w[b as usize / 32] ^ zero[b as usize / 32]) >> (b % 32) & 1 != 0).collect();
        match diff.as_slice() {
            [b] if free[*b as usize / 32] >> (b % 32) & 1 == 0 && !out.contains(b) => out.push(*b),
            _ => break,
        }
    }
    out
}

/// Learns one encoding's layout, identifier and example from the assembler's model.
fn learn(dec: &Decoder, isa: Isa, format: Format, entry: &'static OpEntry) -> Option<Learned> {
    let model = Model::learn(dec, isa, format, entry)?;
    let nwords = model.nwords.min(5);
    let free = free_bits(isa, format, entry.op as u32);
    let identifier = fixed_bits(isa, format, entry.op as u32, &free);
    let op_bits = opcode_bits(isa, format, &free);
    let inst = rdna_asm::model::decode_words(dec, &model.base)?;
    let mut buf = String::new();

    // Name every bit, then merge runs of equal names.
    let width = 32 * nwords as u32;
    let mut names: Vec<(String, &'static str)> = vec![(String::new(), ""); width as usize];
    for b in 0..width {
        let fixed = free[b as usize / 32] >> (b % 32) & 1 == 0;
        names[b as usize] = if op_bits.contains(&b) {
            ("OP".into(), "opcode")
        } else if fixed {
            ("ENCODING".into(), "encoding")
        } else {
            ("unassigned".into(), "unassigned")
        };
    }
    // Operand fields where the decoder reads them, over anything but the opcode: some fixed bits
    // of an aimed encoding are operand bits kept zero for validity (gfx7 VOP3b's SDST).
    for o in entry.operands {
        let (lo, w) = inst.field_span(o.field);
        for b in lo as u32..(lo as u32 + w as u32).min(width) {
            if names[b as usize].1 != "opcode" {
                names[b as usize] = (words::field_name(o.field).to_string(), "operand");
            }
        }
    }
    for g in &model.groups {
        let name = match &g.kind {
            Kind::Operand { .. } => continue,
            Kind::Modifier => {
                let n = modifier_name(g);
                // A flag that selects how an operand field is read (gfx9 SMEM's soe/imm print as
                // `offset:`) is not that field.
                if entry.operands.iter().any(|o| words::field_name(o.field) == n) {
                    format!("{n}_MODE")
                } else {
                    n
                }
            }
            Kind::Decoration { of } => decoration_name(dec, format, entry, &model, g, *of, &mut buf),
        };
        for &b in &g.bits {
            if (b as u32) < width && names[b as usize].1 == "unassigned" {
                names[b as usize] = (name.clone(), "modifier");
            }
        }
    }
    let mut layout: Vec<Segment> = Vec::new();
    for b in (0..width).rev() {
        let (name, kind) = &names[b as usize];
        let bit = (identifier[b as usize / 32] >> (b % 32) & 1).to_string();
        match layout.last_mut() {
            Some(s) if s.name == *name && s.kind == *kind && s.lo == b + 1 => {
                s.lo = b;
                if let Some(v) = &mut s.bits {
                    v.push_str(&bit);
                }
            }
            _ => layout.push(Segment {
                name: name.clone(),
                hi: b,
                lo: b,
                kind: kind.to_string(),
                bits: matches!(*kind, "encoding" | "opcode").then_some(bit),
            }),
        }
    }
    let example = example(dec, format, entry, &model, &inst, &mut buf);
    Some(Learned { nwords, layout, identifier, example })
}

/// A modifier group's name: the key it prints (`offset:` → OFFSET, `glc` → GLC).
fn modifier_name(g: &rdna_asm::model::Group) -> String {
    let keys: Vec<String> = g
        .slots
        .iter()
        .filter_map(|s| match s {
            rdna_asm::syntax::Slot::Key(k, _) => Some(k.trim_end_matches(':').to_ascii_uppercase()),
            _ => None,
        })
        .collect();
    match keys.first().map(String::as_str) {
        // One field, printed under several keys: DPP's control (quad_perm, row_shl, ...), the
        // output modifier (mul:2, div:2).
        _ if keys.iter().any(|k| k == "QUAD_PERM" || k == "ROW_SHL") => "DPP_CTRL".to_string(),
        Some("MUL" | "DIV") => "OMOD".to_string(),
        Some(k) => k.to_string(),
        None => "SELECT".to_string(),
    }
}

/// A decoration's name from what it does to its operand's text: `-v1` NEG, `|v1|` ABS,
/// `sext(v1)` SEXT, `v1.h` OP_SEL.
fn decoration_name(dec: &Decoder, format: Format, entry: &OpEntry, model: &Model, g: &rdna_asm::model::Group, of: usize, buf: &mut String) -> String {
    let field = entry.operands.get(of).map_or("?", |o| words::field_name(o.field));
    let mut w = model.base;
    rdna_asm::model::set_value(&mut w, &g.bits, (1u32 << g.bits.len().min(31)) - 1);
    let kind = match render(dec, format, entry, &w, buf) {
        Render::Text(s, _) => {
            let text = s.atoms.iter().map(|a| a.text.clone()).collect::<Vec<_>>().join(" ");
            if text.contains("sext(") {
                "SEXT"
            } else if text.contains('|') {
                "ABS"
            } else if text.contains('-') {
                "NEG"
            } else if text.contains(".h") {
                "OP_SEL"
            } else {
                "MOD"
            }
        }
        _ => "MOD",
    };
    format!("{kind}({field})")
}

/// How many of an encoding's operands carry a note that LLVM would reject them
/// (`/*Invalid register...*/`), or None where it does not print as the instruction.
fn notes(dec: &Decoder, format: Format, entry: &OpEntry, w: &Words, buf: &mut String) -> Option<usize> {
    match render(dec, format, entry, w, buf) {
        Render::Text(s, _) => Some(s.atoms.iter().filter(|a| a.text.contains("/*")).count() + buf.matches("/*").count()),
        _ => None,
    }
}

/// The first of `values` that, written into `bits` of `w`, makes the modifier `key` print as
/// `want` (a group may hold more bits than the modifier shows).
#[allow(clippy::too_many_arguments)]
fn value_printing(dec: &Decoder, format: Format, entry: &OpEntry, w: &Words, bits: &[u16], mut values: std::ops::Range<u32>, key: &str, want: &str, buf: &mut String) -> Option<u32> {
    let slot = rdna_asm::syntax::Slot::Key(key.into(), 0);
    values.find(|&v| {
        let mut t = *w;
        rdna_asm::model::set_value(&mut t, bits, v);
        matches!(render(dec, format, entry, &t, buf), Render::Text(s, _) if s.get(&slot).is_some_and(|a| a.text == want))
    })
}

/// A real instruction: the model's base encoding with modifiers at the values LLVM leaves
/// unprinted where that is all ones (VOP3P's `op_sel_hi`), an image's `dmask:0x1` (atomics and
/// gathers need one), a small literal, and distinct registers in its operand fields.
fn example(dec: &Decoder, format: Format, entry: &OpEntry, model: &Model, inst: &rdna_disasm::Inst, buf: &mut String) -> Option<Example> {
    let mut w = model.base;
    for g in model.groups.iter().filter(|g| !matches!(g.kind, Kind::Operand { .. })) {
        let keys: Vec<&str> = g.slots.iter().filter_map(|s| if let rdna_asm::syntax::Slot::Key(k, _) = s { Some(k.as_str()) } else { None }).collect();
        let dmask = keys.iter().any(|k| k.starts_with("dmask"));
        if (g.kind != Kind::Modifier || keys.is_empty()) && !dmask {
            continue;
        }
        let value = if dmask {
            // The value that prints `dmask:0x1`; a compare-and-swap's data is two values, so one
            // mask bit per dword of both.
            let want = match entry.name {
                n if n.contains("cmpswap_x2") => "dmask:0xf",
                n if n.contains("cmpswap") => "dmask:0x3",
                _ => "dmask:0x1",
            };
            match value_printing(dec, format, entry, &w, &g.bits, 1..1u32 << g.bits.len().min(8), "dmask", want, buf) {
                Some(v) => v,
                None => continue,
            }
        } else {
            (1u32 << g.bits.len().min(31)) - 1
        };
        let mut t = w;
        rdna_asm::model::set_value(&mut t, &g.bits, value);
        if let Render::Text(s, _) = render(dec, format, entry, &t, buf) {
            let shows = keys.iter().any(|k| s.get(&rdna_asm::syntax::Slot::Key(k.to_string(), 0)).is_some());
            if dmask || (!shows && !buf.contains("/*")) {
                w = t;
            }
        }
    }
    if inst.literal.is_some() && model.nwords < w.len() {
        // A literal that fits every operand type (16-bit ones included).
        let mut t = w;
        t[model.nwords] = 0x1234;
        if matches!(render(dec, format, entry, &t, buf), Render::Text(..)) {
            w = t;
        }
    }
    // SDWA's `dst_sel:DWORD`, LLVM's default: the only one it assembles for v_mac's tied
    // destination, valid for every other SDWA instruction.
    if let Some(g) = model.groups.iter().find(|g| g.slots.iter().any(|s| matches!(s, rdna_asm::syntax::Slot::Key(k, _) if k == "dst_sel"))) {
        if let Some(v) = value_printing(dec, format, entry, &w, &g.bits, 0..1u32 << g.bits.len().min(4), "dst_sel", "dst_sel:DWORD", buf) {
            rdna_asm::model::set_value(&mut w, &g.bits, v);
        }
    }
    // Before gfx10 a VALU instruction reads one scalar value at most (the constant bus): a
    // second scalar source repeats the first (`v_writelane_b32 v4, s8, s8`).
    let one_scalar = dec.target.generation < rdna_isa::Generation::Gfx10;
    let mut scalar_src: Option<u32> = None;
    let mut next_reg = 4u32;
    for o in entry.operands.iter() {
        let (lo, width) = inst.field_span(o.field);
        if width == 0 || o.class == Class::Other || lo as usize + width as usize > 32 * model.nwords.min(5) {
            continue;
        }
        let bits: Vec<u16> = (lo as u16..lo as u16 + width as u16).collect();
        // Registers that do not overlap the previous operands' (LLVM rejects an MFMA whose
        // accumulator partly overlaps its destination), aligned to 4.
        let n = next_reg;
        next_reg = (n + o.width.max(1) as u32).div_ceil(4) * 4;
        let vgpr_src = width == 9 && matches!(o.class, Class::Vgpr | Class::Vgpr16 | Class::Agpr);
        let mut candidates: Vec<u32> = if vgpr_src { vec![256 + n, 256 + n / 2, 256 + n / 4] } else { vec![n, n / 2, n / 4] };
        if width == 9 && o.class == Class::Sgpr {
            candidates = match scalar_src {
                Some(s) if one_scalar && o.width <= 1 => vec![256 + n, s],
                _ => vec![256 + n, n, n / 2],
            };
        }
        if entry.name.starts_with("s_waitcnt_") {
            // LLVM assembles only `null` there (gfx10's and gfx11's numbers for it).
            candidates = vec![125, 124];
        }
        let before = match render(dec, format, entry, &w, buf) {
            Render::Text(s, _) => s,
            _ => return None,
        };
        // The candidate with the fewest notes, the first among equals.
        let mut best: Option<(usize, Words)> = None;
        for v in candidates {
            if v >> width != 0 || get_value(&w, &bits) == v {
                continue;
            }
            let mut t = w;
            rdna_asm::model::set_value(&mut t, &bits, v);
            if let Some(k) = notes(dec, format, entry, &t, buf) {
                // The operand must read as a register (`v4`, `s[8:9]`, `null`), not as a special
                // one a lane-mask field can also name (`exec_hi`).
                let Render::Text(after, _) = render(dec, format, entry, &t, buf) else { continue };
                let plain = rdna_asm::model::changed_slots(&before, &after).iter().all(|slot| {
                    after.get(slot).is_some_and(|a| {
                        let t = a.text.as_bytes();
                        a.text == "null" || (t.len() > 1 && matches!(t[0], b'v' | b's' | b'a') && (t[1].is_ascii_digit() || t[1] == b'['))
                    })
                });
                if plain && best.as_ref().map_or(true, |(b, _)| k < *b) {
                    best = Some((k, t));
                }
            }
        }
        let now = notes(dec, format, entry, &w, buf).unwrap_or(usize::MAX);
        if let Some((k, t)) = best {
            if k <= now {
                w = t;
            }
        }
        if width == 9 && o.class == Class::Sgpr && o.width <= 1 && scalar_src.is_none() && get_value(&w, &bits) < 106 {
            scalar_src = Some(get_value(&w, &bits));
        }
    }
    // gfx90a/gfx942's 64-bit DPP takes only row_newbcast (DPP_CTRL, bits 40..48), which no
    // learned group reaches (every other value prints the same note): row_newbcast:1.
    if format.is_dpp16() && notes(dec, format, entry, &w, buf).is_some_and(|k| k > 0) {
        let mut t = w;
        rdna_asm::model::set_value(&mut t, &(40..49).collect::<Vec<u16>>(), 0x151);
        if notes(dec, format, entry, &t, buf) == Some(0) {
            w = t;
        }
    }
    if notes(dec, format, entry, &w, buf) != Some(0) {
        return None;
    }
    let Render::Text(_, len) = render(dec, format, entry, &w, buf) else { return None };
    let mut bytes = Vec::with_capacity(len);
    for x in w.iter() {
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    bytes.truncate(len);
    let (inst, _) = dec.decode(&bytes).ok()?;
    let text = rdna_disasm::to_text(&inst, rdna_disasm::PrintOptions::default());
    Some(Example { text, encoding: encoding_text(&bytes), bytes })
}

/// Bytes as `llvm-mc -show-encoding` lists them.
fn encoding_text(bytes: &[u8]) -> String {
    format!("[{}]", bytes.iter().map(|b| format!("0x{b:02x}")).collect::<Vec<_>>().join(","))
}

/// The format's name on `isa` and the opcode its field holds: gfx12 renamed the memory formats
/// (VBUFFER, VFLAT, VGLOBAL, VSCRATCH, VIMAGE, VSAMPLE, VDS), and the tables number VSAMPLE's
/// opcodes from 0x100 to keep them apart from VIMAGE's.
fn format_of(isa: Isa, format: Format, op: u32) -> (&'static str, u32) {
    if isa.generation() != rdna_isa::Generation::Gfx12 {
        return (format.name(), op);
    }
    match format {
        Format::Mimg if op >= 0x100 => ("VSAMPLE", op - 0x100),
        Format::Mimg => ("VIMAGE", op),
        Format::Mubuf | Format::Mtbuf => ("VBUFFER", op),
        Format::Flat => ("VFLAT", op),
        Format::Global => ("VGLOBAL", op),
        Format::Scratch => ("VSCRATCH", op),
        Format::Ds => ("VDS", op),
        _ => (format.name(), op),
    }
}

/// Dwords as one hexadecimal number, the highest dword first.
fn hex_number(w: &[u32]) -> String {
    let mut s = String::from("0x");
    for x in w.iter().rev() {
        s.push_str(&format!("{x:08X}"));
    }
    s
}

/// Looks a target or generation name up and returns the swept tables it uses.
pub fn isa_of(arch: &str) -> Result<Isa, String> {
    Ok(Target::lookup(arch)?.isa)
}

/// Every page of `isa`, in name order.
pub fn all_pages(reference: &mut Reference, isa: Isa) -> Vec<Page> {
    Reference::names(isa).into_iter().filter_map(|n| reference.page(isa, &n).ok()).collect()
}

/// JSON of a page, pretty-printed.
pub fn to_json(page: &Page) -> String {
    serde_json::to_string_pretty(page).expect("pages serialize")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ds_condxchg32_identifier_matches_the_seed_page() {
        // The seed page (RDNA-era DS layout): opcode 126 gives 0x00000000D9F80000.
        let mut r = Reference::new();
        let p = r.page(Isa::Gfx1100, "ds_condxchg32_rtn_b64").unwrap();
        let e = &p.encodings[0];
        assert_eq!((e.format.as_str(), e.opcode, e.width), ("DS", 126, 64));
        assert_eq!(e.identifier, "0x00000000D9F80000");
        let seg = |n: &str| e.layout.iter().find(|s| s.name == n).map(|s| (s.hi, s.lo));
        assert_eq!(seg("VDST"), Some((63, 56)));
        assert_eq!(seg("DATA0"), Some((47, 40)));
        assert_eq!(seg("ADDR"), Some((39, 32)));
        assert_eq!(seg("OP"), Some((25, 18)));
        // LLVM reads this instruction's offset as one 16-bit number (`offset:65535`), where AMD's
        // format-level layout names two bytes.
        assert_eq!(seg("OFFSET"), Some((15, 0)));
        // RDNA4 calls the format VDS (as the seed page's "ENC_VDS"); the identifier is the same.
        let p = r.page(Isa::Gfx1200, "ds_condxchg32_rtn_b64").unwrap();
        assert_eq!((p.encodings[0].format.as_str(), p.encodings[0].identifier.as_str()), ("VDS", "0x00000000D9F80000"));
        assert!(p.generations.iter().any(|g| g.arch == "gfx1100"));
    }
}
