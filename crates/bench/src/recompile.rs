//! Recompilation: code object → decoded program → control-flow graph → SPIR-V words, per kernel
//! of the test corpus (gfx1030 and gfx1100, wave32 and wave64), on one core; every module
//! checked by spirv-val, which is also the peer: the time it takes to validate the same modules.

use std::process::Command;
use std::time::{Duration, Instant};

use crate::report::{Chart, Figure, Report, Series};
use crate::util::Ctx;

struct Row {
    instructions: usize,
    /// Median of the repetitions.
    time: Duration,
    spirv_val: Duration,
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// spirv-val's time on a module (process start included), or its complaint.
fn spirv_val(words: &[u32], path: &std::path::Path) -> Result<Duration, String> {
    std::fs::write(path, words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>()).map_err(|e| e.to_string())?;
    let t = Instant::now();
    let out = Command::new("spirv-val").args(["--target-env", "vulkan1.3"]).arg(path).output().map_err(|e| format!("spirv-val (spirv-tools): {e}"))?;
    let elapsed = t.elapsed();
    if !out.status.success() {
        return Err(format!("spirv-val rejected {}: {}", path.display(), String::from_utf8_lossy(&out.stderr)));
    }
    Ok(elapsed)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

pub fn run(cx: &Ctx, r: &mut Report) -> Result<(), String> {
    let reps = cx.reps(21);
    let spv = cx.dir("recompile")?.join("module.spv");
    let mut rows = Vec::new();
    let mut refused = 0;
    for rdna_testkit::Build { mcpu, co, .. } in rdna_testkit::corpus_builds("bench") {
        if cx.quick && mcpu == "gfx1100" {
            continue;
        }
        for k in &co.kernels {
            let (_, wg) = rdna_testkit::plain_grid(k);
            let Ok(first) = rdna_spirv::recompile(&co, k, wg, 0, rdna_spirv::WaveModel::Exact) else {
                refused += 1;
                continue;
            };
            let times = (0..reps)
                .map(|_| {
                    let t = Instant::now();
                    let c = rdna_spirv::recompile(&co, k, wg, 0, rdna_spirv::WaveModel::Exact);
                    let d = t.elapsed();
                    std::hint::black_box(c).ok();
                    d
                })
                .collect();
            rows.push(Row { instructions: first.instructions, time: median(times), spirv_val: spirv_val(&first.words, &spv)? });
        }
    }
    if rows.is_empty() {
        return Err("no kernel of the corpus recompiled".into());
    }
    rows.sort_by_key(|r| r.time);
    let insts: usize = rows.iter().map(|r| r.instructions).sum();
    let total: Duration = rows.iter().map(|r| r.time).sum();
    let total_val: Duration = rows.iter().map(|r| r.spirv_val).sum();
    let worst = rows.last().unwrap();
    let n = rows.len();
    r.add(Figure {
        section: "recompilation",
        what: format!("all {n} kernels ({insts} instructions, median of {reps} each): time ÷ instructions, per 1,000"),
        ours: ms(total) * 1000.0 / insts as f64,
        unit: "ms",
        peer: Some(("spirv-val on the same modules".into(), ms(total_val) * 1000.0 / insts as f64)),
        higher_is_better: false,
        aim: Some("≤ 1 ms".into()),
    });
    // Time = fixed + per-instruction cost, fitted by least squares over the kernels: the slope is
    // what 1,000 more instructions cost, the intercept what every module costs (types,
    // constants, wave set-up, the dispatch loop) however small the kernel.
    let pts: Vec<(f64, f64)> = rows.iter().map(|r| (r.instructions as f64, ms(r.time))).collect();
    let (slope, intercept) = crate::util::fit(&pts);
    r.add(Figure { section: "recompilation", what: "marginal cost per 1,000 instructions (slope of time against size)".into(), ours: slope * 1000.0, unit: "ms", peer: None, higher_is_better: false, aim: Some("≤ 1 ms".into()) });
    r.add(Figure { section: "recompilation", what: "fixed cost per kernel (intercept)".into(), ours: intercept, unit: "ms", peer: None, higher_is_better: false, aim: None });
    r.add(Figure { section: "recompilation", what: "median kernel".into(), ours: ms(rows[n / 2].time), unit: "ms", peer: None, higher_is_better: false, aim: None });
    r.add(Figure { section: "recompilation", what: format!("largest-time kernel ({} instructions)", worst.instructions), ours: ms(worst.time), unit: "ms", peer: None, higher_is_better: false, aim: None });
    if refused > 0 {
        r.notes.push(format!("recompilation: {refused} kernel builds of the corpus are refused by the recompiler (named errors) and not timed"));
    }
    r.charts.push(Chart {
        title: "Recompile time per kernel against its size".into(),
        x: "instructions",
        y: "milliseconds",
        series: vec![Series { name: "recompile (median)".into(), points: rows.iter().map(|r| (r.instructions as f64, ms(r.time))).collect(), line: false }],
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn fit_finds_the_line() {
        let (s, i) = crate::util::fit(&[(0.0, 1.0), (10.0, 21.0), (20.0, 41.0)]);
        assert!((s - 2.0).abs() < 1e-12 && (i - 1.0).abs() < 1e-12);
    }
}
