//! The VALU fast path: plain 32-bit operations without modifiers, DPP or SDWA, computed straight
//! from the register file into the destination. `program.rs` marks the steps that qualify; the
//! general path in `valu.rs` handles everything else and is the reference these must equal
//! (`tests/fast_path.rs` runs both on the same inputs).

use crate::program::{Src, Step};
use crate::sem::{Cond, Num, VOp};
use crate::wave::{Wave, LANES};

/// Room for the fast path's broadcast sources and its result, kept by the caller across steps:
/// arrays on the stack would be zeroed on every step (a kilobyte each time).
pub type Scratch = [[u32; LANES]; 4];

/// Whether `op` has a fast form (integer operations, and float operations that are exact with
/// denormals kept and round-to-nearest-even — the fast path checks MODE before use).
pub fn supported(op: VOp) -> bool {
    use VOp::*;
    matches!(
        op,
        MovB32 | CvtF32Ubyte0 | CvtF32Ubyte1 | CvtF32Ubyte2 | CvtF32Ubyte3 | AddNcU32 | SubNcU32 | SubrevNcU32 | AndB32 | OrB32 | XorB32 | NotB32 | LshlrevB32 | LshrrevB32 | AshrrevI32
            | MinU32 | MaxU32 | MinI32 | MaxI32 | MulLoU32 | MulHiU32 | MulU32U24 | MadU32U24 | LshlOrB32 | AndOrB32 | Or3B32
            | Xor3B32 | Add3U32 | LshlAddU32 | AddLshlU32 | XadU32 | BfeU32 | BfiB32 | AddF32 | SubF32 | SubrevF32 | MulF32
            | FmaF32 | FmacF32 | CvtF32U32 | CvtF32I32 | BcntU32B32 | CndmaskB32 | AddCoU32 | SubCoU32 | SubrevCoU32
            | AddCoCiU32 | SubCoCiU32 | SubrevCoCiU32 | MadU64U32 | MadI64I32
    )
}

/// Compare types with a fast form (32-bit integers; f32 needs MODE checked at run time).
pub fn compare_supported(ty: Num) -> bool {
    matches!(ty, Num::I32 | Num::U32 | Num::F32)
}

/// A plain 32-bit compare (or v_cmpx): one result bit per active lane.
#[inline]
pub fn compare(w: &mut Wave, st: &Step, ty: Num, cond: Cond, x: bool, tmp: &mut Scratch) -> bool {
    match w.lanes {
        32 => compare_n::<32>(w, st, ty, cond, x, tmp),
        64 => compare_n::<64>(w, st, ty, cond, x, tmp),
        _ => false,
    }
}

fn compare_n<const N: usize>(w: &mut Wave, st: &Step, ty: Num, cond: Cond, x: bool, tmp: &mut Scratch) -> bool {
    if ty == Num::F32 && w.mode.0 & 0x3f != 0x30 {
        return false;
    }
    let exec = w.exec();
    let mut res = 0u64;
    {
        let [ta, tb, ..] = tmp;
        let a = lanes::<N>(w, st.src[0], ta);
        let b = lanes::<N>(w, st.src[1], tb);
        let pick = |o: Option<std::cmp::Ordering>| match o {
            None => cond.unord,
            Some(std::cmp::Ordering::Less) => cond.lt,
            Some(std::cmp::Ordering::Equal) => cond.eq,
            Some(std::cmp::Ordering::Greater) => cond.gt,
        };
        for (l, (&p, &q)) in a.iter().zip(b).enumerate() {
            let o = match ty {
                Num::U32 => Some(p.cmp(&q)),
                Num::I32 => Some((p as i32).cmp(&(q as i32))),
                _ => f32::from_bits(p).partial_cmp(&f32::from_bits(q)),
            };
            res |= (pick(o) as u64) << l;
        }
    }
    let res = res & exec;
    if x {
        w.set_exec(res);
    } else {
        w.write_mask(st.dst, res);
    }
    true
}

/// Whether `op` computes in single precision (and so needs MODE = denormals kept, nearest-even).
pub fn is_float(op: VOp) -> bool {
    use VOp::*;
    matches!(op, AddF32 | SubF32 | SubrevF32 | MulF32 | FmaF32 | FmacF32 | CvtF32U32 | CvtF32I32 | CvtF32Ubyte0 | CvtF32Ubyte1 | CvtF32Ubyte2 | CvtF32Ubyte3)
}

