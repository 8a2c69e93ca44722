//! Lowering of a kernel's blocks to SPIR-V in the exact wave model (see the crate docs).
//!
//! Sections: module set-up (types, constants, variables), register access, wave set-up, the
//! block dispatch loop, then the lowering of each instruction family.

// FxHash: the keys are small integers and instructions, hashed on every step; SipHash
// was a tenth of the recompile time.
use rustc_hash::FxHashMap as HashMap;

use rdna_emu::program::{Program, Src, Step};
use rdna_emu::sem::{BranchIf, Cond, DsKind, Kind, MemKind, Num, Salu, VOp};
use rdna_frontend::{kernel_flow, Cfg, Exit, FlowError, Site};
use rdna_hsa::{CodeObject, Kernel, SgprInput};
use rdna_isa::{Field, Format};
use crate::emit::Builder;
use rspirv::dr::Operand;
use rspirv::spirv::{self, Capability, StorageClass, Word};

use crate::{Compiled, RecompileError, WaveModel};

/// The state value that ends the dispatch loop.
const EXIT: u32 = u32::MAX;
/// The state a return to an unknown address chooses, just before the run stops.
const BAD_JUMP: u32 = u32::MAX - 1;
/// SGPR numbers of the registers with a meaning of their own.
const VCC: u16 = 106;
const M0: u16 = 124;
const NULL: u16 = 125;
const EXEC: u16 = 126;

mod bytes;
mod divide;
mod hwstate;
pub(crate) mod half;
mod lds;
mod ir;
pub(crate) mod support;
mod transcendental;
mod typed;
mod valu;
pub(crate) mod wmma;

type Lowered = Result<(), String>;

pub fn recompile(code: &CodeObject, kernel: &Kernel, workgroup: [u32; 3], dynamic_lds: u32, model: WaveModel) -> Result<Compiled, RecompileError> {
    recompile_with(code, kernel, workgroup, dynamic_lds, crate::Options { model, fma: crate::FmaLowering::Exact })
}

/// [`recompile`] with every option (the f32 fma lowering besides the wave model).
pub fn recompile_with(code: &CodeObject, kernel: &Kernel, workgroup: [u32; 3], dynamic_lds: u32, options: crate::Options) -> Result<Compiled, RecompileError> {
    let model = options.model;
    let (prog, _entry, cfg) = kernel_flow(code, kernel).map_err(|e| match e {
        FlowError::Setup(s) => RecompileError::Setup(s),
        FlowError::Flow(f) => RecompileError::Flow(f),
    })?;
    let lanes = if prog.wave64 { 64 } else { 32 };
    let items: u32 = workgroup.iter().product();
    if items == 0 || items > 1024 {
        return Err(RecompileError::Setup(format!("workgroup {workgroup:?} must have 1 to 1024 work-items")));
    }
    // Scratch: each lane's private bytes, after its wave's registers in device memory.
    let scratch = kernel.kd.private_segment_fixed_size;
    if scratch > rdna_emu::MAX_SCRATCH_PER_LANE {
        return Err(RecompileError::Setup(format!("{} bytes of scratch per lane is more than the {} a lane may have", scratch, rdna_emu::MAX_SCRATCH_PER_LANE)));
    }
    let lds_bytes = kernel.kd.group_segment_fixed_size as u64 + dynamic_lds as u64;
    if lds_bytes > 64 * 1024 {
        return Err(RecompileError::Setup(format!("LDS of {lds_bytes} bytes exceeds the 64 KiB of an RDNA workgroup")));
    }
    let waves = items.div_ceil(lanes);
    let vgprs = vgprs_used(&prog, &cfg);
    let uses_image = reads_pc(&prog, &cfg);
    let has_wmma = cfg.blocks.iter().any(|b| prog.steps[b.first..=b.last].iter().any(|st| matches!(st.kind, Kind::Valu(op) if wmma::is_wmma(op))));
    // Argument loads go unchecked where the argument pointer's SGPRs still hold it
    // (`args_intact_at`); should lowering meet a write to them that the analysis missed, the
    // kernel is lowered again without that.
    let args = kernel.kd.sgpr_inputs().into_iter().find(|(_, i)| *i == SgprInput::KernargSegmentPtr).map(|(s, _)| (s, kernel.kd.kernarg_size));
    let args = args.filter(|&(_, n)| n > 0 && !indexes_sgprs(&prog));
    let lower = |args: Option<(u16, u32)>| -> Result<Gen, RecompileError> {
        let mut g = Gen::new(lanes, vgprs, model);
        g.args = args;
        if let Some((pair, _)) = args {
            g.args_intact_at = args_intact_at(&prog, &cfg, pair);
        }
        g.fma = options.fma;
        g.scratch = scratch.div_ceil(4) * 4;
        g.live_sgprs = sgprs_used(&prog, &cfg);
        g.lds_bytes = lds_bytes as u32;
        if has_wmma {
            g.spare_rows = wmma::WMMA_SPARE_ROWS;
        }
        if uses_image {
            let (lo, _) = code.flat_image().map_err(RecompileError::Setup)?;
            g.text_in_image = code.text_addr - lo;
            g.image_needed = true;
        }
        g.module(kernel, &prog, &cfg, workgroup, waves)?;
        Ok(g)
    };
    let mut g = lower(args)?;
    if g.args_written {
        g = lower(None)?;
    }
    let instructions = cfg.blocks.iter().map(|b| b.last + 1 - b.first).sum();
    // Loop iterations before the first check (LDS zeroing, wave set-up) or between two (a
    // block's lane loops, the scheduler's passes over the waves).
    let iteration_margin = (lds_bytes as u32).div_ceil(64) + waves * (lanes + 4) + (g.max_block_loops + 2) * lanes + 8;
    let wave_bytes = g.wave_bytes();
    let words = g.b.assemble();
    let invocations_per_group = if model == WaveModel::Subgroup { waves * lanes } else { 1 };
    let workgroup_bytes = g.workgroup_bytes;
    Ok(Compiled {
        words,
        model,
        waves_per_group: waves,
        invocations_per_group,
        lanes,
        instructions,
        through_ir: g.through_ir,
        vgpr_bytes_per_wave: wave_bytes,
        iteration_margin,
        lds_bytes: lds_bytes as u32,
        workgroup_bytes,
        uses_image,
        argument_bytes_read: g.args_read_end,
    })
}

/// For each block: whether SGPRs `pair` and `pair + 1` still hold what the wave started with
/// on every path from the kernel's entry to the block (no instruction on the way may write them,
/// [`Step::sgprs_written`]; called functions' blocks and the blocks after a call count as not),
/// and whether an instruction of the block may write them.
fn args_intact_at(prog: &Program, cfg: &Cfg, pair: u16) -> Vec<(bool, bool)> {
    let n = cfg.blocks.len();
    let writes: Vec<bool> = cfg
        .blocks
        .iter()
        .map(|b| prog.steps[b.first..=b.last].iter().any(|st| st.sgprs_written().is_none_or(|w| w.iter().any(|&r| overlap(r, (pair, 2))))))
        .collect();
    // Edges inside the kernel's own function; an edge that cannot keep the pair (out of a
    // call) is `false`.
    let mut preds: Vec<Vec<(usize, bool)>> = vec![Vec::new(); n];
    for (b, blk) in cfg.blocks.iter().enumerate().filter(|(_, blk)| blk.func == 0) {
        match blk.exit {
            Exit::Call { ret, .. } => preds[ret].push((b, false)),
            ref e => e.successors().into_iter().for_each(|s| preds[s].push((b, true))),
        }
    }
    let entry = cfg.functions[0].entry;
    let mut intact: Vec<bool> = (0..n).map(|b| cfg.blocks[b].func == 0 && (b == entry || !preds[b].is_empty())).collect();
    loop {
        let mut changed = false;
        for b in 0..n {
            let now = intact[b] && preds[b].iter().all(|&(p, keeps)| keeps && intact[p] && !writes[p]);
            if now != intact[b] {
                intact[b] = now;
                changed = true;
            }
        }
        if !changed {
            return intact.into_iter().zip(writes).collect();
        }
    }
}

/// Whether a reachable instruction reads the PC (`s_getpc_b64`, calls and returns): the kernel
/// then needs the code object image in device memory, where its PC-relative data lies.
fn reads_pc(prog: &Program, cfg: &Cfg) -> bool {
    use rdna_emu::sem::Salu::{CallB64, GetPc, SetPc, SwapPc};
    cfg.blocks.iter().any(|b| prog.steps[b.first..=b.last].iter().any(|st| matches!(st.kind, Kind::Salu(GetPc | SetPc | SwapPc | CallB64))))
}

/// Whether any instruction reads or writes an SGPR whose number is computed (`s_movrel*`).
fn indexes_sgprs(prog: &Program) -> bool {
    use rdna_emu::sem::Salu::*;
    prog.steps.iter().any(|st| matches!(st.kind, Kind::Salu(MovrelsB32 | MovrelsB64 | MovreldB32 | MovreldB64 | Movrelsd2B32)))
}

/// Whether any instruction reads or writes a VGPR whose number is computed (`v_movrel*`).
fn indexes_vgprs(prog: &Program) -> bool {
    prog.steps.iter().any(|st| matches!(st.kind, Kind::Valu(op) if valu::indexes_vgprs(op)))
}

/// One past the highest VGPR any reachable instruction names (at least 3: the work-item ids).
/// The 9-bit source fields (`Src0..2`) name SGPRs and constants too; they are counted through
/// the decoded sources, which know which they are.
fn vgprs_used(prog: &Program, cfg: &Cfg) -> u32 {
    let mut n = 3u32;
    for b in &cfg.blocks {
        for st in &prog.steps[b.first..=b.last] {
            // An index in M0 may reach any register.
            if matches!(st.kind, Kind::Valu(op) if valu::indexes_vgprs(op)) {
                return 256;
            }
            for op in st.inst.entry.operands {
                let source_field = matches!(op.field, Field::Src0 | Field::Src1 | Field::Src2);
                if !source_field && (op.class == rdna_isa::Class::Vgpr || matches!(op.field, Field::Vdst | Field::Addr | Field::Data | Field::Vdata | Field::Vaddr)) {
                    let raw = st.inst.field(op.field) as u32;
                    n = n.max(raw % 256 + op.width as u32);
                }
            }
            for (s, w) in st.src.iter().zip(st.sw) {
                if let Src::Vgpr(r) = s {
                    n = n.max(*r as u32 + w as u32);
                }
            }
        }
    }
    n.min(256)
}

/// The SGPRs a wave's slot must keep across a barrier: every one a reachable instruction names
/// (operand fields and decoded sources, wide operands in full), and VCC, M0, EXEC and the
/// trap temporaries (106–127) always, since some instructions read them implicitly. A kernel
/// that indexes SGPRs through M0 (`s_movrel*`) keeps them all.
fn sgprs_used(prog: &Program, cfg: &Cfg) -> [bool; 128] {
    let mut live = [false; 128];
    live[106..].fill(true);
    let mut mark = |first: u32, width: u32| {
        for r in first..(first + width.max(1)).min(106) {
            live[r as usize] = true;
        }
    };
    for b in &cfg.blocks {
        for st in &prog.steps[b.first..=b.last] {
            let Some(named) = st.sgprs_named() else { return [true; 128] };
            for (first, width) in named {
                mark(first as u32, width as u32);
            }
        }
    }
    live
}

/// The SGPRs a lane-local step reads whole and the mask it writes a bit of per lane: what
/// decides whether it can join a run ([`Run::admits`]).
#[derive(Default)]
struct Access {
    /// (first register, count) read as whole values.
    reads: Vec<(u16, u16)>,
    /// A lane mask written one bit per lane (compare result, carry-out).
    mask: Option<u16>,
}

/// Whether `st` only reads and writes its own lane's VGPRs (and memory, by loads), so that it
/// can run lane by lane together with its neighbours in one loop; and if so, its [`Access`].
/// Cross-lane operations, stores, atomics and anything writing EXEC are not.
fn lane_access(st: &Step, lanes: u32) -> Option<Access> {
    use rdna_emu::sem::VOp::*;
    let width = (lanes / 32) as u16;
    let mut a = Access::default();
    let read = |a: &mut Access, s: Src, w: u8| match s {
        Src::Sgpr(r) => a.reads.push((r, w.max(1) as u16)),
        Src::Vccz => a.reads.push((VCC, width)),
        Src::Execz => a.reads.push((EXEC, width)),
        _ => {}
    };
    let f = st.inst.format;
    match st.kind {
        Kind::Valu(op) => {
            if matches!(op, ReadfirstlaneB32 | ReadlaneB32 | WritelaneB32 | Permlane16B32 | Permlanex16B32 | Permlane64B32) || valu::indexes_vgprs(op) || f.is_dpp16() || f.is_dpp8() || f.is_sdwa() || f == Format::Vop3p {
                return None;
            }
            // A carry-in or v_cndmask mask (SRC2) is read one bit per lane.
            let n = if valu::reads_mask(op) { 2 } else { st.nsrc as usize };
            for i in 0..n {
                read(&mut a, st.src[i], st.sw[i]);
            }
            if valu::writes_carry(op) {
                a.mask = Some(st.carry_dst());
            }
        }
        Kind::Vcmp { x: false, .. } | Kind::VcmpClass { x: false, .. } if !f.is_dpp16() && !f.is_dpp8() => {
            for i in 0..2 {
                read(&mut a, st.src[i], st.sw[i]);
            }
            a.mask = Some(st.dst);
        }
        Kind::Vopd => {
            for y in [false, true] {
                let src0 = st.inst.vopd_half(y).2;
                read(&mut a, rdna_emu::program::operand(src0, rdna_isa::ImmTy::B32, 1, st.inst.literal), 1);
            }
        }
        Kind::Mem(MemKind::Load { d16: false, .. }) if f == Format::Global => {
            let gfx10 = st.inst.gen != rdna_isa::Generation::Gfx11;
            if gfx10 && st.inst.raw >> 13 & 1 != 0 {
                return None;
            }
            let saddr = st.inst.field(Field::Saddr);
            if saddr != NULL && saddr < 128 {
                a.reads.push((saddr, 2));
            }
        }
        Kind::Mem(MemKind::Load { d16: false, .. }) if f == Format::Scratch => {
            let saddr = st.inst.field(Field::Saddr);
            if saddr != NULL && saddr < 128 {
                a.reads.push((saddr, 1));
            }
        }
        Kind::Mem(MemKind::Load { d16: false, .. }) if f == Format::Mubuf => {
            // The resource (four SGPRs) and an SGPR offset are read whole.
            a.reads.push((((st.inst.raw >> 48 & 0x1f) * 4) as u16, 4));
            let soffset = st.inst.field(Field::Soffset);
            if soffset < 128 {
                a.reads.push((soffset, 1));
            }
        }
        // LDS reads: no run holds a store, so reading lane by lane sees what reading wave by
        // wave would.
        Kind::Ds(DsKind::Read { d16: false, .. } | DsKind::Read2 { .. }) => {}
        _ => return None,
    }
    if let Some(m) = a.mask {
        // EXEC is read once per run; and a step that reads whole the mask it writes needs every
        // lane's read done before any bit changes: a loop of its own.
        if (EXEC..EXEC + 2).contains(&m) || a.reads.iter().any(|&r| overlap(r, (m, width))) {
            return None;
        }
    }
    Some(a)
}

fn overlap((a, n): (u16, u16), (b, m): (u16, u16)) -> bool {
    a < b + m && b < a + n
}

/// An open run of lane-local steps and what its steps have read and written so far.
struct Run {
    lp: LaneLoop,
    reads: Vec<(u16, u16)>,
    masks: Vec<u16>,
    width: u16,
}

impl Run {
    /// Whether a step can join: lanes run the steps one lane at a time, so a whole-value read
    /// must not see a mask a step before it writes bit by bit, nor a mask write change a value
    /// a step before it read whole (later lanes would see the change).
    fn admits(&self, a: &Access) -> bool {
        let w = self.width;
        !a.reads.iter().any(|&r| self.masks.iter().any(|&m| overlap(r, (m, w)))) && !a.mask.is_some_and(|m| self.reads.iter().any(|&r| overlap(r, (m, w))))
    }

    fn add(&mut self, a: Access) {
        self.reads.extend(a.reads);
        self.masks.extend(a.mask);
    }
}

/// Where a vector memory access goes, from its lane-independent operands.
enum Place {
    Global { sbase: Option<Word>, vaddr: u16, offset: i64 },
    Scratch { sgpr: Option<Word>, vgpr: Option<u16>, offset: u32, bytes: u32 },
    /// MUBUF/MTBUF; `size` (a u32 id) replaces `bytes` for a typed access's element.
    Buffer { rs: [Word; 4], soff: Word, offset: u32, offen: bool, idxen: bool, vaddr: u16, bytes: u32, size: Option<Word> },
    /// FLAT: a 64-bit address that may lie in the shared (LDS) or private (scratch) aperture.
    Flat { vaddr: u16, offset: u64, bytes: u32 },
}

/// Where one lane's access goes: a device address; whether a buffer access happens at all
/// (out of range it is dropped); and, for FLAT, whether the address is in the shared aperture,
/// with its LDS byte address.
struct Target {
    addr: Word,
    live: Option<Word>,
    lds: Option<(Word, Word)>,
}

/// The blocks of a structured loop (see `Gen::loop_begin`).
struct LoopIds {
    header: Word,
    body: Word,
    cont: Word,
    merge: Word,
}

/// An open loop over a wave's lanes.
struct LaneLoop {
    lane: Word,
    header: Word,
    merge: Word,
    cont: Word,
    /// The end of the EXEC test, when the loop has one.
    join: Option<Word>,
    /// The enclosing loop's lane address, restored at the end.
    outer: Option<(Word, Word)>,
}

struct Types {
    void: Word,
    bool: Word,
    u32: Word,
    u64: Word,
    f32: Word,
    v3u32: Word,
    fn_u32: Word,
    fn_u64: Word,
    fn_bool: Word,
    psb_u32: Word,
    pc_u32: Word,
    pc_u64: Word,
}

/// The float computations lowered as functions of the module (each one written at its first
/// use and called at each): inlined, each is tens to hundreds of SPIR-V instructions per use.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Helper {
    /// The exact f32 fma (its f32 operands to the result's bits).
    Fma32,
    /// The exact fma ([`Gen::fma64`]).
    Fma64,
    /// `sin(2πx)` (false) or `cos(2πx)` (true) of a turn count.
    SinCosRevolutions(bool),
    /// `2^x`.
    Exp2,
    /// `log2(x)` of a finite positive value.
    Log2,
    /// Whether an access of this many bytes at an address is to the dispatch's memory
    /// ([`Gen::mapped`]).
    Mapped(u32),
}

