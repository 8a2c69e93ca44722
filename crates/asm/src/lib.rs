//! The assembler: LLVM AMDGPU assembly text → machine code, for every target the decoder knows.
//!
//! There are no encoding tables here. Each opcode's encoder is learned from the decoder and the
//! printer ([`model`]): which bits carry which operand or modifier, and what text each value
//! prints as. An instruction is assembled by looking its pieces up in those tables and is accepted
//! only if printing the result gives the input back, so `rdna asm` accepts exactly the text
//! `rdna dis` (and llvm-mc-19) prints, and assembling printed text returns the bytes it came from.
//!
//! ```
//! let bytes = rdna_asm::assemble_one("gfx1030", "v_mov_b32_e32 v1, v2").unwrap();
//! assert_eq!(bytes, [0x02, 0x03, 0x02, 0x7e]);
//! ```

pub mod model;
pub mod syntax;

use std::collections::HashMap;

use rdna_disasm::Decoder;
use rdna_isa::{Class, Format, Isa, OpEntry, Target};

use model::{render, Model, Render, Words};
use syntax::{Slot, Stmt};

/// Why text did not assemble. Lines and columns count from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {message}")]
pub struct AsmError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

/// An assembler for one target; it learns each opcode's encoder on first use and keeps it.
pub struct Assembler {
    dec: Decoder,
    /// Mnemonic → the (tables, format, entry) that print it.
    index: HashMap<&'static str, Vec<(Isa, Format, &'static OpEntry)>>,
    models: HashMap<(Format, u16, Isa), Option<Box<Model>>>,
    buf: String,
}

/// The output of [`Assembler::assemble`]: the bytes and where each source line's instruction went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    pub bytes: Vec<u8>,
    /// (source line, byte offset, length) for each instruction or data directive.
    pub lines: Vec<(usize, usize, usize)>,
}

