//! `rdna cfg` on the bundled SAXPY: its bounds check is one `s_cbranch_execz` around the body
//! (as `llvm-objdump-19 -d` of examples/saxpy.hsaco shows: the branch at 0x1914 skips to
//! `s_endpgm` at 0x1988).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn rdna(args: &[&str]) -> (bool, String, String) {
    let r = Command::new(env!("CARGO_BIN_EXE_rdna")).args(args).current_dir(root()).output().unwrap();
    (r.status.success(), String::from_utf8_lossy(&r.stdout).into_owned(), String::from_utf8_lossy(&r.stderr).into_owned())
}

#[test]
fn saxpy_is_a_guarded_body() {
    let (ok, out, err) = rdna(&["cfg", "examples/saxpy.hsaco", "--kernel", "saxpy"]);
    assert!(ok, "{err}");
    assert!(out.starts_with("kernel saxpy (gfx1030, wave32): 3 blocks in 1 function(s), 0 loop(s), reducible\n"), "{out}");
    assert!(out.contains("  bb0:  ; 0x1900\n"), "{out}");
    assert!(out.contains("    s_cbranch_execz 26\n    -> if execz goto bb2 else bb1\n"), "{out}");
    assert!(out.contains("  bb2:  ; 0x1988\n    s_endpgm\n    -> end\n"), "{out}");
    let structured = out.split("structured, function 0:\n").nth(1).unwrap();
    let want = "  block {  ; break bb2 leaves it\n    bb0\n    if execz (bb0) {\n      break bb2\n    } else {\n      bb1\n      break bb2\n    }\n  }\n  bb2\n  end\n";
    assert_eq!(structured.trim_end(), want.trim_end());
}

#[test]
fn dot_output_has_a_node_per_block_and_an_edge_per_successor() {
    let (ok, out, err) = rdna(&["cfg", "examples/saxpy.hsaco", "--kernel", "saxpy", "--dot"]);
    assert!(ok, "{err}");
    assert!(out.starts_with("digraph \"saxpy\" {"), "{out}");
    assert_eq!(out.matches("[label=\"bb").count(), 3, "{out}");
    assert_eq!(out.matches(" -> ").count(), 3, "{out}");
    assert!(out.contains("bb0 -> bb2 [label=\"execz\"];"), "{out}");
}

#[test]
fn an_unknown_kernel_is_an_error_naming_the_kernels() {
    let (ok, _, err) = rdna(&["cfg", "examples/saxpy.hsaco", "--kernel", "nope"]);
    assert!(!ok);
    assert!(err.contains("no kernel nope (kernels: saxpy, reduce_sum)"), "{err}");
}
