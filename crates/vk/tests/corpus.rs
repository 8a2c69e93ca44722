//! The recompiler against the emulator (its oracle): every test kernel that recompiles today
//! (gfx1030 and gfx1100, wave32 and wave64) passes spirv-val and, run on this machine's Vulkan
//! device with the same random inputs, leaves every buffer bit-identical to the emulator's.
//! Kernels that do not recompile yet must fail with named sites, never anything else.

use std::collections::BTreeMap;
use std::process::Command;

use rdna_emu::Options;
use rdna_spirv::{FmaLowering, RecompileError, WaveModel};
use rdna_vk::dispatch::{run_job, Job};
use rdna_vk::Device;


fn spirv_val(words: &[u32], tag: &str) {
    // A machine given prebuilt code objects (no toolchain) may lack spirv-tools too; CI
    // validates the same modules (recompiling is deterministic).
    if std::env::var_os("RDNA_PREBUILT").is_some() && Command::new("spirv-val").arg("--version").output().is_err() {
        return;
    }
    if let Err(e) = rdna_testkit::spirv_val(words, tag) {
        panic!("{tag}: spirv-val: {e}");
    }
}

#[test]
fn recompiled_kernels_match_the_emulator_bit_for_bit() {
    let dev = Device::open().unwrap();
    // RDNA_CORPUS_ONLY=NAME runs the kernels whose names contain NAME, printing each result.
    let only = std::env::var("RDNA_CORPUS_ONLY").ok();
    let verbose = only.is_some();
    let (mut total, mut same) = (0, 0);
    let mut missing: BTreeMap<String, usize> = BTreeMap::new();
    let mut matched = Vec::new();
    let mut failures = Vec::new();
    let mut limited = Vec::new();
    let mut subgroup_runs = 0;
    for rdna_testkit::Build { mcpu, lanes, co } in rdna_testkit::corpus_builds("vk") {
        for k in &co.kernels {
            if only.as_ref().is_some_and(|o| !k.name.contains(o.as_str())) {
                continue;
            }
            total += 1;
            let tag = format!("{mcpu}-w{lanes}-{}", k.name);
            let (grid, wg) = rdna_testkit::plain_grid(k);
            // A `__local` pointer argument gets LDS from the dispatch, as in the emulator run.
            let dynamic_lds = rdna_testkit::plain_kernarg(k, &[0; 64]).1;
            let options = dev.options(lanes, wg.iter().product());
            let model = options.model;
            let compiled = match rdna_spirv::recompile_with(&co, k, wg, dynamic_lds, options) {
                Ok(c) => c,
                Err(RecompileError::Unsupported(sites)) => {
                    assert!(!sites.is_empty());
                    for s in sites {
                        *missing.entry(s.reason).or_default() += 1;
                    }
                    continue;
                }
                Err(e) => panic!("{tag}: {e}"),
            };
            spirv_val(&compiled.words, &tag);
            // The model this device does not run is validated all the same.
            let other = if model == WaveModel::Exact { WaveModel::Subgroup } else { WaveModel::Exact };
            match rdna_spirv::recompile(&co, k, wg, dynamic_lds, other) {
                Ok(c) => spirv_val(&c.words, &format!("{tag} ({other})")),
                Err(e) => panic!("{tag}: recompiles in the {model} model but not in the {other} one: {e}"),
            }
            // So is the f32 fma lowering it does not use.
            let fma = if options.fma == FmaLowering::Exact { FmaLowering::Fused } else { FmaLowering::Exact };
            match rdna_spirv::recompile_with(&co, k, wg, dynamic_lds, rdna_spirv::Options { model, fma }) {
                Ok(c) => spirv_val(&c.words, &format!("{tag} ({fma:?} fma)")),
                Err(e) => panic!("{tag}: recompiles with {:?} fma but not with {fma:?}: {e}", options.fma),
            }
            let seed = 0x5eed ^ total as u64;
            let (launch, mut mem) = rdna_testkit::launch_filled(&co, k, seed);
            if rdna_emu::run(&launch, &mut mem, &Options { budget: 5_000_000, ..Options::default() }).is_err() {
                continue; // made-up inputs can make a kernel fault; nothing to compare
            }
            let data = rdna_testkit::buffer_data(k, seed);
            let kernarg = |addrs: &[u64]| rdna_testkit::plain_kernarg(k, addrs).0;
            let job = Job {
                code: &co,
                kernel: k,
                grid,
                workgroup: wg,
                buffers: data.iter().map(|d| (d.as_slice(), rdna_testkit::PLAIN_BUFFER)).collect(),
                kernarg: &kernarg,
                dynamic_lds: launch.dynamic_lds,
            };
            let t0 = std::time::Instant::now();
            let out = match run_job(&dev, &job) {
                Ok(o) => {
                    subgroup_runs += (o.model == WaveModel::Subgroup) as usize;
                    o
                }
                // A device limit met with an explicit refusal is not a difference.
                Err(e) if e.contains("loop iterations than") => {
                    limited.push(tag);
                    continue;
                }
                Err(e) => {
                    failures.push(format!("{tag}: {e}"));
                    continue;
                }
            };
            let differ = differences(&out.buffers, &mem);
            let identical = differ.is_empty();
            failures.extend(differ.into_iter().map(|d| format!("{tag}: {d}")));
            if verbose {
                eprintln!("{tag}: {} ({:.2?})", if identical { "identical" } else { "DIFFERENT" }, t0.elapsed());
            }
            if !identical {
                continue;
            }
            same += 1;
            matched.push(tag);
        }
    }
    eprintln!(
        "{same} of {total} kernel builds recompiled and identical to the emulator on {} ({subgroup_runs} of the runs in the subgroup model, the others exact; f32 fma {:?}):",
        dev.info.name,
        rdna_vk::fma_lowering(dev.info.vendor_id)
    );
    eprintln!("  {}", matched.join(" "));
    eprintln!("refused at {}'s loop-iteration limit: {}", dev.info.name, limited.join(" "));
    eprintln!("what stops the others (sites):");
    let mut v: Vec<_> = missing.into_iter().collect();
    v.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    for (reason, n) in v.iter().take(25) {
        eprintln!("  {n:5}  {reason}");
    }
    // `rdna_spirv::supports` (the coverage table) must refuse whatever the lowering refuses by
    // kind alone.
    let internal: Vec<_> = v.iter().filter(|(r, _)| r.starts_with("internal:")).collect();
    assert!(internal.is_empty(), "sites the support table admits but the lowering does not: {internal:?}");
    assert!(failures.is_empty(), "{} kernel build(s) differ from the emulator or failed to run:\n{}", failures.len(), failures.join("\n"));
    // The floor holds for the whole corpus (RDNA_CORPUS_ONLY runs a part of it).
    assert!(only.is_some() || same >= 262, "only {same} kernels recompiled and compared");
}