struct Gen {
    b: Builder,
    /// The helper functions written so far ([`Gen::call_helper`]).
    helpers: HashMap<Helper, Word>,
    /// Register pointers made in the current block ([`Gen::block_ptr`]): the block serial they
    /// were made under, and by (VGPR row or SGPR, register, lane) the pointer.
    /// (A short list: a block names few registers, and clearing it costs nothing.)
    block_ptrs: (u32, Vec<((bool, u16, Word), Word)>),
    t: Types,
    lanes: u32,
    vgprs: u32,
    consts: HashMap<(Word, u64), Word>,
    glsl: Word,
    // Function variables (set in `module`).
    s: Word,
    /// Subgroup model without SGPR indexing (`s_movrel*`): one Function variable per SGPR
    /// instead of the array `s`, so that no driver has to prove an array's indices constant
    /// to keep the registers out of local memory.
    sregs: Vec<Word>,
    scc: Word,
    state: Word,
    lane: Word,
    mask: Word,
    push: Word,
    /// Device address of this wave's VGPRs (see `v_ptr`).
    vbase: Word,
    sites: Vec<Site>,
    /// Whether an f64 operation was lowered (the Float64 capability is declared on first use).
    uses_f64: bool,
    /// The code object image's device address (push constant 9), loaded when the kernel reads
    /// its PC (`s_getpc_b64`, calls); 0 otherwise.
    image: Word,
    /// Where `.text` starts in the image: a step's PC is `image + text_in_image + step.pc`.
    text_in_image: u64,
    image_needed: bool,
    /// Rows past the VGPRs for cross-lane staging: 1, or [`wmma::WMMA_SPARE_ROWS`] for a kernel
    /// with WMMA.
    spare_rows: u32,
    /// The wave size, loaded from the push constants (see `wave_setup`).
    lane_count: Word,
    /// Waves per kernel workgroup.
    waves: u32,
    /// Loop iterations so far (a Function variable), and the limit from the push constants.
    iters: Word,
    iter_limit: Word,
    /// Device address of the status word (the start of the VGPR memory).
    status: Word,
    /// The arena's base, size, guest start, map address and granule shift (u64s from push
    /// constants 10 to 14, loaded once at the entry), for [`Gen::guard`].
    arena: [Word; 5],
    /// Lane loops in the block being lowered, and the most in any block (setup included).
    block_loops: u32,
    max_block_loops: u32,
    /// Which SGPRs a wave's slot keeps ([`sgprs_used`]).
    live_sgprs: [bool; 128],
    /// Inside a lane loop: the lane and its address in the VGPR memory (register 0).
    lane_addr: Option<(Word, Word)>,
    /// Inside a run of lane-local steps: the run's lane.
    fused: Option<Word>,
    /// Masks the current run has written bit by bit.
    run_masks: Vec<u16>,
    /// LDS bytes (static and dynamic) and the workgroup array holding them.
    lds_bytes: u32,
    lds: Word,
    /// The kernel argument segment's address and length (u64 ids), which `guard` checks first.
    kernarg: [Word; 2],
    /// A Function bool `guard_scalar` leaves its verdict in.
    guard_ok: Word,
    /// The SGPR pair the wave starts with the argument segment's address in, and the segment's
    /// size the kernel descriptor declares: where the pair still holds that address, argument
    /// loads need no check ([`Gen::load_argument`]).
    /// `args_intact_at`: for each block, whether the pair still holds the address wherever the
    /// block is entered from ([`args_intact_at`]); `args_intact`: whether it still does at the
    /// point being lowered. `args_written`: lowering met a write to the pair that the analysis
    /// did not foresee, so the module is made again without the assumption (a safety net).
    /// `args_read_end`: the end of the furthest argument read unchecked.
    args: Option<(u16, u32)>,
    args_intact_at: Vec<(bool, bool)>,
    args_intact: bool,
    args_block_writes: bool,
    args_written: bool,
    args_read_end: u32,
    /// Writing the wave's initial registers (a write to the argument pair is the set-up's).
    in_setup: bool,
    /// Whether the running wave stopped at a barrier, and whether the whole run stopped.
    yielded: Word,
    abort: Word,
    /// The selected wave's slot address (see `select_wave`).
    slot: Word,
    zero_var: Word,
    /// A Function variable holding an atomic's old value across a condition (a dropped buffer
    /// atomic returns 0).
    atomic_old: Word,
    /// The wave model (see [`WaveModel`]); in the subgroup model, this invocation's lane.
    model: WaveModel,
    /// How f32 fma is lowered ([`crate::FmaLowering`]).
    fma: crate::FmaLowering,
    /// [`crate::FmaLowering::Fused`]: a Function u32 holding an fma's result across the
    /// choice between the driver's `Fma` and the exact lowering.
    fma_result: Word,
    own_lane: Option<Word>,
    /// Subgroup model: the invocation's VGPRs and spare row (a Function array).
    vregs: Word,
    /// Subgroup model without VGPR indexing: one Function variable per VGPR row instead of
    /// the array `vregs` (as `sregs`).
    vregs_split: Vec<Word>,
    /// Subgroup model: whether the open lane loop touched memory (LDS or global), so that it
    /// ends with a subgroup barrier: the next step's lanes see what this one's wrote, as a
    /// wave's memory operations are ordered on AMD hardware.
    touched_memory: bool,
    /// Subgroup model: whether the open lane loop set bits of the MASK variable (each lane its
    /// own), which its end gathers with a ballot.
    mask_used: bool,
    /// Subgroup model: the workgroup's LDS lock (a Workgroup u32) and whether lane 0 took it
    /// (a Function bool), see `lds_lock`.
    lds_lock: Word,
    /// Subgroup model: the waves' statuses at the end of a scheduler pass, in workgroup memory,
    /// two rows of `waves` used in turn (see `subgroup_scheduler`).
    wave_status: Word,
    /// Bytes of workgroup memory declared so far ([`Compiled::workgroup_bytes`]).
    workgroup_bytes: u32,
    /// Subgroup model: which row of `wave_status` this pass uses (a Function u32).
    status_row: Word,
    /// The status `wave_init` gave the wave (a value; also in its slot for the exact model).
    initial_status: Word,
    got_lock: Word,
    /// Instructions lifted into IR regions (see [`Compiled::through_ir`]).
    through_ir: usize,
    /// Types declared once (see `cached_type`).
    type_cache: HashMap<valu::CachedType, Word>,
    /// Scratch bytes per lane (rounded up to whole dwords), and the selected wave's scratch.
    scratch: u32,
    scratch_base: Word,
    /// `v_trig_preop_f64`'s table of 2/π bits (a Function array of u32), where the kernel
    /// has that instruction.
    two_over_pi: Word,
    /// The table of buffer format words (`typed::table_word`), where the kernel needs it.
    format_table: Word,
    /// The clock and hardware registers (see `hwstate`).
    hw: hwstate::HwState,
}

/// Values every wave of the workgroup shares (see `workgroup_setup`).
struct WorkgroupCtx {
    gids: Vec<Word>,
    size: Vec<Word>,
    /// Index of the workgroup's first wave in the dispatch.
    first_wave: Word,
    /// Address of the VGPR memory (the status word, then the waves).
    regs: Word,
}

/// A wave's slot in device memory: SGPRs 0–127, SCC, the dispatch state and the status.
const SLOT_BYTES: u64 = 544;
const SLOT_SCC: u32 = 128;
const SLOT_STATE: u32 = 129;
const SLOT_STATUS: u32 = 130;
/// The wave's clock (two dwords; see `hwstate`) and its index in the workgroup (HW_ID).
const SLOT_CLOCK: u32 = 131;
const SLOT_WAVE_ID: u32 = 133;
const WAVE_RUNNING: u32 = 0;
const WAVE_AT_BARRIER: u32 = 1;
const WAVE_DONE: u32 = 2;

impl Gen {
    fn new(lanes: u32, vgprs: u32, model: WaveModel) -> Gen {
        let mut b = Builder::new();
        b.set_version(1, 6);
        for c in [Capability::Shader, Capability::Int64, Capability::PhysicalStorageBufferAddresses, Capability::DenormPreserve, Capability::SignedZeroInfNanPreserve] {
            b.capability(c);
        }
        if model == WaveModel::Subgroup {
            b.capability(Capability::GroupNonUniform);
            b.capability(Capability::GroupNonUniformBallot);
            b.capability(Capability::GroupNonUniformShuffle);
        }
        b.memory_model(spirv::AddressingModel::PhysicalStorageBuffer64, spirv::MemoryModel::GLSL450);
        let glsl = b.ext_inst_import("GLSL.std.450");
        let void = b.type_void();
        let bool = b.type_bool();
        let u32t = b.type_int(32, 0);
        let u64t = b.type_int(64, 0);
        let f32t = b.type_float(32);
        let v3u32 = b.type_vector(u32t, 3);
        let t = Types {
            void,
            bool,
            u32: u32t,
            u64: u64t,
            f32: f32t,
            v3u32,
            fn_u32: b.type_pointer(None, StorageClass::Function, u32t),
            fn_u64: b.type_pointer(None, StorageClass::Function, u64t),
            fn_bool: b.type_pointer(None, StorageClass::Function, bool),
            psb_u32: b.type_pointer(None, StorageClass::PhysicalStorageBuffer, u32t),
            pc_u32: b.type_pointer(None, StorageClass::PushConstant, u32t),
            pc_u64: b.type_pointer(None, StorageClass::PushConstant, u64t),
        };
        Gen { b, helpers: HashMap::default(), block_ptrs: (u32::MAX, Vec::new()), t, lanes, vgprs, consts: HashMap::default(), glsl, s: 0, scc: 0, state: 0, lane: 0, mask: 0, push: 0, vbase: 0, sites: Vec::new(), uses_f64: false, image: 0, text_in_image: 0, image_needed: false, spare_rows: 1, lane_count: 0, waves: 0, lds_bytes: 0, lds: 0, yielded: 0, abort: 0, kernarg: [0; 2], guard_ok: 0, args: None, args_intact_at: Vec::new(), args_intact: false, args_block_writes: false, args_written: false, args_read_end: 0, in_setup: false, slot: 0, zero_var: 0, atomic_old: 0, iters: 0, iter_limit: 0, status: 0, arena: [0; 5], block_loops: 0, max_block_loops: 0, live_sgprs: [true; 128], sregs: Vec::new(), vregs_split: Vec::new(), lane_addr: None, fused: None, run_masks: Vec::new(), model, own_lane: None, vregs: 0, touched_memory: false, mask_used: false, lds_lock: 0, wave_status: 0, workgroup_bytes: 0, status_row: 0, initial_status: 0, got_lock: 0, through_ir: 0, type_cache: HashMap::default(), scratch: 0, scratch_base: 0, two_over_pi: 0, format_table: 0, hw: Default::default(), fma: crate::FmaLowering::Exact, fma_result: 0 }
    }

    // ---- constants and register access ----

    fn c32(&mut self, v: u32) -> Word {
        let t = self.t.u32;
        *self.consts.entry((t, v as u64)).or_insert_with(|| self.b.constant_bit32(t, v))
    }

    fn c64(&mut self, v: u64) -> Word {
        let t = self.t.u64;
        *self.consts.entry((t, v)).or_insert_with(|| self.b.constant_bit64(t, v))
    }

    /// A pointer to SGPR `r` (below 128): its own variable, or its element of the array.
    fn s_ptr(&mut self, r: u16) -> Word {
        if let Some(&p) = self.sregs.get(r as usize) {
            return p;
        }
        self.block_ptr((false, r, 0), |g| {
            let i = g.c32(r as u32);
            g.b.access_chain(g.t.fn_u32, None, g.s, [i]).unwrap()
        })
    }

    fn rd_s(&mut self, r: u16) -> Word {
        if r == NULL || r >= 128 {
            return self.c32(0);
        }
        let p = self.s_ptr(r);
        self.b.load(self.t.u32, None, p, None, []).unwrap()
    }

    fn wr_s(&mut self, r: u16, v: Word) {
        if r == NULL || r >= 128 {
            return;
        }
        if self.args.is_some_and(|(a, _)| (r == a || r == a + 1) && !self.in_setup) {
            self.args_written |= self.args_intact && !self.args_block_writes;
            self.args_intact = false;
        }
        let p = self.s_ptr(r);
        self.b.store(p, v, None, []).unwrap();
    }

    fn rd_s64(&mut self, r: u16) -> Word {
        let lo = self.rd_s(r);
        let hi = self.rd_s(r + 1);
        self.join64(lo, hi)
    }

    fn wr_s64(&mut self, r: u16, v: Word) {
        if r == NULL {
            return;
        }
        let (lo, hi) = self.split64(v);
        self.wr_s(r, lo);
        self.wr_s(r + 1, hi);
    }

    fn join64(&mut self, lo: Word, hi: Word) -> Word {
        let t64 = self.t.u64;
        let lo = self.b.u_convert(t64, None, lo).unwrap();
        let hi = self.b.u_convert(t64, None, hi).unwrap();
        let c32 = self.c64(32);
        let hi = self.b.shift_left_logical(t64, None, hi, c32).unwrap();
        self.b.bitwise_or(t64, None, lo, hi).unwrap()
    }

    fn split64(&mut self, v: Word) -> (Word, Word) {
        let lo = self.b.u_convert(self.t.u32, None, v).unwrap();
        let c32 = self.c64(32);
        let hi = self.b.shift_right_logical(self.t.u64, None, v, c32).unwrap();
        let hi = self.b.u_convert(self.t.u32, None, hi).unwrap();
        (lo, hi)
    }

    /// A lane mask held at SGPR `r` (one register in wave32, a pair in wave64), as a u64.
    fn rd_mask(&mut self, r: u16) -> Word {
        if self.lanes == 64 {
            self.rd_s64(r)
        } else {
            let lo = self.rd_s(r);
            self.b.u_convert(self.t.u64, None, lo).unwrap()
        }
    }

    fn wr_mask(&mut self, r: u16, m: Word) {
        if self.lanes == 64 {
            self.wr_s64(r, m)
        } else {
            let lo = self.b.u_convert(self.t.u32, None, m).unwrap();
            self.wr_s(r, lo)
        }
    }

    /// A register pointer made once per block: `make`'s result is reused while the block is
    /// the same (a later block may not be dominated by this one, so there it is made again).
    fn block_ptr(&mut self, key: (bool, u16, Word), make: impl FnOnce(&mut Gen) -> Word) -> Word {
        let serial = self.b.block_serial();
        if self.block_ptrs.0 != serial {
            self.block_ptrs.0 = serial;
            self.block_ptrs.1.clear();
        }
        if let Some(&(_, p)) = self.block_ptrs.1.iter().find(|(k, _)| *k == key) {
            return p;
        }
        let p = make(self);
        debug_assert_eq!(self.b.block_serial(), serial, "a register pointer is made within its block");
        self.block_ptrs.1.push((key, p));
        p
    }

    /// VGPRs live in device memory, `vgprs × lanes` dwords per wave, register-major: an array
    /// indexed by lane (a Function variable) is lowered by some drivers, lavapipe among them, to
    /// a ladder of branches per access, and compiling that takes minutes.
    fn v_ptr(&mut self, r: u16, lane: Word) -> Word {
        self.block_ptr((true, r, lane), |g| g.v_ptr_new(r, lane))
    }

    fn v_ptr_new(&mut self, r: u16, lane: Word) -> Word {
        let u64t = self.t.u64;
        if let Some((l, addr)) = self.lane_addr.filter(|&(l, _)| l == lane) {
            debug_assert_eq!(l, lane);
            let off = self.c64(r as u64 * self.lanes as u64 * 4);
            let a = self.b.i_add(u64t, None, addr, off).unwrap();
            return self.b.convert_u_to_ptr(self.t.psb_u32, None, a).unwrap();
        }
        let l = self.b.u_convert(u64t, None, lane).unwrap();
        let four = self.c64(4);
        let lo = self.b.i_mul(u64t, None, l, four).unwrap();
        let off = self.c64(r as u64 * self.lanes as u64 * 4);
        let o = self.b.i_add(u64t, None, off, lo).unwrap();
        let a = self.b.i_add(u64t, None, self.vbase, o).unwrap();
        self.b.convert_u_to_ptr(self.t.psb_u32, None, a).unwrap()
    }

    fn rd_v(&mut self, r: u16, lane: Word) -> Result<Word, String> {
        if r as u32 >= self.vgprs {
            return Err(format!("v{r} is beyond the registers this kernel was given"));
        }
        Ok(self.rd_row(r, lane))
    }

    fn wr_v(&mut self, r: u16, lane: Word, v: Word) -> Lowered {
        if r as u32 >= self.vgprs {
            return Err(format!("v{r} is beyond the registers this kernel was given"));
        }
        self.wr_row(r, lane, v);
        Ok(())
    }

    /// Row `r` of the wave's VGPRs at `lane`: a register, or the spare row
    /// ([`Gen::spare_row`]). Subgroup model: the invocation's own registers (a Function array
    /// indexed by constants, which drivers keep in hardware registers); another lane's through
    /// a subgroup shuffle, so such reads must be made by every lane of the wave together
    /// (outside any EXEC test).
    fn rd_row(&mut self, r: u16, lane: Word) -> Word {
        if let Some(me) = self.own_lane {
            let p = self.vreg(r);
            let own = self.b.load(self.t.u32, None, p, None, []).unwrap();
            return if lane == me { own } else { self.shuffle(own, lane) };
        }
        let p = self.v_ptr(r, lane);
        self.b.load(self.t.u32, None, p, Some(spirv::MemoryAccess::ALIGNED), [Operand::LiteralBit32(4)]).unwrap()
    }

    /// Writes row `r` at `lane` (subgroup model: `lane`'s invocation writes its own register).
    fn wr_row(&mut self, r: u16, lane: Word, v: Word) {
        if let Some(me) = self.own_lane {
            let p = self.vreg(r);
            if lane == me {
                self.b.store(p, v, None, []).unwrap();
            } else {
                let mine = self.b.i_equal(self.t.bool, None, me, lane).unwrap();
                self.if_then(mine, &mut |g: &mut Gen| g.b.store(p, v, None, []).unwrap());
            }
            return;
        }
        let p = self.v_ptr(r, lane);
        self.b.store(p, v, Some(spirv::MemoryAccess::ALIGNED), [Operand::LiteralBit32(4)]).unwrap();
    }

    /// Subgroup model: the invocation's register `r`.
    fn vreg(&mut self, r: u16) -> Word {
        if let Some(&p) = self.vregs_split.get(r as usize) {
            return p;
        }
        let i = self.c32(r as u32);
        self.b.access_chain(self.t.fn_u32, None, self.vregs, [i]).unwrap()
    }

    /// A pointer to the lane's own VGPR whose number is the value `r` (a u32 below the
    /// kernel's registers), for VGPR-indexed moves.
    fn own_v_ptr_at(&mut self, r: Word, lane: Word) -> (Word, bool) {
        if self.own_lane.is_some() {
            return (self.b.access_chain(self.t.fn_u32, None, self.vregs, [r]).unwrap(), false);
        }
        let u64t = self.t.u64;
        let (r, l) = (self.b.u_convert(u64t, None, r).unwrap(), self.b.u_convert(u64t, None, lane).unwrap());
        let row = self.c64(self.lanes as u64);
        let at = self.b.i_mul(u64t, None, r, row).unwrap();
        let at = self.b.i_add(u64t, None, at, l).unwrap();
        let four = self.c64(4);
        let at = self.b.i_mul(u64t, None, at, four).unwrap();
        let a = self.b.i_add(u64t, None, self.vbase, at).unwrap();
        (self.b.convert_u_to_ptr(self.t.psb_u32, None, a).unwrap(), true)
    }

    fn rd_v_at(&mut self, r: Word, lane: Word) -> Word {
        match self.own_v_ptr_at(r, lane) {
            (p, true) => self.b.load(self.t.u32, None, p, Some(spirv::MemoryAccess::ALIGNED), [Operand::LiteralBit32(4)]).unwrap(),
            (p, false) => self.b.load(self.t.u32, None, p, None, []).unwrap(),
        }
    }

