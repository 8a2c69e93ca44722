//! An exact reference emulator for AMD GPU compute kernels (RDNA2, gfx10.3; wave32 and wave64).
//!
//! A kernel is decoded once into a [`program::Program`]; a dispatch runs its workgroups (in
//! parallel on the host's cores, results independent of the thread count), each workgroup's waves
//! interleaved at `s_barrier`, over a sparse guest address space ([`Memory`]).
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use rdna_emu::{dispatch::DispatchFile, run_file};
//! let outputs = run_file(std::path::Path::new("examples/saxpy.json"), &Default::default())?;
//! # Ok(()) }
//! ```

pub mod bufmt;
pub mod dispatch;
pub mod exec;
pub mod fast;
pub mod float;
pub mod memory;
pub mod program;
pub mod sem;
pub mod snippet;
pub mod valu;
pub mod vmem;
pub mod wave;

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

pub use memory::{MemFault, Memory};
use program::Program;
use rdna_disasm::Decoder;
use rdna_hsa::{CodeObject, Kernel};
use wave::{sreg, Mode, Wave, LANES};

/// A fault raised by the kernel: where and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("kernel '{kernel}' ({target}) workgroup {workgroup:?} wave {wave}: pc {pc:#x}: `{text}`: {reason}")]
pub struct Fault {
    pub kernel: String,
    pub target: String,
    pub workgroup: [u32; 3],
    pub wave: u32,
    /// Address of the faulting instruction, as `rdna dis` and `llvm-objdump` show it.
    pub pc: u64,
    pub text: String,
    /// The raw words of the instruction.
    pub words: Vec<u32>,
    pub reason: String,
}

/// Errors of the emulator: a setup problem (bad dispatch, unsupported target) or a guest fault.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Setup(String),
    #[error("{0}")]
    Fault(Box<Fault>),
}

/// How to run a dispatch.
#[derive(Clone, Debug)]
pub struct Options {
    /// Instructions one wave may execute before it is stopped as a runaway.
    pub budget: u64,
    /// Host threads (0: all cores).
    pub threads: usize,
    /// Record a trace of one wave: (flat workgroup index, wave index in the workgroup).
    pub trace: Option<(u32, u32)>,
    /// Record every control transfer taken by any wave (see [`Stats::edges`]).
    pub edges: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { budget: 50_000_000, threads: 0, trace: None, edges: false }
    }
}

/// A dispatch ready to run.
pub struct Launch<'a> {
    pub code: &'a CodeObject,
    pub kernel: &'a Kernel,
    pub grid: [u32; 3],
    pub workgroup: [u32; 3],
    /// The kernel argument segment, hidden arguments included.
    pub kernarg: Vec<u8>,
    pub dynamic_lds: u32,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub workgroups: u64,
    pub waves: u64,
    /// Wave-instructions executed.
    pub instructions: u64,
    /// Lane-operations: each executed instruction counted once per active lane.
    pub lane_ops: u64,
    /// The traced wave's lines, if a trace was requested.
    pub trace: Vec<String>,
    /// With [`Options::edges`]: each (from, to) pair of `.text` byte offsets where a branch,
    /// jump, call or return (taken or not) moved a wave from one instruction to the next. This
    /// is the observed control flow the recompiler's static CFG is checked against.
    pub edges: BTreeSet<(u32, u32)>,
}

/// Most scratch one work-item may have (the hardware's own limit is lower).
pub const MAX_SCRATCH_PER_LANE: u32 = 1 << 20;
/// Largest kernel argument segment accepted.
const MAX_KERNARG: usize = 1 << 20;
/// Most workgroups one dispatch may have.
const MAX_WORKGROUPS: u64 = 1 << 32;

/// Guest addresses of the loaded code-object image start here (ELF addresses are added).
pub const IMAGE_BASE: u64 = 0x7f00_0000_0000;

/// The decoder target for a code object.
pub fn target_of(code: &CodeObject, kernel: &Kernel) -> Result<rdna_isa::Target, Error> {
    let name = code.mcpu.ok_or_else(|| Error::Setup("the code object does not name a target this emulator knows".into()))?;
    let t = rdna_isa::Target::from_name(name)
        .filter(|t| matches!(t.generation, rdna_isa::Generation::Gfx10 | rdna_isa::Generation::Gfx11))
        .ok_or_else(|| Error::Setup(format!("target {name} is not emulated yet (supported: gfx1030–gfx1036, gfx1100–gfx1103, gfx1150–gfx1152)")))?;
    Ok(rdna_isa::Target { wave64: !kernel.kd.enable_wavefront_size32(), ..t })
}

