//! The state of one wave: scalar and vector registers, SCC, EXEC, VCC, M0, MODE, and how
//! operands are read from it.

use crate::program::Src;

/// Scalar register numbers with a fixed meaning (the 8-bit SALU / 9-bit VALU source space).
pub mod sreg {
    pub const VCC: usize = 106;
    pub const M0: usize = 124;
    pub const NULL: usize = 125;
    pub const EXEC: usize = 126;
}

/// High halves of the flat-address apertures that `src_shared_base` / `src_private_base` return:
/// a flat address whose upper 32 bits equal one of these reaches LDS or scratch.
pub const SHARED_APERTURE_HI: u32 = 0x0001_0000;
pub const PRIVATE_APERTURE_HI: u32 = 0x0002_0000;

/// Base address of the scratch buffer resource given to kernels that ask for a private segment
/// buffer (48-bit, like every buffer base): MUBUF accesses in the 4 GiB above it reach the
/// accessing lane's private memory.
pub const SCRATCH_BUFFER_BASE: u64 = 0xfff0_0000_0000;

/// MODE register fields (gfx10): FP_ROUND [3:0], FP_DENORM [7:4], DX10_CLAMP [8], IEEE [9].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mode(pub u32);

impl Mode {
    pub fn round32(self) -> u32 {
        self.0 & 3
    }
    pub fn round64(self) -> u32 {
        self.0 >> 2 & 3
    }
    /// Single-precision denormal control (3 keeps them all).
    pub fn denorm32(self) -> u32 {
        self.0 >> 4 & 3
    }
    /// Double- and half-precision denormal control.
    pub fn denorm64(self) -> u32 {
        self.0 >> 6 & 3
    }
    pub fn dx10_clamp(self) -> bool {
        self.0 >> 8 & 1 != 0
    }
    pub fn ieee(self) -> bool {
        self.0 >> 9 & 1 != 0
    }
}

/// Lanes of a vector register file are stored register-major with this stride.
pub const LANES: usize = 64;

/// One wave's registers.
pub struct Wave {
    /// s0..s105, then vcc_lo/hi (106/107), ttmp0..15, m0 (124), null (125), exec_lo/hi (126/127).
    pub s: [u32; 128],
    /// `v[r * LANES + lane]`.
    pub v: Vec<u32>,
    pub scc: bool,
    pub mode: Mode,
    /// 32 or 64.
    pub lanes: usize,
    /// Mask of the lanes that exist (low 32 bits in wave32).
    pub lane_mask: u64,
    /// Index of the next instruction in the program.
    pub pc: usize,
    /// Position of the wave in its workgroup.
    pub wave_id: u32,
    /// Set by `s_endpgm`.
    pub done: bool,
    /// Per-lane private (scratch) memory: `scratch[lane * scratch_size ..]`.
    pub scratch: Vec<u8>,
    pub scratch_size: usize,
    /// Instructions executed so far.
    pub executed: u64,
    /// TRAPSTS/other hardware registers written with s_setreg, kept so s_getreg reads them back.
    pub hwreg: [u32; 32],
    /// Work buffers of the VALU (sources and result for every lane), reused across instructions.
    pub tmp: Vec<[u64; LANES]>,
}

impl Wave {
    pub fn new(lanes: usize, vgprs: usize, scratch_size: usize) -> Wave {
        Wave {
            s: [0; 128],
            v: vec![0; vgprs.max(1) * LANES],
            scc: false,
            mode: Mode(0),
            lanes,
            lane_mask: if lanes == 64 { u64::MAX } else { 0xffff_ffff },
            pc: 0,
            wave_id: 0,
            done: false,
            scratch: vec![0; scratch_size * lanes],
            scratch_size,
            executed: 0,
            hwreg: [0; 32],
            tmp: Vec::new(),
        }
    }

    pub fn wave64(&self) -> bool {
        self.lanes == 64
    }

    #[inline]
    pub fn exec(&self) -> u64 {
        (self.s[sreg::EXEC] as u64 | (self.s[sreg::EXEC + 1] as u64) << 32) & self.lane_mask
    }

    #[inline]
    pub fn set_exec(&mut self, m: u64) {
        self.write_mask(sreg::EXEC as u16, m);
    }

    #[inline]
    pub fn vcc(&self) -> u64 {
        self.read_mask_reg(sreg::VCC as u16)
    }

