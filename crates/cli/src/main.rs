//! `rdna`: disassemble, explain, run and recompile AMD GPU machine code.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use rdna_disasm::{disassemble, Decoder, Line, PrintOptions};
use rdna_isa::{Format, Target};

/// mimalloc: recompiling builds SPIR-V as many small allocations (rspirv's instructions and
/// operands), and glibc's allocator was about a third of the recompile time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "rdna", version, about = "AMD GPU machine code: disassemble, explain, run")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Disassemble an AMDHSA code object, llvm-mc hex bytes (--hex) or a raw binary (--raw).
    Dis {
        /// Target processor (gfx1030, ...) or generation alias (rdna2).
        #[arg(long)]
        mcpu: Option<String>,
        /// LLVM feature string, e.g. +wavefrontsize64.
        #[arg(long, default_value = "")]
        mattr: String,
        /// Input is llvm-mc --disassemble text (0x.. bytes); '-' reads standard input.
        #[arg(long, conflicts_with = "raw")]
        hex: bool,
        /// Input is a raw little-endian binary.
        #[arg(long)]
        raw: bool,
        /// Append '; encoding: [...]' like llvm-mc -show-encoding.
        #[arg(long)]
        show_encoding: bool,
        /// The input file ('-' for standard input).
        file: PathBuf,
    },
    /// Assemble LLVM AMDGPU assembly (the syntax llvm-mc-19 and `rdna dis` print) into machine code.
    Asm {
        /// Target processor (gfx1030, ...) or generation alias (rdna2).
        #[arg(long)]
        mcpu: String,
        /// LLVM feature string, e.g. +wavefrontsize64.
        #[arg(long, default_value = "")]
        mattr: String,
        /// Write the raw bytes here (default: none).
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
        /// Print each instruction with `; encoding: [...]` as llvm-mc -show-encoding does.
        #[arg(long)]
        show_encoding: bool,
        /// The source file ('-' for standard input).
        file: PathBuf,
    },
    /// ISA reference: explain an instruction (layout, operands, behaviour, example, targets,
    /// differences between generations), list or search them, or write a browsable site.
    Isa {
        /// Instruction name to explain (with or without `_e32`/`_e64`/`_dpp`/`_sdwa`).
        name: Option<String>,
        /// Print the page as JSON.
        #[arg(long)]
        json: bool,
        /// Instructions whose name or description contain every word given.
        #[arg(long, num_args = 1.., value_name = "WORDS")]
        search: Option<Vec<String>>,
        /// Write a static, searchable site (one page per instruction per generation) to DIR:
        /// every generation, or only --arch where it is given explicitly.
        #[arg(long, value_name = "DIR")]
        html: Option<PathBuf>,
        /// List every instruction.
        #[arg(long)]
        list: bool,
        /// Architecture: a target name (gfx1030, gfx1100, ...), a generation (rdna1, rdna2,
        /// rdna3, rdna3.5, cdna3, ...) or LLVM's product name (fiji, ...).
        #[arg(long)]
        arch: Option<String>,
        /// For every instruction: decoded, emulated, recompiled; totals and what is missing.
        #[arg(long)]
        coverage: bool,
        /// List every target name llvm-mc-19 knows, its family, and whether rdna decodes it.
        #[arg(long)]
        targets: bool,
    },
    /// Run one kernel dispatch described by a JSON dispatch file; write every buffer to
    /// OUT/<name>.bin.
    Run {
        /// The dispatch file.
        dispatch: PathBuf,
        /// Where the kernel runs: emu (the reference emulator) or vulkan (recompiled to SPIR-V,
        /// on the device RDNA_VK_DEVICE names, by default the first GPU, else lavapipe).
        #[arg(long, default_value = "emu")]
        backend: String,
        /// Output directory for the buffers.
        #[arg(long)]
        out: PathBuf,
        /// Print every instruction one wave executes and the registers it changed:
        /// WORKGROUP,WAVE (flat workgroup index, wave index in the workgroup).
        #[arg(long)]
        trace: Option<String>,
        /// Instructions one wave may execute before it is stopped.
        #[arg(long, default_value_t = 50_000_000)]
        budget: u64,
        /// Host threads for the emulator (0: all cores).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Vulkan: run the kernel N times back to back, each run from the dispatch's initial
        /// memory, and report the fastest device time (a GPU lowers its clock while it idles,
        /// so a single run is timed at whatever clock it had).
        #[arg(long, default_value_t = 1)]
        repeat: u32,
    },
    /// Show a kernel's control flow as the recompiler sees it: basic blocks with their
    /// instructions and exits, loops, and the structured form SPIR-V is built from.
    Cfg {
        /// The code object.
        file: PathBuf,
        /// The kernel (default: every kernel).
        #[arg(long)]
        kernel: Option<String>,
        /// Print the graph in Graphviz's dot language instead.
        #[arg(long)]
        dot: bool,
    },
    /// Recompile a kernel to a SPIR-V compute shader (entry point `main`; its push constants are
    /// described in the rdna-spirv crate docs).
    Spirv {
        /// The code object.
        file: PathBuf,
        /// The kernel.
        #[arg(long)]
        kernel: String,
        /// Workgroup size the shader is built for: X[,Y[,Z]].
        #[arg(long, default_value = "256")]
        workgroup: String,
        /// Where to write the module (binary SPIR-V).
        #[arg(short = 'o', long)]
        out: Option<PathBuf>,
        /// Print the module as SPIR-V assembly text.
        #[arg(long)]
        text: bool,
        /// The wave model: `exact` (one invocation per workgroup, any device) or `subgroup`
        /// (one subgroup per wave; the pipeline must require a subgroup of the wave's size).
        #[arg(long, default_value = "exact", value_parser = ["exact", "subgroup"])]
        model: String,
        /// f32 fused multiply-add: `exact` (computed in f64, whatever the driver does) or `fused`
        /// (the driver's `Fma`, for devices that fuse it, such as NVIDIA's).
        #[arg(long, default_value = "exact", value_parser = ["exact", "fused"])]
        fma: String,
    },
    /// Run the bundled example (SAXPY on gfx1030) on the emulator and, recompiled to SPIR-V, on a
    /// Vulkan device (RDNA_VK_DEVICE, else the first GPU, else lavapipe); compare both with a Rust
    /// reference.
    Demo,
}

