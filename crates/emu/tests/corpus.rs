//! The kernel corpus (`tests/kernels/corpus.cl`), compiled by clang-19 for gfx1030 in wave32 and
//! wave64, run on the emulator; every expected value is computed here, in Rust, from the same
//! inputs — never by the emulator.

mod common;

use std::sync::OnceLock;

use common::*;
use rdna_hsa::CodeObject;

/// The targets every corpus kernel runs on: RDNA2 and RDNA3.
const TARGETS: [&str; 2] = ["gfx1030", "gfx1100"];

/// A corpus file compiled for each target in wave32 and wave64.
fn build(file: &str, extra: &[&str]) -> Vec<(CodeObject, u32)> {
    let cl = root().join("tests/kernels").join(file);
    let mut out = Vec::new();
    for mcpu in TARGETS {
        for lanes in [32, 64] {
            let mut args = vec!["-x", "cl", "-cl-std=CL2.0"];
            args.extend(extra);
            if lanes == 64 {
                args.push("-mwavefrontsize64");
            }
            let co = compile_for(&cl, mcpu, &format!("w{lanes}"), &args);
            assert_eq!(co.mcpu, Some(mcpu), "{file} must be compiled for {mcpu}");
            out.push((co, lanes));
        }
    }
    out
}

/// The corpus for both targets and both wave sizes.
fn corpus() -> &'static [(CodeObject, u32)] {
    static C: OnceLock<Vec<(CodeObject, u32)>> = OnceLock::new();
    C.get_or_init(|| build("corpus.cl", &["-cl-fp32-correctly-rounded-divide-sqrt"]))
}

/// Runs a case on both targets in both wave sizes (the messages name the wave size; the target
/// shows in the fault text).
fn each_wave(f: impl Fn(&CodeObject, u32)) {
    for (co, lanes) in corpus() {
        f(co, *lanes);
    }
}

fn ok(co: &CodeObject, kernel: &str, grid: u32, wg: u32, bufs: &mut [Vec<u8>], scalars: &[S]) {
    if let Err(e) = run(co, kernel, [grid, 1, 1], [wg, 1, 1], bufs, scalars) {
        panic!("{kernel}: {e}");
    }
}

#[test]
fn saxpy() {
    each_wave(|co, lanes| {
        let n = 1000u32;
        let mut r = Rng(1);
        let x: Vec<f32> = (0..n).map(|_| r.f32(-100.0, 100.0)).collect();
        let y: Vec<f32> = (0..n).map(|_| r.f32(-100.0, 100.0)).collect();
        let mut b = vec![vec![0u8; 4 * n as usize], bytes_f32(&x), bytes_f32(&y)];
        ok(co, "k_saxpy", 1024, 256, &mut b, &[S::F32(1.75), S::U32(n)]);
        let want: Vec<u32> = (0..n as usize).map(|i| (1.75f32 * x[i] + y[i]).to_bits()).collect();
        assert_eq!(u32s(&b[0]), want, "wave{lanes}");
    });
}

#[test]
fn int_ops() {
    each_wave(|co, lanes| {
        let n = 777u32;
        let mut r = Rng(2);
        let a: Vec<u32> = (0..n).map(|i| if i % 5 == 0 { u32::MAX - i } else { r.u32() }).collect();
        let bb: Vec<u32> = (0..n).map(|i| if i % 7 == 0 { i } else { r.u32() & 0x7fff_ffff >> (i % 29) }).collect();
        let mut b = vec![vec![0u8; 32 * n as usize], bytes_u32(&a), bytes_u32(&bb)];
        ok(co, "k_int_ops", n, 64, &mut b, &[S::U32(n)]);
        let got = u32s(&b[0]);
        for i in 0..n as usize {
            let (x, y) = (a[i], bb[i] | 1);
            let (sx, sy) = (x as i32, (y | 0x100) as i32);
            let want = [
                x.wrapping_mul(y).wrapping_add(x >> 3).wrapping_sub(y << 5),
                x / y,
                x % y,
                (sx / sy) as u32,
                (sx % sy) as u32,
                ((x as u64 * y as u64) >> 32) as u32,
                ((sx >> (y & 31)) as u32) ^ (x << (y & 31)),
                x.abs_diff(y) + (sx < sy) as u32,
            ];
            assert_eq!(&got[8 * i..8 * i + 8], &want, "wave{lanes} i={i} x={x:#x} y={y:#x}");
        }
    });
}

#[test]
fn i64_ops() {
    each_wave(|co, lanes| {
        let n = 300u32;
        let mut r = Rng(3);
        let a: Vec<u64> = (0..n).map(|_| r.next()).collect();
        let bb: Vec<u64> = (0..n).map(|i| r.next() >> (i % 50)).collect();
        let mut b = vec![vec![0u8; 48 * n as usize], bytes_u64(&a), bytes_u64(&bb)];
        ok(co, "k_i64_ops", n, 64, &mut b, &[S::U32(n)]);
        let got = u64s(&b[0]);
        for i in 0..n as usize {
            let (x, y) = (a[i], bb[i] | 1);
            let (sx, sy) = (x as i64, ((y >> 3) as i64) | 1);
            let want = [
                x.wrapping_mul(y).wrapping_add(x >> 7),
                x / y,
                x % (y >> 40 | 3),
                (sx / sy) as u64,
                (x << (y & 63)) | (x >> ((y >> 8) & 63)),
                ((sx >> (y & 63)) as u64).wrapping_add((sx < sy) as u64),
            ];
            assert_eq!(&got[6 * i..6 * i + 6], &want, "wave{lanes} i={i}");
        }
    });
}

#[test]
fn f32_math() {
    each_wave(|co, lanes| {
        let n = 500u32;
        let mut r = Rng(4);
        let a: Vec<f32> = (0..n).map(|i| r.f32(-1000.0, 1000.0) * if i % 3 == 0 { 1e-3 } else { 1.0 }).collect();
        let bb: Vec<f32> = (0..n).map(|_| r.f32(0.5, 300.0) * if r.u32() & 1 == 0 { -1.0 } else { 1.0 }).collect();
        let mut b = vec![vec![0u8; 24 * n as usize], bytes_f32(&a), bytes_f32(&bb)];
        ok(co, "k_f32_math", n, 128, &mut b, &[S::U32(n)]);
        let got = u32s(&b[0]);
        for i in 0..n as usize {
            let (x, y) = (a[i], bb[i]);
            let want = [
                x / y,
                x.abs().sqrt(),
                x.mul_add(y, 1.0),
                x.min(y) + x.max(2.0 * y),
                x.floor() - y.ceil() + (x * 3.5).trunc() + (y * 0.75).round_ties_even(),
                (x * y - x).copysign(y),
            ];
            let want: Vec<u32> = want.iter().map(|f| f.to_bits()).collect();
            assert_eq!(&got[6 * i..6 * i + 6], &want[..], "wave{lanes} i={i} x={x} y={y}");
        }
    });
}

#[test]
fn f64_math() {
    each_wave(|co, lanes| {
        let n = 300u32;
        let mut r = Rng(5);
        let a: Vec<f64> = (0..n).map(|_| (r.next() as f64 / u64::MAX as f64 - 0.5) * 1e6).collect();
        let bb: Vec<f64> = (0..n).map(|_| (r.next() as f64 / u64::MAX as f64 + 0.01) * 1e3).collect();
        let mut b = vec![vec![0u8; 40 * n as usize], bytes_f64(&a), bytes_f64(&bb)];
        ok(co, "k_f64_math", n, 64, &mut b, &[S::U32(n)]);
        let got = u64s(&b[0]);
        for i in 0..n as usize {
            let (x, y) = (a[i], bb[i]);
            let want = [x * y + x, x / y, x.abs().sqrt(), x.mul_add(y, -1.0), x.floor() + x.min(y)];
            let want: Vec<u64> = want.iter().map(|f| f.to_bits()).collect();
            assert_eq!(&got[5 * i..5 * i + 5], &want[..], "wave{lanes} i={i} x={x} y={y}");
        }
    });
}

