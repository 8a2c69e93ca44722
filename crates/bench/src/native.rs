//! SAXPY written directly in SPIR-V, with no recompilation: the ceiling of the Vulkan path.
//!
//! Run through the same runtime as the recompiled kernels (same buffers, same memory, same
//! timestamps), it tells the runtime's share of a recompiled kernel's time from the
//! recompiled code's: if this is near CUDA's SAXPY, what the recompiler emits is the gap.

use rspirv::dr::{Builder, Operand};
use rspirv::spirv::{AddressingModel, BuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel, FunctionControl, MemoryAccess, MemoryModel, SelectionControl, StorageClass, Word};

/// Workgroup size of the module.
pub const GROUP: u32 = 256;

/// The push constants: x, y and out addresses, then a and n.
pub fn push(x: u64, y: u64, out: u64, a: f32, n: u32) -> Vec<u8> {
    [&x.to_le_bytes()[..], &y.to_le_bytes(), &out.to_le_bytes(), &a.to_bits().to_le_bytes(), &n.to_le_bytes()].concat()
}

/// `out[i] = a * x[i] + y[i]` for `i < n`, `width` (1, 2 or 4) consecutive elements an
/// invocation, read and written as one vector when more than one (entry point `main`, [`GROUP`]
/// invocations a workgroup; push constants as [`push`] lays them out; `n` a multiple of `width`).
pub fn saxpy(width: u32) -> Vec<u32> {
    let mut b = Builder::new();
    b.set_version(1, 5);
    for c in [Capability::Shader, Capability::Int64, Capability::PhysicalStorageBufferAddresses] {
        b.capability(c);
    }
    b.memory_model(AddressingModel::PhysicalStorageBuffer64, MemoryModel::GLSL450);
    let void = b.type_void();
    let fn_ty = b.type_function(void, vec![]);
    let boolt = b.type_bool();
    let u32t = b.type_int(32, 0);
    let u64t = b.type_int(64, 0);
    let f32t = b.type_float(32);
    let v3 = b.type_vector(u32t, 3);
    let in_v3 = b.type_pointer(None, StorageClass::Input, v3);
    let gid = b.variable(in_v3, None, StorageClass::Input, None);
    b.decorate(gid, Decoration::BuiltIn, [Operand::BuiltIn(BuiltIn::GlobalInvocationId)]);
    let push_ty = b.type_struct([u64t, u64t, u64t, f32t, u32t]);
    b.decorate(push_ty, Decoration::Block, []);
    for (m, off) in [0u32, 8, 16, 24, 28].into_iter().enumerate() {
        b.member_decorate(push_ty, m as u32, Decoration::Offset, [Operand::LiteralBit32(off)]);
    }
    let pc_ptr = b.type_pointer(None, StorageClass::PushConstant, push_ty);
    let pc = b.variable(pc_ptr, None, StorageClass::PushConstant, None);
    let pc_u64 = b.type_pointer(None, StorageClass::PushConstant, u64t);
    let pc_u32 = b.type_pointer(None, StorageClass::PushConstant, u32t);
    let pc_f32 = b.type_pointer(None, StorageClass::PushConstant, f32t);
    let elem = if width == 1 { f32t } else { b.type_vector(f32t, width) };
    let psb_elem = b.type_pointer(None, StorageClass::PhysicalStorageBuffer, elem);
    let member: Vec<Word> = (0..5).map(|m| b.constant_bit32(u32t, m)).collect();
    let bytes = b.constant_bit64(u64t, 4 * width as u64);
    let width_c = b.constant_bit32(u32t, width);

    let main = b.begin_function(void, None, FunctionControl::NONE, fn_ty).unwrap();
    b.begin_block(None).unwrap();
    let g = b.load(v3, None, gid, None, []).unwrap();
    let i = b.composite_extract(u32t, None, g, [0]).unwrap();
    let np = b.access_chain(pc_u32, None, pc, [member[4]]).unwrap();
    let n = b.load(u32t, None, np, None, []).unwrap();
    let count = b.u_div(u32t, None, n, width_c).unwrap();
    let inside = b.u_less_than(boolt, None, i, count).unwrap();
    let (body, done) = (b.id(), b.id());
    b.selection_merge(done, SelectionControl::NONE).unwrap();
    b.branch_conditional(inside, body, done, []).unwrap();
    b.begin_block(Some(body)).unwrap();
    let i64v = b.u_convert(u64t, None, i).unwrap();
    let off = b.i_mul(u64t, None, i64v, bytes).unwrap();
    let element = |b: &mut Builder, m: usize| {
        let p = b.access_chain(pc_u64, None, pc, [member[m]]).unwrap();
        let base = b.load(u64t, None, p, None, []).unwrap();
        let addr = b.i_add(u64t, None, base, off).unwrap();
        b.convert_u_to_ptr(psb_elem, None, addr).unwrap()
    };
    let (xp, yp, op) = (element(&mut b, 0), element(&mut b, 1), element(&mut b, 2));
    let (aligned, align) = (Some(MemoryAccess::ALIGNED), [Operand::LiteralBit32(4 * width)]);
    let x = b.load(elem, None, xp, aligned, align.clone()).unwrap();
    let y = b.load(elem, None, yp, aligned, align.clone()).unwrap();
    let ap = b.access_chain(pc_f32, None, pc, [member[3]]).unwrap();
    let a = b.load(f32t, None, ap, None, []).unwrap();
    let ax = if width == 1 { b.f_mul(f32t, None, a, x).unwrap() } else { b.vector_times_scalar(elem, None, x, a).unwrap() };
    let r = b.f_add(elem, None, ax, y).unwrap();
    b.store(op, r, aligned, align).unwrap();
    b.branch(done).unwrap();
    b.begin_block(Some(done)).unwrap();
    b.ret().unwrap();
    b.end_function().unwrap();
    b.entry_point(ExecutionModel::GLCompute, main, "main", [gid, pc]);
    b.execution_mode(main, ExecutionMode::LocalSize, [GROUP, 1, 1]);
    use rspirv::binary::Assemble;
    b.module().assemble()
}

#[cfg(test)]
mod tests {
    /// spirv-val (spirv-tools), the oracle for the module's validity.
    #[test]
    fn the_native_saxpy_modules_pass_spirv_val() {
        for width in [1, 2, 4] {
            let path = rdna_testkit::temp_path(&format!("native-saxpy{width}.spv"));
            let bytes: Vec<u8> = super::saxpy(width).iter().flat_map(|w| w.to_le_bytes()).collect();
            std::fs::write(&path, bytes).unwrap();
            let o = std::process::Command::new("spirv-val").args(["--target-env", "vulkan1.3"]).arg(&path).output().expect("spirv-val (spirv-tools) must be installed");
            let _ = std::fs::remove_file(&path);
            assert!(o.status.success(), "width {width}: {}", String::from_utf8_lossy(&o.stderr));
        }
    }
}
