//! Recompiled kernels on the Vulkan device: SAXPY, a reduction, the corpus's tiled matmul, a
//! transpose through LDS and an ALU loop, each written as a dispatch file (`rdna run
//! --backend vulkan` runs the same files) with inputs from a fixed seed, checked against
//! results computed here, and timed with GPU timestamps after a warm-up. The peer is the same
//! algorithms in CUDA (kernels/gpu.cu), built with nvcc where it is on PATH and timed with CUDA
//! events in the same run, which also measures the device's copy bandwidth.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use rdna_emu::dispatch::Prepared;

use crate::report::{Figure, Report};
use crate::util::Ctx;

/// The problem sizes, the same for both sides.
struct Sizes {
    saxpy_n: u32,
    reduce_n: u32,
    matmul_n: u32,
    transpose_n: u32,
    alu_groups: u32,
    alu_iters: u32,
}

impl Sizes {
    fn new(quick: bool) -> Sizes {
        if quick {
            Sizes { saxpy_n: 1 << 16, reduce_n: 1 << 16, matmul_n: 32, transpose_n: 128, alu_groups: 4, alu_iters: 16 }
        } else {
            // Every buffer 128–256 MiB, several times an H200's 60 MiB of L2.
            Sizes { saxpy_n: 1 << 25, reduce_n: 1 << 26, matmul_n: 4096, transpose_n: 8192, alu_groups: 4096, alu_iters: 10_000 }
        }
    }

    fn cuda_args(&self) -> Vec<String> {
        [self.saxpy_n, self.reduce_n, self.matmul_n, self.transpose_n, self.alu_groups, self.alu_iters].iter().map(|v| v.to_string()).collect()
    }
}

/// One benchmark: its dispatch file, and the check of its output buffer.
struct Bench {
    name: &'static str,
    what: String,
    dispatch: PathBuf,
    output: &'static str,
    check: Box<dyn Fn(&[u8]) -> Result<(), String>>,
}

fn words(b: &[u8]) -> impl Iterator<Item = u32> + '_ {
    b.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap()))
}

fn bytes_of(v: impl Iterator<Item = u32>) -> Vec<u8> {
    v.flat_map(|w| w.to_le_bytes()).collect()
}

