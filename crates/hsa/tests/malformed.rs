//! Broken and hostile code objects get clear errors, never panics: truncations at every length,
//! single-byte corruption everywhere, wrong machine and ABI version, bad descriptors, bad metadata.

use std::path::Path;

use rdna_hsa::CodeObject;

fn saxpy() -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/saxpy.hsaco")).unwrap()
}

#[test]
fn the_bundled_code_object_parses_completely() {
    let co = CodeObject::parse(&saxpy()).unwrap();
    assert_eq!(co.mcpu, Some("gfx1030"));
    assert_eq!(co.version, 5);
    let names: Vec<&str> = co.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["saxpy", "reduce_sum"]);
    let k = co.kernel("reduce_sum").unwrap();
    assert_eq!(k.kd.group_segment_fixed_size, 1024);
    assert!(k.kd.enable_wavefront_size32());
    let meta = k.meta.as_ref().unwrap();
    assert_eq!(meta.kernarg_segment_size, 16);
    assert_eq!(meta.args.len(), 2);
    assert_eq!(meta.args[0].value_kind, "global_buffer");
    assert_eq!(meta.wavefront_size, 32);
    let s = co.kernel("saxpy").unwrap();
    assert_eq!(s.entry, 0x1900, "descriptor address plus its entry offset");
}

#[test]
fn every_truncation_is_an_error() {
    let data = saxpy();
    for len in 0..data.len() {
        // Must not panic.
        let _ = CodeObject::parse(&data[..len]);
    }
    assert!(CodeObject::parse(&data[..0x40]).is_err());
    assert!(CodeObject::parse(&[]).is_err());
}

#[test]
fn corrupted_bytes_never_panic() {
    let data = saxpy();
    let mut x = 0x1234_5678u32;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let mut d = data.clone();
        let pos = (x as usize) % d.len();
        d[pos] ^= (x >> 24) as u8 | 1;
        let _ = CodeObject::parse(&d);
    }
}

#[test]
fn wrong_machine_and_abi_version_are_named() {
    let mut d = saxpy();
    d[18] = 0x3e; // e_machine = EM_X86_64
    let e = CodeObject::parse(&d).unwrap_err().to_string();
    assert!(e.contains("EM_AMDGPU") && e.contains("0x3e"), "{e}");
    let mut d = saxpy();
    d[8] = 1; // EI_ABIVERSION: code object v3
    let e = CodeObject::parse(&d).unwrap_err().to_string();
    assert!(e.contains("ABI version 1"), "{e}");
}

#[test]
fn descriptor_pointing_outside_text_is_named() {
    let data = saxpy();
    let co = CodeObject::parse(&data).unwrap();
    let k = co.kernel("saxpy").unwrap();
    // .rodata's file offset equals its address in this object.
    let off = k.kd_addr as usize + 16;
    let mut d = data.clone();
    d[off..off + 8].copy_from_slice(&0x7fff_0000i64.to_le_bytes());
    let e = CodeObject::parse(&d).unwrap_err().to_string();
    assert!(e.contains("kernel 'saxpy'") && e.contains("outside .text"), "{e}");
}

#[test]
fn garbage_metadata_is_an_error() {
    let data = saxpy();
    let pos = data.windows(8).position(|w| w == b"AMDGPU\0\0").unwrap() + 8;
    let mut d = data.clone();
    for b in &mut d[pos..pos + 16] {
        *b = 0xc1; // never valid in MessagePack
    }
    let e = CodeObject::parse(&d).unwrap_err().to_string();
    assert!(e.contains("NT_AMDGPU_METADATA"), "{e}");
}
