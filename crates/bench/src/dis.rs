//! Disassembly: `rdna dis` against `llvm-objdump-19 -d` on the same code objects (the test
//! kernel corpus linked into one, and generated streams of up to a million instructions), and
//! the library's decode-only and decode+print throughput on one core.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rdna_disasm::{Decoder, PrintOptions};
use rdna_hsa::CodeObject;
use rdna_isa::Target;

use crate::report::{Chart, Figure, Report, Series};
use crate::util::{best_of, compile, link, time_command, Ctx};

const MCPU: &str = "gfx1030";

pub fn run(cx: &Ctx, r: &mut Report) -> Result<(), String> {
    if !cx.rdna.exists() {
        return Err(format!("{} is missing: build it first (cargo build --release -p rdna-cli), or pass --rdna", cx.rdna.display()));
    }
    let dir = cx.dir("dis")?;
    let dec = Decoder::new(Target::from_name(MCPU).ok_or("gfx1030 is not a known target")?);
    let reps = cx.reps(3);

    // The corpus: every OpenCL test kernel file for gfx1030, linked into one code object.
    let mut objs = Vec::new();
    for (src, only) in rdna_testkit::kernel_sources() {
        if only.is_some() {
            continue;
        }
        let obj = dir.join(format!("{}.o", src.file_stem().unwrap().to_string_lossy()));
        compile(&src, MCPU, &["-x", "cl", "-cl-std=CL2.0"], &obj)?;
        objs.push(obj);
    }
    let corpus = dir.join("corpus.hsaco");
    link(&objs, &corpus)?;
    let co = load(&corpus)?;
    let n = instructions(&dec, &co);
    let (t_rdna, t_llvm) = (dis_time(cx, &corpus, reps)?, objdump_time(&corpus, reps)?);
    r.add(Figure {
        section: "disassembly",
        what: format!("`rdna dis`, test corpus linked into one ({} kernels, {n} instructions)", co.kernels.len()),
        ours: n as f64 / t_rdna / 1e6,
        unit: "M instr/s",
        peer: Some(("llvm-objdump-19 -d".into(), n as f64 / t_llvm / 1e6)),
        higher_is_better: true,
        aim: Some("≥ 20×".into()),
    });

    // Generated streams: random valid instructions of every encoding, as one kernel.
    let full = if cx.quick { 20_000 } else { 1_000_000 };
    let mut rng = rdna_testkit::Rng(0x5eed_d15a);
    let stream: Vec<Vec<u8>> = (0..full).map(|_| rng.instruction(&dec, 4).1).collect();
    let (mut ours, mut peer) = (Vec::new(), Vec::new());
    let mut last = None;
    for count in [full / 8, full / 4, full / 2, full] {
        let path = stream_object(&dir, &stream[..count], count)?;
        let co = load(&path)?;
        let n = instructions(&dec, &co);
        // rdna dis is cheap to repeat, and on a busy machine the best of more runs is steadier.
        let (t_rdna, t_llvm) = (dis_time(cx, &path, reps * 3)?, objdump_time(&path, reps)?);
        println!("    stream of {n} instructions: rdna dis {:.3} s, llvm-objdump-19 -d {:.3} s", t_rdna, t_llvm);
        ours.push((count as f64, t_rdna * 1e3));
        peer.push((count as f64, t_llvm * 1e3));
        last = Some((n, t_rdna, t_llvm, co));
    }
    let (n, t_rdna, t_llvm, stream_co) = last.unwrap();
    r.add(Figure {
        section: "disassembly",
        what: format!("`rdna dis`, generated stream of {n} instructions"),
        ours: n as f64 / t_rdna / 1e6,
        unit: "M instr/s",
        peer: Some(("llvm-objdump-19 -d".into(), n as f64 / t_llvm / 1e6)),
        higher_is_better: true,
        aim: Some("≥ 20×".into()),
    });
    r.charts.push(Chart {
        title: "Disassembly: time against stream length".into(),
        x: "generated instructions",
        y: "milliseconds",
        series: vec![Series { name: "llvm-objdump-19 -d".into(), points: peer, line: true }, Series { name: "rdna dis".into(), points: ours.clone(), line: true }],
    });
    r.charts.push(Chart { title: "rdna dis alone: time against stream length".into(), x: "generated instructions", y: "milliseconds", series: vec![Series { name: "rdna dis".into(), points: ours, line: true }] });

    // The library in-process: decode only, and decode + print, on one core.
    for (name, text) in [("test corpus code", &co.text), ("generated stream", &stream_co.text)] {
        let mut code = Vec::new();
        while code.len() < if cx.quick { 1 << 20 } else { 16 << 20 } {
            code.extend_from_slice(text);
        }
        let n = count(&dec, &code);
        let t_dec = best_of(cx.reps(5), || {
            std::hint::black_box(count(&dec, std::hint::black_box(&code)));
        });
        // The library's own walk: decode and print every instruction.
        let t_print = best_of(cx.reps(3), || {
            rdna_disasm::disassemble(&dec, PrintOptions::default(), &code, |line| {
                std::hint::black_box(line);
            });
        });
        r.add(Figure { section: "disassembly", what: format!("decode only (library, one core), {name}"), ours: n as f64 / t_dec / 1e6, unit: "M instr/s", peer: None, higher_is_better: true, aim: Some("≥ 200 M/s".into()) });
        r.add(Figure { section: "disassembly", what: format!("decode + print (library, one core), {name}"), ours: n as f64 / t_print / 1e6, unit: "M instr/s", peer: None, higher_is_better: true, aim: None });
    }
    Ok(())
}