impl Assembler {
    pub fn new(target: Target) -> Assembler {
        let mut index: HashMap<&'static str, Vec<(Isa, Format, &'static OpEntry)>> = HashMap::new();
        let mut isas = vec![target.isa];
        isas.extend(target.fallback);
        for isa in isas {
            for f in Format::ALL {
                for e in isa.tables().get(f).entries {
                    // The target's own tables win over its fallback's.
                    if isa != target.isa && target.isa.tables().get(f).get(e.op as u32).is_some() {
                        continue;
                    }
                    index.entry(e.name).or_default().push((isa, f, e));
                    // VOPD's one entry prints as its X operation's name.
                    if f == Format::Vopd {
                        for x in isa.tables().vopd.map(|v| v.0.as_slice()).unwrap_or(&[]).iter().filter(|x| !x.is_empty()) {
                            index.entry(x).or_default().push((isa, f, e));
                        }
                    }
                }
            }
        }
        Assembler { dec: Decoder::new(target), index, models: HashMap::new(), buf: String::new() }
    }

    pub fn target(&self) -> Target {
        self.dec.target
    }

    fn model(&mut self, isa: Isa, f: Format, e: &'static OpEntry) -> Option<&Model> {
        let dec = self.dec;
        self.models
            .entry((f, e.op, isa))
            .or_insert_with(|| Model::learn(&dec, isa, f, e).map(Box::new))
            .as_deref()
    }

    /// The candidate entries for a mnemonic: as written, else with the encoding suffixes LLVM
    /// lets one leave out (`_e32` before `_e64`, as llvm-mc prefers the shorter encoding).
    fn candidates(&self, mnemonic: &str) -> Vec<(Isa, Format, &'static OpEntry)> {
        if let Some(c) = self.index.get(mnemonic) {
            return c.clone();
        }
        let mut out = Vec::new();
        for suffix in ["_e32", "_e64"] {
            if let Some(c) = self.index.get(format!("{mnemonic}{suffix}").as_str()) {
                out.extend(c.iter().copied());
            }
        }
        out
    }

    /// Assembles one instruction (`text` without comments or labels); `line` numbers the error.
    pub fn assemble_stmt(&mut self, text: &str, line: usize) -> Result<Vec<u8>, AsmError> {
        let err = |col: usize, message: String| AsmError { line, col: col + 1, message };
        let clean = syntax::strip_block_comments(text).into_owned();
        let Some(mut stmt) = syntax::split(&clean, 0) else { return Err(err(0, "expected an instruction".into())) };
        let candidates = self.candidates(&stmt.mnemonic);
        if candidates.is_empty() {
            return Err(err(
                stmt.mnemonic_col,
                format!("unknown instruction '{}' for {}", stmt.mnemonic, self.dec.target.name),
            ));
        }
        let wanted = stmt.mnemonic.clone();
        let mut best: Option<(usize, Stmt, &'static OpEntry)> = None;
        // A result whose text carries an "Invalid register" note (a VGPR the short encoding
        // cannot reach) is kept only if no VOP3 form takes the text: llvm-mc picks that one.
        // A modifier no candidate can print is named at once.
        let mut keys: Vec<String> = Vec::new();
        for &(isa, f, e) in &candidates {
            if let Some(m) = self.model(isa, f, e) {
                keys.extend(m.modifier_keys());
            }
        }
        if let Some(a) = stmt.atoms.iter().find(|a| matches!(&a.slot, Slot::Key(k, _) if !keys.contains(k))) {
            let name = candidates.first().map(|c| c.2.name).unwrap_or("");
            return Err(err(a.col, format!("invalid '{}': not a modifier {name} takes here", a.text)));
        }
        let mut noted: Option<Vec<u8>> = None;
        let mut queue = candidates;
        let mut widened = false;
        let mut next = 0;
        loop {
            if next == queue.len() {
                if noted.is_none() || widened {
                    break;
                }
                widened = true;
                for suffix in ["_e64_dpp", "_e64"] {
                    if let Some(c) = self.index.get(format!("{wanted}{suffix}").as_str()) {
                        queue.extend(c.iter().copied());
                    }
                }
                if next == queue.len() {
                    break;
                }
            }
            let (isa, f, e) = queue[next];
            next += 1;
            if f != Format::Vopd {
                // A suffix the input left out (`_e32`) is the candidate's.
                stmt.mnemonic = e.name.to_string();
                if let Some(a) = stmt.atoms.iter_mut().find(|a| a.slot == Slot::Mnemonic) {
                    a.text = e.name.to_string();
                }
            }
            let dec = self.dec;
            let mut buf = std::mem::take(&mut self.buf);
            let result = match self.model(isa, f, e) {
                Some(m) => try_model(&dec, m, &stmt, &mut buf),
                None => Err(None),
            };
            self.buf = buf;
            match result {
                Ok((mut bytes, invalid_note)) => {
                    if f == Format::Exp {
                        exp_pairs_as_llvm(&stmt, &mut bytes);
                    }
                    // gfx12 buffer instructions other than tbuffer carry format 1 (llvm-mc's
                    // default, printed as nothing, like 0).
                    let g12 = self.dec.target.generation == rdna_isa::Generation::Gfx12;
                    if g12 && f == Format::Mubuf && bytes.len() >= 8 && bytes[6] & 0x80 == 0 && bytes[7] & 0x3f == 0 {
                        bytes[6] |= 0x80;
                    }
                    // VOP3P's op_sel_hi is all ones unless written; llvm-mc sets the bits of
                    // sources an instruction does not have too (the text cannot show them).
                    if matches!(f, Format::Vop3p | Format::Vop3pDpp16 | Format::Vop3pDpp8) && !stmt.atoms.iter().any(|a| a.text.starts_with("op_sel_hi:")) {
                        for bit in [14u32, 59, 60] {
                            set_if_unseen(&self.dec, f, e, &mut bytes, bit);
                        }
                    }
                    // A VOP3 v_cmpx writes EXEC; from gfx10 on llvm-mc puts exec_lo in the
                    // unprinted destination field.
                    let vop3 = matches!(f, Format::Vop3 | Format::Vop3Dpp16 | Format::Vop3Dpp8);
                    if vop3 && e.name.starts_with("v_cmpx") && !self.dec.target.generation.is_gcn() {
                        bytes[0] = 0x7e;
                    }
                    if !invalid_note {
                        return Ok(bytes);
                    }
                    noted.get_or_insert(bytes);
                }
                Err(Some(printed)) => {
                    let score = agreement(&stmt, &printed);
                    if best.as_ref().map_or(true, |b| score > b.0) {
                        best = Some((score, printed, e));
                    }
                }
                Err(None) => {}
            }
        }
        if let Some(bytes) = noted {
            return Ok(bytes);
        }
        stmt.mnemonic = wanted.clone();
        if let Some(a) = stmt.atoms.iter_mut().find(|a| a.slot == Slot::Mnemonic) {
            a.text = wanted;
        }
        // Name the first piece of the input the closest candidate could not reproduce.
        if let Some((_, printed, e)) = best {
            for a in stmt.atoms.iter().filter(|a| a.slot != Slot::Mnemonic) {
                if !printed.get(&a.slot).is_some_and(|p| model::atom_equal(&p.text, &a.text)) {
                    let what = match a.slot {
                        Slot::Pos(i) => match e.operands.get(i as usize) {
                            Some(op) => format!("operand {} of {} takes {}", i + 1, e.name, describe(op)),
                            None => format!("{} takes {} operands", e.name, e.operands.len()),
                        },
                        Slot::Key(..) => format!("not a modifier {} takes here", e.name),
                        Slot::Mnemonic => format!("not an operation {} pairs", e.name),
                    };
                    return Err(err(a.col, format!("invalid '{}': {what}", a.text)));
                }
            }
            if let Some(p) = printed.atoms.iter().find(|p| stmt.get(&p.slot).is_none()) {
                let col = stmt.atoms.last().map(|a| a.col + a.text.len()).unwrap_or(stmt.mnemonic_col + stmt.mnemonic.len());
                let what = match p.slot {
                    Slot::Pos(i) => match e.operands.get(i as usize) {
                        Some(op) => format!("missing operand {} of {}: it takes {}", i + 1, e.name, describe(op)),
                        None => format!("missing operand {} of {} (`{}` here)", i + 1, e.name, p.text),
                    },
                    _ => format!("{} needs `{}` here", e.name, p.text),
                };
                return Err(err(col, what));
            }
        }
        Err(err(stmt.mnemonic_col, format!("'{}' cannot be encoded for {}", text.trim(), self.dec.target.name)))
    }

    /// Assembles a whole source: instructions, labels (`name:`), `.text`, `.long`/`.word`/
    /// `.short`/`.byte` data and comments (`;`, `//`, `#`, `/* */`). Branch operands may name labels.
    pub fn assemble(&mut self, source: &str) -> Result<Output, AsmError> {
        // Pass 1: sizes and label addresses (branches are always one dword).
        let mut labels: HashMap<String, usize> = HashMap::new();
        let mut items: Vec<(usize, String, usize)> = Vec::new(); // (line, text, offset)
        let mut off = 0usize;
        let mut out = Output::default();
        for (ln, raw) in source.lines().enumerate() {
            let line = ln + 1;
            let no_block = syntax::strip_block_comments(raw);
            let mut text = syntax::strip_line_comment(&no_block).to_string();
            // Labels.
            loop {
                let t = text.trim_start();
                let Some(colon) = t.find(':') else { break };
                let name = &t[..colon];
                if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || "_.$".contains(c)) || name.starts_with(|c: char| c.is_ascii_digit()) {
                    break;
                }
                if labels.insert(name.to_string(), off).is_some() {
                    let col = raw.find(name).unwrap_or(0) + 1;
                    return Err(AsmError { line, col, message: format!("label '{name}' defined twice") });
                }
                text = t[colon + 1..].to_string();
            }
            let t = text.trim();
            if t.is_empty() {
                continue;
            }
            let col = raw.find(t).unwrap_or(0);
            if let Some(d) = t.strip_prefix('.') {
                let (name, args) = d.split_once(char::is_whitespace).unwrap_or((d, ""));
                let size = match data_size(name) {
                    Some(size) => size,
                    None if matches!(name, "text" | "globl" | "global" | "p2align" | "align" | "amdgcn_target" | "amdhsa_code_object_version" | "section" | "type" | "size") => {
                        if matches!(name, "p2align" | "align") {
                            let n = args.split(',').next().and_then(|a| model::parse_int(a.trim())).unwrap_or(0);
                            let align = if name == "p2align" { 1usize << n.clamp(0, 16) } else { n.max(1) as usize };
                            let pad = (align - off % align) % align;
                            items.push((line, format!(".pad {pad}"), off));
                            off += pad;
                        }
                        continue;
                    }
                    None => return Err(AsmError { line, col: col + 1, message: format!("unsupported directive '.{name}'") }),
                };
                let n = args.split(',').filter(|a| !a.trim().is_empty()).count();
                items.push((line, t.to_string(), off));
                off += size * n;
                continue;
            }
            items.push((line, format!("{}{}", " ".repeat(col), t), off));
            // Instruction sizes need a first assembly; labels are sized as 0.
            let probe = replace_labels(&items.last().unwrap().1, &labels, off, true);
            off += self.assemble_stmt(&probe, line)?.len();
        }
        // Pass 2: the bytes.
        for (line, text, at) in items {
            debug_assert_eq!(out.bytes.len(), at);
            let t = text.trim();
            if let Some(pad) = t.strip_prefix(".pad ") {
                // Code is padded as llvm-mc pads it: zero bytes up to a dword, then `s_nop 0`s.
                let n: usize = pad.parse().unwrap_or(0);
                let zeros = n % 4;
                out.bytes.extend(std::iter::repeat(0).take(zeros));
                for _ in 0..n / 4 {
                    out.bytes.extend_from_slice(&[0x00, 0x00, 0x80, 0xbf]);
                }
                continue;
            }
            if let Some(d) = t.strip_prefix('.') {
                let (name, args) = d.split_once(char::is_whitespace).unwrap_or((d, ""));
                let size = data_size(name).unwrap_or(8);
                let start = out.bytes.len();
                for a in args.split(',').filter(|a| !a.trim().is_empty()) {
                    let v = model::parse_int(a.trim()).ok_or_else(|| AsmError {
                        line,
                        col: text.find(a.trim()).unwrap_or(0) + 1,
                        message: format!("expected a number, found '{}'", a.trim()),
                    })?;
                    out.bytes.extend_from_slice(&v.to_le_bytes()[..size]);
                }
                out.lines.push((line, start, out.bytes.len() - start));
                continue;
            }
            let resolved = replace_labels(&text, &labels, at, false);
            if resolved.contains('\u{0}') {
                return Err(AsmError { line, col: 1, message: "unknown label".into() });
            }
            let bytes = self.assemble_stmt(&resolved, line)?;
            out.lines.push((line, at, bytes.len()));
            out.bytes.extend_from_slice(&bytes);
        }
        Ok(out)
    }
}

