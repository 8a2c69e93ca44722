//! Recompiles AMD GPU kernels to SPIR-V compute shaders.
//!
//! Two wave models ([`WaveModel`]), one lowering:
//!
//! - **Exact**: one shader invocation runs one whole workgroup, scheduling its waves as the
//!   emulator does (each until it ends or reaches `s_barrier`). Scalar registers, SCC and the
//!   lane masks (EXEC, VCC, compare results) are wave values held once; vector instructions are
//!   loops over the wave's lanes under EXEC, neighbouring lane-local ones sharing one loop. Wave
//!   operations are therefore exact on any device whatever its subgroup size (lavapipe's 8).
//! - **Subgroup** (wave = subgroup): where the device can require a subgroup of the wave's size
//!   (NVIDIA: 32), each wave is one subgroup and each lane one invocation. Every invocation holds
//!   the wave's scalar state and computes it alike (AMD branches are scalar, so control flow
//!   stays uniform in the subgroup); a lane loop becomes the lane's own test of its EXEC bit,
//!   masks written lane by lane are gathered with a subgroup ballot, and `s_barrier` is a
//!   workgroup barrier. VGPRs stay in device memory, so cross-lane reads (DPP, permlane,
//!   `ds_swizzle`, readlane) are the exact model's, with a subgroup barrier around each lane
//!   step keeping them ordered.
//!
//! Within a block, scalar instructions and most vector arithmetic, compares, GLOBAL dword
//! accesses and LDS reads and writes are lifted into IR regions (`rdna_ir`; lifting in
//! `rdna_frontend::lift`), optimized, verified and lowered by `lower/ir.rs`; the rest is lowered
//! from the decoded steps directly.
//!
//! The kernel's blocks run in a dispatch loop driven by a state variable;
//! memory is reached by 64-bit device addresses exactly as the kernel computes them, with the
//! kernel arguments and the dispatch packet in device buffers whose addresses arrive as push
//! constants.
//!
//! What is not lowered yet is reported, every site at once, with its PC, text and reason.

mod emit;
mod lower;

use rdna_frontend::{CfgError, Site};

/// Recompiles `kernel` of a code object for workgroups of the given size (it decides how many
/// waves, hence invocations, one workgroup has).
pub use lower::{recompile, recompile_with};

/// How an f32 fused multiply-add (`v_fma_f32`, `v_fmac_f32`, `v_fmamk_f32`, ...) is lowered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FmaLowering {
    /// Computed exactly whatever the driver does: the product in f64, the sum rounded to odd,
    /// one rounding to f32 (about 60 instructions, in a helper function of the module). Vulkan
    /// does not promise that `Fma` is fused, and Mesa's lavapipe splits it into a multiply and an
    /// add.
    #[default]
    Exact,
    /// The driver's `Fma` (about 25 instructions), with NaN results rewritten to the
    /// emulator's (the first NaN operand, quietened; else the default NaN), and the exact
    /// lowering where an operand is a denormal or the result is zero or a denormal (a driver may
    /// flush those: without this, on an NVIDIA H200 the corpus test found `k_div32` differing).
    /// Exact only where the driver fuses `Fma`: not lavapipe. `rdna_vk::fma_lowering` gives it to
    /// NVIDIA devices, where the corpus test found every kernel build identical to the emulator.
    Fused,
}

/// How a kernel is recompiled for a device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    pub model: WaveModel,
    pub fma: FmaLowering,
}


/// Whether instructions of a kind, in an encoding, are lowered (what `rdna isa --coverage`
/// reports); refusals that depend on operands come from [`recompile`].
pub use lower::support::{supports, supports_vopd};

/// A module as SPIR-V assembly text.
pub fn disassemble(words: &[u32]) -> String {
    use rspirv::binary::Disassemble;
    match rspirv::dr::load_words(words) {
        Ok(m) => m.disassemble(),
        Err(e) => format!("; not a SPIR-V module: {e}"),
    }
}

/// How waves map onto a Vulkan device (see the crate docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WaveModel {
    /// One invocation per workgroup, lanes as loops: exact on any device.
    Exact,
    /// One subgroup per wave, one invocation per lane: needs a pipeline that requires a subgroup
    /// size equal to the wave size, with full subgroups.
    Subgroup,
}

impl std::fmt::Display for WaveModel {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(match self {
            WaveModel::Exact => "exact (one invocation per workgroup)",
            WaveModel::Subgroup => "subgroup = wave",
        })
    }
}

/// A recompiled kernel.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The SPIR-V module (entry point `main`).
    pub words: Vec<u32>,
    pub model: WaveModel,
    /// The waves of one AMD workgroup.
    pub waves_per_group: u32,
    /// The module's local size: 1 in the exact model, `waves_per_group × lanes` in the subgroup
    /// model (whose pipeline must require a subgroup size of `lanes`).
    pub invocations_per_group: u32,
    /// Lanes per wave.
    pub lanes: u32,
    /// Instructions lowered.
    pub instructions: usize,
    /// Of those, the ones lifted into IR regions (the rest are lowered from decoded steps
    /// directly).
    pub through_ir: usize,
    /// Device memory each wave needs for its VGPRs: the runtime provides
    /// `vgpr_bytes_per_wave × waves_per_group × workgroups` zeroed bytes (after [`STATUS_BYTES`]); each wave's share starts with a slot where its SGPRs rest between barriers.
    pub vgpr_bytes_per_wave: u64,
    /// Loop iterations one wave may run between two checks of the iteration limit. A device
    /// that stops shaders after N loop iterations in all (Mesa's lavapipe: 65,535) passes
    /// `N - iteration_margin` as the limit, and a wave that reaches it stops and reports it.
    pub iteration_margin: u32,
    /// LDS the module declares as workgroup memory (static plus dynamic), in bytes.
    pub lds_bytes: u32,
    /// All the workgroup memory the module declares, in bytes: the LDS in whole dwords and, in
    /// the subgroup model, the LDS lock and the waves' barrier statuses (what the device's
    /// shared-memory limit is checked against).
    pub workgroup_bytes: u32,
    /// Whether the kernel reads its PC (`s_getpc_b64`, calls): the runtime then places the code
    /// object's image ([`rdna_hsa::CodeObject::flat_image`]) in device memory and passes its
    /// address, since PC-relative constant data is read from there.
    pub uses_image: bool,
    /// Argument bytes the module reads without checking them against the segment's length:
    /// loads at constant offsets from the argument pointer, where no instruction before them can
    /// have overwritten its SGPRs, inside the size the kernel descriptor declares. The runtime must give the
    /// argument segment at least this many bytes.
    pub argument_bytes_read: u32,
}