    /// A lane mask held in SGPRs starting at `r` (one register in wave32, a pair in wave64).
    #[inline]
    pub fn read_mask_reg(&self, r: u16) -> u64 {
        let r = r as usize;
        if r >= 128 {
            return 0;
        }
        let lo = self.s[r] as u64;
        if self.lanes == 64 {
            lo | (self.s.get(r + 1).copied().unwrap_or(0) as u64) << 32
        } else {
            lo
        }
    }

    /// Writes a lane mask to SGPRs starting at `r`.
    #[inline]
    pub fn write_mask(&mut self, r: u16, m: u64) {
        if r as usize == sreg::NULL {
            return;
        }
        if self.lanes == 64 {
            self.write_s64(r, m);
        } else {
            self.write_s(r, m as u32);
        }
    }

    /// Writes one scalar register; writes to `null` and past the file are dropped.
    #[inline]
    pub fn write_s(&mut self, r: u16, val: u32) {
        let r = r as usize;
        if r < 128 && r != sreg::NULL {
            self.s[r] = val;
        }
    }

    #[inline]
    pub fn write_s64(&mut self, r: u16, val: u64) {
        if r as usize == sreg::NULL {
            return;
        }
        self.write_s(r, val as u32);
        self.write_s(r + 1, (val >> 32) as u32);
    }

    /// A 32-bit scalar operand.
    #[inline]
    pub fn read_s32(&self, s: Src) -> u32 {
        match s {
            Src::Sgpr(r) => self.s.get(r as usize).copied().unwrap_or(0),
            Src::Const(c) => c as u32,
            Src::Scc => self.scc as u32,
            Src::Vccz => (self.vcc() == 0) as u32,
            Src::Execz => (self.exec() == 0) as u32,
            Src::Vgpr(_) | Src::None => 0,
        }
    }

    /// A 64-bit scalar operand (an SGPR pair or a 64-bit constant).
    #[inline]
    pub fn read_s64(&self, s: Src) -> u64 {
        match s {
            Src::Sgpr(r) => {
                let r = r as usize;
                let lo = self.s.get(r).copied().unwrap_or(0) as u64;
                lo | (self.s.get(r + 1).copied().unwrap_or(0) as u64) << 32
            }
            Src::Const(c) => c,
            other => self.read_s32(other) as u64,
        }
    }

    /// A lane-mask operand: 32 bits in wave32, 64 in wave64.
    #[inline]
    pub fn read_mask(&self, s: Src) -> u64 {
        match s {
            Src::Sgpr(r) => self.read_mask_reg(r),
            other => self.read_s64(other) & self.lane_mask,
        }
    }

    /// One lane of a VGPR.
    #[inline]
    pub fn vr(&self, r: usize, lane: usize) -> u32 {
        self.v.get(r * LANES + lane).copied().unwrap_or(0)
    }

    /// Writes one lane of a VGPR (registers past the allocation are dropped, as the decoder has
    /// already checked numbers against the 256-register file).
    #[inline]
    pub fn set_vr(&mut self, r: usize, lane: usize, val: u32) {
        if let Some(x) = self.v.get_mut(r * LANES + lane) {
            *x = val;
        }
    }

    /// Reads a 32-bit operand for every lane.
    #[inline]
    pub fn read_v32(&self, s: Src, out: &mut [u64; LANES]) {
        match s {
            Src::Vgpr(r) => {
                let base = r as usize * LANES;
                match self.v.get(base..base + self.lanes) {
                    Some(src) => {
                        for (o, &x) in out.iter_mut().zip(src) {
                            *o = x as u64;
                        }
                    }
                    None => out.fill(0),
                }
            }
            other => out.fill(self.read_s32(other) as u64),
        }
    }

    /// Reads a 64-bit operand (a register pair) for every lane.
    #[inline]
    pub fn read_v64(&self, s: Src, out: &mut [u64; LANES]) {
        match s {
            Src::Vgpr(r) => {
                let (lo, hi) = (r as usize * LANES, (r as usize + 1) * LANES);
                match (self.v.get(lo..lo + self.lanes), self.v.get(hi..hi + self.lanes)) {
                    (Some(a), Some(b)) => {
                        for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
                            *o = x as u64 | (y as u64) << 32;
                        }
                    }
                    _ => out.fill(0),
                }
            }
            other => out.fill(self.read_s64(other)),
        }
    }
}