/// The first `N` entries of a scratch row (`N` is 32 or 64, a row holds `LANES` = 64).
fn head<const N: usize>(row: &mut [u32; LANES]) -> &mut [u32; N] {
    row.first_chunk_mut::<N>().expect("N is at most LANES")
}

/// A source for all `N` lanes of a wave: a VGPR's lanes, or one value for every lane.
fn lanes<'a, const N: usize>(w: &'a Wave, s: Src, tmp: &'a mut [u32; LANES]) -> &'a [u32; N] {
    let fill = |tmp: &'a mut [u32; LANES], v: u32| -> &'a [u32; N] {
        let t = head::<N>(tmp);
        t.fill(v);
        t
    };
    match s {
        Src::Vgpr(r) => match w.v.get(r as usize * LANES..).and_then(|v| v.first_chunk::<N>()) {
            Some(v) => v,
            // Past the wave's registers: zeros, as the general path reads.
            None => fill(tmp, 0),
        },
        other => fill(tmp, w.read_s32(other)),
    }
}

/// Writes `value` into the lanes of `dst` whose EXEC bit is set (all of them when `full`).
fn write_lanes<const N: usize>(dst: &mut [u32], value: &[u32; N], exec: u64, full: bool) {
    if full {
        dst.copy_from_slice(value);
    } else {
        for (l, (x, &v)) in dst.iter_mut().zip(value).enumerate() {
            if exec >> l & 1 != 0 {
                *x = v;
            }
        }
    }
}

/// Executes a step marked fast. Returns false (doing nothing) when MODE rules the fast form out.
/// The lane count is a constant in each instance, so the lane loops compile to vector code.
#[inline]
pub fn exec(w: &mut Wave, st: &Step, op: VOp, tmp: &mut Scratch) -> bool {
    match w.lanes {
        32 => exec_n::<32>(w, st, op, tmp),
        64 => exec_n::<64>(w, st, op, tmp),
        _ => false,
    }
}