/// The size of each item of a data directive (`.long 1, 2`), None for other directives.
fn data_size(name: &str) -> Option<usize> {
    match name {
        "long" | "word" | "int" => Some(4),
        "short" | "hword" => Some(2),
        "byte" => Some(1),
        "quad" => Some(8),
        _ => None,
    }
}

/// Encodes `stmt` with `m`: Ok(bytes) when printing them gives `stmt` back, else the closest
/// text reached (None when nothing printed).
fn try_model(dec: &Decoder, m: &Model, stmt: &Stmt, buf: &mut String) -> Result<(Vec<u8>, bool), Option<Stmt>> {
    let mut closest = None;
    let check = |solved: &model::Solved, closest: &mut Option<Stmt>, buf: &mut String| -> Option<(Vec<u8>, bool)> {
        let w = &solved.words;
        if let Render::Text(s, len) = render(dec, m.format, m.entry, w, buf) {
            if same_text(&s, stmt, &solved.trusted) {
                return Some((bytes_of(w, len), buf.contains("Invalid register")));
            }
            // Keep the try that got most of the input right, for the error message.
            if closest.as_ref().map_or(true, |c| agreement(stmt, &s) > agreement(stmt, c)) {
                *closest = Some(s);
            }
        }
        None
    };
    // Over the base encoding's tables, then over tables relearned where the first try landed
    // (pieces that depend on each other, such as an image's data width on its dmask).
    let first = m.solve(dec, stmt, &m.base, buf);
    if let Some(b) = check(&first, &mut closest, buf) {
        return Ok(b);
    }
    let mut second = first;
    for _ in 0..3 {
        let again = m.relearn(dec, &second.words, buf);
        let next = again.solve(dec, stmt, &second.words, buf);
        if let Some(b) = check(&next, &mut closest, buf) {
            return Ok(b);
        }
        let stuck = next.words == second.words;
        second = next;
        if stuck {
            break;
        }
    }
    // Values that move other text (SMEM's null offset register): try each, relearning over it.
    for &g in &second.missing {
        for &v in m.groups.get(g).map(|x| x.structural.as_slice()).unwrap_or(&[]) {
            let mut start = second.words;
            model::set_value(&mut start, &m.groups[g].bits, v);
            let third = m.relearn(dec, &start, buf);
            let s = third.solve(dec, stmt, &start, buf);
            if let Some(b) = check(&s, &mut closest, buf) {
                return Ok(b);
            }
            let fourth = third.relearn(dec, &s.words, buf);
            let s = fourth.solve(dec, stmt, &s.words, buf);
            if let Some(b) = check(&s, &mut closest, buf) {
                return Ok(b);
            }
        }
    }
    // Small groups that change how the operands print, every combination pinned in turn.
    let switches = m.switches();
    let total: usize = switches.iter().map(|&g| m.groups[g].bits.len()).sum();
    if total > 0 {
        for combo in 1u32..(1 << total) {
            let mut start = m.base;
            let mut k = 0;
            for &g in &switches {
                let n = m.groups[g].bits.len();
                model::set_value(&mut start, &m.groups[g].bits, combo >> k & ((1 << n) - 1));
                k += n;
            }
            if !matches!(render(dec, m.format, m.entry, &start, buf), Render::Text(..)) {
                continue;
            }
            let mut words = start;
            for _ in 0..2 {
                let again = m.relearn(dec, &words, buf);
                let s = again.solve_pinned(dec, stmt, &words, &switches, buf);
                if let Some(b) = check(&s, &mut closest, buf) {
                    return Ok(b);
                }
                words = s.words;
            }
        }
    }
    Err(closest)
}