fn write(path: &Path, data: &[u8]) -> Result<(), String> {
    std::fs::write(path, data).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes a dispatch file; `buffers` are (name, file or size), `args` JSON values.
fn dispatch(dir: &Path, name: &str, code_object: &str, kernel: &str, grid: [u32; 2], wg: [u32; 2], buffers: &[(&str, Result<&str, u64>)], args: &[String]) -> Result<PathBuf, String> {
    let bufs: Vec<String> = buffers
        .iter()
        .map(|(n, b)| match b {
            Ok(file) => format!("\"{n}\": {{ \"file\": \"{file}\" }}"),
            Err(size) => format!("\"{n}\": {{ \"size\": {size} }}"),
        })
        .collect();
    let text = format!(
        "{{\n  \"code_object\": \"{code_object}\",\n  \"kernel\": \"{kernel}\",\n  \"grid\": [{}, {}, 1],\n  \"workgroup\": [{}, {}, 1],\n  \"buffers\": {{ {} }},\n  \"args\": [ {} ]\n}}\n",
        grid[0],
        grid[1],
        wg[0],
        wg[1],
        bufs.join(", "),
        args.join(", ")
    );
    let p = dir.join(format!("{name}.json"));
    write(&p, text.as_bytes())?;
    Ok(p)
}

fn buf(name: &str) -> String {
    format!("{{ \"buffer\": \"{name}\" }}")
}

/// The reference of kernels/gpu.cl's `alu` for one work-item.
fn alu_reference(id: u32, iters: u32) -> u32 {
    let (mut x, mut y) = (id, id.wrapping_mul(2654435761));
    let mut f = x as f32;
    for _ in 0..iters {
        x = x.wrapping_mul(1664525).wrapping_add(1013904223);
        y ^= x >> 7;
        f = f.mul_add(0.999, (y & 255) as f32);
    }
    x ^ y ^ f.to_bits()
}

fn benches(dir: &Path, s: &Sizes) -> Result<Vec<Bench>, String> {
    let mut rng = rdna_testkit::Rng(0x6a09_e667_f3bc_c909);
    let mut out = Vec::new();

    // SAXPY on small whole numbers, so that the result is exact however it is rounded.
    let n = s.saxpy_n as usize;
    let x: Vec<u32> = (0..n).map(|_| ((rng.next() % 1000) as f32).to_bits()).collect();
    let y: Vec<u32> = (0..n).map(|_| ((rng.next() % 1000) as f32).to_bits()).collect();
    write(&dir.join("saxpy-x.bin"), &bytes_of(x.iter().copied()))?;
    write(&dir.join("saxpy-y.bin"), &bytes_of(y.iter().copied()))?;
    let d = dispatch(dir, "saxpy", "gpu.hsaco", "saxpy", [s.saxpy_n, 1], [256, 1], &[("out", Err(4 * n as u64)), ("x", Ok("saxpy-x.bin")), ("y", Ok("saxpy-y.bin"))], &[buf("out"), buf("x"), buf("y"), "{ \"f32\": 2.5 }".into(), format!("{{ \"u32\": {n} }}")])?;
    out.push(Bench {
        name: "saxpy",
        what: format!("SAXPY, {n} floats ({} MiB moved)", 12 * n >> 20),
        dispatch: d,
        output: "out",
        check: Box::new(move |b| {
            let bad = words(b).enumerate().find(|&(i, w)| f32::from_bits(w) != 2.5 * f32::from_bits(x[i]) + f32::from_bits(y[i]));
            bad.map_or(Ok(()), |(i, w)| Err(format!("saxpy: out[{i}] = {}", f32::from_bits(w))))
        }),
    });

    // Reduction: 1,024 words a workgroup.
    let n = s.reduce_n as usize;
    let input: Vec<u32> = (0..n).map(|_| rng.next() as u32).collect();
    write(&dir.join("reduce-in.bin"), &bytes_of(input.iter().copied()))?;
    let d = dispatch(dir, "reduce", "gpu.hsaco", "reduce", [s.reduce_n / 4, 1], [256, 1], &[("in", Ok("reduce-in.bin")), ("out", Err(n as u64 / 256))], &[buf("in"), buf("out")])?;
    out.push(Bench {
        name: "reduce",
        what: format!("reduction, {n} words ({} MiB)", 4 * n >> 20),
        dispatch: d,
        output: "out",
        check: Box::new(move |b| {
            for (g, w) in words(b).enumerate() {
                let want = input[g * 1024..(g + 1) * 1024].iter().fold(0u32, |a, &v| a.wrapping_add(v));
                if w != want {
                    return Err(format!("reduce: out[{g}] = {w}, expected {want}"));
                }
            }
            Ok(())
        }),
    });

    // The corpus's tiled matmul on whole numbers 0..4 (sums stay exact); 256 entries checked.
    let n = s.matmul_n as usize;
    let a: Vec<f32> = (0..n * n).map(|_| (rng.next() % 4) as f32).collect();
    let bm: Vec<f32> = (0..n * n).map(|_| (rng.next() % 4) as f32).collect();
    write(&dir.join("matmul-a.bin"), &bytes_of(a.iter().map(|v| v.to_bits())))?;
    write(&dir.join("matmul-b.bin"), &bytes_of(bm.iter().map(|v| v.to_bits())))?;
    let d = dispatch(dir, "matmul", "corpus.hsaco", "k_matmul", [s.matmul_n, s.matmul_n], [16, 16], &[("a", Ok("matmul-a.bin")), ("b", Ok("matmul-b.bin")), ("c", Err(4 * (n * n) as u64))], &[buf("a"), buf("b"), buf("c"), format!("{{ \"u32\": {n} }}")])?;
    let picks: Vec<usize> = (0..256).map(|_| rng.below(n * n)).collect();
    out.push(Bench {
        name: "matmul",
        what: format!("tiled matmul (corpus k_matmul), {n}×{n} floats"),
        dispatch: d,
        output: "c",
        check: Box::new(move |b| {
            let c: Vec<u32> = words(b).collect();
            for &p in &picks {
                let (row, col) = (p / n, p % n);
                let want: f32 = (0..n).map(|k| a[row * n + k] * bm[k * n + col]).sum();
                if f32::from_bits(c[p]) != want {
                    return Err(format!("matmul: c[{row}][{col}] = {}, expected {want}", f32::from_bits(c[p])));
                }
            }
            Ok(())
        }),
    });

    // Transpose through LDS.
    let n = s.transpose_n as usize;
    let input: Vec<u32> = (0..n * n).map(|_| rng.next() as u32).collect();
    write(&dir.join("transpose-in.bin"), &bytes_of(input.iter().copied()))?;
    let d = dispatch(dir, "transpose", "gpu.hsaco", "transpose", [s.transpose_n, s.transpose_n / 4], [32, 8], &[("in", Ok("transpose-in.bin")), ("out", Err(4 * (n * n) as u64))], &[buf("in"), buf("out"), format!("{{ \"u32\": {n} }}")])?;
    out.push(Bench {
        name: "transpose",
        what: format!("transpose through LDS, {n}×{n} words"),
        dispatch: d,
        output: "out",
        check: Box::new(move |b| {
            let bad = words(b).enumerate().find(|&(i, w)| w != input[(i % n) * n + i / n]);
            bad.map_or(Ok(()), |(i, w)| Err(format!("transpose: out[{}][{}] = {w}", i / n, i % n)))
        }),
    });

    // The ALU loop; 1,024 work-items checked.
    let (groups, iters) = (s.alu_groups, s.alu_iters);
    let d = dispatch(dir, "alu", "gpu.hsaco", "alu", [256 * groups, 1], [256, 1], &[("out", Err(1024 * groups as u64))], &[buf("out"), format!("{{ \"u32\": {iters} }}")])?;
    let picks: Vec<usize> = (0..1024).map(|_| rng.below(256 * groups as usize)).collect();
    out.push(Bench {
        name: "alu",
        what: format!("ALU loop, {} work-items × {iters} rounds", 256 * groups),
        dispatch: d,
        output: "out",
        check: Box::new(move |b| {
            let o: Vec<u32> = words(b).collect();
            for &p in &picks {
                let want = alu_reference(p as u32, iters);
                if o[p] != want {
                    return Err(format!("alu: out[{p}] = {:#x}, expected {want:#x}", o[p]));
                }
            }
            Ok(())
        }),
    });
    Ok(out)
}

/// GPU time the timed submission keeps the device busy for before its runs count, in ms.
const WARM_MS: f64 = 250.0;

/// How many runs back to back the timed submission of a benchmark whose single run took
/// `first_ms` holds: enough to keep the device busy for [`WARM_MS`], then `reps` more, of which
/// the fastest is the figure. A GPU lowers its clock while it idles (an H100 measured here went
/// from 1980 to 345 MHz in about 1.5 s of the host preparing dispatches, and a recompiled kernel
/// ran up to 5.6× slower for it) and raises it only after some busy time, so runs dispatched one
/// at a time, each after the host copies its buffers, are timed at whatever clock the idling left;
/// CUDA's launches, back to back, are not.
fn back_to_back_runs(first_ms: f64, reps: usize) -> u32 {
    ((WARM_MS / first_ms.max(1e-3)).ceil() as u32).min(500) + reps as u32
}

/// Times `crate::native::saxpy(width)` on the SAXPY benchmark's inputs (best of `reps` after a
/// warm-up run whose output `check`, the recompiled SAXPY's check, must pass, back to back as
/// the recompiled kernels are timed): milliseconds.
fn native_saxpy(dev: &mut rdna_vk::Device, dir: &Path, s: &Sizes, reps: usize, width: u32, check: &dyn Fn(&[u8]) -> Result<(), String>) -> Result<f64, String> {
    let read = |name: &str| std::fs::read(dir.join(name)).map_err(|e| format!("{name}: {e}"));
    let vk = |e: rdna_vk::VkError| format!("saxpy-spirv: {e}");
    let n = s.saxpy_n;
    let x = dev.buffer_with(&read("saxpy-x.bin")?, 0).map_err(vk)?;
    let y = dev.buffer_with(&read("saxpy-y.bin")?, 0).map_err(vk)?;
    let out = dev.buffer(4 * n as u64).map_err(vk)?;
    let code = crate::native::saxpy(width);
    let push = crate::native::push(x.address, y.address, out.address, 2.5, n);
    // `repeat` runs back to back, checked: the fastest run's milliseconds.
    let checked_run = |dev: &mut rdna_vk::Device, repeat: u32| -> Result<f64, String> {
        dev.repeat = repeat;
        let t = dev.dispatch(&code, "main", &push, &[&x, &y, &out], [(n / width).div_ceil(crate::native::GROUP), 1, 1], None).map_err(vk);
        dev.repeat = 1;
        let t = t?.ok_or_else(|| format!("{} gives no GPU timestamps", dev.info.name))?;
        check(&out.read()).map_err(|e| format!("saxpy-spirv{width}: {e}"))?;
        Ok(t.as_secs_f64() * 1e3)
    };
    let timed = checked_run(dev, 1).and_then(|first| checked_run(dev, back_to_back_runs(first, reps)));
    for b in [x, y, out] {
        dev.free(b);
    }
    timed
}

/// Builds kernels/gpu.cu with nvcc and runs it on the same sizes: milliseconds by name.
fn cuda(dir: &Path, s: &Sizes) -> Result<(String, HashMap<String, f64>), String> {
    let src = rdna_testkit::root().join("crates/bench/kernels/gpu.cu");
    let exe = dir.join("gpu-cuda");
    let o = Command::new("nvcc").args(["-O3", "-arch=native", "-o"]).arg(&exe).arg(&src).output().map_err(|e| format!("nvcc: {e}"))?;
    if !o.status.success() {
        return Err(format!("nvcc failed: {}", String::from_utf8_lossy(&o.stderr)));
    }
    let o = Command::new(&exe).args(s.cuda_args()).output().map_err(|e| format!("{}: {e}", exe.display()))?;
    if !o.status.success() {
        return Err(format!("gpu-cuda failed: {}", String::from_utf8_lossy(&o.stderr)));
    }
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    let mut device = String::new();
    let mut times = HashMap::new();
    for line in text.lines() {
        if let Some(d) = line.strip_prefix("device ") {
            device = d.to_string();
        } else if let Some((k, v)) = line.split_once(' ') {
            times.insert(k.to_string(), v.trim().parse::<f64>().map_err(|e| format!("gpu-cuda printed {line:?}: {e}"))?);
        }
    }
    Ok((device, times))
}

fn have(program: &str) -> bool {
    Command::new(program).arg("--version").output().is_ok_and(|o| o.status.success())
}

pub fn run(cx: &Ctx, r: &mut Report) -> Result<(), String> {
    let mut dev = match rdna_vk::Device::open() {
        Ok(d) => d,
        Err(e) => {
            r.notes.push(format!("GPU: no Vulkan device ({e}); section skipped"));
            return Ok(());
        }
    };
    let cpu = dev.info.name.contains("llvmpipe");
    if cpu && !cx.quick && !cx.gpu_on_cpu {
        r.notes.push(format!("GPU: the Vulkan device is {} (a CPU); section skipped: run it on a GPU (BENCHMARKS.md says how), or pass --gpu-on-cpu", dev.info.name));
        return Ok(());
    }
    println!("    buffers in {}", dev.info.memory);
    r.notes.push(format!("GPU: buffers in {}", dev.info.memory));
    let dir = cx.dir("gpu")?;
    let sizes = Sizes::new(cx.quick);
    for (src, name) in [("crates/bench/kernels/gpu.cl", "gpu.hsaco"), ("tests/kernels/corpus.cl", "corpus.hsaco")] {
        let built = rdna_testkit::build(&rdna_testkit::root().join(src), "gfx1030", "bench32", &rdna_testkit::cl_flags(32));
        std::fs::copy(&built, dir.join(name)).map_err(|e| format!("{}: {e}", built.display()))?;
    }
    let mut benches = benches(&dir, &sizes)?;
    if !cx.gpu_kernels.is_empty() {
        if let Some(k) = cx.gpu_kernels.iter().find(|k| !benches.iter().any(|b| b.name == k.as_str())) {
            return Err(format!("--gpu-kernels: no GPU benchmark is called {k:?} (there are {})", benches.iter().map(|b| b.name).collect::<Vec<_>>().join(", ")));
        }
        benches.retain(|b| cx.gpu_kernels.iter().any(|k| k == b.name));
    }
    let reps = cx.reps(5);
    let mut ours = HashMap::new();
    for b in &benches {
        let p = Prepared::load(&b.dispatch)?;
        // The first run is the warm-up (pipeline creation) and the one whose output is checked;
        // its time sets how many runs the timed submission holds.
        let checked_run = |dev: &rdna_vk::Device| -> Result<(f64, rdna_vk::dispatch::VkOutputs), String> {
            let (bufs, out) = rdna_vk::dispatch::run(dev, &p).map_err(|e| format!("{}: {e}", b.name))?;
            let data = &bufs.iter().find(|(n, _)| n == b.output).ok_or("no output buffer")?.1;
            (b.check)(data)?;
            let t = out.device_time.ok_or_else(|| format!("{} gives no GPU timestamps", dev.info.name))?;
            Ok((t.as_secs_f64() * 1e3, out))
        };
        let (first, _) = checked_run(&dev)?;
        // One run at a time, as `rdna run` dispatches: printed, not the figure (the device idles
        // while the host prepares each run, and its clock falls).
        let mut isolated = Vec::new();
        for _ in 0..reps {
            isolated.push(checked_run(&dev)?.0);
        }
        dev.repeat = back_to_back_runs(first, reps);
        let (best, out) = checked_run(&dev)?;
        println!(
            "    {:<10} one run at a time: {} ms; {} runs back to back: fastest {best:.3} ms",
            b.name,
            isolated.iter().map(|t| format!("{t:.3}")).collect::<Vec<_>>().join(", "),
            dev.repeat
        );
        dev.repeat = 1;
        let one_at_a_time = isolated.iter().copied().fold(f64::INFINITY, f64::min);
        r.notes.push(format!("GPU: {} dispatched one run at a time (as `rdna run` does, the device idling between runs): fastest of {reps}: {one_at_a_time:.3} ms", b.name));
        let model = out.model.to_string();
        println!("    {:<10} {best:.3} ms on {} ({model}; output checked)", b.name, dev.info.name);
        ours.insert(b.name, (best, model));
    }
    // The same SAXPY written in SPIR-V: what the runtime itself allows.
    let mut native = Vec::new();
    if let Some(saxpy) = benches.iter().find(|b| b.name == "saxpy") {
        for width in [1, 4] {
            let t = native_saxpy(&mut dev, &dir, &sizes, reps, width, &saxpy.check)?;
            println!("    {:<10} {t:.3} ms on {} (SAXPY written in SPIR-V, {width} float(s) an invocation, not recompiled; output checked)", format!("saxpy-spirv{width}"), dev.info.name);
            native.push((width, t));
        }
    }
    let peer = if have("nvcc") {
        let (device, times) = cuda(&dir, &sizes)?;
        Some((device, times))
    } else {
        r.notes.push("GPU: nvcc is not on PATH, so the CUDA peer was not run".into());
        None
    };
    for b in &benches {
        let theirs = peer.as_ref().and_then(|(_, t)| t.get(b.name)).copied();
        r.add(Figure {
            section: "GPU",
            what: format!("{} on {} (wave model: {}; f32 fma {:?})", b.what, dev.info.name, ours[b.name].1, rdna_vk::fma_lowering(dev.info.vendor_id)),
            ours: ours[b.name].0,
            unit: "ms",
            peer: theirs.map(|t| ("CUDA (nvcc -O3), same algorithm".into(), t)),
            higher_is_better: false,
            aim: Some("≥ 0.8×".into()),
        });
    }
    for &(width, t) in &native {
        r.add(Figure {
            section: "GPU",
            what: format!("SAXPY written in SPIR-V, {width} float(s) an invocation, not recompiled (the runtime's ceiling), on {}", dev.info.name),
            ours: t,
            unit: "ms",
            peer: peer.as_ref().and_then(|(_, p)| p.get("saxpy")).map(|&p| ("CUDA (nvcc -O3), same algorithm".into(), p)),
            higher_is_better: false,
            aim: None,
        });
    }
    let n = sizes.saxpy_n as f64;
    if let (Some(copy), Some(saxpy)) = (peer.as_ref().and_then(|(_, t)| t.get("copy")), ours.get("saxpy")) {
        r.add(Figure {
            section: "GPU",
            what: "SAXPY bandwidth (12 bytes a float) against device copy bandwidth".into(),
            ours: 12.0 * n / saxpy.0 / 1e6,
            unit: "GB/s",
            peer: Some(("cudaMemcpy device to device".into(), 8.0 * n / copy / 1e6)),
            higher_is_better: true,
            aim: Some("≥ 0.8×".into()),
        });
    }
    r.notes.push(format!("GPU: dispatch files and inputs in {} (`rdna run FILE --backend vulkan` runs each)", dir.display()));
    Ok(())
}
