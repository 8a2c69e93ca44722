//! The checked-in tables must be exactly what the generator produces from llvm-mc-19 today.

#[test]
fn generated_tables_are_up_to_date() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let status = std::process::Command::new("python3")
        .arg(format!("{root}/gen/llvm_sweep.py"))
        .args(["--check", "--all"])
        .status()
        .expect("python3 is needed to run gen/llvm_sweep.py");
    assert!(status.success(), "crates/isa/src/generated/ is stale: run python3 gen/llvm_sweep.py --all");
}
