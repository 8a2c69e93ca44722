//! The printer, inverted: for one opcode, which bits carry which piece of text.
//!
//! A [`Model`] is learned from the decoder and printer alone, so the assembler accepts exactly
//! what the disassembler prints and needs no encoding tables of its own. Starting from a valid
//! encoding of the opcode (the format's fixed bits from [`rdna_disasm::aim`], other bits zero or,
//! where that is invalid, a minimized random encoding), each free bit is probed: bits that change
//! an operand field (read through [`Inst::field`]) form that operand's group; the others are
//! grouped by the text they change (`offset:`, `glc`, `dmask:`, a `-`/`|..|` around an operand).
//! Each group's values are then enumerated through the printer into a table from text to value
//! (or, for long numeric fields such as offsets, learned as a sum of per-bit contributions).
//! Assembling looks each piece of the input up in these tables and keeps a result only when
//! printing it gives the input back.

use std::collections::HashMap;

use rdna_disasm::aim::{aimed_for, Fill};
use rdna_disasm::{Decoder, Inst, PrintOptions};
use rdna_isa::{Format, Isa, OpEntry};

use crate::syntax::{self, Slot, Stmt};

/// Dwords of an encoding under construction: up to five of instruction, then room for a literal.
pub const WORDS: usize = 6;
pub type Words = [u32; WORDS];

/// Modifiers LLVM always prints but lets one leave out, at their default values.
pub const DEFAULTS: [&str; 3] = ["quad_perm:[0,1,2,3]", "row_mask:0xf", "bank_mask:0xf"];

/// Groups wider than this are enumerated only when they are not plain numbers.
const ENUMERATE_BITS: usize = 13;
/// The widest group enumerated at all (a 16-bit SOPP/SOPK immediate).
const ENUMERATE_MAX: usize = 16;

/// What printing an encoding gave.
pub enum Render {
    /// The opcode's own text, and the encoding's length in bytes.
    Text(Stmt, usize),
    /// A valid encoding of some other instruction or format.
    Other,
    Invalid,
}

pub fn render(dec: &Decoder, format: Format, entry: &OpEntry, w: &Words, buf: &mut String) -> Render {
    let mut bytes = [0u8; 4 * WORDS];
    for (i, x) in w.iter().enumerate() {
        bytes[4 * i..4 * i + 4].copy_from_slice(&x.to_le_bytes());
    }
    let (inst, len) = match dec.decode(&bytes) {
        Ok(x) => x,
        Err(_) => return Render::Invalid,
    };
    if inst.format != format || !std::ptr::eq(inst.entry, entry) {
        return Render::Other;
    }
    buf.clear();
    if rdna_disasm::print(&inst, PrintOptions::default(), buf).is_err() {
        return Render::Invalid;
    }
    let clean = syntax::strip_block_comments(buf);
    match syntax::split(&clean, 0) {
        Some(s) => Render::Text(s, len),
        None => Render::Invalid,
    }
}

fn get_bit(w: &Words, b: u16) -> bool {
    w[b as usize / 32] >> (b % 32) & 1 != 0
}

fn flip(w: &mut Words, b: u16) {
    w[b as usize / 32] ^= 1 << (b % 32);
}

pub fn set_value(w: &mut Words, bits: &[u16], v: u32) {
    for (k, &b) in bits.iter().enumerate() {
        if get_bit(w, b) != (v >> k & 1 != 0) {
            flip(w, b);
        }
    }
}

pub fn get_value(w: &Words, bits: &[u16]) -> u32 {
    bits.iter().enumerate().map(|(k, &b)| (get_bit(w, b) as u32) << k).sum()
}

/// What flipping one bit of a valid encoding does.
enum Probe {
    /// The text changes in these slots; `wrap`: only one operand changes, and its old text is
    /// still inside the new one (`v1` → `-v1`).
    Changes(Vec<Slot>, bool),
    /// The encoding becomes invalid.
    Invalid,
    /// Nothing visible, or the encoding becomes another instruction.
    Nothing,
}

fn probe_bit(dec: &Decoder, format: Format, entry: &OpEntry, ctx: &Words, ctx_stmt: &Stmt, b: u16, buf: &mut String) -> Probe {
    let mut w = *ctx;
    flip(&mut w, b);
    match render(dec, format, entry, &w, buf) {
        Render::Text(s, _) => {
            let changed = changed_slots(ctx_stmt, &s);
            if changed.is_empty() {
                return Probe::Nothing;
            }
            let wrap = match changed.as_slice() {
                [slot @ Slot::Pos(_)] => match (ctx_stmt.get(slot), s.get(slot)) {
                    (Some(a), Some(b)) => b.text.split_once(a.text.as_str()).is_some_and(|(pre, suf)| {
                        // Something other than more digits around it: `-v1`, `|v1|`, not `v17`.
                        (pre.to_string() + suf).chars().any(|c| !c.is_ascii_alphanumeric())
                    }),
                    _ => false,
                },
                _ => false,
            };
            Probe::Changes(changed, wrap)
        }
        // Another instruction counts as invalid here: together with other bits it may be valid.
        Render::Invalid | Render::Other => Probe::Invalid,
    }
}

/// What a group of bits is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The field of operand `index` (in the entry's print order).
    Operand { index: usize },
    /// A modifier printed on its own (`offset:16`, `glc`, `op_sel:[0,1]`).
    Modifier,
    /// A modifier printed around or on one operand's text (`-v1`, `|v1|`, `sext(v1)`, `v1.h`):
    /// the operand group it decorates.
    Decoration { of: usize },
}

/// How a decoration changes its operand's text, learned on the base encoding.
#[derive(Clone, Debug)]
enum Wrap {
    Around { pre: String, suf: String },
    Suffix { old: String, new: String },
}

impl Wrap {
    fn learn(plain: &str, decorated: &str) -> Option<Wrap> {
        if plain == decorated {
            return None;
        }
        if let Some(i) = decorated.find(plain) {
            return Some(Wrap::Around { pre: decorated[..i].into(), suf: decorated[i + plain.len()..].into() });
        }
        let mut lcp = plain.bytes().zip(decorated.bytes()).take_while(|(a, b)| a == b).count();
        while lcp > 0 && plain.as_bytes()[lcp - 1].is_ascii_digit() {
            lcp -= 1;
        }
        (lcp > 0).then(|| Wrap::Suffix { old: plain[lcp..].into(), new: decorated[lcp..].into() })
    }

    /// The operand text inside `text`, where `text` has this decoration.
    fn strip(&self, text: &str) -> Option<String> {
        match self {
            Wrap::Around { pre, suf } => {
                let inner = text.strip_prefix(pre.as_str())?.strip_suffix(suf.as_str())?;
                (!inner.is_empty()).then(|| inner.to_string())
            }
            Wrap::Suffix { old, new } => Some(format!("{}{}", text.strip_suffix(new.as_str())?, old)),
        }
    }
}

/// A set of bits that together carry one piece of text.
#[derive(Clone, Debug)]
pub struct Group {
    /// Bit positions in [`Words`], value bit k at `bits[k]`.
    pub bits: Vec<u16>,
    pub kind: Kind,
    /// The slots whose text depends on this group.
    pub slots: Vec<Slot>,
    /// The text of those slots (absent slots omitted) → the smallest value that prints it.
    table: HashMap<Vec<(Slot, String)>, u32>,
    /// Values that make the instruction read a literal dword.
    literal_values: Vec<u32>,
    /// Per-bit contributions of a numeric field too wide to enumerate, and the text before the number.
    linear: Option<(Vec<i64>, Slot, String)>,
    /// For one element of a list (`dpp8:[7,6,5,4,3,2,1,0]`): the slot and the element's index;
    /// the table is then keyed by the element's text alone.
    elem: Option<(Slot, usize)>,
    /// Values that move other pieces of the text (SMEM's null offset register, after which the
    /// offset prints as an operand): worth a second try when the text is not found as it is.
    pub structural: Vec<u32>,
    /// The encoding the group's table is learned over, where that is not the base (a field that
    /// shows only with other flags on).
    ctx: Option<Words>,
    /// The slot most of the group's values change (an operand's own text).
    primary: Option<Slot>,
}

