//! Shared by the emulator's tests: compile OpenCL C with clang-19, run a kernel on the emulator.

#![allow(dead_code, unused_imports)]

use std::path::Path;

use rdna_emu::{Launch, Memory, Options, Stats};
use rdna_hsa::CodeObject;

pub use rdna_testkit::{compile_for, root};

/// Compiles `cl` (OpenCL C, or assembly with `-x assembler`) for gfx1030 and links a code object.
pub fn compile(cl: &Path, tag: &str, extra: &[&str]) -> CodeObject {
    compile_for(cl, "gfx1030", tag, extra)
}

/// A scalar kernel argument.
#[derive(Clone, Copy, Debug)]
pub enum S {
    U32(u32),
    F32(f32),
}

/// Runs `kernel` with `bufs` bound to its buffer arguments (in order) and `scalars` to its
/// by-value arguments (in order); the buffers are updated in place.
pub fn run(co: &CodeObject, kernel: &str, grid: [u32; 3], wg: [u32; 3], bufs: &mut [Vec<u8>], scalars: &[S]) -> Result<Stats, rdna_emu::Error> {
    run_threads(co, kernel, grid, wg, bufs, scalars, 0)
}

/// [`run`] on a given number of host threads (0: all cores).
pub fn run_threads(co: &CodeObject, kernel: &str, grid: [u32; 3], wg: [u32; 3], bufs: &mut [Vec<u8>], scalars: &[S], threads: usize) -> Result<Stats, rdna_emu::Error> {
    let k = co.kernel(kernel).unwrap_or_else(|| panic!("no kernel {kernel}"));
    let meta = k.meta.as_ref().expect("metadata");
    let mut mem = Memory::new();
    let addrs: Vec<u64> = bufs.iter().enumerate().map(|(i, b)| mem.map(&format!("b{i}"), b, b.len().max(4) as u64)).collect();
    let mut kernarg = vec![0u8; meta.kernarg_segment_size.max(256) as usize];
    let (mut bi, mut si) = (0, 0);
    for a in meta.args.iter().filter(|a| !a.is_hidden()) {
        let o = a.offset as usize;
        if a.value_kind == "global_buffer" {
            kernarg[o..o + 8].copy_from_slice(&addrs[bi].to_le_bytes());
            bi += 1;
        } else {
            let bytes = match scalars[si] {
                S::U32(v) => v.to_le_bytes(),
                S::F32(v) => v.to_le_bytes(),
            };
            kernarg[o..o + 4].copy_from_slice(&bytes);
            si += 1;
        }
    }
    assert_eq!((bi, si), (bufs.len(), scalars.len()), "{kernel}: argument count");
    // Hidden arguments the corpus uses: block counts and group sizes.
    for a in meta.args.iter().filter(|a| a.is_hidden()) {
        let o = a.offset as usize;
        let d = match a.value_kind.chars().last() {
            Some('y') => 1,
            Some('z') => 2,
            _ => 0,
        };
        if a.value_kind.starts_with("hidden_group_size_") {
            kernarg[o..o + 2].copy_from_slice(&(wg[d] as u16).to_le_bytes());
        } else if a.value_kind.starts_with("hidden_block_count_") {
            kernarg[o..o + 4].copy_from_slice(&grid[d].div_ceil(wg[d]).to_le_bytes());
        }
    }
    let launch = Launch { code: co, kernel: k, grid, workgroup: wg, kernarg, dynamic_lds: 0 };
    let stats = rdna_emu::run(&launch, &mut mem, &Options { budget: 10_000_000, threads, trace: None, edges: false })?;
    for (i, b) in bufs.iter_mut().enumerate() {
        let c = mem.contents(&format!("b{i}")).unwrap();
        let len = b.len();
        b.copy_from_slice(&c[..len]);
    }
    Ok(stats)
}

/// A small deterministic generator (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn u32(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }
    /// A float in [lo, hi).
    pub fn f32(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.u32() >> 8) as f32 / (1u32 << 24) as f32)
    }
}

pub fn bytes_u32(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
pub fn bytes_u64(v: &[u64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
pub fn bytes_f32(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
pub fn bytes_f64(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
pub fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}
pub fn u64s(b: &[u8]) -> Vec<u64> {
    b.chunks(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect()
}

pub use rdna_testkit::asm_for;
