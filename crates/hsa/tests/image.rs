//! The loaded image holds every allocated section at its address, as the ELF file's section
//! table gives them (read here through `object` directly), and zeros between them.

use object::{Object, ObjectSection};
use rdna_hsa::CodeObject;

#[test]
fn the_flat_image_lays_out_every_allocated_section() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/saxpy.hsaco");
    let data = std::fs::read(path).unwrap();
    let (lo, image) = CodeObject::parse(&data).unwrap().flat_image().unwrap();
    let file = object::File::parse(&data[..]).unwrap();
    let mut covered = vec![false; image.len()];
    let mut names = Vec::new();
    for s in file.sections() {
        let object::SectionFlags::Elf { sh_flags } = s.flags() else { continue };
        if sh_flags & 2 == 0 || s.size() == 0 {
            continue;
        }
        let at = (s.address() - lo) as usize;
        let want = match s.kind() {
            object::SectionKind::UninitializedData => vec![0; s.size() as usize],
            _ => s.data().unwrap().to_vec(),
        };
        assert_eq!(&image[at..at + want.len()], &want[..], "section {}", s.name().unwrap());
        covered[at..at + want.len()].iter_mut().for_each(|c| *c = true);
        names.push(s.name().unwrap().to_string());
    }
    assert!(names.iter().any(|n| n == ".text") && names.iter().any(|n| n == ".rodata"), "{names:?}");
    assert!(image.iter().zip(&covered).all(|(&b, &c)| c || b == 0), "bytes outside the sections are zero");
}