/// Whether `printed` says what `input` says: the same pieces, apart from modifiers the input left
/// out that print at their defaults.
fn same_text(printed: &Stmt, input: &Stmt, trusted: &[Slot]) -> bool {
    input.atoms.iter().all(|x| trusted.contains(&x.slot) || printed.get(&x.slot).is_some_and(|y| model::atom_equal(&y.text, &x.text)))
        && printed.atoms.iter().all(|y| trusted.contains(&y.slot) || input.get(&y.slot).is_some() || model::DEFAULTS.contains(&y.text.as_str()))
}

fn agreement(input: &Stmt, printed: &Stmt) -> usize {
    input.atoms.iter().filter(|a| printed.get(&a.slot).map(|p| &p.text) == Some(&a.text)).count()
}

fn bytes_of(w: &Words, len: usize) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).take(len).collect()
}

/// llvm-mc reads a compressed export's sources in pairs: the first and third operands name the
/// two registers and enable both bits of their pair; the second and fourth are not read. (The
/// disassembly shows each enable bit on its own, so this text does not round-trip in LLVM either.)
fn exp_pairs_as_llvm(stmt: &Stmt, bytes: &mut [u8]) {
    if bytes.len() < 8 || !stmt.atoms.iter().any(|a| a.text == "compr") {
        return;
    }
    let on = |i: u8| stmt.get(&Slot::Pos(i)).is_some_and(|a| a.text != "off");
    let en = if on(1) { 3 } else { 0 } | if on(3) { 0xc } else { 0 };
    bytes[0] = (bytes[0] & 0xf0) | en;
    if en & 3 == 0 {
        bytes[4] = 0;
    }
    if en & 0xc == 0 {
        bytes[5] = 0;
    }
    bytes[6] = 0;
    bytes[7] = 0;
}

