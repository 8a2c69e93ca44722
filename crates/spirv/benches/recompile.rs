//! Recompile latency: code object bytes → decoded program → control-flow graph → SPIR-V words,
//! per kernel of the test corpus (gfx1030 and gfx1100, wave32 and wave64), on one core. Reports
//! the median and worst kernel, the cost per 1,000 instructions, how it grows with kernel size,
//! and, as a peer measured in the same run, `spirv-val` checking the same modules.
//! Run with `cargo bench -p rdna-spirv` (needs clang-19, ld.lld-19 and spirv-val). The
//! allocator is the `rdna` binary's (mimalloc), so the figures are the command's.

use std::process::Command;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::time::{Duration, Instant};

struct Row {
    name: String,
    instructions: usize,
    through_ir: usize,
    words: usize,
    /// Median of the repetitions.
    time: Duration,
    spirv_val: Duration,
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn spirv_val_time(words: &[u32], dir: &std::path::Path) -> Duration {
    let p = dir.join("bench.spv");
    std::fs::write(&p, words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
    let t = Instant::now();
    let st = Command::new("spirv-val").args(["--target-env", "vulkan1.3"]).arg(&p).status().expect("spirv-val (spirv-tools)");
    let elapsed = t.elapsed();
    assert!(st.success(), "spirv-val rejected a module");
    elapsed
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    // `cargo test --benches` runs this without --bench: one target, one repetition.
    let quick = !std::env::args().any(|a| a == "--bench");
    let reps = if quick { 1 } else { 21 };
    let dir = rdna_testkit::scratch();
    let mut rows = Vec::new();
    for rdna_testkit::Build { mcpu, lanes, co } in rdna_testkit::corpus_builds("bench") {
        if quick && mcpu == "gfx1100" {
            continue;
        }
        for k in &co.kernels {
            let (_, wg) = rdna_testkit::plain_grid(k);
            let Ok(first) = rdna_spirv::recompile(&co, k, wg, 0, rdna_spirv::WaveModel::Exact) else { continue };
            let times = (0..reps)
                .map(|_| {
                    let t = Instant::now();
                    let c = rdna_spirv::recompile(&co, k, wg, 0, rdna_spirv::WaveModel::Exact).unwrap();
                    let d = t.elapsed();
                    std::hint::black_box(c);
                    d
                })
                .collect();
            rows.push(Row {
                name: format!("{mcpu}-w{lanes}-{}", k.name),
                instructions: first.instructions,
                through_ir: first.through_ir,
                words: first.words.len(),
                time: median(times),
                spirv_val: spirv_val_time(&first.words, &dir),
            });
        }
    }
    assert!(!rows.is_empty(), "no kernel recompiled");
    rows.sort_by_key(|r| r.time);
    let total_inst: usize = rows.iter().map(|r| r.instructions).sum();
    let total: Duration = rows.iter().map(|r| r.time).sum();
    let total_val: Duration = rows.iter().map(|r| r.spirv_val).sum();
    let worst = rows.last().unwrap();
    println!("recompile latency, one core, median of {reps} runs per kernel, {} kernels that recompile:", rows.len());
    println!("  median kernel   {:>8.3} ms   ({})", ms(rows[rows.len() / 2].time), rows[rows.len() / 2].name);
    println!("  worst kernel    {:>8.3} ms   ({}, {} instructions, {} SPIR-V words)", ms(worst.time), worst.name, worst.instructions, worst.words);
    println!("  per 1,000 instructions {:>8.3} ms   (all kernels: {} instructions in {:.2} ms)", ms(total) * 1000.0 / total_inst as f64, total_inst, ms(total));
    let through_ir: usize = rows.iter().map(|r| r.through_ir).sum();
    println!("  through the IR   {through_ir} of {total_inst} instructions ({:.0}%), the rest lowered from decoded steps", 100.0 * through_ir as f64 / total_inst as f64);
    // Growth with size: cost per instruction for small, middle and large thirds of the kernels.
    let mut by_size: Vec<&Row> = rows.iter().collect();
    by_size.sort_by_key(|r| r.instructions);
    println!("  by kernel size (µs per instruction):");
    for part in by_size.chunks(by_size.len().div_ceil(3)) {
        let (i, t): (usize, Duration) = (part.iter().map(|r| r.instructions).sum(), part.iter().map(|r| r.time).sum());
        println!(
            "    {:>4}–{:<4} instructions: {:>6.2}",
            part.first().unwrap().instructions,
            part.last().unwrap().instructions,
            t.as_secs_f64() * 1e6 / i as f64
        );
    }
    println!(
        "  peer: spirv-val on the same modules takes {:.1} ms in all (process start included); recompiling takes {:.2}× that",
        ms(total_val),
        total.as_secs_f64() / total_val.as_secs_f64()
    );
}