/// Each buffer's dwords that differ from the emulator's (`b0`, `b1`, … in `mem`), one line per
/// buffer.
fn differences(buffers: &[Vec<u8>], mem: &rdna_emu::Memory) -> Vec<String> {
    let mut lines = Vec::new();
    for (i, got) in buffers.iter().enumerate() {
        let want = mem.contents(&format!("b{i}")).unwrap();
        let differ: Vec<usize> = (0..got.len() / 4).filter(|&j| got[4 * j..4 * j + 4] != want[4 * j..4 * j + 4]).collect();
        if let Some(&at) = differ.first() {
            let word = |b: &[u8], j: usize| u32::from_le_bytes(b[4 * j..4 * j + 4].try_into().unwrap());
            lines.push(format!(
                "buffer {i}: {} dwords differ from the emulator's, first dword {at}: {:#010x} vs {:#010x} (dwords {:?}{})",
                differ.len(),
                word(got, at),
                word(&want, at),
                &differ[..differ.len().min(12)],
                if differ.len() > 12 { " …" } else { "" }
            ));
        }
    }
    lines
}

/// A hand-written kernel: the code of `tests/asm/NAME.s` wrapped in a wave32 kernel (wave64
/// where NAME contains `_w64_`; for gfx1100 where NAME starts with `gfx11_`, else gfx1030)
/// `NAME` with two buffer arguments, `in` and `out`, and 4 KiB of LDS, built with clang-19. A
/// common prologue comes first: s[0:1] and s[2:3] hold the addresses of `in` and `out`; v1, v2
/// and v3 hold the lane's three dwords of `in` (at 12 × lane) multiplied by large odd constants,
/// so that made-up inputs (small bytes) cover all 32 bits; v5 is the lane's row of `out`
/// (256 × lane bytes).
fn asm_kernel(name: &str) -> rdna_hsa::CodeObject {
    // `gfx11_NAME` without a file of its own is NAME.s built for gfx1100.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/asm");
    let file = if dir.join(format!("{name}.s")).exists() { name } else { name.strip_prefix("gfx11_").unwrap_or(name) };
    let code = std::fs::read_to_string(dir.join(format!("{file}.s"))).unwrap();
    let mcpu = if name.starts_with("gfx11_") { "gfx1100" } else { "gfx1030" };
    // `_w64_` in the name: one wave64 instead of two wave32s.
    let lanes = if name.contains("_w64_") { 64 } else { 32 };
    wrap_asm(name, &code, mcpu, lanes, (16, 40))
}