/// Sets bit `bit` of `bytes` where that changes neither validity nor text.
fn set_if_unseen(dec: &Decoder, f: Format, e: &'static OpEntry, bytes: &mut [u8], bit: u32) {
    let (i, m) = ((bit / 8) as usize, 1u8 << (bit % 8));
    if i >= bytes.len() || bytes[i] & m != 0 {
        return;
    }
    let mut w: Words = [0; model::WORDS];
    let mut tried = [0u8; 4 * model::WORDS];
    tried[..bytes.len()].copy_from_slice(bytes);
    let text = |t: &[u8; 4 * model::WORDS], w: &mut Words| {
        for (k, x) in w.iter_mut().enumerate() {
            *x = u32::from_le_bytes(t[4 * k..4 * k + 4].try_into().unwrap());
        }
        match render(dec, f, e, w, &mut String::new()) {
            Render::Text(s, len) => Some((s.render(), len)),
            _ => None,
        }
    };
    let before = text(&tried, &mut w);
    tried[i] |= m;
    if before.is_some() && text(&tried, &mut w) == before {
        bytes[i] |= m;
    }
}

/// What an operand takes, for error messages.
fn describe(op: &rdna_isa::Operand) -> String {
    let regs = |p: &str| if op.width > 1 { format!("{p}[N:N+{}]", op.width - 1) } else { format!("{p}N") };
    match op.class {
        Class::Vgpr => format!("a VGPR ({})", regs("v")),
        Class::Vgpr16 => "a 16-bit VGPR half (vN.l or vN.h)".into(),
        Class::Agpr => format!("an AGPR ({})", regs("a")),
        Class::Sgpr => format!("a scalar operand ({}, vcc, exec, m0, ttmp or a constant)", regs("s")),
        Class::Other => "an immediate".into(),
    }
}

