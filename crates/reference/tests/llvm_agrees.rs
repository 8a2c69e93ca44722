//! Reference pages against llvm-mc-19 and the decoder, on instructions sampled fresh each run
//! (`RDNA_SEED` replays a run, `RDNA_REF_COUNT` sets the sample per target, default 80, or `all`
//! for every page):
//!
//! - the example assembles with llvm-mc-19 to the page's bytes;
//! - the identifier and opcode are the fixed and opcode bits of llvm-mc-19's encoding;
//! - each operand's field is where the decoder reads it, and changing that operand's register in
//!   the text changes llvm-mc-19's encoding only inside the field;
//! - llvm-mc-19 accepts the example on targets the page lists.

#[path = "../../disasm/tests/common/mod.rs"]
mod common;

use std::collections::HashMap;

use common::{llvm_assemble, seed_from_env, Rng};
use rdna_disasm::Decoder;
use rdna_isa::{Isa, Target};
use rdna_reference::{EncodingPage, Reference};

/// How many pages to sample per target; `None` for every page.
fn count() -> Option<usize> {
    match std::env::var("RDNA_REF_COUNT") {
        Ok(s) if s == "all" => None,
        Ok(s) => Some(s.parse().expect("RDNA_REF_COUNT must be a number or `all`")),
        Err(_) => Some(80),
    }
}

fn bit(bytes: &[u8], b: u32) -> u32 {
    (bytes[b as usize / 8] >> (b % 8) & 1) as u32
}

/// The text with operand `slot`'s register moved by 16 (`v8` → `v24`, `v[4:5]` → `v[20:21]`),
/// or None where the operand is not a plain register.
fn bumped(text: &str, index: usize, operands: usize) -> Option<String> {
    let stmt = rdna_asm::syntax::split(text, 0)?;
    // Only where every printed operand is an encoded one (VOPC's `vcc` is printed, not encoded).
    if stmt.atoms.iter().filter(|a| matches!(a.slot, rdna_asm::syntax::Slot::Pos(_))).count() != operands {
        return None;
    }
    let atom = stmt.atoms.iter().find(|a| a.slot == rdna_asm::syntax::Slot::Pos(index as u8))?;
    let t = atom.text.as_str();
    let prefix = t.chars().next().filter(|c| matches!(c, 'v' | 's' | 'a'))?;
    let rest = &t[1..];
    let new = if let Some(n) = rest.parse::<u32>().ok() {
        format!("{prefix}{}", n + 16)
    } else {
        let inner = rest.strip_prefix('[')?.strip_suffix(']')?;
        let (a, b) = inner.split_once(':')?;
        let (a, b) = (a.parse::<u32>().ok()?, b.parse::<u32>().ok()?);
        format!("{prefix}[{}:{}]", a + 16, b + 16)
    };
    // The operand's one occurrence as a whole token.
    let bytes = text.as_bytes();
    let starts: Vec<usize> = text
        .match_indices(t)
        .map(|(i, _)| i)
        .filter(|&i| i > 0 && matches!(bytes[i - 1], b' ' | b',') && matches!(bytes.get(i + t.len()), None | Some(b',' | b' ')))
        .collect();
    match starts.as_slice() {
        [start] => Some(format!("{}{}{}", &text[..*start], new, &text[start + t.len()..])),
        _ => None,
    }
}

