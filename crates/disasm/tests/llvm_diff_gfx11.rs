//! gfx11 (gfx1100) against llvm-mc-19: random encodings aimed at each gfx11 format, in wave32 and
//! wave64. Measured at about 99.15% (the known gaps: EXP, MIMG, VINTERP and LDSDIR are not decoded
//! yet, a few VOPD validity rules, WMMA shapes in wave64); the generations issue raises the bar to
//! 99.9%. Replay with RDNA_SEED, list differences with --nocapture.

mod common;

use common::{aimed_gfx11, gfx11_formats, llvm_first_texts, random_probe, seed_from_env, Oracle, Rng};
use rdna_disasm::{to_text, Decoder, PrintOptions};
use rdna_isa::{Format, Target};

fn measure(wave64: bool, n: usize) -> (usize, usize, Vec<String>) {
    let seed = seed_from_env();
    let mut rng = Rng(seed);
    let formats: Vec<Format> = gfx11_formats().collect();
    let enc: Vec<Vec<u8>> = (0..n)
        .map(|i| {
            if i % 4 == 0 {
                random_probe(&mut rng)
            } else {
                let f = formats[rng.below(formats.len() as u64) as usize];
                let t = f.gfx11_table();
                let op = t.entries[rng.below(t.entries.len() as u64) as usize].op as u32;
                aimed_gfx11(f, op, &mut rng)
            }
        })
        .collect();
    let target = Target { wave64, ..Target::from_name("gfx1100").unwrap() };
    let dec = Decoder::new(target);
    let oracle = llvm_first_texts("gfx1100", if wave64 { "+wavefrontsize64" } else { "" }, &enc);
    let (mut agree, mut total, mut report) = (0, 0, Vec::new());
    for (bytes, o) in enc.iter().zip(oracle) {
        let want = match o {
            Oracle::Text(t) => Some(t),
            Oracle::Invalid => None,
            Oracle::Crash => continue,
        };
        total += 1;
        let got = dec.decode(bytes).ok().map(|(i, _)| to_text(&i, PrintOptions { wave64 }));
        if got == want {
            agree += 1;
        } else if report.len() < std::env::var("RDNA_DIFF_REPORT").ok().and_then(|v| v.parse().ok()).unwrap_or(40) {
            let hex: Vec<String> = bytes.iter().map(|b| format!("0x{b:02x}")).collect();
            report.push(format!("{}\n    llvm: {:?}\n    rdna: {:?}", hex.join(","), want, got));
        }
    }
    println!("gfx1100 wave64={wave64}: {agree}/{total} agree ({:.2}%), seed {seed}", 100.0 * agree as f64 / total as f64);
    (agree, total, report)
}

#[test]
fn gfx1100_random_encodings_against_llvm() {
    for wave64 in [false, true] {
        let (agree, total, report) = measure(wave64, 30_000);
        for r in &report {
            println!("  {r}");
        }
        assert!(agree as f64 >= 0.985 * total as f64, "gfx1100 wave64={wave64}: {agree}/{total} below 98.5%");
    }
}
