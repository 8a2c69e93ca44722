//! The checked-in tables must be exactly what the generator produces from llvm-mc-19 today.

fn check(target: &[&str], file: &str) {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let status = std::process::Command::new("python3")
        .arg(format!("{root}/gen/llvm_sweep.py"))
        .arg("--check")
        .args(target)
        .status()
        .expect("python3 is needed to run gen/llvm_sweep.py");
    assert!(status.success(), "crates/isa/src/generated/{file} is stale: run python3 gen/llvm_sweep.py {}", target.join(" "));
}

#[test]
fn gfx10_tables_are_up_to_date() {
    check(&[], "gfx10.rs");
}

#[test]
fn gfx11_tables_are_up_to_date() {
    check(&["--target", "gfx11"], "gfx11.rs");
}
