//! The 64-byte AMDHSA kernel descriptor (`<kernel>.kd`): how the hardware sets a wave up.
//!
//! Field positions follow LLVM's AMDGPUUsage "Kernel Descriptor" table (code object v4–v6).

/// Float rounding modes as the descriptor and the MODE register encode them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundMode {
    NearestEven = 0,
    PlusInfinity = 1,
    MinusInfinity = 2,
    Zero = 3,
}

impl RoundMode {
    pub fn from_bits(b: u32) -> RoundMode {
        match b & 3 {
            0 => RoundMode::NearestEven,
            1 => RoundMode::PlusInfinity,
            2 => RoundMode::MinusInfinity,
            _ => RoundMode::Zero,
        }
    }
}

/// A decoded kernel descriptor. Every field is kept; the `rsrc*` words are also kept raw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelDescriptor {
    pub group_segment_fixed_size: u32,
    pub private_segment_fixed_size: u32,
    pub kernarg_size: u32,
    /// Byte offset of the entry point from the descriptor's own address.
    pub kernel_code_entry_byte_offset: i64,
    pub compute_pgm_rsrc3: u32,
    pub compute_pgm_rsrc1: u32,
    pub compute_pgm_rsrc2: u32,
    pub kernel_code_properties: u16,
    pub kernarg_preload: u16,
}

#[inline]
fn field(word: u32, lo: u32, width: u32) -> u32 {
    (word >> lo) & ((1u32 << width) - 1)
}

impl KernelDescriptor {
    pub const SIZE: usize = 64;

    /// Parses the 64 descriptor bytes (fails only on a short slice).
    pub fn parse(b: &[u8]) -> Option<KernelDescriptor> {
        let b: &[u8; 64] = b.get(..64)?.try_into().ok()?;
        let u32_at = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        let u16_at = |o: usize| u16::from_le_bytes([b[o], b[o + 1]]);
        Some(KernelDescriptor {
            group_segment_fixed_size: u32_at(0),
            private_segment_fixed_size: u32_at(4),
            kernarg_size: u32_at(8),
            kernel_code_entry_byte_offset: i64::from_le_bytes(b[16..24].try_into().ok()?),
            compute_pgm_rsrc3: u32_at(44),
            compute_pgm_rsrc1: u32_at(48),
            compute_pgm_rsrc2: u32_at(52),
            kernel_code_properties: u16_at(56),
            kernarg_preload: u16_at(58),
        })
    }

    // --- COMPUTE_PGM_RSRC1 ---
    /// VGPR blocks minus one, as encoded (granule depends on target and wave size).
    pub fn granulated_workitem_vgpr_count(&self) -> u32 {
        field(self.compute_pgm_rsrc1, 0, 6)
    }
    pub fn granulated_wavefront_sgpr_count(&self) -> u32 {
        field(self.compute_pgm_rsrc1, 6, 4)
    }
    pub fn priority(&self) -> u32 {
        field(self.compute_pgm_rsrc1, 10, 2)
    }
    pub fn float_round_mode_32(&self) -> RoundMode {
        RoundMode::from_bits(field(self.compute_pgm_rsrc1, 12, 2))
    }
    pub fn float_round_mode_16_64(&self) -> RoundMode {
        RoundMode::from_bits(field(self.compute_pgm_rsrc1, 14, 2))
    }
    /// 0: flush source and destination denormals, 1: flush destination only... as in the MODE
    /// register: 3 keeps all denormals.
    pub fn float_denorm_mode_32(&self) -> u32 {
        field(self.compute_pgm_rsrc1, 16, 2)
    }
    pub fn float_denorm_mode_16_64(&self) -> u32 {
        field(self.compute_pgm_rsrc1, 18, 2)
    }
    pub fn priv_(&self) -> bool {
        field(self.compute_pgm_rsrc1, 20, 1) != 0
    }
    pub fn enable_dx10_clamp(&self) -> bool {
        field(self.compute_pgm_rsrc1, 21, 1) != 0
    }
    pub fn debug_mode(&self) -> bool {
        field(self.compute_pgm_rsrc1, 22, 1) != 0
    }
    pub fn enable_ieee_mode(&self) -> bool {
        field(self.compute_pgm_rsrc1, 23, 1) != 0
    }
    pub fn fp16_overflow(&self) -> bool {
        field(self.compute_pgm_rsrc1, 26, 1) != 0
    }
    pub fn wgp_mode(&self) -> bool {
        field(self.compute_pgm_rsrc1, 29, 1) != 0
    }
    pub fn mem_ordered(&self) -> bool {
        field(self.compute_pgm_rsrc1, 30, 1) != 0
    }
    pub fn fwd_progress(&self) -> bool {
        field(self.compute_pgm_rsrc1, 31, 1) != 0
    }

