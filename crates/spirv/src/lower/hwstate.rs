//! The wave's hardware state beyond its registers, as the emulator keeps it
//! (`rdna_emu::exec`): the clock (`s_memtime`, `s_memrealtime`, gfx11's
//! `s_sendmsg_rtn_*` MSG_RTN_GET_REALTIME), hardware registers read with `s_getreg_b32`, and
//! the float mode (`s_denorm_mode`, `s_round_mode`).
//!
//! The emulator's clock is deterministic: the instructions the wave has executed, this one
//! included. The recompiled wave counts the same: each block's steps are known when it is
//! lowered, so a kernel that reads the clock keeps a per-wave counter (a Function variable,
//! saved with the wave in the exact model) that grows by a block's length where the block
//! ends or stops at a barrier, and a read adds the steps of its block before it.

use super::{Gen, Lowered, EXEC, VCC};
use rdna_emu::exec::{self as hw, HW_REG_GPR_ALLOC, HW_REG_HW_ID, HW_REG_LDS_ALLOC, HW_REG_MODE, HW_REG_STATUS};
use rdna_emu::program::{Program, Src, Step};
use rdna_emu::sem::{Kind, Salu};
use rdna_frontend::Cfg;
use rspirv::spirv::{Op, StorageClass, Word};

/// Whether instruction `st` reads the clock (which the emulator counts in instructions).
fn reads_clock(st: &Step) -> bool {
    match st.kind {
        Kind::Salu(Salu::Memtime | Salu::Memrealtime) => true,
        Kind::Salu(Salu::SendmsgRtnB32 | Salu::SendmsgRtnB64) => st.inst.raw as u32 & 0xff == MSG_RTN_GET_REALTIME,
        _ => false,
    }
}

const MSG_RTN_GET_REALTIME: u32 = 131;

/// What the kernel's hardware state needs, found before lowering.
#[derive(Default)]
pub(super) struct HwState {
    /// The wave's executed-instruction counter (a Function u64), where the clock is read.
    pub clock: Option<Word>,
    /// Steps of the open block (or block part) counted so far, the current one included.
    pub steps: u64,
    /// MODE as the kernel descriptor sets it (which no recompiled instruction changes).
    pub mode: u32,
    /// The workgroup's LDS bytes (for LDS_ALLOC).
    pub lds_bytes: u32,
    /// Hardware registers (by number) that some `s_setreg` writes.
    pub written: u64,
    /// Whether some `s_getreg_b32` reads HW_ID (the wave's index, kept in its slot).
    pub reads_hw_id: bool,
}

impl Gen {
    /// Prepares the clock (declaring its variable in the function's first block) and what
    /// `s_getreg_b32` reads.
    pub(super) fn hw_setup(&mut self, kernel: &rdna_hsa::Kernel, prog: &Program, cfg: &Cfg, lds_bytes: u32) {
        let steps = || cfg.blocks.iter().flat_map(|b| &prog.steps[b.first..=b.last]);
        let clock = steps().any(reads_clock).then(|| {
            let fn_u64 = self.b.type_pointer(None, StorageClass::Function, self.t.u64);
            let zero = self.c64(0);
            self.b.variable(fn_u64, None, StorageClass::Function, Some(zero))
        });
        let (mut written, mut reads_hw_id) = (0u64, false);
        for st in steps() {
            match (st.kind, st.src[0]) {
                (Kind::Salu(Salu::SetregB32 | Salu::SetregImm32B32), Src::Const(c)) => written |= 1 << (c & 0x3f),
                (Kind::Salu(Salu::GetregB32), Src::Const(c)) => reads_hw_id |= c as u32 & 0x3f == HW_REG_HW_ID,
                _ => {}
            }
        }
        self.hw = HwState { clock, steps: 0, mode: rdna_emu::initial_mode(&kernel.kd), lds_bytes, written, reads_hw_id };
    }

    /// Counts the step about to be lowered (`dispatch_loop` calls this for every step).
    pub(super) fn count_step(&mut self) {
        self.hw.steps += 1;
    }

    /// Where a block (or the part of it before a barrier) ends: its steps join the clock.
    pub(super) fn clock_advance(&mut self) {
        let n = std::mem::take(&mut self.hw.steps);
        if let (Some(clock), true) = (self.hw.clock, n > 0) {
            let u64t = self.t.u64;
            let c = self.b.load(u64t, None, clock, None, []).unwrap();
            let k = self.c64(n);
            let c = self.b.i_add(u64t, None, c, k).unwrap();
            self.b.store(clock, c, None, []).unwrap();
        }
    }

    /// The clock as the current step reads it: the counter plus the steps of its block so far.
    fn clock_now(&mut self) -> Result<Word, String> {
        let clock = self.hw.clock.ok_or("internal: a clock read without a clock")?;
        let u64t = self.t.u64;
        let c = self.b.load(u64t, None, clock, None, []).unwrap();
        let k = self.c64(self.hw.steps);
        Ok(self.b.i_add(u64t, None, c, k).unwrap())
    }