/// What [`Model::solve`] found.
pub struct Solved {
    pub words: Words,
    /// Groups whose piece of the input was not in their table.
    pub missing: Vec<usize>,
    /// Slots set from a plain number the printer writes another way: not compared.
    pub trusted: Vec<Slot>,
}

/// One opcode's learned encoder.
pub struct Model {
    pub format: Format,
    pub entry: &'static OpEntry,
    pub base: Words,
    /// Dwords of the encoding without a literal.
    pub nwords: usize,
    pub base_stmt: Stmt,
    pub groups: Vec<Group>,
    /// For each operand group, its decoration groups and, per combination of their values
    /// (index = combination, bit i = the i-th decoration's value 1), how the text changes.
    wraps: HashMap<usize, (Vec<usize>, Vec<Vec<Wrap>>)>,
}

struct Rng(u64);
impl Rng {
    fn u32(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        (x.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as u32
    }
}

fn words_of(w5: [u32; 5]) -> Words {
    let mut w = [0; WORDS];
    w[..5].copy_from_slice(&w5);
    w
}

fn project(stmt: &Stmt, slots: &[Slot]) -> Vec<(Slot, String)> {
    slots.iter().filter_map(|s| stmt.get(s).map(|a| (s.clone(), a.text.clone()))).collect()
}

/// Parses a number as the printer writes them (decimal or 0x-hex, optionally negative).
pub fn parse_int(t: &str) -> Option<i64> {
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t),
    };
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()?
    } else {
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        t.parse::<i64>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// Whether the printer's text `printed` says what the input's `written` says: the same text, or
/// the same number written another way (`offset:0x10` for `offset:16`, `1.5` for the literal
/// `0x3fc00000`).
pub fn atom_equal(printed: &str, written: &str) -> bool {
    if printed == written {
        return true;
    }
    if let (Some(p), Some(w)) = (hwreg_parts(printed), hwreg_parts(written)) {
        return p == w;
    }
    if let (Ok(p), Ok(w)) = (printed.parse::<f64>(), written.parse::<f64>()) {
        // An inline float constant written another way (`1e0` for `1.0`).
        return p == w && printed.contains('.');
    }
    let (Some((pp, pn)), Some((wp, wn))) = (numeric(printed), split_number(written)) else { return false };
    if pp != wp {
        return false;
    }
    match wn {
        Number::Int(n) => n == pn || (n as u32 as i64 == pn && pn >= 0 && n < 0),
        Number::Float(f) => {
            let p = pn as u32;
            [(f as f32).to_bits(), (f.to_bits() >> 32) as u32, half_bits(f as f32) as u32].contains(&p)
        }
    }
}

/// `hwreg(NAME)`, `hwreg(NAME, OFFSET, SIZE)`: the register and the bit range, offset 0 and size
/// 32 where left out.
fn hwreg_parts(t: &str) -> Option<(String, i64, i64)> {
    let inner = t.strip_prefix("hwreg(")?.strip_suffix(')')?;
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    match parts.as_slice() {
        [name] => Some((name.to_string(), 0, 32)),
        [name, off, size] => Some((name.to_string(), parse_int(off)?, parse_int(size)?)),
        _ => None,
    }
}

enum Number {
    Int(i64),
    Float(f64),
}

/// `prefix:number` or a bare number, the number an integer or a float.
fn split_number(text: &str) -> Option<(String, Number)> {
    let i = text.find(':').map(|i| i + 1).unwrap_or(0);
    let t = &text[i..];
    let n = match parse_int(t) {
        Some(n) => Number::Int(n),
        None if t.contains('.') || t.contains('e') => Number::Float(t.parse::<f64>().ok()?),
        None => return None,
    };
    Some((text[..i].to_string(), n))
}

/// Splits `offset:16` into (`offset:`, 16), or a bare number into ("", n).
fn numeric(text: &str) -> Option<(String, i64)> {
    let i = text.find(':').map(|i| i + 1).unwrap_or(0);
    Some((text[..i].to_string(), parse_int(&text[i..])?))
}

/// The bits of `format`'s encodings (opcode `op`, `isa`'s layout) that a caller's fill reaches:
/// every bit but the format's identifying pattern and the opcode.
pub fn free_bits(isa: Isa, format: Format, op: u32) -> Words {
    let zero = words_of(aimed_for(isa, format, op, Fill { words: [0; 5], choices: 0 }));
    // A fill of ones can hide some free bits (gfx7 clears the fields of disabled export sources,
    // and all ones sets compr): more fills, each with one bit of the first dword cleared, and two
    // alternating patterns.
    let mut free = [0u32; WORDS];
    let mut fills = vec![[!0u32; 5], [0xaaaa_aaaa; 5], [0x5555_5555; 5]];
    for k in 0..32 {
        let mut f = [!0u32; 5];
        f[0] &= !(1 << k);
        fills.push(f);
    }
    for f in fills {
        let w = words_of(aimed_for(isa, format, op, Fill { words: f, choices: 0 }));
        for i in 0..5 {
            free[i] |= zero[i] ^ w[i];
        }
    }
    free
}

impl Model {
    /// Learns the model of `entry` (format `format`, from `isa`'s tables) for `dec`'s target, or
    /// None where no valid encoding of it was found.
    pub fn learn(dec: &Decoder, isa: Isa, format: Format, entry: &'static OpEntry) -> Option<Model> {
        let op = entry.op as u32;
        let mut buf = String::new();
        let zero = words_of(aimed_for(isa, format, op, Fill { words: [0; 5], choices: 0 }));
        let free = free_bits(isa, format, op);
        let base = Self::find_base(dec, format, entry, zero, &free, &mut buf)?;
        let Render::Text(_, base_len) = render(dec, format, entry, &base, &mut buf) else { return None };
        let base_inst = decode_words(dec, &base)?;
        let nwords = (base_len - 4 * base_inst.literal.is_some() as usize) / 4;

        // Operand fields first, where the decoder reads them (`Inst::field_span`).
        let mut operand_bits: Vec<Vec<u16>> = vec![Vec::new(); entry.operands.len()];
        let mut owned = vec![false; WORDS * 32];
        let limit = (nwords.min(5) * 32).min(96);
        for (j, o) in entry.operands.iter().enumerate() {
            let (lo, width) = base_inst.field_span(o.field);
            for b in lo as usize..(lo as usize + width as usize).min(limit) {
                if free[b / 32] >> (b % 32) & 1 != 0 && !owned[b] {
                    owned[b] = true;
                    operand_bits[j].push(b as u16);
                }
            }
        }
        let others: Vec<u16> = (0..(nwords.min(5) * 32) as u16)
            .filter(|&b| free[b as usize / 32] >> (b % 32) & 1 != 0 && !owned[b as usize])
            .collect();
        // Modifiers are probed over VGPR sources where a source can be one: `|s0|` may print
        // differently from `|v0|`, and an accumulator bit shows only on a VGPR.
        let mut base = base;
        for bits in operand_bits.iter().filter(|b| b.len() == 9) {
            let mut w = base;
            set_value(&mut w, bits, 256);
            if matches!(render(dec, format, entry, &w, &mut buf), Render::Text(..)) {
                base = w;
            }
        }
        let Render::Text(base_stmt, _) = render(dec, format, entry, &base, &mut buf) else { return None };
        // Then what the other bits change in the text.
        let mut probes: Vec<(u16, Probe)> = Vec::new();
        for b in others {
            probes.push((b, probe_bit(dec, format, entry, &base, &base_stmt, b, &mut buf)));
        }
        // A bit that changes nothing right below one that does is the field's low bit (a
        // register pair's, ignored on its own): it goes with the field.
        for i in 0..probes.len().saturating_sub(2) {
            let (b, n1, n2) = (probes[i].0, probes[i + 1].0, probes[i + 2].0);
            if matches!(probes[i].1, Probe::Nothing) && n1 == b + 1 && n2 == b + 2 && n1 % 32 != 0 && n2 % 32 != 0 {
                // ... a field of several bits, not a flag beside it.
                if let (Probe::Changes(s1, false), Probe::Changes(s2, false)) = (&probes[i + 1].1, &probes[i + 2].1) {
                    if s1.iter().any(|x| s2.contains(x)) {
                        probes[i].1 = Probe::Invalid;
                    }
                }
            }
        }
        // Bits that change nothing may matter once other modifiers are on (a returning atomic's
        // destination shows only with glc): probe them again with every flag that stays valid set.
        let mut rich = base;
        let mut rich_found: Vec<u16> = Vec::new();
        for _round in 0..3 {
        let before = rich;
        for (b, p) in &probes {
            if let Probe::Changes(slots, wrap) = p {
                // Flags that add a modifier, and bits that switch what an operand names (SDWA's
                // VOPC destination: vcc, or the SDST field).
                let adds_key = slots.iter().any(|s| matches!(s, Slot::Key(..)) && base_stmt.get(s).is_none());
                let selects = !wrap && matches!(slots.as_slice(), [Slot::Pos(_)]);
                if (adds_key || selects) && !get_bit(&rich, *b) {
                    let mut t = rich;
                    flip(&mut t, *b);
                    if matches!(render(dec, format, entry, &t, &mut buf), Render::Text(..)) {
                        rich = t;
                    }
                }
            }
        }
        if std::env::var_os("RDNA_ASM_DEBUG").is_some() {
            eprintln!("rich {rich:08x?} (before {before:08x?})");
            for (b, p) in &probes {
                eprintln!("  bit {b}: {}", match p { Probe::Changes(s, w) => format!("{s:?} {w}"), Probe::Invalid => "invalid".into(), Probe::Nothing => "nothing".into() });
            }
        }
        if rich == before {
            break;
        }
        if let Render::Text(rich_stmt, _) = render(dec, format, entry, &rich, &mut buf) {
            for (b, p) in probes.iter_mut() {
                if matches!(p, Probe::Nothing) {
                    *p = probe_bit(dec, format, entry, &rich, &rich_stmt, *b, &mut buf);
                    if !matches!(p, Probe::Nothing) {
                        rich_found.push(*b);
                    }
                }
            }
        }
        }

        let mut groups = Vec::new();
        for (index, bits) in operand_bits.into_iter().enumerate() {
            if !bits.is_empty() {
                groups.push(Group::new(bits, Kind::Operand { index }));
            }
        }
        // Adjacent modifier bits that change a common slot form one group; bits that are invalid
        // alone join an adjacent group.
        let mut mods: Vec<(Vec<u16>, Vec<Slot>, bool)> = Vec::new();
        let mut fragile: Vec<u16> = Vec::new();
        let mut leftover: Vec<Vec<u16>> = Vec::new();
        for (b, p) in probes {
            let adjacent = |bits: &Vec<u16>| *bits.last().unwrap() + 1 == b && b % 32 != 0;
            match p {
                Probe::Changes(slots, wrap) => {
                    // Bits that put something around an operand (`-`, `|..|`) stay single: each is
                    // one decoration.
                    // Bits seen only over the flags-on encoding stay apart from those seen over
                    // the base: their slots are numbered over different texts.
                    let same_origin = |bits: &Vec<u16>| rich_found.contains(&bits[bits.len() - 1]) == rich_found.contains(&b);
                    let joins = !wrap
                        && mods.last().is_some_and(|(bits, cs, last_wrap)| {
                            !last_wrap && adjacent(bits) && same_origin(bits) && slots.iter().any(|x| cs.contains(x)) && bits.len() < 32
                        });
                    if joins {
                        let (bits, cs, _) = mods.last_mut().unwrap();
                        bits.push(b);
                        for x in slots {
                            if !cs.contains(&x) {
                                cs.push(x);
                            }
                        }
                    } else {
                        // Invalid-alone bits just below join this group (not a decoration's).
                        let mut bits: Vec<u16> = Vec::new();
                        // (one or two: a longer run is unused fields that must stay zero).
                        if !wrap && fragile.len() <= 2 && fragile.last().is_some_and(|&f| f + 1 == b && b % 32 != 0) {
                            bits.extend(fragile.drain(..));
                        }
                        bits.push(b);
                        mods.push((bits, slots, wrap));
                    }
                }
                Probe::Invalid => {
                    if mods.last().is_some_and(|(bits, cs, wrap)| {
                        !wrap && adjacent(bits) && bits.len() < 12 && (bits.len() > 1 || cs.iter().any(|s| matches!(s, Slot::Key(..))))
                    }) {
                        mods.last_mut().unwrap().0.push(b);
                    } else {
                        if fragile.last().is_some_and(|&f| f + 1 != b || b % 32 == 0) {
                            leftover.push(std::mem::take(&mut fragile));
                        }
                        fragile.push(b);
                    }
                }
                Probe::Nothing => {}
            }
        }
        // Runs of bits that are invalid alone may be valid together (DPP8's src0 0xE9 and 0xEA):
        // small ones get a group of their own, kept if it prints anything.
        leftover.push(fragile);
        for run in leftover {
            if (2..=4).contains(&run.len()) {
                mods.push((run, Vec::new(), false));
            }
        }
        // Groups apart in the encoding that print in one modifier (VOP3P's op_sel_hi: two bits in
        // the second dword, one in the first) are enumerated together.
        let mut i = 0;
        while i < mods.len() {
            let mut j = i + 1;
            while j < mods.len() {
                let shares = mods[j].1.iter().any(|s| matches!(s, Slot::Key(..)) && mods[i].1.contains(s));
                if shares && mods[i].0.len() + mods[j].0.len() <= 12 {
                    let (bits, slots, _) = mods.remove(j);
                    mods[i].0.extend(bits);
                    for x in slots {
                        if !mods[i].1.contains(&x) {
                            mods[i].1.push(x);
                        }
                    }
                } else {
                    j += 1;
                }
            }
            i += 1;
        }
        // A literal the instruction always has (v_fmaak_f32's K, s_setreg_imm32_b32's value) is
        // a 32-bit group of its own.
        if base_inst.literal.is_some() {
            mods.push(((nwords as u16 * 32..nwords as u16 * 32 + 32).collect(), Vec::new(), false));
        }
        // A modifier group right above an operand field that prints in the same place is the
        // field's upper bits (a 21-bit offset read as 16 bits).
        let mut model = Model { format, entry, base, nwords, base_stmt, groups, wraps: HashMap::new() };
        let dec = *dec;
        for g in 0..model.groups.len() {
            model.enumerate(&dec, g, &base, &mut buf);
        }
        for (bits, slots, wrap) in mods {
            if std::env::var_os("RDNA_ASM_DEBUG").is_some() {
                eprintln!("mod group {bits:?} {slots:?} wrap {wrap}");
            }
            let below = model.groups.iter().position(|g| {
                matches!(g.kind, Kind::Operand { .. })
                    && *g.bits.last().unwrap() + 1 == bits[0]
                    && g.slots.iter().any(|s| {
                        // A number's upper bits (an image's next address is not).
                        let numeric_text = model.base_stmt.get(s).is_some_and(|a| numeric(&a.text).is_some());
                        (matches!(s, Slot::Key(..)) || numeric_text) && slots.contains(s)
                    })
                    && g.bits.len() + bits.len() <= 32
            });
            // A bit that changes only an operand's text, not around it, selects what the field
            // names (SDWA's `s` bit: the 8-bit field is then an SGPR): part of the operand.
            let simple = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            let selects = || {
                let [Slot::Pos(p)] = slots.as_slice() else { return None };
                // Both texts plain register names (not `v[0:1]` becoming `[v0, v0]`).
                let mut w = base;
                flip(&mut w, bits[0]);
                let Render::Text(after, _) = render(&dec, format, entry, &w, &mut String::new()) else { return None };
                let before_t = model.base_stmt.get(&Slot::Pos(*p)).map(|a| a.text.as_str()).unwrap_or("");
                let after_t = after.get(&Slot::Pos(*p)).map(|a| a.text.as_str()).unwrap_or("");
                (!wrap && bits.len() == 1 && simple(before_t) && simple(after_t))
                    .then(|| {
                        model.groups.iter().position(|g| {
                            matches!(g.kind, Kind::Operand { .. }) && g.slots.contains(&Slot::Pos(*p)) && g.bits.len() + bits.len() <= 12
                        })
                    })
                    .flatten()
            };
            let below = below.or_else(selects);
            match below {
                Some(g) => {
                    model.groups[g].bits.extend(bits);
                    model.groups[g].table.clear();
                    model.groups[g].literal_values.clear();
                }
                None => {
                    // Found only with other flags on: its table is learned there too.
                    let ctx = bits.iter().any(|b| rich_found.contains(b)).then_some(rich);
                    let mut g = Group::new(bits, Kind::Modifier);
                    g.ctx = ctx;
                    model.groups.push(g);
                }
            }
        }
        // Modifiers first, so that the operands see which groups are numeric.
        let order: Vec<usize> = (0..model.groups.len())
            .filter(|&g| model.groups[g].kind == Kind::Modifier)
            .chain((0..model.groups.len()).filter(|&g| model.groups[g].kind != Kind::Modifier))
            .collect();
        for g in order {
            let gr = &model.groups[g];
            if gr.kind == Kind::Modifier || (gr.table.is_empty() && gr.linear.is_none()) {
                let ctx = gr.ctx.unwrap_or(base);
                model.enumerate(&dec, g, &ctx, &mut buf);
            }
        }
        model.split_lists(&dec, &mut buf);
        model.find_structural(&dec, &mut buf);
        model.find_decorations(&dec, &mut buf);
        Some(model)
    }

    /// A valid encoding of the opcode with as few bits set as possible.
    fn find_base(dec: &Decoder, format: Format, entry: &'static OpEntry, zero: Words, free: &Words, buf: &mut String) -> Option<Words> {
        if matches!(render(dec, format, entry, &zero, buf), Render::Text(..)) {
            return Some(zero);
        }
        let isa_seed = (format as u64) << 20 | entry.op as u64;
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ isa_seed.wrapping_mul(0x100_0000_01b3));
        for attempt in 0..4000 {
            let mut w = zero;
            for i in 0..5 {
                // Sparse fills first: they minimize faster.
                let r = if attempt < 2000 { rng.u32() & rng.u32() & rng.u32() } else { rng.u32() };
                w[i] |= r & free[i];
            }
            if !matches!(render(dec, format, entry, &w, buf), Render::Text(..)) {
                continue;
            }
            // Clear what can be cleared.
            for b in (0..(5 * 32) as u16).rev() {
                if get_bit(&w, b) && free[b as usize / 32] >> (b % 32) & 1 != 0 {
                    let mut t = w;
                    flip(&mut t, b);
                    if matches!(render(dec, format, entry, &t, buf), Render::Text(..)) {
                        w = t;
                    }
                }
            }
            return Some(w);
        }
        None
    }

    /// Fills group `g`'s table by printing its values over `ctx`.
    fn enumerate(&mut self, dec: &Decoder, g: usize, ctx: &Words, buf: &mut String) {
        let (format, entry) = (self.format, self.entry);
        let Render::Text(ctx_stmt, ctx_len) = render(dec, format, entry, ctx, buf) else { return };
        let group = &mut self.groups[g];
        let n = group.bits.len();
        let lit_index = self.nwords;
        if n > ENUMERATE_BITS && get_value(ctx, &group.bits) == 0 {
            // Try the per-bit sum: one slot, a number that grows by each bit's contribution.
            let mut contrib = Vec::with_capacity(n);
            let mut slot_prefix: Option<(Slot, String)> = None;
            for k in 0..n {
                let mut w = *ctx;
                set_value(&mut w, &group.bits, 1 << k);
                let Render::Text(s, _) = render(dec, format, entry, &w, buf) else { break };
                let ch = changed_slots(&ctx_stmt, &s);
                if ch.is_empty() {
                    contrib.push(0); // an ignored bit (the upper half of a 16-bit literal)
                    continue;
                }
                // One slot, or several showing the same number (VOPD's shared literal).
                let slot = &ch[0];
                let Some((prefix, num)) = s.get(slot).and_then(|a| numeric(&a.text)) else { break };
                if ch[1..].iter().any(|x| s.get(x).map(|a| &a.text) != s.get(slot).map(|a| &a.text)) {
                    break;
                }
                let base_num = ctx_stmt.get(slot).and_then(|a| numeric(&a.text)).map(|x| x.1).unwrap_or(0);
                if slot_prefix.get_or_insert_with(|| (slot.clone(), prefix.clone())) != &(slot.clone(), prefix) {
                    break;
                }
                contrib.push(num - base_num);
            }
            if contrib.len() == n && slot_prefix.is_some() {
                let (slot, prefix) = slot_prefix.unwrap();
                group.slots = vec![slot.clone()];
                group.linear = Some((contrib, slot, prefix));
                return;
            }
        }
        // Too wide to enumerate and not a number here (gfx9 SMEM's offset field naming an SGPR
        // while the imm bit is clear): the register-sized low values.
        let count = if n > ENUMERATE_MAX {
            if !matches!(group.kind, Kind::Operand { .. }) {
                return;
            }
            1u32 << 9
        } else {
            1u32 << n
        };
        let mut seen: Vec<(u32, Stmt)> = Vec::with_capacity(count as usize);
        let mut slots: Vec<Slot> = Vec::new();
        let mut counts: Vec<usize> = Vec::new();
        for v in 0..count {
            let mut w = *ctx;
            set_value(&mut w, &group.bits, v);
            if let Render::Text(s, len) = render(dec, format, entry, &w, buf) {
                if len > ctx_len && len == 4 * (lit_index + 1) && matches!(group.kind, Kind::Operand { .. }) {
                    group.literal_values.push(v);
                }
                for x in changed_slots(&ctx_stmt, &s) {
                    match slots.iter().position(|y| *y == x) {
                        Some(i) => counts[i] += 1,
                        None => {
                            slots.push(x);
                            counts.push(1);
                        }
                    }
                }
                seen.push((v, s));
            }
        }
        // An operand is keyed by where it prints (a few of its values may disturb other
        // operands, such as an image's data registers running past v255).
        group.primary = (0..slots.len()).max_by_key(|&i| counts[i]).map(|i| slots[i].clone());
        let keyed = slots.iter().any(|s| matches!(s, Slot::Key(..) | Slot::Mnemonic));
        if (matches!(group.kind, Kind::Operand { .. }) || !keyed) && slots.len() > 1 {
            let most = counts.iter().copied().max().unwrap_or(0);
            let keep: Vec<Slot> = (0..slots.len())
                .filter(|&i| matches!(slots[i], Slot::Key(..)) || counts[i] * 4 >= most)
                .map(|i| slots[i].clone())
                .collect();
            slots = keep;
        }
        // An operand printed as one element of a list (`[v1, v2, v3]`, an image's NSA addresses)
        // is keyed by that element.
        if let (Kind::Operand { .. }, [slot @ Slot::Pos(_)], None) = (&group.kind, slots.as_slice(), &group.elem) {
            let base_text = ctx_stmt.get(slot).map(|a| a.text.clone()).unwrap_or_default();
            if base_text.starts_with('[') {
                let mut idx: Option<usize> = None;
                let mut one = true;
                for (_, s) in &seen {
                    let t = s.get(slot).map(|a| a.text.as_str()).unwrap_or("");
                    for i in (0..64).filter(|&i| list_elem_any(t, i) != list_elem_any(&base_text, i)) {
                        if *idx.get_or_insert(i) != i {
                            one = false;
                        }
                    }
                }
                if let (true, Some(i)) = (one, idx) {
                    group.elem = Some((slot.clone(), i));
                }
            }
        }
        group.slots = slots;
        group.table.clear();
        for (v, s) in &seen {
            let k = group.key(s);
            // Where a literal can be had, llvm-mc reads hex text as one: an inline float
            // constant printed as its 16-bit pattern (0x3800 for 0.5) is not what it picks.
            // Literal values are reached through the literal's text, not the table.
            if group.literal_values.contains(v) {
                continue;
            }
            let inline = (128..=254).contains(&(*v & 0x1ff));
            if inline && !group.literal_values.is_empty() && !group.literal_values.contains(v) && k.iter().any(|(_, t)| t.starts_with("0x")) {
                continue;
            }
            group.table.entry(k).or_insert(*v);
        }
    }

    /// Splits groups too wide to enumerate whose text is a list (`dpp8:[...]`) into one group
    /// per element.
    fn split_lists(&mut self, dec: &Decoder, buf: &mut String) {
        let Render::Text(base_stmt, _) = render(dec, self.format, self.entry, &self.base, buf) else { return };
        let mut g = 0;
        while g < self.groups.len() {
            let gr = &self.groups[g];
            let wide = gr.bits.len() > ENUMERATE_MAX && gr.linear.is_none() && gr.table.is_empty();
            // An operand field printed across several elements of a list (gfx12 image addresses).
            let listed = gr.elem.is_none()
                && matches!(gr.kind, Kind::Operand { .. })
                && gr.slots.iter().any(|s| base_stmt.get(s).is_some_and(|a| a.text.starts_with('[')));
            if !wide && !listed {
                g += 1;
                continue;
            }
            let mut per_elem: Vec<(Slot, usize, Vec<u16>)> = Vec::new();
            let mut ok = true;
            for &b in &gr.bits {
                let mut w = self.base;
                flip(&mut w, b);
                let Render::Text(s, _) = render(dec, self.format, self.entry, &w, buf) else { ok = false; break };
                let ch = changed_slots(&base_stmt, &s);
                let [slot] = ch.as_slice() else { ok = false; break };
                let (Some(a), Some(x)) = (base_stmt.get(slot), s.get(slot)) else { ok = false; break };
                let idx = (0..64).find(|&i| list_elem(&a.text, i) != list_elem(&x.text, i));
                let Some(i) = idx.filter(|&i| list_elem(&a.text, i).is_some()) else { ok = false; break };
                match per_elem.iter_mut().find(|(s2, i2, _)| s2 == slot && *i2 == i) {
                    Some(e) => e.2.push(b),
                    None => per_elem.push((slot.clone(), i, vec![b])),
                }
            }
            if !ok || per_elem.iter().any(|e| e.2.len() > 8) {
                g += 1;
                continue;
            }
            let kind = gr.kind.clone();
            self.groups.remove(g);
            for (slot, i, bits) in per_elem {
                let mut ng = Group::new(bits, kind.clone());
                ng.elem = Some((slot, i));
                self.groups.push(ng);
                let last = self.groups.len() - 1;
                let base = self.base;
                self.enumerate(dec, last, &base, buf);
            }
        }
    }

    /// Finds the operand values that move other text, seen over an encoding whose numeric
    /// modifiers are non-zero (so that an offset has something to print).
    fn find_structural(&mut self, dec: &Decoder, buf: &mut String) {
        let mut ctx = self.base;
        for g in &self.groups {
            if g.linear.is_some() {
                set_value(&mut ctx, &g.bits, 1);
            }
        }
        if ctx == self.base {
            return;
        }
        let Render::Text(ctx_stmt, _) = render(dec, self.format, self.entry, &ctx, buf) else { return };
        let keys = |s: &Stmt| -> Vec<Slot> { s.atoms.iter().filter(|a| matches!(a.slot, Slot::Key(..))).map(|a| a.slot.clone()).collect() };
        let ctx_keys = keys(&ctx_stmt);
        for g in 0..self.groups.len() {
            if !matches!(self.groups[g].kind, Kind::Operand { .. }) || self.groups[g].bits.len() > 10 {
                continue;
            }
            let mut found = Vec::new();
            for v in 0..(1u32 << self.groups[g].bits.len()) {
                let mut w = ctx;
                set_value(&mut w, &self.groups[g].bits, v);
                if let Render::Text(s, _) = render(dec, self.format, self.entry, &w, buf) {
                    if keys(&s) != ctx_keys {
                        found.push(v);
                    }
                }
            }
            if found.len() <= 4 {
                self.groups[g].structural = found;
            }
        }
    }

    /// Marks modifier groups that only change one operand's text around it (`-v1`, `|v1|`,
    /// `sext(v1)`, `v1.h`) as that operand's decorations and learns how they change it.
    fn find_decorations(&mut self, dec: &Decoder, buf: &mut String) {
        for o in 0..self.groups.len() {
            if !matches!(self.groups[o].kind, Kind::Operand { .. }) {
                continue;
            }
            let Some(p) = self.groups[o].slots.iter().find_map(|s| if let Slot::Pos(p) = s { Some(*p) } else { None }) else { continue };
            let decos: Vec<usize> = (0..self.groups.len())
                .filter(|&d| {
                    let gd = &self.groups[d];
                    gd.kind == Kind::Modifier && gd.bits.len() <= 2 && gd.slots == [Slot::Pos(p)]
                })
                .take(4)
                .collect();
            if decos.is_empty() {
                continue;
            }
            let mut decos = decos;
            let mut wraps = self.learn_wraps(dec, o, &decos, p, buf);
            // A group is a decoration only where its own change is a wrap.
            let keep: Vec<usize> = (0..decos.len()).filter(|&i| !wraps[1 << i].is_empty()).map(|i| decos[i]).collect();
            if keep.len() != decos.len() {
                if keep.is_empty() {
                    continue;
                }
                decos = keep;
                wraps = self.learn_wraps(dec, o, &decos, p, buf);
            }
            for &d in &decos {
                self.groups[d].kind = Kind::Decoration { of: o };
            }
            self.wraps.insert(o, (decos, wraps));
        }
    }

    /// The keys of every modifier this opcode can print (`offset`, `glc`, `dmask`, ...).
    pub fn modifier_keys(&self) -> Vec<String> {
        let mut keys: Vec<String> = Vec::new();
        for slot in self.groups.iter().flat_map(|g| g.slots.iter()).chain(self.base_stmt.atoms.iter().map(|a| &a.slot)) {
            if let Slot::Key(k, _) = slot {
                if !keys.contains(k) {
                    keys.push(k.clone());
                }
            }
        }
        keys
    }

    /// Small modifier groups that change how operands print (gfx9 SMEM's soe and imm bits): when
    /// solving one group at a time goes round in circles, their combinations are tried in turn.
    pub fn switches(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let mut bits = 0;
        for (gi, g) in self.groups.iter().enumerate() {
            if g.kind == Kind::Modifier && g.bits.len() <= 2 && g.slots.iter().any(|s| matches!(s, Slot::Pos(_))) && bits + g.bits.len() <= 4 {
                bits += g.bits.len();
                out.push(gi);
            }
        }
        out
    }

    /// How each combination of the decoration groups `decos` changes operand `p`'s text; each
    /// group counts as on (value: all its bits) or off.
    fn learn_wraps(&self, dec: &Decoder, o: usize, decos: &[usize], p: u8, buf: &mut String) -> Vec<Vec<Wrap>> {
        // The operand's base value, and constants: LLVM writes `neg(1)` where `-1` would read as
        // another constant.
        let g = &self.groups[o];
        let mut values = vec![get_value(&self.base, &g.bits)];
        let mut pick = |want: fn(&str) -> bool| {
            if let Some(v) = g.table.iter().filter(|(k, _)| k.iter().any(|(_, t)| want(t))).map(|(_, v)| *v).min() {
                if !values.contains(&v) {
                    values.push(v);
                }
            }
        };
        pick(|t| parse_int(t).is_some_and(|n| n > 0));
        pick(|t| t.contains('.'));
        let mut wraps = vec![Vec::new(); 1 << decos.len()];
        for v in values {
            let mut plain_w = self.base;
            set_value(&mut plain_w, &g.bits, v);
            for &d in decos {
                set_value(&mut plain_w, &self.groups[d].bits, 0);
            }
            let Render::Text(ps, _) = render(dec, self.format, self.entry, &plain_w, buf) else { continue };
            let Some(plain) = ps.get(&Slot::Pos(p)).map(|a| a.text.clone()) else { continue };
            for (c, list) in wraps.iter_mut().enumerate().skip(1) {
                let mut w = plain_w;
                for (i, &d) in decos.iter().enumerate() {
                    let all = (1u32 << self.groups[d].bits.len()) - 1;
                    set_value(&mut w, &self.groups[d].bits, if c >> i & 1 != 0 { all } else { 0 });
                }
                if let Render::Text(s, _) = render(dec, self.format, self.entry, &w, buf) {
                    if let Some(wr) = s.get(&Slot::Pos(p)).and_then(|a| Wrap::learn(&plain, &a.text)) {
                        if !list.iter().any(|x| format!("{x:?}") == format!("{wr:?}")) {
                            list.push(wr);
                        }
                    }
                }
            }
        }
        wraps
    }

    /// Encodes `input` by table lookups over `start`. The caller checks the result by printing it;
    /// `missing` lists the groups whose text was not found.
    pub fn solve(&self, dec: &Decoder, input: &Stmt, start: &Words, buf: &mut String) -> Solved {
        self.solve_pinned(dec, input, start, &[], buf)
    }

    /// [`Model::solve`] with the groups in `pinned` kept as `start` has them.
    pub fn solve_pinned(&self, dec: &Decoder, input: &Stmt, start: &Words, pinned: &[usize], buf: &mut String) -> Solved {
        let mut w = *start;
        let mut missing = Vec::new();
        let mut trusted = Vec::new();
        for (gi, g) in self.groups.iter().enumerate() {
            if g.kind != Kind::Modifier || pinned.contains(&gi) {
                continue;
            }
            if let Some(v) = g.direct_value(input) {
                match v {
                    Some(v) => set_value(&mut w, &g.bits, v),
                    None => missing.push(gi),
                }
                continue;
            }
            let key_slots: Vec<Slot> = g.slots.iter().filter(|s| matches!(s, Slot::Key(..) | Slot::Mnemonic)).cloned().collect();
            // A field learned with other flags on, that prints no modifier of its own (a returning
            // atomic's destination): its table holds only where those flags are, so it waits for
            // the tables relearned over the input's own flags.
            if g.ctx.is_some() && key_slots.is_empty() {
                continue;
            }
            // A modifier left out takes LLVM's default (the identity quad_perm, all rows and banks).
            if !key_slots.is_empty() && key_slots.iter().all(|s| input.get(s).is_none()) {
                if let Some(v) = g.table.iter().find(|(k, _)| k.iter().any(|(_, t)| DEFAULTS.contains(&t.as_str()))).map(|(_, v)| *v) {
                    set_value(&mut w, &g.bits, v);
                    continue;
                }
            }
            let found = if key_slots.is_empty() || key_slots.len() == g.slots.len() {
                let proj = project(input, &g.slots);
                g.table.get(&proj).copied().or_else(|| g.lookup_numeric(&proj)).or_else(|| {
                    // A register the base did not print (an export source, a returning atomic's
                    // destination): any value of the same shape, the field itself comes later.
                    let sh: Vec<(Slot, String)> = proj.iter().map(|(s, t)| (s.clone(), shape(t))).collect();
                    g.table
                        .iter()
                        .filter(|(k, _)| k.iter().map(|(s, t)| (s.clone(), shape(t))).collect::<Vec<_>>() == sh)
                        .map(|(_, v)| *v)
                        .min()
                })
            } else {
                // Keyed by the modifier's own text; among equal texts, the value whose effect on
                // the operands has the input's shape (an image's NSA address list).
                let proj = project(input, &key_slots);
                let others: Vec<Slot> = g.slots.iter().filter(|s| !key_slots.contains(s)).cloned().collect();
                let want: Vec<(Slot, String)> = project(input, &others).into_iter().map(|(s, t)| (s, shape(&t))).collect();
                let fits = g.table.iter().filter(|(k, _)| {
                    let kp = project_kv(k, &key_slots);
                    kp.len() == proj.len() && kp.iter().zip(&proj).all(|(a, b)| a.0 == b.0 && atom_equal(&a.1, &b.1))
                });
                let shaped = fits
                    .clone()
                    .filter(|(k, _)| project_kv(k, &others).into_iter().map(|(s, t)| (s, shape(&t))).collect::<Vec<_>>() == want)
                    .map(|(_, v)| *v)
                    .min();
                shaped.or_else(|| fits.map(|(_, v)| *v).min()).or_else(|| {
                    // The modifier's number belongs to another field (gfx9 SMEM's soe bit shows
                    // `offset:` whatever the offset): match its shape.
                    let want: Vec<(Slot, String)> = proj.iter().map(|(s, t)| (s.clone(), shape(t))).collect();
                    g.table
                        .iter()
                        .filter(|(k, _)| project_kv(k, &key_slots).into_iter().map(|(s, t)| (s, shape(&t))).collect::<Vec<_>>() == want)
                        .map(|(_, v)| *v)
                        .min()
                })
            };
            match found {
                Some(v) => set_value(&mut w, &g.bits, v),
                None => missing.push(gi),
            }
        }
        for (gi, g) in self.groups.iter().enumerate() {
            let Kind::Operand { .. } = g.kind else { continue };
            if let Some(v) = g.direct_value(input) {
                match v {
                    Some(v) => set_value(&mut w, &g.bits, v),
                    None => missing.push(gi),
                }
                continue;
            }
            let pos = g.slots.iter().find_map(|s| if let Slot::Pos(p) = s { Some(*p) } else { None });
            let proj = project(input, &g.slots);
            let mut options: Vec<(u32, Vec<(Slot, String)>)> = vec![(0, proj.clone())];
            if let (Some(p), Some((_, wraps))) = (pos, self.wraps.get(&gi)) {
                let text = input.get(&Slot::Pos(p)).map(|a| a.text.as_str()).unwrap_or("");
                let mut combos: Vec<u32> = (1..wraps.len() as u32).collect();
                combos.sort_by_key(|c| c.count_ones());
                for c in combos {
                    for inner in wraps[c as usize].iter().filter_map(|wr| wr.strip(text)) {
                        let mut pr = proj.clone();
                        for (s, t) in pr.iter_mut() {
                            if *s == Slot::Pos(p) {
                                *t = inner.clone();
                            }
                        }
                        options.push((c, pr));
                    }
                }
            }
            let hit = options.iter().find_map(|(c, pr)| g.table.get(pr).map(|&v| (*c, v)).or_else(|| g.lookup_numeric(pr).map(|v| (*c, v)))).or_else(|| {
                // A bit shared with another operand (gfx90a's acc bit for a returning atomic's
                // destination and data) changes a second slot: match the operand's own.
                let p = g.primary.as_ref().filter(|_| g.slots.len() > 1)?;
                options.iter().find_map(|(c, pr)| {
                    let want = pr.iter().find(|(s, _)| s == p)?;
                    g.table.iter().filter(|(k, _)| k.iter().any(|x| x == want)).map(|(_, v)| *v).min().map(|v| (*c, v))
                })
            });
            if let Some((c, v)) = hit {
                set_value(&mut w, &g.bits, v);
                self.set_decorations(gi, c, &mut w);
                continue;
            }
            let mut done = false;
            if let Some(p) = pos.filter(|_| !g.literal_values.is_empty()) {
                // A literal: try the text's readings as a constant.
                'lit: for (c, pr) in &options {
                    let Some((_, inner)) = pr.iter().find(|(s, _)| *s == Slot::Pos(p)) else { continue };
                    for lit in literal_readings(inner) {
                        for &v in &g.literal_values {
                            let mut t = w;
                            set_value(&mut t, &g.bits, v);
                            self.set_decorations(gi, *c, &mut t);
                            t[self.nwords] = lit;
                            if let Render::Text(s, _) = render(dec, self.format, self.entry, &t, buf) {
                                let got = s.get(&Slot::Pos(p)).map(|a| a.text.as_str()).unwrap_or("");
                                let want = input.get(&Slot::Pos(p)).map(|a| a.text.as_str()).unwrap_or("");
                                if atom_equal(got, want) || atom_equal(got, inner) {
                                    w = t;
                                    done = true;
                                    break 'lit;
                                }
                            }
                        }
                    }
                }
            }
            // A plain number for a structured immediate (`s_waitcnt 0`, `s_sendmsg 3`): llvm-mc
            // takes the number as the field's value; the printed text says it another way.
            // (Not for a field that names registers: `0x10` there is an offset's text, not s16.)
            let names_registers = g.table.keys().flatten().any(|(_, t)| {
                let r = t.trim_start_matches(['s', 'v', 'a']);
                r.len() < t.len() && r.starts_with(|c: char| c.is_ascii_digit() || c == '[')
            });
            let immediate = match g.kind {
                Kind::Operand { index } => self.entry.operands.get(index).is_some_and(|o| o.class == rdna_isa::Class::Other) && !names_registers,
                _ => false,
            };
            if !done && immediate && g.bits.len() <= 16 && g.literal_values.is_empty() {
                if let Some(p) = pos {
                    let text = input.get(&Slot::Pos(p)).map(|a| a.text.as_str()).unwrap_or("");
                    if let Some(n) = parse_int(text).filter(|&n| n >= -(1 << (g.bits.len() - 1)) && n < 1 << g.bits.len()) {
                        set_value(&mut w, &g.bits, (n as u32) & ((1u32 << g.bits.len()) - 1));
                        trusted.extend(self.slots_of(dec, gi, &w, buf));
                        done = true;
                    }
                }
            }
            if !done {
                missing.push(gi);
            }
        }
        Solved { words: w, missing, trusted }
    }

    /// The slots group `g` prints in over `w`.
    fn slots_of(&self, dec: &Decoder, g: usize, w: &Words, buf: &mut String) -> Vec<Slot> {
        let mut other = *w;
        let bits = &self.groups[g].bits;
        set_value(&mut other, bits, !get_value(w, bits) & ((1u32 << bits.len()) - 1));
        match (render(dec, self.format, self.entry, w, buf), render(dec, self.format, self.entry, &other, buf)) {
            (Render::Text(a, _), Render::Text(b, _)) => {
                let mut s = changed_slots(&a, &b);
                s.extend(self.groups[g].slots.iter().cloned());
                s
            }
            _ => self.groups[g].slots.clone(),
        }
    }

    fn set_decorations(&self, operand_group: usize, combo: u32, w: &mut Words) {
        if let Some((decos, _)) = self.wraps.get(&operand_group) {
            for (i, &d) in decos.iter().enumerate() {
                let all = (1u32 << self.groups[d].bits.len()) - 1;
                set_value(w, &self.groups[d].bits, if combo >> i & 1 != 0 { all } else { 0 });
            }
        }
    }

    /// The model relearned over another encoding of the same opcode (for text whose pieces
    /// depend on each other, such as an image's data width on its dmask).
    pub fn relearn(&self, dec: &Decoder, ctx: &Words, buf: &mut String) -> Model {
        let Render::Text(stmt, _) = render(dec, self.format, self.entry, ctx, buf) else {
            return self.clone_shallow(self.base, self.base_stmt.clone());
        };
        let mut m = self.clone_shallow(*ctx, stmt);
        m.extend_words(dec, ctx, buf);
        for g in 0..m.groups.len() {
            if !matches!(m.groups[g].kind, Kind::Operand { .. } | Kind::Modifier) {
                continue;
            }
            let mut c = *ctx;
            if m.groups[g].linear.is_some() {
                set_value(&mut c, &m.groups[g].bits.clone(), 0);
            }
            // An operand's table is keyed by its plain text: its decorations off.
            if let Some((decos, _)) = m.wraps.get(&g) {
                for &d in decos {
                    set_value(&mut c, &m.groups[d].bits.clone(), 0);
                }
            }
            m.enumerate(dec, g, &c, buf);
            m.groups[g].ctx = None;
        }
        m
    }

    /// Where `ctx` is longer than the base encoding (an image with NSA address dwords), the new
    /// dwords' bytes become groups, one per list element they change.
    fn extend_words(&mut self, dec: &Decoder, ctx: &Words, buf: &mut String) {
        let Render::Text(stmt, len) = render(dec, self.format, self.entry, ctx, buf) else { return };
        let Some(inst) = decode_words(dec, ctx) else { return };
        if inst.literal.is_some() {
            // A literal the base did not have (VOPD's fmaak): a 32-bit numeric group.
            let lit = (len / 4 - 1) as u16 * 32;
            if !self.groups.iter().any(|g| g.bits.contains(&lit)) {
                self.groups.push(Group::new((lit..lit + 32).collect(), Kind::Modifier));
            }
            return;
        }
        // New dwords, or (gfx12 VIMAGE/VSAMPLE, whose further addresses sit in bytes of the third
        // dword) a list among the operands whose elements no group prints yet.
        let lists = stmt.atoms.iter().any(|a| matches!(a.slot, Slot::Pos(_)) && a.text.starts_with('['));
        let from = if len / 4 > self.nwords {
            self.nwords * 32
        } else if lists {
            0
        } else {
            return;
        };
        let have: Vec<u16> = self.groups.iter().flat_map(|g| g.bits.iter().copied()).collect();
        let mut per_elem: Vec<(Slot, usize, Vec<u16>)> = Vec::new();
        for b in from as u16..(len / 4 * 32) as u16 {
            if have.contains(&b) {
                continue;
            }
            let mut w = *ctx;
            flip(&mut w, b);
            let Render::Text(s, _) = render(dec, self.format, self.entry, &w, buf) else { continue };
            let ch = changed_slots(&stmt, &s);
            let [slot] = ch.as_slice() else { continue };
            let (Some(a), Some(x)) = (stmt.get(slot), s.get(slot)) else { continue };
            let Some(i) = (0..64).find(|&i| list_elem(&a.text, i) != list_elem(&x.text, i)) else { continue };
            match per_elem.iter_mut().find(|(s2, i2, _)| s2 == slot && *i2 == i) {
                Some(e) => e.2.push(b),
                None => per_elem.push((slot.clone(), i, vec![b])),
            }
        }
        for (slot, i, bits) in per_elem {
            if bits.len() <= 9 {
                let mut g = Group::new(bits, Kind::Operand { index: usize::MAX });
                g.elem = Some((slot, i));
                self.groups.push(g);
            }
        }
    }

    fn clone_shallow(&self, base: Words, base_stmt: Stmt) -> Model {
        Model {
            format: self.format,
            entry: self.entry,
            base,
            nwords: self.nwords,
            base_stmt,
            groups: self.groups.clone(),
            wraps: self.wraps.clone(),
        }
    }
}

