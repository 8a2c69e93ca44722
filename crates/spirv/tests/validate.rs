//! Every module the recompiler produces passes `spirv-val` (spirv-tools, the oracle).

use std::path::Path;

use rdna_hsa::CodeObject;

#[test]
fn the_bundled_saxpy_recompiles_to_valid_spirv() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let co = CodeObject::parse(&std::fs::read(root.join("examples/saxpy.hsaco")).unwrap()).unwrap();
    let k = co.kernel("saxpy").unwrap();
    let c = rdna_spirv::recompile(&co, k, [256, 1, 1], 0, rdna_spirv::WaveModel::Exact).unwrap();
    assert_eq!((c.waves_per_group, c.lanes), (8, 32));
    rdna_testkit::spirv_val(&c.words, "saxpy").unwrap();
}
