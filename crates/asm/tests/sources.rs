//! Whole sources (labels, branches, data directives, comments) assembled by rdna and by
//! llvm-mc-19 into an object whose `.text` llvm-objcopy-19 extracts: the bytes must agree.

use std::process::Command;

fn llvm_text(mcpu: &str, source: &str, tag: &str) -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!("rdna-asm-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (src, obj, bin) = (dir.join("in.s"), dir.join("out.o"), dir.join("out.bin"));
    std::fs::write(&src, source).unwrap();
    let mc = Command::new("llvm-mc-19")
        .args(["-arch=amdgcn", &format!("-mcpu={mcpu}"), "-filetype=obj", "-o"])
        .arg(&obj)
        .arg(&src)
        .output()
        .expect("llvm-mc-19 runs");
    assert!(mc.status.success(), "llvm-mc-19: {}", String::from_utf8_lossy(&mc.stderr));
    let cp = Command::new("llvm-objcopy-19").args(["-O", "binary", "--only-section=.text"]).arg(&obj).arg(&bin).output().unwrap();
    assert!(cp.status.success(), "llvm-objcopy-19: {}", String::from_utf8_lossy(&cp.stderr));
    let bytes = std::fs::read(&bin).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    bytes
}

fn same_as_llvm(mcpu: &str, source: &str, tag: &str) {
    let target = rdna_isa::Target::from_name(mcpu).unwrap();
    let ours = rdna_asm::Assembler::new(target).assemble(source).unwrap_or_else(|e| panic!("{mcpu}: {e}"));
    assert_eq!(ours.bytes, llvm_text(mcpu, source, tag), "{mcpu}:\n{source}");
}

#[test]
fn a_loop_with_labels_and_data() {
    let source = "\
        .text
        // a counted loop
        s_mov_b32 s0, 10          ; counter
start:  v_add_f32 v1, v2, v3
        s_sub_u32 s0, s0, 1
        s_cmp_lg_u32 s0, 0
        s_cbranch_scc1 start
        s_branch done
        .long 0xdeadbeef, 7
        /* skipped */ .short 1, 2
done:
        global_store_dword v[4:5], v1, off offset:16
        s_waitcnt vmcnt(0) lgkmcnt(0)
        s_endpgm
";
    same_as_llvm("gfx1030", source, "loop");
}

#[test]
fn each_generation_assembles_a_kernel_body() {
    let bodies = [
        ("gfx700", "s_load_dwordx2 s[0:1], s[4:5], 0x0\ns_waitcnt lgkmcnt(0)\nv_mov_b32 v1, s0\nv_add_i32 v1, vcc, v1, v0\nflat_store_dword v[2:3], v1\ns_endpgm\n"),
        ("gfx908", "v_mfma_f32_4x4x1f32 a[0:3], v0, v1, a[0:3]\nv_accvgpr_read_b32 v2, a0\nglobal_load_dword v3, v[4:5], off\ns_endpgm\n"),
        ("gfx942", "global_load_dword v3, v[4:5], off sc0 sc1\nv_mov_b32_dpp v0, v1 row_newbcast:1\ns_endpgm\n"),
        ("gfx1100", "v_dual_add_f32 v0, v1, v2 :: v_dual_mul_f32 v3, v4, v5\ns_delay_alu instid0(VALU_DEP_1)\nv_add_f32 v1, v2, v3\ns_endpgm\n"),
        ("gfx1200", "s_load_b64 s[0:1], s[4:5], 0x10\ns_wait_kmcnt 0x0\nglobal_load_b32 v1, v0, s[0:1] th:TH_LOAD_NT\ns_endpgm\n"),
    ];
    for (mcpu, body) in bodies {
        same_as_llvm(mcpu, body, mcpu);
    }
}

#[test]
fn typed_operands_build_the_same_instructions_as_text() {
    use rdna_asm::Operand::*;
    let target = rdna_isa::Target::from_name("gfx1030").unwrap();
    let mut asm = rdna_asm::Assembler::new(target);
    let built = [
        asm.encode("global_load_dwordx2", &[Vgprs(0, 2), Vgprs(2, 2), Off], &["offset:16"]).unwrap(),
        asm.encode("v_cndmask_b32", &[Vgpr(1), Int(-1), Vgpr(2), VccLo], &[]).unwrap(),
        asm.encode("s_and_b64", &[Sgprs(4, 2), Exec, Sgprs(6, 2)], &[]).unwrap(),
    ];
    let source = "global_load_dwordx2 v[0:1], v[2:3], off offset:16\nv_cndmask_b32 v1, -1, v2, vcc_lo\ns_and_b64 s[4:5], exec, s[6:7]\n";
    assert_eq!(built.concat(), llvm_text("gfx1030", source, "typed"));
}

#[test]
fn alignment_pads_with_s_nop() {
    same_as_llvm("gfx1030", "s_nop 0\n.p2align 4\ns_endpgm\n", "align");
}

#[test]
fn spellings_llvm_mc_accepts_but_does_not_print() {
    // Joined waitcnt counters, hwreg with its default range spelled out, plain numbers for
    // structured immediates, hex offsets, floats written another way, suffixes left out.
    let source = "\
s_waitcnt vmcnt(0) & lgkmcnt(0)
s_waitcnt vmcnt(1), expcnt(2)
s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 32)
s_sendmsg 3
s_waitcnt 0
buffer_load_dword v1, off, s[4:7], s1 offset:0x10
v_mov_b32 v0, 1e0
v_add_f32 v1, 1.5, v2
v_add_f32 v0, v1, v2 clamp
";
    same_as_llvm("gfx1030", source, "spellings");
}
