//! `rdna dis` on clang-19-compiled gfx1030 kernels must agree, instruction for instruction, with
//! `llvm-objdump-19 -d` on the same code object.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn compile(cl: &Path, mcpu: &str, extra: &[&str], dir: &Path) -> PathBuf {
    let stem = cl.file_stem().unwrap().to_str().unwrap();
    let obj = dir.join(format!("{stem}-{mcpu}.o"));
    let hsaco = dir.join(format!("{stem}-{mcpu}.hsaco"));
    let st = Command::new("clang-19")
        .args(["-x", "cl", "-cl-std=CL2.0", "--target=amdgcn-amd-amdhsa", &format!("-mcpu={mcpu}"), "-nogpulib", "-O2", "-c"])
        .args(extra)
        .arg(cl)
        .arg("-o")
        .arg(&obj)
        .status()
        .expect("clang-19 must be installed");
    assert!(st.success(), "clang-19 failed on {}", cl.display());
    let st = Command::new("ld.lld-19").arg("-shared").arg(&obj).arg("-o").arg(&hsaco).status().expect("ld.lld-19");
    assert!(st.success());
    hsaco
}

/// (function, instruction text) pairs from an objdump-style listing.
fn listing(text: &str) -> Vec<(String, String)> {
    let mut func = String::new();
    let mut v = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_suffix(">:") {
            func = rest.split('<').nth(1).unwrap_or("").to_string();
        } else if line.starts_with('\t') && line.contains("//") {
            let inst = line.split("//").next().unwrap().trim().to_string();
            v.push((func.clone(), inst));
        }
    }
    v
}

fn check(hsaco: &Path) -> usize {
    let llvm = Command::new("llvm-objdump-19").arg("-d").arg(hsaco).output().expect("llvm-objdump-19");
    let ours = Command::new(env!("CARGO_BIN_EXE_rdna")).arg("dis").arg(hsaco).output().unwrap();
    assert!(ours.status.success(), "rdna dis failed: {}", String::from_utf8_lossy(&ours.stderr));
    let a = listing(&String::from_utf8_lossy(&llvm.stdout));
    let b = listing(&String::from_utf8_lossy(&ours.stdout));
    assert!(!a.is_empty());
    for (i, (x, y)) in a.iter().zip(b.iter()).enumerate() {
        assert_eq!(x, y, "{}: instruction {i} differs", hsaco.display());
    }
    assert_eq!(a.len(), b.len(), "{}: instruction counts differ", hsaco.display());
    a.len()
}

#[test]
fn bundled_example_matches_llvm_objdump() {
    let n = check(&root().join("examples/saxpy.hsaco"));
    assert!(n > 20);
}

