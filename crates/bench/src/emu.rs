//! Emulation: wave-instructions/s and lane-ops/s on ALU-bound, memory-bound and
//! LDS/barrier-bound kernels (tests/kernels/bench.cl), on one core and on all cores, and how the
//! time grows with kernel length and with grid size.

use std::time::Instant;

use std::path::Path;

use rdna_emu::dispatch::{Arg, BufferSpec, DispatchFile, Prepared};
use rdna_emu::{Memory, Options};

use crate::report::{Chart, Figure, Report, Series};
use crate::util::Ctx;

/// remu (tinygrad's RDNA3 emulator) as its authors describe it: about 1–2 M wave-instructions/s
/// on an ALU loop. It cannot be built here (no network), so this is the published figure.
const REMU_WAVE_INST_PER_S: f64 = 1.5e6;

struct Measured {
    secs: f64,
    insts: u64,
    lane_ops: u64,
}

/// Runs `kernel` over `groups` workgroups of 256 with zeroed buffers of the given sizes and the
/// given u32 arguments (laid out by the dispatch-file code, as `rdna run` does); the best of
/// `reps` runs, timing the emulator alone.
fn measure(co: &Path, kernel: &str, groups: u32, bufs: &[usize], args: &[u32], threads: usize, reps: usize) -> Result<Measured, String> {
    let file = DispatchFile {
        code_object: co.to_string_lossy().into_owned(),
        kernel: kernel.into(),
        grid: vec![256 * groups],
        workgroup: vec![256],
        buffers: bufs.iter().enumerate().map(|(i, &n)| (format!("b{i}"), BufferSpec { file: None, size: Some(n as u64) })).collect(),
        args: (0..bufs.len()).map(|i| Arg::Buffer(format!("b{i}"))).chain(args.iter().map(|&a| Arg::U32(a))).collect(),
        dynamic_lds: 0,
    };
    let p = Prepared::from_file(file, Path::new("/"))?;
    let mut best = f64::MAX;
    let mut stats = None;
    for _ in 0..reps.max(1) {
        let mut mem = Memory::new();
        let launch = p.launch(&mut mem);
        let t = Instant::now();
        let s = rdna_emu::run(&launch, &mut mem, &Options { threads, ..Options::default() }).map_err(|e| format!("{kernel}: {e}"))?;
        best = best.min(t.elapsed().as_secs_f64());
        stats = Some(s);
    }
    let s = stats.unwrap();
    Ok(Measured { secs: best, insts: s.instructions, lane_ops: s.lane_ops })
}

pub fn run(cx: &Ctx, r: &mut Report) -> Result<(), String> {
    let src = rdna_testkit::root().join("tests/kernels/bench.cl");
    let co = rdna_testkit::build(&src, "gfx1030", "bench", &rdna_testkit::cl_flags(32));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let reps = cx.reps(3);
    let scale: u32 = if cx.quick { 1 } else { 8 };
    let mut add = |what: String, m: &Measured, alu: bool, threads: usize| {
        let per_s = m.insts as f64 / m.secs;
        let remu = alu && threads == 1;
        r.add(Figure {
            section: "emulation",
            what: what.clone(),
            ours: per_s / 1e6,
            unit: "M wave-instr/s",
            peer: remu.then(|| ("remu, its published ~1–2 M (not run here)".to_string(), REMU_WAVE_INST_PER_S / 1e6)),
            higher_is_better: true,
            aim: remu.then(|| "≥ 20× remu".to_string()),
        });
        r.add(Figure { section: "emulation", what: format!("{what}: lane-ops"), ours: m.lane_ops as f64 / m.secs / 1e6, unit: "M lane-ops/s", peer: None, higher_is_better: true, aim: None });
    };
    for threads in [1, cores] {
        let groups = 8 * scale;
        let alu = measure(&co, "alu_loop", groups, &[1024 * groups as usize], &[500], threads, reps)?;
        add(format!("ALU loop (500 rounds, {groups} groups of 256), {threads} thread(s)"), &alu, true, threads);
        let n = 256 * 64 * 16 * scale;
        let mem = measure(&co, "copy_scale", 64, &[4 * n as usize, 4 * n as usize], &[n], threads, reps)?;
        add(format!("memory: scale-copy of {} MiB, {threads} thread(s)", 8 * n as usize >> 20), &mem, false, threads);
        let lds = measure(&co, "lds_barrier", groups, &[1024 * groups as usize], &[200], threads, reps)?;
        add(format!("LDS + 2 barriers a round (200 rounds, {groups} groups), {threads} thread(s)"), &lds, false, threads);
    }

    // Linearity on one thread: time against kernel length (loop rounds) and grid size.
    let (mut by_len, mut by_grid) = (Vec::new(), Vec::new());
    let g0: u32 = if cx.quick { 1 } else { 4 };
    for iters in [125u32, 250, 500, 1000, 2000] {
        let m = measure(&co, "alu_loop", 4 * g0, &[4096 * g0 as usize], &[iters], 1, reps)?;
        by_len.push((iters as f64, m.secs * 1e3));
    }
    for groups in [2u32, 4, 8, 16, 32].map(|g| g * g0) {
        let m = measure(&co, "alu_loop", groups, &[1024 * groups as usize], &[250], 1, reps)?;
        by_grid.push((groups as f64, m.secs * 1e3));
    }
    println!("    by length (rounds, ms): {by_len:.2?}\n    by grid (groups, ms): {by_grid:.2?}");
    for (what, curve) in [("kernel length (125 to 2,000 rounds)", &by_len), ("grid size (16× more groups)", &by_grid)] {
        r.add(Figure {
            section: "emulation",
            what: format!("linearity against {what}: marginal cost, upper points ÷ lower"),
            ours: growth(curve),
            unit: "×",
            peer: None,
            higher_is_better: false,
            aim: Some("≈ 1 (linear)".into()),
        });
    }
    r.charts.push(Chart { title: format!("Emulator: ALU loop, {} groups, one thread", 4 * g0), x: "loop rounds", y: "milliseconds", series: vec![Series { name: "alu_loop".into(), points: by_len, line: true }] });
    r.charts.push(Chart { title: "Emulator: ALU loop, 250 rounds, one thread".into(), x: "workgroups of 256", y: "milliseconds", series: vec![Series { name: "alu_loop".into(), points: by_grid, line: true }] });
    Ok(())
}

/// How the cost of one more unit grows along a curve: the slope of a least-squares line through
/// its upper three points over that through its lower three. Linear cost gives 1 (a fixed
/// start-up cost does not count against it); quadratic cost over doublings gives about 4.
fn growth(curve: &[(f64, f64)]) -> f64 {
    let n = curve.len();
    crate::util::fit(&curve[n - 3..]).0 / crate::util::fit(&curve[..3]).0
}

#[cfg(test)]
mod tests {
    #[test]
    fn growth_is_one_for_linear_cost_and_about_four_for_quadratic() {
        let curve = |f: fn(f64) -> f64| [1.0, 2.0, 4.0, 8.0, 16.0].map(|x| (x, f(x))).to_vec();
        assert!((super::growth(&curve(|x| 5.0 + 3.0 * x)) - 1.0).abs() < 1e-12);
        let q = super::growth(&curve(|x| x * x));
        assert!(q > 3.5 && q < 4.5, "{q}");
    }
}
