//! gfx11's `global_atomic_add_f32` against sums computed here: each lane's own address returns
//! its start value and ends one f32 addition later; the shared counters get one value added
//! once per lane (the same value, so the result does not depend on the order of lanes).

mod common;

use common::*;

#[test]
fn global_atomic_add_f32_adds_and_returns_the_old_value() {
    let cl = root().join("tests/kernels/gfx11/atomics_f32.cl");
    for lanes in [32u32, 64] {
        let mut args = vec!["-x", "cl", "-cl-std=CL2.0"];
        if lanes == 64 {
            args.push("-mwavefrontsize64");
        }
        let co = compile_for(&cl, "gfx1100", &format!("w{lanes}"), &args);
        let n = 256usize;
        let mut r = Rng(77);
        let input: Vec<u32> = (0..n).map(|_| r.u32()).collect();
        let start: Vec<f32> = (0..n).map(|_| r.f32(-1000.0, 1000.0)).collect();
        let counters = [r.f32(-10.0, 10.0), r.f32(-10.0, 10.0)];
        let mut bufs = vec![bytes_u32(&input), bytes_f32(&start), vec![0u8; 4 * n], bytes_f32(&counters)];
        run(&co, "k_global_fadd", [n as u32, 1, 1], [64, 1, 1], &mut bufs, &[]).unwrap();
        let acc: Vec<f32> = u32s(&bufs[1]).into_iter().map(f32::from_bits).collect();
        let old: Vec<f32> = u32s(&bufs[2]).into_iter().map(f32::from_bits).collect();
        for i in 0..n {
            let v = ((input[i] % 2001) as i32 - 1000) as f32 * 0.125;
            assert_eq!(old[i].to_bits(), start[i].to_bits(), "wave{lanes} old[{i}]");
            assert_eq!(acc[i].to_bits(), (start[i] + v).to_bits(), "wave{lanes} acc[{i}]");
        }
        let mut sums = counters;
        for _ in 0..n / 2 {
            sums[0] += 1.5;
            sums[1] += -0.75;
        }
        let shared: Vec<f32> = u32s(&bufs[3]).into_iter().map(f32::from_bits).collect();
        assert_eq!([shared[0].to_bits(), shared[1].to_bits()], [sums[0].to_bits(), sums[1].to_bits()], "wave{lanes} shared counters");
    }
}
