//! Decoding plans: how to check one opcode's operands, worked out once per target and opcode.
//!
//! Which operand values LLVM rejects is defined by [`Decoder::check_operand`]. For most operands
//! the answer depends only on the operand's own field, so the plan tabulates the definition over
//! the values of the field (once per distinct kind of operand and target, 64 values at a time as
//! decoding meets them), and decoding then tests a bit instead of walking the rules. Operands
//! whose validity also depends on other bits of the encoding (tfe adding a status dword to a
//! buffer's data, an SGPR address shortening a GLOBAL address, SDWA's scalar-source bits, gfx7's
//! rules) are checked by the definition itself.
//! The tests compare plan and definition on random encodings aimed at every opcode.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use rdna_isa::{Class, Field, Format, Generation, ImmTy, Isa, OpEntry, Operand, Target};

use crate::decode::{operand_unchecked, operand_width, SourceKind};
use crate::{Decoder, Inst};

/// More operands than this and the plan checks every operand by the definition.
const MAX_CHECKED: usize = 6;

/// Every opcode's plan for one target, built on first use.
pub(crate) struct Plans {
    target: Target,
    /// `[format][op]`: the opcode's plan, None where the target has no such opcode (boxed, so
    /// that the slots of a format's every opcode take few pages: a short run touches few).
    by_format: [OnceLock<Box<[OnceLock<Option<Box<Plan>>>]>>; Format::ALL.len()],
    /// The tabulated checks, shared by every operand with the same key.
    tables: Mutex<HashMap<TableKey, &'static FieldTable>>,
}

impl std::fmt::Debug for Plans {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Plans({})", self.target.name)
    }
}

/// What decoding one opcode in one format checks.
pub(crate) struct Plan {
    pub entry: &'static OpEntry,
    /// The tables the entry came from (the target's, or its fallback's).
    pub isa: Isa,
    /// The entry's `must_zero`, kept beside the checks so that decoding reads one cache line.
    pub must_zero: u64,
    /// The operand list has a literal that every encoding carries (`v_madak_f32`'s constant).
    pub literal_token: bool,
    /// The checks of the operands that some value fails or that can be the literal, in order.
    checks: [Check; MAX_CHECKED],
    /// How many of `checks` apply; `u8::MAX`: check every operand by the definition.
    count: u8,
}

#[derive(Clone, Copy)]
enum Check {
    /// Every value is valid and none is the literal (not kept in a plan).
    Always,
    /// Look the field's value up.
    Table { lo: u8, width: u8, table: &'static FieldTable },
    /// Run the definition on the whole instruction for operand `i`.
    Definition(u8),
}

/// One operand's check over every value of its field (at most 9 bits), worked out 64 values at
/// a time when a value of the block is first looked up: real code names few registers and
/// constants, so a short run (one shader) computes a block or two of each table instead of
/// all eight (tabulating whole tables was two thirds of `rdna dis` on a small code object).
struct FieldTable {
    /// An instruction whose operand `operand` has this table's key, every other bit clear: the
    /// values are put in its field (`lo`, `width`) and checked by the definition.
    probe: Inst,
    operand: u8,
    lo: u8,
    width: u8,
    blocks: [OnceLock<Block>; 8],
}

/// The check of 64 consecutive values: a bit each, valid and whether it is the literal.
#[derive(Clone, Copy, Default)]
struct Block {
    valid: u64,
    literal: u64,
}

impl FieldTable {
    /// The block holding value `r`, worked out on first use.
    #[inline]
    fn block(&self, r: u32) -> Block {
        let b = r as usize / 64;
        *self.blocks[b].get_or_init(|| {
            let mut block = Block::default();
            let first = b as u32 * 64;
            for r in first..(first + 64).min(1 << self.width) {
                let mut inst = self.probe;
                if self.lo >= 64 {
                    inst.ext = r << (self.lo - 64);
                } else {
                    inst.raw = (r as u64) << self.lo;
                }
                if let Some(literal) = Decoder::check_operand(&inst, self.operand as usize) {
                    block.valid |= 1 << (r % 64);
                    block.literal |= (literal as u64) << (r % 64);
                }
            }
            block
        })
    }
}

/// Everything [`Decoder::check_operand`] reads of an operand whose check is tabulated.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct TableKey {
    format: Format,
    field: Field,
    class: Class,
    imm: ImmTy,
    reject: u16,
    flag: u16,
    width: u32,
    kind: SourceKind,
    unchecked: bool,
}

