//! Code object v4, v5 and v6 all load and run: v4 reads the workgroup size from the dispatch
//! packet, v5/v6 from the hidden kernel arguments.

mod common;

use common::*;

#[test]
fn v4_v5_v6_run_the_same_kernel() {
    let cl = root().join("tests/kernels/corpus.cl");
    let n = 300u32;
    let a: Vec<u32> = (0..n).map(|i| i.wrapping_mul(2654435761)).collect();
    for mcpu in ["gfx1030", "gfx1100"] {
        for v in [4, 5, 6] {
            let flag = format!("-mcode-object-version={v}");
            let co = compile_for(&cl, mcpu, &format!("cov{v}"), &["-x", "cl", "-cl-std=CL2.0", &flag]);
            assert_eq!(co.version, v as u8, "{mcpu} v{v}");
            let mut b = vec![vec![0u8; 4 * n as usize], bytes_u32(&a)];
            // k_divergent uses the workgroup size (dispatch packet in v4, hidden argument after).
            run(&co, "k_divergent", [n, 1, 1], [64, 1, 1], &mut b, &[S::U32(n)]).unwrap();
            let got = u32s(&b[0]);
            for (i, &x) in a.iter().enumerate() {
                let want = if x & 1 != 0 {
                    let r = x.wrapping_mul(3).wrapping_add(1);
                    if x & 4 != 0 { r ^ 0x5555 } else { r.wrapping_add(77) }
                } else if x & 2 != 0 {
                    x / 7
                } else {
                    !x
                };
                assert_eq!(got[i], want, "{mcpu} code object v{v}, item {i}");
            }
        }
    }
}