/// `code` after the common prologue of [`asm_kernel`], as kernel `name` for `mcpu` with `lanes`
/// lanes per wave and `regs` (VGPRs, SGPRs) allocated.
fn wrap_asm(name: &str, code: &str, mcpu: &str, lanes: u32, regs: (u32, u32)) -> rdna_hsa::CodeObject {
    // The target's buffer formats: the first number past them, and the 11/10-bit float ones.
    let (format_end, float_a, float_b) = if mcpu == "gfx1100" { (64, 30, 31) } else { (78, 36, 43) };
    let w32 = (lanes == 32) as u32;
    let (vgprs, sgprs) = regs;
    let source = format!(
        r#"    .amdgcn_target "amdgcn-amd-amdhsa--{mcpu}"
    .set BUF_FORMAT_END, {format_end}
    .set BUF_FLOAT_A, {float_a}
    .set BUF_FLOAT_B, {float_b}
    .text
    .globl {name}
    .p2align 8
    .type {name},@function
{name}:
    s_load_dwordx4 s[0:3], s[0:1], 0x0
    v_mul_u32_u24 v6, 12, v0
    v_lshlrev_b32 v5, 8, v0
    s_waitcnt lgkmcnt(0)
    global_load_dword v1, v6, s[0:1]
    global_load_dword v2, v6, s[0:1] offset:4
    global_load_dword v3, v6, s[0:1] offset:8
    s_waitcnt vmcnt(0)
    v_mul_lo_u32 v1, v1, 0x9e3779b1
    v_mul_lo_u32 v2, v2, 0x85ebca6b
    v_mul_lo_u32 v3, v3, 0xc2b2ae35
{code}
    .rodata
    .p2align 6
    .amdhsa_kernel {name}
        .amdhsa_next_free_vgpr {vgprs}
        .amdhsa_next_free_sgpr {sgprs}
        .amdhsa_user_sgpr_kernarg_segment_ptr 1
        .amdhsa_kernarg_size 16
        .amdhsa_wavefront_size32 {w32}
        .amdhsa_float_denorm_mode_32 3
        .amdhsa_group_segment_fixed_size 4096
    .end_amdhsa_kernel

    .amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: {name}
    .symbol: {name}.kd
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 4096
    .private_segment_fixed_size: 0
    .wavefront_size: {lanes}
    .sgpr_count: {sgprs}
    .vgpr_count: {vgprs}
    .max_flat_workgroup_size: 64
    .args:
      - {{ .name: in, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }}
      - {{ .name: out, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }}
...
    .end_amdgpu_metadata
"#
    );
    let dir = rdna_testkit::scratch().join("asm");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.s"));
    std::fs::write(&path, source).unwrap();
    let wave64: &[&str] = if lanes == 64 { &["-mwavefrontsize64"] } else { &[] };
    rdna_testkit::compile_for(&path, mcpu, "vk", wave64)
}

