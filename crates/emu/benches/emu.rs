//! Emulator throughput: wave-instructions/s and lane-ops/s on ALU-bound, memory-bound and
//! LDS/barrier-bound kernels, on one core and on all cores, and how cost grows with kernel length
//! and grid size. Run with `cargo bench -p rdna-emu` (needs clang-19 and ld.lld-19).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use rdna_emu::{Launch, Memory, Options};
use rdna_hsa::CodeObject;

fn compile() -> CodeObject {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = std::env::temp_dir().join(format!("rdna-emu-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (obj, co) = (dir.join("bench.o"), dir.join("bench.hsaco"));
    let st = Command::new("clang-19")
        .args(["-x", "cl", "-cl-std=CL2.0", "--target=amdgcn-amd-amdhsa", "-mcpu=gfx1030", "-nogpulib", "-O2", "-c"])
        .arg(root.join("tests/kernels/bench.cl"))
        .arg("-o")
        .arg(&obj)
        .status()
        .expect("clang-19");
    assert!(st.success());
    assert!(Command::new("ld.lld-19").arg("-shared").arg(&obj).arg("-o").arg(&co).status().unwrap().success());
    CodeObject::parse(&std::fs::read(&co).unwrap()).unwrap()
}

struct Figure {
    secs: f64,
    insts: u64,
    lane_ops: u64,
}

/// Runs `kernel` over `groups` workgroups of 256 with the given buffers and u32 arguments;
/// best of `reps` runs.
fn measure(co: &CodeObject, kernel: &str, groups: u32, bufs: &[usize], args: &[u32], threads: usize, reps: usize) -> Figure {
    let k = co.kernel(kernel).unwrap();
    let meta = k.meta.as_ref().unwrap();
    let mut best = f64::MAX;
    let mut stats = None;
    for _ in 0..reps {
        let mut mem = Memory::new();
        let addrs: Vec<u64> = bufs.iter().enumerate().map(|(i, &n)| mem.map(&format!("b{i}"), &[], n as u64)).collect();
        let mut kernarg = vec![0u8; 256];
        let (mut bi, mut ai) = (0, 0);
        for a in meta.args.iter().filter(|a| !a.is_hidden()) {
            let o = a.offset as usize;
            if a.value_kind == "global_buffer" {
                kernarg[o..o + 8].copy_from_slice(&addrs[bi].to_le_bytes());
                bi += 1;
            } else {
                kernarg[o..o + 4].copy_from_slice(&args[ai].to_le_bytes());
                ai += 1;
            }
        }
        let launch = Launch { code: co, kernel: k, grid: [256 * groups, 1, 1], workgroup: [256, 1, 1], kernarg, dynamic_lds: 0 };
        let t = Instant::now();
        let s = rdna_emu::run(&launch, &mut mem, &Options { threads, ..Options::default() }).unwrap();
        best = best.min(t.elapsed().as_secs_f64());
        stats = Some(s);
    }
    let s = stats.unwrap();
    Figure { secs: best, insts: s.instructions, lane_ops: s.lane_ops }
}

fn row(name: &str, f: &Figure) {
    println!(
        "{name:<44} {:>10.1} ms {:>9.2} M wave-inst/s {:>9.1} M lane-ops/s",
        f.secs * 1e3,
        f.insts as f64 / f.secs / 1e6,
        f.lane_ops as f64 / f.secs / 1e6
    );
}

fn main() {
    // `cargo test --benches` runs this with --bench absent: keep that quick.
    let quick = !std::env::args().any(|a| a == "--bench");
    let co = compile();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let reps = if quick { 1 } else { 3 };
    let scale = if quick { 1 } else { 4 };
    println!("rdna-emu throughput (gfx1030 wave32, workgroups of 256; best of {reps}; {cores} cores)\n");
    for threads in [1, cores] {
        let alu = measure(&co, "alu_loop", 8 * scale, &[4 * 256 * 8 * scale as usize], &[500], threads, reps);
        row(&format!("ALU loop, 500 iterations, {threads} thread(s)"), &alu);
        let n = 256 * 64 * 16 * scale;
        let mem = measure(&co, "copy_scale", 64, &[4 * n as usize, 4 * n as usize], &[n], threads, reps);
        row(&format!("memory: scale-copy {} MiB, {threads} thread(s)", 8 * n as usize / (1 << 20)), &mem);
        let lds = measure(&co, "lds_barrier", 8 * scale, &[4 * 256 * 8 * scale as usize], &[200], threads, reps);
        row(&format!("LDS + 2 barriers per round, 200 rounds, {threads} thread(s)"), &lds);
    }
    println!("\nlinearity (1 thread): time per wave-instruction as kernel length and grid grow");
    for iters in [125u32, 250, 500, 1000] {
        let f = measure(&co, "alu_loop", 4, &[4 * 256 * 4], &[iters], 1, reps);
        println!("  alu_loop iters {iters:>5}: {:>8} wave-inst, {:>6.1} ns/wave-inst", f.insts, f.secs * 1e9 / f.insts as f64);
    }
    for groups in [2u32, 4, 8, 16] {
        let f = measure(&co, "alu_loop", groups, &[4 * 256 * groups as usize], &[250], 1, reps);
        println!("  alu_loop groups {groups:>4}: {:>8} wave-inst, {:>6.1} ns/wave-inst", f.insts, f.secs * 1e9 / f.insts as f64);
    }
}