#[test]
fn f16_math() {
    use half::f16;
    each_wave(|co, lanes| {
        let n = 400u32;
        let mut r = Rng(6);
        let a: Vec<f16> = (0..n).map(|_| f16::from_f32(r.f32(-60.0, 60.0))).collect();
        let bb: Vec<f16> = (0..n).map(|_| f16::from_f32(r.f32(0.25, 40.0))).collect();
        let h = |v: &[f16]| v.iter().flat_map(|x| x.to_bits().to_le_bytes()).collect::<Vec<u8>>();
        let mut b = vec![vec![0u8; 8 * n as usize], h(&a), h(&bb)];
        ok(co, "k_f16_math", n, 64, &mut b, &[S::U32(n)]);
        let got: Vec<u16> = b[0].chunks(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
        for i in 0..n as usize {
            let (x, y) = (a[i].to_f32(), bb[i].to_f32());
            let half_y = f16::from_f32(y * 0.5).to_f32();
            let want = [
                f16::from_f32(x + y),
                f16::from_f32(x * y),
                f16::from_f32(x - half_y),
                f16::from_f32(x / y),
            ];
            let want: Vec<u16> = want.iter().map(|f| f.to_bits()).collect();
            assert_eq!(&got[4 * i..4 * i + 4], &want[..], "wave{lanes} i={i} x={x} y={y}");
        }
    });
}

#[test]
fn conversions() {
    each_wave(|co, lanes| {
        let n = 333u32;
        let mut r = Rng(7);
        let a: Vec<f32> = (0..n).map(|_| r.f32(-1e6, 1e6)).collect();
        let d: Vec<f64> = (0..n).map(|_| (r.next() as f64 / u64::MAX as f64 - 0.5) * 4e9).collect();
        let mut b = vec![vec![0u8; 24 * n as usize], bytes_f32(&a), bytes_f64(&d)];
        ok(co, "k_convert", n, 64, &mut b, &[S::U32(n)]);
        let got = u32s(&b[0]);
        for i in 0..n as usize {
            let x = a[i];
            let want = [
                x as i32 as u32,
                x.abs() as u32 as i32 as u32,
                ((x * 1000.0) as i32 as f32).to_bits(),
                ((i as u32).wrapping_mul(2654435761) as f32).to_bits(),
                (d[i] as f32).to_bits(),
                d[i] as i32 as u32,
            ];
            assert_eq!(&got[6 * i..6 * i + 6], &want, "wave{lanes} i={i}");
        }
    });
}

#[test]
fn minmax() {
    each_wave(|co, lanes| {
        let n = 256u32;
        let mut r = Rng(8);
        let a: Vec<i32> = (0..n).map(|_| (r.u32() as i32) >> (r.u32() % 31)).collect();
        let bb: Vec<i32> = (0..n).map(|_| (r.u32() as i32) >> (r.u32() % 31)).collect();
        let ab: Vec<u32> = a.iter().map(|&v| v as u32).collect();
        let bbb: Vec<u32> = bb.iter().map(|&v| v as u32).collect();
        let mut b = vec![vec![0u8; 16 * n as usize], bytes_u32(&ab), bytes_u32(&bbb)];
        ok(co, "k_minmax", n, 64, &mut b, &[S::U32(n)]);
        let got = u32s(&b[0]);
        for i in 0..n as usize {
            let (x, y) = (a[i], bb[i]);
            let want = [x.min(y) as u32, (x as u32).max(y as u32), x.clamp(-100, 100) as u32, (x.wrapping_abs() + (y < 0) as i32) as u32];
            assert_eq!(&got[4 * i..4 * i + 4], &want, "wave{lanes} i={i}");
        }
    });
}

#[test]
fn divergent_branches() {
    each_wave(|co, lanes| {
        let n = 1000u32;
        let mut r = Rng(9);
        let a: Vec<u32> = (0..n).map(|_| r.u32()).collect();
        let mut b = vec![vec![0u8; 4 * n as usize], bytes_u32(&a)];
        ok(co, "k_divergent", n, 96, &mut b, &[S::U32(n)]);
        let want: Vec<u32> = a
            .iter()
            .map(|&x| {
                if x & 1 != 0 {
                    let r = x.wrapping_mul(3).wrapping_add(1);
                    if x & 4 != 0 {
                        r ^ 0x5555
                    } else {
                        r.wrapping_add(77)
                    }
                } else if x & 2 != 0 {
                    x / 7
                } else {
                    !x
                }
            })
            .collect();
        assert_eq!(u32s(&b[0]), want, "wave{lanes}");
    });
}

#[test]
fn collatz_loops() {
    each_wave(|co, lanes| {
        let n = 500u32;
        let a: Vec<u32> = (1..=n).map(|i| i * 7 + 1).collect();
        let mut b = vec![vec![0u8; 4 * n as usize], bytes_u32(&a)];
        ok(co, "k_collatz", n, 64, &mut b, &[S::U32(n)]);
        let want: Vec<u32> = a
            .iter()
            .map(|&x0| {
                let (mut x, mut s) = (x0, 0u32);
                while x != 1 && s < 1000 {
                    x = if x & 1 != 0 { x.wrapping_mul(3).wrapping_add(1) } else { x >> 1 };
                    s += 1;
                }
                s
            })
            .collect();
        assert_eq!(u32s(&b[0]), want, "wave{lanes}");
    });
}

#[test]
fn nested_loops() {
    each_wave(|co, lanes| {
        let n = 300u32;
        let mut b = vec![vec![0u8; 4 * n as usize]];
        ok(co, "k_nested_loops", n, 64, &mut b, &[S::U32(n)]);
        let want: Vec<u32> = (0..n)
            .map(|i| {
                let mut acc = 0u32;
                for j in 0..i % 13 {
                    for k in 0..=j {
                        acc = acc.wrapping_add((j * 31 + k) ^ i);
                    }
                }
                acc
            })
            .collect();
        assert_eq!(u32s(&b[0]), want, "wave{lanes}");
    });
}

#[test]
fn lds_reduction() {
    each_wave(|co, lanes| {
        let groups = 8u32;
        let mut r = Rng(10);
        let a: Vec<u32> = (0..256 * groups).map(|_| r.u32() >> 4).collect();
        let mut b = vec![bytes_u32(&a), vec![0u8; 4 * groups as usize]];
        ok(co, "k_reduce", 256 * groups, 256, &mut b, &[]);
        let want: Vec<u32> = a.chunks(256).map(|c| c.iter().fold(0u32, |s, &v| s.wrapping_add(v))).collect();
        assert_eq!(u32s(&b[1]), want, "wave{lanes}");
    });
}

#[test]
fn lds_scan() {
    each_wave(|co, lanes| {
        let groups = 4u32;
        let mut r = Rng(11);
        let a: Vec<u32> = (0..256 * groups).map(|_| r.u32() & 0xffff).collect();
        let mut b = vec![bytes_u32(&a), vec![0u8; 4 * 256 * groups as usize]];
        ok(co, "k_scan", 256 * groups, 256, &mut b, &[]);
        let mut want = Vec::new();
        for c in a.chunks(256) {
            let mut s = 0u32;
            for &v in c {
                s = s.wrapping_add(v);
                want.push(s);
            }
        }
        assert_eq!(u32s(&b[1]), want, "wave{lanes}");
    });
}

#[test]
fn lds_atomics() {
    each_wave(|co, lanes| {
        let groups = 5u32;
        let mut r = Rng(12);
        let a: Vec<u32> = (0..256 * groups).map(|_| r.u32()).collect();
        let mut b = vec![bytes_u32(&a), vec![0u8; 4 * 17 * groups as usize]];
        ok(co, "k_lds_atomics", 256 * groups, 256, &mut b, &[]);
        let mut want = Vec::new();
        for c in a.chunks(256) {
            let mut bins = [0u32; 17];
            for &v in c {
                bins[(v & 15) as usize] += 1;
                bins[16] = bins[16].max(v);
            }
            want.extend(bins);
        }
        assert_eq!(u32s(&b[1]), want, "wave{lanes}");
    });
}

#[test]
fn global_histogram() {
    each_wave(|co, lanes| {
        let n = 5000u32;
        let mut r = Rng(13);
        let a: Vec<u32> = (0..n).map(|_| r.u32() % 1000).collect();
        let mut b = vec![bytes_u32(&a), vec![0u8; 4 * 64]];
        ok(co, "k_histogram", n, 128, &mut b, &[S::U32(n)]);
        let mut want = vec![0u32; 64];
        for &v in &a {
            want[(v % 64) as usize] += 1;
        }
        assert_eq!(u32s(&b[1]), want, "wave{lanes}");
    });
}

#[test]
fn global_atomics_64() {
    each_wave(|co, lanes| {
        let n = 2000u32;
        let mut r = Rng(14);
        let a: Vec<u64> = (0..n).map(|_| r.next()).collect();
        let mut b = vec![bytes_u64(&a), bytes_u64(&[0, 0, 0, u64::MAX])];
        ok(co, "k_atomic64", n, 128, &mut b, &[S::U32(n)]);
        let want = [
            a.iter().fold(0u64, |s, &v| s.wrapping_add(v)),
            a.iter().fold(0u64, |s, &v| s ^ v),
            *a.iter().max().unwrap(),
            *a.iter().min().unwrap(),
        ];
        assert_eq!(u64s(&b[1]), want, "wave{lanes}");
    });
}

#[test]
fn global_atomics_minmax_cas() {
    each_wave(|co, lanes| {
        let n = 1500u32;
        let mut r = Rng(15);
        let a: Vec<i32> = (0..n).map(|_| r.u32() as i32 >> 3).collect();
        let init = [i32::MAX, i32::MIN, -1, 0, 0].map(|v| v as u32);
        let au: Vec<u32> = a.iter().map(|&v| v as u32).collect();
        let mut b = vec![bytes_u32(&au), bytes_u32(&init)];
        ok(co, "k_atomic_minmax_cas", n, 64, &mut b, &[S::U32(n)]);
        let want = [
            *a.iter().min().unwrap() as u32,
            *a.iter().max().unwrap() as u32,
            a.iter().fold(-1i32, |s, &v| s & (v | 0x10000)) as u32,
            a.iter().fold(0i32, |s, &v| s | (v & 0xff00)) as u32,
            a.iter().fold(0i32, |s, &v| s.wrapping_add(v & 7)) as u32,
        ];
        assert_eq!(u32s(&b[1]), want, "wave{lanes}");
    });
}

#[test]
fn lds_atomics_64() {
    each_wave(|co, lanes| {
        let groups = 3u32;
        let mut r = Rng(16);
        let a: Vec<u64> = (0..128 * groups).map(|_| r.next()).collect();
        let mut b = vec![bytes_u64(&a), vec![0u8; 24 * groups as usize]];
        ok(co, "k_lds_atomic64", 128 * groups, 128, &mut b, &[]);
        let mut want = Vec::new();
        for c in a.chunks(128) {
            want.push(c.iter().fold(0u64, |s, &v| s.wrapping_add(v)));
            want.push(*c.iter().min().unwrap());
            want.push(c.iter().fold(0u64, |s, &v| s ^ v.wrapping_mul(0x9e37_79b9_7f4a_7c15)));
        }
        assert_eq!(u64s(&b[1]), want, "wave{lanes}");
    });
}

/// Lane `l`'s wave is `l / lanes` (workgroups here are whole waves).
fn waves_of<T: Copy>(v: &[T], lanes: u32) -> impl Iterator<Item = &[T]> {
    v.chunks(lanes as usize)
}

#[test]
fn wave_ballot() {
    each_wave(|co, lanes| {
        let n = 256u32;
        let mut r = Rng(17);
        let a: Vec<u32> = (0..n).map(|_| r.u32()).collect();
        let mut b = vec![bytes_u32(&a), vec![0u8; 8 * n as usize]];
        ok(co, "k_ballot", n, 128, &mut b, &[]);
        let mut want = Vec::new();
        for w in waves_of(&a, lanes) {
            let m = w.iter().enumerate().fold(0u64, |m, (l, v)| m | ((v & 1) as u64) << l);
            want.extend(std::iter::repeat(m).take(w.len()));
        }
        assert_eq!(u64s(&b[1]), want, "wave{lanes}");
    });
}

#[test]
fn wave_readfirstlane() {
    each_wave(|co, lanes| {
        let n = 256u32;
        let mut r = Rng(18);
        let a: Vec<u32> = (0..n).map(|_| r.u32()).collect();
        let mut b = vec![bytes_u32(&a), vec![0u8; 4 * n as usize]];
        ok(co, "k_readfirstlane", n, 64, &mut b, &[]);
        let mut want = Vec::new();
        for w in waves_of(&a, lanes) {
            let first = w.iter().find(|v| *v & 4 != 0).copied();
            want.extend(w.iter().map(|v| if v & 4 != 0 { first.unwrap() } else { 7 }));
        }
        assert_eq!(u32s(&b[1]), want, "wave{lanes}");
    });
}

#[test]
fn wave_mbcnt() {
    each_wave(|co, lanes| {
        let n = 192u32;
        let mut r = Rng(19);
        let a: Vec<u32> = (0..n).map(|_| r.u32()).collect();
        let mut b = vec![bytes_u32(&a), vec![0u8; 8 * n as usize]];
        ok(co, "k_mbcnt", n, 64, &mut b, &[]);
        let mut want = Vec::new();
        for (i, v) in a.iter().enumerate() {
            let lane = i as u32 % lanes;
            let below = |mask: u32, l: u32| if l >= 32 { mask.count_ones() } else { (mask & ((1u32 << l) - 1)).count_ones() };
            let lo = below(0x0f0f_0f0f, lane);
            let hi = if lane >= 32 { below(0xaaaa_aaaa, lane - 32) } else { 0 };
            want.push(lane);
            want.push(if v & 1 != 0 { 100 + lo + hi } else { 0 });
        }
        assert_eq!(u32s(&b[1]), want, "wave{lanes}");
    });
}

#[test]
fn wave_swizzle() {
    each_wave(|co, lanes| {
        let n = 128u32;
        let a: Vec<u32> = (0..n).map(|i| i * 1000 + 1).collect();
        let mut b = vec![bytes_u32(&a), vec![0u8; 8 * n as usize]];
        ok(co, "k_swizzle", n, 64, &mut b, &[]);
        let mut want = Vec::new();
        for i in 0..n as usize {
            want.push(a[(i & !3) | (3 - (i & 3))]);
            want.push(a[(i & !31) | ((i & 31) ^ 5)]);
        }
        assert_eq!(u32s(&b[1]), want, "wave{lanes}");
    });
}

#[test]
fn wave_dpp() {
    each_wave(|co, lanes| {
        let n = 128u32;
        let a: Vec<u32> = (0..n).map(|i| i * 3 + 10).collect();
        let mut b = vec![bytes_u32(&a), vec![0u8; 12 * n as usize]];
        ok(co, "k_dpp", n, 64, &mut b, &[]);
        let mut want = Vec::new();
        for i in 0..n as usize {
            let row_i = i & 15;
            want.push(if row_i == 0 { 0xdead } else { a[i - 1] });
            want.push(if row_i == 15 { 0 } else { a[i + 1] });
            want.push(a[(i & !3) | (3 - (i & 3))].wrapping_add(a[(i & !15) | (15 - row_i)]));
        }
        assert_eq!(u32s(&b[1]), want, "wave{lanes}");
    });
}

#[test]
fn wave_bpermute() {
    each_wave(|co, lanes| {
        let n = 128u32;
        let a: Vec<u32> = (0..n).map(|i| i * 5 + 2).collect();
        let mut b = vec![bytes_u32(&a), vec![0u8; 4 * n as usize]];
        ok(co, "k_bpermute", n, 64, &mut b, &[]);
        // Within each 32-lane half of the wave (gfx10 wave64 permutes per half).
        let want: Vec<u32> = (0..n as usize).map(|i| a[(i & !31) | ((i % 32) * 7 + 3) % 32]).collect();
        assert_eq!(u32s(&b[1]), want, "wave{lanes}");
    });
}

#[test]
fn tiled_matmul() {
    each_wave(|co, lanes| {
        let n = 48usize;
        let mut r = Rng(20);
        let a: Vec<f32> = (0..n * n).map(|_| r.f32(-2.0, 2.0)).collect();
        let bm: Vec<f32> = (0..n * n).map(|_| r.f32(-2.0, 2.0)).collect();
        let mut b = vec![bytes_f32(&a), bytes_f32(&bm), vec![0u8; 4 * n * n]];
        run(co, "k_matmul", [n as u32, n as u32, 1], [16, 16, 1], &mut b, &[S::U32(n as u32)]).unwrap();
        let got = u32s(&b[2]);
        for i in 0..n {
            for j in 0..n {
                let mut acc = 0f32;
                for k in 0..n {
                    acc = a[i * n + k].mul_add(bm[k * n + j], acc);
                }
                assert_eq!(got[i * n + j], acc.to_bits(), "wave{lanes} c[{i}][{j}]");
            }
        }
    });
}

#[test]
fn bitonic_sort() {
    each_wave(|co, lanes| {
        let mut r = Rng(21);
        let a: Vec<u32> = (0..512).map(|_| r.u32() % 5000).collect();
        let mut b = vec![bytes_u32(&a)];
        ok(co, "k_bitonic", 512, 256, &mut b, &[]);
        let mut want = Vec::new();
        for c in a.chunks(256) {
            let mut s = c.to_vec();
            s.sort_unstable();
            want.extend(s);
        }
        assert_eq!(u32s(&b[0]), want, "wave{lanes}");
    });
}

#[test]
fn bit_ops() {
    each_wave(|co, lanes| {
        let n = 200u32;
        let mut r = Rng(22);
        let a: Vec<u32> = (0..n).map(|i| if i < 3 { i } else { r.u32() >> (i % 32) }).collect();
        let mut b = vec![bytes_u32(&a), vec![0u8; 20 * n as usize]];
        ok(co, "k_bits", n, 64, &mut b, &[S::U32(n)]);
        let got = u32s(&b[1]);
        for (i, &x) in a.iter().enumerate() {
            let want = [x.count_ones(), x.leading_zeros(), x.trailing_zeros(), x.reverse_bits(), x.rotate_left(13)];
            assert_eq!(&got[5 * i..5 * i + 5], &want, "wave{lanes} x={x:#x}");
        }
    });
}

#[test]
fn private_array_scratch() {
    each_wave(|co, lanes| {
        let n = 100u32;
        let mut r = Rng(23);
        let a: Vec<u32> = (0..n).map(|_| r.u32() % 100_000).collect();
        let mut b = vec![bytes_u32(&a), vec![0u8; 4 * n as usize]];
        ok(co, "k_private_array", n, 64, &mut b, &[S::U32(n)]);
        let want: Vec<u32> = (0..n as usize)
            .map(|i| {
                let mut arr: Vec<u32> = (0..40).map(|k| a[(i + k) % n as usize].wrapping_mul(k as u32 + 1)).collect();
                let idx = (a[i] % 40) as usize;
                arr[idx] = arr[idx].wrapping_add(1000);
                let mut acc = 0u32;
                let mut k = 0;
                while k < 40 {
                    acc = acc.wrapping_add(arr[(k * 7 + idx) % 40]);
                    k += 1 + (a[i] & 3) as usize;
                }
                acc
            })
            .collect();
        assert_eq!(u32s(&b[1]), want, "wave{lanes}");
    });
}

#[test]
fn transpose_2d_grid() {
    each_wave(|co, lanes| {
        let (w, h) = (37u32, 21u32);
        let a: Vec<u32> = (0..w * h).map(|i| i * 11 + 3).collect();
        let mut b = vec![bytes_u32(&a), vec![0u8; 4 * (w * h) as usize]];
        run(co, "k_transpose", [w, h, 1], [8, 8, 1], &mut b, &[S::U32(w), S::U32(h)]).unwrap();
        let mut want = vec![0u32; (w * h) as usize];
        for y in 0..h {
            for x in 0..w {
                want[(x * h + y) as usize] = a[(y * w + x) as usize];
            }
        }
        assert_eq!(u32s(&b[1]), want, "wave{lanes}");
    });
}

#[test]
fn grid_3d() {
    each_wave(|co, lanes| {
        let mut b = vec![vec![0u8; 4 * 8 * 6 * 5]];
        run(co, "k_grid3d", [8, 6, 5], [4, 2, 3], &mut b, &[]).unwrap();
        let mut want = vec![0u32; 8 * 6 * 5];
        for z in 0..5 {
            for y in 0..6 {
                for x in 0..8 {
                    want[x + 8 * (y + 6 * z)] = (x * 100 + y * 10 + z + 1) as u32;
                }
            }
        }
        assert_eq!(u32s(&b[0]), want, "wave{lanes}");
    });
}

#[test]
fn float_compare_nan_inf() {
    each_wave(|co, lanes| {
        let specials = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0, 1.0, -1.0, f32::MIN_POSITIVE, 3.5];
        let mut a = Vec::new();
        let mut bb = Vec::new();
        for &x in &specials {
            for &y in &specials {
                a.push(x);
                bb.push(y);
            }
        }
        let n = a.len() as u32;
        let mut b = vec![bytes_f32(&a), bytes_f32(&bb), vec![0u8; 4 * n as usize]];
        ok(co, "k_float_select", n, 32, &mut b, &[S::U32(n)]);
        let want: Vec<u32> = a
            .iter()
            .zip(&bb)
            .map(|(&x, &y)| (x < y) as u32 | ((x == y) as u32) << 1 | ((x != x) as u32) << 2 | ((!(x >= y)) as u32) << 3 | (x.is_infinite() as u32) << 4)
            .collect();
        assert_eq!(u32s(&b[2]), want, "wave{lanes}");
    });
}

