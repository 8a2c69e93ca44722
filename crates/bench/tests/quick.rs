//! The suite in `--quick` mode: every section runs end to end (the GPU section on lavapipe,
//! outputs checked against references), and the report carries real figures and the charts.

use std::path::Path;
use std::process::Command;

#[test]
fn every_section_runs_and_reports() {
    let exe = Path::new(env!("CARGO_BIN_EXE_rdna-bench"));
    // `cargo test --workspace` builds rdna-cli's binary beside this one.
    let rdna = exe.with_file_name("rdna");
    assert!(rdna.exists(), "{} is missing: run the tests with --workspace", rdna.display());
    let out = std::env::temp_dir().join(format!("rdna-bench-quick-{}", std::process::id()));
    let run = Command::new(exe).arg("--quick").arg("--out").arg(&out).arg("--rdna").arg(&rdna).output().unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "rdna-bench --quick failed:\n{stdout}\n{}", String::from_utf8_lossy(&run.stderr));
    let tsv = std::fs::read_to_string(out.join("report.tsv")).unwrap();
    let rows: Vec<Vec<&str>> = tsv.lines().skip(1).map(|l| l.split('\t').collect()).collect();
    for section in ["disassembly", "emulation", "recompilation"] {
        assert!(rows.iter().any(|r| r[0] == section), "no {section} figure in\n{tsv}");
    }
    for r in &rows {
        let v: f64 = r[2].parse().unwrap();
        assert!(v.is_finite() && v > 0.0, "figure without a value: {r:?}");
    }
    // The peers measured in the same run: llvm-objdump-19 and spirv-val, with their ratios.
    for peer in ["llvm-objdump-19 -d", "spirv-val on the same modules"] {
        let r = rows.iter().find(|r| r[4] == peer).unwrap_or_else(|| panic!("no figure against {peer}"));
        assert!(r[6].parse::<f64>().unwrap() > 0.0);
    }
    let svg = std::fs::read_to_string(out.join("scaling.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.matches("<polyline").count() >= 4, "{svg}");
    let _ = std::fs::remove_dir_all(&out);
}