/// Hand-written kernels (`tests/asm/NAME.s`) for instructions clang rarely emits.
const HAND_WRITTEN: &[&str] = &["int16_ops", "buffer_atomics", "scalar_buffer_loads", "misc_ops", "global_atomics", "lds_float_atomics", "compares16_sdwa", "misc_ops2", "f16_ops", "dpp16", "dpp_carry", "gfx11_dpp", "dots_and_packing", "movrel", "scalar_movrel", "lds_addtid_append", "hw_state", "buffer_formats", "buffer_format_stores", "gfx11_buffer_formats", "gfx11_buffer_format_stores", "sad_and_pk_fmac", "gfx11_sad_and_pk_fmac", "gfx11_w64_lane_ops", "lds_exchange2", "gfx11_true16", "args_pointer_overwritten", "lds_unaligned"];

/// The [`HAND_WRITTEN`] kernels, recompiled (both wave models pass spirv-val), run and compared
/// with the emulator like the corpus;
/// every kernel runs, and the failures are reported together.
#[test]
fn hand_written_kernels_match_the_emulator() {
    let dev = Device::open().unwrap();
    let mut failures = Vec::new();
    for name in HAND_WRITTEN {
        let co = asm_kernel(name);
        let k = &co.kernels[0];
        // One workgroup of two waves: the kernels address memory by work-item id within the
        // workgroup, so several workgroups would race on their atomics.
        let (grid, wg) = ([64, 1, 1], [64, 1, 1]);
        // Both wave models' modules pass spirv-val.
        for model in [WaveModel::Exact, WaveModel::Subgroup] {
            match rdna_spirv::recompile(&co, k, wg, 0, model) {
                Ok(c) => spirv_val(&c.words, &format!("{name} ({model})")),
                Err(e) => failures.push(format!("{name} ({model}): {e}")),
            }
        }
        let (mut launch, mut mem) = rdna_testkit::launch_filled(&co, k, 7);
        (launch.grid, launch.workgroup) = (grid, wg);
        rdna_emu::run(&launch, &mut mem, &Options::default()).unwrap();
        let data = rdna_testkit::buffer_data(k, 7);
        let kernarg = |addrs: &[u64]| rdna_testkit::plain_kernarg(k, addrs).0;
        let job = Job { code: &co, kernel: k, grid, workgroup: wg, buffers: data.iter().map(|d| (d.as_slice(), rdna_testkit::PLAIN_BUFFER)).collect(), kernarg: &kernarg, dynamic_lds: 0 };
        let out = match run_job(&dev, &job) {
            Ok(out) => out,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let differ = differences(&out.buffers, &mem);
        if !differ.is_empty() {
            failures.push(format!("{name}: {}", differ.join("\n")));
        }
        // The results are not all zero (the kernel ran and stored).
        if out.buffers[1].iter().all(|&b| b == 0) {
            failures.push(format!("{name}: nothing stored"));
        }
    }
    assert!(failures.is_empty(), "{} of {} hand-written kernels fail:\n{}", failures.len(), HAND_WRITTEN.len(), failures.join("\n"));
}

/// Argument loads are left unchecked only through the argument pointer the wave starts with:
/// SAXPY's (its furthest argument, at 0x18, ends at byte 32); in
/// `tests/asm/args_pointer_overwritten.s` the prologue's load of both buffer addresses (16
/// bytes), which overwrites the pointer's SGPRs, and not the load through them after it (the
/// hand-written kernel test compares that kernel with the emulator); and a dispatch that gives
/// fewer argument bytes than the module reads unchecked is refused, naming both.
#[test]
fn argument_loads_go_unchecked_only_through_the_argument_pointer() {
    let co = asm_kernel("args_pointer_overwritten");
    assert_eq!(co.kernels[0].kd.kernarg_size, 16);
    let c = rdna_spirv::recompile(&co, &co.kernels[0], [64, 1, 1], 0, WaveModel::Exact).unwrap();
    assert_eq!(c.argument_bytes_read, 16);
    let saxpy = rdna_hsa::CodeObject::parse(&std::fs::read(rdna_testkit::root().join("examples/saxpy.hsaco")).unwrap()).unwrap();
    let k = &saxpy.kernels[0];
    for model in [WaveModel::Exact, WaveModel::Subgroup] {
        let c = rdna_spirv::recompile(&saxpy, k, [256, 1, 1], 0, model).unwrap();
        assert_eq!(c.argument_bytes_read, 32, "{model}");
    }
    let dev = Device::open().unwrap();
    let short = |addrs: &[u64]| rdna_testkit::plain_kernarg(k, addrs).0[..24].to_vec();
    let data = rdna_testkit::buffer_data(k, 1);
    let job = Job { code: &saxpy, kernel: k, grid: [256, 1, 1], workgroup: [256, 1, 1], buffers: data.iter().map(|d| (d.as_slice(), rdna_testkit::PLAIN_BUFFER)).collect(), kernarg: &short, dynamic_lds: 0 };
    let e = run_job(&dev, &job).err().expect("a short argument segment is refused");
    assert!(e.contains("reads 32 bytes of arguments") && e.contains("gives 24"), "{e}");
}

/// `tests/asm/hw_state.s` in the emulator, against the values the ISA defines, worked out
/// here: the clock counts the instructions executed (11 in the prologue), MODE is the kernel
/// descriptor's (denormals kept, DX10 clamp and IEEE on: 0x3f0), HW_ID the wave's index,
/// LDS_ALLOC 4 KiB in 512-byte blocks at bit 12, STATUS has SCC in bit 0 and VCCZ in bit 10.
/// (The hand-written kernel test then holds the recompiled kernel to the same values.)
#[test]
fn hw_state_reads_what_the_isa_defines() {
    let co = asm_kernel("hw_state");
    let k = &co.kernels[0];
    let (mut launch, mut mem) = rdna_testkit::launch_filled(&co, k, 7);
    (launch.grid, launch.workgroup) = ([64, 1, 1], [64, 1, 1]);
    rdna_emu::run(&launch, &mut mem, &Options::default()).unwrap();
    let out = mem.contents("b1").unwrap();
    for lane in [0usize, 31, 32, 63] {
        let w: Vec<u32> = (0..9).map(|k| u32::from_le_bytes(out[256 * lane + 4 * k..][..4].try_into().unwrap())).collect();
        let wave = (lane / 32) as u32;
        // Wave 0 does not branch: three more s_nop before the second clock read.
        let realtime = if wave == 0 { 26 } else { 23 };
        assert_eq!(w, [14, 0, 0x3f0, wave, 8 << 12, 1 | 1 << 10, wave, realtime, 0], "lane {lane}");
    }
}

/// `tests/asm/mode_changes.s`: each refused site is listed with its text and why; the mode
/// change that keeps the mode is not among them.
#[test]
fn mode_changes_are_refused() {
    let co = asm_kernel("mode_changes");
    let k = &co.kernels[0];
    let Err(rdna_spirv::RecompileError::Unsupported(sites)) = rdna_spirv::recompile(&co, k, [64, 1, 1], 0, rdna_spirv::WaveModel::Exact) else { panic!("recompiled") };
    let found: Vec<(String, String)> = sites.iter().map(|s| (s.text.clone(), s.reason.clone())).collect();
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(found[0].0.starts_with("s_denorm_mode 0") && found[0].1.contains("flushing denormals"), "{found:?}");
    assert!(found[1].0.starts_with("s_round_mode 0x3") && found[1].1.contains("rounding"), "{found:?}");
    assert!(found[2].0.starts_with("s_getreg_b32") && found[2].1.contains("also writes"), "{found:?}");
}

/// A callee that returns past its return point (`tests/asm/stray_return.s`): the emulator goes
/// there, the recompiled kernel must stop with an error that says why, not run on differently.
#[test]
fn a_return_to_an_unknown_address_stops_the_run() {
    let co = asm_kernel("stray_return");
    let k = &co.kernels[0];
    let (launch, mut mem) = rdna_testkit::launch_filled(&co, k, 1);
    rdna_emu::run(&launch, &mut mem, &Options::default()).unwrap();
    assert_eq!(mem.contents("b1").unwrap()[..4], 7u32.to_le_bytes(), "the emulator skips the branch after the call");
    let e = recompiled_run_error(&co);
    assert!(e.contains("return point"), "{e}");
}

/// A VGPR-indexed move past v255 (`tests/asm/movrel_out_of_range.s`): the emulator faults, and
/// the recompiled kernel must stop with an error that says why.
#[test]
fn a_vgpr_index_past_v255_stops_the_run() {
    let co = asm_kernel("movrel_out_of_range");
    let k = &co.kernels[0];
    let (launch, mut mem) = rdna_testkit::launch_filled(&co, k, 1);
    let e = rdna_emu::run(&launch, &mut mem, &Options::default()).err().expect("the emulator faults");
    assert!(e.to_string().contains("out of range"), "{e}");
    let e = recompiled_run_error(&co);
    assert!(e.contains("past v255"), "{e}");
}

/// Typed buffer accesses the emulator refuses (`tests/asm/buffer_format_invalid.s`: format
/// number 0, with no lane enabled; `buffer_format_float_store.s`: a store to an 11-bit float):
/// the emulator faults, and the recompiled kernel must stop with an error that says why.
#[test]
fn refused_buffer_formats_stop_the_run() {
    for (name, emulator_says) in [("buffer_format_invalid", "buffer format 0 is not valid"), ("buffer_format_float_store", "stores to 10-bit float")] {
        both_stop(name, emulator_says, "invalid buffer format, or stored to an 11- or 10-bit float");
    }
}

/// Faults in one block (`tests/asm/gap_then_lds.s`, `lds_then_gap.s`, `far_store.s`): a
/// recompiled block runs to its end and lanes of neighbouring instructions share a loop, so
/// the error must still be the first fault's, as in the emulator; an access far outside the
/// dispatch's memory must stop the run, not reach that address.
#[test]
fn memory_faults_are_reported_in_program_order() {
    for (name, emulator_says, device_says) in [
        ("gap_then_lds", "unmapped address", "outside the dispatch's buffers"),
        ("lds_then_gap", "LDS access out of bounds", "an LDS access out of bounds"),
        ("far_store", "unmapped address", "outside the dispatch's buffers"),
    ] {
        both_stop(name, emulator_says, device_says);
    }
}

/// Runs `tests/asm/NAME.s` (seed 1's inputs) in the emulator and recompiled: both must stop,
/// with errors that say the given things.
fn both_stop(name: &str, emulator_says: &str, device_says: &str) {
    let co = asm_kernel(name);
    let k = &co.kernels[0];
    let (launch, mut mem) = rdna_testkit::launch_filled(&co, k, 1);
    let e = rdna_emu::run(&launch, &mut mem, &Options::default()).err().expect("the emulator faults");
    assert!(e.to_string().contains(emulator_says), "{name}: {e}");
    let e = recompiled_run_error(&co);
    assert!(e.contains(device_says), "{name}: {e}");
}

/// Runs the code object's kernel recompiled, with the inputs seed 1 gives, on the machine's
/// device; the error that stopped it (the run must stop).
fn recompiled_run_error(co: &rdna_hsa::CodeObject) -> String {
    let k = &co.kernels[0];
    let dev = Device::open().unwrap();
    let data = rdna_testkit::buffer_data(k, 1);
    let kernarg = |addrs: &[u64]| rdna_testkit::plain_kernarg(k, addrs).0;
    let (grid, wg) = rdna_testkit::plain_grid(k);
    let job = Job { code: co, kernel: k, grid, workgroup: wg, buffers: data.iter().map(|d| (d.as_slice(), rdna_testkit::PLAIN_BUFFER)).collect(), kernarg: &kernarg, dynamic_lds: 0 };
    run_job(&dev, &job).err().expect("the recompiled run must stop")
}

/// Random valid gfx1030 instruction streams (a kernel no test has seen), run by the emulator
/// and, recompiled, on the Vulkan device, one wave32: after the stream an epilogue stores every
/// VGPR but v254/v255 and s0..s96 of every lane, and those stores, like every buffer, must be
/// bit-identical. Streams the emulator stops on (faults, the instruction budget) or the
/// recompiler refuses are counted, not compared. `RDNA_STREAMS` sets how many (default
/// 8: each takes lavapipe seconds), `RDNA_SEED` the seed.
#[test]
fn random_streams_run_as_the_emulator_runs_them() {
    let seed = std::env::var("RDNA_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x0d1f_f5eed_u64);
    let count: usize = std::env::var("RDNA_STREAMS").ok().and_then(|s| s.parse().ok()).unwrap_or(8);
    println!("seed {seed} (RDNA_SEED replays)");
    // RDNA_STREAM_VERBOSE=1 says why each stream was not compared.
    let verbose = std::env::var_os("RDNA_STREAM_VERBOSE").is_some();
    let dev = Device::open().unwrap();
    let dec = rdna_disasm::Decoder::new(rdna_isa::Target::from_name("gfx1030").unwrap());
    let mut rng = rdna_testkit::Rng(seed | 1);
    let (mut compared, mut skipped, mut failures) = (0, 0, Vec::new());
    // Every register but the epilogue's own (v254, v255, s97..s99, M0) stored, 128 bytes a row.
    let epilogue = "
    s_mov_b32 exec_lo, -1
    v_mbcnt_lo_u32_b32 v255, -1, 0
    v_lshlrev_b32 v255, 2, v255
    s_mov_b64 s[98:99], s[100:101]
    s_mov_b32 m0, 0
vgprs:
    v_movrels_b32 v254, v0
    global_store_dword v255, v254, s[98:99]
    s_add_u32 s98, s98, 128
    s_addc_u32 s99, s99, 0
    s_add_u32 m0, m0, 1
    s_cmp_lt_u32 m0, 254
    s_cbranch_scc1 vgprs
    s_mov_b32 m0, 0
sgprs:
    s_movrels_b32 s97, s0
    v_mov_b32 v254, s97
    global_store_dword v255, v254, s[98:99]
    s_add_u32 s98, s98, 128
    s_addc_u32 s99, s99, 0
    s_add_u32 m0, m0, 1
    s_cmp_lt_u32 m0, 97
    s_cbranch_scc1 sgprs
    s_endpgm";
    // RDNA_STREAM_WORDS="0x… 0x…" runs that one stream (a reproducer from a failure report).
    let given: Option<Vec<u32>> = std::env::var("RDNA_STREAM_WORDS").ok().map(|t| t.split_whitespace().filter_map(|w| u32::from_str_radix(w.trim_start_matches("0x"), 16).ok()).collect());
    let count = if given.is_some() { 1 } else { count };
    for n in 0..count {
        let mut words = given.clone().unwrap_or_default();
        while given.is_none() && words.len() < 24 {
            let (inst, bytes) = rng.instruction(&dec, 3);
            // Memory and branches mostly fault or leave the stream: keep ALU work. The saved
            // output address (s[100:101]) must survive: a stream that moves it makes the
            // epilogue store through a wild pointer, whose meaning differs between the
            // emulator's address space and the device's. Program counters are addresses too.
            let text = rdna_emu::program::resolve(inst, 0).text();
            let touches_saved = text.contains("movrel") || inst.entry.name.contains("pc_b64") || ["s96", "s97", "s98", "s99", "s100", "s101", "s[96", "s[98", "s[100", "s[97", "s[99"].iter().any(|r| text.contains(r));
            let alu = matches!(inst.format, rdna_isa::Format::Vop1 | rdna_isa::Format::Vop2 | rdna_isa::Format::Vop3 | rdna_isa::Format::Vopc | rdna_isa::Format::Sop1 | rdna_isa::Format::Sop2 | rdna_isa::Format::Sopc | rdna_isa::Format::Vop3p);
            if alu && !touches_saved {
                words.extend(bytes.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())));
            }
        }
        let stream: String = words.iter().map(|w| format!("    .long {w:#010x}\n")).collect();
        // The buffer addresses differ between the emulator's address space and the device's:
        // the stream starts without them (the output's is kept in s[100:101]).
        let code = format!("    s_mov_b64 s[100:101], s[2:3]\n    s_mov_b64 s[0:1], 0\n    s_mov_b64 s[2:3], 0\n{stream}{epilogue}");
        let co = wrap_asm(&format!("stream{n}"), &code, "gfx1030", 32, (256, 104));
        let k = &co.kernels[0];
        let (grid, wg) = ([32, 1, 1], [32, 1, 1]);
        let (mut launch, mut mem) = rdna_testkit::launch_filled(&co, k, 3);
        (launch.grid, launch.workgroup) = (grid, wg);
        if let Err(e) = rdna_emu::run(&launch, &mut mem, &Options { budget: 100_000, ..Options::default() }) {
            if verbose {
                println!("stream {n}: the emulator stopped: {}", e.to_string().lines().next().unwrap_or(""));
            }
            skipped += 1;
            continue;
        }
        let data = rdna_testkit::buffer_data(k, 3);
        let kernarg = |addrs: &[u64]| rdna_testkit::plain_kernarg(k, addrs).0;
        let job = Job { code: &co, kernel: k, grid, workgroup: wg, buffers: data.iter().map(|d| (d.as_slice(), rdna_testkit::PLAIN_BUFFER)).collect(), kernarg: &kernarg, dynamic_lds: 0 };
        let text: Vec<String> = words.iter().map(|w| format!("{w:#010x}")).collect();
        if verbose {
            println!("stream {n}: running [{}]", text.join(" "));
        }
        match run_job(&dev, &job) {
            Ok(out) => {
                let differ = differences(&out.buffers, &mem);
                if differ.is_empty() {
                    compared += 1;
                } else {
                    failures.push(format!("stream {n} [{}]: {}", text.join(" "), differ.join("; ")));
                }
            }
            // Refused (with its sites) or stopped with a reason: not compared.
            Err(e) if !e.contains("internal") => {
                if verbose {
                    println!("stream {n}: not recompiled: {}", e.lines().take(2).collect::<Vec<_>>().join(" "));
                }
                skipped += 1;
            }
            Err(e) => failures.push(format!("stream {n} [{}]: {e}", text.join(" "))),
        }
    }
    println!("{compared} streams identical, {skipped} not compared (stopped by the emulator or refused)");
    assert!(failures.is_empty(), "{} streams differ:\n{}", failures.len(), failures.join("\n"));
    assert!(compared >= count / 4, "only {compared} of {count} streams compared");
}