impl Group {
    fn new(bits: Vec<u16>, kind: Kind) -> Group {
        Group {
            bits,
            kind,
            slots: Vec::new(),
            table: HashMap::new(),
            literal_values: Vec::new(),
            linear: None,
            elem: None,
            structural: Vec::new(),
            ctx: None,
            primary: None,
        }
    }

    /// For a numeric group: the value the input's number needs (Some(None): it cannot be written).
    fn linear_value(&self, input: &Stmt) -> Option<Option<u32>> {
        let (contrib, slot, prefix) = self.linear.as_ref()?;
        Some(match input.get(slot) {
            None => Some(0),
            Some(a) => a.text.strip_prefix(prefix.as_str()).and_then(parse_int).and_then(|n| decompose(contrib, n)),
        })
    }

    /// The value of a numeric group or one list element, looked up without the rest of the text
    /// (Some(None): not found); None for other groups.
    fn direct_value(&self, input: &Stmt) -> Option<Option<u32>> {
        if let Some(v) = self.linear_value(input) {
            return Some(v);
        }
        self.elem.as_ref()?;
        Some(self.table.get(&self.key(input)).copied())
    }

    /// A table entry whose text is the same number as `proj`'s, written another way (a user's
    /// `offset:0x10` where the printer writes `offset:16`).
    fn lookup_numeric(&self, proj: &[(Slot, String)]) -> Option<u32> {
        let other_spelling = |t: &str| split_number(t).is_some() || hwreg_parts(t).is_some();
        if proj.is_empty() || !proj.iter().any(|(_, t)| other_spelling(t)) {
            return None;
        }
        self.table
            .iter()
            .filter(|(k, _)| k.len() == proj.len() && k.iter().zip(proj).all(|(a, b)| a.0 == b.0 && atom_equal(&a.1, &b.1)))
            .map(|(_, v)| *v)
            .min()
    }