/// `rdna spirv`: a kernel recompiled to SPIR-V, written as binary and/or printed as text.
fn spirv(out: &mut impl Write, path: &PathBuf, kernel: &str, workgroup: &str, dest: Option<&std::path::Path>, text: bool, options: rdna_spirv::Options) -> Result<(), String> {
    let data = read_input(path)?;
    let co = rdna_hsa::CodeObject::parse(&data).map_err(|e| format!("{}: {e}", path.display()))?;
    let k = co.kernels.iter().find(|k| k.name == kernel).ok_or_else(|| {
        format!("{}: no kernel '{kernel}' (it has: {})", path.display(), co.kernels.iter().map(|k| k.name.as_str()).collect::<Vec<_>>().join(", "))
    })?;
    let mut wg = [1u32; 3];
    let parts: Vec<&str> = workgroup.split(',').collect();
    if parts.len() > 3 {
        return Err(format!("--workgroup '{workgroup}': at most three sizes, X,Y,Z"));
    }
    for (d, p) in parts.iter().enumerate() {
        wg[d] = p.trim().parse().map_err(|_| format!("--workgroup '{workgroup}': '{p}' is not a number"))?;
    }
    let compiled = rdna_spirv::recompile_with(&co, k, wg, 0, options).map_err(|e| format!("kernel {kernel}: {e}"))?;
    if let Some(dest) = dest {
        let bytes: Vec<u8> = compiled.words.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(dest, bytes).map_err(|e| format!("{}: {e}", dest.display()))?;
    }
    if text {
        writeln!(out, "{}", rdna_spirv::disassemble(&compiled.words)).map_err(|e| e.to_string())?;
    } else if dest.is_none() {
        return Err("say where the module goes (-o FILE) or print it (--text)".into());
    } else {
        eprintln!(
            "rdna: {kernel}: {} instructions, {} waves of {} lanes per workgroup ({}), {} SPIR-V words",
            compiled.instructions,
            compiled.waves_per_group,
            compiled.lanes,
            compiled.model,
            compiled.words.len()
        );
    }
    Ok(())
}

/// `rdna cfg`: each kernel's graph, loops and structured form.
fn show_cfg(out: &mut impl Write, path: &PathBuf, only: Option<&str>, dot: bool) -> Result<(), String> {
    use rdna_frontend::{print, structure::Structure, structurize::structurize, Cfg};
    let data = read_input(path)?;
    let co = rdna_hsa::CodeObject::parse(&data).map_err(|e| format!("{}: {e}", path.display()))?;
    let kernels: Vec<_> = co.kernels.iter().filter(|k| only.is_none_or(|n| k.name == n)).collect();
    if kernels.is_empty() {
        let names: Vec<&str> = co.kernels.iter().map(|k| k.name.as_str()).collect();
        return Err(format!("{}: no kernel {} (kernels: {})", path.display(), only.unwrap_or("at all"), names.join(", ")));
    }
    let w = |e: std::io::Error| e.to_string();
    for k in kernels {
        let (prog, entry) = rdna_frontend::kernel_program(&co, k).map_err(|e| format!("{}: {e}", path.display()))?;
        let cfg = Cfg::build(&prog, entry).map_err(|e| format!("kernel {}: {e}", k.name))?;
        if dot {
            write!(out, "{}", print::dot(&cfg, &prog, co.text_addr, &k.name)).map_err(w)?;
            continue;
        }
        let st = Structure::of(&cfg);
        let wave = if prog.wave64 { 64 } else { 32 };
        writeln!(
            out,
            "kernel {} ({}, wave{wave}): {} blocks in {} function(s), {} loop(s), {}",
            k.name,
            prog.target,
            cfg.blocks.len(),
            cfg.functions.len(),
            st.loops.len(),
            if st.reducible() { "reducible" } else { "irreducible" }
        )
        .map_err(w)?;
        write!(out, "{}", print::blocks(&cfg, &prog, co.text_addr)).map_err(w)?;
        for l in &st.loops {
            let body: Vec<String> = l.body.iter().map(|b| format!("bb{b}")).collect();
            writeln!(out, "loop at bb{}: {}", l.header, body.join(" ")).map_err(w)?;
        }
        for (f, t) in structurize(&cfg, &st).iter().enumerate() {
            writeln!(out, "structured, function {f}:").map_err(w)?;
            write!(out, "{}", print::tree(t)).map_err(w)?;
        }
        writeln!(out).map_err(w)?;
    }
    Ok(())
}