/// Instructions whose text, as llvm-objdump-19 prints the page's example bytes, llvm-mc-19
/// does not take back (found by `RDNA_REF_COUNT=all RDNA_REF_DUMP=1`, every page of every target).
const LLVM_PRINTS_NOT_ASSEMBLES: &[(&str, &str)] = &[
    ("v_interp_mov_f32_e64", "gfx8-10 VOP3 interpolation: the parameter prints as v0 where the assembler wants p10"),
    ("v_interp_p1ll_f16", "gfx10 VOP3 interpolation: the parameter prints as v0 where the assembler wants p10"),
    ("v_interp_p1lv_f16", "gfx10 VOP3 interpolation: the parameter prints as v0 where the assembler wants p10"),
    ("v_interp_p2_f16", "gfx10 VOP3 interpolation: the parameter prints as v0 where the assembler wants p10"),
    ("image_msaa_load", "the data width follows the sample count, not dmask"),
    ("image_gather4h", "gfx11 NSA address registers print as v0"),
    ("ds_add_gs_reg_rtn", "gfx11: LLVM 19 assembles no form of it"),
    ("ds_sub_gs_reg_rtn", "gfx11: LLVM 19 assembles no form of it"),
    ("image_load_mip", "gfx12: 1D mip needs a second address register"),
    ("image_load_mip_pck", "gfx12: 1D mip needs a second address register"),
    ("image_load_mip_pck_sgn", "gfx12: 1D mip needs a second address register"),
    ("image_store_mip", "gfx12: 1D mip needs a second address register"),
    ("image_store_mip_pck", "gfx12: 1D mip needs a second address register"),
    ("s_barrier_init", "gfx12 named barriers: LLVM 19 takes only m0 or an immediate"),
    ("s_barrier_join", "gfx12 named barriers: LLVM 19 takes only m0 or an immediate"),
    ("s_barrier_signal", "gfx12 named barriers: LLVM 19 takes only m0 or an immediate"),
    ("s_barrier_signal_isfirst", "gfx12 named barriers: LLVM 19 takes only m0 or an immediate"),
    ("s_get_barrier_state", "gfx12 named barriers: LLVM 19 takes only m0 or an immediate"),
    ("s_wakeup_barrier", "gfx12 named barriers: LLVM 19 takes only m0 or an immediate"),
    ("v_cvt_f32_bf8_sdwa", "gfx942 fp8 conversions: SDWA is printed, not assembled"),
    ("v_cvt_f32_fp8_sdwa", "gfx942 fp8 conversions: SDWA is printed, not assembled"),
    ("v_cvt_pk_f32_bf8_sdwa", "gfx942 fp8 conversions: SDWA is printed, not assembled"),
    ("v_cvt_pk_f32_fp8_sdwa", "gfx942 fp8 conversions: SDWA is printed, not assembled"),
];

/// Encodings that have no example, and why (`RDNA_REF_COUNT=all RDNA_REF_DUMP=1` lists them).
const NO_EXAMPLE: &[(&str, &str)] = &[
    ("ds_gws_sema_p", "gfx7: the reference finds no valid encoding of it (its page says so)"),
    ("ds_gws_sema_release_all", "gfx7: the reference finds no valid encoding of it (its page says so)"),
    ("ds_gws_sema_v", "gfx7: the reference finds no valid encoding of it (its page says so)"),
];

struct Checked {
    examples: usize,
    bumps: usize,
    targets: usize,
}