fn exec_n<const N: usize>(w: &mut Wave, st: &Step, op: VOp, tmp: &mut Scratch) -> bool {
    use VOp::*;
    if matches!(op, MadU64U32 | MadI64I32) {
        mad64::<N>(w, st, op == MadI64I32, tmp);
        return true;
    }
    if is_float(op) && w.mode.0 & 0x3f != 0x30 {
        return false;
    }
    let exec = w.exec();
    let [ta, tb, tc, r] = tmp;
    let mut carry = 0u64;
    let vop3 = st.inst.format == rdna_isa::Format::Vop3;
    // Carry-in / mask: SRC2 in VOP3, VCC in VOP2.
    let mask_in = match op {
        CndmaskB32 | AddCoCiU32 | SubCoCiU32 | SubrevCoCiU32 => {
            if vop3 {
                w.read_mask(st.src[2])
            } else {
                w.vcc()
            }
        }
        _ => 0,
    };
    {
        let a = lanes::<N>(w, st.src[0], ta);
        let b = if st.nsrc > 1 { lanes::<N>(w, st.src[1], tb) } else { a };
        let c = if matches!(op, FmacF32) {
            lanes::<N>(w, Src::Vgpr(st.dst), tc)
        } else if st.nsrc > 2 {
            lanes::<N>(w, st.src[2], tc)
        } else {
            a
        };
        let r = head::<N>(r);
        macro_rules! map2 {
            (|$x:ident, $y:ident| $e:expr) => {
                for ((o, &$x), &$y) in r.iter_mut().zip(a).zip(b) {
                    *o = $e;
                }
            };
        }
        macro_rules! map3 {
            (|$x:ident, $y:ident, $z:ident| $e:expr) => {
                for (((o, &$x), &$y), &$z) in r.iter_mut().zip(a).zip(b).zip(c) {
                    *o = $e;
                }
            };
        }
        let f = f32::from_bits;
        match op {
            MovB32 => r.copy_from_slice(a),
            NotB32 => map2!(|x, _y| !x),
            AddNcU32 => map2!(|x, y| x.wrapping_add(y)),
            SubNcU32 => map2!(|x, y| x.wrapping_sub(y)),
            SubrevNcU32 => map2!(|x, y| y.wrapping_sub(x)),
            AndB32 => map2!(|x, y| x & y),
            OrB32 => map2!(|x, y| x | y),
            XorB32 => map2!(|x, y| x ^ y),
            LshlrevB32 => map2!(|x, y| y << (x & 31)),
            LshrrevB32 => map2!(|x, y| y >> (x & 31)),
            AshrrevI32 => map2!(|x, y| ((y as i32) >> (x & 31)) as u32),
            MinU32 => map2!(|x, y| x.min(y)),
            MaxU32 => map2!(|x, y| x.max(y)),
            MinI32 => map2!(|x, y| (x as i32).min(y as i32) as u32),
            MaxI32 => map2!(|x, y| (x as i32).max(y as i32) as u32),
            MulLoU32 => map2!(|x, y| x.wrapping_mul(y)),
            MulHiU32 => map2!(|x, y| ((x as u64 * y as u64) >> 32) as u32),
            MulU32U24 => map2!(|x, y| (x & 0xff_ffff).wrapping_mul(y & 0xff_ffff)),
            BcntU32B32 => map2!(|x, y| x.count_ones().wrapping_add(y)),
            MadU32U24 => map3!(|x, y, z| (x & 0xff_ffff).wrapping_mul(y & 0xff_ffff).wrapping_add(z)),
            LshlOrB32 => map3!(|x, y, z| (x << (y & 31)) | z),
            AndOrB32 => map3!(|x, y, z| (x & y) | z),
            Or3B32 => map3!(|x, y, z| x | y | z),
            Xor3B32 => map3!(|x, y, z| x ^ y ^ z),
            Add3U32 => map3!(|x, y, z| x.wrapping_add(y).wrapping_add(z)),
            LshlAddU32 => map3!(|x, y, z| (x << (y & 31)).wrapping_add(z)),
            AddLshlU32 => map3!(|x, y, z| x.wrapping_add(y) << (z & 31)),
            XadU32 => map3!(|x, y, z| (x ^ y).wrapping_add(z)),
            BfeU32 => map3!(|x, y, z| if z & 31 == 0 { 0 } else { ((x as u64 >> (y & 31)) & ((1u64 << (z & 31)) - 1)) as u32 }),
            BfiB32 => map3!(|x, y, z| (x & y) | (!x & z)),
            AddF32 => map2!(|x, y| (f(x) + f(y)).to_bits()),
            SubF32 => map2!(|x, y| (f(x) - f(y)).to_bits()),
            SubrevF32 => map2!(|x, y| (f(y) - f(x)).to_bits()),
            MulF32 => map2!(|x, y| (f(x) * f(y)).to_bits()),
            FmaF32 | FmacF32 => fma_lanes(r, a, b, c),
            CvtF32U32 => map2!(|x, _y| (x as f32).to_bits()),
            CvtF32I32 => map2!(|x, _y| (x as i32 as f32).to_bits()),
            CvtF32Ubyte0 => map2!(|x, _y| ((x & 0xff) as f32).to_bits()),
            CvtF32Ubyte1 => map2!(|x, _y| ((x >> 8 & 0xff) as f32).to_bits()),
            CvtF32Ubyte2 => map2!(|x, _y| ((x >> 16 & 0xff) as f32).to_bits()),
            CvtF32Ubyte3 => map2!(|x, _y| ((x >> 24) as f32).to_bits()),
            CndmaskB32 => {
                for (l, ((o, &x), &y)) in r.iter_mut().zip(a).zip(b).enumerate() {
                    *o = if mask_in >> l & 1 != 0 { y } else { x };
                }
            }
            AddCoU32 | AddCoCiU32 | SubCoU32 | SubCoCiU32 | SubrevCoU32 | SubrevCoCiU32 => {
                let with_carry = matches!(op, AddCoCiU32 | SubCoCiU32 | SubrevCoCiU32);
                for (l, ((o, &x), &y)) in r.iter_mut().zip(a).zip(b).enumerate() {
                    let cin = if with_carry { (mask_in >> l & 1) as u64 } else { 0 };
                    let (x, y) = if matches!(op, SubrevCoU32 | SubrevCoCiU32) { (y as u64, x as u64) } else { (x as u64, y as u64) };
                    let (v, c) = if matches!(op, AddCoU32 | AddCoCiU32) {
                        let s = x + y + cin;
                        (s as u32, s >> 32 != 0)
                    } else {
                        (x.wrapping_sub(y + cin) as u32, x < y + cin)
                    };
                    *o = v;
                    carry |= (c as u64) << l;
                }
            }
            _ => return false,
        }
    }
    if matches!(op, AddCoU32 | AddCoCiU32 | SubCoU32 | SubCoCiU32 | SubrevCoU32 | SubrevCoCiU32) {
        w.write_mask(st.carry_dst(), carry & exec);
    }
    let full = exec == w.lane_mask;
    let d = st.dst as usize * LANES;
    if let Some(dst) = w.v.get_mut(d..d + N) {
        write_lanes(dst, head::<N>(r), exec, full);
    }
    true
}