/// Maps the code object image and returns the guest address of the kernel entry.
pub fn load_image(code: &CodeObject, kernel: &Kernel, mem: &mut Memory) -> Result<u64, Error> {
    let (lo, img) = code.flat_image().map_err(Error::Setup)?;
    let base = mem.map_at("<code object>", IMAGE_BASE + lo, &img, img.len() as u64);
    Ok(base - lo + kernel.entry)
}

/// Runs a dispatch to completion.
pub fn run(launch: &Launch, mem: &mut Memory, opts: &Options) -> Result<Stats, Error> {
    let kd = &launch.kernel.kd;
    let target = target_of(launch.code, launch.kernel)?;
    let lanes = if target.wave64 { 64 } else { 32 };
    for d in 0..3 {
        if launch.workgroup[d] == 0 || launch.grid[d] == 0 {
            return Err(Error::Setup(format!("grid {:?} and workgroup {:?} must be non-zero in every dimension", launch.grid, launch.workgroup)));
        }
    }
    let wg_items = launch.workgroup.iter().map(|&x| x as u64).product::<u64>();
    if wg_items > 1024 {
        return Err(Error::Setup(format!("workgroup of {wg_items} work-items exceeds the hardware limit of 1024")));
    }
    // Limits that keep a hostile descriptor or dispatch from asking for absurd host memory.
    if kd.private_segment_fixed_size > MAX_SCRATCH_PER_LANE {
        return Err(Error::Setup(format!(
            "kernel '{}' asks for {} bytes of scratch per work-item (limit {MAX_SCRATCH_PER_LANE})",
            launch.kernel.name, kd.private_segment_fixed_size
        )));
    }
    if launch.kernarg.len() > MAX_KERNARG {
        return Err(Error::Setup(format!("kernel argument segment of {} bytes (limit {MAX_KERNARG})", launch.kernarg.len())));
    }
    let lds_size = kd.group_segment_fixed_size as u64 + launch.dynamic_lds as u64;
    if lds_size > 64 * 1024 {
        return Err(Error::Setup(format!("LDS of {lds_size} bytes exceeds the 64 KiB of an RDNA2 workgroup")));
    }
    let code_addr = load_image(launch.code, launch.kernel, mem)?;
    let kernarg_addr = mem.map("<kernarg>", &launch.kernarg, launch.kernarg.len().max(256) as u64);
    let packet = dispatch_packet(launch, kernarg_addr, code_addr);
    let packet_addr = mem.map("<dispatch packet>", &packet, 64);
    let dec = Decoder::new(target);
    // The whole of .text is decoded: a kernel may call functions placed before or after it.
    let text_addr = launch.code.text_addr;
    let text_guest = code_addr - (launch.kernel.entry - text_addr);
    let prog = Program::decode(&dec, &launch.code.text, text_guest);
    let entry = prog
        .at(launch.kernel.entry - text_addr)
        .ok_or_else(|| Error::Setup(format!("kernel '{}': no instruction decodes at its entry", launch.kernel.name)))?;
    let counts = [0, 1, 2].map(|d| launch.grid[d].div_ceil(launch.workgroup[d]));
    let total = counts.iter().try_fold(1u64, |t, &c| t.checked_mul(c as u64)).filter(|&t| t <= MAX_WORKGROUPS).ok_or_else(|| {
        Error::Setup(format!("grid {:?} / workgroup {:?} makes more than {MAX_WORKGROUPS} workgroups", launch.grid, launch.workgroup))
    })?;
    // All cores: rayon's global pool; a given count: a pool of that size for this run.
    let pool = match opts.threads {
        0 => None,
        n => Some(rayon::ThreadPoolBuilder::new().num_threads(n).build().map_err(|e| Error::Setup(e.to_string()))?),
    };
    let stop = AtomicBool::new(false);
    let insts = AtomicU64::new(0);
    let lane_ops = AtomicU64::new(0);
    let waves = AtomicU64::new(0);
    let mem_ref: &Memory = mem;
    let env = Env { launch, prog: &prog, mem: mem_ref, code_addr: text_guest, entry, kernarg_addr, packet_addr, lanes, lds_size: lds_size as usize, counts, opts, target };
    let all = || -> Vec<Result<Recorded, Fault>> {
        use rayon::prelude::*;
        (0..total)
            .into_par_iter()
            .map(|wg| {
                if stop.load(Ordering::Relaxed) {
                    return Ok(Recorded::default());
                }
                let r = env.workgroup(wg, &insts, &lane_ops, &waves);
                if r.is_err() {
                    stop.store(true, Ordering::Relaxed);
                }
                r
            })
            .collect()
    };
    let results = match &pool {
        Some(p) => p.install(all),
        None => all(),
    };
    let mut trace = Vec::new();
    let mut edges = BTreeSet::new();
    for r in results {
        match r {
            Ok(rec) => {
                trace.extend(rec.trace);
                edges.extend(rec.edges);
            }
            Err(f) => return Err(Error::Fault(Box::new(f))),
        }
    }
    Ok(Stats { workgroups: total, waves: waves.into_inner(), instructions: insts.into_inner(), lane_ops: lane_ops.into_inner(), trace, edges })
}

