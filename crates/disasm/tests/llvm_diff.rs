//! Differential tests against llvm-mc-19, per swept target: random encodings and opcode walks must
//! print exactly as LLVM prints them (or be rejected where LLVM rejects them). Replay a run with
//! RDNA_SEED, list differences with --nocapture (RDNA_DIFF_REPORT sets how many).

mod common;

use common::{aimed_for, crashes_llvm, formats, llvm_first_texts, opcode_walk, random_probe, seed_from_env, Oracle, Rng};
use rdna_disasm::{to_text, Decoder, PrintOptions};
use rdna_isa::{Format, Isa, Target};

/// How many disagreements to print (RDNA_DIFF_REPORT, default 40).
fn report_limit() -> usize {
    std::env::var("RDNA_DIFF_REPORT").ok().and_then(|v| v.parse().ok()).unwrap_or(40)
}

/// Every mnemonic a target's tables list (what `rdna isa --list` prints), VOPD pairs included.
fn known_mnemonics(isa: Isa) -> std::collections::HashSet<&'static str> {
    let t = isa.tables();
    let mut names: std::collections::HashSet<&'static str> = Format::ALL.iter().flat_map(|f| t.get(*f).entries.iter().map(|e| e.name)).collect();
    if let Some((x, y)) = t.vopd {
        names.extend(x.iter().chain(y.iter()).copied());
    }
    names
}

struct Outcome {
    total: usize,
    /// Encodings on which llvm-mc-19 itself crashed (left out of the comparison).
    crashes: usize,
    /// Mnemonics llvm-mc printed that the tables do not list.
    unlisted: std::collections::BTreeSet<String>,
    agree: usize,
    report: Vec<String>,
}


fn compare(target: Target, encodings: &[Vec<u8>]) -> Outcome {
    let mattr = if target.wave64 { "+wavefrontsize64" } else { "" };
    let dec = Decoder::new(target);
    let (skipped, encodings): (Vec<Vec<u8>>, Vec<Vec<u8>>) = encodings.iter().cloned().partition(|b| crashes_llvm(b));
    // Where LLVM has no answer rdna must at least reject the encoding.
    for b in &skipped {
        assert!(dec.decode(b).is_err(), "reserved SDWA select accepted: {b:02x?}");
    }
    let encodings = &encodings[..];
    let oracle = llvm_first_texts(target.name, mattr, encodings);
    let opts = PrintOptions { wave64: target.wave64 };
    let known = known_mnemonics(target.isa);
    let mut out = Outcome { total: 0, agree: 0, crashes: skipped.len(), unlisted: Default::default(), report: Vec::new() };
    for (bytes, oracle) in encodings.iter().zip(oracle) {
        let want = match oracle {
            Oracle::Text(t) => Some(t),
            Oracle::Invalid => None,
            Oracle::Crash => {
                out.crashes += 1;
                if out.crashes <= 3 {
                    let hex: Vec<String> = bytes.iter().map(|b| format!("0x{b:02x}")).collect();
                    println!("  llvm-mc-19 crashes on {}", hex.join(","));
                }
                continue;
            }
        };
        out.total += 1;
        if let Some(m) = want.as_deref().and_then(|t| t.split_whitespace().next()) {
            if !known.contains(m) {
                out.unlisted.insert(m.to_string());
            }
        }
        let got = dec.decode(bytes).ok().map(|(i, _)| to_text(&i, opts));
        if got == want {
            out.agree += 1;
        } else if out.report.len() < report_limit() {
            let hex: Vec<String> = bytes.iter().map(|b| format!("0x{b:02x}")).collect();
            out.report.push(format!("{}\n    llvm: {:?}\n    rdna: {:?}", hex.join(","), want, got));
        }
    }
    out
}

/// Random encodings aimed at each format of the target (a known opcode, random other bits) plus
/// random words. Five dwords each: the longest encoding is a MIMG with three NSA dwords.
fn random_encodings(isa: Isa, rng: &mut Rng, n: usize) -> Vec<Vec<u8>> {
    let formats: Vec<Format> = formats(isa).collect();
    (0..n)
        .map(|i| {
            if i % 4 == 0 {
                random_probe(rng)
            } else {
                let f = formats[rng.below(formats.len() as u64) as usize];
                let t = isa.tables().get(f);
                let op = t.entries[rng.below(t.entries.len() as u64) as usize].op as u32;
                aimed_for(isa, f, op, rng)
            }
        })
        .collect()
}

fn run_random(mcpu: &str, wave64: bool, n: usize, min_rate: f64) {
    let seed = seed_from_env();
    let mut rng = Rng(seed);
    let target = Target { wave64, ..Target::from_name(mcpu).unwrap() };
    let enc = random_encodings(target.isa, &mut rng, n);
    let o = compare(target, &enc);
    let rate = o.agree as f64 / o.total as f64;
    assert!(o.total >= 100_000.min(n * 9 / 10), "only {} encodings compared", o.total);
    println!(
        "{mcpu} wave64={wave64}: {}/{} agree ({:.3}%), {} left out (llvm-mc crashes on them), seed {seed}",
        o.agree,
        o.total,
        rate * 100.0,
        o.crashes
    );
    for r in &o.report {
        println!("  {r}");
    }
    assert!(o.unlisted.is_empty(), "{mcpu}: mnemonics llvm-mc decodes but `rdna isa --list` lacks: {:?}", o.unlisted);
    assert!(rate >= min_rate, "{mcpu}: agreement {:.3}% below {:.3}% (replay with RDNA_SEED={seed})", rate * 100.0, min_rate * 100.0);
}