    // --- COMPUTE_PGM_RSRC2 ---
    /// Scratch (private segment) wave offset SGPR is set up.
    pub fn enable_private_segment(&self) -> bool {
        field(self.compute_pgm_rsrc2, 0, 1) != 0
    }
    pub fn user_sgpr_count(&self) -> u32 {
        field(self.compute_pgm_rsrc2, 1, 5)
    }
    pub fn enable_trap_handler(&self) -> bool {
        field(self.compute_pgm_rsrc2, 6, 1) != 0
    }
    /// Workgroup id SGPRs for x, y and z.
    pub fn enable_sgpr_workgroup_id(&self) -> [bool; 3] {
        [0, 1, 2].map(|i| field(self.compute_pgm_rsrc2, 7 + i, 1) != 0)
    }
    pub fn enable_sgpr_workgroup_info(&self) -> bool {
        field(self.compute_pgm_rsrc2, 10, 1) != 0
    }
    /// 0: x only, 1: x and y, 2: x, y and z.
    pub fn enable_vgpr_workitem_id(&self) -> u32 {
        field(self.compute_pgm_rsrc2, 11, 2)
    }
    pub fn granulated_lds_size(&self) -> u32 {
        field(self.compute_pgm_rsrc2, 15, 9)
    }
    pub fn exception_enables(&self) -> u32 {
        field(self.compute_pgm_rsrc2, 24, 7)
    }

    // --- KERNEL_CODE_PROPERTIES ---
    fn prop(&self, bit: u32) -> bool {
        self.kernel_code_properties >> bit & 1 != 0
    }
    pub fn enable_sgpr_private_segment_buffer(&self) -> bool {
        self.prop(0)
    }
    pub fn enable_sgpr_dispatch_ptr(&self) -> bool {
        self.prop(1)
    }
    pub fn enable_sgpr_queue_ptr(&self) -> bool {
        self.prop(2)
    }
    pub fn enable_sgpr_kernarg_segment_ptr(&self) -> bool {
        self.prop(3)
    }
    pub fn enable_sgpr_dispatch_id(&self) -> bool {
        self.prop(4)
    }
    pub fn enable_sgpr_flat_scratch_init(&self) -> bool {
        self.prop(5)
    }
    pub fn enable_sgpr_private_segment_size(&self) -> bool {
        self.prop(6)
    }
    pub fn enable_wavefront_size32(&self) -> bool {
        self.prop(10)
    }
    pub fn uses_dynamic_stack(&self) -> bool {
        self.prop(11)
    }