fn read_input(path: &PathBuf) -> Result<Vec<u8>, String> {
    if path.as_os_str() == "-" {
        let mut v = Vec::new();
        std::io::stdin().read_to_end(&mut v).map_err(|e| format!("reading standard input: {e}"))?;
        Ok(v)
    } else {
        std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
    }
}

fn target_for(mcpu: Option<&str>, mattr: &str, fallback: Option<&str>) -> Result<Target, String> {
    let name = mcpu.or(fallback).ok_or("no --mcpu given and the input does not name its target")?;
    Target::lookup(name)?.with_features(mattr)
}

/// Writes a linear disassembly in llvm-mc's layout (tab, text, optional encoding at column 40).
fn dis_stream(out: &mut impl Write, dec: &Decoder, opts: PrintOptions, code: &[u8], show_enc: bool) -> std::io::Result<()> {
    let mut err = Ok(());
    disassemble(dec, opts, code, |line| {
        if err.is_err() {
            return;
        }
        err = match line {
            Line::Inst { offset, len, text } => {
                if show_enc {
                    writeln!(out, "\t{}", rdna_disasm::text_with_encoding(text, &code[offset..offset + len]))
                } else {
                    writeln!(out, "\t{text}")
                }
            }
            Line::Invalid { word, .. } => writeln!(out, "\t.long 0x{word:08x}"),
            Line::Trailing { bytes, .. } => {
                let list: Vec<String> = bytes.iter().map(|b| format!("0x{b:02x}")).collect();
                writeln!(out, "\t.byte {}", list.join(", "))
            }
            Line::Zeros { .. } => Ok(()), // not asked for: llvm-mc decodes every dword
        };
    });
    err
}

/// Disassembles every function of a code object, laid out like `llvm-objdump -d`.
fn dis_code_object(out: &mut impl Write, data: &[u8], path: &PathBuf, mcpu: Option<&str>, mattr: &str) -> Result<(), String> {
    let co = rdna_hsa::CodeObject::parse(data).map_err(|e| format!("{}: {e}", path.display()))?;
    let target = target_for(mcpu, mattr, co.mcpu)?;
    let dec = Decoder::new(target);
    let opts = PrintOptions { wave64: target.wave64 };
    let w = |e: std::io::Error| e.to_string();
    writeln!(out, "\n{}:\tfile format elf64-amdgpu\n\nDisassembly of section .text:", path.display()).map_err(w)?;
    // Large functions are decoded on every core (`disassemble_parallel` gives the same text).
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    for f in &co.functions {
        writeln!(out, "\n{:016x} <{}>:", f.addr, f.name).map_err(w)?;
        let code = co.code_to_next(f);
        let format = |line: &Line<'_>, buf: &mut Vec<u8>| {
            let (offset, len, text) = match line {
                // llvm-objdump's line for skipped zero bytes.
                Line::Zeros { .. } => return buf.extend_from_slice(b"\t\t...\n"),
                Line::Inst { offset, len, text } => (*offset, *len, std::borrow::Cow::Borrowed(*text)),
                Line::Invalid { offset, word } => (*offset, 4, std::borrow::Cow::Owned(format!(".long 0x{word:08x}"))),
                Line::Trailing { offset, bytes } => (*offset, bytes.len(), std::borrow::Cow::Borrowed(".byte")),
            };
            let addr = f.addr + offset as u64;
            objdump_line(buf, &text, addr, &code[offset..offset + len]);
            if let Some(t) = branch_target(line, code, addr) {
                symbolize(buf, &co, t);
            }
            buf.push(b'\n');
        };
        rdna_disasm::disassemble_parallel(&dec, opts, rdna_disasm::Listing::objdump(), code, threads, PIECE_BYTES, format, |b| out.write_all(b)).map_err(w)?;
    }
    Ok(())
}