impl Plans {
    /// The plans of `target`, shared by every decoder of it.
    pub(crate) fn of(target: Target) -> &'static Plans {
        static ALL: Mutex<Vec<&'static Plans>> = Mutex::new(Vec::new());
        let mut all = ALL.lock().unwrap_or_else(|e| e.into_inner());
        let same = |t: &Target| {
            (t.generation, t.isa, t.fallback, t.wave64) == (target.generation, target.isa, target.fallback, target.wave64)
        };
        if let Some(p) = all.iter().find(|p| same(&p.target)) {
            return p;
        }
        let plans: &'static Plans = Box::leak(Box::new(Plans {
            target,
            by_format: std::array::from_fn(|_| OnceLock::new()),
            tables: Mutex::new(HashMap::new()),
        }));
        all.push(plans);
        plans
    }

    /// The plan of opcode `op` in `format`, None where the target has no such opcode.
    #[inline]
    pub(crate) fn get(&self, format: Format, op: u32) -> Option<&Plan> {
        let ops = self.by_format[format as usize].get_or_init(|| {
            let t = &self.target;
            let len = t.table(format).index.len().max(t.fallback.map_or(0, |f| f.tables().get(format).index.len()));
            (0..len).map(|_| OnceLock::new()).collect()
        });
        ops.get(op as usize)?.get_or_init(|| self.build(format, op).map(Box::new)).as_deref()
    }

    fn build(&self, format: Format, op: u32) -> Option<Plan> {
        let t = &self.target;
        let (entry, isa) = match t.table(format).get(op) {
            Some(e) => (e, t.isa),
            None => {
                let fb = t.fallback?;
                (fb.tables().get(format).get(op)?, fb)
            }
        };
        // The plan's checks are worked out on an encoding with every other bit clear: they are
        // the ones that do not depend on other bits.
        let probe =
            Inst { format, entry, raw: 0, literal: None, len: 0, wave64: t.wave64, nsa: [0; 3], ext: 0, gen: t.generation, isa };
        let mut checks = [Check::Always; MAX_CHECKED];
        let n = entry.operands.len();
        let count = if n > MAX_CHECKED || format == Format::Vopd {
            u8::MAX
        } else {
            // Operands that every value passes (most register fields) need no check at all.
            let mut kept = 0;
            for i in 0..n {
                let check = self.check_for(&probe, i);
                if !matches!(check, Check::Always) {
                    checks[kept] = check;
                    kept += 1;
                }
            }
            kept as u8
        };
        Some(Plan { entry, isa, must_zero: entry.must_zero, literal_token: entry.tokens.contains(&"<literal>"), checks, count })
    }

    /// How operand `i` of `probe`'s opcode is checked.
    fn check_for(&self, probe: &Inst, i: usize) -> Check {
        let op: &Operand = &probe.entry.operands[i];
        let gen = probe.gen;
        let whole_encoding = gen == Generation::Gfx7
            || (probe.format.is_sdwa() && gen != Generation::Gfx8)
            || matches!((probe.format, op.field), (Format::Mubuf | Format::Mtbuf, Field::Vdata) | (Format::Global, Field::Addr));
        if whole_encoding {
            return Check::Definition(i as u8);
        }
        let (lo, width) = probe.field_span(op.field);
        let kind = probe.source_kind(i);
        if width > 9 {
            // Offsets and 16-bit immediates: any value, unless LLVM rejects a class of them.
            let any = kind == SourceKind::None && matches!(op.field, Field::Offset | Field::Simm16) && op.reject == 0;
            return if any { Check::Always } else { Check::Definition(i as u8) };
        }
        let key = TableKey {
            format: probe.format,
            field: op.field,
            class: op.class,
            imm: op.imm,
            reject: op.reject,
            flag: op.flag,
            width: operand_width(probe, op),
            kind,
            unchecked: operand_unchecked(probe, op),
        };
        let mut tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        let table: &'static FieldTable = *tables.entry(key).or_insert_with(|| {
            Box::leak(Box::new(FieldTable { probe: *probe, operand: i as u8, lo, width, blocks: Default::default() }))
        });
        // Register fields that are not sources (destinations, addresses, data) are usually
        // valid whatever their value: such a field's table is worked out whole at once, so that
        // the plan can drop its check when every value passes. Sources (constants, reserved
        // values, the literal) never all pass, so theirs stay lazy.
        if kind == SourceKind::None && width <= 8 {
            let values = 1u32 << width;
            let every_value = (0..values.div_ceil(64)).all(|b| {
                let block = table.block(b * 64);
                let bits = (values - b * 64).min(64);
                let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
                block.valid & mask == mask && block.literal == 0
            });
            if every_value {
                return Check::Always;
            }
        }
        Check::Table { lo, width, table }
    }
}