    fn wr_v_at(&mut self, r: Word, lane: Word, v: Word) {
        match self.own_v_ptr_at(r, lane) {
            (p, true) => self.b.store(p, v, Some(spirv::MemoryAccess::ALIGNED), [Operand::LiteralBit32(4)]).unwrap(),
            (p, false) => self.b.store(p, v, None, []).unwrap(),
        }
    }

    /// Subgroup model: `v` as lane `lane` holds it (every lane of the wave must take part).
    fn shuffle(&mut self, v: Word, lane: Word) -> Word {
        let scope = self.c32(spirv::Scope::Subgroup as u32);
        self.b.group_non_uniform_shuffle(self.t.u32, None, scope, v, lane).unwrap()
    }

    /// A row past the kernel's VGPRs, where cross-lane operations gather their results before
    /// any lane's register changes.
    fn spare_row(&self) -> u16 {
        self.vgprs as u16
    }

    fn rd_scc(&mut self) -> Word {
        self.b.load(self.t.bool, None, self.scc, None, []).unwrap()
    }

    fn wr_scc(&mut self, v: Word) {
        self.b.store(self.scc, v, None, []).unwrap();
    }

    /// Counts a loop iteration; at the limit the run stops and says so in the status word.
    fn count_iteration_checked(&mut self) {
        self.count_iteration();
        let n = self.b.load(self.t.u32, None, self.iters, None, []).unwrap();
        let over = self.b.u_greater_than_equal(self.t.bool, None, n, self.iter_limit).unwrap();
        self.if_then(over, &mut |g: &mut Gen| g.fail(crate::STATUS_ITERATION_LIMIT));
    }

    /// Subgroup model: counts the exit of block `me` to state `next` (`taken`: a conditional
    /// exit's condition) against the iteration limit where it may close a loop, that is where it
    /// goes to a block at or before `me` (every part of a block cut at barriers is ordered as
    /// the block; any cycle of states has such an exit, since the others and the resumptions
    /// after a barrier go forward). Exits that only go forward, a whole kernel's when it has no
    /// loops, count nothing, and the dispatch loop's continue block is left a plain test of the
    /// state (the count and the check were there on every pass; see BENCHMARKS.md, twelfth
    /// session, for what timing it on an H100 could and could not show).
    fn count_back_edge(&mut self, exit: &Exit, me: u32, next: Option<Word>, taken: Option<Word>) {
        let back = |t: usize| t as u32 <= me;
        let when = match *exit {
            Exit::Goto(t) | Exit::Call { callee: t, .. } => back(t).then_some(None),
            Exit::End => None,
            Exit::Branch { taken: to, next: fall, .. } => match (back(to), back(fall), taken) {
                (false, false, _) => None,
                (true, true, _) => Some(None),
                (true, false, Some(c)) => Some(Some(c)),
                (false, true, Some(c)) => Some(Some(self.b.logical_not(self.t.bool, None, c).unwrap())),
                // (A branch always has its condition; counting is the safe side.)
                (_, _, None) => Some(None),
            },
            // A computed return address: compared when the wave runs.
            Exit::Return => next.map(|n| {
                let m = self.c32(me);
                Some(self.b.u_less_than_equal(self.t.bool, None, n, m).unwrap())
            }),
        };
        match when {
            None => {}
            Some(None) => self.count_iteration_checked(),
            Some(Some(c)) => self.if_then(c, &mut |g: &mut Gen| g.count_iteration_checked()),
        }
    }

    /// Adds one to the loop-iteration count (see [`crate::Compiled::iteration_margin`]).
    fn count_iteration(&mut self) {
        let n = self.b.load(self.t.u32, None, self.iters, None, []).unwrap();
        let one = self.c32(1);
        let n = self.b.i_add(self.t.u32, None, n, one).unwrap();
        self.b.store(self.iters, n, None, []).unwrap();
    }

    fn exec(&mut self) -> Word {
        self.rd_mask(EXEC)
    }

    fn bool_to_u32(&mut self, c: Word) -> Word {
        let (one, zero) = (self.c32(1), self.c32(0));
        self.b.select(self.t.u32, None, c, one, zero).unwrap()
    }

    /// A 32-bit source; `lane` for vector registers.
    fn src32(&mut self, s: Src, lane: Option<Word>) -> Result<Word, String> {
        Ok(match s {
            Src::Sgpr(r) => self.rd_s(r),
            Src::Vgpr(r) => self.rd_v(r, lane.ok_or("a vector register read outside a lane loop")?)?,
            Src::Const(c) => self.c32(c as u32),
            Src::Scc => {
                let c = self.rd_scc();
                self.bool_to_u32(c)
            }
            Src::Vccz | Src::Execz => {
                let m = self.rd_mask(if s == Src::Vccz { VCC } else { EXEC });
                let z = self.c64(0);
                let c = self.b.i_equal(self.t.bool, None, m, z).unwrap();
                self.bool_to_u32(c)
            }
            Src::None => return Err("missing operand".into()),
        })
    }

    fn src64(&mut self, s: Src, lane: Option<Word>) -> Result<Word, String> {
        Ok(match s {
            Src::Sgpr(r) => self.rd_s64(r),
            Src::Vgpr(r) => {
                let l = lane.ok_or("a vector register read outside a lane loop")?;
                let lo = self.rd_v(r, l)?;
                let hi = self.rd_v(r + 1, l)?;
                self.join64(lo, hi)
            }
            Src::Const(c) => self.c64(c),
            _ => {
                let v = self.src32(s, lane)?;
                self.b.u_convert(self.t.u64, None, v).unwrap()
            }
        })
    }

    /// Bit `lane` of a u64 mask, as a bool (in wave32, tested in 32 bits: the mask's high half
    /// is zero, and a 64-bit shift by a variable amount costs several instructions on some GPUs).
    fn mask_bit(&mut self, m: Word, lane: Word) -> Word {
        if self.lanes == 32 {
            let u = self.t.u32;
            let m = self.b.u_convert(u, None, m).unwrap();
            let s = self.b.shift_right_logical(u, None, m, lane).unwrap();
            let one = self.c32(1);
            let b = self.b.bitwise_and(u, None, s, one).unwrap();
            return self.b.i_equal(self.t.bool, None, b, one).unwrap();
        }
        let l = self.b.u_convert(self.t.u64, None, lane).unwrap();
        let s = self.b.shift_right_logical(self.t.u64, None, m, l).unwrap();
        let one = self.c64(1);
        let b = self.b.bitwise_and(self.t.u64, None, s, one).unwrap();
        self.b.i_equal(self.t.bool, None, b, one).unwrap()
    }

    /// Sets bit `lane` of the MASK variable when `bit` holds.
    fn mask_set(&mut self, lane: Word, bit: Word) {
        self.mask_used = true;
        let l = self.b.u_convert(self.t.u64, None, lane).unwrap();
        let (one, zero) = (self.c64(1), self.c64(0));
        let v = self.b.select(self.t.u64, None, bit, one, zero).unwrap();
        let v = self.b.shift_left_logical(self.t.u64, None, v, l).unwrap();
        let m = self.b.load(self.t.u64, None, self.mask, None, []).unwrap();
        let m = self.b.bitwise_or(self.t.u64, None, m, v).unwrap();
        self.b.store(self.mask, m, None, []).unwrap();
    }

    /// Runs `body` for every lane of the wave; with `under_exec`, only lanes EXEC enables.
    /// Inside a run of lane-local steps ([`Gen::open_run`]) the run's loop is already open:
    /// `body` is emitted for its lane.
    fn lanes_loop(&mut self, under_exec: bool, body: &mut dyn FnMut(&mut Gen, Word) -> Lowered) -> Lowered {
        if let Some(l) = self.fused {
            if !under_exec {
                return Err("internal: a loop over every lane inside a run of lane-local steps".into());
            }
            return body(self, l);
        }
        let lp = self.open_lanes(under_exec);
        let result = body(self, lp.lane);
        self.close_lanes(lp);
        result
    }

    /// Opens a loop over the wave's lanes (those EXEC enables, with `under_exec`). In the
    /// subgroup model there is no loop: the invocation is the lane, and tests its EXEC bit.
    fn open_lanes(&mut self, under_exec: bool) -> LaneLoop {
        let exec = if under_exec { Some(self.exec()) } else { None };
        if let Some(l) = self.own_lane {
            self.mask_used = false;
            self.touched_memory = false;
            let join = exec.map(|exec| self.open_exec_test(exec, l));
            return LaneLoop { lane: l, header: 0, merge: 0, cont: 0, join, outer: None };
        }
        let zero = self.c32(0);
        self.b.store(self.lane, zero, None, []).unwrap();
        let lp = self.loop_begin();
        let l = self.b.load(self.t.u32, None, self.lane, None, []).unwrap();
        let n = self.lane_count;
        let more = self.b.u_less_than(self.t.bool, None, l, n).unwrap();
        // The bound is not a constant, so drivers do not unroll 32 or 64 copies (see `wave_setup`).
        self.loop_enter(&lp, Some(more));
        // The lane's address in the VGPR memory, once: every register access adds a constant.
        let addr = self.lane_address(l);
        let outer = self.lane_addr.replace((l, addr));
        let join = exec.map(|exec| self.open_exec_test(exec, l));
        LaneLoop { lane: l, header: lp.header, merge: lp.merge, cont: lp.cont, join, outer }
    }

    /// `if EXEC bit l { ... }`: opens the selection, returns its join.
    fn open_exec_test(&mut self, exec: Word, l: Word) -> Word {
        let on = self.mask_bit(exec, l);
        let (then, join) = (self.b.id(), self.b.id());
        self.b.selection_merge(join, spirv::SelectionControl::NONE).unwrap();
        self.b.branch_conditional(on, then, join, []).unwrap();
        self.b.begin_block(Some(then)).unwrap();
        join
    }

    /// Lane `l`'s address in the current wave's VGPR memory (register 0).
    fn lane_address(&mut self, l: Word) -> Word {
        let l64 = self.b.u_convert(self.t.u64, None, l).unwrap();
        let four = self.c64(4);
        let lo = self.b.i_mul(self.t.u64, None, l64, four).unwrap();
        self.b.i_add(self.t.u64, None, self.vbase, lo).unwrap()
    }

    fn close_lanes(&mut self, lp: LaneLoop) {
        if let Some(join) = lp.join {
            self.b.branch(join).unwrap();
            self.b.begin_block(Some(join)).unwrap();
        }
        self.lane_addr = lp.outer;
        if self.own_lane.is_some() {
            // Every lane's memory accesses are done before the next step's, and the lanes'
            // bits of the MASK variable become the wave's mask.
            if std::mem::take(&mut self.touched_memory) {
                self.subgroup_barrier();
            }
            if std::mem::take(&mut self.mask_used) {
                let m = self.b.load(self.t.u64, None, self.mask, None, []).unwrap();
                let own = self.mask_bit(m, lp.lane);
                let all = self.ballot(own);
                self.b.store(self.mask, all, None, []).unwrap();
            }
            return;
        }
        self.b.branch(lp.cont).unwrap();
        self.b.begin_block(Some(lp.cont)).unwrap();
        let one = self.c32(1);
        let next = self.b.i_add(self.t.u32, None, lp.lane, one).unwrap();
        self.b.store(self.lane, next, None, []).unwrap();
        self.count_iteration();
        self.block_loops += 1;
        self.max_block_loops = self.max_block_loops.max(self.block_loops);
        self.b.branch(lp.header).unwrap();
        self.b.begin_block(Some(lp.merge)).unwrap();
    }

    /// Subgroup model: a subgroup control barrier that also orders device and workgroup memory,
    /// so what one lane wrote to memory or LDS is what another lane reads next.
    fn subgroup_barrier(&mut self) {
        self.barrier(spirv::Scope::Subgroup);
    }

    /// Subgroup model: a workgroup control barrier (`s_barrier` between waves).
    fn workgroup_barrier(&mut self) {
        self.barrier(spirv::Scope::Workgroup);
    }

    fn barrier(&mut self, scope: spirv::Scope) {
        let scope = self.c32(scope as u32);
        let sem = self.c32((spirv::MemorySemantics::ACQUIRE_RELEASE | spirv::MemorySemantics::UNIFORM_MEMORY | spirv::MemorySemantics::WORKGROUP_MEMORY).bits());
        self.b.control_barrier(scope, scope, sem).unwrap();
    }

    /// Subgroup model: the wave's mask of the lanes whose `bit` holds, as a u64.
    fn ballot(&mut self, bit: Word) -> Word {
        let u = self.t.u32;
        let v4 = self.cached_type(valu::CachedType::U32x4, |b| b.type_vector(u, 4));
        let scope = self.c32(spirv::Scope::Subgroup as u32);
        let b = self.b.group_non_uniform_ballot(v4, None, scope, bit).unwrap();
        let lo = self.b.composite_extract(self.t.u32, None, b, [0]).unwrap();
        if self.lanes == 32 {
            // The subgroup is the wave: no lane above 31.
            return self.b.u_convert(self.t.u64, None, lo).unwrap();
        }
        let hi = self.b.composite_extract(self.t.u32, None, b, [1]).unwrap();
        self.join64(lo, hi)
    }

    /// Starts a run of lane-local steps: one loop over the lanes EXEC enables, in which each
    /// step is emitted for the lane in turn (see [`lane_access`] for when that is exact).
    fn open_run(&mut self) -> LaneLoop {
        let lp = self.open_lanes(true);
        self.fused = Some(lp.lane);
        lp
    }

    /// Ends a run: the masks its steps wrote bit by bit lose the bits of lanes EXEC disables,
    /// as a whole-mask write would have left them.
    /// In the subgroup model each lane holds its own bit of such a mask: a ballot gathers them.
    fn close_run(&mut self, lp: LaneLoop) {
        self.fused = None;
        let lane = lp.lane;
        self.mask_used = false;
        self.close_lanes(lp);
        let exec = self.exec();
        for r in std::mem::take(&mut self.run_masks) {
            let mut m = self.rd_mask(r);
            if self.own_lane.is_some() {
                let own = self.mask_bit(m, lane);
                m = self.ballot(own);
            }
            let m = self.b.bitwise_and(self.t.u64, None, m, exec).unwrap();
            self.wr_mask(r, m);
        }
    }

    /// Clears the MASK variable that a compare or carry-out fills lane by lane.
    fn mask_begin(&mut self) {
        let zero64 = self.c64(0);
        self.b.store(self.mask, zero64, None, []).unwrap();
    }

    /// Writes the MASK variable to the mask at SGPR `dst`: whole after a loop of its own; in a
    /// run, only the run's lane's bit (the run clears disabled lanes' bits at its end).
    fn mask_end(&mut self, dst: u16) {
        let mk = self.b.load(self.t.u64, None, self.mask, None, []).unwrap();
        let Some(lane) = self.fused else { return self.wr_mask(dst, mk) };
        let u64t = self.t.u64;
        let old = self.rd_mask(dst);
        let l = self.b.u_convert(u64t, None, lane).unwrap();
        let one = self.c64(1);
        let bit = self.b.shift_left_logical(u64t, None, one, l).unwrap();
        let keep = self.b.not(u64t, None, bit).unwrap();
        let kept = self.b.bitwise_and(u64t, None, old, keep).unwrap();
        let new = self.b.bitwise_or(u64t, None, kept, mk).unwrap();
        self.wr_mask(dst, new);
        if !self.run_masks.contains(&dst) {
            self.run_masks.push(dst);
        }
    }

    // ---- the module ----

    /// Declares workgroup memory: one u32, or an array of `n`; counted in `workgroup_bytes`.
    fn workgroup_variable(&mut self, n: Option<u32>) -> Word {
        let u32t = self.t.u32;
        let ty = match n {
            Some(n) => {
                let len = self.c32(n);
                self.b.type_array(u32t, len)
            }
            None => u32t,
        };
        self.workgroup_bytes += 4 * n.unwrap_or(1);
        let ptr = self.b.type_pointer(None, StorageClass::Workgroup, ty);
        self.b.variable(ptr, None, StorageClass::Workgroup, None)
    }