/// The HSA kernel dispatch packet (what the dispatch-pointer SGPRs point at).
pub fn dispatch_packet(l: &Launch, kernarg: u64, code: u64) -> Vec<u8> {
    let mut p = vec![0u8; 64];
    let dims = if l.grid[2] > 1 { 3u16 } else if l.grid[1] > 1 { 2 } else { 1 };
    p[2..4].copy_from_slice(&dims.to_le_bytes());
    for d in 0..3 {
        p[4 + 2 * d..6 + 2 * d].copy_from_slice(&(l.workgroup[d] as u16).to_le_bytes());
        p[12 + 4 * d..16 + 4 * d].copy_from_slice(&l.grid[d].to_le_bytes());
    }
    p[24..28].copy_from_slice(&l.kernel.kd.private_segment_fixed_size.to_le_bytes());
    p[28..32].copy_from_slice(&(l.kernel.kd.group_segment_fixed_size + l.dynamic_lds).to_le_bytes());
    p[32..40].copy_from_slice(&code.to_le_bytes());
    p[40..48].copy_from_slice(&kernarg.to_le_bytes());
    p
}

struct Env<'a> {
    launch: &'a Launch<'a>,
    prog: &'a Program,
    mem: &'a Memory,
    /// Guest address of the start of .text (program byte 0).
    code_addr: u64,
    /// Step index of the kernel's first instruction.
    entry: usize,
    kernarg_addr: u64,
    packet_addr: u64,
    lanes: usize,
    lds_size: usize,
    counts: [u32; 3],
    opts: &'a Options,
    target: rdna_isa::Target,
}