/// How much code one thread decodes at a time in `rdna dis`. Small pieces keep the text
/// buffers small (about 24 bytes of text per byte of code) and reused: with 256 KiB pieces the
/// buffers took about 40 MiB of fresh memory, and the system's zeroing of it was up to a third
/// of the time on the one-million-instruction stream (`perf`); the load balance at the end is
/// finer too.
const PIECE_BYTES: usize = 32 << 10;

/// One line as `llvm-objdump -d` lays it out: a tab, the text padded to 59 columns, then
/// `// ADDRESS: DWORDS` in upper-case hex (the caller adds the branch note and the newline).
fn objdump_line(buf: &mut Vec<u8>, text: &str, addr: u64, bytes: &[u8]) {
    const SPACES: [u8; 59] = [b' '; 59];
    buf.push(b'\t');
    buf.extend_from_slice(text.as_bytes());
    let width = if text.is_ascii() { text.len() } else { text.chars().count() };
    if width < 59 {
        // A fixed-size copy (straight stores, no library call), then the excess cut off.
        let end = buf.len() + 59 - width;
        buf.extend_from_slice(&SPACES);
        buf.truncate(end);
    }
    buf.extend_from_slice(b"// ");
    let digits = hex16(addr);
    // Twelve digits, or as many as the address takes.
    let need = (64 - addr.leading_zeros() as usize).div_ceil(4).max(12);
    buf.extend_from_slice(&digits[16 - need..]);
    buf.extend_from_slice(b": ");
    for (i, c) in bytes.chunks(4).enumerate() {
        if i > 0 {
            buf.push(b' ');
        }
        let mut b = [0u8; 4];
        b[..c.len()].copy_from_slice(c);
        buf.extend_from_slice(&hex8(u32::from_le_bytes(b)));
    }
}

