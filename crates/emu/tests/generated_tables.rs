//! The emulator's generated tables are what their generators write, and hold what they claim.

use std::path::Path;
use std::process::Command;

#[test]
fn log2_table_is_what_its_generator_writes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new("python3").arg(root.join("gen/log2_table.py")).output().expect("python3 runs gen/log2_table.py");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let checked_in = std::fs::read_to_string(root.join("crates/emu/src/generated/log2_table.rs")).unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), checked_in, "rerun: python3 gen/log2_table.py > crates/emu/src/generated/log2_table.rs");
}

#[test]
fn log2_bins_keep_products_exact_and_their_logs_right() {
    for (i, &(inv, t)) in rdna_emu::float::LOG2_BINS.iter().enumerate() {
        // On a 2^-20 grid: a 24-bit mantissa times it is exact in f64.
        assert_eq!((inv * (1 << 20) as f64).fract(), 0.0, "bin {i}");
        // The bin's mantissas (halved from 1.5 up) times inv stay within 1/64 of 1.
        let lo = 1.0 + i as f64 / 64.0;
        let (lo, hi) = if i >= 32 { (lo / 2.0, (lo + 1.0 / 64.0) / 2.0) } else { (lo, lo + 1.0 / 64.0) };
        assert!((lo * inv - 1.0).abs() <= 1.0 / 64.0 && (hi * inv - 1.0).abs() <= 1.0 / 64.0, "bin {i}");
        let want = -inv.log2();
        assert!((t - want).abs() <= f64::EPSILON * want.abs(), "bin {i}: {t} vs libm {want}");
    }
}
