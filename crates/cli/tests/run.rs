//! `rdna run` end to end: the bundled dispatch file against a Rust reference, the trace, and the
//! errors a bad dispatch file gets.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rdna-run-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn floats(p: &Path) -> Vec<f32> {
    std::fs::read(p).unwrap().chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
}

#[test]
fn bundled_saxpy_dispatch_matches_reference() {
    let out = tmp("saxpy");
    let r = Command::new(env!("CARGO_BIN_EXE_rdna"))
        .args(["run"])
        .arg(root().join("examples/saxpy.json"))
        .args(["--backend", "emu", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let x = floats(&root().join("examples/saxpy-data/x.bin"));
    let y = floats(&root().join("examples/saxpy-data/y.bin"));
    let got = floats(&out.join("out.bin"));
    assert_eq!(got.len(), 4096);
    for i in 0..4096 {
        // The bundled kernel is compiled with contraction: one fused multiply-add.
        assert_eq!(got[i].to_bits(), 2.0f32.mul_add(x[i], y[i]).to_bits(), "out[{i}]");
    }
    // Inputs are written back unchanged.
    assert_eq!(floats(&out.join("x.bin")), x);
}

#[test]
fn trace_prints_instructions_and_changed_registers() {
    let out = tmp("trace");
    let r = Command::new(env!("CARGO_BIN_EXE_rdna"))
        .arg("run")
        .arg(root().join("examples/saxpy.json"))
        .args(["--trace", "1,0", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(r.status.success());
    let err = String::from_utf8_lossy(&r.stderr);
    let first = err.lines().next().unwrap();
    assert!(first.starts_with("0x1900: s_load_dwordx2 s[0:1], s[4:5], 0x18  ; s0="), "{first}");
    assert!(err.lines().any(|l| l.contains("v_fmac_f32_e32") && l.contains("v3=[")), "{err}");
    assert!(err.lines().any(|l| l.contains("s_endpgm")));
}

fn run_err(json: &str) -> String {
    let d = tmp(&format!("err{}", json.len()));
    std::fs::copy(root().join("examples/saxpy.hsaco"), d.join("k.hsaco")).unwrap();
    std::fs::write(d.join("in.bin"), [0u8; 64]).unwrap();
    std::fs::write(d.join("d.json"), json).unwrap();
    let r = Command::new(env!("CARGO_BIN_EXE_rdna")).arg("run").arg(d.join("d.json")).arg("--out").arg(d.join("o")).output().unwrap();
    assert!(!r.status.success(), "a bad dispatch must fail: {json}");
    String::from_utf8_lossy(&r.stderr).into_owned()
}

#[test]
fn bad_dispatch_files_are_clear_errors() {
    let base = |kernel: &str, args: &str| {
        format!(r#"{{"code_object": "k.hsaco", "kernel": "{kernel}", "grid": [16], "workgroup": [16], "buffers": {{"a": {{"file": "in.bin"}}, "o": {{"size": 64}}}}, "args": [{args}]}}"#)
    };
    let e = run_err(&base("nope", ""));
    assert!(e.contains("kernel 'nope' is not in") && e.contains("saxpy, reduce_sum"), "{e}");
    let e = run_err(&base("saxpy", r#"{"buffer": "o"}"#));
    assert!(e.contains("takes 5 arguments, the dispatch gives 1"), "{e}");
    let e = run_err(&base("saxpy", r#"{"buffer": "o"}, {"buffer": "a"}, {"buffer": "zz"}, {"f32": 1.0}, {"u32": 16}"#));
    assert!(e.contains("no buffer named 'zz'"), "{e}");
    let e = run_err(&base("saxpy", r#"{"buffer": "o"}, {"buffer": "a"}, {"buffer": "a"}, {"f64": 1.0}, {"u32": 16}"#));
    assert!(e.contains("argument 3") && e.contains("4 bytes"), "{e}");
    let e = run_err(&base("saxpy", r#"{"f32": 1.0}, {"buffer": "a"}, {"buffer": "a"}, {"f32": 1.0}, {"u32": 16}"#));
    assert!(e.contains("argument 0"), "{e}");
    let e = run_err(&base("saxpy", r#"{"buffer": "o"}, {"buffer": "a"}, {"buffer": "a"}, {"bytes": [1, 2, 3]}, {"u32": 16}"#));
    assert!(e.contains("argument 3") && e.contains("3-byte"), "{e}");
    let e = run_err(&base("saxpy", r#"{"buffer": "o"}, {"buffer": "a"}, {"local": 64}, {"f32": 1.0}, {"u32": 16}"#));
    assert!(e.contains("argument 2") && e.contains("not a __local pointer"), "{e}");
    let e = run_err(r#"{"code_object": "k.hsaco", "kernel": "saxpy", "grid": [0], "workgroup": [16]}"#);
    assert!(e.contains("'grid' [0] has a zero dimension"), "{e}");
    let e = run_err(r#"{"code_object": "missing.hsaco", "kernel": "saxpy", "grid": [1], "workgroup": [1]}"#);
    assert!(e.contains("missing.hsaco"), "{e}");
    let e = run_err(r#"{"code_object": "k.hsaco", "kernel": "saxpy", "grid": [1], "workgroup": [1], "extra": 1}"#);
    assert!(e.contains("unknown field `extra`"), "{e}");
    let e = run_err(r#"{"code_object": "k.hsaco", "kernel": "saxpy", "grid": [1], "workgroup": [1], "buffers": {"b": {"file": "in.bin", "size": 4}}}"#);
    assert!(e.contains("size 4 is smaller than its file"), "{e}");
    let e = run_err("{ not json");
    assert!(e.contains("d.json"), "{e}");
    let e = run_err(r#"{"code_object": "k.hsaco", "kernel": "saxpy", "grid": [4294967295, 4294967295, 4294967295], "workgroup": [1, 1, 1],
        "buffers": {"a": {"size": 64}}, "args": [{"buffer": "a"}, {"buffer": "a"}, {"buffer": "a"}, {"f32": 1.0}, {"u32": 1}]}"#);
    assert!(e.contains("workgroups"), "{e}");
    let e = run_err(r#"{"code_object": "k.hsaco", "kernel": "saxpy", "grid": [64], "workgroup": [2048],
        "buffers": {"a": {"size": 64}}, "args": [{"buffer": "a"}, {"buffer": "a"}, {"buffer": "a"}, {"f32": 1.0}, {"u32": 1}]}"#);
    assert!(e.contains("1024"), "{e}");
    let e = run_err(r#"{"code_object": "k.hsaco", "kernel": "saxpy", "grid": [64], "workgroup": [64],
        "buffers": {"a": {"size": 99999999999999}}, "args": []}"#);
    assert!(e.contains("exceeds"), "{e}");
}

#[test]
fn guest_out_of_bounds_access_is_a_fault_with_pc_and_text() {
    // SAXPY told n = 32 over 16-element buffers reads past the end of x: an unmapped access.
    let d = tmp("oob");
    std::fs::copy(root().join("examples/saxpy.hsaco"), d.join("k.hsaco")).unwrap();
    std::fs::write(d.join("in.bin"), [0u8; 64]).unwrap();
    std::fs::write(
        d.join("d.json"),
        r#"{"code_object": "k.hsaco", "kernel": "saxpy", "grid": [256], "workgroup": [256],
            "buffers": {"x": {"file": "in.bin"}, "y": {"file": "in.bin"}, "out": {"size": 64}},
            "args": [{"buffer": "out"}, {"buffer": "x"}, {"buffer": "y"}, {"f32": 1.0}, {"u32": 256}]}"#,
    )
    .unwrap();
    let r = Command::new(env!("CARGO_BIN_EXE_rdna")).arg("run").arg(d.join("d.json")).arg("--out").arg(d.join("o")).output().unwrap();
    assert!(!r.status.success());
    let e = String::from_utf8_lossy(&r.stderr);
    assert!(e.contains("kernel 'saxpy' (gfx1030)") && e.contains("global_load_dword") && e.contains("unmapped address"), "{e}");
}

#[test]
fn local_pointer_arguments_get_dynamic_lds() {
    let d = tmp("local");
    let obj = d.join("k.o");
    let co = d.join("k.hsaco");
    let st = Command::new("clang-19")
        .args(["-x", "cl", "-cl-std=CL2.0", "--target=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-nogpulib", "-O2", "-c"])
        .arg(root().join("tests/kernels/corpus2.cl"))
        .arg("-o")
        .arg(&obj)
        .status()
        .expect("clang-19");
    assert!(st.success());
    assert!(Command::new("ld.lld-19").arg("-shared").arg(&obj).arg("-o").arg(&co).status().unwrap().success());
    std::fs::write(
        d.join("d.json"),
        r#"{"code_object": "k.hsaco", "kernel": "k_local_arg", "grid": [256], "workgroup": [128],
            "buffers": {"out": {"size": 1024}},
            "args": [{"buffer": "out"}, {"local": 512}, {"u32": 128}]}"#,
    )
    .unwrap();
    let r = Command::new(env!("CARGO_BIN_EXE_rdna")).arg("run").arg(d.join("d.json")).arg("--out").arg(d.join("o")).output().unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let out: Vec<u32> = std::fs::read(d.join("o/out.bin")).unwrap().chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    for (i, v) in out.iter().enumerate() {
        let (wg, l) = (i as u32 / 128, i as u32 % 128);
        assert_eq!(*v, ((l + 1) % 128) * 3 + wg, "out[{i}]");
    }
    // Too little LDS for the kernel's accesses is a fault, not a silent wrap.
    std::fs::write(
        d.join("small.json"),
        r#"{"code_object": "k.hsaco", "kernel": "k_local_arg", "grid": [128], "workgroup": [128],
            "buffers": {"out": {"size": 512}}, "args": [{"buffer": "out"}, {"local": 64}, {"u32": 128}]}"#,
    )
    .unwrap();
    let r = Command::new(env!("CARGO_BIN_EXE_rdna")).arg("run").arg(d.join("small.json")).arg("--out").arg(d.join("o2")).output().unwrap();
    assert!(!r.status.success());
    assert!(String::from_utf8_lossy(&r.stderr).contains("LDS access out of bounds"));
}

/// The recompiled SAXPY on the machine's Vulkan device (lavapipe in CI) writes exactly what the
/// emulator writes, run once and run three times back to back (`--repeat`, whose timing line
/// says so; the emulator refuses it).
#[test]
fn vulkan_backend_matches_the_emulator_on_saxpy() {
    let (a, b, c) = (tmp("vk-emu"), tmp("vk-vk"), tmp("vk-vk3"));
    for (backend, repeat, dir) in [("emu", "1", &a), ("vulkan", "1", &b), ("vulkan", "3", &c)] {
        let r = Command::new(env!("CARGO_BIN_EXE_rdna")).arg("run").arg(root().join("examples/saxpy.json")).args(["--backend", backend, "--repeat", repeat, "--out"]).arg(dir).output().unwrap();
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(r.status.success(), "{backend}: {err}");
        assert_eq!(err.contains("the fastest of 3 runs back to back"), repeat == "3" && err.contains("ms on the device"), "{err}");
    }
    for name in ["out", "x", "y"] {
        let x = std::fs::read(a.join(format!("{name}.bin"))).unwrap();
        assert_eq!(x.len(), 16384);
        for dir in [&b, &c] {
            assert!(x == std::fs::read(dir.join(format!("{name}.bin"))).unwrap(), "{name}.bin differs between the emulator and Vulkan ({})", dir.display());
        }
    }
    let r = Command::new(env!("CARGO_BIN_EXE_rdna")).arg("run").arg(root().join("examples/saxpy.json")).args(["--repeat", "2", "--out"]).arg(&a).output().unwrap();
    assert!(!r.status.success() && String::from_utf8_lossy(&r.stderr).contains("needs --backend vulkan"));
}

/// The README's main command: both backends on the bundled example, each checked by the demo
/// against its own Rust reference; CI has lavapipe, so the Vulkan half must have run.
#[test]
fn demo_runs_both_backends_and_they_agree_with_the_reference() {
    let r = Command::new(env!("CARGO_BIN_EXE_rdna")).arg("demo").output().unwrap();
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(r.status.success(), "{text}\n{}", String::from_utf8_lossy(&r.stderr));
    assert!(text.contains("emulator: 10000 of 10000 results identical"), "{text}");
    assert!(text.contains("vulkan:   10000 of 10000 results identical"), "{text}");
}
