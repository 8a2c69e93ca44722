fn main() {
    let dev = rdna_vk::Device::open().unwrap();
    let bytes = std::fs::read("/tmp/probe/f.spv").unwrap();
    let words: Vec<u32> = bytes.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    let mut s = 0x1234_5678_9abc_def1u64;
    let mut rnd = || { s ^= s << 13; s ^= s >> 7; s ^= s << 17; s };
    let (mut bad_div, mut bad_sqrt, mut bad_fma) = (0, 0, 0);
    let buf = dev.buffer(48).unwrap();
    for _ in 0..3000 {
        let mk = |r: u64| f64::from_bits((r & !(0x7ffu64 << 52)) | ((1023 - 60 + (r >> 52) % 120) << 52));
        let (x, y, z) = (mk(rnd()).abs(), mk(rnd()), mk(rnd()));
        let mut data = vec![0u8; 48];
        for (i, v) in [x, y, z].iter().enumerate() { data[8*i..8*i+8].copy_from_slice(&v.to_le_bytes()); }
        buf.write(0, &data);
        dev.dispatch(&words, "main", &buf.address.to_le_bytes(), [1, 1, 1], None).unwrap();
        let d = buf.read();
        let g = |i: usize| f64::from_le_bytes(d[8*i..8*i+8].try_into().unwrap());
        bad_fma += (g(3).to_bits() != x.mul_add(y, z).to_bits()) as u32;
        bad_div += (g(4).to_bits() != (x / y).to_bits()) as u32;
        bad_sqrt += (g(5).to_bits() != x.sqrt().to_bits()) as u32;
    }
    println!("of 3000: fma {bad_fma} differ, div {bad_div}, sqrt {bad_sqrt}");
}
