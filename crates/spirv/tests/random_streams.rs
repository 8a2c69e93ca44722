//! Random valid instruction streams through the recompiler, as a kernel no test has seen: it
//! must never panic, report an internal error or write a module spirv-val rejects; a stream it
//! cannot recompile is refused with its sites. (The recompiled results are compared with the
//! emulator's by the corpus tests of `rdna-vk`.)

use rdna_disasm::Decoder;
use rdna_spirv::{RecompileError, WaveModel};
use rdna_testkit::Rng;

#[test]
fn random_streams_recompile_to_valid_spirv_or_are_refused() {
    let seed = std::env::var("RDNA_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed_4321_u64);
    println!("seed {seed} (RDNA_SEED replays)");
    let count: usize = std::env::var("RDNA_STREAMS").ok().and_then(|s| s.parse().ok()).unwrap_or(150);
    let mut rng = Rng(seed | 1);
    let (mut valid, mut refused, mut problems) = (0, 0, Vec::new());
    let mut reasons: std::collections::BTreeMap<String, usize> = Default::default();
    // RDNA_STREAM_REASON=TEXT prints the sites refused for a reason containing TEXT.
    let show = std::env::var("RDNA_STREAM_REASON").ok();
    for (mcpu, wave64) in [("gfx1030", false), ("gfx1030", true), ("gfx1100", false), ("gfx1100", true)] {
        let mut co = rdna_testkit::stream_template(mcpu, wave64);
        let entry = (co.kernels[0].entry - co.text_addr) as usize;
        let dec = Decoder::new(rdna_isa::Target { wave64, ..rdna_isa::Target::from_name(mcpu).unwrap() });
        let nops = co.text[entry..entry + 4 * 128].to_vec();
        for n in 0..count {
            // Up to 12 random words that decode (a quarter of them SALU, so that branches stay
            // near), then s_endpgm.
            let mut code = Vec::new();
            while code.len() / 4 < 12 {
                code.extend(rng.instruction(&dec, 4).1);
            }
            code.extend_from_slice(&0xbf81_0000u32.to_le_bytes());
            co.text[entry..entry + nops.len()].copy_from_slice(&nops);
            co.text[entry..entry + code.len()].copy_from_slice(&code);
            let words: Vec<String> = code.chunks(4).map(|c| format!("{:#010x}", u32::from_le_bytes(c.try_into().unwrap()))).collect();
            let what = format!("{mcpu} wave{} stream {n}: {}", if wave64 { 64 } else { 32 }, words.join(" "));
            for model in [WaveModel::Exact, WaveModel::Subgroup] {
                let k = &co.kernels[0];
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| rdna_spirv::recompile(&co, k, [64, 1, 1], 0, model)));
                match r {
                    Err(_) => problems.push(format!("{what} ({model}): panicked")),
                    Ok(Ok(c)) => match rdna_testkit::spirv_val(&c.words, &format!("stream-{mcpu}-{n}")) {
                        Ok(()) => valid += 1,
                        Err(e) => problems.push(format!("{what} ({model}): spirv-val: {e}")),
                    },
                    Ok(Err(RecompileError::Unsupported(sites))) => {
                        if let Some(s) = sites.iter().find(|s| s.reason.contains("internal")) {
                            problems.push(format!("{what} ({model}): {}", s.reason));
                        }
                        for s in &sites {
                            if show.as_ref().is_some_and(|t| s.reason.contains(t.as_str())) {
                                println!("{what} ({model}): {s}");
                            }
                            *reasons.entry(s.reason.chars().filter(|c| !c.is_ascii_digit()).collect()).or_default() += 1;
                        }
                        refused += 1;
                    }
                    Ok(Err(e)) => {
                        if e.to_string().contains("internal") {
                            problems.push(format!("{what} ({model}): {e}"));
                        }
                        if let RecompileError::Flow(f) = &e {
                            for s in &f.0 {
                                *reasons.entry(s.reason.chars().filter(|c| !c.is_ascii_digit()).collect()).or_default() += 1;
                            }
                        }
                        refused += 1;
                    }
                }
            }
        }
    }
    println!("{valid} modules valid, {refused} refused; the commonest reasons:");
    let mut top: Vec<_> = reasons.into_iter().collect();
    top.sort_by(|a, b| b.1.cmp(&a.1));
    for (r, n) in top.iter().take(8) {
        println!("  {n:6}  {r}");
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
    assert!(valid > count / 2, "only {valid} streams recompiled");
}
