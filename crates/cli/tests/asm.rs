//! `rdna asm` against llvm-mc-19: the same lines give the same `-show-encoding` output, and bad
//! text is an error naming the file, line and column.

use std::io::Write;
use std::process::{Command, Stdio};

fn run(cmd: &mut Command, input: &str) -> (String, String, bool) {
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned(), out.status.success())
}

#[test]
fn show_encoding_prints_what_llvm_mc_prints() {
    let source = "v_add_f32 v1, v2, v3\ns_waitcnt vmcnt(0) lgkmcnt(0)\nbuffer_load_dword v1, off, s[4:7], s1 offset:16 glc\n\
                  v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\nv_add_f32 v1, -v2, s3\ns_endpgm\n";
    for mcpu in ["gfx1030", "gfx900"] {
        let (ours, err, ok) = run(Command::new(env!("CARGO_BIN_EXE_rdna")).args(["asm", "--mcpu", mcpu, "--show-encoding", "-"]), source);
        assert!(ok, "{err}");
        let (llvm, _, _) = run(Command::new("llvm-mc-19").args(["-arch=amdgcn", &format!("-mcpu={mcpu}"), "-show-encoding"]), source);
        assert_eq!(ours, llvm, "{mcpu}");
    }
}

#[test]
fn output_file_holds_the_bytes_and_errors_name_the_place() {
    let dir = std::env::temp_dir().join(format!("rdna-cli-asm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("k.s");
    std::fs::write(&src, "top:\n  s_nop 0\n  s_branch top\n").unwrap();
    let bin = dir.join("k.bin");
    let (_, err, ok) = run(Command::new(env!("CARGO_BIN_EXE_rdna")).args(["asm", "--mcpu", "gfx1100", "-o"]).arg(&bin).arg(&src), "");
    assert!(ok, "{err}");
    // s_nop 0; s_branch -2 (back over itself and the nop).
    assert_eq!(std::fs::read(&bin).unwrap(), [0x00, 0x00, 0x80, 0xbf, 0xfe, 0xff, 0xa0, 0xbf]);
    std::fs::write(&src, "  s_nop 0\n  v_add_f32 v1, v2, v999\n").unwrap();
    let (_, err, ok) = run(Command::new(env!("CARGO_BIN_EXE_rdna")).args(["asm", "--mcpu", "gfx1100"]).arg(&src), "");
    assert!(!ok);
    assert!(err.contains("k.s:2:21: invalid 'v999'"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
