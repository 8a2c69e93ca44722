//! gfx6 and gfx7 (GCN1, GCN2, PS4): llvm-mc-19 cannot disassemble them, so the oracle runs the
//! other way. Random encodings aimed at every opcode are decoded and printed by rdna; each printed
//! instruction must assemble with `llvm-mc-19 -mcpu=gfx600` / `gfx700` `-show-encoding` back to the
//! bytes it was decoded from. Replay a run with RDNA_SEED; RDNA_DIFF_REPORT sets how many differences are listed.

mod common;

use common::{aimed_for, formats, llvm_assemble, opcode_walk, seed_from_env, Rng};
use rdna_disasm::{to_text, Decoder, PrintOptions};
use rdna_isa::{Isa, Target};

const MIN_RATE: f64 = 0.999;

fn report_limit() -> usize {
    std::env::var("RDNA_DIFF_REPORT").ok().and_then(|v| v.parse().ok()).unwrap_or(40)
}

struct Outcome {
    decoded: usize,
    agree: usize,
    report: Vec<String>,
}

/// Decodes and prints each encoding; the printed ones are assembled and compared byte for byte.
fn reassemble(isa: Isa, encodings: &[Vec<u8>]) -> Outcome {
    let target = Target::from_name(isa.name()).unwrap();
    let dec = Decoder::new(target);
    let opts = PrintOptions { wave64: true };
    let mut printed = Vec::new();
    for b in encodings {
        if let Ok((inst, len)) = dec.decode(b) {
            printed.push((b[..len].to_vec(), to_text(&inst, opts)));
        }
    }
    let lines: Vec<String> = printed.iter().map(|(_, t)| t.clone()).collect();
    let asm = llvm_assemble(isa.name(), &lines);
    let mut out = Outcome { decoded: printed.len(), agree: 0, report: Vec::new() };
    for ((bytes, text), got) in printed.iter().zip(asm) {
        if got.as_deref() == Some(&bytes[..]) {
            out.agree += 1;
        } else if out.report.len() < report_limit() {
            out.report.push(format!("{text}\n    decoded from {:02x?}\n    llvm-mc-19 gives {:02x?}", bytes, got));
        }
    }
    out
}

fn check(isa: Isa, what: &str, encodings: &[Vec<u8>], seed: u64, min_decoded: usize) {
    let o = reassemble(isa, encodings);
    let rate = o.agree as f64 / o.decoded.max(1) as f64;
    let name = isa.name();
    println!("{name} {what}: {}/{} decoded encodings reassemble to their bytes ({:.3}%), seed {seed}", o.agree, o.decoded, rate * 100.0);
    for r in &o.report {
        println!("  {r}");
    }
    assert!(o.decoded >= min_decoded, "only {} of {} encodings decoded", o.decoded, encodings.len());
    assert!(rate >= MIN_RATE, "{name} {what}: {:.3}% below {:.3}% (replay with RDNA_SEED={seed})", rate * 100.0, MIN_RATE * 100.0);
}

/// Random encodings aimed at a random opcode of a random format.
fn random_encodings_reassemble(isa: Isa) {
    let seed = seed_from_env();
    let mut rng = Rng(seed);
    let fmts: Vec<_> = formats(isa).collect();
    let enc: Vec<Vec<u8>> = (0..150_000)
        .map(|_| {
            let f = fmts[rng.below(fmts.len() as u64) as usize];
            let t = isa.tables().get(f);
            let op = t.entries[rng.below(t.entries.len() as u64) as usize].op as u32;
            aimed_for(isa, f, op, &mut rng)
        })
        .collect();
    check(isa, "random encodings", &enc, seed, 100_000);
}

/// Every opcode, twelve times with random operand and modifier bits.
fn opcode_walk_reassembles(isa: Isa) {
    let seed = seed_from_env();
    let enc = opcode_walk(isa, 12, &mut Rng(seed));
    let n = enc.len();
    check(isa, "opcode walk", &enc, seed, n / 2);
}

#[test]
fn gfx700_random_encodings_reassemble() {
    random_encodings_reassemble(Isa::Gfx700);
}

#[test]
fn gfx700_opcode_walk_reassembles() {
    opcode_walk_reassembles(Isa::Gfx700);
}

#[test]
fn gfx600_random_encodings_reassemble() {
    random_encodings_reassemble(Isa::Gfx600);
}

#[test]
fn gfx600_opcode_walk_reassembles() {
    opcode_walk_reassembles(Isa::Gfx600);
}
