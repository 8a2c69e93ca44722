//! Byte → text tables for every format, and a table of encodings LLVM rejects. Both come from
//! llvm-mc-19 (never from rdna) and are checked in, so this test runs without LLVM installed.
//! Regenerate with `RDNA_BLESS=1 cargo test -p rdna-disasm --test golden` (needs llvm-mc-19).

mod common;

use std::path::PathBuf;

use common::{aimed, crashes_llvm, gfx10_formats, hex_bytes, llvm_first_texts, parse_hex_line, random_probe, Oracle, Rng};
use rdna_disasm::{to_text, Decoder, PrintOptions};
use rdna_isa::Target;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// Two encodings per opcode of every format, plus uniform random words, with a fixed seed.
fn candidates() -> Vec<Vec<u8>> {
    let mut rng = Rng(0x5eed_0001);
    let mut v = Vec::new();
    for f in gfx10_formats() {
        let entries = rdna_isa::Isa::Gfx1030.tables().get(f).entries;
        // Two per opcode, and at least 32 per format.
        let per_op = 2.max(32 / entries.len());
        for e in entries {
            for _ in 0..per_op {
                v.push(aimed(f, e.op as u32, &mut rng));
            }
        }
    }
    for _ in 0..4000 {
        v.push(random_probe(&mut rng));
    }
    v.retain(|b| !crashes_llvm(b));
    v
}

fn bless() {
    let enc = candidates();
    let oracle = llvm_first_texts("gfx1030", "", &enc);
    let mut golden = String::from("# gfx1030: bytes # llvm-mc-19 text. Generated: RDNA_BLESS=1 cargo test -p rdna-disasm --test golden\n");
    let mut invalid = String::from("# gfx1030: encodings llvm-mc-19 rejects. Generated: RDNA_BLESS=1 cargo test -p rdna-disasm --test golden\n");
    for (b, o) in enc.iter().zip(oracle) {
        match o {
            Oracle::Text(t) => golden.push_str(&format!("{} # {t}\n", hex_bytes(b))),
            Oracle::Invalid => invalid.push_str(&format!("{}\n", hex_bytes(b))),
            Oracle::Crash => {}
        }
    }
    std::fs::write(data("gfx1030.golden"), golden).unwrap();
    std::fs::write(data("gfx1030.invalid"), invalid).unwrap();
}

fn lines(name: &str) -> Vec<String> {
    // With RDNA_BLESS set, rewrite both tables first (once, before either test reads them).
    static BLESS: std::sync::Once = std::sync::Once::new();
    if std::env::var_os("RDNA_BLESS").is_some() {
        BLESS.call_once(bless);
    }
    std::fs::read_to_string(data(name))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn golden_texts() {
    let dec = Decoder::new(Target::from_name("gfx1030").unwrap());
    let mut bad = Vec::new();
    let all = lines("gfx1030.golden");
    let mut formats = std::collections::BTreeSet::new();
    for l in &all {
        let (hex, want) = l.split_once(" # ").unwrap();
        let bytes = parse_hex_line(hex);
        let got = dec.decode(&bytes).map(|(i, _)| {
            formats.insert(i.format.name());
            to_text(&i, PrintOptions::default())
        });
        if got.as_deref() != Ok(want) {
            bad.push(format!("{hex}\n    llvm: {want}\n    rdna: {got:?}"));
        }
    }
    assert!(all.len() > 3000, "golden table too small");
    let missing: Vec<&str> = gfx10_formats().map(|f| f.name()).filter(|n| !formats.contains(n)).collect();
    assert!(missing.is_empty(), "formats without golden entries: {missing:?}");
    assert!(bad.is_empty(), "{} of {} golden lines differ:\n{}", bad.len(), all.len(), bad.join("\n"));
}

#[test]
fn invalid_encodings_are_rejected() {
    let dec = Decoder::new(Target::from_name("gfx1030").unwrap());
    let all = lines("gfx1030.invalid");
    assert!(all.len() > 500);
    let accepted: Vec<String> = all
        .iter()
        .filter_map(|l| {
            let b = parse_hex_line(l);
            dec.decode(&b).ok().map(|(i, _)| format!("{l} -> {}", to_text(&i, PrintOptions::default())))
        })
        .collect();
    assert!(accepted.is_empty(), "{} of {} invalid encodings decoded:\n{}", accepted.len(), all.len(), accepted.join("\n"));
}