impl Env<'_> {
    /// Sets up a wave's registers as the kernel descriptor asks.
    fn init_wave(&self, wg_id: [u32; 3], wave_idx: u32) -> Wave {
        let kd = &self.launch.kernel.kd;
        let l = self.launch;
        let scratch = kd.private_segment_fixed_size as usize;
        let mut w = Wave::new(self.lanes, 256, scratch);
        w.wave_id = wave_idx;
        w.pc = self.entry;
        for (s, input) in kd.sgpr_inputs() {
            use rdna_hsa::SgprInput as I;
            match input {
                I::PrivateSegmentBuffer => {
                    // The scratch buffer resource: its base lies in the scratch window that MUBUF
                    // accesses map to each lane's private memory; no range limit, no swizzle.
                    w.write_s64(s, wave::SCRATCH_BUFFER_BASE);
                    w.write_s64(s + 2, 0xffff_ffff);
                }
                I::DispatchPtr => w.write_s64(s, self.packet_addr),
                I::QueuePtr | I::DispatchId => w.write_s64(s, 0),
                I::KernargSegmentPtr => w.write_s64(s, self.kernarg_addr),
                I::FlatScratchInit => w.write_s64(s, (wave::PRIVATE_APERTURE_HI as u64) << 32),
                I::PrivateSegmentSize => w.write_s(s, scratch as u32),
                I::WorkgroupId(d) => w.write_s(s, wg_id[d as usize]),
                I::WorkgroupInfo | I::PrivateSegmentWaveOffset => w.write_s(s, 0),
            }
        }
        // Work-items of this wave: flattened x-fastest order within the workgroup, clipped to
        // the grid at its edges.
        let [wx, wy, wz] = l.workgroup;
        let size = [0, 1, 2].map(|d| l.workgroup[d].min(l.grid[d] - wg_id[d] * l.workgroup[d]));
        let mut exec = 0u64;
        for lane in 0..self.lanes {
            let flat = wave_idx as usize * self.lanes + lane;
            let (x, y, z) = (flat as u32 % wx, flat as u32 / wx % wy, flat as u32 / (wx * wy));
            if z >= wz || x >= size[0] || y >= size[1] || z >= size[2] {
                continue;
            }
            exec |= 1 << lane;
            if self.target.generation == rdna_isa::Generation::Gfx11 {
                // gfx11 packs the work-item id into v0: x [9:0], y [19:10], z [29:20].
                let ids = kd.enable_vgpr_workitem_id();
                let packed = x | if ids >= 1 { y << 10 } else { 0 } | if ids >= 2 { z << 20 } else { 0 };
                w.set_vr(0, lane, packed);
            } else {
                w.set_vr(0, lane, x);
                if kd.enable_vgpr_workitem_id() >= 1 {
                    w.set_vr(1, lane, y);
                }
                if kd.enable_vgpr_workitem_id() >= 2 {
                    w.set_vr(2, lane, z);
                }
            }
        }
        w.set_exec(exec);
        w.mode = Mode(initial_mode(kd));
        w
    }

    /// Runs one workgroup; returns the trace lines if its wave is traced, and the edges taken
    /// if they are recorded.
    fn workgroup(&self, flat: u64, insts: &AtomicU64, lane_ops: &AtomicU64, waves_ctr: &AtomicU64) -> Result<Recorded, Fault> {
        let l = self.launch;
        let c = self.counts;
        let wg_id = [(flat % c[0] as u64) as u32, (flat / c[0] as u64 % c[1] as u64) as u32, (flat / (c[0] as u64 * c[1] as u64)) as u32];
        let items: u64 = [0, 1, 2].map(|d| l.workgroup[d].min(l.grid[d] - wg_id[d] * l.workgroup[d]) as u64).iter().product();
        let full_items = l.workgroup.iter().map(|&x| x as u64).product::<u64>();
        let _ = items;
        let nwaves = full_items.div_ceil(self.lanes as u64) as u32;
        let mut waves: Vec<Wave> = (0..nwaves).map(|i| self.init_wave(wg_id, i)).filter(|w| w.exec() != 0).collect();
        waves_ctr.fetch_add(waves.len() as u64, Ordering::Relaxed);
        let mut lds = vec![0u8; self.lds_size];
        let mut at_barrier = vec![false; waves.len()];
        let traced = self.opts.trace.filter(|&(g, _)| g as u64 == flat).map(|(_, w)| w);
        let mut rec = Recorded::default();
        let mut total = 0u64;
        let mut lanes_total = 0u64;
        loop {
            let mut all_done = true;
            for (i, w) in waves.iter_mut().enumerate() {
                if w.done || at_barrier[i] {
                    continue;
                }
                let mut sh = exec::Shared { prog: self.prog, mem: self.mem, lds: &mut lds, code_addr: self.code_addr, cycles: 0, scratch: [[0; crate::wave::LANES]; 4] };
                let tr = if traced == Some(w.wave_id) { Some(&mut rec.trace) } else { None };
                let edges = if self.opts.edges { Some(&mut rec.edges) } else { None };
                let (n, lo) = self.run_wave(w, &mut sh, wg_id, tr, edges)?;
                total += n;
                lanes_total += lo;
                if !w.done {
                    at_barrier[i] = true;
                }
            }
            for (i, w) in waves.iter().enumerate() {
                if !w.done {
                    all_done = false;
                    let _ = i;
                }
            }
            if all_done {
                break;
            }
            // Every live wave is at the barrier: release them.
            for (i, w) in waves.iter().enumerate() {
                if !w.done {
                    at_barrier[i] = false;
                }
            }
        }
        insts.fetch_add(total, Ordering::Relaxed);
        lane_ops.fetch_add(lanes_total, Ordering::Relaxed);
        Ok(rec)
    }

    /// Runs a wave until it ends or reaches a barrier. Returns (instructions, lane-ops).
    fn run_wave(
        &self,
        w: &mut Wave,
        sh: &mut exec::Shared,
        wg: [u32; 3],
        mut trace: Option<&mut Vec<String>>,
        mut edges: Option<&mut BTreeSet<(u32, u32)>>,
    ) -> Result<(u64, u64), Fault> {
        let steps = &self.prog.steps;
        let mut n = 0u64;
        let mut lane_ops = 0u64;
        loop {
            let Some(st) = steps.get(w.pc) else {
                return Err(self.fault(w, wg, None, "ran past the end of the code".into()));
            };
            if w.executed >= self.opts.budget {
                return Err(self.fault(w, wg, Some(st), format!("instruction budget of {} exceeded (runaway kernel?)", self.opts.budget)));
            }
            w.executed += 1;
            n += 1;
            lane_ops += w.exec().count_ones() as u64;
            let before = trace.as_ref().map(|_| Snapshot::of(w));
            let flow = exec::step(w, sh, st).map_err(|r| self.fault(w, wg, Some(st), r))?;
            if let (Some(t), Some(b)) = (trace.as_deref_mut(), before) {
                t.push(b.diff(w, st, self.launch.code.text_addr));
            }
            if let Some(e) = edges.as_deref_mut() {
                match flow {
                    exec::Flow::Jump(i) => _ = e.insert((st.pc, steps[i].pc)),
                    exec::Flow::Next if matches!(st.kind, sem::Kind::Branch(_)) => _ = e.insert((st.pc, st.pc + st.inst.len as u32)),
                    _ => {}
                }
            }
            match flow {
                exec::Flow::Next => w.pc += 1,
                exec::Flow::Jump(i) => w.pc = i,
                exec::Flow::Barrier => {
                    w.pc += 1;
                    return Ok((n, lane_ops));
                }
                exec::Flow::End => {
                    w.done = true;
                    return Ok((n, lane_ops));
                }
            }
        }
    }

    fn fault(&self, w: &Wave, wg: [u32; 3], st: Option<&program::Step>, reason: String) -> Fault {
        let (pc, text, words) = match st {
            Some(st) => {
                let words = (0..st.inst.len as usize / 4)
                    .map(|i| {
                        let off = st.pc as usize + 4 * i;
                        let c = &self.launch.code.text;
                        c.get(off..off + 4).map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                    })
                    .collect();
                let text = match st.kind {
                    sem::Kind::Invalid(word) => format!(".long {word:#010x}"),
                    _ => st.text(),
                };
                (self.launch.code.text_addr + st.pc as u64, text, words)
            }
            None => (self.launch.code.text_addr + self.launch.code.text.len() as u64, String::new(), Vec::new()),
        };
        Fault { kernel: self.launch.kernel.name.clone(), target: self.target.name.to_string(), workgroup: wg, wave: w.wave_id, pc, text, words, reason }
    }
}