    fn module(&mut self, kernel: &Kernel, prog: &Program, cfg: &Cfg, wg: [u32; 3], waves: u32) -> Result<(), RecompileError> {
        let t = &self.t;
        let (void, u32t, u64t, v3) = (t.void, t.u32, t.u64, t.v3u32);
        // Inputs and push constants.
        let in_v3 = self.b.type_pointer(None, StorageClass::Input, v3);
        let group_id = self.b.variable(in_v3, None, StorageClass::Input, None);
        self.b.decorate(group_id, spirv::Decoration::BuiltIn, [Operand::BuiltIn(spirv::BuiltIn::WorkgroupId)]);
        let num_groups = self.b.variable(in_v3, None, StorageClass::Input, None);
        self.b.decorate(num_groups, spirv::Decoration::BuiltIn, [Operand::BuiltIn(spirv::BuiltIn::NumWorkgroups)]);
        let push_t = self.b.type_struct([u64t, u64t, u32t, u32t, u32t, u32t, u64t, u32t, u32t, u64t, u64t, u64t, u64t, u64t, u32t]);
        self.b.decorate(push_t, spirv::Decoration::Block, []);
        for (i, off) in [0u32, 8, 16, 20, 24, 28, 32, 40, 44, 48, 56, 64, 72, 80, 88].into_iter().enumerate() {
            self.b.member_decorate(push_t, i as u32, spirv::Decoration::Offset, [Operand::LiteralBit32(off)]);
        }
        let pc_push = self.b.type_pointer(None, StorageClass::PushConstant, push_t);
        self.push = self.b.variable(pc_push, None, StorageClass::PushConstant, None);
        // LDS: workgroup memory of whole dwords (one invocation per workgroup uses it).
        let mut interface = vec![group_id, num_groups, self.push];
        if self.lds_bytes > 0 {
            self.lds = self.workgroup_variable(Some(self.lds_bytes.div_ceil(4)));
            interface.push(self.lds);
            if self.model == WaveModel::Subgroup {
                self.lds_lock = self.workgroup_variable(None);
                interface.push(self.lds_lock);
            }
        }
        // The subgroup model's wave and lane.
        let subgroup_ids = if self.model == WaveModel::Subgroup {
            let in_u32 = self.b.type_pointer(None, StorageClass::Input, u32t);
            let ids = [spirv::BuiltIn::SubgroupId, spirv::BuiltIn::SubgroupLocalInvocationId].map(|bi| {
                let v = self.b.variable(in_u32, None, StorageClass::Input, None);
                self.b.decorate(v, spirv::Decoration::BuiltIn, [Operand::BuiltIn(bi)]);
                v
            });
            interface.extend(ids);
            self.wave_status = self.workgroup_variable(Some(2 * waves));
            interface.push(self.wave_status);
            ids
        } else {
            [0, 0]
        };
        // Register files.
        let n128 = self.c32(128);
        let arr_s = self.b.type_array(u32t, n128);
        let fn_arr_s = self.b.type_pointer(None, StorageClass::Function, arr_s);
        let null_s = self.b.constant_null(arr_s);
        let fn_ty = self.b.type_function(void, []);
        let main = self.b.begin_function(void, None, spirv::FunctionControl::NONE, fn_ty).unwrap();
        self.b.begin_block(None).unwrap();
        self.s = self.b.variable(fn_arr_s, None, StorageClass::Function, Some(null_s));
        let f = self.b.constant_false(self.t.bool);
        self.scc = self.b.variable(self.t.fn_bool, None, StorageClass::Function, Some(f));
        self.state = self.b.variable(self.t.fn_u32, None, StorageClass::Function, None);
        self.lane = self.b.variable(self.t.fn_u32, None, StorageClass::Function, None);
        self.mask = self.b.variable(self.t.fn_u64, None, StorageClass::Function, None);
        let zero = self.c32(0);
        self.iters = self.b.variable(self.t.fn_u32, None, StorageClass::Function, Some(zero));
        self.yielded = self.b.variable(self.t.fn_bool, None, StorageClass::Function, Some(f));
        self.abort = self.b.variable(self.t.fn_bool, None, StorageClass::Function, Some(f));
        self.guard_ok = self.b.variable(self.t.fn_bool, None, StorageClass::Function, Some(f));
        let cur = self.b.variable(self.t.fn_u32, None, StorageClass::Function, None);
        self.zero_var = self.b.variable(self.t.fn_u32, None, StorageClass::Function, None);
        if self.fma == crate::FmaLowering::Fused {
            self.fma_result = self.b.variable(self.t.fn_u32, None, StorageClass::Function, None);
        }
        let fn_u64 = self.b.type_pointer(None, StorageClass::Function, self.t.u64);
        self.atomic_old = self.b.variable(fn_u64, None, StorageClass::Function, None);
        let again = self.b.variable(self.t.fn_bool, None, StorageClass::Function, Some(f));
        if prog.steps.iter().any(|st| st.kind == Kind::Valu(VOp::TrigPreopF64)) {
            self.two_over_pi = self.two_over_pi_table();
        }
        if prog.steps.iter().any(|st| matches!(st.kind, Kind::Mem(MemKind::Format { .. })) && st.inst.format == Format::Mubuf) {
            let gen = prog.steps.iter().map(|st| st.inst.gen).next().unwrap_or(rdna_isa::Generation::Gfx10);
            self.format_table = self.buffer_format_table(gen);
        }
        self.hw_setup(kernel, prog, cfg, self.lds_bytes);
        if self.model == WaveModel::Subgroup {
            self.got_lock = self.b.variable(self.t.fn_bool, None, StorageClass::Function, Some(f));
            let zero = self.c32(0);
            self.status_row = self.b.variable(self.t.fn_u32, None, StorageClass::Function, Some(zero));
            // Registers as separate variables where no instruction indexes them, else arrays;
            // either way each starts at zero.
            if !indexes_sgprs(prog) {
                self.sregs = (0..128).map(|_| self.b.variable(self.t.fn_u32, None, StorageClass::Function, Some(zero))).collect();
            }
            if indexes_vgprs(prog) {
                let n = self.c32(self.vgprs + self.spare_rows);
                let arr = self.b.type_array(u32t, n);
                let fn_arr = self.b.type_pointer(None, StorageClass::Function, arr);
                let zeros = self.b.constant_null(arr);
                self.vregs = self.b.variable(fn_arr, None, StorageClass::Function, Some(zeros));
            } else {
                self.vregs_split = (0..self.vgprs + self.spare_rows).map(|_| self.b.variable(self.t.fn_u32, None, StorageClass::Function, Some(zero))).collect();
            }
        }
        self.waves = waves;
        let ctx = self.workgroup_setup([group_id, num_groups], wg, waves);
        let sites = match self.model {
            WaveModel::Exact => self.exact_scheduler(kernel, prog, cfg, &ctx, wg, null_s, cur, again)?,
            WaveModel::Subgroup => self.subgroup_scheduler(kernel, prog, cfg, &ctx, wg, null_s, subgroup_ids, cur)?,
        };
        self.sites.extend(sites);
        self.b.ret().unwrap();
        self.b.end_function().unwrap();
        self.b.entry_point(spirv::ExecutionModel::GLCompute, main, "main", interface);
        // Exact: one invocation runs a whole workgroup's waves (see `select_wave`); subgroup:
        // one invocation per lane.
        let local = if self.model == WaveModel::Subgroup { waves * self.lanes } else { 1 };
        self.b.execution_mode(main, spirv::ExecutionMode::LocalSize, [local, 1, 1]);
        // Signed zeros, infinities and NaNs are kept exactly (without this mode a driver may
        // fold 0.0 - x into -x: lavapipe turned +0 - +0 into -0).
        self.b.execution_mode(main, spirv::ExecutionMode::SignedZeroInfNanPreserve, [32]);
        if self.uses_f64 {
            self.b.execution_mode(main, spirv::ExecutionMode::SignedZeroInfNanPreserve, [64]);
        }
        // OpenCL kernels keep f32 denormals (FP_DENORM 3); the kernel descriptor says so.
        if kernel.kd.float_denorm_mode_32() == 3 {
            self.b.execution_mode(main, spirv::ExecutionMode::DenormPreserve, [32]);
        } else {
            self.sites.push(Site { pc: prog.base + prog.steps[cfg.blocks[0].first].pc as u64, raw: String::new(), text: kernel.name.clone(), reason: "f32 denormal flushing is not recompiled yet".into() });
        }
        if self.uses_f64 {
            if kernel.kd.float_denorm_mode_16_64() == 3 {
                self.b.execution_mode(main, spirv::ExecutionMode::DenormPreserve, [64]);
            } else {
                self.sites.push(Site { pc: prog.base + prog.steps[cfg.blocks[0].first].pc as u64, raw: String::new(), text: kernel.name.clone(), reason: "f64 denormal flushing is not recompiled yet".into() });
            }
        }
        if !self.sites.is_empty() {
            return Err(RecompileError::Unsupported(std::mem::take(&mut self.sites)));
        }
        Ok(())
    }

    /// The exact model's scheduler, as the emulator's: each running wave in order until it ends
    /// or reaches a barrier; when none runs, the waves at the barrier are released.
    #[allow(clippy::too_many_arguments)]
    fn exact_scheduler(&mut self, kernel: &Kernel, prog: &Program, cfg: &Cfg, ctx: &WorkgroupCtx, wg: [u32; 3], null_s: Word, cur: Word, again: Word) -> Result<Vec<Site>, RecompileError> {
        self.zero_lds();
        let waves = self.waves;
        // Every wave's initial state, saved to its slot.
        let cw = self.c32(waves);
        self.counted_loop(cur, cw, &mut |g: &mut Gen, w: Word| {
            g.select_wave(ctx, w);
            g.b.store(g.s, null_s, None, []).unwrap();
            g.wave_init(kernel, prog, ctx, w, wg)?;
            g.save_wave();
            Ok(())
        })
        .map_err(RecompileError::Setup)?;
        let lp = self.loop_begin();
        self.loop_enter(&lp, None);
        let (sh, sc, sm) = (lp.header, lp.cont, lp.merge);
        let fl = self.b.constant_false(self.t.bool);
        self.b.store(again, fl, None, []).unwrap();
        let mut sites = Vec::new();
        self.counted_loop(cur, cw, &mut |g: &mut Gen, w: Word| {
            g.select_wave(ctx, w);
            let st = g.slot_load(SLOT_STATUS);
            let running = g.c32(WAVE_RUNNING);
            let run = g.b.i_equal(g.t.bool, None, st, running).unwrap();
            let ab = g.b.load(g.t.bool, None, g.abort, None, []).unwrap();
            let nab = g.b.logical_not(g.t.bool, None, ab).unwrap();
            let run = g.b.logical_and(g.t.bool, None, run, nab).unwrap();
            g.if_then(run, &mut |g: &mut Gen| {
                g.restore_wave();
                sites.extend(g.dispatch_loop(prog, cfg));
                // Ended, or stopped at a barrier.
                let y = g.b.load(g.t.bool, None, g.yielded, None, []).unwrap();
                let (at, done) = (g.c32(WAVE_AT_BARRIER), g.c32(WAVE_DONE));
                let s = g.b.select(g.t.u32, None, y, at, done).unwrap();
                g.wr_slot(SLOT_STATUS, s);
                let fl = g.b.constant_false(g.t.bool);
                g.b.store(g.yielded, fl, None, []).unwrap();
                g.save_wave();
            });
            Ok(())
        })
        .map_err(RecompileError::Setup)?;
        // Release the waves at the barrier; go round again if there were any.
        self.counted_loop(cur, cw, &mut |g: &mut Gen, w: Word| {
            g.select_wave(ctx, w);
            let st = g.slot_load(SLOT_STATUS);
            let at = g.c32(WAVE_AT_BARRIER);
            let waiting = g.b.i_equal(g.t.bool, None, st, at).unwrap();
            g.if_then(waiting, &mut |g: &mut Gen| {
                let running = g.c32(WAVE_RUNNING);
                g.wr_slot(SLOT_STATUS, running);
                let t = g.b.constant_true(g.t.bool);
                g.b.store(again, t, None, []).unwrap();
            });
            Ok(())
        })
        .map_err(RecompileError::Setup)?;
        self.b.branch(sc).unwrap();
        self.b.begin_block(Some(sc)).unwrap();
        let a = self.b.load(self.t.bool, None, again, None, []).unwrap();
        let ab = self.b.load(self.t.bool, None, self.abort, None, []).unwrap();
        let nab = self.b.logical_not(self.t.bool, None, ab).unwrap();
        let go = self.b.logical_and(self.t.bool, None, a, nab).unwrap();
        self.b.branch_conditional(go, sh, sm, []).unwrap();
        self.b.begin_block(Some(sm)).unwrap();
        Ok(sites)
    }

    /// The subgroup model's scheduler: this subgroup runs its own wave until it ends or reaches
    /// `s_barrier`; then the whole workgroup meets at a barrier, and goes round again while any
    /// wave waits there (every invocation reads the same statuses, so the loop stays uniform in
    /// the workgroup, as Vulkan requires of its barrier).
    #[allow(clippy::too_many_arguments)]
    fn subgroup_scheduler(&mut self, kernel: &Kernel, prog: &Program, cfg: &Cfg, ctx: &WorkgroupCtx, wg: [u32; 3], null_s: Word, ids: [Word; 2], status: Word) -> Result<Vec<Site>, RecompileError> {
        let (u32t, boolt) = (self.t.u32, self.t.bool);
        let wave = self.b.load(u32t, None, ids[0], None, []).unwrap();
        let lane = self.b.load(u32t, None, ids[1], None, []).unwrap();
        let nl = self.c32(self.lanes);
        let flat = self.b.i_mul(u32t, None, wave, nl).unwrap();
        let flat = self.b.i_add(u32t, None, flat, lane).unwrap();
        self.zero_lds_together(flat);
        self.select_wave(ctx, wave);
        self.own_lane = Some(lane);
        if self.sregs.is_empty() {
            self.b.store(self.s, null_s, None, []).unwrap();
        }
        self.wave_init(kernel, prog, ctx, wave, wg).map_err(RecompileError::Setup)?;
        self.b.store(status, self.initial_status, None, []).unwrap();
        // Each pass: the waves that run go on until they end or reach `s_barrier`; then every
        // wave's lane 0 posts its status to workgroup memory, one workgroup barrier, and every
        // invocation reads them all. Rows alternate between passes, so no second barrier is
        // needed before the next pass's posts: a wave cannot post to this row again before every
        // wave has passed the next pass's barrier, which follows its reads of this one.
        let zero = self.c32(0);
        let row = self.status_row;
        let lp = self.loop_begin();
        self.loop_enter(&lp, None);
        let (sh, sc, sm) = (lp.header, lp.cont, lp.merge);
        let st = self.b.load(u32t, None, status, None, []).unwrap();
        let running = self.c32(WAVE_RUNNING);
        let run = self.b.i_equal(boolt, None, st, running).unwrap();
        let mut sites = Vec::new();
        self.if_then(run, &mut |g: &mut Gen| {
            sites.extend(g.dispatch_loop(prog, cfg));
            let y = g.b.load(g.t.bool, None, g.yielded, None, []).unwrap();
            let (at, done) = (g.c32(WAVE_AT_BARRIER), g.c32(WAVE_DONE));
            let s = g.b.select(g.t.u32, None, y, at, done).unwrap();
            g.b.store(status, s, None, []).unwrap();
            let fl = g.b.constant_false(g.t.bool);
            g.b.store(g.yielded, fl, None, []).unwrap();
        });
        let nw = self.c32(self.waves);
        let r = self.b.load(u32t, None, row, None, []).unwrap();
        let first = self.b.i_mul(u32t, None, r, nw).unwrap();
        let lead = self.b.i_equal(boolt, None, lane, zero).unwrap();
        let st = self.b.load(u32t, None, status, None, []).unwrap();
        self.if_then(lead, &mut |g: &mut Gen| {
            let at = g.b.i_add(u32t, None, first, wave).unwrap();
            let ptr = g.lds_ptr_type();
            let p = g.b.access_chain(ptr, None, g.wave_status, [at]).unwrap();
            g.b.store(p, st, None, []).unwrap();
        });
        self.workgroup_barrier();
        // Whether any wave waits at the barrier.
        let at = self.c32(WAVE_AT_BARRIER);
        let mut any = self.b.constant_false(boolt);
        for w in 0..self.waves {
            let cw = self.c32(w);
            let i = self.b.i_add(u32t, None, first, cw).unwrap();
            let ptr = self.lds_ptr_type();
            let p = self.b.access_chain(ptr, None, self.wave_status, [i]).unwrap();
            let v = self.b.load(u32t, None, p, None, []).unwrap();
            let waiting = self.b.i_equal(boolt, None, v, at).unwrap();
            any = self.b.logical_or(boolt, None, any, waiting).unwrap();
        }
        let one = self.c32(1);
        let flipped = self.b.bitwise_xor(u32t, None, r, one).unwrap();
        self.b.store(row, flipped, None, []).unwrap();
        let released = self.b.i_equal(boolt, None, st, at).unwrap();
        let st = self.b.select(u32t, None, released, running, st).unwrap();
        self.b.store(status, st, None, []).unwrap();
        self.b.branch(sc).unwrap();
        self.b.begin_block(Some(sc)).unwrap();
        self.b.branch_conditional(any, sh, sm, []).unwrap();
        self.b.begin_block(Some(sm)).unwrap();
        Ok(sites)
    }

    /// Opens a structured loop: a branch to its new header block, where the caller may compute
    /// the condition to go on before [`Gen::loop_enter`].
    fn loop_begin(&mut self) -> LoopIds {
        let lp = LoopIds { header: self.b.id(), body: self.b.id(), cont: self.b.id(), merge: self.b.id() };
        self.b.branch(lp.header).unwrap();
        self.b.begin_block(Some(lp.header)).unwrap();
        lp
    }

    /// Declares the loop's merge and continue blocks and enters its body (while `go` holds,
    /// when given). The caller ends the body with a branch to `cont`, and the continue block
    /// with one back to `header` (or to `merge`).
    fn loop_enter(&mut self, lp: &LoopIds, go: Option<Word>) {
        self.b.loop_merge(lp.merge, lp.cont, spirv::LoopControl::NONE, []).unwrap();
        match go {
            Some(c) => self.b.branch_conditional(c, lp.body, lp.merge, []).unwrap(),
            None => self.b.branch(lp.body).unwrap(),
        }
        self.b.begin_block(Some(lp.body)).unwrap();
    }

    /// `if cond { body }` as a structured selection.
    fn if_then(&mut self, cond: Word, body: &mut dyn FnMut(&mut Gen)) {
        let (then, join) = (self.b.id(), self.b.id());
        self.b.selection_merge(join, spirv::SelectionControl::NONE).unwrap();
        self.b.branch_conditional(cond, then, join, []).unwrap();
        self.b.begin_block(Some(then)).unwrap();
        body(self);
        self.b.branch(join).unwrap();
        self.b.begin_block(Some(join)).unwrap();
    }

