//! The hardware table of seed 003 (`ds_condxchg32_rtn_b64` measured on an RX 6700 XT, gfx1031):
//! all seven rows, both chained operations, bit for bit, on gfx1030 and gfx1100 in wave32 and wave64.

mod common;

use common::*;

/// (init lo, init hi, data lo, data hi) -> (LDS after op 1 lo, hi), as measured.
const TABLE: [([u32; 4], [u32; 2]); 7] = [
    ([0x11111111, 0x22222222, 0xA0000001, 0xB0000002], [0x20000001, 0x30000002]),
    ([0x33333333, 0x44444444, 0xA0000003, 0x10000004], [0x20000003, 0x44444444]),
    ([0x55555555, 0x66666666, 0x10000005, 0xB0000006], [0x55555555, 0x30000006]),
    ([0x77777777, 0x88888888, 0x10000007, 0x10000008], [0x77777777, 0x88888888]),
    ([0x99999999, 0xAAAAAAAA, 0x80000000, 0xFFFFFFFF], [0x00000000, 0x7FFFFFFF]),
    ([0xDEADBEEF, 0xFEEDFACE, 0x40000000, 0x00000000], [0xDEADBEEF, 0xFEEDFACE]),
    ([0x12345678, 0x9ABCDEF0, 0xFFFFFFFF, 0x80000001], [0x7FFFFFFF, 0x00000001]),
];

fn pair(lo: u32, hi: u32) -> u64 {
    lo as u64 | (hi as u64) << 32
}

#[test]
fn condxchg_matches_the_hardware_table() {
    let cl = root().join("tests/kernels/condxchg.cl");
    for (mcpu, tag, extra) in [
        ("gfx1030", "w32", None),
        ("gfx1030", "w64", Some("-mwavefrontsize64")),
        ("gfx1100", "w32", None),
        ("gfx1100", "w64", Some("-mwavefrontsize64")),
    ] {
        let mut args = vec!["-x", "cl", "-cl-std=CL2.0"];
        args.extend(extra);
        let co = compile_for(&cl, mcpu, tag, &args);
        let tag = format!("{mcpu} {tag}");
        let lanes = 32usize;
        let init: Vec<u64> = (0..lanes).map(|i| TABLE.get(i).map_or(0x0123_4567_09ab_cdef, |r| pair(r.0[0], r.0[1]))).collect();
        let data: Vec<u64> = (0..lanes).map(|i| TABLE.get(i).map_or(0, |r| pair(r.0[2], r.0[3]))).collect();
        let mut b = vec![bytes_u64(&init), bytes_u64(&data), vec![0u8; 24 * lanes]];
        run(&co, "k_condxchg", [lanes as u32, 1, 1], [lanes as u32, 1, 1], &mut b, &[]).unwrap();
        let out = u64s(&b[2]);
        for (i, row) in TABLE.iter().enumerate() {
            let after1 = &row.1;
            let after1 = pair(after1[0], after1[1]);
            assert_eq!(out[3 * i], pair(row.0[0], row.0[1]), "{tag} row {i}: op 1 returns the initial pair");
            assert_eq!(out[3 * i + 1], after1, "{tag} row {i}: op 2 returns the LDS state after op 1 (the measured column)");
            // Op 2's data is the initial pair: each half whose bit 31 is set writes its low 31 bits.
            let mut after2 = after1;
            for half in 0..2 {
                let d = row.0[half];
                if d >> 31 != 0 {
                    after2 = after2 & !(0xffff_ffffu64 << (32 * half)) | ((d & 0x7fff_ffff) as u64) << (32 * half);
                }
            }
            assert_eq!(out[3 * i + 2], after2, "{tag} row {i}: LDS after op 2");
        }
        // Lanes with neither bit 31 set keep their value.
        assert_eq!(out[3 * 10 + 2], 0x0123_4567_09ab_cdef);
    }
}
