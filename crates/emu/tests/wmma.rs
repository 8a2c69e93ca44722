//! RDNA3 WMMA against plain matrix products computed here (small integer-valued inputs, so every
//! sum is exact whatever the hardware's accumulation order).

mod common;

use common::*;

#[test]
fn wmma_f32_f16_and_i32_iu8_compute_matrix_products() {
    let cl = root().join("tests/kernels/gfx11/wmma.cl");
    let co = compile_for(&cl, "gfx1100", "w32", &["-x", "cl", "-cl-std=CL2.0"]);
    let mut r = Rng(50);
    // f16 inputs in -4..4, C in -100..100: exact in f32.
    let a: Vec<f32> = (0..256).map(|_| (r.u32() % 9) as f32 - 4.0).collect();
    let b: Vec<f32> = (0..256).map(|_| (r.u32() % 9) as f32 - 4.0).collect();
    let c: Vec<f32> = (0..256).map(|_| (r.u32() % 201) as f32 - 100.0).collect();
    let h = |v: &[f32]| v.iter().flat_map(|x| half::f16::from_f32(*x).to_bits().to_le_bytes()).collect::<Vec<u8>>();
    let mut bufs = vec![h(&a), h(&b), bytes_f32(&c), vec![0u8; 1024]];
    run(&co, "k_wmma_f16", [32, 1, 1], [32, 1, 1], &mut bufs, &[]).unwrap();
    let d: Vec<f32> = u32s(&bufs[3]).into_iter().map(f32::from_bits).collect();
    for i in 0..16 {
        for j in 0..16 {
            let want: f32 = (0..16).map(|k| a[16 * i + k] * b[16 * k + j]).sum::<f32>() + c[16 * i + j];
            assert_eq!(d[16 * i + j], want, "f16 D[{i}][{j}]");
        }
    }
    let a8: Vec<i8> = (0..256).map(|_| r.u32() as i8).collect();
    let b8: Vec<u8> = (0..256).map(|_| r.u32() as u8).collect();
    let c32: Vec<i32> = (0..256).map(|_| r.u32() as i32 >> 8).collect();
    let mut bufs = vec![
        a8.iter().map(|&x| x as u8).collect(),
        b8.clone(),
        bytes_u32(&c32.iter().map(|&x| x as u32).collect::<Vec<_>>()),
        vec![0u8; 1024],
    ];
    run(&co, "k_wmma_iu8", [32, 1, 1], [32, 1, 1], &mut bufs, &[]).unwrap();
    let d = u32s(&bufs[3]);
    for i in 0..16 {
        for j in 0..16 {
            let want = (0..16).fold(c32[16 * i + j], |s, k| s.wrapping_add(a8[16 * i + k] as i32 * b8[16 * k + j] as i32));
            assert_eq!(d[16 * i + j] as i32, want, "iu8 D[{i}][{j}] (A signed, B unsigned)");
        }
    }
    // bf16: integer inputs -15..15 and C -3000..3000, so each exact sum (an integer below 2^24)
    // needs more than bf16's 8 bits: D is that sum rounded once to the nearest even bf16 (half's
    // f32 conversion, exact here because the sum is an exact f32).
    let a: Vec<f32> = (0..256).map(|_| (r.u32() % 31) as f32 - 15.0).collect();
    let b: Vec<f32> = (0..256).map(|_| (r.u32() % 31) as f32 - 15.0).collect();
    let c: Vec<f32> = (0..256).map(|_| half::bf16::from_f32((r.u32() % 6001) as f32 - 3000.0).to_f32()).collect();
    let bf = |v: &[f32]| v.iter().flat_map(|x| half::bf16::from_f32(*x).to_bits().to_le_bytes()).collect::<Vec<u8>>();
    let mut bufs = vec![bf(&a), bf(&b), bf(&c), vec![0u8; 512]];
    run(&co, "k_wmma_bf16", [32, 1, 1], [32, 1, 1], &mut bufs, &[]).unwrap();
    let mut rounded = 0;
    for i in 0..16 {
        for j in 0..16 {
            let exact: f32 = (0..16).map(|k| a[16 * i + k] * b[16 * k + j]).sum::<f32>() + c[16 * i + j];
            let want = half::bf16::from_f32(exact).to_bits();
            let got = u16::from_le_bytes([bufs[3][2 * (16 * i + j)], bufs[3][2 * (16 * i + j) + 1]]);
            assert_eq!(got, want, "bf16 D[{i}][{j}]: exact {exact}");
            rounded += (half::bf16::from_bits(want).to_f32() != exact) as u32;
        }
    }
    assert!(rounded > 100, "only {rounded} results needed rounding");
}
