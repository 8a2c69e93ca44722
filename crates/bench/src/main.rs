//! `rdna-bench`: the benchmark suite. Each section measures rdna and, in the same run, a peer
//! doing the same job (llvm-objdump-19, spirv-val, CUDA built with nvcc), and prints both
//! numbers and their ratio; the report (Markdown table, TSV, SVG of cost against input size)
//! goes to `--out`. `scripts/bench.sh` builds it and runs it; BENCHMARKS.md records a run.

// The `rdna` binary's allocator, so that in-process figures are the command's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod dis;
mod emu;
mod gpu;
mod native;
mod recompile;
mod report;
mod util;

use std::path::PathBuf;

use clap::{Parser, ValueEnum};

use report::Report;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Section {
    Dis,
    Emu,
    Recompile,
    Gpu,
}

#[derive(Parser)]
#[command(name = "rdna-bench", about = "rdna against its peers, measured in one run")]
struct Args {
    /// Small inputs and one repetition: checks that every section runs (the test suite uses it);
    /// its figures mean little.
    #[arg(long)]
    quick: bool,
    /// Run only these sections (default: all).
    #[arg(long, value_enum, value_delimiter = ',')]
    only: Vec<Section>,
    /// Where the report goes: report.md, report.tsv, scaling.svg and the GPU dispatch files.
    #[arg(long, default_value = "target/bench")]
    out: PathBuf,
    /// The `rdna` binary to time (default: the one beside this binary).
    #[arg(long)]
    rdna: Option<PathBuf>,
    /// Run the GPU section on a CPU Vulkan device (lavapipe) at full size too (by default it
    /// runs there only with --quick, since a CPU says nothing about GPU speed).
    #[arg(long)]
    gpu_on_cpu: bool,
    /// GPU section: run only these of its benchmarks (saxpy, reduce, matmul, transpose, alu;
    /// default: all), to compare builds quickly on a lent device.
    #[arg(long, value_delimiter = ',')]
    gpu_kernels: Vec<String>,
}

fn main() {
    let args = Args::parse();
    if let Err(e) = run(args) {
        eprintln!("rdna-bench: {e}");
        std::process::exit(1);
    }
}

fn run(args: Args) -> Result<(), String> {
    let wants = |s| args.only.is_empty() || args.only.contains(&s);
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let rdna = match args.rdna {
        Some(p) => p,
        None => std::env::current_exe().map_err(|e| e.to_string())?.with_file_name("rdna"),
    };
    let cx = util::Ctx { quick: args.quick, out: args.out.clone(), rdna, gpu_on_cpu: args.gpu_on_cpu, gpu_kernels: args.gpu_kernels.clone() };
    let mut r = Report::default();
    r.notes.push(util::machine());
    println!("{}\n", r.notes[0]);
    type Run = fn(&util::Ctx, &mut Report) -> Result<(), String>;
    let sections: [(Section, &str, Run); 4] = [
        (Section::Dis, "disassembly", dis::run),
        (Section::Emu, "emulation", emu::run),
        (Section::Recompile, "recompilation", recompile::run),
        (Section::Gpu, "recompiled kernels on the Vulkan device", gpu::run),
    ];
    for (section, title, run) in sections {
        if wants(section) {
            println!("== {title}");
            run(&cx, &mut r)?;
        }
    }
    let write = |name: &str, text: String| {
        let p = cx.out.join(name);
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))
    };
    let mut md = r.table();
    for n in &r.notes {
        md.push_str(&format!("\n- {n}"));
    }
    md.push('\n');
    write("report.md", md)?;
    write("report.tsv", r.tsv())?;
    if !r.charts.is_empty() {
        write("scaling.svg", r.svg())?;
    }
    println!("\n{}", r.table());
    for n in &r.notes[1..] {
        println!("- {n}");
    }
    println!("\nreport: {}/report.md, report.tsv, scaling.svg", cx.out.display());
    Ok(())
}