#[test]
fn compiled_kernels_match_llvm_objdump() {
    let dir = std::env::temp_dir().join(format!("rdna-objdump-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut total = 0;
    for entry in std::fs::read_dir(root().join("tests/kernels")).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().and_then(|e| e.to_str()) != Some("cl") {
            continue;
        }
        for mcpu in ["gfx1030", "gfx1100"] {
            for extra in [&[][..], &["-mwavefrontsize64"][..]] {
                let h = compile(&p, mcpu, extra, &dir);
                total += check(&h);
            }
        }
    }
    println!("{total} instructions agree with llvm-objdump-19");
    assert!(total > 100);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn hex_input_matches_llvm_mc_layout() {
    // --show-encoding pads the text to column 40 like llvm-mc.
    let out = Command::new(env!("CARGO_BIN_EXE_rdna"))
        .args(["dis", "--mcpu", "gfx1030", "--hex", "--show-encoding", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(b"0x02,0x03,0x02,0x7e\n0xff,0xff,0xff,0xff\n")?;
            c.wait_with_output()
        })
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        "\t.text\n\tv_mov_b32_e32 v1, v2                    ; encoding: [0x02,0x03,0x02,0x7e]\n\t.long 0xffffffff\n"
    );
}

#[test]
fn bad_inputs_are_clear_errors() {
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_rdna")).args(args).output().unwrap();
    let o = run(&["dis", "--mcpu", "gfx9999", "--hex", "/dev/null"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown target 'gfx9999'"));
    // Every llvm-mc-19 target decodes now (the "does not decode yet" refusal has no target left);
    // a generation alias names one.
    let o = run(&["dis", "--mcpu", "rdna4", "--hex", "/dev/null"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Every generation alias names a target.
    let o = run(&["isa", "--targets"]);
    let list = String::from_utf8_lossy(&o.stdout);
    for line in ["gfx1010          RDNA1", "gfx90a           CDNA2", "gfx700           GCN2 (Sea Islands, PS4)"] {
        assert!(list.contains(line), "{line} missing from:\n{list}");
    }
    let o = run(&["dis", "/dev/null"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a valid ELF file"));
    let o = run(&["dis", env!("CARGO_BIN_EXE_rdna")]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("expected EM_AMDGPU"));
}

/// A reader that stops early (`rdna dis … | head`) ends the run quietly: no error message and
/// a success status, once the closed pipe makes a write fail.
#[test]
fn a_closed_pipe_is_not_an_error() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    // 256 Ki s_nop: megabytes of text, far beyond what a pipe buffers.
    let path = std::env::temp_dir().join(format!("rdna-pipe-{}.bin", std::process::id()));
    std::fs::write(&path, 0xbf80_0000u32.to_le_bytes().repeat(256 << 10)).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_rdna"))
        .args(["dis", "--raw", "--mcpu", "gfx1030"])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    std::fs::remove_file(&path).ok();
    assert!(String::from_utf8_lossy(&first).contains("s_nop 0"), "{}", String::from_utf8_lossy(&first));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert!(out.status.success(), "{:?}", out.status);
}

/// Every line of `rdna dis`, addresses, dwords and branch notes included, equals
/// llvm-objdump-19's, on a function large enough (576 KB) to be decoded in parallel pieces of
/// 256 KiB (the second piece starts inside an instruction, on its literal); the first branch's
/// target is below address 0, which gets no note; 12 zero bytes print as `...`, a lone zero
/// dword as an instruction.
#[test]
fn whole_lines_match_llvm_objdump_on_a_large_function() {
    let body = "    v_mad_u64_u32 v[2:3], null, v2, s1, 0x3c6ef35f\n    v_add_f32_e32 v1, 0x3f800000, v2\n    s_subvector_loop_begin s0, 4\n    s_subvector_loop_end s0, 3\n    s_call_b64 s[0:1], 4\n    s_cbranch_scc0 5\n    v_fmac_f32_e32 v5, 0x3f7fbe77, v1\n    s_branch 2\n";
    let src = format!(
        "    .amdgcn_target \"amdgcn-amd-amdhsa--gfx1030\"\n    .text\n    .globl k\n    .p2align 8\n    .type k,@function\nk:\n    s_cbranch_scc1 -2000\n    .long 0, 0, 0\n    v_nop\n    .long 0\n    v_nop\n{}    s_endpgm\n    .rodata\n    .p2align 6\n    .amdhsa_kernel k\n        .amdhsa_next_free_vgpr 8\n        .amdhsa_next_free_sgpr 8\n    .end_amdhsa_kernel\n",
        body.repeat(12000)
    );
    let dir = std::env::temp_dir().join(format!("rdna-objdump-lines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (s, o, h) = (dir.join("big.s"), dir.join("big.o"), dir.join("big.hsaco"));
    std::fs::write(&s, src).unwrap();
    let st = Command::new("clang-19").args(["-x", "assembler", "--target=amdgcn-amd-amdhsa", "-mcpu=gfx1030", "-c"]).arg(&s).arg("-o").arg(&o).status().unwrap();
    assert!(st.success());
    assert!(Command::new("ld.lld-19").arg("-shared").arg(&o).arg("-o").arg(&h).status().unwrap().success());
    let lines = |out: std::process::Output| -> Vec<String> { String::from_utf8_lossy(&out.stdout).lines().filter(|l| l.starts_with('\t')).map(String::from).collect() };
    let llvm = lines(Command::new("llvm-objdump-19").arg("-d").arg(&h).output().unwrap());
    let ours = lines(Command::new(env!("CARGO_BIN_EXE_rdna")).arg("dis").arg(&h).output().unwrap());
    assert_eq!(llvm.len(), 12000 * 8 + 6);
    for (i, (a, b)) in llvm.iter().zip(&ours).enumerate() {
        assert_eq!(a, b, "line {i}");
    }
    assert_eq!(llvm.len(), ours.len());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `s_version` operands (names, decimal codes, flag bits, hex) as llvm-mc-19 prints them on
/// every generation that has the instruction.
#[test]
fn s_version_matches_llvm_mc() {
    let values: Vec<u32> = (0..300).chain((0..65536).step_by(97)).chain((0..256).map(|i| 0xe000 | i)).collect();
    let hex: Vec<String> = values.iter().map(|v| format!("{:#04x},{:#04x},0xaa,0xb0", v & 0xff, v >> 8)).collect();
    let path = std::env::temp_dir().join(format!("rdna-s-version-{}.txt", std::process::id()));
    std::fs::write(&path, hex.join("\n")).unwrap();
    for mcpu in ["gfx1010", "gfx1030", "gfx1100", "gfx1150", "gfx1200"] {
        let lines = |out: std::process::Output| -> Vec<String> { String::from_utf8_lossy(&out.stdout).lines().filter(|l| l.contains("s_version")).map(|l| l.trim().to_string()).collect() };
        let llvm = lines(Command::new("llvm-mc-19").args(["-arch=amdgcn", &format!("-mcpu={mcpu}"), "--disassemble"]).arg(&path).output().unwrap());
        let ours = lines(Command::new(env!("CARGO_BIN_EXE_rdna")).args(["dis", "--mcpu", mcpu, "--hex"]).arg(&path).output().unwrap());
        assert_eq!(llvm.len(), values.len(), "{mcpu}");
        assert_eq!(llvm, ours, "{mcpu}");
    }
    let _ = std::fs::remove_file(&path);
}
