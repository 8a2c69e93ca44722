//! The assembler against llvm-mc-19: random valid encodings (fresh each run; replay with
//! `RDNA_SEED`) are decoded and printed, and each text is assembled by rdna and by
//! `llvm-mc-19 -show-encoding`; the bytes must agree for at least 99.9% of the texts LLVM accepts.
//! `RDNA_ASM_COUNT` sets the number per target (default 100,000); an opcode walk (every opcode of
//! every format, three random encodings each) comes on top.

#[path = "../../disasm/tests/common/mod.rs"]
mod common;

use common::{aimed_for, formats, llvm_assemble, opcode_walk, seed_from_env, Rng};
use rdna_disasm::{Decoder, PrintOptions};
use rdna_isa::Target;

fn count() -> usize {
    std::env::var("RDNA_ASM_COUNT").ok().and_then(|s| s.parse().ok()).unwrap_or(100_000)
}

/// `n` printed texts of random valid encodings for `target`.
fn random_texts(target: Target, n: usize, rng: &mut Rng) -> Vec<String> {
    let dec = Decoder::new(target);
    let fmts: Vec<_> = formats(target.isa).collect();
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let f = fmts[rng.below(fmts.len() as u64) as usize];
        let entries = target.isa.tables().get(f).entries;
        let e = &entries[rng.below(entries.len() as u64) as usize];
        let bytes = aimed_for(target.isa, f, e.op as u32, rng);
        let Ok((inst, _)) = dec.decode(&bytes) else { continue };
        let text = rdna_disasm::to_text(&inst, PrintOptions::default());
        if text != "<unprintable>" {
            out.push(text);
        }
    }
    out
}

/// The texts of an opcode walk: every opcode of every format, `times` random encodings each.
fn walk_texts(target: Target, times: usize, rng: &mut Rng) -> Vec<String> {
    let dec = Decoder::new(target);
    opcode_walk(target.isa, times, rng)
        .iter()
        .filter_map(|b| dec.decode(b).ok())
        .map(|(inst, _)| rdna_disasm::to_text(&inst, PrintOptions::default()))
        .filter(|t| t != "<unprintable>")
        .collect()
}

fn roundtrip(mcpu: &str) {
    let seed = seed_from_env();
    let mut rng = Rng(seed);
    let target = Target::from_name(mcpu).unwrap();
    let mut texts = random_texts(target, count(), &mut rng);
    // Every opcode, so that no instruction goes untested because random sampling missed it.
    texts.extend(walk_texts(target, 3, &mut rng));
    let llvm: Vec<Option<Vec<u8>>> = texts.chunks(20_000).flat_map(|c| llvm_assemble(mcpu, c)).collect();
    let mut asm = rdna_asm::Assembler::new(target);
    let (mut compared, mut same, mut rejected) = (0usize, 0usize, 0usize);
    let mut report = Vec::new();
    for (text, want) in texts.iter().zip(&llvm) {
        let Some(want) = want else {
            rejected += 1;
            continue;
        };
        compared += 1;
        match asm.assemble_stmt(text, 1) {
            Ok(got) if &got == want => same += 1,
            Ok(got) => report.push(format!("{text}\n    rdna {got:02x?}\n    llvm {want:02x?}")),
            Err(e) => report.push(format!("{text}\n    rdna error: {e}\n    llvm {want:02x?}")),
        }
    }
    let rate = same as f64 / compared.max(1) as f64;
    println!(
        "{mcpu}: {same}/{compared} texts assemble to llvm-mc-19's bytes ({:.3}%); {rejected} texts llvm-mc rejects; seed {seed}",
        100.0 * rate
    );
    let shown = std::env::var("RDNA_DIFF_REPORT").ok().and_then(|s| s.parse().ok()).unwrap_or(10);
    for r in report.iter().take(shown) {
        println!("  {r}");
    }
    assert!(compared >= texts.len() * 7 / 10, "{mcpu}: llvm-mc rejected too many texts ({rejected})");
    assert!(rate >= 0.999, "{mcpu}: only {:.3}% assemble like llvm-mc-19 (seed {seed})", 100.0 * rate);
}

#[test]
fn gfx700_matches_llvm() {
    roundtrip("gfx700");
}

#[test]
fn gfx908_matches_llvm() {
    roundtrip("gfx908");
}

#[test]
fn gfx942_matches_llvm() {
    roundtrip("gfx942");
}

#[test]
fn gfx1030_matches_llvm() {
    roundtrip("gfx1030");
}

#[test]
fn gfx1100_matches_llvm() {
    roundtrip("gfx1100");
}

#[test]
fn gfx1200_matches_llvm() {
    roundtrip("gfx1200");
}