    /// `if cond { then } else { other }` as a structured selection whose value (of type `ty`)
    /// is the branch taken's.
    fn if_else_value<'a>(&mut self, cond: Word, ty: Word, then: &'a mut dyn FnMut(&mut Gen) -> Word, other: &'a mut dyn FnMut(&mut Gen) -> Word) -> Word {
        let incoming = self.selection(cond, then, other);
        self.b.phi(ty, &incoming)
    }

    /// `if cond { then } else { other }` as a structured selection.
    fn if_else<'a>(&mut self, cond: Word, then: &'a mut dyn FnMut(&mut Gen), other: &'a mut dyn FnMut(&mut Gen)) {
        self.selection(cond, &mut |g: &mut Gen| then(g), &mut |g: &mut Gen| other(g));
    }

    /// The two-way selection behind [`Gen::if_else`] and [`Gen::if_else_value`]: each body's
    /// result with the label of the block it ended in; the join block is open after it.
    fn selection<'a, T: Copy + Default>(&mut self, cond: Word, then: &'a mut dyn FnMut(&mut Gen) -> T, other: &'a mut dyn FnMut(&mut Gen) -> T) -> [(T, Word); 2] {
        let (t, e, join) = (self.b.id(), self.b.id(), self.b.id());
        self.b.selection_merge(join, spirv::SelectionControl::NONE).unwrap();
        self.b.branch_conditional(cond, t, e, []).unwrap();
        let mut ends = [(T::default(), 0); 2];
        for (i, (label, body)) in [(t, then), (e, other)].into_iter().enumerate() {
            self.b.begin_block(Some(label)).unwrap();
            let v = body(self);
            ends[i] = (v, self.b.current_label());
            self.b.branch(join).unwrap();
        }
        self.b.begin_block(Some(join)).unwrap();
        ends
    }

    /// A loop of `var` over 0..n (a u32 id), each iteration counted (see `count_iteration`).
    fn counted_loop(&mut self, var: Word, n: Word, body: &mut dyn FnMut(&mut Gen, Word) -> Lowered) -> Lowered {
        let zero = self.c32(0);
        self.b.store(var, zero, None, []).unwrap();
        let lp = self.loop_begin();
        let i = self.b.load(self.t.u32, None, var, None, []).unwrap();
        let more = self.b.u_less_than(self.t.bool, None, i, n).unwrap();
        self.loop_enter(&lp, Some(more));
        let result = body(self, i);
        self.b.branch(lp.cont).unwrap();
        self.b.begin_block(Some(lp.cont)).unwrap();
        let one = self.c32(1);
        let next = self.b.i_add(self.t.u32, None, i, one).unwrap();
        self.b.store(var, next, None, []).unwrap();
        self.count_iteration();
        self.b.branch(lp.header).unwrap();
        self.b.begin_block(Some(lp.merge)).unwrap();
        result
    }

    /// Zeroes LDS (the emulator's starts zeroed), 16 dwords per loop iteration.
    fn zero_lds(&mut self) {
        if self.lds_bytes == 0 {
            return;
        }
        let nd = self.lds_bytes.div_ceil(4);
        let n = self.c32(nd.div_ceil(16));
        let lds_ptr = self.lds_ptr_type();
        self.counted_loop(self.zero_var, n, &mut |g: &mut Gen, i: Word| {
            let c16 = g.c32(16);
            let base = g.b.i_mul(g.t.u32, None, i, c16).unwrap();
            let z = g.c32(0);
            for k in 0..16 {
                let ck = g.c32(k);
                let idx = g.b.i_add(g.t.u32, None, base, ck).unwrap();
                let limit = g.c32(nd);
                let inside = g.b.u_less_than(g.t.bool, None, idx, limit).unwrap();
                g.if_then(inside, &mut |g: &mut Gen| {
                    let p = g.b.access_chain(lds_ptr, None, g.lds, [idx]).unwrap();
                    g.b.store(p, z, None, []).unwrap();
                });
            }
            Ok(())
        })
        .expect("zeroing LDS cannot fail");
    }

    /// Subgroup model: LDS zeroed by all the workgroup's invocations (`flat`: this one's index),
    /// then a workgroup barrier.
    fn zero_lds_together(&mut self, flat: Word) {
        if self.lds_bytes == 0 {
            return;
        }
        let nd = self.lds_bytes.div_ceil(4);
        let all = self.waves * self.lanes;
        let n = self.c32(nd.div_ceil(all));
        let lds_ptr = self.lds_ptr_type();
        self.counted_loop(self.zero_var, n, &mut |g: &mut Gen, k: Word| {
            let ca = g.c32(all);
            let idx = g.b.i_mul(g.t.u32, None, k, ca).unwrap();
            let idx = g.b.i_add(g.t.u32, None, idx, flat).unwrap();
            let limit = g.c32(nd);
            let inside = g.b.u_less_than(g.t.bool, None, idx, limit).unwrap();
            g.if_then(inside, &mut |g: &mut Gen| {
                let p = g.b.access_chain(lds_ptr, None, g.lds, [idx]).unwrap();
                let z = g.c32(0);
                g.b.store(p, z, None, []).unwrap();
            });
            Ok(())
        })
        .expect("zeroing LDS cannot fail");
        let z = self.c32(0);
        let first = self.b.i_equal(self.t.bool, None, flat, z).unwrap();
        let (lock, zero) = (self.lds_lock, self.c32(0));
        self.if_then(first, &mut |g: &mut Gen| g.b.store(lock, zero, None, []).unwrap());
        self.workgroup_barrier();
    }

    /// Workgroup-wide values: ids, grid, sizes, push-constant fields.
    fn workgroup_setup(&mut self, [group_id, num_groups]: [Word; 2], wg: [u32; 3], waves: u32) -> WorkgroupCtx {
        let (u32t, u64t) = (self.t.u32, self.t.u64);
        let gid = self.b.load(self.t.v3u32, None, group_id, None, []).unwrap();
        let ngroups = self.b.load(self.t.v3u32, None, num_groups, None, []).unwrap();
        let gids: Vec<Word> = (0..3).map(|d| self.b.composite_extract(u32t, None, gid, [d]).unwrap()).collect();
        let n: Vec<Word> = (0..3).map(|d| self.b.composite_extract(u32t, None, ngroups, [d]).unwrap()).collect();
        let wide = |g: &mut Gen, x: Word| g.b.u_convert(u64t, None, x).unwrap();
        let (gx, gy, gz, nx, ny) = (wide(self, gids[0]), wide(self, gids[1]), wide(self, gids[2]), wide(self, n[0]), wide(self, n[1]));
        let zy = self.b.i_mul(u64t, None, gz, ny).unwrap();
        let zy = self.b.i_add(u64t, None, zy, gy).unwrap();
        let flat = self.b.i_mul(u64t, None, zy, nx).unwrap();
        let flat = self.b.i_add(u64t, None, flat, gx).unwrap();
        let cw = self.c64(waves as u64);
        let first_wave = self.b.i_mul(u64t, None, flat, cw).unwrap();
        let regs = self.push_u64(6);
        self.status = regs;
        self.arena = self.load_arena();
        if self.image_needed {
            self.image = self.push_u64(9);
        }
        let eight = self.c32(8);
        let p = self.b.access_chain(self.t.pc_u32, None, self.push, [eight]).unwrap();
        let kernarg_bytes = self.b.load(u32t, None, p, None, []).unwrap();
        self.kernarg = [self.push_u64(0), self.b.u_convert(u64t, None, kernarg_bytes).unwrap()];
        let seven = self.c32(7);
        let p = self.b.access_chain(self.t.pc_u32, None, self.push, [seven]).unwrap();
        self.iter_limit = self.b.load(self.t.u32, None, p, None, []).unwrap();
        // The lane loops' trip count comes from a push constant (it always equals the wave
        // size): with a constant bound drivers unroll 32 or 64 copies and lavapipe then takes
        // seconds to compile a kernel.
        let five = self.c32(5);
        let p = self.b.access_chain(self.t.pc_u32, None, self.push, [five]).unwrap();
        self.lane_count = self.b.load(self.t.u32, None, p, None, []).unwrap();
        let grid: Vec<Word> = (0..3)
            .map(|d| {
                let i = self.c32(2 + d);
                let p = self.b.access_chain(self.t.pc_u32, None, self.push, [i]).unwrap();
                self.b.load(u32t, None, p, None, []).unwrap()
            })
            .collect();
        // Work-items of this workgroup inside the grid, per dimension: min(wg, grid - id * wg).
        let size: Vec<Word> = (0..3)
            .map(|d| {
                let w = self.c32(wg[d]);
                let base = self.b.i_mul(u32t, None, gids[d], w).unwrap();
                let left = self.b.i_sub(u32t, None, grid[d], base).unwrap();
                self.gl(spirv::GLOp::UMin, u32t, &[left, w])
            })
            .collect();
        WorkgroupCtx { gids, size, first_wave, regs }
    }

    /// The arena's base, size, guest start, map address and granule shift, as u64s, from the
    /// push constants (see [`Gen::arena`]).
    fn load_arena(&mut self) -> [Word; 5] {
        let fourteen = self.c32(14);
        let p = self.b.access_chain(self.t.pc_u32, None, self.push, [fourteen]).unwrap();
        let shift = self.b.load(self.t.u32, None, p, None, []).unwrap();
        [self.push_u64(10), self.push_u64(11), self.push_u64(12), self.push_u64(13), self.b.u_convert(self.t.u64, None, shift).unwrap()]
    }

    fn push_u64(&mut self, member: u32) -> Word {
        let i = self.c32(member);
        let p = self.b.access_chain(self.t.pc_u64, None, self.push, [i]).unwrap();
        self.b.load(self.t.u64, None, p, None, []).unwrap()
    }

    /// Points the register accessors at wave `w` of this workgroup: its slot (saved SGPRs,
    /// SCC, state, status) and its VGPRs, `SLOT_BYTES` further on.
    fn select_wave(&mut self, ctx: &WorkgroupCtx, w: Word) {
        let u64t = self.t.u64;
        self.slot = self.wave_slot(ctx, w);
        if self.scratch > 0 {
            let so = self.c64(self.scratch_offset());
            self.scratch_base = self.b.i_add(u64t, None, self.slot, so).unwrap();
        }
        let sb = self.c64(SLOT_BYTES);
        self.vbase = self.b.i_add(u64t, None, self.slot, sb).unwrap();
    }

    /// The address of wave `w`'s slot (`w` within the workgroup).
    fn wave_slot(&mut self, ctx: &WorkgroupCtx, w: Word) -> Word {
        let u64t = self.t.u64;
        let wv = self.b.u_convert(u64t, None, w).unwrap();
        let g = self.b.i_add(u64t, None, ctx.first_wave, wv).unwrap();
        let per_wave = self.c64(self.wave_bytes());
        let off = self.b.i_mul(u64t, None, g, per_wave).unwrap();
        let skip = self.c64(crate::STATUS_BYTES);
        let off = self.b.i_add(u64t, None, off, skip).unwrap();
        self.b.i_add(u64t, None, ctx.regs, off).unwrap()
    }

    /// Device memory per wave: the slot, then (exact model) `vgprs × lanes` dwords and the
    /// spare row, then each lane's scratch.
    fn wave_bytes(&self) -> u64 {
        self.scratch_offset() + self.scratch as u64 * self.lanes as u64
    }

    /// Where the wave's scratch starts in its memory: after the slot and (exact model) the VGPRs.
    fn scratch_offset(&self) -> u64 {
        match self.model {
            WaveModel::Exact => SLOT_BYTES + (self.vgprs + self.spare_rows) as u64 * self.lanes as u64 * 4,
            // The VGPRs are each invocation's own.
            WaveModel::Subgroup => SLOT_BYTES,
        }
    }

    fn slot_addr(&mut self, dword: u32) -> Word {
        let o = self.c64(4 * dword as u64);
        self.b.i_add(self.t.u64, None, self.slot, o).unwrap()
    }

    fn slot_load(&mut self, dword: u32) -> Word {
        let a = self.slot_addr(dword);
        self.load_unguarded(a)
    }

    fn wr_slot(&mut self, dword: u32, v: Word) {
        let a = self.slot_addr(dword);
        self.store_unguarded(a, v);
    }

    /// The selected wave's SGPRs, SCC and state to its slot.
    fn save_wave(&mut self) {
        let live = self.live_sgprs;
        for r in (0..128u16).filter(|&r| live[r as usize]) {
            let v = self.rd_s(r);
            self.wr_slot(r as u32, v);
        }
        let c = self.rd_scc();
        let c = self.bool_to_u32(c);
        self.wr_slot(SLOT_SCC, c);
        let st = self.b.load(self.t.u32, None, self.state, None, []).unwrap();
        self.wr_slot(SLOT_STATE, st);
        self.clock_save(SLOT_CLOCK);
    }

    /// The selected wave's SGPRs, SCC and state from its slot.
    fn restore_wave(&mut self) {
        let live = self.live_sgprs;
        self.in_setup = true;
        for r in (0..128u16).filter(|&r| live[r as usize]) {
            let v = self.slot_load(r as u32);
            self.wr_s(r, v);
        }
        self.in_setup = false;
        let c = self.slot_load(SLOT_SCC);
        let z = self.c32(0);
        let c = self.b.i_not_equal(self.t.bool, None, c, z).unwrap();
        self.wr_scc(c);
        let st = self.slot_load(SLOT_STATE);
        self.b.store(self.state, st, None, []).unwrap();
        self.clock_restore(SLOT_CLOCK);
    }

    /// SGPRs from the kernel descriptor, work-item ids in v0–v2 (packed in v0 on gfx11), EXEC
    /// for the lanes inside the grid, and the status: a wave with no work-item in the grid does
    /// not run (as in the emulator).
    fn wave_init(&mut self, kernel: &Kernel, prog: &Program, ctx: &WorkgroupCtx, wave: Word, wg: [u32; 3]) -> Lowered {
        let (u32t, u64t) = (self.t.u32, self.t.u64);
        for (s, input) in kernel.kd.sgpr_inputs() {
            match input {
                SgprInput::KernargSegmentPtr => {
                    let a = self.push_u64(0);
                    self.in_setup = true;
                    self.wr_s64(s, a);
                    self.in_setup = false;
                }
                SgprInput::DispatchPtr => {
                    let a = self.push_u64(1);
                    self.wr_s64(s, a);
                }
                SgprInput::WorkgroupId(d) => self.wr_s(s, ctx.gids[d as usize]),
                // As the emulator sets them: a buffer resource whose base lies in the scratch
                // window (MUBUF accesses there reach the lane's scratch), the flat scratch
                // aperture, the size; the wave offset stays 0.
                SgprInput::PrivateSegmentBuffer => {
                    let base = self.c64(rdna_emu::wave::SCRATCH_BUFFER_BASE);
                    self.wr_s64(s, base);
                    let range = self.c64(0xffff_ffff);
                    self.wr_s64(s + 2, range);
                }
                SgprInput::FlatScratchInit => {
                    let a = self.c64((rdna_emu::wave::PRIVATE_APERTURE_HI as u64) << 32);
                    self.wr_s64(s, a);
                }
                SgprInput::PrivateSegmentSize => {
                    let n = self.c32(kernel.kd.private_segment_fixed_size);
                    self.wr_s(s, n);
                }
                // No scratch (refused above): the rest are zero.
                _ => {}
            }
        }
        let zero64 = self.c64(0);
        self.b.store(self.mask, zero64, None, []).unwrap();
        let gfx11 = prog.steps.first().is_some_and(|s| s.inst.gen == rdna_isa::Generation::Gfx11);
        let ids = kernel.kd.enable_vgpr_workitem_id();
        let lanes = self.lanes;
        let size = ctx.size.clone();
        self.lanes_loop(false, &mut |g: &mut Gen, lane: Word| {
            let t = g.t.u32;
            let nl = g.c32(lanes);
            let base = g.b.i_mul(t, None, wave, nl).unwrap();
            let flat = g.b.i_add(t, None, base, lane).unwrap();
            let (cx, cxy) = (g.c32(wg[0]), g.c32(wg[0] * wg[1]));
            let cy = g.c32(wg[1]);
            let x = g.b.u_mod(t, None, flat, cx).unwrap();
            let fy = g.b.u_div(t, None, flat, cx).unwrap();
            let y = g.b.u_mod(t, None, fy, cy).unwrap();
            let z = g.b.u_div(t, None, flat, cxy).unwrap();
            let cz = g.c32(wg[2]);
            let ok = [g.b.u_less_than(g.t.bool, None, x, size[0]).unwrap(), g.b.u_less_than(g.t.bool, None, y, size[1]).unwrap(), g.b.u_less_than(g.t.bool, None, z, size[2]).unwrap(), g.b.u_less_than(g.t.bool, None, z, cz).unwrap()];
            let mut all = ok[0];
            for &o in &ok[1..] {
                all = g.b.logical_and(g.t.bool, None, all, o).unwrap();
            }
            g.mask_set(lane, all);
            if gfx11 {
                let (c10, c20) = (g.c32(10), g.c32(20));
                let mut packed = x;
                if ids >= 1 {
                    let y10 = g.b.shift_left_logical(t, None, y, c10).unwrap();
                    packed = g.b.bitwise_or(t, None, packed, y10).unwrap();
                }
                if ids >= 2 {
                    let z20 = g.b.shift_left_logical(t, None, z, c20).unwrap();
                    packed = g.b.bitwise_or(t, None, packed, z20).unwrap();
                }
                g.wr_v(0, lane, packed)?;
            } else {
                g.wr_v(0, lane, x)?;
                if ids >= 1 {
                    g.wr_v(1, lane, y)?;
                }
                if ids >= 2 {
                    g.wr_v(2, lane, z)?;
                }
            }
            Ok(())
        })?;
        let m = self.b.load(u64t, None, self.mask, None, []).unwrap();
        self.wr_mask(EXEC, m);
        let entry = self.c32(0);
        self.b.store(self.state, entry, None, []).unwrap();
        let none = self.b.i_equal(self.t.bool, None, m, zero64).unwrap();
        let (done, running) = (self.c32(WAVE_DONE), self.c32(WAVE_RUNNING));
        let s = self.b.select(u32t, None, none, done, running).unwrap();
        // (The subgroup model keeps statuses in invocations and workgroup memory.)
        if self.model == WaveModel::Exact {
            self.wr_slot(SLOT_STATUS, s);
        }
        self.initial_status = s;
        self.hw_wave_init(wave);
        Ok(())
    }

    /// The selected wave's blocks, run until it ends, reaches a barrier or the run aborts;
    /// returns the sites that could not be lowered.
    fn dispatch_loop(&mut self, prog: &Program, cfg: &Cfg) -> Vec<Site> {
        let u32t = self.t.u32;
        let mut sites = Vec::new();
        // The kernel's blocks, then those of each function it calls.
        let all_blocks: Vec<usize> = cfg.functions.iter().flat_map(|f| f.blocks.iter().copied()).collect();
        let lp = self.loop_begin();
        self.loop_enter(&lp, None);
        let (header, cont, merge) = (lp.header, lp.cont, lp.merge);
        // Exact model: one selection per block, in order, each testing the state afresh: a block
        // runs right after the one that chose it when it comes later, so a pass of the loop often
        // runs several blocks (fewer loop iterations count against lavapipe's limit; see rdna-vk).
        // Subgroup model: a switch on the state enters the block at once, and a block falls
        // through to the next case when that is the one it chose (the chain's tests cost every
        // block a compare on every pass). A block with barriers is cut after each: the rest
        // resumes under a state of its own.
        let cases = self.dispatch_cases(prog, cfg, &all_blocks);
        let mut case = 0;
        let mut resume = cfg.blocks.len() as u32;
        let mut join = 0;
        if let Some(labels) = &cases {
            join = self.b.id();
            let st = self.b.load(u32t, None, self.state, None, []).unwrap();
            self.b.selection_merge(join, spirv::SelectionControl::NONE).unwrap();
            self.b.switch(st, join, labels.iter().copied()).unwrap();
        }
        for &bid in &all_blocks {
            match &cases {
                Some(labels) => {
                    self.b.begin_block(Some(labels[case].1)).unwrap();
                    case += 1;
                }
                None => join = self.open_case(bid as u32),
            }
            self.block_loops = 0;
            (self.args_intact, self.args_block_writes) = self.args_intact_at.get(bid).copied().unwrap_or_default();
            let blk = &cfg.blocks[bid];
            let mut run: Option<Run> = None;
            let mut region: Option<(rdna_ir::Builder, usize)> = None;
            let mut lane_region: Option<(rdna_ir::Builder, usize)> = None;
            for i in blk.first..=blk.last {
                let step = &prog.steps[i];
                self.count_step();
                // Steps that emit nothing stay inside a run.
                if matches!(step.kind, Kind::Nop | Kind::Branch(_) | Kind::EndPgm) || (step.kind == Kind::Barrier && !self.cuts_block(step)) {
                    continue;
                }
                // Scalar instructions gather into an IR region, lowered where it ends.
                if rdna_frontend::lift::lifts(step.kind) {
                    if let Some(r) = run.take() {
                        self.flush_lane_region(prog, &mut lane_region, &mut sites);
                        self.close_run(r.lp);
                    }
                    let r = region.get_or_insert_with(|| (rdna_ir::Builder::new(), i));
                    match rdna_frontend::lift::lift(&mut r.0, step, self.lanes, step.pc as u64) {
                        Ok(()) => self.through_ir += 1,
                        Err(reason) => sites.push(Site::at(prog, step, reason)),
                    }
                    continue;
                }
                if let Some((b, first)) = region.take() {
                    self.region(prog, b, first, &mut sites);
                }
                let access = lane_access(step, self.lanes);
                if run.as_ref().is_some_and(|r| !access.as_ref().is_some_and(|a| r.admits(a))) {
                    self.flush_lane_region(prog, &mut lane_region, &mut sites);
                    self.close_run(run.take().unwrap().lp);
                }
                if let Some(a) = access {
                    let r = run.get_or_insert_with(|| Run { lp: self.open_run(), reads: Vec::new(), masks: Vec::new(), width: (self.lanes / 32) as u16 });
                    r.add(a);
                }
                // Vector instructions lifted into the IR gather into a lane region inside the run
                // (outside one, a region of their own, with a loop of its own).
                if rdna_frontend::lift::lifts_lane(step) {
                    let r = lane_region.get_or_insert_with(|| (rdna_ir::Builder::per_lane(), i));
                    match rdna_frontend::lift::lift_lane(&mut r.0, step, self.lanes) {
                        Ok(()) => self.through_ir += 1,
                        Err(reason) => sites.push(Site::at(prog, step, reason)),
                    }
                    if run.is_none() {
                        self.flush_lane_region(prog, &mut lane_region, &mut sites);
                    }
                    continue;
                }
                self.flush_lane_region(prog, &mut lane_region, &mut sites);
                if self.cuts_block(step) {
                    self.clock_advance();
                    let r = self.c32(resume);
                    self.b.store(self.state, r, None, []).unwrap();
                    let t = self.b.constant_true(self.t.bool);
                    self.b.store(self.yielded, t, None, []).unwrap();
                    self.b.branch(join).unwrap();
                    match &cases {
                        Some(labels) => {
                            self.b.begin_block(Some(labels[case].1)).unwrap();
                            case += 1;
                        }
                        None => {
                            self.b.begin_block(Some(join)).unwrap();
                            join = self.open_case(resume);
                        }
                    }
                    resume += 1;
                    continue;
                }
                if let Err(reason) = self.step(step) {
                    sites.push(Site::at(prog, step, reason));
                }
            }
            if let Some(r) = run {
                self.flush_lane_region(prog, &mut lane_region, &mut sites);
                self.close_run(r.lp);
            }
            if let Some((b, first)) = region.take() {
                self.region(prog, b, first, &mut sites);
            }
            self.clock_advance();
            // A conditional exit's condition, which the back-edge count reuses.
            let mut branch_taken = None;
            let next = match blk.exit {
                Exit::Goto(t) => Some(self.c32(t as u32)),
                Exit::End => Some(self.c32(EXIT)),
                Exit::Branch { cond, taken, next } => {
                    let c = self.branch_cond(cond);
                    branch_taken = Some(c);
                    let (a, b) = (self.c32(taken as u32), self.c32(next as u32));
                    Some(self.b.select(u32t, None, c, a, b).unwrap())
                }
                Exit::Call { callee, .. } => Some(self.c32(callee as u32)),
                Exit::Return => match self.return_target(prog, cfg, &prog.steps[blk.last]) {
                    Ok(n) => Some(n),
                    Err(reason) => {
                        sites.push(Site::at(prog, &prog.steps[blk.last], reason));
                        None
                    }
                },
            };
            if let Some(n) = next {
                self.b.store(self.state, n, None, []).unwrap();
            }
            if self.model == WaveModel::Subgroup {
                self.count_back_edge(&blk.exit, bid as u32, next, branch_taken);
            }
            match cases.as_ref().and_then(|labels| labels.get(case)) {
                // Fall through to the next case when it is the state chosen (a call or a branch
                // to the block that follows).
                Some(&(id, label)) => {
                    let st = self.b.load(u32t, None, self.state, None, []).unwrap();
                    let me = self.c32(id);
                    let here = self.b.i_equal(self.t.bool, None, st, me).unwrap();
                    self.b.branch_conditional(here, label, join, []).unwrap();
                }
                None => {
                    self.b.branch(join).unwrap();
                    if cases.is_none() {
                        self.b.begin_block(Some(join)).unwrap();
                    }
                }
            }
        }
        if let Some(labels) = &cases {
            debug_assert_eq!(case, labels.len(), "dispatch_cases and dispatch_loop cut the blocks alike");
            self.b.begin_block(Some(join)).unwrap();
        }
        self.b.branch(cont).unwrap();
        self.b.begin_block(Some(cont)).unwrap();
        // Exact model: every pass counts (lavapipe counts the loop's iterations against its
        // limit). Subgroup model: only the block exits that may close a loop count
        // (`count_back_edge`), so the continue block is a plain test of the state.
        if self.model != WaveModel::Subgroup {
            self.count_iteration_checked();
        }
        let st = self.b.load(u32t, None, self.state, None, []).unwrap();
        let exit = self.c32(EXIT);
        let live = self.b.i_not_equal(self.t.bool, None, st, exit).unwrap();
        let y = self.b.load(self.t.bool, None, self.yielded, None, []).unwrap();
        let ny = self.b.logical_not(self.t.bool, None, y).unwrap();
        let go = self.b.logical_and(self.t.bool, None, live, ny).unwrap();
        self.b.branch_conditional(go, header, merge, []).unwrap();
        self.b.begin_block(Some(merge)).unwrap();
        sites
    }

    /// Lowers an IR region that began at step `first`: optimized, verified (a verifier error
    /// is a bug, reported at that step), emitted.
    fn region(&mut self, prog: &Program, b: rdna_ir::Builder, first: usize, sites: &mut Vec<Site>) {
        let body = rdna_ir::optimize(&b.finish());
        let emitted = match rdna_ir::verify(&body) {
            Ok(()) => self.emit_ir(&body),
            Err(e) => Err(format!("internal: {e}")),
        };
        if let Err(reason) = emitted {
            sites.push(Site::at(prog, &prog.steps[first], reason));
        }
    }

    /// Lowers the open lane region, if any (inside the run's loop, for its lane).
    fn flush_lane_region(&mut self, prog: &Program, lane_region: &mut Option<(rdna_ir::Builder, usize)>, sites: &mut Vec<Site>) {
        if let Some((b, first)) = lane_region.take() {
            self.region(prog, b, first, sites);
        }
    }

    /// The block a return (`s_setpc_b64` to a computed address) goes to: the return address is
    /// compared with every call's return point; any other address stops the run with
    /// [`crate::STATUS_BAD_JUMP`], as the emulator faults on a jump outside the kernel.
    fn return_target(&mut self, prog: &Program, cfg: &Cfg, st: &Step) -> Result<Word, String> {
        let (u32t, u64t) = (self.t.u32, self.t.u64);
        let to = self.src64(st.src[0], None)?;
        let base = self.c64(self.text_in_image);
        let start = self.b.i_add(u64t, None, self.image, base).unwrap();
        let off = self.b.i_sub(u64t, None, to, start).unwrap();
        let bad = self.c32(BAD_JUMP);
        let mut next = bad;
        for b in &cfg.blocks {
            if let Exit::Call { ret, .. } = b.exit {
                let pc = self.c64(prog.steps[cfg.blocks[ret].first].pc as u64);
                let hit = self.b.i_equal(self.t.bool, None, off, pc).unwrap();
                let id = self.c32(ret as u32);
                next = self.b.select(u32t, None, hit, id, next).unwrap();
            }
        }
        self.b.store(self.state, next, None, []).unwrap();
        let stray = self.b.i_equal(self.t.bool, None, next, bad).unwrap();
        self.if_then(stray, &mut |g: &mut Gen| g.fail(crate::STATUS_BAD_JUMP));
        Ok(self.b.load(u32t, None, self.state, None, []).unwrap())
    }

    /// The subgroup model's switch cases, in the order `dispatch_loop` emits them: each block's
    /// state, then a resume state per barrier that cuts it; each with its label. None in the
    /// exact model (a chain of selections, see `dispatch_loop`).
    fn dispatch_cases(&mut self, prog: &Program, cfg: &Cfg, blocks: &[usize]) -> Option<Vec<(u32, Word)>> {
        if self.model != WaveModel::Subgroup {
            return None;
        }
        let mut cases = Vec::new();
        let mut resume = cfg.blocks.len() as u32;
        for &bid in blocks {
            cases.push((bid as u32, self.b.id()));
            let blk = &cfg.blocks[bid];
            for step in &prog.steps[blk.first..=blk.last] {
                if self.cuts_block(step) {
                    cases.push((resume, self.b.id()));
                    resume += 1;
                }
            }
        }
        Some(cases)
    }

    /// Whether the dispatch loop cuts a block after this step: an `s_barrier` where the
    /// workgroup has several waves (with one it waits for nothing).
    fn cuts_block(&self, step: &Step) -> bool {
        step.kind == Kind::Barrier && self.waves > 1
    }

    /// Opens the selection that runs state `id` (unless the wave has yielded); returns its join.
    fn open_case(&mut self, id: u32) -> Word {
        let st = self.b.load(self.t.u32, None, self.state, None, []).unwrap();
        let me = self.c32(id);
        let here = self.b.i_equal(self.t.bool, None, st, me).unwrap();
        let y = self.b.load(self.t.bool, None, self.yielded, None, []).unwrap();
        let ny = self.b.logical_not(self.t.bool, None, y).unwrap();
        let here = self.b.logical_and(self.t.bool, None, here, ny).unwrap();
        let (label, join) = (self.b.id(), self.b.id());
        self.b.selection_merge(join, spirv::SelectionControl::NONE).unwrap();
        self.b.branch_conditional(here, label, join, []).unwrap();
        self.b.begin_block(Some(label)).unwrap();
        join
    }

    /// Stops the run: the status word says why, every loop ends. The first failure is the one
    /// the status names (lanes of several instructions share a loop, and a block runs to its end).
    fn fail(&mut self, status: u32) {
        let stopped = self.b.load(self.t.bool, None, self.abort, None, []).unwrap();
        let first = self.b.logical_not(self.t.bool, None, stopped).unwrap();
        self.if_then(first, &mut |g: &mut Gen| {
            let flag = g.c32(status);
            g.store_unguarded(g.status, flag);
        });
        let exit = self.c32(EXIT);
        self.b.store(self.state, exit, None, []).unwrap();
        let t = self.b.constant_true(self.t.bool);
        self.b.store(self.abort, t, None, []).unwrap();
    }



    /// `s_movrels/movreld_b32/b64` and `s_movrelsd_2_b32`, as the emulator runs them: the low
    /// 16 bits of M0 (for _2, its fields [9:0] and [25:16]) added to the source and/or
    /// destination SGPR number; a source past s127 reads 0, a destination past it (or NULL)
    /// is not written.
    fn sgpr_indexed_move(&mut self, st: &Step, op: Salu) -> Lowered {
        use Salu::*;
        let Src::Sgpr(r) = st.src[0] else {
            return match op {
                MovreldB32 | MovreldB64 => self.sgpr_indexed_write(st, op),
                _ => Err("s_movrels of a non-register source".into()),
            };
        };
        if matches!(op, MovreldB32 | MovreldB64) {
            return self.sgpr_indexed_write(st, op);
        }
        let u = self.t.u32;
        let m0 = self.rd_s(M0);
        let (src_off, dst_off) = if op == Movrelsd2B32 {
            let (m10, k16) = (self.c32(0x3ff), self.c32(16));
            let lo = self.b.bitwise_and(u, None, m0, m10).unwrap();
            let hi = self.b.shift_right_logical(u, None, m0, k16).unwrap();
            (lo, Some(self.b.bitwise_and(u, None, hi, m10).unwrap()))
        } else {
            let m16 = self.c32(0xffff);
            (self.b.bitwise_and(u, None, m0, m16).unwrap(), None)
        };
        // The register number wraps at 16 bits; the second word of a pair is the next one.
        let words = if op == MovrelsB64 { 2 } else { 1 };
        let base = self.c32(r as u32);
        let first = self.b.i_add(u, None, base, src_off).unwrap();
        let m16 = self.c32(0xffff);
        let first = self.b.bitwise_and(u, None, first, m16).unwrap();
        let mut vals = Vec::new();
        for k in 0..words {
            let kk = self.c32(k);
            let at = self.b.i_add(u, None, first, kk).unwrap();
            vals.push(self.rd_s_at(at));
        }
        match dst_off {
            None => {
                for (k, v) in vals.into_iter().enumerate() {
                    self.wr_s(st.dst + k as u16, v);
                }
            }
            Some(off) => {
                let base = self.c32(st.dst as u32);
                let at = self.b.i_add(u, None, base, off).unwrap();
                self.wr_s_at(at, vals[0]);
            }
        }
        Ok(())
    }

    /// `s_movreld_b32/b64`: the source written to SDST + M0[15:0] (each word guarded).
    fn sgpr_indexed_write(&mut self, st: &Step, op: Salu) -> Lowered {
        let u = self.t.u32;
        let words = if op == Salu::MovreldB64 { 2 } else { 1 };
        let v = if words == 2 { Some(self.src64(st.src[0], None)?) } else { None };
        let vals = match v {
            Some(v) => {
                let (lo, hi) = self.split64(v);
                vec![lo, hi]
            }
            None => vec![self.src32(st.src[0], None)?],
        };
        let m0 = self.rd_s(M0);
        let m16 = self.c32(0xffff);
        let off = self.b.bitwise_and(u, None, m0, m16).unwrap();
        let base = self.c32(st.dst as u32);
        let at = self.b.i_add(u, None, base, off).unwrap();
        let at = self.b.bitwise_and(u, None, at, m16).unwrap();
        // A 64-bit write whose first register is NULL writes neither word.
        let null = self.c32(NULL as u32);
        let first_null = self.b.i_equal(self.t.bool, None, at, null).unwrap();
        for (k, v) in vals.into_iter().enumerate() {
            let kk = self.c32(k as u32);
            let r = self.b.i_add(u, None, at, kk).unwrap();
            let keep = self.rd_s_at(r);
            let v = if words == 2 { self.b.select(u, None, first_null, keep, v).unwrap() } else { v };
            self.wr_s_at(r, v);
        }
        Ok(())
    }

    /// The SGPR whose number is the value `r` (a u32): 0 past s127.
    fn rd_s_at(&mut self, r: Word) -> Word {
        let (u, boolt) = (self.t.u32, self.t.bool);
        let top = self.c32(127);
        let inside = self.b.u_less_than_equal(boolt, None, r, top).unwrap();
        let at = self.gl(spirv::GLOp::UMin, u, &[r, top]);
        let p = self.b.access_chain(self.t.fn_u32, None, self.s, [at]).unwrap();
        let v = self.b.load(u, None, p, None, []).unwrap();
        let z = self.c32(0);
        self.b.select(u, None, inside, v, z).unwrap()
    }

    /// Writes the SGPR whose number is the value `r` (a u32), unless it is past s127 or NULL.
    fn wr_s_at(&mut self, r: Word, v: Word) {
        let (u, boolt) = (self.t.u32, self.t.bool);
        let top = self.c32(127);
        let inside = self.b.u_less_than_equal(boolt, None, r, top).unwrap();
        let null = self.c32(NULL as u32);
        let not_null = self.b.i_not_equal(boolt, None, r, null).unwrap();
        let ok = self.b.logical_and(boolt, None, inside, not_null).unwrap();
        let at = self.gl(spirv::GLOp::UMin, u, &[r, top]);
        let p = self.b.access_chain(self.t.fn_u32, None, self.s, [at]).unwrap();
        let old = self.b.load(u, None, p, None, []).unwrap();
        let v = self.b.select(u, None, ok, v, old).unwrap();
        self.b.store(p, v, None, []).unwrap();
    }

    fn branch_cond(&mut self, c: BranchIf) -> Word {
        let z = self.c64(0);
        match c {
            BranchIf::Always => self.b.constant_true(self.t.bool),
            BranchIf::Scc0 => {
                let s = self.rd_scc();
                self.b.logical_not(self.t.bool, None, s).unwrap()
            }
            BranchIf::Scc1 => self.rd_scc(),
            BranchIf::Vccz | BranchIf::Vccnz => {
                let m = self.rd_mask(VCC);
                if c == BranchIf::Vccz { self.b.i_equal(self.t.bool, None, m, z).unwrap() } else { self.b.i_not_equal(self.t.bool, None, m, z).unwrap() }
            }
            BranchIf::Execz | BranchIf::Execnz => {
                let m = self.exec();
                if c == BranchIf::Execz { self.b.i_equal(self.t.bool, None, m, z).unwrap() } else { self.b.i_not_equal(self.t.bool, None, m, z).unwrap() }
            }
        }
    }

    // ---- instructions ----

    fn step(&mut self, st: &Step) -> Lowered {
        support::supports(st.kind, st.inst.format)?;
        match st.kind {
            Kind::Nop | Kind::Branch(_) | Kind::EndPgm => Ok(()),
            // gfx11 kernels end with MSG_DEALLOC_VGPRS, a hint with no effect (as in the emulator).
            Kind::Sendmsg => match st.src[0] {
                Src::Const(m) if m & 0xf == 3 => Ok(()),
                _ => Err("s_sendmsg other than MSG_DEALLOC_VGPRS is not recompiled".into()),
            },
            // Several waves: cut there by `dispatch_loop`; one wave has nothing to wait for.
            Kind::Barrier => Ok(()),
            Kind::Ds(k) => self.ds(st, k),
            // Hints and exception-state clears with no effect a kernel can see (as in the emulator).
            Kind::Valu(VOp::Nop | VOp::Pipeflush | VOp::Clrexcp) => Ok(()),
            Kind::Valu(op) => self.valu(st, op),
            Kind::Salu(op @ (Salu::MovrelsB32 | Salu::MovrelsB64 | Salu::MovreldB32 | Salu::MovreldB64 | Salu::Movrelsd2B32)) => self.sgpr_indexed_move(st, op),
            Kind::Salu(op @ (Salu::Memtime | Salu::Memrealtime | Salu::SendmsgRtnB32 | Salu::SendmsgRtnB64 | Salu::GetregB32 | Salu::DenormMode | Salu::RoundMode)) => self.hw_state(st, op),
            Kind::Vcmp { ty, cond, x } => self.vcmp(st, ty, cond, x),
            Kind::Mem(MemKind::Addtid { store }) => self.global_addtid(st, store),
            Kind::Mem(MemKind::Format { store, comps, d16, hi }) => self.typed_buffer(st, store, comps, d16, hi),
            Kind::Mem(k) if matches!(st.inst.format, Format::Global | Format::Scratch | Format::Mubuf | Format::Flat) => self.global(st, k),
            Kind::Mem(_) => Err("internal: admitted by `supports` without a lowering".into()),
            // Lifted into IR regions by `dispatch_loop`.
            Kind::Salu(_) | Kind::SLogic { .. } | Kind::SaveExec { .. } | Kind::Smem(_) => Err("internal: a scalar operation outside an IR region".into()),
            Kind::VcmpClass { ty, x } => self.vcmp_class(st, ty, x),
            // Lifted into lane regions by `dispatch_loop` when both halves are.
            Kind::Vopd => Err((0..2)
                .map(|y| st.inst.vopd_half(y == 1).0)
                .find(|name| rdna_frontend::lift::vopd_op(name).is_none())
                .map_or_else(|| "internal: a VOPD instruction outside a lane region".to_string(), |name| format!("VOPD operation {name} is not recompiled yet"))),
            Kind::Invalid(_) | Kind::Unsupported(_) => Err("internal: admitted by `supports` without a lowering".into()),
        }
    }

    /// The operands of a vector memory access that do not depend on the lane (see `vmem_addr`).
    fn vmem_place(&mut self, st: &Step, bytes: u32) -> Result<Place, String> {
        let raw = st.inst.raw;
        let f = st.inst.format;
        let g11 = st.inst.gen == rdna_isa::Generation::Gfx11;
        let vaddr = (raw >> 32 & 0xff) as u16;
        if matches!(f, Format::Mubuf | Format::Mtbuf) {
            if (f == Format::Mubuf && !g11 && raw >> 16 & 1 != 0) || raw >> (if g11 { 53 } else { 55 }) & 1 != 0 {
                return Err("buffer lds/tfe forms are not recompiled yet".into());
            }
            let srsrc = ((raw >> 48 & 0x1f) * 4) as u16;
            let rs: Vec<Word> = (0..4).map(|i| self.rd_s(srsrc + i)).collect();
            let soffset = st.inst.field(Field::Soffset);
            let soff = if soffset == NULL { self.c32(0) } else { self.src32(rdna_emu::program::operand(soffset, rdna_isa::ImmTy::B32, 1, st.inst.literal), None)? };
            let (offen, idxen) = if g11 { (raw >> 54 & 1 != 0, raw >> 55 & 1 != 0) } else { (raw >> 12 & 1 != 0, raw >> 13 & 1 != 0) };
            return Ok(Place::Buffer { rs: [rs[0], rs[1], rs[2], rs[3]], soff, offset: (raw & 0xfff) as u32, offen, idxen, vaddr, bytes, size: None });
        }
        if !g11 && raw >> 13 & 1 != 0 {
            return Err("loads into LDS are not recompiled yet".into());
        }
        // GLOBAL and SCRATCH offsets are signed, FLAT ones unsigned: 12 bits on gfx10, 13 on gfx11.
        let ow = if g11 { 13 } else { 12 };
        let off = (raw & ((1 << ow) - 1)) as u32;
        if f == Format::Flat {
            return Ok(Place::Flat { vaddr, offset: off as u64, bytes });
        }
        let offset = ((off << (32 - ow)) as i32 >> (32 - ow)) as i64;
        let saddr = st.inst.field(Field::Saddr);
        if f == Format::Global {
            let sbase = if saddr != NULL && saddr < 128 { Some(self.rd_s64(saddr)) } else { None };
            return Ok(Place::Global { sbase, vaddr, offset });
        }
        // SCRATCH: gfx11 adds the VGPR (when SVE is set) and the SGPR; gfx10 takes one of them.
        let sgpr = if saddr != NULL && saddr < 128 { Some(self.rd_s(saddr)) } else { None };
        let with_v = if g11 { raw >> 55 & 1 != 0 } else { sgpr.is_none() };
        Ok(Place::Scratch { sgpr, vgpr: with_v.then_some(vaddr), offset: offset as u32, bytes })
    }

    /// A FLAT access's 64-bit address: the VGPR pair plus the (unsigned) offset.
    fn flat_address(&mut self, vaddr: u16, offset: u64, lane: Word) -> Result<Word, String> {
        let (lo, hi) = (self.rd_v(vaddr, lane)?, self.rd_v(vaddr + 1, lane)?);
        let a = self.join64(lo, hi);
        let o = self.c64(offset);
        Ok(self.b.i_add(self.t.u64, None, a, o).unwrap())
    }

    /// Whether a FLAT address is in the shared aperture, and its LDS byte address.
    fn flat_lds_address(&mut self, vaddr: u16, offset: u64, lane: Word) -> Result<(Word, Word), String> {
        let a = self.flat_address(vaddr, offset, lane)?;
        let (lo, hi) = self.split64(a);
        let shared = self.c32(rdna_emu::wave::SHARED_APERTURE_HI);
        Ok((self.b.i_equal(self.t.bool, None, hi, shared).unwrap(), lo))
    }

    /// Where one lane's access goes.
    fn vmem_addr(&mut self, p: &Place, lane: Word) -> Result<Target, String> {
        let (u, u64t, boolt) = (self.t.u32, self.t.u64, self.t.bool);
        match *p {
            Place::Global { sbase, vaddr, offset } => {
                let base = match sbase {
                    Some(s) => {
                        let v = self.rd_v(vaddr, lane)?;
                        let v = self.b.u_convert(u64t, None, v).unwrap();
                        self.b.i_add(u64t, None, s, v).unwrap()
                    }
                    None => {
                        let (lo, hi) = (self.rd_v(vaddr, lane)?, self.rd_v(vaddr + 1, lane)?);
                        self.join64(lo, hi)
                    }
                };
                let o = self.c64(offset as u64);
                Ok(Target { addr: self.b.i_add(u64t, None, base, o).unwrap(), live: None, lds: None })
            }
            Place::Scratch { sgpr, vgpr, offset, bytes } => {
                let mut a = self.c32(offset);
                if let Some(v) = vgpr {
                    let v = self.rd_v(v, lane)?;
                    a = self.b.i_add(u, None, a, v).unwrap();
                }
                if let Some(s) = sgpr {
                    a = self.b.i_add(u, None, a, s).unwrap();
                }
                Ok(Target { addr: self.scratch_addr(a, bytes, lane), live: None, lds: None })
            }
            Place::Buffer { rs, soff, offset, offen, idxen, vaddr, bytes, size } => {
                // As `rdna_emu::vmem`: base (48 bits), stride, records and add_tid from the
                // resource; offset = VGPR offset + instruction offset; index = VGPR index
                // (+ lane); out of range by bytes (stride 0) or by index.
                let c = |g: &mut Gen, v: u32| g.c32(v);
                let wide = |g: &mut Gen, v: Word| g.b.u_convert(u64t, None, v).unwrap();
                let m16 = c(self, 0xffff);
                let hi = self.b.bitwise_and(u, None, rs[1], m16).unwrap();
                let base = self.join64(rs[0], hi);
                let c16 = c(self, 16);
                let stride = self.b.shift_right_logical(u, None, rs[1], c16).unwrap();
                let m14 = c(self, 0x3fff);
                let stride = self.b.bitwise_and(u, None, stride, m14).unwrap();
                let (c23, one) = (c(self, 23), c(self, 1));
                let tid = self.b.shift_right_logical(u, None, rs[3], c23).unwrap();
                let tid = self.b.bitwise_and(u, None, tid, one).unwrap();
                let mut index = if idxen { let v = self.rd_v(vaddr, lane)?; wide(self, v) } else { self.c64(0) };
                let add = self.b.i_mul(u, None, tid, lane).unwrap();
                let add = wide(self, add);
                index = self.b.i_add(u64t, None, index, add).unwrap();
                let voff = if offen { let v = self.rd_v(vaddr + idxen as u16, lane)?; wide(self, v) } else { self.c64(0) };
                let io = self.c64(offset as u64);
                let off = self.b.i_add(u64t, None, voff, io).unwrap();
                let records = wide(self, rs[2]);
                let stride = wide(self, stride);
                let z64 = self.c64(0);
                let no_stride = self.b.i_equal(boolt, None, stride, z64).unwrap();
                let size = match size {
                    Some(s) => wide(self, s),
                    None => self.c64(bytes as u64),
                };
                let end = self.b.i_add(u64t, None, off, size).unwrap();
                let oob_bytes = self.b.u_greater_than(boolt, None, end, records).unwrap();
                let oob_index = self.b.u_greater_than_equal(boolt, None, index, records).unwrap();
                let oob = self.b.select(boolt, None, no_stride, oob_bytes, oob_index).unwrap();
                let soff = wide(self, soff);
                let a = self.b.i_add(u64t, None, base, soff).unwrap();
                let a = self.b.i_add(u64t, None, a, off).unwrap();
                let si = self.b.i_mul(u64t, None, stride, index).unwrap();
                let a = self.b.i_add(u64t, None, a, si).unwrap();
                // The scratch window: [SCRATCH_BUFFER_BASE, + 4 GiB).
                let sb = self.c64(rdna_emu::wave::SCRATCH_BUFFER_BASE);
                let rel = self.b.i_sub(u64t, None, a, sb).unwrap();
                let win = self.c64(1 << 32);
                let in_window = self.b.u_less_than(boolt, None, rel, win).unwrap();
                let rel32 = self.b.u_convert(u, None, rel).unwrap();
                let s_addr = self.scratch_addr_if(rel32, size, lane, in_window);
                let addr = self.b.select(u64t, None, in_window, s_addr, a).unwrap();
                let live = self.b.logical_not(boolt, None, oob).unwrap();
                Ok(Target { addr, live: Some(live), lds: None })
            }
            Place::Flat { vaddr, offset, bytes } => {
                // As `rdna_emu::vmem::flat_loc`: the address's high half picks LDS, scratch or
                // global memory.
                let a = self.flat_address(vaddr, offset, lane)?;
                let (lo, hi) = self.split64(a);
                let (shared, private) = (self.c32(rdna_emu::wave::SHARED_APERTURE_HI), self.c32(rdna_emu::wave::PRIVATE_APERTURE_HI));
                let is_lds = self.b.i_equal(boolt, None, hi, shared).unwrap();
                let is_private = self.b.i_equal(boolt, None, hi, private).unwrap();
                let n = self.c64(bytes as u64);
                let s_addr = self.scratch_addr_if(lo, n, lane, is_private);
                let addr = self.b.select(u64t, None, is_private, s_addr, a).unwrap();
                Ok(Target { addr, live: None, lds: Some((is_lds, lo)) })
            }
        }
    }

    /// The device address of lane `lane`'s scratch bytes [a, a + n); outside the private
    /// segment the run stops (as the emulator faults) and the address is the lane's byte 0.
    fn scratch_addr(&mut self, a: Word, n: u32, lane: Word) -> Word {
        let t = self.b.constant_true(self.t.bool);
        let n = self.c64(n as u64);
        self.scratch_addr_if(a, n, lane, t)
    }

    /// [`Gen::scratch_addr`] where `when` holds (a buffer access in the scratch window), for
    /// `n` (a u64 id) bytes.
    fn scratch_addr_if(&mut self, a: Word, n: Word, lane: Word, when: Word) -> Word {
        let (u64t, boolt) = (self.t.u64, self.t.bool);
        if self.scratch == 0 {
            // No private segment: every scratch access is out of bounds.
            self.if_then(when, &mut |g: &mut Gen| g.fail(crate::STATUS_SCRATCH_OUT_OF_BOUNDS));
            return self.slot;
        }
        let a64 = self.b.u_convert(u64t, None, a).unwrap();
        let end = self.b.i_add(u64t, None, a64, n).unwrap();
        let size = self.c64(self.scratch as u64);
        let out = self.b.u_greater_than(boolt, None, end, size).unwrap();
        let fault = self.b.logical_and(boolt, None, out, when).unwrap();
        self.if_then(fault, &mut |g: &mut Gen| g.fail(crate::STATUS_SCRATCH_OUT_OF_BOUNDS));
        let z = self.c64(0);
        let a64 = self.b.select(u64t, None, out, z, a64).unwrap();
        let l = self.b.u_convert(u64t, None, lane).unwrap();
        let per = self.c64(self.scratch as u64);
        let lo = self.b.i_mul(u64t, None, l, per).unwrap();
        let base = self.b.i_add(u64t, None, self.scratch_base, lo).unwrap();
        self.b.i_add(u64t, None, base, a64).unwrap()
    }

    /// `global_load/store_dword_addtid`: SADDR (or 0 for NULL) + offset + 4 × lane, one
    /// dword per enabled lane, as the emulator runs them.
    fn global_addtid(&mut self, st: &Step, store: bool) -> Lowered {
        let raw = st.inst.raw;
        let u64t = self.t.u64;
        let saddr = st.inst.field(Field::Saddr);
        let base = if saddr == NULL { self.c64(0) } else { self.rd_s64(saddr) };
        let offset = self.c64((((raw & 0xfff) << 20) as u32 as i32 >> 20) as i64 as u64);
        let base = self.b.i_add(u64t, None, base, offset).unwrap();
        let reg = (if store { raw >> 40 } else { raw >> 56 } & 0xff) as u16;
        self.lanes_loop(true, &mut |g: &mut Gen, lane: Word| {
            let l = g.b.u_convert(u64t, None, lane).unwrap();
            let four = g.c64(4);
            let at = g.b.i_mul(u64t, None, l, four).unwrap();
            let a = g.b.i_add(u64t, None, base, at).unwrap();
            if store {
                let v = g.rd_v(reg, lane)?;
                g.store_global(a, v);
                Ok(())
            } else {
                let v = g.load_global(a);
                g.wr_v(reg, lane, v)
            }
        })
    }

    /// `addr` where the `bytes` from it are the dispatch's memory ([`crate::Arena`]: registers
    /// and wave state, or mapped guest memory, the argument segment among it); else the run
    /// stops with `STATUS_MEMORY_OUT_OF_BOUNDS` and the access goes to a sink past the arena, so
    /// no access strays. (Recording the fault and reporting it where the block ends, so that the
    /// access need not wait for the bitmap, was measured on an H100: 5–28% slower, the kernels
    /// being bound by instructions issued rather than by memory latency.)
    fn guard(&mut self, addr: Word, bytes: u32) -> Word {
        let ok = self.mapped(addr, bytes);
        let bad = self.b.logical_not(self.t.bool, None, ok).unwrap();
        self.if_then(bad, &mut |g: &mut Gen| g.fail(crate::STATUS_MEMORY_OUT_OF_BOUNDS));
        self.or_sink(ok, addr)
    }

    /// [`Gen::guard`] for a scalar access: inside the argument segment (one compare, no memory
    /// read, a uniform branch), where scalar loads mostly go, the bitmap is not read.
    fn guard_scalar(&mut self, addr: Word, bytes: u32) -> Word {
        let (u64t, boolt) = (self.t.u64, self.t.bool);
        let [kernarg, kernarg_bytes] = self.kernarg;
        let rel = self.b.i_sub(u64t, None, addr, kernarg).unwrap();
        let starts_inside = self.b.u_less_than(boolt, None, rel, kernarg_bytes).unwrap();
        let room = self.b.i_sub(u64t, None, kernarg_bytes, rel).unwrap();
        let n = self.c64(bytes as u64);
        let fits = self.b.u_greater_than_equal(boolt, None, room, n).unwrap();
        let in_args = self.b.logical_and(boolt, None, starts_inside, fits).unwrap();
        self.b.store(self.guard_ok, in_args, None, []).unwrap();
        let elsewhere = self.b.logical_not(boolt, None, in_args).unwrap();
        self.if_then(elsewhere, &mut |g: &mut Gen| {
            let ok = g.mapped(addr, bytes);
            g.b.store(g.guard_ok, ok, None, []).unwrap();
            let bad = g.b.logical_not(boolt, None, ok).unwrap();
            g.if_then(bad, &mut |g: &mut Gen| g.fail(crate::STATUS_MEMORY_OUT_OF_BOUNDS));
        });
        let ok = self.b.load(boolt, None, self.guard_ok, None, []).unwrap();
        self.or_sink(ok, addr)
    }

    /// `addr` where `ok`, else the 16 bytes right after the arena, kept for refused accesses.
    fn or_sink(&mut self, ok: Word, addr: Word) -> Word {
        let [base, size, ..] = self.arena;
        let sink = self.b.i_add(self.t.u64, None, base, size).unwrap();
        self.b.select(self.t.u64, None, ok, addr, sink).unwrap()
    }

    /// Whether the `bytes` at `addr` are the arena's registers and wave state, or mapped guest
    /// memory: a function of the module, one per access size, called at every check (about 45
    /// instructions written once instead of at each of a module's accesses; 12% of the corpus's
    /// SPIR-V was these checks).
    fn mapped(&mut self, addr: Word, bytes: u32) -> Word {
        let (boolt, u64t) = (self.t.bool, self.t.u64);
        self.call_helper(Helper::Mapped(bytes), boolt, u64t, &[addr], |g, p| {
            // The entry's loads of the arena's limits are not visible in another function.
            let outer = g.arena;
            g.arena = g.load_arena();
            let ok = g.mapped_here(p[0], bytes);
            g.arena = outer;
            ok
        })
    }

    /// [`Gen::mapped`], written here: the bitmap's bits of the first and last granule.
    fn mapped_here(&mut self, addr: Word, bytes: u32) -> Word {
        let (u32t, u64t, boolt) = (self.t.u32, self.t.u64, self.t.bool);
        let [base, size, guest, map, shift] = self.arena;
        let off = self.b.i_sub(u64t, None, addr, base).unwrap();
        let n = self.c64(bytes as u64);
        let limit = self.b.i_sub(u64t, None, size, n).unwrap();
        let in_arena = self.b.u_less_than_equal(boolt, None, off, limit).unwrap();
        let end = self.b.i_add(u64t, None, off, n).unwrap();
        let in_regs = self.b.u_less_than_equal(boolt, None, end, guest).unwrap();
        // The guest granules of the first and last byte (0 where not a guest access, so the
        // bitmap reads stay inside it).
        let not_regs = self.b.logical_not(boolt, None, in_regs).unwrap();
        let is_guest = self.b.logical_and(boolt, None, in_arena, not_regs).unwrap();
        let g = self.b.i_sub(u64t, None, off, guest).unwrap();
        let z = self.c64(0);
        let g0 = self.b.select(u64t, None, is_guest, g, z).unwrap();
        let last = self.c64(bytes as u64 - 1);
        let g1 = self.b.i_add(u64t, None, g0, last).unwrap();
        let mut mapped = self.b.constant_true(boolt);
        for gi in [g0, g1] {
            let i = self.b.shift_right_logical(u64t, None, gi, shift).unwrap();
            let c5 = self.c64(5);
            let word = self.b.shift_right_logical(u64t, None, i, c5).unwrap();
            let four = self.c64(4);
            let wo = self.b.i_mul(u64t, None, word, four).unwrap();
            let wa = self.b.i_add(u64t, None, map, wo).unwrap();
            let wp = self.b.convert_u_to_ptr(self.t.psb_u32, None, wa).unwrap();
            let w = self.b.load(u32t, None, wp, Some(spirv::MemoryAccess::ALIGNED), [Operand::LiteralBit32(4)]).unwrap();
            let i32_ = self.b.u_convert(u32t, None, i).unwrap();
            let c31 = self.c32(31);
            let bit = self.b.bitwise_and(u32t, None, i32_, c31).unwrap();
            let w = self.b.shift_right_logical(u32t, None, w, bit).unwrap();
            let one = self.c32(1);
            let w = self.b.bitwise_and(u32t, None, w, one).unwrap();
            let set = self.b.i_equal(boolt, None, w, one).unwrap();
            mapped = self.b.logical_and(boolt, None, mapped, set).unwrap();
        }
        let ok_guest = self.b.logical_or(boolt, None, in_regs, mapped).unwrap();
        let ok = self.b.logical_and(boolt, None, in_arena, ok_guest).unwrap();
        ok
    }
    fn load_global(&mut self, addr: Word) -> Word {
        let addr = self.guard(addr, 4);
        self.load_unguarded(addr)
    }

    /// The argument segment's dword at `offset` (see [`Gen::args_offset`]): read without a
    /// check where the kernel descriptor declares the segment to hold it (the runtime refuses a
    /// dispatch with fewer argument bytes than [`crate::Compiled::argument_bytes_read`]).
    fn load_argument(&mut self, offset: u64) -> Word {
        let declared = self.args.map_or(0, |(_, n)| n as u64);
        let o = self.c64(offset);
        let addr = self.b.i_add(self.t.u64, None, self.kernarg[0], o).unwrap();
        if offset % 4 != 0 || offset + 4 > declared {
            return self.load_scalar(addr);
        }
        self.args_read_end = self.args_read_end.max(offset as u32 + 4);
        self.load_unguarded(addr)
    }

    /// A scalar dword load ([`Gen::guard_scalar`]).
    fn load_scalar(&mut self, addr: Word) -> Word {
        let addr = self.guard_scalar(addr, 4);
        self.load_unguarded(addr)
    }

    /// A dword load from an address the recompiler computed inside the wave's own state.
    fn load_unguarded(&mut self, addr: Word) -> Word {
        self.touched_memory = true;
        let p = self.b.convert_u_to_ptr(self.t.psb_u32, None, addr).unwrap();
        self.b.load(self.t.u32, None, p, Some(spirv::MemoryAccess::ALIGNED), [Operand::LiteralBit32(4)]).unwrap()
    }

    fn store_global(&mut self, addr: Word, v: Word) {
        let addr = self.guard(addr, 4);
        self.store_unguarded(addr, v);
    }

    /// A scalar dword store ([`Gen::guard_scalar`]).
    fn store_scalar(&mut self, addr: Word, v: Word) {
        let addr = self.guard_scalar(addr, 4);
        self.store_unguarded(addr, v);
    }

    /// A dword store to an address the recompiler computed inside the wave's own state (its
    /// slot, the status word).
    fn store_unguarded(&mut self, addr: Word, v: Word) {
        self.touched_memory = true;
        let p = self.b.convert_u_to_ptr(self.t.psb_u32, None, addr).unwrap();
        self.b.store(p, v, Some(spirv::MemoryAccess::ALIGNED), [Operand::LiteralBit32(4)]).unwrap();
    }

    /// One lane's atomic at `addr` (device scope, relaxed, as AMD's are); data from `vdata`
    /// (cmpswap: new value, then the compare value); returns the old value.
    fn global_atomic(&mut self, addr: Word, op: rdna_emu::sem::Atomic, x2: bool, vdata: u16, lane: Word) -> Result<Word, String> {
        self.touched_memory = true;
        use rdna_emu::sem::Atomic::*;
        use spirv::Op as O;
        let (ty, ptr_ty) = if x2 {
            self.b.capability(Capability::Int64Atomics);
            let u64t = self.t.u64;
            (u64t, self.cached_type(valu::CachedType::PsbU64Ptr, |b| b.type_pointer(None, StorageClass::PhysicalStorageBuffer, u64t)))
        } else {
            (self.t.u32, self.t.psb_u32)
        };
        let read = |g: &mut Gen, r: u16| -> Result<Word, String> {
            if x2 {
                let (lo, hi) = (g.rd_v(r, lane)?, g.rd_v(r + 1, lane)?);
                Ok(g.join64(lo, hi))
            } else {
                g.rd_v(r, lane)
            }
        };
        let data = read(self, vdata)?;
        let addr = self.guard(addr, if x2 { 8 } else { 4 });
        let p = self.b.convert_u_to_ptr(ptr_ty, None, addr).unwrap();
        let scope = self.c32(spirv::Scope::Device as u32);
        let relaxed = self.c32(0);
        if !matches!(op, Swap | CmpSwap | Add | Sub | SMin | SMax | UMin | UMax | And | Or | Xor) {
            // No SPIR-V atomic does this: a compare-exchange loop around the emulator's
            // read-modify-write (`atomic_apply`), until no other lane got in between.
            let data2 = if op == FCmpSwap { read(self, vdata + if x2 { 2 } else { 1 })? } else { data };
            let u64t = self.t.u64;
            let wide = |g: &mut Gen, v: Word| if x2 { v } else { g.b.u_convert(u64t, None, v).unwrap() };
            let (d64, d2_64) = (wide(self, data), wide(self, data2));
            let lp = self.loop_begin();
            self.loop_enter(&lp, None);
            let cur = self.b.atomic_load(ty, None, p, scope, relaxed).unwrap();
            let cur64 = wide(self, cur);
            let new = self.atomic_apply(op, x2, cur64, d64, d2_64)?;
            let new = if x2 { new } else { self.b.u_convert(ty, None, new).unwrap() };
            let prev = self.b.atomic_compare_exchange(ty, None, p, scope, relaxed, relaxed, new, cur).unwrap();
            self.b.store(self.atomic_old, cur64, None, []).unwrap();
            let done = self.b.i_equal(self.t.bool, None, prev, cur).unwrap();
            self.b.branch(lp.cont).unwrap();
            self.b.begin_block(Some(lp.cont)).unwrap();
            self.count_iteration();
            self.b.branch_conditional(done, lp.merge, lp.header, []).unwrap();
            self.b.begin_block(Some(lp.merge)).unwrap();
            self.block_loops += 1;
            self.max_block_loops = self.max_block_loops.max(self.block_loops);
            let old = self.b.load(u64t, None, self.atomic_old, None, []).unwrap();
            return Ok(if x2 { old } else { self.b.u_convert(ty, None, old).unwrap() });
        }
        if op == CmpSwap {
            let cmp = read(self, vdata + if x2 { 2 } else { 1 })?;
            return Ok(self.b.atomic_compare_exchange(ty, None, p, scope, relaxed, relaxed, data, cmp).unwrap());
        }
        let code = match op {
            Swap => O::AtomicExchange,
            Add => O::AtomicIAdd,
            Sub => O::AtomicISub,
            SMin => O::AtomicSMin,
            SMax => O::AtomicSMax,
            UMin => O::AtomicUMin,
            UMax => O::AtomicUMax,
            And => O::AtomicAnd,
            Or => O::AtomicOr,
            _ => O::AtomicXor,
        };
        Ok(self.b.value(code, ty, None, &[p, scope, relaxed, data]))
    }

    /// Pointer type to one byte of device memory (declaring 8-bit storage on first use).
    fn psb_u8(&mut self) -> (Word, Word) {
        self.touched_memory = true;
        self.b.capability(Capability::Int8);
        self.b.capability(Capability::StorageBuffer8BitAccess);
        let u8t = self.cached_type(valu::CachedType::U8, |b| b.type_int(8, 0));
        (u8t, self.cached_type(valu::CachedType::PsbU8Ptr, |b| b.type_pointer(None, StorageClass::PhysicalStorageBuffer, u8t)))
    }

    /// `bytes` (1 or 2) little-endian bytes at `addr`, zero- or sign-extended to 32 bits.
    fn load_bytes(&mut self, addr: Word, bytes: u8, sext: bool) -> Word {
        let (u8t, p8) = self.psb_u8();
        let u = self.t.u32;
        let mut v = self.c32(0);
        for i in 0..bytes as u64 {
            let oi = self.c64(i);
            let a = self.b.i_add(self.t.u64, None, addr, oi).unwrap();
            let a = self.guard(a, 1);
            let p = self.b.convert_u_to_ptr(p8, None, a).unwrap();
            let x = self.b.load(u8t, None, p, Some(spirv::MemoryAccess::ALIGNED), [Operand::LiteralBit32(1)]).unwrap();
            let x = self.b.u_convert(u, None, x).unwrap();
            let sh = self.c32(8 * i as u32);
            let x = self.b.shift_left_logical(u, None, x, sh).unwrap();
            v = self.b.bitwise_or(u, None, v, x).unwrap();
        }
        if sext {
            let (z, w) = (self.c32(0), self.c32(8 * bytes as u32));
            v = self.b.bit_field_s_extract(u, None, v, z, w).unwrap();
        }
        v
    }

    /// The low `bytes` (1 or 2) bytes of `v` to `addr`, a byte at a time.
    fn store_bytes(&mut self, addr: Word, v: Word, bytes: u8) {
        let (u8t, p8) = self.psb_u8();
        for i in 0..bytes as u64 {
            let oi = self.c64(i);
            let a = self.b.i_add(self.t.u64, None, addr, oi).unwrap();
            let a = self.guard(a, 1);
            let p = self.b.convert_u_to_ptr(p8, None, a).unwrap();
            let sh = self.c32(8 * i as u32);
            let x = self.b.shift_right_logical(self.t.u32, None, v, sh).unwrap();
            let x = self.b.u_convert(u8t, None, x).unwrap();
            self.b.store(p, x, Some(spirv::MemoryAccess::ALIGNED), [Operand::LiteralBit32(1)]).unwrap();
        }
    }

    fn mask_in(&mut self, st: &Step) -> Result<Word, String> {
        if st.inst.format == Format::Vop3 {
            match st.src[2] {
                Src::Sgpr(r) => Ok(self.rd_mask(r)),
                other => self.src64(other, None),
            }
        } else {
            Ok(self.rd_mask(VCC))
        }
    }

    /// Compares the IR does not lift (SDWA sources): the sources as `vsrc` reads them, the
    /// relation from its one definition (`rdna_frontend::lift::compare_values`).
    /// Compares the IR does not lift (SDWA and DPP sources, op_sel): the sources as `vsrc`
    /// reads them, the compare from its one definition (`rdna_frontend::lift::compare_values`).
    fn vcmp(&mut self, st: &Step, ty: Num, cond: Cond, x: bool) -> Lowered {
        let wide = matches!(ty, Num::I64 | Num::U64 | Num::F64);
        let t = if wide { rdna_ir::Type::I64 } else { rdna_ir::Type::I32 };
        self.compare_lanes(st, x, &mut |g, lane, a, b| g.ir_function(lane, &[(a, t), (b, t)], &mut |b, args| Ok(vec![rdna_frontend::lift::compare_values(b, ty, cond, args[0], args[1])?])))
    }

    /// `v_cmp_class_*` forms the IR does not lift (SDWA and DPP sources), the class test from
    /// its one definition (`rdna_frontend::lift::class_test`).
    fn vcmp_class(&mut self, st: &Step, ty: Num, x: bool) -> Lowered {
        let t = if ty == Num::F64 { rdna_ir::Type::I64 } else { rdna_ir::Type::I32 };
        self.compare_lanes(st, x, &mut |g, lane, a, mask| g.ir_function(lane, &[(a, t), (mask, rdna_ir::Type::I32)], &mut |b, args| Ok(vec![rdna_frontend::lift::class_test(b, ty, args[0], args[1])?])))
    }

    /// A compare's lane loop: each enabled lane's bit is `test` of its two sources, written to
    /// the compare's mask (EXEC for v_cmpx). With DPP, src0 comes permuted from the spare row
    /// and lanes DPP does not write get 0, as in the emulator.
    fn compare_lanes(&mut self, st: &Step, x: bool, test: &mut dyn FnMut(&mut Gen, Word, Word, Word) -> Result<Vec<Word>, String>) -> Lowered {
        let m = rdna_emu::valu::mods(st);
        let dpp = if st.inst.format.is_dpp16() || st.inst.format.is_dpp8() { Some(self.dpp_gather(st, &m)?) } else { None };
        self.mask_begin();
        let st2 = st.clone();
        self.lanes_loop(true, &mut |g: &mut Gen, lane: Word| {
            let a = if dpp.is_some() { g.rd_row(g.spare_row(), lane) } else { g.vsrc(&st2, &m, 0, lane)? };
            let b = g.vsrc(&st2, &m, 1, lane)?;
            let mut bit = test(g, lane, a, b)?[0];
            if let Some(written) = dpp {
                let on = g.mask_bit(written, lane);
                bit = g.op(spirv::Op::LogicalAnd, g.t.bool, &[bit, on]);
            }
            g.mask_set(lane, bit);
            Ok(())
        })?;
        self.mask_end(if x { EXEC } else { st.dst });
        Ok(())
    }

    /// GLOBAL, SCRATCH and MUBUF loads and stores (bytes to four dwords, d16 halves included)
    /// and GLOBAL atomics, as `rdna_emu::vmem` runs them. Scratch is each lane's private memory
    /// (after its wave's registers); a MUBUF address in the scratch window reaches it too, and
    /// one outside its buffer's range is dropped (loads read 0).
    fn global(&mut self, st: &Step, k: MemKind) -> Lowered {
        let raw = st.inst.raw;
        let f = st.inst.format;
        let g11 = st.inst.gen == rdna_isa::Generation::Gfx11;
        let mut atomic = None;
        // `half`: a d16 load writes one half of its register (the high one with `hi`), keeping
        // the other; a `hi` store writes the register's high half.
        let (bytes, store, sext, half) = match k {
            MemKind::Load { bytes, sext, d16, hi } if bytes % 4 == 0 || bytes < 4 => (bytes, false, sext, d16.then_some(hi)),
            MemKind::Store { bytes, hi } if bytes % 4 == 0 || bytes < 4 => (bytes, true, false, hi.then_some(true)),
            MemKind::Atomic { op, x2 } if matches!(f, Format::Global | Format::Flat | Format::Mubuf) => {
                atomic = Some((op, x2));
                (if x2 { 8 } else { 4 }, false, false, None)
            }
            _ => return Err("internal: a memory access admitted by `supports` without a lowering".into()),
        };
        // A FLAT/GLOBAL atomic returns the old value with glc (bit 16 on gfx10, 14 on gfx11), a
        // MUBUF one with bit 14, into its data register.
        let returns = raw >> (if g11 || f == Format::Mubuf { 14 } else { 16 }) & 1 != 0;
        let (vdst, vdata) = if f == Format::Mubuf { ((raw >> 40 & 0xff) as u16, (raw >> 40 & 0xff) as u16) } else { ((raw >> 56 & 0xff) as u16, (raw >> 40 & 0xff) as u16) };
        let place = self.vmem_place(st, bytes as u32)?;
        self.lanes_loop(true, &mut |g: &mut Gen, lane: Word| {
            let (u32t, u64t) = (g.t.u32, g.t.u64);
            let Target { addr, live, lds } = g.vmem_addr(&place, lane)?;
            if let Some((op, x2)) = atomic {
                let old = match (live, lds) {
                    (None, None) => g.global_atomic(addr, op, x2, vdata, lane)?,
                    _ => {
                        // A dropped buffer atomic returns 0; a FLAT atomic on LDS is made after
                        // (`flat_atomic_lds`), and returns its value there.
                        let on = match (live, lds) {
                            (Some(l), _) => l,
                            (None, Some((is_lds, _))) => g.b.logical_not(g.t.bool, None, is_lds).unwrap(),
                            (None, None) => unreachable!(),
                        };
                        let z = g.c64(0);
                        g.b.store(g.atomic_old, z, None, []).unwrap();
                        let mut r: Lowered = Ok(());
                        g.if_then(on, &mut |g: &mut Gen| {
                            r = g.global_atomic(addr, op, x2, vdata, lane).map(|old| {
                                let old = if x2 { old } else { g.b.u_convert(u64t, None, old).unwrap() };
                                g.b.store(g.atomic_old, old, None, []).unwrap();
                            });
                        });
                        r?;
                        let old = g.b.load(u64t, None, g.atomic_old, None, []).unwrap();
                        if x2 { old } else { g.b.u_convert(u32t, None, old).unwrap() }
                    }
                };
                if returns {
                    let write = |g: &mut Gen| -> Lowered {
                        if x2 {
                            let (lo, hi) = g.split64(old);
                            g.wr_v(vdst, lane, lo)?;
                            g.wr_v(vdst + 1, lane, hi)
                        } else {
                            g.wr_v(vdst, lane, old)
                        }
                    };
                    match lds {
                        // LDS lanes get theirs from `flat_atomic_lds`.
                        Some((is_lds, _)) => {
                            let device = g.b.logical_not(g.t.bool, None, is_lds).unwrap();
                            let mut r: Lowered = Ok(());
                            g.if_then(device, &mut |g: &mut Gen| r = write(g));
                            r?;
                        }
                        None => write(g)?,
                    }
                }
                return Ok(());
            }
            // Device memory is accessed unless the buffer access is dropped or the FLAT address
            // is in LDS.
            let device = match (live, lds) {
                (Some(l), _) => Some(l),
                (None, Some((is_lds, _))) => Some(g.b.logical_not(g.t.bool, None, is_lds).unwrap()),
                (None, None) => None,
            };
            let dwords = (bytes as u16).div_ceil(4);
            let at = |g: &mut Gen, base: Word, i: u16| {
                let oi = g.c64(4 * i as u64);
                g.b.i_add(u64t, None, base, oi).unwrap()
            };
            // The register value a store writes for dword `i` (a `hi` store: the high half).
            let stored = |g: &mut Gen, i: u16| -> Result<Word, String> {
                let v = g.rd_v(vdata + i, lane)?;
                Ok(if half.is_some() {
                    let c16 = g.c32(16);
                    g.b.shift_right_logical(u32t, None, v, c16).unwrap()
                } else {
                    v
                })
            };
            // Writes loaded dword `i` (a d16 load: into its half of the register).
            let put = |g: &mut Gen, i: u16, v: Word| -> Lowered {
                let v = match half {
                    Some(hi) => {
                        let old = g.rd_v(vdst, lane)?;
                        g.merge_half(old, v, hi)
                    }
                    None => v,
                };
                g.wr_v(vdst + i, lane, v)
            };
            if store {
                let mut r: Lowered = Ok(());
                let mut body = |g: &mut Gen| {
                    r = (|| {
                        for i in 0..dwords {
                            let a = at(g, addr, i);
                            let v = stored(g, i)?;
                            if bytes < 4 { g.store_bytes(a, v, bytes) } else { g.store_global(a, v) }
                        }
                        Ok(())
                    })();
                };
                match device {
                    Some(on) => g.if_then(on, &mut body),
                    None => body(g),
                }
                r?;
            } else {
                // Where no device access happens, the lane reads its own slot and gets 0.
                let from = match device {
                    Some(on) => g.sel(u64t, on, addr, g.slot),
                    None => addr,
                };
                for i in 0..dwords {
                    let a = at(g, from, i);
                    let mut v = if bytes < 4 { g.load_bytes(a, bytes, sext) } else { g.load_global(a) };
                    if let Some(on) = device {
                        let z = g.c32(0);
                        v = g.sel(u32t, on, v, z);
                    }
                    put(g, i, v)?;
                }
            }
            let Some((is_lds, lo)) = lds else { return Ok(()) };
            // A FLAT access in the shared aperture: LDS, as DS instructions reach it.
            let mut r: Lowered = Ok(());
            g.if_then(is_lds, &mut |g: &mut Gen| {
                if g.lds_bytes == 0 {
                    g.fail(crate::STATUS_LDS_OUT_OF_BOUNDS);
                    return;
                }
                g.lds_check(lo, bytes as u32);
                r = (|| {
                    for i in 0..dwords {
                        let o = g.c32(4 * i as u32);
                        let a = g.b.i_add(u32t, None, lo, o).unwrap();
                        if store {
                            let v = stored(g, i)?;
                            g.lds_write(a, v, (bytes as u32).min(4));
                        } else {
                            let mut v = g.lds_read32(a);
                            if bytes < 4 {
                                let (z, w) = (g.c32(0), g.c32(8 * bytes as u32));
                                v = g.op(if sext { spirv::Op::BitFieldSExtract } else { spirv::Op::BitFieldUExtract }, u32t, &[v, z, w]);
                            }
                            put(g, i, v)?;
                        }
                    }
                    Ok(())
                })();
            });
            r
        })?;
        match (atomic, &place) {
            (Some((op, x2)), &Place::Flat { vaddr, offset, .. }) => self.flat_atomic_lds(vaddr, offset, op, x2, vdata, returns.then_some(vdst)),
            _ => Ok(()),
        }
    }

    /// `old` with its low (or, with `hi`, high) 16 bits replaced by the low 16 bits of `v`.
    pub(super) fn merge_half(&mut self, old: Word, v: Word, hi: bool) -> Word {
        let u = self.t.u32;
        let (keep, m16) = (self.c32(if hi { 0xffff } else { 0xffff_0000 }), self.c32(0xffff));
        let kept = self.b.bitwise_and(u, None, old, keep).unwrap();
        let mut v = self.b.bitwise_and(u, None, v, m16).unwrap();
        if hi {
            let c16 = self.c32(16);
            v = self.b.shift_left_logical(u, None, v, c16).unwrap();
        }
        self.b.bitwise_or(u, None, kept, v).unwrap()
    }
}