fn check(mcpu: &str) -> Checked {
    let seed = seed_from_env();
    let mut rng = Rng(seed ^ mcpu.bytes().fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64)));
    let target = Target::from_name(mcpu).unwrap();
    let dec = Decoder::new(target);
    let names = Reference::names(target.isa);
    let mut reference = Reference::new();
    let mut pages = Vec::new();
    let sample: Vec<usize> = match count() {
        Some(n) => (0..n).map(|_| rng.below(names.len() as u64) as usize).collect(),
        None => (0..names.len()).collect(),
    };
    for i in sample {
        let name = &names[i];
        pages.push(reference.page(target.isa, name).unwrap_or_else(|e| panic!("{mcpu}: {e}")));
    }
    let encodings: Vec<(&str, &EncodingPage)> = pages.iter().flat_map(|p| p.encodings.iter().map(move |e| (p.name.as_str(), e))).collect();
    let with_example: Vec<&(&str, &EncodingPage)> = encodings.iter().filter(|(_, e)| e.example.is_some()).collect();
    // An encoding no text selects (the DPP form of an operand-less v_nop prints as v_nop) has no
    // example, and says so; every other encoding has one.
    let selectable: Vec<_> = encodings.iter().filter(|(_, e)| !e.example_note.as_deref().is_some_and(|n| n.contains(" encoding (opcode "))).collect();
    let without: Vec<(&str, &Option<String>)> = selectable.iter().filter(|(_, e)| e.example.is_none()).map(|(_, e)| (e.mnemonic.as_str(), &e.example_note)).collect();
    if std::env::var_os("RDNA_REF_DUMP").is_some() {
        eprintln!("WITHOUT {mcpu}\t{}/{}\t{without:?}", without.len(), selectable.len());
    }
    let unexplained: Vec<_> = without.iter().filter(|(m, _)| !NO_EXAMPLE.iter().any(|(n, _)| n == m)).collect();
    assert!(unexplained.is_empty(), "{mcpu}: {} of {} encodings have no example: {unexplained:?}", unexplained.len(), selectable.len());
    let texts: Vec<String> = with_example.iter().map(|(_, e)| e.example.as_ref().unwrap().text.clone()).collect();
    let llvm = llvm_assemble(mcpu, &texts);
    let mut rejected = Vec::new();
    let mut bump_texts: Vec<(usize, String, String)> = Vec::new();
    for ((name, e), want) in with_example.iter().zip(&llvm) {
        let x = e.example.as_ref().unwrap();
        let Some(want) = want else {
            rejected.push(x.text.clone());
            continue;
        };
        assert_eq!(&x.bytes, want, "{mcpu} {name}: llvm-mc-19 encodes `{}` differently", x.text);
        // Identifier and opcode: the fixed bits of llvm's encoding, zeros elsewhere.
        let id = u128::from_str_radix(e.identifier.trim_start_matches("0x"), 16).unwrap();
        for seg in &e.layout {
            for b in seg.lo..=seg.hi {
                let id_bit = (id >> b & 1) as u32;
                match &seg.bits {
                    Some(bits) => {
                        let expect = bits.as_bytes()[(seg.hi - b) as usize] - b'0';
                        assert_eq!(bit(want, b), expect as u32, "{mcpu} {}: bit {b} of {} ({:?})", e.mnemonic, seg.name, x.text);
                        assert_eq!(id_bit, expect as u32, "{mcpu} {}: identifier bit {b}", e.mnemonic);
                    }
                    None => assert_eq!(id_bit, 0, "{mcpu} {}: identifier bit {b} is in {}", e.mnemonic, seg.name),
                }
            }
        }
        let ops: Vec<_> = e.layout.iter().filter(|s| s.kind == "opcode").collect();
        if let [op] = ops.as_slice() {
            let v = (op.lo..=op.hi).map(|b| bit(want, b) << (b - op.lo)).sum::<u32>();
            assert_eq!(v, e.opcode, "{mcpu} {}: opcode field", e.mnemonic);
        }
        // Operand fields where the decoder reads them.
        let (inst, _) = dec.decode(want).unwrap();
        for (i, o) in e.operands.iter().enumerate() {
            let Some(field) = inst.entry.operands.get(i).map(|o| o.field) else {
                // VOPD: fields checked by the register moves below.
                assert!(e.format.starts_with("VOPD"), "{mcpu} {}: operand {i} unknown to the decoder", e.mnemonic);
                continue;
            };
            assert_eq!(o.field, field.name());
            let (lo, w) = inst.field_span(field);
            for seg in e.layout.iter().filter(|s| s.name == o.field) {
                assert!(seg.lo >= lo as u32 && seg.hi < lo as u32 + w as u32, "{mcpu} {}: {} at {}:{}, the decoder reads {}+{}", e.mnemonic, o.field, seg.hi, seg.lo, lo, w);
            }
            if let Some(t) = bumped(&x.text, i, e.operands.len()) {
                bump_texts.push((i, x.text.clone(), t));
            }
        }
    }
    // Adding a one-bit modifier (`glc`, `gds`, `clamp`, ...) to the text changes llvm's bytes only
    // inside the segment of that name.
    let mut flag_texts: Vec<(String, String, String)> = Vec::new();
    for (_, e) in &with_example {
        let x = e.example.as_ref().unwrap();
        if rejected.contains(&x.text) {
            continue;
        }
        for seg in e.layout.iter().filter(|s| s.kind == "modifier" && s.hi == s.lo && s.name.bytes().all(|c| c.is_ascii_uppercase() || c == b'_')) {
            let flag = seg.name.to_ascii_lowercase();
            if !x.text.split_whitespace().any(|w| w == flag) {
                flag_texts.push((x.text.clone(), format!("{} {flag}", x.text), seg.name.clone()));
            }
        }
    }
    let flag_llvm = llvm_assemble(mcpu, &flag_texts.iter().map(|(_, t, _)| t.clone()).collect::<Vec<_>>());
    let mut flags = 0;
    for ((orig, t, name), got) in flag_texts.iter().zip(&flag_llvm) {
        let Some(got) = got else { continue };
        let e = with_example.iter().map(|(_, e)| *e).find(|e| e.example.as_ref().unwrap().text == *orig).unwrap();
        let x = e.example.as_ref().unwrap();
        if got.len() != x.bytes.len() {
            continue;
        }
        flags += 1;
        for b in 0..8 * got.len() as u32 {
            if bit(got, b) != bit(&x.bytes, b) {
                let seg = e.layout.iter().find(|s| s.lo <= b && b <= s.hi);
                assert!(seg.is_some_and(|s| &s.name == name), "{mcpu} {}: `{t}` changes bit {b} ({:?}), outside {name}", e.mnemonic, seg.map(|s| &s.name));
            }
        }
    }
    eprintln!("{mcpu}: {flags} one-bit modifiers added inside their segments");
    // Moving one operand's register changes llvm's bytes only inside that operand's field.
    let bump_llvm = llvm_assemble(mcpu, &bump_texts.iter().map(|(_, _, t)| t.clone()).collect::<Vec<_>>());
    let by_text: HashMap<&str, &EncodingPage> = with_example.iter().map(|(_, e)| (e.example.as_ref().unwrap().text.as_str(), *e)).collect();
    let mut bumps = 0;
    for ((i, orig, t), got) in bump_texts.iter().zip(&bump_llvm) {
        let Some(got) = got else { continue };
        let e = by_text[orig.as_str()];
        let x = e.example.as_ref().unwrap();
        if got.len() != x.bytes.len() {
            continue;
        }
        bumps += 1;
        let field = &e.operands[*i].field;
        for b in 0..8 * got.len() as u32 {
            if bit(got, b) != bit(&x.bytes, b) {
                let seg = e.layout.iter().find(|s| s.lo <= b && b <= s.hi);
                assert!(
                    seg.is_some_and(|s| &s.name == field),
                    "{mcpu} {}: `{t}` changes bit {b} ({:?}), outside {field}",
                    e.mnemonic,
                    seg.map(|s| &s.name)
                );
            }
        }
    }
    // Targets the pages list accept the instruction: llvm-mc-19 -mcpu=<target> takes the example
    // of the page for that target's tables (register widths can differ: gfx810 packs d16 data)
    // wherever the tables' own target takes it.
    let mut per_target: HashMap<String, Vec<String>> = HashMap::new();
    for p in &pages {
        let listed: Vec<&String> = p.targets.iter().filter(|t| Target::from_name(t).is_some()).collect();
        assert!(listed.iter().any(|t| Target::from_name(t).unwrap().isa == target.isa), "{mcpu}: {} does not list its own target", p.name);
        for _ in 0..2 {
            let t = listed[rng.below(listed.len() as u64) as usize];
            let isa = Target::from_name(t).unwrap().isa;
            let theirs = reference.page(isa, &p.name).unwrap_or_else(|e| panic!("{t} is listed for {} but has no page: {e}", p.name));
            let Some(x) = theirs.encodings.iter().find_map(|e| e.example.as_ref()) else { continue };
            per_target.entry(t.clone()).or_default().push(x.text.clone());
            per_target.entry(isa.name().to_string()).or_default().push(x.text.clone());
        }
    }
    let accepted: HashMap<(String, String), bool> = per_target
        .iter()
        .flat_map(|(t, texts)| texts.iter().zip(llvm_assemble(t, texts)).map(move |(x, got)| ((t.clone(), x.clone()), got.is_some())))
        .collect();
    let mut targets = 0;
    for ((t, text), ok) in &accepted {
        let home = Target::from_name(t).unwrap().isa.name().to_string();
        if accepted.get(&(home.clone(), text.clone())) == Some(&true) {
            assert!(ok, "{t} is listed for `{text}`, which llvm-mc-19 takes on {home}, but -mcpu={t} rejects it");
            targets += 1;
        }
    }
    eprintln!(
        "{mcpu}: {} pages, {} examples llvm-mc-19 encodes identically ({} rejected: {:?}), {bumps} register moves inside their fields, {targets} listed targets accept; seed {seed}",
        pages.len(),
        with_example.len() - rejected.len(),
        rejected.len(),
        rejected.iter().take(5).collect::<Vec<_>>()
    );
    if std::env::var_os("RDNA_REF_DUMP").is_some() {
        for r in &rejected {
            eprintln!("REJECTED {mcpu}\t{r}");
        }
    }
    // An example llvm-mc-19 rejects is a wrong field, unless it is one of the texts LLVM 19
    // prints but does not assemble back (`RDNA_REF_COUNT=all` checks every page).
    let unexplained: Vec<&String> = rejected.iter().filter(|t| !LLVM_PRINTS_NOT_ASSEMBLES.iter().any(|(m, _)| t.split_whitespace().next() == Some(m))).collect();
    assert!(unexplained.is_empty(), "{mcpu}: llvm-mc-19 rejects {} examples: {unexplained:?}", unexplained.len());
    Checked { examples: with_example.len() - rejected.len(), bumps, targets }
}