#[test]
fn bytes_and_shorts() {
    each_wave(|co, lanes| {
        let n = 301u32;
        let mut r = Rng(24);
        let a: Vec<u8> = (0..n).map(|_| r.u32() as u8).collect();
        let s: Vec<i16> = (0..n).map(|_| r.u32() as i16).collect();
        let sb: Vec<u8> = s.iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut b = vec![a.clone(), sb, vec![0u8; n as usize], vec![0u8; 2 * n as usize]];
        ok(co, "k_bytes", n, 64, &mut b, &[S::U32(n)]);
        let want8: Vec<u8> = (0..n as usize).map(|i| a[i].wrapping_mul(3).wrapping_add(s[i] as u8)).collect();
        let want16: Vec<u8> = (0..n as usize).flat_map(|i| (s[i].wrapping_mul(-2).wrapping_add(a[i] as i8 as i16)).to_le_bytes()).collect();
        assert_eq!(b[2], want8, "wave{lanes}");
        assert_eq!(b[3], want16, "wave{lanes}");
    });
}

#[test]
fn vector_types() {
    each_wave(|co, lanes| {
        let n = 100u32;
        let mut r = Rng(25);
        let a: Vec<f32> = (0..4 * n).map(|_| r.f32(-10.0, 10.0)).collect();
        let mut b = vec![bytes_f32(&a), vec![0u8; 16 * n as usize]];
        ok(co, "k_vec4", n, 64, &mut b, &[S::U32(n)]);
        let mut want = Vec::new();
        for v in a.chunks(4) {
            want.extend([v[3], v[2] + v[1], v[1] * 2.0, v[0] - v[3]].map(f32::to_bits));
        }
        assert_eq!(u32s(&b[1]), want, "wave{lanes}");
    });
}