/// The share of encodings that must agree: the bar, 99.9%.
const MIN_RATE: f64 = 0.999;
/// gfx8/gfx9 meet the same bar.
const GCN_RATE: f64 = MIN_RATE;
/// gfx11 meets the same bar.
const GFX11_RATE: f64 = MIN_RATE;
/// gfx12 (RDNA4) meets the same bar.
const GFX12_RATE: f64 = MIN_RATE;


#[test]
fn gfx1030_random_encodings_match_llvm_wave32() {
    run_random("gfx1030", false, 103_000, MIN_RATE);
}

#[test]
fn gfx1030_random_encodings_match_llvm_wave64() {
    run_random("gfx1030", true, 103_000, MIN_RATE);
}

#[test]
fn gfx1010_random_encodings_match_llvm() {
    run_random("gfx1010", false, 103_000, MIN_RATE);
    run_random("gfx1010", true, 20_000, MIN_RATE);
    run_random("gfx1011", false, 20_000, MIN_RATE);
    run_random("gfx1012", false, 20_000, MIN_RATE);
}

#[test]
fn gfx1100_random_encodings_match_llvm() {
    run_random("gfx1100", false, 103_000, GFX11_RATE);
    run_random("gfx1100", true, 103_000, GFX11_RATE);
}

#[test]
fn gfx1150_random_encodings_match_llvm() {
    run_random("gfx1150", false, 103_000, GFX11_RATE);
    run_random("gfx1150", true, 20_000, GFX11_RATE);
}

#[test]
fn gfx1200_random_encodings_match_llvm() {
    run_random("gfx1200", false, 103_000, GFX12_RATE);
    run_random("gfx1200", true, 103_000, GFX12_RATE);
}

/// Every other llvm-mc-19 target decodes with the tables of a swept sibling (gfx906 with gfx900's,
/// gfx1103 with gfx1100's, ...): 20,000 random encodings each, at the same bar, and every mnemonic
/// LLVM prints for the sibling listed.
#[test]
fn sibling_targets_match_llvm() {
    for &(name, _, isa) in rdna_isa::target::TARGETS {
        let Some(isa) = isa else { continue };
        if name == isa.name() || !isa.generation().llvm_disassembles() || name.ends_with("-generic") {
            continue;
        }
        run_random(name, isa.generation().is_gcn(), 20_000, MIN_RATE);
    }
}

/// GCN and CDNA (gfx8, gfx9): wave64 only.
#[test]
fn gcn_random_encodings_match_llvm() {
    for mcpu in ["gfx803", "gfx900", "gfx908", "gfx90a", "gfx942"] {
        run_random(mcpu, true, 103_000, GCN_RATE);
    }
    // Swept targets of the same generations with instructions or layouts of their own.
    for mcpu in ["gfx810", "gfx904", "gfx906"] {
        run_random(mcpu, true, 20_000, GCN_RATE);
    }
}

/// Every opcode of every format of every swept target, twelve times with random operand and
/// modifier bits.
#[test]
fn opcode_walk_matches_llvm() {
    // gfx7 is checked by reassembly instead (gfx7_reassemble.rs): llvm-mc-19 cannot disassemble it.
    for isa in Isa::ALL.into_iter().filter(|i| i.generation().llvm_disassembles()) {
        let seed = seed_from_env();
        let enc = opcode_walk(isa, 12, &mut Rng(seed));
        let o = compare(Target::from_name(isa.name()).unwrap(), &enc);
        let rate = o.agree as f64 / o.total as f64;
        println!("{} opcode walk: {}/{} agree ({:.3}%), seed {seed}", isa.name(), o.agree, o.total, rate * 100.0);
        for r in &o.report {
            println!("  {r}");
        }
        let min = match isa.generation() {
            rdna_isa::Generation::Gfx7 | rdna_isa::Generation::Gfx8 | rdna_isa::Generation::Gfx9 => GCN_RATE,
            rdna_isa::Generation::Gfx11 => GFX11_RATE,
            rdna_isa::Generation::Gfx10 => MIN_RATE,
            rdna_isa::Generation::Gfx12 => GFX12_RATE,
        };
        assert!(o.unlisted.is_empty(), "{}: mnemonics llvm-mc decodes but `rdna isa --list` lacks: {:?}", isa.name(), o.unlisted);
        assert!(rate >= min, "walk agreement {:.3}% below {:.3}% (replay with RDNA_SEED={seed})", rate * 100.0, min * 100.0);
    }
}

#[test]
fn gws_operations_match_llvm() {
    // GWS operations with no operands print `gds` once, as their token (a sweep of random bits
    // rarely sets the gds bit on these opcodes, so they are checked by name).
    let texts: Vec<String> = ["ds_gws_sema_release_all gds", "ds_gws_sema_v gds", "ds_gws_sema_p gds", "ds_gws_init v1 gds", "ds_gws_barrier v2 offset:8 gds"]
        .iter()
        .map(|t| t.to_string())
        .collect();
    for mcpu in ["gfx803", "gfx900", "gfx908", "gfx1030", "gfx1100"] {
        let enc: Vec<Vec<u8>> = common::llvm_assemble(mcpu, &texts).into_iter().map(|b| b.expect("llvm-mc-19 assembles GWS operations")).collect();
        let o = compare(Target::from_name(mcpu).unwrap(), &enc);
        assert_eq!((o.agree, o.total), (texts.len(), texts.len()), "{mcpu}: {:?}", o.report);
    }
}