/// f32 fma over the lanes (`r = a × b + c`, one rounding). Without the FMA instruction in the
/// build's baseline, `mul_add` is a library call per lane; where the CPU has it (detected once,
/// then a cached flag) the same loop is compiled for it.
fn fma_lanes<const N: usize>(r: &mut [u32; N], a: &[u32; N], b: &[u32; N], c: &[u32; N]) {
    macro_rules! each {
        ($r:ident, $a:ident, $b:ident, $c:ident) => {
            for l in 0..N {
                $r[l] = f32::from_bits($a[l]).mul_add(f32::from_bits($b[l]), f32::from_bits($c[l])).to_bits();
            }
        };
    }
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2,fma")]
        fn with_fma<const N: usize>(r: &mut [u32; N], a: &[u32; N], b: &[u32; N], c: &[u32; N]) {
            each!(r, a, b, c)
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
            // SAFETY: the CPU has the features the function is compiled for.
            return unsafe { with_fma(r, a, b, c) };
        }
    }
    each!(r, a, b, c)
}

/// `v_mad_u64_u32` / `v_mad_i64_i32`: 32 × 32 + 64 into a VGPR pair, the carry-out (unsigned) or
/// overflow (signed) of each active lane into SDST. LLVM uses them for 64-bit address arithmetic
/// and multiplications, so they are common in loops.
fn mad64<const N: usize>(w: &mut Wave, st: &Step, signed: bool, tmp: &mut Scratch) {
    let exec = w.exec();
    let [ta, tb, lo, hi] = tmp;
    let (lo, hi) = (head::<N>(lo), head::<N>(hi));
    let mut over = [false; N];
    {
        let a = lanes::<N>(w, st.src[0], ta);
        let b = lanes::<N>(w, st.src[1], tb);
        // The 64-bit addend: a VGPR pair's lanes (a pair reaching past the registers reads as
        // zero in both halves, as `read_v64`), or one value for all.
        let pair = match st.src[2] {
            Src::Vgpr(r) => w.v.get(r as usize * LANES..).and_then(|v| Some((v.first_chunk::<N>()?, v.get(LANES..)?.first_chunk::<N>()?))),
            _ => None,
        };
        let all = match st.src[2] {
            Src::Vgpr(_) => 0,
            other => w.read_s64(other),
        };
        // (The 32 × 32 product fits in 64 bits; only the addition can carry or overflow.)
        let addend = |l: usize| pair.map_or(all, |(cl, ch)| cl[l] as u64 | (ch[l] as u64) << 32);
        for l in 0..N {
            let c = addend(l);
            let (v, o) = if signed {
                let (v, o) = (a[l] as i32 as i64 * b[l] as i32 as i64).overflowing_add(c as i64);
                (v as u64, o)
            } else {
                (a[l] as u64 * b[l] as u64).overflowing_add(c)
            };
            lo[l] = v as u32;
            hi[l] = (v >> 32) as u32;
            over[l] = o;
        }
    }
    let d = st.dst as usize;
    if (d + 1) * LANES + N <= w.v.len() {
        let (x, y) = w.v.split_at_mut((d + 1) * LANES);
        let full = exec == w.lane_mask;
        write_lanes(&mut x[d * LANES..d * LANES + N], lo, exec, full);
        write_lanes(&mut y[..N], hi, exec, full);
    }
    let carry = over.iter().enumerate().fold(0u64, |m, (l, &o)| m | (o as u64) << l);
    w.write_mask(st.carry_dst(), carry & exec);
}