#[test]
fn mul_hi_and_mad() {
    each_wave(|co, lanes| {
        let n = 250u32;
        let mut r = Rng(26);
        let a: Vec<u32> = (0..n).map(|_| r.u32()).collect();
        let mut b = vec![bytes_u32(&a), vec![0u8; 12 * n as usize]];
        ok(co, "k_mulhi_mad", n, 64, &mut b, &[S::U32(n)]);
        let got = u32s(&b[1]);
        for i in 0..n as usize {
            let (x, y) = (a[i], a[(i + 1) % n as usize]);
            let want = [
                (x & 0xff_ffff).wrapping_mul(y & 0xff_ffff).wrapping_add(17),
                ((x as i32 as i64 * y as i32 as i64) >> 32) as u32,
                ((x as u64 * y as u64 + 12345) >> 16) as u32,
            ];
            assert_eq!(&got[3 * i..3 * i + 3], &want, "wave{lanes} i={i}");
        }
    });
}

/// The second corpus file (calls, constant tables, builtins), both targets and wave sizes.
fn corpus2() -> &'static [(CodeObject, u32)] {
    static C: OnceLock<Vec<(CodeObject, u32)>> = OnceLock::new();
    C.get_or_init(|| build("corpus2.cl", &[]))
}

fn each_wave2(f: impl Fn(&CodeObject, u32)) {
    for (co, lanes) in corpus2() {
        f(co, *lanes);
    }
}

#[test]
fn call_with_stack_and_constant_table() {
    const TABLE: [u32; 16] = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3];
    each_wave2(|co, lanes| {
        let n = 200u32;
        let mut r = Rng(30);
        let a: Vec<u32> = (0..n).map(|_| r.u32()).collect();
        let mut b = vec![bytes_u32(&a), vec![0u8; 4 * n as usize]];
        ok(co, "k_call_const", n, 64, &mut b, &[S::U32(n)]);
        let want: Vec<u32> = a
            .iter()
            .map(|&v| {
                let (x, y) = (v, v >> 3);
                let arr: Vec<u32> = (0..12u32).map(|i| x.wrapping_mul(i + 1) ^ a[(i % 4) as usize]).collect();
                arr[(y % 12) as usize].wrapping_add(arr[((y / 12) % 12) as usize]).wrapping_add(TABLE[(v & 15) as usize])
            })
            .collect();
        assert_eq!(u32s(&b[1]), want, "wave{lanes}");
    });
}

#[test]
fn lds_float_atomic_add() {
    each_wave2(|co, lanes| {
        let groups = 3u32;
        let mut r = Rng(31);
        let a: Vec<u32> = (0..128 * groups).map(|_| r.u32()).collect();
        let mut b = vec![bytes_u32(&a), vec![0u8; 16 * groups as usize]];
        ok(co, "k_lds_fadd", 128 * groups, 128, &mut b, &[]);
        let addend = |x: u32| ((x % 1000) as i32 - 500) as f32;
        let mut want = Vec::new();
        for c in a.chunks(128) {
            for k in 0..4 {
                want.push(c.iter().skip(k).step_by(4).map(|&x| addend(x)).sum::<f32>().to_bits());
            }
        }
        assert_eq!(u32s(&b[1]), want, "wave{lanes}");
    });
}

/// `v_perm_b32`, written here from the ISA's byte-select table.
fn perm_ref(s0: u32, s1: u32, sel: u32) -> u32 {
    let bytes = [s1.to_le_bytes(), s0.to_le_bytes()].concat();
    let mut out = 0u32;
    for k in 0..4 {
        let s = (sel >> (8 * k)) & 0xff;
        let v = match s {
            0..=7 => bytes[s as usize] as u32,
            8..=11 => {
                let src = bytes[(2 * (s - 8) + 1) as usize];
                if src & 0x80 != 0 { 0xff } else { 0 }
            }
            12 => 0,
            _ => 0xff,
        };
        out |= v << (8 * k);
    }
    out
}