macro_rules! targets {
    ($($t:ident),*) => {$(
        #[test]
        fn $t() {
            let c = check(stringify!($t));
            assert!(c.examples > 0 && c.bumps > 0 && c.targets > 0);
        }
    )*};
}

targets!(gfx700, gfx803, gfx908, gfx90a, gfx942, gfx1010, gfx1030, gfx1100, gfx1150, gfx1200);

#[test]
fn every_swept_target_has_pages() {
    for isa in Isa::ALL {
        assert!(Reference::names(isa).len() > 300, "{}", isa.name());
    }
}

#[test]
fn every_vopd_page_matches_llvm() {
    // Every dual-issue operation, as X and as Y, on RDNA3 and RDNA4: llvm-mc-19 gives the
    // example's bytes, whose OPX/OPY fields hold the page's opcodes.
    for mcpu in ["gfx1100", "gfx1200"] {
        let isa = Target::from_name(mcpu).unwrap().isa;
        let mut reference = Reference::new();
        let pages: Vec<_> = Reference::names(isa).into_iter().filter(|n| n.starts_with("v_dual_")).map(|n| reference.page(isa, &n).unwrap()).collect();
        assert!(pages.len() >= 15, "{mcpu}: {} VOPD pages", pages.len());
        let encodings: Vec<&EncodingPage> = pages.iter().flat_map(|p| &p.encodings).collect();
        let texts: Vec<String> = encodings.iter().map(|e| e.example.as_ref().unwrap_or_else(|| panic!("{mcpu} {}: no example", e.mnemonic)).text.clone()).collect();
        for ((e, text), got) in encodings.iter().zip(&texts).zip(llvm_assemble(mcpu, &texts)) {
            let got = got.unwrap_or_else(|| panic!("{mcpu}: llvm-mc-19 rejects `{text}`"));
            assert_eq!(got, e.example.as_ref().unwrap().bytes, "{mcpu}: `{text}`");
            let w0 = u32::from_le_bytes(got[..4].try_into().unwrap());
            let field = if e.format.ends_with("(X)") { w0 >> 22 & 0xf } else { w0 >> 17 & 0x1f };
            assert_eq!(field, e.opcode, "{mcpu}: `{text}`");
        }
    }
}