    /// The clock in the wave's slot (exact model: saved and restored with the wave), at dwords
    /// `at` and `at + 1`.
    pub(super) fn clock_save(&mut self, at: u32) {
        if let Some(clock) = self.hw.clock {
            let c = self.b.load(self.t.u64, None, clock, None, []).unwrap();
            let (lo, hi) = self.split64(c);
            self.wr_slot(at, lo);
            self.wr_slot(at + 1, hi);
        }
    }

    pub(super) fn clock_restore(&mut self, at: u32) {
        if let Some(clock) = self.hw.clock {
            let (lo, hi) = (self.slot_load(at), self.slot_load(at + 1));
            let c = self.join64(lo, hi);
            self.b.store(clock, c, None, []).unwrap();
        }
    }

    /// A new wave: its clock starts at 0, its index (`wave`) is kept for HW_ID.
    pub(super) fn hw_wave_init(&mut self, wave: Word) {
        if let Some(clock) = self.hw.clock {
            let zero = self.c64(0);
            self.b.store(clock, zero, None, []).unwrap();
        }
        if self.hw.reads_hw_id {
            self.wr_slot(super::SLOT_WAVE_ID, wave);
        }
    }

    /// `s_memtime`, `s_memrealtime`, `s_sendmsg_rtn_*`, `s_getreg_b32`, `s_denorm_mode` and
    /// `s_round_mode`, as `rdna_emu::exec::salu` runs them.
    pub(super) fn hw_state(&mut self, st: &Step, op: Salu) -> Lowered {
        let d = st.dst;
        let imm = match st.src[0] {
            Src::Const(c) => c as u16,
            _ => 0,
        };
        match op {
            Salu::Memtime | Salu::Memrealtime => {
                let c = self.clock_now()?;
                self.wr_s64(d, c);
            }
            Salu::SendmsgRtnB32 | Salu::SendmsgRtnB64 => {
                let msg = st.inst.raw as u32 & 0xff;
                let v = match msg {
                    MSG_RTN_GET_REALTIME => self.clock_now()?,
                    // Doorbell, dispatch id, trap addresses: 0, as in the emulator.
                    128..=133 => self.c64(0),
                    _ => return Err(format!("s_sendmsg_rtn message {msg} is not recompiled")),
                };
                if op == Salu::SendmsgRtnB64 {
                    self.wr_s64(d, v);
                } else {
                    let lo = self.b.u_convert(self.t.u32, None, v).unwrap();
                    self.wr_s(d, lo);
                }
            }
            Salu::GetregB32 => {
                let (id, offset, size) = hw::hwreg_field(imm);
                let value = match id {
                    HW_REG_MODE => self.c32(self.hw.mode),
                    HW_REG_STATUS => self.status(),
                    HW_REG_HW_ID => self.slot_load(super::SLOT_WAVE_ID),
                    HW_REG_GPR_ALLOC => self.c32(hw::GPR_ALLOC),
                    HW_REG_LDS_ALLOC => self.c32(hw::lds_alloc(self.hw.lds_bytes)),
                    // Registers only s_setreg changes read 0 until it does.
                    _ if self.hw.written >> id & 1 == 0 => self.c32(0),
                    _ => return Err(format!("s_getreg of hardware register {id}, which the kernel also writes, is not recompiled")),
                };
                let v = if offset == 0 && size >= 32 {
                    value
                } else {
                    let (o, n) = (self.c32(offset), self.c32(size.min(32)));
                    let u32t = self.t.u32;
                    self.b.value(Op::BitFieldUExtract, u32t, None, &[value, o, n])
                };
                self.wr_s(d, v);
            }
            // The recompiled float operations round to nearest even and keep denormals (the
            // kernel descriptor's mode: `module` refuses others): a mode change that keeps that mode
            // does nothing; any other is refused.
            Salu::DenormMode | Salu::RoundMode => {
                let mode = self.hw.mode;
                let new = if op == Salu::DenormMode { mode & !0xf0 | (imm as u32 & 0xf) << 4 } else { mode & !0xf | imm as u32 & 0xf };
                if new != mode {
                    let what = if op == Salu::DenormMode { "flushing denormals" } else { "rounding other than to nearest even" };
                    return Err(format!("a float mode change ({what}) is not recompiled"));
                }
            }
            _ => return Err(format!("internal: {op:?} is not hardware state")),
        }
        Ok(())
    }

    /// STATUS: SCC, EXECZ and VCCZ (`rdna_emu::exec::status`).
    fn status(&mut self) -> Word {
        let (u32t, boolt) = (self.t.u32, self.t.bool);
        let scc = self.rd_scc();
        let scc = self.bool_to_u32(scc);
        let zero = self.c64(0);
        let mut v = scc;
        for (r, bit) in [(EXEC, 9u32), (VCC, 10)] {
            let m = self.rd_mask(r);
            let z = self.b.i_equal(boolt, None, m, zero).unwrap();
            let z = self.bool_to_u32(z);
            let sh = self.c32(bit);
            let z = self.b.shift_left_logical(u32t, None, z, sh).unwrap();
            v = self.b.bitwise_or(u32t, None, v, z).unwrap();
        }
        v
    }
}