#[test]
fn integer_builtins() {
    each_wave2(|co, lanes| {
        let n = 300u32;
        let mut r = Rng(32);
        let a: Vec<u32> = (0..n).map(|_| r.u32()).collect();
        let bb: Vec<u32> = (0..n).map(|_| r.u32()).collect();
        let mut b = vec![bytes_u32(&a), bytes_u32(&bb), vec![0u8; 40 * n as usize]];
        ok(co, "k_builtins_int", n, 64, &mut b, &[S::U32(n)]);
        let got = u32s(&b[2]);
        for i in 0..n as usize {
            let (x, y) = (a[i], bb[i]);
            let (off, wd) = (y & 31, (y >> 5) & 31);
            let ubfe = if wd == 0 { 0 } else { (x >> off) & ((1u32 << wd) - 1) };
            let sbfe = if wd == 0 { 0 } else { (((x as i32 >> off) as u32 & ((1u32 << wd) - 1)) << (32 - wd)) as i32 >> (32 - wd) };
            let wide = (x as u64) << 32 | y as u64;
            let bytes_diff = |masked: bool| -> u32 {
                (0..4).map(|k| {
                    let (p, q) = ((x >> (8 * k)) as u8, (y >> (8 * k)) as u8);
                    if masked && q == 0 { 0 } else { p.abs_diff(q) as u32 }
                }).sum()
            };
            let lerp = (0..4).fold(0u32, |t, k| {
                let round = (0x0100_0100u32 >> (8 * k)) & 1;
                t | ((((x >> (8 * k)) & 0xff) + ((y >> (8 * k)) & 0xff) + round) >> 1) << (8 * k)
            });
            let udot4 = (0..4).fold(1000u32, |t, k| t.wrapping_add(((x >> (8 * k)) & 0xff) * ((y >> (8 * k)) & 0xff)));
            let sdot2 = (0..2).fold(-5i32, |t, k| t.wrapping_add(((x >> (16 * k)) as i16 as i32) * ((y >> (16 * k)) as i16 as i32)));
            let want = [
                ubfe,
                sbfe as u32,
                (wide >> ((y >> 27) & 31)) as u32,
                (wide >> (8 * ((y >> 30) & 3))) as u32,
                perm_ref(x, y, 0x0c05_0a01),
                bytes_diff(false) + 77,
                bytes_diff(true) + 5,
                lerp,
                udot4,
                sdot2 as u32,
            ];
            assert_eq!(&got[10 * i..10 * i + 10], &want, "wave{lanes} i={i} x={x:#x} y={y:#x}");
        }
    });
}

