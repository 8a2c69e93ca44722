//! Golden SPIR-V text for a few small kernels (bundled code objects, `tests/golden/build.sh`):
//! a change to what the recompiler emits shows up here as a readable diff. Each module also
//! passes spirv-val. Regenerate with `RDNA_BLESS=1 cargo test -p rdna-spirv --test golden`.

use std::path::Path;

use rdna_hsa::CodeObject;

use rdna_spirv::WaveModel::{self, Exact, Subgroup};

/// (code object, kernel, workgroup size, wave model).
const CASES: [(&str, &str, u32, WaveModel); 9] = [
    ("examples/saxpy.hsaco", "saxpy", 256, Exact),
    ("crates/spirv/tests/golden/golden-gfx1030-w32.hsaco", "clamp_add", 64, Exact),
    ("crates/spirv/tests/golden/golden-gfx1030-w32.hsaco", "lds_reverse", 64, Exact),
    ("crates/spirv/tests/golden/golden-gfx1030-w32.hsaco", "loop_sum", 64, Exact),
    ("crates/spirv/tests/golden/golden-gfx1100-w64.hsaco", "lds_reverse", 64, Exact),
    ("examples/saxpy.hsaco", "saxpy", 256, Subgroup),
    ("crates/spirv/tests/golden/golden-gfx1030-w32.hsaco", "lds_reverse", 64, Subgroup),
    ("crates/spirv/tests/golden/golden-gfx1030-w32.hsaco", "hash_rounds", 64, Exact),
    ("crates/spirv/tests/golden/golden-gfx1030-w32.hsaco", "hash_rounds", 64, Subgroup),
];

#[test]
fn recompiled_text_matches_the_golden_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let bless = std::env::var_os("RDNA_BLESS").is_some();
    let mut stale = Vec::new();
    for (file, kernel, wg, model) in CASES {
        let co = CodeObject::parse(&std::fs::read(root.join(file)).unwrap()).unwrap();
        let k = co.kernel(kernel).unwrap();
        let c = rdna_spirv::recompile(&co, k, [wg, 1, 1], 0, model).unwrap_or_else(|e| panic!("{file} {kernel}: {e}"));
        let target = co.mcpu.unwrap_or("unknown");
        let suffix = if model == Subgroup { "-subgroup" } else { "" };
        let name = format!("{kernel}-{target}-w{}{suffix}.spvasm", c.lanes);
        rdna_testkit::spirv_val(&c.words, &name).unwrap_or_else(|e| panic!("{name}: spirv-val: {e}"));
        let text = format!(
            "; {kernel} from {file}, workgroup {wg}, wave model {model}. Generated: RDNA_BLESS=1 cargo test -p rdna-spirv --test golden\n{}\n",
            rdna_spirv::disassemble(&c.words)
        );
        let path = root.join("crates/spirv/tests/golden").join(&name);
        if bless {
            std::fs::write(&path, &text).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        if want != text {
            let line = want.lines().zip(text.lines()).position(|(a, b)| a != b).unwrap_or(want.lines().count().min(text.lines().count()));
            stale.push(format!(
                "{name}: differs from line {} (golden {:?}, now {:?})",
                line + 1,
                want.lines().nth(line).unwrap_or("<end>"),
                text.lines().nth(line).unwrap_or("<end>")
            ));
        }
    }
    assert!(stale.is_empty(), "SPIR-V changed (check the change, then bless with RDNA_BLESS=1):\n{}", stale.join("\n"));
}

/// `Compiled::workgroup_bytes`, which the runtime checks against the device's shared-memory
/// limit, is what the module declares: the sizes of its Workgroup variables, read back from the
/// module with rspirv's parser.
#[test]
fn workgroup_bytes_is_what_the_module_declares() {
    use rspirv::dr::Operand;
    use rspirv::spirv::{Op, StorageClass};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for (file, kernel, wg, model) in CASES {
        let co = CodeObject::parse(&std::fs::read(root.join(file)).unwrap()).unwrap();
        let c = rdna_spirv::recompile(&co, co.kernel(kernel).unwrap(), [wg, 1, 1], 0, model).unwrap();
        let m = rspirv::dr::load_words(&c.words).unwrap();
        let word = |i: &rspirv::dr::Instruction, k: usize| match i.operands.get(k) {
            Some(Operand::IdRef(id)) => *id,
            _ => 0,
        };
        let find = |id: u32| m.types_global_values.iter().find(|i| i.result_id == Some(id)).unwrap();
        // Bytes of a type: u32 scalars and arrays of them are all the module declares there.
        let size = |ty: u32| -> u32 {
            let t = find(ty);
            match t.class.opcode {
                Op::TypeInt => 4,
                Op::TypeArray => {
                    let n = match &find(word(t, 1)).operands[0] {
                        Operand::LiteralBit32(n) => *n,
                        other => panic!("array length {other:?}"),
                    };
                    assert_eq!(find(word(t, 0)).class.opcode, Op::TypeInt);
                    4 * n
                }
                other => panic!("{other:?} in workgroup memory"),
            }
        };
        let declared: u32 = m
            .types_global_values
            .iter()
            .filter(|i| i.class.opcode == Op::Variable && i.operands.first() == Some(&Operand::StorageClass(StorageClass::Workgroup)))
            .map(|v| size(word(find(v.result_type.unwrap()), 1)))
            .sum();
        assert_eq!(c.workgroup_bytes, declared, "{file} {kernel} ({model})");
        assert!(declared >= c.lds_bytes);
    }
}