/// Why a kernel could not be recompiled.
#[derive(Debug, thiserror::Error)]
pub enum RecompileError {
    #[error("{0}")]
    Setup(String),
    #[error("{0}")]
    Flow(CfgError),
    #[error("{} instruction(s) cannot be recompiled yet:\n{}", .0.len(), .0.iter().map(|s| format!("  {s}")).collect::<Vec<_>>().join("\n"))]
    Unsupported(Vec<Site>),
}

/// The push constants every recompiled kernel takes, 56 bytes: the kernel argument segment's
/// and the dispatch packet's device addresses, the grid size in work-items, the wave size
/// ([`Compiled::lanes`]), the address of the waves' VGPR memory (whose first
/// [`STATUS_BYTES`] hold the status word), the loop-iteration limit (see
/// [`Compiled::iteration_margin`]; `u32::MAX` for none), the argument segment's length, and
/// the code object image's device address (0 unless [`Compiled::uses_image`]); then the
/// [`Arena`].
pub fn push_constants(kernarg: u64, packet: u64, grid: [u32; 3], lanes: u32, vgprs: u64, iteration_limit: u32, image: u64, arena: &Arena) -> Vec<u8> {
    let mut p = Vec::with_capacity(96);
    p.extend_from_slice(&kernarg.to_le_bytes());
    p.extend_from_slice(&packet.to_le_bytes());
    for g in grid {
        p.extend_from_slice(&g.to_le_bytes());
    }
    p.extend_from_slice(&lanes.to_le_bytes());
    p.extend_from_slice(&vgprs.to_le_bytes());
    p.extend_from_slice(&iteration_limit.to_le_bytes());
    p.extend_from_slice(&arena.kernarg_bytes.to_le_bytes());
    p.extend_from_slice(&image.to_le_bytes());
    for x in [arena.base, arena.size, arena.guest, arena.map] {
        p.extend_from_slice(&x.to_le_bytes());
    }
    p.extend_from_slice(&arena.granule_shift.to_le_bytes());
    p.extend_from_slice(&0u32.to_le_bytes());
    p
}

/// Where a dispatch's memory lies, for the checks every access of a recompiled kernel makes
/// (push constants 10 to 14). All of it is one device range, `[base, base + size)`: first the
/// registers and wave state (`[base, guest)`, always valid), then the guest's memory (buffers,
/// argument segment, dispatch packet, code image) with unmapped gaps. `map` is the address of a
/// bitmap with one bit per `1 << granule_shift` bytes from `guest`: an access is valid when the
/// granules of its first and last byte are mapped. It lies past `base + size`, out of the
/// kernel's reach, after 16 bytes at `base + size` where refused accesses go.
#[derive(Clone, Copy, Debug)]
pub struct Arena {
    pub base: u64,
    pub size: u64,
    pub guest: u64,
    pub map: u64,
    pub granule_shift: u32,
    /// The length of the kernel argument segment (at the first push constant's address): an
    /// access inside it is mapped without a look at the bitmap, which makes the scalar loads
    /// of arguments, every kernel's first instructions, cheap.
    pub kernarg_bytes: u32,
}

/// Bytes at the start of the VGPR memory before the first wave's registers: a status word that
/// a wave sets to [`STATUS_ITERATION_LIMIT`] when it stopped at the loop-iteration limit.
pub const STATUS_BYTES: u64 = 16;
pub const STATUS_ITERATION_LIMIT: u32 = 1;
/// The status word's value after an LDS access out of bounds (the emulator faults there too).
pub const STATUS_LDS_OUT_OF_BOUNDS: u32 = 2;
/// The status word's value after a scratch access outside the lane's private segment.
pub const STATUS_SCRATCH_OUT_OF_BOUNDS: u32 = 3;
/// The status word's value after a return to an address that is not a call's return point.
pub const STATUS_BAD_JUMP: u32 = 4;
/// The status word's value after a VGPR-indexed move (`v_movrels_b32` and the like) named a
/// register past v255 (the emulator faults there too).
pub const STATUS_VGPR_INDEX: u32 = 5;
/// Status word: a typed buffer access named a format that is not one, or stored to an 11- or
/// 10-bit float component (the emulator faults on both).
pub const STATUS_BUFFER_FORMAT: u32 = 6;
/// Status word: a memory access fell outside the dispatch's memory (its buffers, argument
/// segment, dispatch packet, code image, registers and scratch, which the runtime places in
/// one range, the arena). The access goes to a sink just past the arena and the run stops, so
/// a stray guest pointer can never reach host or driver memory (on lavapipe, a host crash).
pub const STATUS_MEMORY_OUT_OF_BOUNDS: u32 = 7;

