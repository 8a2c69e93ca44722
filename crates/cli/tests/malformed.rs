//! The malformed-input corpus (`tests/malformed/`, written by its `make.py`): each file, fed to
//! the command `expected.tsv` names, must make rdna exit with an error that contains the listed
//! text, and never panic. Every file of the directory must be listed.

use std::process::Command;

#[test]
fn every_malformed_input_gets_its_error() {
    let dir = rdna_testkit_root().join("tests/malformed");
    let out = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("malformed-out");
    let manifest = std::fs::read_to_string(dir.join("expected.tsv")).unwrap();
    let mut listed = Vec::new();
    for line in manifest.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [file, args, want] = cols[..] else { panic!("bad manifest line {line:?}") };
        listed.push(file.to_string());
        if args == "-" {
            continue;
        }
        let args: Vec<String> = args.split(' ').map(|a| if a == "{}" { file.to_string() } else if a == "OUT" { out.display().to_string() } else { a.to_string() }).collect();
        let r = Command::new(env!("CARGO_BIN_EXE_rdna")).args(&args).current_dir(&dir).output().unwrap();
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(!r.status.success(), "{file}: rdna {args:?} succeeded");
        assert_eq!(r.status.code(), Some(1), "{file}: exit status {:?}: {err}", r.status);
        assert!(!err.contains("panicked"), "{file}: {err}");
        assert!(err.contains(want), "{file}: rdna {args:?} said\n  {err}\nwhich lacks\n  {want}");
    }
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name != "make.py" && name != "expected.tsv" {
            assert!(listed.contains(&name), "{name} is in the corpus but not in expected.tsv");
        }
    }
    println!("{} malformed inputs, each with its error", listed.len());
}

fn rdna_testkit_root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}
