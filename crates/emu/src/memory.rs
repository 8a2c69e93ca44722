//! The guest's sparse 64-bit global address space: named regions (buffers, kernel arguments,
//! the code object image) with unmapped gaps between them, so that a stray address faults.
//!
//! Storage is 64-bit atomic words, so workgroups running on several host threads can share it:
//! plain accesses are relaxed loads and stores, guest atomics are compare-exchange loops.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A fault raised by a guest memory access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MemFault {
    #[error("unmapped address {addr:#x} ({size} bytes)")]
    Unmapped { addr: u64, size: u32 },
    #[error("misaligned {size}-byte atomic at {addr:#x}")]
    Misaligned { addr: u64, size: u32 },
}

/// One mapped range of guest memory.
pub struct Region {
    pub name: String,
    pub base: u64,
    pub size: u64,
    words: Box<[AtomicU64]>,
}

/// Gap left unmapped after every region (catches small overruns).
const GUARD: u64 = 1 << 16;

/// The guest address space.
pub struct Memory {
    regions: Vec<Region>,
    next: u64,
}

impl Default for Memory {
    fn default() -> Self {
        Memory::new()
    }
}

impl Memory {
    /// Buffers start at 4 GiB so that 32-bit truncation bugs in a kernel fault instead of
    /// silently hitting another buffer.
    pub fn new() -> Memory {
        Memory { regions: Vec::new(), next: 1 << 32 }
    }

    /// Maps `size` bytes (at least `data.len()`), initialised from `data` and zero beyond it;
    /// returns the guest address (256-byte aligned).
    pub fn map(&mut self, name: &str, data: &[u8], size: u64) -> u64 {
        let base = self.next;
        self.map_at(name, base, data, size);
        base
    }

    /// Maps a region at a fixed address (the code object image). Panics never: an overlapping
    /// request is placed after the last region instead, and the address used is returned.
    pub fn map_at(&mut self, name: &str, base: u64, data: &[u8], size: u64) -> u64 {
        let size = size.max(data.len() as u64);
        let overlaps = self.regions.iter().any(|r| base < r.base + r.size + GUARD && r.base < base + size + GUARD);
        let base = if overlaps { self.next } else { base };
        let nwords = size.div_ceil(8) as usize;
        let mut words = Vec::with_capacity(nwords);
        for chunk in 0..nwords {
            let mut b = [0u8; 8];
            let lo = chunk * 8;
            if lo < data.len() {
                let hi = (lo + 8).min(data.len());
                b[..hi - lo].copy_from_slice(&data[lo..hi]);
            }
            words.push(AtomicU64::new(u64::from_le_bytes(b)));
        }
        self.regions.push(Region { name: name.to_string(), base, size, words: words.into_boxed_slice() });
        self.regions.sort_by_key(|r| r.base);
        self.next = self.next.max((base + size + GUARD).next_multiple_of(256));
        base
    }

    /// The region holding `[addr, addr + len)`.
    #[inline]
    fn region(&self, addr: u64, len: u32) -> Result<&Region, MemFault> {
        let i = self.regions.partition_point(|r| r.base <= addr);
        let fault = MemFault::Unmapped { addr, size: len };
        let r = self.regions.get(i.wrapping_sub(1)).ok_or(fault)?;
        let end = addr.checked_add(len as u64).ok_or(fault)?;
        if end > r.base + r.size {
            return Err(fault);
        }
        Ok(r)
    }

    /// The named region's current contents.
    pub fn contents(&self, name: &str) -> Option<Vec<u8>> {
        let r = self.regions.iter().find(|r| r.name == name)?;
        let mut out = vec![0u8; r.size as usize];
        self.read(r.base, &mut out).ok()?;
        Some(out)
    }

    pub fn regions(&self) -> impl Iterator<Item = &Region> {
        self.regions.iter()
    }