/// What one workgroup recorded.
#[derive(Default)]
struct Recorded {
    trace: Vec<String>,
    edges: BTreeSet<(u32, u32)>,
}

/// Register state before a traced step, to print what the step changed.
struct Snapshot {
    s: [u32; 128],
    scc: bool,
    v: Vec<u32>,
}

impl Snapshot {
    fn of(w: &Wave) -> Snapshot {
        Snapshot { s: w.s, scc: w.scc, v: w.v.clone() }
    }

    fn diff(&self, w: &Wave, st: &program::Step, text_addr: u64) -> String {
        let mut line = format!("{:#x}: {}", text_addr + st.pc as u64, st.text());
        let mut changes = Vec::new();
        for (i, (a, b)) in self.s.iter().zip(w.s.iter()).enumerate() {
            if a != b {
                let name = match i {
                    106 => "vcc_lo".to_string(),
                    107 => "vcc_hi".to_string(),
                    124 => "m0".to_string(),
                    126 => "exec_lo".to_string(),
                    127 => "exec_hi".to_string(),
                    108..=123 => format!("ttmp{}", i - 108),
                    _ => format!("s{i}"),
                };
                changes.push(format!("{name}={b:#x}"));
            }
        }
        if self.scc != w.scc {
            changes.push(format!("scc={}", w.scc as u8));
        }
        for r in 0..w.v.len() / LANES {
            let (old, new) = (&self.v[r * LANES..r * LANES + w.lanes], &w.v[r * LANES..r * LANES + w.lanes]);
            if old != new {
                let vals: Vec<String> = new.iter().map(|x| format!("{x:#x}")).collect();
                changes.push(format!("v{r}=[{}]", vals.join(",")));
            }
        }
        if !changes.is_empty() {
            line.push_str("  ; ");
            line.push_str(&changes.join(" "));
        }
        line
    }
}

/// Loads a dispatch file, runs it on the emulator and returns every buffer's final contents.
pub fn run_file(path: &std::path::Path, opts: &Options) -> Result<dispatch::Outputs, Error> {
    let prepared = dispatch::Prepared::load(path).map_err(Error::Setup)?;
    prepared.run_emu(opts)
}

#[allow(dead_code)]
fn _assert_send_sync() {
    fn is<T: Send + Sync>() {}
    is::<Memory>();
    is::<Program>();
}

#[allow(unused_imports)]
use sreg as _;

/// The MODE register a wave starts with: FP_ROUND [3:0] and FP_DENORM [7:4] straight from
/// RSRC1[19:12], DX10_CLAMP (8) and IEEE (9) from their RSRC1 bits.
pub fn initial_mode(kd: &rdna_hsa::KernelDescriptor) -> u32 {
    (kd.compute_pgm_rsrc1 >> 12 & 0xff) | (kd.enable_dx10_clamp() as u32) << 8 | (kd.enable_ieee_mode() as u32) << 9
}