/// `value` as 8 upper-case hex digits, computed for all eight at once: the nibbles are spread
/// one to a byte, then each byte gets '0' added, and 7 more where the nibble is 10 or above
/// (n + 6 carries into bit 4 exactly then). About a third of the per-nibble table loop's cost.
fn hex8(value: u32) -> [u8; 8] {
    let x = value as u64;
    let x = ((x & 0xFFFF_0000) << 16) | (x & 0xFFFF);
    let x = ((x & 0x0000_FF00_0000_FF00) << 8) | (x & 0x0000_00FF_0000_00FF);
    let x = ((x & 0x00F0_00F0_00F0_00F0) << 4) | (x & 0x000F_000F_000F_000F);
    let letters = ((x + 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101;
    (x + 0x3030_3030_3030_3030 + letters * 7).to_be_bytes()
}

/// `value` as 16 upper-case hex digits.
fn hex16(value: u64) -> [u8; 16] {
    let mut d = [0u8; 16];
    d[..8].copy_from_slice(&hex8((value >> 32) as u32));
    d[8..].copy_from_slice(&hex8(value as u32));
    d
}

/// The address a branch jumps to (PC + 4 + 4 * simm16), for llvm-objdump's `<sym+off>` note:
/// llvm-objdump notes it for the SOPP branches and gfx10's SOPK `s_subvector_loop_begin/end`
/// (not for `s_call_b64` or `s_cbranch_i_fork`).
fn branch_target(line: &Line, code: &[u8], addr: u64) -> Option<u64> {
    let Line::Inst { offset, text, .. } = line else { return None };
    let w = u32::from_le_bytes(code.get(*offset..*offset + 4)?.try_into().ok()?);
    // The encoding tests first: they are cheap and rule out nearly every line.
    let sopp_branch = w >> 23 == 0x17F && (text.starts_with("s_branch ") || text.starts_with("s_cbranch_"));
    let subvector_loop = w >> 28 == 0xB && text.starts_with("s_subvector_loop_");
    if !(sopp_branch || subvector_loop) {
        return None;
    }
    let simm = (w & 0xffff) as u16 as i16 as i64;
    // A target before address 0 gets no note.
    u64::try_from(addr as i64 + 4 + simm * 4).ok()
}

/// llvm-objdump's note on a branch: ` <function>` or ` <function+0xOFFSET>`.
fn symbolize(buf: &mut Vec<u8>, co: &rdna_hsa::CodeObject, target: u64) {
    if let Some(f) = co.functions.iter().rev().find(|f| f.addr <= target) {
        buf.extend_from_slice(b" <");
        buf.extend_from_slice(f.name.as_bytes());
        if target != f.addr {
            let _ = write!(buf, "+0x{:x}", target - f.addr);
        }
        buf.push(b'>');
    }
}

fn run(cli: Cli) -> Result<(), String> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match cli.cmd {
        Cmd::Dis { mcpu, mattr, hex, raw, show_encoding, file } => {
            let data = read_input(&file)?;
            if hex || raw {
                let target = target_for(mcpu.as_deref(), &mattr, None)?;
                let code = if hex {
                    let text = String::from_utf8(data).map_err(|_| format!("{}: not UTF-8 text", file.display()))?;
                    rdna_disasm::hex::parse(&text).map_err(|e| format!("{}: {e}", file.display()))?
                } else {
                    data
                };
                let dec = Decoder::new(target);
                writeln!(out, "\t.text").map_err(|e| e.to_string())?;
                dis_stream(&mut out, &dec, PrintOptions { wave64: target.wave64 }, &code, show_encoding).map_err(|e| e.to_string())?;
            } else {
                dis_code_object(&mut out, &data, &file, mcpu.as_deref(), &mattr)?;
            }
        }
        Cmd::Asm { mcpu, mattr, output, show_encoding, file } => {
            let data = read_input(&file)?;
            let source = String::from_utf8(data).map_err(|_| format!("{}: not UTF-8 text", file.display()))?;
            let target = target_for(Some(&mcpu), &mattr, None)?;
            let mut asm = rdna_asm::Assembler::new(target);
            let assembled = asm.assemble(&source).map_err(|e| format!("{}:{e}", file.display()))?;
            if show_encoding {
                let dec = Decoder::new(target);
                writeln!(out, "\t.text").map_err(|e| e.to_string())?;
                for &(_, at, len) in &assembled.lines {
                    let bytes = &assembled.bytes[at..at + len];
                    let text = match dec.decode(bytes) {
                        Ok((inst, n)) if n == len => rdna_disasm::to_text(&inst, PrintOptions { wave64: target.wave64 }),
                        _ => format!(".byte {}", bytes.iter().map(|b| format!("0x{b:02x}")).collect::<Vec<_>>().join(",")),
                    };
                    writeln!(out, "\t{}", rdna_disasm::text_with_encoding(&text, bytes)).map_err(|e| e.to_string())?;
                }
            }
            if let Some(path) = output {
                std::fs::write(&path, &assembled.bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            }
        }
        Cmd::Run { dispatch, backend, out: dir, trace, budget, threads, repeat } => run_dispatch(&dispatch, &backend, &dir, trace.as_deref(), budget, threads, repeat)?,
        Cmd::Demo => demo(&mut out)?,
        Cmd::Spirv { file, kernel, workgroup, out: path, text, model, fma } => {
            let model = if model == "subgroup" { rdna_spirv::WaveModel::Subgroup } else { rdna_spirv::WaveModel::Exact };
            let fma = if fma == "fused" { rdna_spirv::FmaLowering::Fused } else { rdna_spirv::FmaLowering::Exact };
            spirv(&mut out, &file, &kernel, &workgroup, path.as_deref(), text, rdna_spirv::Options { model, fma })?
        }
        Cmd::Cfg { file, kernel, dot } => show_cfg(&mut out, &file, kernel.as_deref(), dot)?,
        Cmd::Isa { targets: true, .. } => list_targets(&mut out)?,
        Cmd::Isa { name, list, arch, coverage, json, search, html, .. } => {
            let explicit = arch.is_some();
            let arch = arch.unwrap_or_else(|| "rdna2".to_string());
            let target = Target::lookup(&arch)?;
            let mut reference = rdna_reference::Reference::new();
            if coverage {
                isa_coverage(&mut out, &arch, target)?;
            } else if let Some(dir) = html {
                let isas: Vec<rdna_isa::Isa> = if explicit { vec![target.isa] } else { rdna_isa::Isa::ALL.to_vec() };
                let n = rdna_reference::write_site(&mut reference, &isas, &dir)?;
                eprintln!("rdna: wrote {n} instruction pages for {} generation(s) to {}", isas.len(), dir.display());
            } else if let Some(words) = search {
                let hits = reference.search(target.isa, &words.join(" "));
                if hits.is_empty() {
                    return Err(format!("no instruction on {arch} matches '{}'", words.join(" ")));
                }
                for (name, desc) in hits {
                    writeln!(out, "{name:<32} {desc}").map_err(|e| e.to_string())?;
                }
            } else if list {
                // Every mnemonic as LLVM prints it (encoding suffixes included).
                let tables = target.isa.tables();
                let mut names: Vec<&str> = Vec::new();
                for f in Format::ALL {
                    names.extend(tables.get(f).entries.iter().map(|e| e.name));
                }
                if let Some((x, y)) = tables.vopd {
                    names.extend(x.iter().chain(y.iter()).filter(|n| !n.is_empty()));
                }
                names.sort_unstable();
                names.dedup();
                for n in names {
                    writeln!(out, "{n}").map_err(|e| e.to_string())?;
                }
            } else if let Some(name) = name {
                let page = reference.page(target.isa, &name)?;
                let text = if json { rdna_reference::to_json(&page) } else { rdna_reference::render_text(&page) };
                writeln!(out, "{}", text.trim_end()).map_err(|e| e.to_string())?;
            } else {
                return Err("give an instruction name, --list, --search WORDS or --html DIR".into());
            }
        }
    }
    out.flush().map_err(|e| e.to_string())
}

/// `rdna run`: loads the dispatch, runs it, writes the buffers.
fn run_dispatch(path: &std::path::Path, backend: &str, dir: &std::path::Path, trace: Option<&str>, budget: u64, threads: usize, repeat: u32) -> Result<(), String> {
    match backend {
        "emu" if repeat != 1 => return Err("--repeat times the recompiled kernel: it needs --backend vulkan".into()),
        "emu" => {}
        "vulkan" => {
            if trace.is_some() {
                return Err("--trace needs the emulator (--backend emu)".into());
            }
            let prepared = rdna_emu::dispatch::Prepared::load(path)?;
            if !(1..=10_000).contains(&repeat) {
                return Err(format!("--repeat {repeat}: expected 1 to 10000 runs"));
            }
            let mut dev = rdna_vk::Device::open().map_err(|e| e.to_string())?;
            dev.repeat = repeat;
            let (buffers, outputs) = rdna_vk::dispatch::run(&dev, &prepared)?;
            let timed = if repeat > 1 { format!(" (the fastest of {repeat} runs back to back)") } else { String::new() };
            write_buffers(dir, &buffers)?;
            eprintln!(
                "rdna: ran {} workgroups of {} waves on {}, wave model {}{} ({} instructions recompiled); wrote {} buffers to {}",
                outputs.workgroups,
                outputs.waves_per_group,
                dev.info.name,
                outputs.model,
                outputs.device_time.map(|t| format!(", {:.3} ms on the device{timed}", t.as_secs_f64() * 1e3)).unwrap_or_default(),
                outputs.instructions,
                buffers.len(),
                dir.display()
            );
            return Ok(());
        }
        other => return Err(format!("unknown backend '{other}' (available: emu, vulkan)")),
    }
    let trace = match trace {
        None => None,
        Some(t) => {
            let (a, b) = t.split_once(',').ok_or("--trace takes WORKGROUP,WAVE (e.g. 0,0)")?;
            let p = |s: &str| s.trim().parse::<u32>().map_err(|_| format!("--trace: '{s}' is not a number"));
            Some((p(a)?, p(b)?))
        }
    };
    let opts = rdna_emu::Options { budget, threads, trace, edges: false };
    let outputs = rdna_emu::run_file(path, &opts).map_err(|e| e.to_string())?;
    if trace.is_some() {
        let stderr = std::io::stderr();
        let mut err = stderr.lock();
        for line in &outputs.stats.trace {
            let _ = writeln!(err, "{line}");
        }
    }
    write_buffers(dir, &outputs.buffers)?;
    let s = &outputs.stats;
    eprintln!(
        "rdna: ran {} workgroups, {} waves, {} wave-instructions ({} lane-ops); wrote {} buffers to {}",
        s.workgroups,
        s.waves,
        s.instructions,
        s.lane_ops,
        outputs.buffers.len(),
        dir.display()
    );
    Ok(())
}

/// Writes each buffer to DIR/<name>.bin.
fn write_buffers(dir: &std::path::Path, buffers: &[(String, Vec<u8>)]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for (name, bytes) in buffers {
        let p = dir.join(format!("{name}.bin"));
        std::fs::write(&p, bytes).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(())
}

/// `rdna demo`: SAXPY from the bundled code object on the emulator and, recompiled to SPIR-V, on
/// a Vulkan device, next to a Rust reference. Without a Vulkan device the demo says so and shows
/// the emulator alone.
fn demo(out: &mut impl Write) -> Result<(), String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let path = root.join("saxpy.hsaco");
    let data = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let code = rdna_hsa::CodeObject::parse(&data).map_err(|e| e.to_string())?;
    let kernel = code.kernel("saxpy").ok_or("saxpy.hsaco has no saxpy kernel")?;
    let w = |e: std::io::Error| e.to_string();
    writeln!(out, "examples/saxpy.hsaco, kernel saxpy (gfx1030, wave32):\n").map_err(w)?;
    if let Some(f) = code.functions.iter().find(|f| f.name == "saxpy") {
        let dec = Decoder::new(Target::from_name("gfx1030").ok_or("gfx1030 unknown")?);
        dis_stream(out, &dec, PrintOptions::default(), code.code(f), false).map_err(w)?;
    }
    writeln!(out).map_err(w)?;
    let n: u32 = 10_000;
    let a = 2.5f32;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.25 - 7.0).collect();
    let y: Vec<f32> = (0..n).map(|i| (i % 97) as f32 * 1.5).collect();
    let expected: Vec<f32> = x.iter().zip(&y).map(|(x, y)| a.mul_add(*x, *y)).collect();
    let bytes = |v: &[f32]| v.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>();
    let floats = |b: &[u8]| b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect::<Vec<f32>>();
    // Buffers out, x, y; the argument segment holds their addresses, a and n.
    let (xb, yb) = (bytes(&x), bytes(&y));
    let buffers: [(&[u8], u64); 3] = [(&[], n as u64 * 4), (&xb, n as u64 * 4), (&yb, n as u64 * 4)];
    let kernarg = |addrs: &[u64]| {
        let mut k = Vec::with_capacity(32);
        for addr in addrs {
            k.extend_from_slice(&addr.to_le_bytes());
        }
        k.extend_from_slice(&a.to_le_bytes());
        k.extend_from_slice(&n.to_le_bytes());
        k
    };
    let (grid, workgroup) = ([n.next_multiple_of(256), 1, 1], [256, 1, 1]);

    let mut mem = rdna_emu::Memory::new();
    let addrs: Vec<u64> = ["out", "x", "y"].iter().zip(&buffers).map(|(name, (data, size))| mem.map(name, data, *size)).collect();
    let launch = rdna_emu::Launch { code: &code, kernel, grid, workgroup, kernarg: kernarg(&addrs), dynamic_lds: 0 };
    let t = std::time::Instant::now();
    let stats = rdna_emu::run(&launch, &mut mem, &rdna_emu::Options::default()).map_err(|e| e.to_string())?;
    let emu_time = t.elapsed();
    let emulated = floats(&mem.contents("out").unwrap_or_default());
    writeln!(out, "out[i] = {a} * x[i] + y[i] for n = {n} (the kernel fuses it into one v_fmac_f32)").map_err(w)?;
    writeln!(out, "emulator: {} waves, {} wave-instructions in {:.1} ms", stats.waves, stats.instructions, emu_time.as_secs_f64() * 1e3).map_err(w)?;

    // The same dispatch recompiled to SPIR-V on a Vulkan device, when the machine has one.
    let vulkan = (|| -> Result<(String, Vec<f32>, std::time::Duration, rdna_spirv::WaveModel), String> {
        let dev = rdna_vk::Device::open().map_err(|e| e.to_string())?;
        let job = rdna_vk::dispatch::Job { code: &code, kernel, grid, workgroup, buffers: buffers.to_vec(), kernarg: &kernarg, dynamic_lds: 0 };
        let t = std::time::Instant::now();
        let ran = rdna_vk::dispatch::run_job(&dev, &job)?;
        Ok((dev.info.name.clone(), floats(&ran.buffers[0]), t.elapsed(), ran.model))
    })();
    match &vulkan {
        Ok((device, _, time, model)) => writeln!(out, "vulkan:   recompiled to SPIR-V and run on {device}, wave model {model}, in {:.1} ms (compiling the shader included)", time.as_secs_f64() * 1e3),
        Err(e) => writeln!(out, "vulkan:   not run ({e})"),
    }
    .map_err(w)?;
    let vk_values = vulkan.as_ref().ok().map(|v| &v.1);

    write!(out, "\n{:>6}  {:>12}  {:>12}  {:>12}", "i", "x[i]", "y[i]", "emulator").map_err(w)?;
    if vk_values.is_some() {
        write!(out, "  {:>12}", "vulkan").map_err(w)?;
    }
    writeln!(out, "  {:>12}", "expected").map_err(w)?;
    for i in [0usize, 1, 2, 3, 255, 256, 4097, 9999] {
        write!(out, "{i:>6}  {:>12}  {:>12}  {:>12}", x[i], y[i], emulated[i]).map_err(w)?;
        if let Some(v) = vk_values {
            write!(out, "  {:>12}", v[i]).map_err(w)?;
        }
        writeln!(out, "  {:>12}", expected[i]).map_err(w)?;
    }
    let same = |got: &[f32]| got.iter().zip(&expected).filter(|(g, e)| g.to_bits() == e.to_bits()).count() as u32;
    writeln!(out).map_err(w)?;
    let emu_same = same(&emulated);
    writeln!(out, "emulator: {emu_same} of {n} results identical to the Rust reference (bit for bit)").map_err(w)?;
    let vk_same = vk_values.map(|v| same(v));
    if let Some(s) = vk_same {
        writeln!(out, "vulkan:   {s} of {n} results identical to the Rust reference (bit for bit)").map_err(w)?;
    }
    if emu_same != n {
        return Err("the emulator disagrees with the reference".into());
    }
    if vk_same.is_some_and(|s| s != n) {
        return Err("the recompiled kernel disagrees with the reference".into());
    }
    Ok(())
}

/// `rdna isa --targets`: every llvm-mc-19 target, its family, the tables that decode it, and the
/// names that stand for it.
fn list_targets(out: &mut impl Write) -> Result<(), String> {
    let w = |e: std::io::Error| e.to_string();
    writeln!(out, "{:<16} {:<26} {:<22} aliases", "target", "family", "decoded with").map_err(w)?;
    for &(name, family, isa) in rdna_isa::target::TARGETS {
        let aliases: Vec<&str> = rdna_isa::target::ALIASES.iter().filter(|(_, t)| *t == name).map(|(a, _)| *a).collect();
        let with = isa.map_or("not yet".to_string(), |i| format!("{} tables", i.name()));
        writeln!(out, "{name:<16} {family:<26} {with:<22} {}", aliases.join(", ")).map_err(w)?;
    }
    Ok(())
}

/// `rdna isa --coverage`: decoded / emulated / recompiled per instruction.
fn isa_coverage(out: &mut impl Write, arch: &str, target: Target) -> Result<(), String> {
    let gen = target.generation;
    // (name, emulated, recompiled)
    let mut rows: Vec<(&str, bool, bool)> = Vec::new();
    for f in Format::ALL {
        if f == Format::Vopd {
            continue;
        }
        for e in target.table(f).entries {
            let base = rdna_emu::sem::base_name(e.name);
            let kind = rdna_emu::sem::classify_in(gen, base, f);
            let emulated = !matches!(kind, rdna_emu::sem::Kind::Unsupported(_) | rdna_emu::sem::Kind::Invalid(_));
            rows.push((e.name, emulated, emulated && rdna_spirv::supports(kind, f).is_ok()));
        }
    }
    if let Some((x, y)) = target.isa.tables().vopd {
        for n in x.iter().chain(y.iter()).filter(|n| !n.is_empty()) {
            let emulated = rdna_emu::valu::VOPD_OPS.contains(n);
            rows.push((n, emulated, emulated && rdna_spirv::supports_vopd(n)));
        }
    }
    rows.sort_unstable();
    // An instruction in several encodings counts as done only when every one is.
    rows.dedup_by(|a, b| a.0 == b.0 && { b.1 &= a.1; b.2 &= a.2; true });
    let w = |e: std::io::Error| e.to_string();
    let emulated = rows.iter().filter(|r| r.1).count();
    let recompiled = rows.iter().filter(|r| r.2).count();
    writeln!(out, "{arch} ({}): {} instructions; decoded {}, emulated {emulated}, recompiled {recompiled}", target.name, rows.len(), rows.len()).map_err(w)?;
    writeln!(out, "\nnot emulated ({}):", rows.len() - emulated).map_err(w)?;
    for (name, ..) in rows.iter().filter(|r| !r.1) {
        writeln!(out, "  {name}").map_err(w)?;
    }
    writeln!(out, "\nemulated, not recompiled ({}):", emulated - recompiled).map_err(w)?;
    for (name, ..) in rows.iter().filter(|r| r.1 && !r.2) {
        writeln!(out, "  {name}").map_err(w)?;
    }
    Ok(())
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stops early (`rdna dis … | head`) is not an error to report.
        Err(e) if e.ends_with(&broken_pipe()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rdna: error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The text of the write error a closed pipe gives (EPIPE), as errors reach `main`.
fn broken_pipe() -> String {
    const EPIPE: i32 = 32;
    std::io::Error::from_raw_os_error(EPIPE).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time hex against the standard formatter, on every nibble value in every
    /// position and on random words.
    #[test]
    fn hex_digits_match_the_formatter() {
        let mut values: Vec<u64> = vec![0, u64::MAX, 0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210];
        for pos in 0..16 {
            for n in 0..16u64 {
                values.push(n << (4 * pos));
                values.push(!(n << (4 * pos)));
            }
        }
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            values.push(x);
        }
        for v in values {
            assert_eq!(hex16(v), format!("{v:016X}").as_bytes(), "{v:#x}");
            assert_eq!(hex8(v as u32), format!("{:08X}", v as u32).as_bytes(), "{v:#x}");
        }
    }

    /// The address column: twelve digits, more only when the address needs them.
    #[test]
    fn objdump_line_addresses() {
        for (addr, want) in [(0x1000u64, "// 000000001000: "), (0xFFFF_FFFF_FFFF, "// FFFFFFFFFFFF: "), (0x1_0000_0000_0000, "// 1000000000000: "), (u64::MAX, "// FFFFFFFFFFFFFFFF: ")] {
            let mut buf = Vec::new();
            objdump_line(&mut buf, "s_nop 0", addr, &[0, 0, 0x80, 0xBF]);
            let line = String::from_utf8(buf).unwrap();
            assert_eq!(line, format!("\ts_nop 0{}{want}BF800000", " ".repeat(52)), "{addr:#x}");
        }
    }
}