fn load(path: &Path) -> Result<CodeObject, String> {
    let data = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    CodeObject::parse(&data).map_err(|e| format!("{}: {e}", path.display()))
}

/// The instructions of every function of a code object, as `rdna dis` walks them.
fn instructions(dec: &Decoder, co: &CodeObject) -> usize {
    co.functions.iter().map(|f| count(dec, co.code_to_next(f))).sum()
}

fn count(dec: &Decoder, code: &[u8]) -> usize {
    let (mut off, mut n) = (0, 0);
    while off + 4 <= code.len() {
        off += dec.decode_at(code, off).map_or(4, |(_, l)| l);
        n += 1;
    }
    n
}

fn dis_time(cx: &Ctx, path: &Path, reps: usize) -> Result<f64, String> {
    time_command(reps, &cx.rdna, &["dis", path.to_str().unwrap()])
}

fn objdump_time(path: &Path, reps: usize) -> Result<f64, String> {
    time_command(reps, Path::new("llvm-objdump-19"), &["-d", path.to_str().unwrap()])
}

/// A code object of one kernel whose code is `insts` then `s_endpgm`, assembled by clang-19.
fn stream_object(dir: &Path, insts: &[Vec<u8>], tag: usize) -> Result<PathBuf, String> {
    let mut s = format!("    .amdgcn_target \"amdgcn-amd-amdhsa--{MCPU}\"\n    .text\n    .globl k\n    .p2align 8\n    .type k,@function\nk:\n");
    let words: Vec<u32> = insts.iter().flat_map(|b| b.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap()))).collect();
    for line in words.chunks(8) {
        s.push_str("    .long ");
        for (i, w) in line.iter().enumerate() {
            let _ = write!(s, "{}0x{w:08x}", if i > 0 { "," } else { "" });
        }
        s.push('\n');
    }
    s.push_str(
        "    s_endpgm\n    .rodata\n    .p2align 6\n    .amdhsa_kernel k\n        .amdhsa_next_free_vgpr 256\n        .amdhsa_next_free_sgpr 104\n        .amdhsa_wavefront_size32 1\n    .end_amdhsa_kernel\n",
    );
    let src = dir.join(format!("stream{tag}.s"));
    std::fs::write(&src, s).map_err(|e| format!("{}: {e}", src.display()))?;
    let (obj, out) = (dir.join(format!("stream{tag}.o")), dir.join(format!("stream{tag}.hsaco")));
    compile(&src, MCPU, &["-x", "assembler"], &obj)?;
    link(&[obj], &out)?;
    Ok(out)
}