    /// The group's piece of a statement's text, as its table is keyed.
    fn key(&self, stmt: &Stmt) -> Vec<(Slot, String)> {
        match &self.elem {
            Some((slot, i)) => match stmt.get(slot).and_then(|a| list_elem(&a.text, *i)) {
                Some(e) => vec![(slot.clone(), e.to_string())],
                None => Vec::new(),
            },
            None => project(stmt, &self.slots),
        }
    }
}

/// The i-th element of `key:[a,b,c]` or `[a, b, c]`.
fn list_elem(text: &str, i: usize) -> Option<&str> {
    list_elem_any(text, i)
}

fn list_elem_any(text: &str, i: usize) -> Option<&str> {
    let inner = match text.split_once(":[") {
        Some((_, r)) => r,
        None => text.strip_prefix('[')?,
    }
    .strip_suffix(']')?;
    inner.split(',').nth(i).map(str::trim)
}

/// Text with its digits and hex numbers reduced to `#`: `v[4:7]` and `v[0:3]` have one shape.
fn shape(t: &str) -> String {
    let t = t.strip_prefix('-').unwrap_or(t);
    let mut out = String::new();
    let b = t.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            if b[i] == b'0' && b.get(i + 1) == Some(&b'x') {
                i += 2;
            }
            while i < b.len() && b[i].is_ascii_hexdigit() {
                i += 1;
            }
            out.push('#');
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

fn project_kv(k: &[(Slot, String)], slots: &[Slot]) -> Vec<(Slot, String)> {
    k.iter().filter(|(s, _)| slots.contains(s)).cloned().collect()
}

/// The slots whose text differs between two statements (present in one only counts).
pub fn changed_slots(a: &Stmt, b: &Stmt) -> Vec<Slot> {
    let mut out = Vec::new();
    for x in &a.atoms {
        if b.get(&x.slot).map(|y| &y.text) != Some(&x.text) {
            out.push(x.slot.clone());
        }
    }
    for y in &b.atoms {
        if a.get(&y.slot).is_none() && !out.contains(&y.slot) {
            out.push(y.slot.clone());
        }
    }
    out
}

/// The field value whose bits' contributions sum to `n` (a negative contribution is a sign bit;
/// a negative `n` without one wraps around the field).
fn decompose(contrib: &[i64], mut n: i64) -> Option<u32> {
    let mut v = 0u32;
    if n < 0 {
        if let Some(k) = contrib.iter().position(|&c| c < 0) {
            v |= 1 << k;
            n -= contrib[k];
        } else {
            n += contrib.iter().filter(|&&c| c > 0).sum::<i64>() + 1;
        }
    }
    let mut order: Vec<usize> = (0..contrib.len()).filter(|&k| contrib[k] > 0).collect();
    order.sort_by_key(|&k| std::cmp::Reverse(contrib[k]));
    for k in order {
        if n >= contrib[k] {
            v |= 1 << k;
            n -= contrib[k];
        }
    }
    (n == 0).then_some(v)
}

/// The 32-bit values a constant's text may stand for: the integer (truncated), or the float as
/// f32 bits, the high half of an f64 and f16 bits.
fn literal_readings(t: &str) -> Vec<u32> {
    let mut out = Vec::new();
    if let Some(n) = parse_int(t) {
        out.push(n as u32);
    } else if let Ok(f) = t.parse::<f64>() {
        out.push((f as f32).to_bits());
        out.push((f.to_bits() >> 32) as u32);
        out.push(half_bits(f as f32) as u32);
    }
    out
}

/// f32 → f16 bits (round to nearest even).
fn half_bits(f: f32) -> u16 {
    let x = f.to_bits();
    let sign = ((x >> 16) & 0x8000) as u16;
    let exp = ((x >> 23) & 0xff) as i32;
    let man = x & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rem = m & ((1 << shift) - 1);
        let mid = 1 << (shift - 1);
        let r = if rem > mid || (rem == mid && half & 1 != 0) { half + 1 } else { half };
        return sign | r as u16;
    }
    let half = ((e as u32) << 10) | (man >> 13);
    let rem = man & 0x1fff;
    let r = if rem > 0x1000 || (rem == 0x1000 && half & 1 != 0) { half + 1 } else { half };
    sign | r as u16
}