impl Plan {
    /// [`Decoder::check_sources`] for this opcode: None if an operand is invalid, else whether a
    /// source is the literal.
    #[inline]
    pub(crate) fn check(&self, inst: &Inst) -> Option<bool> {
        if self.count == u8::MAX {
            return Decoder::check_sources(inst);
        }
        let mut literal = false;
        for c in &self.checks[..self.count as usize] {
            match *c {
                Check::Always => {}
                Check::Table { lo, width, table } => {
                    let r = if lo >= 64 { inst.ext >> (lo - 64) } else { (inst.raw >> lo) as u32 } & ((1 << width) - 1);
                    let (block, bit) = (table.block(r), r % 64);
                    if block.valid >> bit & 1 == 0 {
                        return None;
                    }
                    literal |= block.literal >> bit & 1 != 0;
                }
                Check::Definition(i) => literal |= Decoder::check_operand(inst, i as usize)?,
            }
        }
        Some(literal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aim::{aimed_for, Fill};

    /// The plans decide exactly as the definition on encodings aimed at every opcode of every
    /// format, with random other bits, on a target of each generation (wave32 and wave64).
    #[test]
    fn plans_agree_with_the_definition() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut compared = 0;
        for name in ["gfx700", "gfx803", "gfx900", "gfx90a", "gfx942", "gfx1030", "gfx1030:wave64", "gfx1100", "gfx1200"] {
            let (mcpu, wave64) = name.split_once(':').map_or((name, false), |(m, _)| (m, true));
            let mut target = Target::from_name(mcpu).unwrap();
            target.wave64 |= wave64;
            let dec = Decoder::new(target);
            for &format in Format::ALL.iter() {
                let ops = target.table(format).index.len() as u32;
                for op in 0..ops {
                    for _ in 0..24 {
                        let fill = Fill { words: std::array::from_fn(|_| next() as u32), choices: next() as u32 };
                        let words = aimed_for(target.isa, format, op, fill);
                        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                        let planned = dec.decode(&bytes);
                        let defined = dec.decode_by_definition(&bytes);
                        let same = match (&planned, &defined) {
                            (Ok((a, la)), Ok((b, lb))) => la == lb && a.raw == b.raw && a.literal == b.literal && std::ptr::eq(a.entry, b.entry),
                            (Err(a), Err(b)) => a == b,
                            _ => false,
                        };
                        assert!(same, "{name} {format:?} op {op:#x} {words:08x?}: plan {planned:?}, definition {defined:?}");
                        compared += planned.is_ok() as usize;
                    }
                }
            }
        }
        assert!(compared > 50_000, "only {compared} valid encodings compared");
    }
}