/// Replaces label names in a branch's operand by the branch distance in dwords, printed as the
/// printer prints SOPP immediates (unsigned 16-bit). `sizing`: labels not yet defined count as 0.
fn replace_labels(text: &str, labels: &HashMap<String, usize>, at: usize, sizing: bool) -> String {
    let t = text.trim_start();
    let Some((mn, rest)) = t.split_once(char::is_whitespace) else { return text.to_string() };
    let op = rest.trim();
    let is_name = !op.is_empty()
        && op.chars().all(|c| c.is_ascii_alphanumeric() || "_.$".contains(c))
        && !op.starts_with(|c: char| c.is_ascii_digit() || c == '-');
    if !mn.to_ascii_lowercase().starts_with("s_") || !is_name || model::parse_int(op).is_some() {
        return text.to_string();
    }
    match labels.get(op) {
        Some(&target) => {
            let dist = (target as i64 - (at as i64 + 4)) / 4;
            format!("{mn} {}", dist as i16 as u16)
        }
        None if sizing => format!("{mn} 0"),
        None => format!("{mn} \u{0}"),
    }
}

/// An operand given as a value, for building instructions in code rather than text.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// `vN`, and `v[N:N+count-1]` for several registers.
    Vgpr(u32),
    Vgprs(u32, u32),
    Sgpr(u32),
    Sgprs(u32, u32),
    /// CDNA accumulation registers.
    Agpr(u32),
    Agprs(u32, u32),
    Vcc,
    VccLo,
    Exec,
    ExecLo,
    M0,
    Null,
    /// An absent address (`off`).
    Off,
    Int(i64),
    Float(f64),
    /// Anything else, written as LLVM writes it (`hwreg(HW_REG_MODE, 0, 1)`, `-|v1|`).
    Text(String),
}

