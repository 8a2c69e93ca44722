//! Every module the recompiler produces passes `spirv-val` (spirv-tools, the oracle).

use std::path::Path;
use std::process::Command;

use rdna_hsa::CodeObject;

/// Validates a module with spirv-val for Vulkan 1.3; returns its complaint, if any.
pub fn spirv_val(words: &[u32], tag: &str) -> Result<(), String> {
    let p = std::env::temp_dir().join(format!("rdna-spirv-{}-{tag}.spv", std::process::id()));
    std::fs::write(&p, words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
    let out = Command::new("spirv-val").args(["--target-env", "vulkan1.3"]).arg(&p).output().expect("spirv-val (spirv-tools) must be installed");
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
    }
}

#[test]
fn the_bundled_saxpy_recompiles_to_valid_spirv() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let co = CodeObject::parse(&std::fs::read(root.join("examples/saxpy.hsaco")).unwrap()).unwrap();
    let k = co.kernel("saxpy").unwrap();
    let c = rdna_spirv::recompile(&co, k, [256, 1, 1], 0).unwrap();
    assert_eq!((c.waves_per_group, c.lanes), (8, 32));
    spirv_val(&c.words, "saxpy").unwrap();
}