    /// Reads bytes.
    #[inline]
    pub fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), MemFault> {
        let r = self.region(addr, out.len() as u32)?;
        let mut off = addr - r.base;
        // Within one word: a single load.
        let s = (off % 8) as usize;
        if s + out.len() <= 8 {
            let w = r.words[(off / 8) as usize].load(Relaxed).to_le_bytes();
            out.copy_from_slice(&w[s..s + out.len()]);
            return Ok(());
        }
        let mut i = 0;
        while i < out.len() {
            let w = r.words[(off / 8) as usize].load(Relaxed).to_le_bytes();
            let s = (off % 8) as usize;
            let n = (8 - s).min(out.len() - i);
            out[i..i + n].copy_from_slice(&w[s..s + n]);
            i += n;
            off += n as u64;
        }
        Ok(())
    }

    /// Writes bytes (each 8-byte word updated atomically, so concurrent writers of other bytes in
    /// the same word are not lost).
    #[inline]
    pub fn write(&self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        let r = self.region(addr, data.len() as u32)?;
        let mut off = addr - r.base;
        let s = (off % 8) as usize;
        if s + data.len() <= 8 && data.len() < 8 {
            let mut b = [0u8; 8];
            b[s..s + data.len()].copy_from_slice(data);
            let mask = ((1u64 << (8 * data.len())) - 1) << (8 * s);
            let val = u64::from_le_bytes(b);
            let _ = r.words[(off / 8) as usize].fetch_update(Relaxed, Relaxed, |old| Some(old & !mask | val));
            return Ok(());
        }
        let mut i = 0;
        while i < data.len() {
            let s = (off % 8) as usize;
            let n = (8 - s).min(data.len() - i);
            let word = &r.words[(off / 8) as usize];
            if n == 8 {
                word.store(u64::from_le_bytes(data[i..i + 8].try_into().unwrap_or([0; 8])), Relaxed);
            } else {
                let mut b = [0u8; 8];
                b[s..s + n].copy_from_slice(&data[i..i + n]);
                let mask = if n == 8 { u64::MAX } else { ((1u64 << (8 * n)) - 1) << (8 * s) };
                let val = u64::from_le_bytes(b);
                let _ = word.fetch_update(Relaxed, Relaxed, |old| Some(old & !mask | val));
            }
            i += n;
            off += n as u64;
        }
        Ok(())
    }

    #[inline]
    pub fn read_u32(&self, addr: u64) -> Result<u32, MemFault> {
        let mut b = [0u8; 4];
        self.read(addr, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    #[inline]
    pub fn read_u64(&self, addr: u64) -> Result<u64, MemFault> {
        let mut b = [0u8; 8];
        self.read(addr, &mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    /// Atomically replaces the aligned 32-bit value at `addr` by `f(old)`; returns `old`.
    pub fn atomic32(&self, addr: u64, f: impl Fn(u32) -> u32) -> Result<u32, MemFault> {
        if addr % 4 != 0 {
            return Err(MemFault::Misaligned { addr, size: 4 });
        }
        let r = self.region(addr, 4)?;
        let off = addr - r.base;
        let shift = (off % 8) * 8;
        let word = &r.words[(off / 8) as usize];
        let mut old32 = 0;
        let _ = word.fetch_update(Relaxed, Relaxed, |old| {
            old32 = (old >> shift) as u32;
            let new = f(old32) as u64;
            Some(old & !(0xffff_ffffu64 << shift) | new << shift)
        });
        Ok(old32)
    }

    /// Atomically replaces the aligned 64-bit value at `addr` by `f(old)`; returns `old`.
    pub fn atomic64(&self, addr: u64, f: impl Fn(u64) -> u64) -> Result<u64, MemFault> {
        if addr % 8 != 0 {
            return Err(MemFault::Misaligned { addr, size: 8 });
        }
        let r = self.region(addr, 8)?;
        let word = &r.words[((addr - r.base) / 8) as usize];
        let prev = word.fetch_update(Relaxed, Relaxed, |old| Some(f(old)));
        Ok(prev.unwrap_or_else(|v| v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_read_write_and_fault() {
        let mut m = Memory::new();
        let a = m.map("a", &[1, 2, 3, 4, 5], 12);
        let b = m.map("b", &[], 4);
        assert!(b >= a + 12 + GUARD);
        assert_eq!(m.read_u32(a).unwrap(), 0x0403_0201);
        assert_eq!(m.read_u32(a + 4).unwrap(), 5);
        m.write(a + 3, &[0xaa, 0xbb, 0xcc]).unwrap();
        assert_eq!(m.contents("a").unwrap(), vec![1, 2, 3, 0xaa, 0xbb, 0xcc, 0, 0, 0, 0, 0, 0]);
        assert_eq!(m.read_u32(a + 10), Err(MemFault::Unmapped { addr: a + 10, size: 4 }));
        assert_eq!(m.read_u32(a - 4), Err(MemFault::Unmapped { addr: a - 4, size: 4 }));
        assert_eq!(m.read_u32(u64::MAX - 1), Err(MemFault::Unmapped { addr: u64::MAX - 1, size: 4 }));
        assert_eq!(m.atomic32(a + 4, |v| v + 10).unwrap(), 0xccbb);
        assert_eq!(m.read_u32(a + 4).unwrap(), 0xccbb + 10);
        assert_eq!(m.atomic32(a + 2, |v| v), Err(MemFault::Misaligned { addr: a + 2, size: 4 }));
        assert_eq!(m.atomic64(a, |v| v.wrapping_add(1)).unwrap() & 0xff, 1);
        assert_eq!(m.read(a, &mut [0u8; 1]).map(|_| ()), Ok(()));
        assert_eq!(m.contents("a").unwrap()[0], 2);
    }
}
