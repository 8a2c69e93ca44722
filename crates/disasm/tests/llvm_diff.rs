//! Differential tests against llvm-mc-19: random encodings and opcode walks must print exactly as
//! LLVM prints them (or be rejected where LLVM rejects them).

mod common;

use common::{aimed, crashes_llvm, gfx10_formats, llvm_first_texts, random_probe, seed_from_env, Oracle, Rng};
use rdna_disasm::{to_text, Decoder, PrintOptions};
use rdna_isa::{Format, Target};




/// How many disagreements to print (RDNA_DIFF_REPORT, default 40).
fn report_limit() -> usize {
    std::env::var("RDNA_DIFF_REPORT").ok().and_then(|v| v.parse().ok()).unwrap_or(40)
}

/// Every mnemonic the tables list (what `rdna isa --list` prints).
fn known_mnemonics() -> std::collections::HashSet<&'static str> {
    Format::ALL.iter().flat_map(|f| f.gfx10_table().entries.iter().map(|e| e.name)).collect()
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
    let (skipped, encodings): (Vec<Vec<u8>>, Vec<Vec<u8>>) = encodings.iter().cloned().partition(|b| crashes_llvm(b));
    let dec = Decoder::new(target);
    // Where LLVM has no answer rdna must at least reject the encoding.
    for b in &skipped {
        assert!(dec.decode(b).is_err(), "reserved SDWA select accepted: {b:02x?}");
    }
    let encodings = &encodings[..];
    let oracle = llvm_first_texts(target.name, mattr, encodings);
    let opts = PrintOptions { wave64: target.wave64 };
    let known = known_mnemonics();
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

/// Random encodings aimed at each format (a known opcode, random other bits) plus random words.
/// Five dwords each: the longest gfx10 encoding is a MIMG with three NSA dwords.
fn random_encodings(rng: &mut Rng, n: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|i| {
            if i % 4 == 0 {
                random_probe(rng)
            } else {
                let formats: Vec<Format> = gfx10_formats().collect();
                let f = formats[rng.below(formats.len() as u64) as usize];
                let t = f.gfx10_table();
                let op = t.entries[rng.below(t.entries.len() as u64) as usize].op as u32;
                aimed(f, op, rng)
            }
        })
        .collect()
}

fn run_random(wave64: bool, n: usize, min_rate: f64) {
    let seed = seed_from_env();
    let mut rng = Rng(seed);
    let mut target = Target::from_name("gfx1030").unwrap();
    target.wave64 = wave64;
    let enc = random_encodings(&mut rng, n);
    let o = compare(target, &enc);
    let rate = o.agree as f64 / o.total as f64;
    assert!(o.total >= 100_000, "only {} encodings compared", o.total);
    println!(
        "gfx1030 wave64={wave64}: {}/{} agree ({:.3}%), {} left out (llvm-mc crashes on them), seed {seed}",
        o.agree,
        o.total,
        rate * 100.0,
        o.crashes
    );
    for r in &o.report {
        println!("  {r}");
    }
    assert!(o.unlisted.is_empty(), "mnemonics llvm-mc decodes but `rdna isa --list` lacks: {:?}", o.unlisted);
    assert!(rate >= min_rate, "agreement {:.3}% below {:.3}% (replay with RDNA_SEED={seed})", rate * 100.0, min_rate * 100.0);
}

/// The share of encodings that must agree: the bar, 99.9%.
const MIN_RATE: f64 = 0.999;

#[test]
fn random_encodings_match_llvm_wave32() {
    run_random(false, 103_000, MIN_RATE);
}

#[test]
fn random_encodings_match_llvm_wave64() {
    run_random(true, 103_000, MIN_RATE);
}

/// Every opcode of every format, four times with random operand and modifier bits.
#[test]
fn opcode_walk_matches_llvm() {
    let seed = seed_from_env();
    let mut rng = Rng(seed);
    let mut enc = Vec::new();
    for f in gfx10_formats() {
        for e in f.gfx10_table().entries {
            for _ in 0..4 {
                enc.push(aimed(f, e.op as u32, &mut rng));
            }
        }
    }
    let o = compare(Target::from_name("gfx1030").unwrap(), &enc);
    let rate = o.agree as f64 / o.total as f64;
    println!("opcode walk: {}/{} agree ({:.3}%), seed {seed}", o.agree, o.total, rate * 100.0);
    for r in &o.report {
        println!("  {r}");
    }
    assert!(o.unlisted.is_empty(), "mnemonics llvm-mc decodes but `rdna isa --list` lacks: {:?}", o.unlisted);
    assert!(rate >= MIN_RATE, "walk agreement {:.3}% below {:.3}% (replay with RDNA_SEED={seed})", rate * 100.0, MIN_RATE * 100.0);
}