impl std::fmt::Display for Operand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let range = |f: &mut std::fmt::Formatter<'_>, p: &str, first: u32, n: u32| {
            if n <= 1 {
                write!(f, "{p}{first}")
            } else {
                write!(f, "{p}[{first}:{}]", first + n - 1)
            }
        };
        match self {
            Operand::Vgpr(r) => write!(f, "v{r}"),
            Operand::Vgprs(r, n) => range(f, "v", *r, *n),
            Operand::Sgpr(r) => write!(f, "s{r}"),
            Operand::Sgprs(r, n) => range(f, "s", *r, *n),
            Operand::Agpr(r) => write!(f, "a{r}"),
            Operand::Agprs(r, n) => range(f, "a", *r, *n),
            Operand::Vcc => f.write_str("vcc"),
            Operand::VccLo => f.write_str("vcc_lo"),
            Operand::Exec => f.write_str("exec"),
            Operand::ExecLo => f.write_str("exec_lo"),
            Operand::M0 => f.write_str("m0"),
            Operand::Null => f.write_str("null"),
            Operand::Off => f.write_str("off"),
            Operand::Int(v) => write!(f, "{v}"),
            Operand::Float(v) if v.fract() == 0.0 && v.is_finite() => write!(f, "{v:.1}"),
            Operand::Float(v) => write!(f, "{v}"),
            Operand::Text(t) => f.write_str(t),
        }
    }
}

/// The text of an instruction built from values: `mnemonic op, op, ... modifier modifier`.
pub fn instruction_text(mnemonic: &str, operands: &[Operand], modifiers: &[&str]) -> String {
    let ops: Vec<String> = operands.iter().map(|o| o.to_string()).collect();
    let mut text = mnemonic.to_string();
    if !ops.is_empty() {
        text.push(' ');
        text.push_str(&ops.join(", "));
    }
    for m in modifiers {
        text.push(' ');
        text.push_str(m);
    }
    text
}

impl Assembler {
    /// Encodes an instruction given as values (see [`Operand`]).
    ///
    /// ```
    /// use rdna_asm::{Assembler, Operand::*};
    /// let mut asm = Assembler::new(rdna_isa::Target::from_name("gfx1030").unwrap());
    /// let b = asm.encode("v_add_f32", &[Vgpr(1), Float(0.5), Vgpr(3)], &[]).unwrap();
    /// assert_eq!(b, [0xf0, 0x06, 0x02, 0x06]);
    /// ```
    pub fn encode(&mut self, mnemonic: &str, operands: &[Operand], modifiers: &[&str]) -> Result<Vec<u8>, AsmError> {
        self.assemble_stmt(&instruction_text(mnemonic, operands, modifiers), 1)
    }
}

/// Assembles one instruction for a target named as `--mcpu` takes it (a test helper: see the
/// [`asm!`] macro).
pub fn assemble_one(mcpu: &str, text: &str) -> Result<Vec<u8>, AsmError> {
    let target = Target::from_name(mcpu).ok_or_else(|| AsmError { line: 1, col: 1, message: format!("unknown target '{mcpu}'") })?;
    Assembler::new(target).assemble_stmt(text, 1)
}

/// Assembles instruction text for a target, panicking with the error on failure: for tests.
///
/// ```
/// let b = rdna_asm::asm!("gfx1100", "s_mov_b32 s0, 1");
/// assert_eq!(b, [0x81, 0x00, 0x80, 0xbe]);
/// ```
#[macro_export]
macro_rules! asm {
    ($mcpu:expr, $text:expr) => {
        match $crate::assemble_one($mcpu, $text) {
            Ok(b) => b,
            Err(e) => panic!("asm!({}, {:?}): {}", $mcpu, $text, e),
        }
    };
}