pub fn decode_words(dec: &Decoder, w: &Words) -> Option<Inst> {
    let mut bytes = [0u8; 4 * WORDS];
    for (i, x) in w.iter().enumerate() {
        bytes[4 * i..4 * i + 4].copy_from_slice(&x.to_le_bytes());
    }
    dec.decode(&bytes).ok().map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_fields_decompose_into_their_bits() {
        // A 13-bit signed offset: bits 1..2048 and a sign bit worth -4096.
        let mut c: Vec<i64> = (0..12).map(|k| 1i64 << k).collect();
        c.push(-4096);
        assert_eq!(decompose(&c, 16), Some(16));
        assert_eq!(decompose(&c, -1), Some(0x1fff));
        assert_eq!(decompose(&c, 5000), None);
        // An unsigned 16-bit immediate takes negative numbers modulo 2^16.
        let u: Vec<i64> = (0..16).map(|k| 1i64 << k).collect();
        assert_eq!(decompose(&u, -2), Some(0xfffe));
    }

    #[test]
    fn half_precision_bits() {
        assert_eq!(half_bits(1.0), 0x3c00);
        assert_eq!(half_bits(-2.5), 0xc100);
        assert_eq!(half_bits(65504.0), 0x7bff);
    }

    #[test]
    fn decorations_strip() {
        let w = Wrap::learn("s0", "-|s0|").unwrap();
        assert_eq!(w.strip("-|v7|").as_deref(), Some("v7"));
        let w = Wrap::learn("v0.l", "v0.h").unwrap();
        assert_eq!(w.strip("v12.h").as_deref(), Some("v12.l"));
    }
}