    /// Every field as (name, value) pairs, for `rdna` to show.
    pub fn fields(&self) -> Vec<(&'static str, i64)> {
        let b = |v: bool| v as i64;
        let id = self.enable_sgpr_workgroup_id();
        vec![
            ("group_segment_fixed_size", self.group_segment_fixed_size as i64),
            ("private_segment_fixed_size", self.private_segment_fixed_size as i64),
            ("kernarg_size", self.kernarg_size as i64),
            ("kernel_code_entry_byte_offset", self.kernel_code_entry_byte_offset),
            ("granulated_workitem_vgpr_count", self.granulated_workitem_vgpr_count() as i64),
            ("granulated_wavefront_sgpr_count", self.granulated_wavefront_sgpr_count() as i64),
            ("priority", self.priority() as i64),
            ("float_round_mode_32", self.float_round_mode_32() as i64),
            ("float_round_mode_16_64", self.float_round_mode_16_64() as i64),
            ("float_denorm_mode_32", self.float_denorm_mode_32() as i64),
            ("float_denorm_mode_16_64", self.float_denorm_mode_16_64() as i64),
            ("priv", b(self.priv_())),
            ("enable_dx10_clamp", b(self.enable_dx10_clamp())),
            ("debug_mode", b(self.debug_mode())),
            ("enable_ieee_mode", b(self.enable_ieee_mode())),
            ("fp16_overflow", b(self.fp16_overflow())),
            ("workgroup_processor_mode", b(self.wgp_mode())),
            ("memory_ordered", b(self.mem_ordered())),
            ("forward_progress", b(self.fwd_progress())),
            ("enable_private_segment", b(self.enable_private_segment())),
            ("user_sgpr_count", self.user_sgpr_count() as i64),
            ("enable_trap_handler", b(self.enable_trap_handler())),
            ("enable_sgpr_workgroup_id_x", b(id[0])),
            ("enable_sgpr_workgroup_id_y", b(id[1])),
            ("enable_sgpr_workgroup_id_z", b(id[2])),
            ("enable_sgpr_workgroup_info", b(self.enable_sgpr_workgroup_info())),
            ("enable_vgpr_workitem_id", self.enable_vgpr_workitem_id() as i64),
            ("granulated_lds_size", self.granulated_lds_size() as i64),
            ("exception_enables", self.exception_enables() as i64),
            ("enable_sgpr_private_segment_buffer", b(self.enable_sgpr_private_segment_buffer())),
            ("enable_sgpr_dispatch_ptr", b(self.enable_sgpr_dispatch_ptr())),
            ("enable_sgpr_queue_ptr", b(self.enable_sgpr_queue_ptr())),
            ("enable_sgpr_kernarg_segment_ptr", b(self.enable_sgpr_kernarg_segment_ptr())),
            ("enable_sgpr_dispatch_id", b(self.enable_sgpr_dispatch_id())),
            ("enable_sgpr_flat_scratch_init", b(self.enable_sgpr_flat_scratch_init())),
            ("enable_sgpr_private_segment_size", b(self.enable_sgpr_private_segment_size())),
            ("enable_wavefront_size32", b(self.enable_wavefront_size32())),
            ("uses_dynamic_stack", b(self.uses_dynamic_stack())),
            ("kernarg_preload", self.kernarg_preload as i64),
            ("compute_pgm_rsrc3", self.compute_pgm_rsrc3 as i64),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_land_where_the_layout_says() {
        let mut b = [0u8; 64];
        b[0..4].copy_from_slice(&1024u32.to_le_bytes());
        b[8..12].copy_from_slice(&32u32.to_le_bytes());
        b[16..24].copy_from_slice(&(-0x100i64).to_le_bytes());
        // rsrc1: ieee (bit 23), denorm32 = 3 (bits 16-17), vgpr granules = 5
        b[48..52].copy_from_slice(&(1u32 << 23 | 3 << 16 | 5).to_le_bytes());
        // rsrc2: user sgprs 6, wg id x, vgpr workitem id 2
        b[52..56].copy_from_slice(&(6u32 << 1 | 1 << 7 | 2 << 11).to_le_bytes());
        b[56..58].copy_from_slice(&(1u16 << 3 | 1 << 10).to_le_bytes());
        let kd = KernelDescriptor::parse(&b).unwrap();
        assert_eq!(kd.group_segment_fixed_size, 1024);
        assert_eq!(kd.kernarg_size, 32);
        assert_eq!(kd.kernel_code_entry_byte_offset, -0x100);
        assert!(kd.enable_ieee_mode());
        assert_eq!(kd.float_denorm_mode_32(), 3);
        assert_eq!(kd.granulated_workitem_vgpr_count(), 5);
        assert_eq!(kd.user_sgpr_count(), 6);
        assert_eq!(kd.enable_sgpr_workgroup_id(), [true, false, false]);
        assert_eq!(kd.enable_vgpr_workitem_id(), 2);
        assert!(kd.enable_sgpr_kernarg_segment_ptr() && kd.enable_wavefront_size32());
        assert!(!kd.enable_sgpr_dispatch_ptr());
        assert!(KernelDescriptor::parse(&b[..63]).is_none());
    }
}

/// What the hardware puts into a wave's SGPRs at launch, as the descriptor enables it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SgprInput {
    /// Four SGPRs: the scratch buffer resource.
    PrivateSegmentBuffer,
    /// Two SGPRs each: addresses and ids.
    DispatchPtr,
    QueuePtr,
    KernargSegmentPtr,
    DispatchId,
    FlatScratchInit,
    /// One SGPR each.
    PrivateSegmentSize,
    WorkgroupId(u8),
    WorkgroupInfo,
    PrivateSegmentWaveOffset,
}

impl SgprInput {
    /// How many SGPRs it fills.
    pub fn width(self) -> u16 {
        match self {
            SgprInput::PrivateSegmentBuffer => 4,
            SgprInput::DispatchPtr | SgprInput::QueuePtr | SgprInput::KernargSegmentPtr | SgprInput::DispatchId | SgprInput::FlatScratchInit => 2,
            _ => 1,
        }
    }
}

impl KernelDescriptor {
    /// The launch-time SGPR layout in order: (first SGPR, what it holds). User SGPRs come
    /// first; the system SGPRs (workgroup ids, …) start at the user SGPR count.
    pub fn sgpr_inputs(&self) -> Vec<(u16, SgprInput)> {
        let mut v = Vec::new();
        let mut s = 0u16;
        let mut add = |on: bool, what: SgprInput, s: &mut u16| {
            if on {
                v.push((*s, what));
                *s += what.width();
            }
        };
        add(self.enable_sgpr_private_segment_buffer(), SgprInput::PrivateSegmentBuffer, &mut s);
        add(self.enable_sgpr_dispatch_ptr(), SgprInput::DispatchPtr, &mut s);
        add(self.enable_sgpr_queue_ptr(), SgprInput::QueuePtr, &mut s);
        add(self.enable_sgpr_kernarg_segment_ptr(), SgprInput::KernargSegmentPtr, &mut s);
        add(self.enable_sgpr_dispatch_id(), SgprInput::DispatchId, &mut s);
        add(self.enable_sgpr_flat_scratch_init(), SgprInput::FlatScratchInit, &mut s);
        add(self.enable_sgpr_private_segment_size(), SgprInput::PrivateSegmentSize, &mut s);
        let mut s = self.user_sgpr_count() as u16;
        for (d, on) in self.enable_sgpr_workgroup_id().into_iter().enumerate() {
            add(on, SgprInput::WorkgroupId(d as u8), &mut s);
        }
        add(self.enable_sgpr_workgroup_info(), SgprInput::WorkgroupInfo, &mut s);
        add(self.enable_private_segment(), SgprInput::PrivateSegmentWaveOffset, &mut s);
        v
    }
}