/// Round-toward-zero f32 -> f16, found by search over f16 magnitudes (independent of `half`'s
/// rounding).
fn f16_rtz(x: f32) -> u16 {
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    let m = x.abs();
    let (mut lo, mut hi) = (0u16, 0x7bffu16);
    while lo < hi {
        let mid = (lo + hi + 1) / 2;
        if half::f16::from_bits(mid).to_f32() <= m {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    sign | lo
}

#[test]
fn float_builtins() {
    each_wave2(|co, lanes| {
        let mut r = Rng(33);
        let mut a: Vec<f32> = (0..200).map(|_| r.f32(-70000.0, 70000.0) * if r.u32() % 3 == 0 { 1e-4 } else { 1.0 }).collect();
        a.extend([0.0, -0.0, 1e-40, -1e-40, 1.0, -1.5, 0.75, 65519.0]);
        let bb: Vec<f32> = (0..a.len()).map(|_| r.f32(-8.0, 8.0)).collect();
        let n = a.len() as u32;
        let mut b = vec![bytes_f32(&a), bytes_f32(&bb), vec![0u8; 32 * n as usize]];
        ok(co, "k_builtins_float", n, 64, &mut b, &[S::U32(n)]);
        let got = u32s(&b[2]);
        for i in 0..n as usize {
            let (x, y) = (a[i], bb[i]);
            let med = x.max(y).min(x.min(y).max(0.25));
            // frexp from the exact binary exponent: |x| = m * 2^e with m in [0.5, 1).
            let (mant, exp) = if x == 0.0 {
                (x, 0)
            } else {
                let xd = x as f64;
                let mut e = xd.abs().log2().floor() as i32 + 1;
                let mut m = xd / 2f64.powi(e);
                while m.abs() >= 1.0 {
                    m /= 2.0;
                    e += 1;
                }
                while m.abs() < 0.5 {
                    m *= 2.0;
                    e -= 1;
                }
                (m as f32, e)
            };
            let frac = (x - x.floor()).min(f32::from_bits(0x3f7f_ffff));
            let class = (x == 0.0 || x.is_subnormal()) as u32; // mask 0x0f0: zeros and denormals
            let major = if 1.5f32 >= x.abs() && 1.5 >= y.abs() { 1.5 } else if y.abs() >= x.abs() { y } else { x };
            let want = vec![
                med.to_bits(),
                mant.to_bits(),
                exp as u32,
                ((x as f64 * 2f64.powi((y * 4.0) as i32)) as f32).to_bits(),
                frac.to_bits(),
                class,
                (2.0 * major).to_bits(),
                f16_rtz(x) as u32 | (f16_rtz(y) as u32) << 16,
            ];
            assert_eq!(&got[8 * i..8 * i + 8], &want[..], "wave{lanes} i={i} x={x:e} y={y}");
        }
    });
}

#[test]
fn lane_builtins() {
    each_wave2(|co, lanes| {
        let n = 128u32;
        let a: Vec<u32> = (0..n).map(|i| i * 13 + 7).collect();
        let mut b = vec![bytes_u32(&a), vec![0u8; 16 * n as usize]];
        ok(co, "k_lane_ops", n, 64, &mut b, &[]);
        let got = u32s(&b[1]);
        for i in 0..n as usize {
            let wave = i / lanes as usize * lanes as usize;
            let lane = i - wave;
            let row = i & !15;
            let li = i & 15;
            let perm = if li < 8 { 7 - li } else { 23 - li };
            let sel = (0xfac6usize >> (3 * (i % 8))) & 7;
            let want = [a[wave + 3], if lane == 5 { a[wave] } else { 12345 }, a[row + perm], a[(i & !7) | sel] + lane as u32];
            assert_eq!(&got[4 * i..4 * i + 4], &want, "wave{lanes} i={i}");
        }
    });
}

#[test]
fn f64_conversions() {
    each_wave2(|co, lanes| {
        let n = 150u32;
        let mut r = Rng(34);
        let a: Vec<f64> = (0..n).map(|_| (r.next() as f64 / u64::MAX as f64 - 0.5) * 1e9).collect();
        let mut b = vec![bytes_f64(&a), vec![0u8; 32 * n as usize]];
        ok(co, "k_f64_ops", n, 64, &mut b, &[S::U32(n)]);
        let got = u64s(&b[1]);
        for i in 0..n as usize {
            let x = a[i];
            let want = [(x * 1e3) as i64 as f64, x.abs() as u64 as f64, x.ceil() - (x / 3.0).trunc(), x.max(-x * 0.5)];
            let want: Vec<u64> = want.iter().map(|v| v.to_bits()).collect();
            assert_eq!(&got[4 * i..4 * i + 4], &want[..], "wave{lanes} i={i} x={x}");
        }
    });
}

#[test]
fn u64_division() {
    each_wave2(|co, lanes| {
        let n = 200u32;
        let mut r = Rng(35);
        let a: Vec<u64> = (0..n).map(|_| r.next()).collect();
        let mut b = vec![bytes_u64(&a), vec![0u8; 16 * n as usize]];
        ok(co, "k_u64_div", n, 64, &mut b, &[S::U32(n)]);
        let got = u64s(&b[1]);
        for i in 0..n as usize {
            let x = a[i];
            let y = a[(i + 7) % n as usize] >> (i % 60) | 1;
            assert_eq!(got[2 * i], x / y, "wave{lanes} i={i}");
            assert_eq!(got[2 * i + 1], ((x as i64) % ((y | 0x100) as i64)) as u64, "wave{lanes} i={i}");
        }
    });
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    // Kernels with cross-workgroup atomics and LDS: one host thread, two, and eight must agree.
    let (co, _) = &corpus()[0];
    let mut r = Rng(40);
    let a: Vec<u32> = (0..256 * 16).map(|_| r.u32()).collect();
    let mut outs = Vec::new();
    for threads in [1, 2, 8] {
        let mut h = vec![bytes_u32(&a), vec![0u8; 4 * 64]];
        run_threads(co, "k_histogram", [256 * 16, 1, 1], [128, 1, 1], &mut h, &[S::U32(256 * 16)], threads).unwrap();
        let mut l = vec![bytes_u32(&a), vec![0u8; 4 * 17 * 16]];
        run_threads(co, "k_lds_atomics", [256 * 16, 1, 1], [256, 1, 1], &mut l, &[], threads).unwrap();
        let mut s = vec![bytes_u32(&a), vec![0u8; 4 * 256 * 16]];
        run_threads(co, "k_scan", [256 * 16, 1, 1], [256, 1, 1], &mut s, &[], threads).unwrap();
        outs.push((h, l, s));
    }
    assert!(outs.windows(2).all(|w| w[0] == w[1]), "outputs differ between thread counts");
}

#[test]
fn packed_half_math() {
    use half::f16;
    each_wave2(|co, lanes| {
        let n = 200u32;
        let mut r = Rng(36);
        let mut pair = || [f16::from_f32(r.f32(-8.0, 8.0)), f16::from_f32(r.f32(-8.0, 8.0))];
        let a: Vec<[f16; 2]> = (0..n).map(|_| pair()).collect();
        let bb: Vec<[f16; 2]> = (0..n).map(|_| pair()).collect();
        let hb = |v: &[[f16; 2]]| v.iter().flat_map(|p| p.iter().flat_map(|h| h.to_bits().to_le_bytes())).collect::<Vec<u8>>();
        let mut b = vec![hb(&a), hb(&bb), vec![0u8; 16 * n as usize], vec![0u8; 4 * n as usize]];
        ok(co, "k_half2", n, 64, &mut b, &[S::U32(n)]);
        let got: Vec<u16> = b[2].chunks(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
        let igot: Vec<u16> = b[3].chunks(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
        let c = [0.5f64, -0.25];
        for i in 0..n as usize {
            for k in 0..2 {
                let (x, y) = (a[i][k].to_f32(), bb[i][k].to_f32());
                let max = f16::from_f32(x.max(y)).to_f32();
                let min = f16::from_f32(x.min(1.0)).to_f32();
                let want = [
                    f16::from_f32(x + y),
                    f16::from_f32(x * y),
                    f16::from_f64(x as f64 * y as f64 + c[k]),
                    f16::from_f32(max - min),
                ];
                for (j, w) in want.iter().enumerate() {
                    assert_eq!(got[8 * i + 2 * j + k], w.to_bits(), "wave{lanes} i={i} half {k} result {j}: x={x} y={y}");
                }
                let (s, t) = (a[i][k].to_bits() as i16, bb[i][k].to_bits() as i16);
                let m = if k == 0 { 3 } else { -2 };
                assert_eq!(igot[2 * i + k], s.wrapping_add(t.wrapping_mul(m)) as u16, "wave{lanes} i={i} int half {k}");
            }
        }
    });
}

/// Every kernel in `tests/kernels` (and `tests/kernels/gfx11` on gfx1100), on both targets and
/// wave sizes, runs to completion on zeroed 256 KiB buffers with small scalar arguments: every
/// instruction clang-19 emits for them is emulated.
#[test]
fn every_instruction_clang_emits_for_the_kernels_is_emulated() {
    use rdna_emu::Options;
    let mut ran = 0;
    for (cl, only) in rdna_testkit::kernel_sources() {
        for mcpu in TARGETS {
            if only.is_some_and(|t| t != mcpu) {
                continue;
            }
            for lanes in [32u32, 64] {
                if cl.to_string_lossy().contains("wmma") && lanes == 64 {
                    continue; // WMMA builtins exist per wave size
                }
                let co = compile_for(&cl, mcpu, &format!("all{lanes}"), &rdna_testkit::cl_flags(lanes));
                for k in &co.kernels {
                    let (launch, mut mem) = rdna_testkit::plain_launch(&co, k);
                    let r = rdna_emu::run(&launch, &mut mem, &Options { budget: 5_000_000, ..Options::default() });
                    if let Err(rdna_emu::Error::Fault(f)) = &r {
                        assert!(!f.reason.contains("unsupported"), "{mcpu} wave{lanes} {}: {f}", cl.display());
                    }
                    ran += 1;
                }
            }
        }
    }
    assert!(ran > 100, "only {ran} kernel runs");
}

/// VCC read whole before and after a compare writes it, read bit by bit, then read whole by a
/// carry-out that writes it again (inline assembly; see tests/kernels/corpus2.cl).
#[test]
fn lane_masks_read_whole_and_by_bit_around_their_writes() {
    each_wave2(|co, lanes| {
        let n = 200u32;
        let mut r = Rng(41);
        let x: Vec<u32> = (0..n).map(|_| r.u32() % 100).collect();
        let mut b = vec![bytes_u32(&x), vec![0u8; 20 * n as usize]];
        ok(co, "k_mask_hazards", n, 64, &mut b, &[S::U32(n)]);
        let mut want = Vec::new();
        for i in 0..n {
            // The compare's mask over the wave's low 32 lanes, lanes past n disabled.
            let base = i / lanes * lanes;
            let mask = (0..32).filter(|l| base + l < n && x[(base + l) as usize] > 50).fold(0u32, |m, l| m | 1 << l);
            let (sum, carry) = mask.overflowing_add(x[i as usize]);
            want.extend([0x5a5a_1234, mask, (x[i as usize] > 50) as u32, sum, carry as u32]);
        }
        assert_eq!(u32s(&b[1]), want, "wave{lanes}");
    });
}

/// DPP16 row rotate, half mirror, xmask under row/bank masks and row share, against the
/// controls' definitions (rows of 16 lanes; a disabled lane keeps the old value 0xdead).
#[test]
fn dpp_row_controls() {
    each_wave2(|co, lanes| {
        let n = 256u32;
        let mut r = Rng(43);
        let x: Vec<u32> = (0..n).map(|_| r.u32()).collect();
        let mut b = vec![bytes_u32(&x), vec![0u8; 16 * n as usize]];
        ok(co, "k_dpp_more", n, 64, &mut b, &[]);
        let mut want = Vec::new();
        for g in 0..n {
            let (l, base) = (g % lanes, g / lanes * lanes);
            let (row, i) = (l / 16, l % 16);
            let at = |j: u32| x[(base + row * 16 + j) as usize];
            let enabled = 0x5 >> row & 1 != 0 && 0xa >> (i / 4) & 1 != 0;
            want.extend([at((i + 13) & 15), at((i & 8) + 7 - (i & 7)), if enabled { at(i ^ 5) } else { 0xdead }, at(3)]);
        }
        assert_eq!(u32s(&b[1]), want, "wave{lanes}");
    });
}

/// v_fract_f32 (x − floor(x), at most the largest float below 1; ±∞ gives NaN) and v_med3_f32
/// (the middle value, −0 below +0; with quiet NaNs, the least of the other values) on ordinary
/// values, integers, ±0, tiny negatives, denormals, infinities and NaNs.
#[test]
fn fract_and_med3() {
    each_wave2(|co, lanes| {
        let n = 256u32;
        let mut r = Rng(47);
        let special = [0.0f32, -0.0, 1.0, -1.0, -1e-30, 1e-40, -1e-40, 2.5, -2.5, 8388609.0, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, 0.75, -0.75, 3.0];
        let pick = |r: &mut Rng| if r.u32() % 3 == 0 { special[(r.u32() % 16) as usize] } else { r.f32(-100.0, 100.0) };
        let (a, b, c): (Vec<f32>, Vec<f32>, Vec<f32>) = {
            let mut v = (Vec::new(), Vec::new(), Vec::new());
            for _ in 0..n {
                v.0.push(pick(&mut r));
                v.1.push(pick(&mut r));
                v.2.push(pick(&mut r));
            }
            v
        };
        let floats = |v: &[f32]| v.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>();
        let mut bufs = vec![floats(&a), floats(&b), floats(&c), vec![0u8; 8 * n as usize]];
        ok(co, "k_fract_med3", n, 64, &mut bufs, &[]);
        let key = |x: f32| (x, x.is_sign_negative() as u8 ^ 1);
        let less = |x: f32, y: f32| key(x).partial_cmp(&key(y)) == Some(std::cmp::Ordering::Less);
        let mut want = Vec::new();
        for i in 0..n as usize {
            let x = a[i];
            let fract = if x.is_infinite() {
                0x7fc0_0000
            } else if x.is_nan() {
                0x3f7f_ffff
            } else {
                let d = x - x.floor();
                if d < f32::from_bits(0x3f7f_ffff) { d.to_bits() } else { 0x3f7f_ffff }
            };
            let vals = [a[i], b[i], c[i]];
            let med = if vals.iter().any(|v| v.is_nan()) {
                let nums: Vec<f32> = vals.iter().copied().filter(|v| !v.is_nan()).collect();
                nums.into_iter().reduce(|m, v| if less(v, m) { v } else { m }).unwrap_or(c[i])
            } else {
                let mut s = vals;
                s.sort_by(|x, y| if less(*x, *y) { std::cmp::Ordering::Less } else if less(*y, *x) { std::cmp::Ordering::Greater } else { std::cmp::Ordering::Equal });
                s[1]
            };
            want.extend([fract, med.to_bits()]);
        }
        assert_eq!(u32s(&bufs[3]), want, "wave{lanes}");
    });
}

/// v_permlane16_b32 under a partial EXEC: lane i of each row of 16 reads lane 15 − i; a
/// disabled source leaves the old value (0xbeef), a disabled lane is not written (0xdead).
#[test]
fn permlane16_in_divergent_flow() {
    each_wave2(|co, lanes| {
        let n = 256u32;
        let mut r = Rng(53);
        let x: Vec<u32> = (0..n).map(|_| r.u32()).collect();
        let mut b = vec![bytes_u32(&x), vec![0u8; 4 * n as usize]];
        ok(co, "k_permlane_divergent", n, 64, &mut b, &[]);
        let want: Vec<u32> = (0..n)
            .map(|g| {
                let active = |lid: u32| (lid ^ (lid >> 2)) & 1 != 0;
                if !active(g % 64) {
                    return 0xdead;
                }
                let from = g - g % 16 + 15 - g % 16;
                if active(from % 64) { x[from as usize] } else { 0xbeef }
            })
            .collect();
        assert_eq!(u32s(&b[1]), want, "wave{lanes}");
    });
}

/// `k_fma64`: f64 fma, one rounding of the exact value (Rust's `mul_add`), on the exact error
/// of a product, random addends, subnormal and overflowing results and far-away addends.
#[test]
fn fma64_rounds_once() {
    each_wave2(|co, lanes| {
        let n = 256u32;
        let mut r = Rng(59);
        let raw: Vec<u64> = (0..3 * n).map(|_| r.next()).collect();
        let mut b = vec![bytes_u64(&raw), vec![0u8; 40 * n as usize]];
        ok(co, "k_fma64", n, 64, &mut b, &[S::U32(n)]);
        let with_exp = |b: u64, e: i64| f64::from_bits(b & 0x800f_ffff_ffff_ffff | ((1023 + e) as u64) << 52);
        let got = u64s(&b[1]);
        for i in 0..n as usize {
            let (a, bb, c) = (raw[3 * i], raw[3 * i + 1], raw[3 * i + 2]);
            let (x, y) = (with_exp(a, (a >> 52 & 63) as i64 - 32), with_exp(bb, (bb >> 52 & 63) as i64 - 32));
            let z = with_exp(c, (c >> 52 & 127) as i64 - 64);
            // 2^k exactly (powi is not exact for subnormal results in debug builds).
            let p = |k: i32| if k >= -1022 { f64::from_bits(((k + 1023) as u64) << 52) } else { f64::from_bits(1 << (k + 1074)) };
            let want = [
                x.mul_add(y, -(x * y)),
                x.mul_add(y, z),
                (x * p(-1000)).mul_add(y * p(-40), z * p(-1050)),
                (x * p(900)).mul_add(y * p(100), -z * p(1000)),
                x.mul_add(y, z * p(200)),
            ];
            let want: Vec<u64> = want.iter().map(|f| f.to_bits()).collect();
            assert_eq!(&got[5 * i..5 * i + 5], &want[..], "wave{lanes} i={i} x={x:e} y={y:e} z={z:e}");
        }
    });
}

/// `k_sdwa` (gfx10; gfx11 has no SDWA and the kernel is empty there): source bytes and words,
/// zero- or sign-extended, and dst_sel with each dst_unused.
#[test]
fn sdwa_selects_and_merges() {
    each_wave2(|co, lanes| {
        if co.mcpu != Some("gfx1030") {
            return;
        }
        let n = 256u32;
        let mut r = Rng(61);
        let x: Vec<u32> = (0..2 * n).map(|_| r.u32()).collect();
        let mut b = vec![bytes_u32(&x), vec![0u8; 16 * n as usize]];
        ok(co, "k_sdwa", n, 64, &mut b, &[]);
        let got = u32s(&b[1]);
        for i in 0..n as usize {
            let (a, bb) = (x[2 * i], x[2 * i + 1]);
            let sum = ((a >> 16) & 0xff) + (bb & 0xffff);
            let r0 = bb & 0xffff | (sum & 0xffff) << 16;
            let r1 = ((a >> 16) as u16 as i16 as i32).max((bb >> 16) as u8 as i8 as i32) as u32;
            let part = ((a >> 24) & 0xff) << 8;
            let r2 = ((part << 16) as i32 >> 16) as u32 & !0xff;
            let r3 = ((a as u8 as i8 as i32 as u32).wrapping_sub((bb >> 8) & 0xff)) & 0xffff;
            assert_eq!(&got[4 * i..4 * i + 4], &[r0, r1, r2, r3], "wave{lanes} i={i} a={a:#x} b={bb:#x}");
        }
    });
}

/// `k_round64`: rint and trunc (f64 and f32) near the end of the fraction bits and on halves.
#[test]
fn round_to_integer_near_the_fraction_end() {
    each_wave2(|co, lanes| {
        let n = 256u32;
        let mut r = Rng(67);
        let raw: Vec<u64> = (0..n).map(|_| r.next()).collect();
        let mut b = vec![bytes_u64(&raw), vec![0u8; 32 * n as usize], vec![0u8; 8 * n as usize]];
        ok(co, "k_round64", n, 64, &mut b, &[S::U32(n)]);
        let with_exp = |b: u64, e: i64| f64::from_bits(b & 0x800f_ffff_ffff_ffff | ((1023 + e) as u64) << 52);
        let (got, fgot) = (u64s(&b[1]), u32s(&b[2]));
        for i in 0..n as usize {
            let a = raw[i];
            let x = with_exp(a, 20 + (a >> 52 & 31) as i64 + 4);
            let h = (a & 0xff) as i32 as f64 - 127.5;
            let f = with_exp(a, (a >> 52 & 7) as i64 + 18) as f32;
            let want = [x.round_ties_even(), x.trunc(), h.round_ties_even(), (h * 0.25).trunc()].map(f64::to_bits);
            assert_eq!(&got[4 * i..4 * i + 4], &want[..], "wave{lanes} i={i} x={x} h={h}");
            assert_eq!(&fgot[2 * i..2 * i + 2], &[f.round_ties_even().to_bits(), (-f).trunc().to_bits()], "wave{lanes} i={i} f={f}");
        }
    });
}

/// `k_cube`: v_cubeid/sc/tc/ma from their definitions (the major axis is z when |z| is largest,
/// then y, then x), on values with ties of magnitude and zeros.
#[test]
fn cube_map_coordinates() {
    each_wave2(|co, lanes| {
        let n = 256u32;
        let mut r = Rng(71);
        let pick = [0.0f32, -0.0, 1.0, -1.0, 2.5, -2.5, 0.5, -3.0];
        let v: Vec<f32> = (0..3 * n).map(|_| if r.u32() % 2 == 0 { pick[(r.u32() % 8) as usize] } else { r.f32(-4.0, 4.0) }).collect();
        let mut b = vec![bytes_f32(&v), vec![0u8; 16 * n as usize]];
        ok(co, "k_cube", n, 64, &mut b, &[S::U32(n)]);
        let got = u32s(&b[1]);
        for i in 0..n as usize {
            let (x, y, z) = (v[3 * i], v[3 * i + 1], v[3 * i + 2]);
            let (face, sc, tc, ma) = if z.abs() >= x.abs() && z.abs() >= y.abs() {
                (if z < 0.0 { 5.0 } else { 4.0 }, if z < 0.0 { -x } else { x }, -y, 2.0 * z)
            } else if y.abs() >= x.abs() {
                (if y < 0.0 { 3.0 } else { 2.0 }, x, if y < 0.0 { -z } else { z }, 2.0 * y)
            } else {
                (if x < 0.0 { 1.0 } else { 0.0 }, if x < 0.0 { z } else { -z }, -y, 2.0 * x)
            };
            let want = [face, sc, tc, ma].map(f32::to_bits);
            assert_eq!(&got[4 * i..4 * i + 4], &want[..], "wave{lanes} i={i} x={x} y={y} z={z}");
        }
    });
}

/// `k_div32`: LLVM's f32 division sequence (div_scale, rcp, fmas, div_fmas, div_fixup) gives the
/// correctly rounded quotient, as Rust's `/`, on raw bits of every exponent (denormals, zeros,
/// infinities and NaNs among them) and on moderate values. This is what fixes v_div_fmas'
/// scaling and v_div_fixup's underflow case (see `div_fmas_scale` in `src/valu.rs`).
#[test]
fn f32_division_sequence_rounds_correctly() {
    each_wave2(|co, lanes| {
        let n = 4096u32;
        let mut r = Rng(73);
        let (a, b): (Vec<u32>, Vec<u32>) = (0..n).map(|_| (r.u32(), r.u32())).unzip();
        let mut bufs = vec![bytes_u32(&a), bytes_u32(&b), vec![0u8; 16 * n as usize]];
        ok(co, "k_div32", n, 64, &mut bufs, &[S::U32(n)]);
        let got = u32s(&bufs[2]);
        let same = |g: u32, w: f32| g == w.to_bits() || (w.is_nan() && f32::from_bits(g).is_nan());
        let mut flagged = 0;
        for i in 0..n as usize {
            let (x, y) = (a[i].wrapping_mul(0x9e37_79b1), b[i].wrapping_mul(0x85eb_ca6b));
            let q0 = f32::from_bits(x) / f32::from_bits(y);
            let q1 = (x as i32 as f32) / ((y >> 8) as f32 + 1.0);
            assert!(same(got[4 * i], q0), "wave{lanes} i={i}: {:e} / {:e}: {:#x} vs {q0:e}", f32::from_bits(x), f32::from_bits(y), got[4 * i]);
            assert!(same(got[4 * i + 1], q1), "wave{lanes} i={i}: {:#x} vs {q1:e}", got[4 * i + 1]);
            flagged += (got[4 * i + 2] & 2 != 0) as u32;
        }
        // Enough lanes go through the scaled path for the test to mean something.
        assert!(flagged > n / 50, "only {flagged} of {n} lanes had v_div_scale set VCC");
    });
}

/// `k_div64`: clang's f64 division sequence gives Rust's correctly rounded `/`, on raw bits of
/// every exponent and on moderate values.
#[test]
fn f64_division_sequence_rounds_correctly() {
    each_wave2(|co, lanes| {
        let n = 4096u32;
        let mut r = Rng(83);
        let (a, b): (Vec<u64>, Vec<u64>) = (0..n).map(|_| (r.next(), r.next())).unzip();
        let mut bufs = vec![bytes_u64(&a), bytes_u64(&b), vec![0u8; 16 * n as usize]];
        ok(co, "k_div64", n, 64, &mut bufs, &[S::U32(n)]);
        let got = u64s(&bufs[2]);
        let same = |g: u64, w: f64| g == w.to_bits() || (w.is_nan() && f64::from_bits(g).is_nan());
        for i in 0..n as usize {
            let (x, y) = (a[i].wrapping_mul(0x9e37_79b9_7f4a_7c15), b[i].wrapping_mul(0xc2b2_ae3d_27d4_eb4f));
            let q0 = f64::from_bits(x) / f64::from_bits(y);
            let q1 = (x as i64 as f64) / ((y >> 11) as f64 + 1.0);
            assert!(same(got[2 * i], q0), "wave{lanes} i={i}: {:e} / {:e}: {:#x} vs {q0:e}", f64::from_bits(x), f64::from_bits(y), got[2 * i]);
            assert!(same(got[2 * i + 1], q1), "wave{lanes} i={i}: {:#x} vs {q1:e}", got[2 * i + 1]);
        }
    });
}

/// `x * 2^n` exactly where representable (one rounding at the end), as powers of two in steps.
fn scale2(x: f64, n: i64) -> f64 {
    let (mut r, mut k) = (x, n);
    while k > 900 {
        r *= 2f64.powi(900);
        k -= 900;
    }
    while k < -900 {
        r *= 2f64.powi(-900);
        k += 900;
    }
    r * 2f64.powi(k as i32)
}

/// `v_trig_preop_f64` as the ISA defines it: window `sel * 53` (moved on by the exponent's
/// excess over 1077) of 2/π's bits, times 2^-(53 + shift) (2^128 more from exponent 1968). The
/// test reads 2/π's first bits from the first windows, checks the very first against Rust's
/// FRAC_2_PI (2/π rounded to nearest: one ulp above the truncation), and then every other
/// result against the windows those bits give.
#[test]
fn trig_preop_reads_windows_of_two_over_pi() {
    each_wave2(|co, lanes| {
        let exps = [0u64, 1, 600, 1023, 1077, 1078, 1100, 1500, 1967, 1968, 2000, 2046, 2047];
        let n = exps.len() * 32;
        let mut r = Rng(88);
        let input: Vec<u64> = (0..n).map(|i| exps[i / 32] << 52 | (r.next() & 0x800f_ffff_ffff_ffff)).collect();
        // The kernel XORs (8i mod 2048) into the exponent.
        let given: Vec<u64> = input.iter().enumerate().map(|(i, &x)| x ^ ((i as u64 * 8) & 0x7ff) << 52).collect();
        let mut b = vec![bytes_u64(&given), vec![0u8; 16 * n]];
        ok(co, "k_trig_preop", n as u32, 64, &mut b, &[S::U32(n as u32)]);
        let out: Vec<f64> = u64s(&b[1]).into_iter().map(f64::from_bits).collect();
        // Input 4*32 + s has exponent 1077 (no excess): its second result is window s.
        let window = |s: usize| scale2(out[2 * (4 * 32 + s) + 1], 53 * (s as i64 + 1)) as u64;
        assert_eq!(out[2 * (4 * 32) + 1].to_bits(), std::f64::consts::FRAC_2_PI.to_bits() - 1, "wave{lanes}: 2/π truncated to 53 bits");
        // Windows up to 17 end above 2^-1022: exact. Bits of 2/π, most significant first.
        let bits: Vec<u64> = (0..18).flat_map(|s| (0..53).rev().map(move |k| (s, k))).map(|(s, k)| window(s) >> k & 1).collect();
        let mut checked = 0;
        for (i, &x) in input.iter().enumerate() {
            let e = (x >> 52 & 0x7ff) as i64;
            for (j, sel) in [(0, (x >> 3) as u32), (1, i as u32 & 31)] {
                let shift = (sel & 31) as i64 * 53 + (e - 1077).max(0);
                if shift + 53 > bits.len() as i64 {
                    continue;
                }
                let mant = (0..53).fold(0u64, |m, k| m << 1 | bits[(shift + k) as usize]);
                let want = scale2(mant as f64, -53 - shift + if e >= 1968 { 128 } else { 0 });
                assert_eq!(out[2 * i + j].to_bits(), want.to_bits(), "wave{lanes} input {x:#018x} sel {sel}");
                checked += 1;
            }
        }
        assert!(checked > n / 2, "wave{lanes}: only {checked} results checked");
    });
}

/// `k_clock_hwreg`: the clock counts instructions (each wave from its first, so every wave
/// reads the same start; the end grows with the loop's longest trip in the wave), and
/// `s_getreg_b32` reads MODE as RSRC1 and the IEEE/DX10 bits set it, the wave's index in its
/// workgroup, all 256 VGPRs allocated and no LDS.
#[test]
fn clock_counts_instructions_and_getreg_reads_hardware_registers() {
    each_wave2(|co, lanes| {
        let n = 256usize;
        let mut r = Rng(91);
        let input: Vec<u32> = (0..n).map(|_| r.u32()).collect();
        let mut b = vec![bytes_u32(&input), vec![0u8; 24 * n], vec![0u8; 20 * n]];
        ok(co, "k_clock_hwreg", n as u32, 64, &mut b, &[]);
        let out = u64s(&b[1]);
        let regs = u32s(&b[2]);
        let kd = &co.kernels.iter().find(|k| k.name == "k_clock_hwreg").unwrap().kd;
        let mode = (kd.compute_pgm_rsrc1 >> 12 & 0xff) | (kd.enable_dx10_clamp() as u32) << 8 | (kd.enable_ieee_mode() as u32) << 9;
        let gfx11 = co.mcpu == Some("gfx1100");
        for i in 0..n {
            let wave = (i % 64) / lanes as usize;
            let acc = (0..input[i] & 7).fold(input[i], |a, k| a.wrapping_mul(3).wrapping_add(k));
            assert_eq!(out[3 * i + 2], acc as u64, "wave{lanes} acc {i}");
            assert_eq!(&regs[5 * i..5 * i + 5], &[mode, mode >> 4 & 15, wave as u32, 31 << 8, 0], "wave{lanes} registers of {i}");
            // gfx11 reads cycles from SHADER_CYCLES, which the emulator keeps at 0.
            let (t0, t1) = (out[3 * i], out[3 * i + 1]);
            if gfx11 {
                assert_eq!(t0, 0, "wave{lanes} item {i}");
            } else {
                assert_eq!(t0, out[0], "wave{lanes}: every wave reads its clock at the same instruction");
                assert!(t0 > 0, "wave{lanes}: the clock counts the instruction that reads it");
            }
            let trips = (i / lanes as usize * lanes as usize..).take(lanes as usize).map(|j| input[j] & 7).max().unwrap() as u64;
            let base = out[1] - (input[..lanes as usize].iter().map(|x| x & 7).max().unwrap() as u64) * 9;
            assert_eq!(t1, base + trips * 9, "wave{lanes} item {i}: 9 instructions per trip of the wave's longest loop");
        }
    });
}
