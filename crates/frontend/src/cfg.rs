//! The control-flow graph of a kernel and the functions it calls.
//!
//! Blocks are built from the emulator's decoded [`Program`] (the same semantic classification
//! drives both): a block ends at a branch, a call, a return, `s_endpgm`, or just before another
//! block's first instruction. Addresses computed with `s_getpc_b64` and constant arithmetic
//! (clang's calls: `s_getpc_b64`, `s_add_u32`/`s_addc_u32` with `sym@rel32`, `s_swappc_b64`;
//! LLVM's long branches: the same ending in `s_setpc_b64`) are followed by a small constant
//! evaluation inside the block. What the graph cannot follow is reported, every site at once.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

// FxHash: the keys are step indices and register numbers, hashed on every step.
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::fmt;

use rdna_emu::program::{Program, Src, Step};
use rdna_emu::sem::{BranchIf, Kind, Salu};
use rdna_isa::{Class, Field};
use rdna_ir::Reg;

/// Index into [`Cfg::blocks`].
pub type BlockId = usize;

/// How control leaves a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// `s_branch`, a resolved `s_setpc_b64`, or falling into the next block.
    Goto(BlockId),
    /// `s_cbranch_*`: to `taken` when the condition holds, else to `next`.
    Branch { cond: BranchIf, taken: BlockId, next: BlockId },
    /// `s_swappc_b64` or `s_call_b64`: runs the function entered at `callee`, then `ret`.
    Call { callee: BlockId, ret: BlockId },
    /// `s_setpc_b64` to an address not known here, in a called function: the return.
    Return,
    /// `s_endpgm`.
    End,
}

impl Exit {
    /// Successors inside the same function (a call's callee is another function).
    pub fn successors(&self) -> Vec<BlockId> {
        match *self {
            Exit::Goto(b) => vec![b],
            Exit::Branch { taken, next, .. } => vec![taken, next],
            Exit::Call { ret, .. } => vec![ret],
            Exit::Return | Exit::End => vec![],
        }
    }
}

/// A straight run of instructions of one function.
#[derive(Clone, Debug)]
pub struct Block {
    /// The function this block belongs to (index into [`Cfg::functions`]).
    pub func: usize,
    /// First and last step (indices into [`Program::steps`], inclusive).
    pub first: usize,
    pub last: usize,
    pub exit: Exit,
}

/// A kernel (function 0) or a function it calls.
#[derive(Clone, Debug)]
pub struct Function {
    pub entry: BlockId,
    /// Its blocks in address order.
    pub blocks: Vec<BlockId>,
}

/// The whole graph.
#[derive(Clone, Debug)]
pub struct Cfg {
    pub blocks: Vec<Block>,
    pub functions: Vec<Function>,
}

/// A place the graph cannot be built through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// The instruction's address, as llvm-objdump shows it (the program's base plus its offset).
    pub pc: u64,
    /// The instruction's dwords in hex, as llvm-objdump shows them (empty for a kernel-wide
    /// reason).
    pub raw: String,
    pub text: String,
    pub reason: String,
}

impl Site {
    /// A site at an instruction of `prog`.
    pub fn at(prog: &rdna_emu::program::Program, st: &rdna_emu::program::Step, reason: String) -> Site {
        Site { pc: prog.base + st.pc as u64, raw: st.hex_words(), text: st.text(), reason }
    }
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.raw.is_empty() {
            write!(f, "{:#x}: {}: {}", self.pc, self.text, self.reason)
        } else {
            write!(f, "{:#x}: {} [{}]: {}", self.pc, self.text, self.raw, self.reason)
        }
    }
}

/// Every site that stopped the graph.
#[derive(Clone, Debug)]
/// The sites, and the branch, jump and call targets that lay outside the decoded range (a
/// wider range may hold them).
pub struct CfgError(pub Vec<Site>, pub Vec<u64>);

impl fmt::Display for CfgError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        writeln!(f, "{} place(s) where the control flow cannot be followed:", self.0.len())?;
        for s in &self.0 {
            writeln!(f, "  {s}")?;
        }
        Ok(())
    }
}

impl std::error::Error for CfgError {}

/// A step's successor as found by the scan.
enum Next {
    /// Not a terminator: the next step follows.
    Flow,
    Exit(ExitAt),
}

/// An exit before blocks are numbered: targets are step indices.
#[derive(Clone, Copy)]
enum ExitAt {
    Goto(usize),
    Branch(BranchIf, usize, usize),
    Call(usize, usize),
    Return,
    End,
}

impl Cfg {
    /// Builds the graph of the kernel entered at step `entry` and of every function it calls.
    /// `prog` must have been decoded with its base at guest address 0 (addresses are offsets).
    pub fn build(prog: &Program, entry: usize) -> Result<Cfg, CfgError> {
        let follows_values = prog.steps.iter().any(|st| matches!(st.kind, Kind::Salu(Salu::SetPc | Salu::SwapPc)));
        let mut b = Builder { prog, outside: Vec::new(), sites: BTreeMap::new(), func_of_entry: HashMap::default(), funcs: Vec::new(), scanned: HashSet::default(), clobbers: HashMap::default(), muted: false, pending: Vec::new(), lifted: HashMap::default(), follows_values };
        b.function(entry);
        let mut i = 0;
        while i < b.funcs.len() {
            b.scan_function(i);
            i += 1;
        }
        if !b.sites.is_empty() {
            return Err(CfgError(b.sites.into_values().collect(), b.outside));
        }
        b.number()
    }

    /// The block of `func` that starts at step `step`.
    pub fn block_at(&self, func: usize, step: usize) -> Option<BlockId> {
        self.functions.get(func)?.blocks.iter().copied().find(|&b| self.blocks[b].first == step)
    }

    /// Whether a wave may go from the last instruction at byte offset `from` to the
    /// instruction at `to` by a branch (taken or not), jump, call or return of this graph.
    pub fn allows(&self, prog: &Program, from: u32, to: u32) -> bool {
        let (Some(f), Some(t)) = (prog.at(from as u64), prog.at(to as u64)) else { return false };
        self.blocks.iter().filter(|b| b.last == f).any(|b| match b.exit {
            Exit::Goto(x) => self.blocks[x].first == t,
            Exit::Branch { taken, next, .. } => self.blocks[taken].first == t || self.blocks[next].first == t,
            Exit::Call { callee, .. } => self.blocks[callee].first == t,
            // A return goes to the continuation of some call of this function.
            Exit::Return => self.blocks.iter().any(|c| match c.exit {
                Exit::Call { callee, ret } => self.blocks[callee].func == b.func && self.blocks[ret].first == t,
                _ => false,
            }),
            Exit::End => false,
        })
    }

    /// Predecessors of every block within its function.
    pub fn predecessors(&self) -> Vec<Vec<BlockId>> {
        let mut preds = vec![Vec::new(); self.blocks.len()];
        for (i, b) in self.blocks.iter().enumerate() {
            for s in b.exit.successors() {
                preds[s].push(i);
            }
        }
        preds
    }
}

/// Blocks of one function before numbering: first step → (last step, exit).
type Runs = BTreeMap<usize, (usize, ExitAt)>;

struct Builder<'a> {
    prog: &'a Program,
    /// Targets outside the decoded range (see [`CfgError`]).
    outside: Vec<u64>,
    /// Problems, keyed by step so that one site is reported once.
    sites: BTreeMap<usize, Site>,
    func_of_entry: HashMap<usize, usize>,
    /// Each function's entry step and its blocks once scanned.
    funcs: Vec<(usize, Runs)>,
    /// Functions scanned or being scanned.
    scanned: HashSet<usize>,
    /// The SGPRs each function (with what it calls) may change; `None`: any.
    clobbers: HashMap<usize, Option<BTreeSet<u16>>>,
    /// While a function's graph is still settling, its sites are held in `pending` and kept
    /// only from the pass that finds no new leader.
    muted: bool,
    pending: Vec<(usize, Site)>,
    /// Scalar steps lifted into IR regions, by step index (`None`: not liftable), made once
    /// though the constant flow visits a step on every pass to its fixpoint.
    lifted: HashMap<usize, Option<rdna_ir::Body>>,
    /// Whether SGPR values are followed at all: only an `s_setpc_b64` or `s_swappc_b64` reads
    /// them, so a program without either skips the work.
    follows_values: bool,
}

impl Builder<'_> {
    fn function(&mut self, entry: usize) -> usize {
        if let Some(&f) = self.func_of_entry.get(&entry) {
            return f;
        }
        self.func_of_entry.insert(entry, self.funcs.len());
        self.funcs.push((entry, BTreeMap::new()));
        self.funcs.len() - 1
    }

    fn site(&mut self, i: usize, reason: String) {
        let st = &self.prog.steps[i];
        let text = match st.kind {
            Kind::Invalid(w) => format!(".long {w:#010x}"),
            _ => st.text(),
        };
        let site = Site { pc: self.prog.base + st.pc as u64, raw: st.hex_words(), text, reason };
        if self.muted {
            self.pending.push((i, site));
        } else {
            self.sites.entry(i).or_insert(site);
        }
    }

    /// Scans function `f` (once).
    fn scan_function(&mut self, f: usize) {
        if self.scanned.insert(f) {
            // A function's graph does not depend on its callers: its sites are recorded even
            // when a caller's pass asks for it.
            let muted = std::mem::replace(&mut self.muted, false);
            let pending = std::mem::take(&mut self.pending);
            let entry = self.funcs[f].0;
            let runs = self.leaders(entry, f == 0);
            self.funcs[f].1 = runs;
            self.muted = muted;
            self.pending = pending;
        }
    }

    /// Finds the leaders of the function entered at `entry` and, for each, where its straight
    /// run ends (a terminator or the next leader). Repeats until no new leader appears; the
    /// sites of that last pass are the function's.
    fn leaders(&mut self, entry: usize, kernel: bool) -> Runs {
        let mut leaders = Leaders::new(self.prog.steps.len() + 1);
        leaders.insert(entry);
        let was_muted = self.muted;
        loop {
            self.muted = true;
            self.pending.clear();
            let (runs, found) = self.flow(entry, &leaders, kernel);
            if found.is_empty() {
                self.muted = was_muted;
                if !was_muted {
                    for (i, site) in std::mem::take(&mut self.pending) {
                        self.sites.entry(i).or_insert(site);
                    }
                }
                return runs;
            }
            for t in found {
                leaders.insert(t);
            }
        }
    }

    /// One pass over the function's blocks from `entry`, carrying the SGPR values known at each
    /// block's start from its predecessors (optimistically: a predecessor not reached yet does
    /// not count; a call's continuation keeps what the callee leaves alone), so that a call
    /// through an address computed in an earlier block is followed. Returns the blocks and the
    /// targets that are not leaders yet.
    fn flow(&mut self, entry: usize, leaders: &Leaders, kernel: bool) -> (Runs, Vec<usize>) {
        let mut out: HashMap<usize, Consts> = HashMap::default();
        // Each block's predecessors, with the callee when the edge returns from a call.
        let mut preds: HashMap<usize, Vec<(usize, Option<usize>)>> = HashMap::default();
        let mut runs = Runs::new();
        let mut found = BTreeSet::new();
        let mut work = VecDeque::from([entry]);
        let mut queued: HashSet<usize> = [entry].into_iter().collect();
        // Values only ever get forgotten, so this settles; the bound is a safety net.
        let mut budget = 64 * (leaders.count + 16);
        while let Some(l) = work.pop_front() {
            queued.remove(&l);
            if budget == 0 {
                break;
            }
            budget -= 1;
            let start = if l == entry { Consts::default() } else { self.meet(preds.get(&l).map_or(&[][..], |v| v), &out) };
            let (last, exit, end) = self.scan(l, leaders, kernel, start);
            runs.insert(l, (last, exit));
            let succs: Vec<(usize, Option<usize>)> = match exit {
                ExitAt::Goto(t) => vec![(t, None)],
                ExitAt::Branch(_, t, n) => vec![(t, None), (n, None)],
                ExitAt::Call(c, r) => {
                    self.function(c);
                    vec![(r, Some(c))]
                }
                ExitAt::Return | ExitAt::End => vec![],
            };
            let changed = out.get(&l) != Some(&end);
            out.insert(l, end);
            for (t, via) in succs {
                if !leaders.contains(t) {
                    found.insert(t);
                }
                let ps = preds.entry(t).or_default();
                let new_edge = !ps.contains(&(l, via));
                if new_edge {
                    ps.push((l, via));
                }
                if (changed || new_edge) && queued.insert(t) {
                    work.push_back(t);
                }
            }
        }
        (runs, found.into_iter().collect())
    }

    /// What is known at a block's start: the values every predecessor reached so far agrees on.
    fn meet(&mut self, preds: &[(usize, Option<usize>)], out: &HashMap<usize, Consts>) -> Consts {
        let mut known: Option<Consts> = None;
        for &(p, via) in preds {
            let Some(c) = out.get(&p) else { continue };
            let mut c = c.clone();
            if let Some(callee) = via {
                let clobbers = self.clobbers_of(callee);
                c.after_call(clobbers.as_ref());
            }
            known = Some(match known {
                None => c,
                Some(k) => k.meet(&c),
            });
        }
        known.unwrap_or_default()
    }

    /// The SGPRs the function entered at `entry` (and whatever it calls) may change: every one
    /// its instructions name. `None` (any) for a function still being scanned (recursion) or
    /// one that indexes SGPRs through M0.
    fn clobbers_of(&mut self, entry: usize) -> Option<BTreeSet<u16>> {
        let f = self.function(entry);
        if let Some(c) = self.clobbers.get(&f) {
            return c.clone();
        }
        if self.scanned.contains(&f) && self.funcs[f].1.is_empty() {
            return None; // being scanned: a recursive call
        }
        self.scan_function(f);
        let runs: Vec<(usize, usize, ExitAt)> = self.funcs[f].1.iter().map(|(&a, &(b, e))| (a, b, e)).collect();
        let mut set = Some(BTreeSet::new());
        for (first, last, exit) in runs {
            for st in &self.prog.steps[first..=last] {
                match (st.sgprs_named(), set.as_mut()) {
                    (Some(named), Some(s)) => {
                        for (r, w) in named {
                            s.extend(r..r.saturating_add(w));
                        }
                    }
                    _ => set = None,
                }
            }
            if let ExitAt::Call(c, _) = exit {
                match (self.clobbers_of(c), set.as_mut()) {
                    (Some(inner), Some(s)) => s.extend(inner),
                    _ => set = None,
                }
            }
        }
        self.clobbers.insert(f, set.clone());
        set
    }

    /// Scans from `start` to the end of its block; returns the last step and the exit.
    fn scan(&mut self, start: usize, leaders: &Leaders, kernel: bool, mut consts: Consts) -> (usize, ExitAt, Consts) {
        let mut i = start;
        loop {
            let Some(st) = self.prog.steps.get(i) else {
                // Only reachable by falling off the end: report at the last instruction.
                let last = i.saturating_sub(1);
                self.site(last, "control runs past the end of the code".into());
                return (last, ExitAt::End, consts);
            };
            match self.next(i, st, &mut consts, kernel) {
                Next::Exit(e) => return (i, e, consts),
                Next::Flow => {}
            }
            if i + 1 < self.prog.steps.len() && leaders.contains(i + 1) {
                return (i, ExitAt::Goto(i + 1), consts);
            }
            if self.prog.steps.get(i + 1).is_some_and(|n| n.pc != st.pc + st.inst.len as u32) {
                // Padding or data between this and the next decoded step is not code.
                self.site(i, "control runs into bytes that are not an instruction".into());
                return (i, ExitAt::End, consts);
            }
            i += 1;
        }
    }

    /// Where control goes after step `i`.
    fn next(&mut self, i: usize, st: &Step, consts: &mut Consts, kernel: bool) -> Next {
        let after = i + 1;
        let next_pc = st.pc as u64 + st.inst.len as u64;
        let rel = |this: &mut Self, simm: i64| -> Option<usize> {
            let dest = st.pc as i64 + 4 + simm * 4;
            let t = (dest >= 0).then(|| this.prog.at(dest as u64)).flatten();
            if t.is_none() {
                if dest >= 0 && !this.prog.covers(dest as u64) {
                    this.outside.push(dest as u64);
                }
                this.site(i, format!("branch target {dest:#x} is not an instruction of the code"));
            }
            t
        };
        let absolute = |this: &mut Self, addr: u64| -> Option<usize> {
            let t = this.prog.at(addr);
            if t.is_none() {
                if !this.prog.covers(addr) {
                    this.outside.push(addr);
                }
                this.site(i, format!("jump target {addr:#x} is not an instruction of the code"));
            }
            t
        };
        match st.kind {
            Kind::EndPgm => Next::Exit(ExitAt::End),
            Kind::Invalid(_) => {
                self.site(i, "reached word that does not decode".into());
                Next::Exit(ExitAt::End)
            }
            Kind::Branch(cond) => {
                let Src::Const(simm) = st.src[0] else { unreachable!("branch offsets are immediates") };
                let Some(t) = rel(self, simm as u16 as i16 as i64) else { return Next::Exit(ExitAt::End) };
                if cond == BranchIf::Always {
                    return Next::Exit(ExitAt::Goto(t));
                }
                if self.prog.steps.get(after).is_none() {
                    self.site(i, "a conditional branch is the last instruction of the code".into());
                    return Next::Exit(ExitAt::End);
                }
                Next::Exit(ExitAt::Branch(cond, t, after))
            }
            Kind::Salu(Salu::CallB64) => {
                let Src::Const(simm) = st.src[0] else { unreachable!("s_call offsets are immediates") };
                let Some(t) = rel(self, simm as u16 as i16 as i64) else { return Next::Exit(ExitAt::End) };
                consts.set64(st.dst, next_pc);
                Next::Exit(self.call(i, t))
            }
            Kind::Salu(Salu::SetPc) => match consts.get64(st.src[0]) {
                Some(a) => absolute(self, a).map_or(Next::Exit(ExitAt::End), |t| Next::Exit(ExitAt::Goto(t))),
                None if !kernel => Next::Exit(ExitAt::Return),
                None => {
                    self.site(i, "s_setpc_b64 in the kernel to an address not computed in its block".into());
                    Next::Exit(ExitAt::End)
                }
            },
            Kind::Salu(Salu::SwapPc) => match consts.get64(st.src[0]) {
                Some(a) => match absolute(self, a) {
                    Some(t) => Next::Exit(self.call(i, t)),
                    None => Next::Exit(ExitAt::End),
                },
                None => {
                    self.site(i, "indirect call: s_swappc_b64 to an address not computed in its block".into());
                    Next::Exit(ExitAt::End)
                }
            },
            _ if !self.follows_values => Next::Flow,
            _ => {
                let lifted = self.lifted.entry(i).or_insert_with(|| {
                    let mut b = rdna_ir::Builder::new();
                    let lanes = if st.inst.wave64 { 64 } else { 32 };
                    // PCs here are offsets in the program: `.text` starts at 0.
                    (crate::lift::lifts(st.kind) && crate::lift::lift(&mut b, st, lanes, st.pc as u64).is_ok()).then(|| rdna_ir::optimize(&b.finish()))
                });
                consts.step(st, lifted.as_ref());
                Next::Flow
            }
        }
    }

    fn call(&mut self, i: usize, callee: usize) -> ExitAt {
        if self.prog.steps.get(i + 1).is_none() {
            self.site(i, "a call is the last instruction of the code".into());
            return ExitAt::End;
        }
        ExitAt::Call(callee, i + 1)
    }

    /// Numbers the blocks: functions in discovery order, blocks in address order.
    fn number(self) -> Result<Cfg, CfgError> {
        let mut id: HashMap<(usize, usize), BlockId> = HashMap::default();
        let mut n = 0;
        for (f, (_, runs)) in self.funcs.iter().enumerate() {
            for &l in runs.keys() {
                id.insert((f, l), n);
                n += 1;
            }
        }
        let mut blocks = Vec::with_capacity(n);
        let mut functions = Vec::new();
        for (f, (entry, runs)) in self.funcs.iter().enumerate() {
            let local = |s: usize| id[&(f, s)];
            for (&l, &(last, exit)) in runs {
                let exit = match exit {
                    ExitAt::Goto(t) => Exit::Goto(local(t)),
                    ExitAt::Branch(c, t, x) => Exit::Branch { cond: c, taken: local(t), next: local(x) },
                    ExitAt::Call(c, r) => Exit::Call { callee: id[&(self.func_of_entry[&c], c)], ret: local(r) },
                    ExitAt::Return => Exit::Return,
                    ExitAt::End => Exit::End,
                };
                blocks.push(Block { func: f, first: l, last, exit });
            }
            functions.push(Function { entry: local(*entry), blocks: runs.keys().map(|&l| local(l)).collect() });
        }
        Ok(Cfg { blocks, functions })
    }
}

/// The steps that start a block, as one flag per step: the scan asks after every instruction.
struct Leaders {
    is: Vec<bool>,
    count: usize,
}

impl Leaders {
    fn new(steps: usize) -> Leaders {
        Leaders { is: vec![false; steps], count: 0 }
    }

    fn insert(&mut self, i: usize) {
        if i >= self.is.len() {
            self.is.resize(i + 1, false);
        }
        if !std::mem::replace(&mut self.is[i], true) {
            self.count += 1;
        }
    }

    fn contains(&self, i: usize) -> bool {
        self.is.get(i).copied().unwrap_or(false)
    }
}

/// SGPR and SCC values known at a point, for following computed code addresses.
#[derive(Clone, Default, PartialEq, Eq)]
struct Consts {
    s: HashMap<u16, u32>,
    scc: Option<bool>,
}

impl Consts {
    /// What both know alike.
    fn meet(&self, other: &Consts) -> Consts {
        Consts {
            s: self.s.iter().filter(|(r, v)| other.s.get(r) == Some(v)).map(|(&r, &v)| (r, v)).collect(),
            scc: self.scc.filter(|c| other.scc == Some(*c)),
        }
    }

    /// After a call: the callee may have changed `clobbers` (`None`: anything), SCC and the
    /// registers reached implicitly (VCC, M0, EXEC and the rest from 106 up).
    fn after_call(&mut self, clobbers: Option<&BTreeSet<u16>>) {
        match clobbers {
            None => self.s.clear(),
            Some(c) => self.s.retain(|r, _| *r < 106 && !c.contains(r)),
        }
        self.scc = None;
    }

    fn get64(&self, src: Src) -> Option<u64> {
        match src {
            Src::Sgpr(r) => Some(self.s.get(&r).copied()? as u64 | (self.s.get(&(r + 1)).copied()? as u64) << 32),
            Src::Const(c) => Some(c),
            _ => None,
        }
    }

    fn set(&mut self, r: u16, v: Option<u32>) {
        match v {
            Some(v) => _ = self.s.insert(r, v),
            None => _ = self.s.remove(&r),
        }
    }

    fn set64(&mut self, r: u16, v: u64) {
        self.set(r, Some(v as u32));
        self.set(r + 1, Some((v >> 32) as u32));
    }

    /// Follows a lifted scalar instruction (`lifted`, its IR region) through the IR's partial
    /// interpreter, values staying known where their inputs are; forgets whatever else writes.
    fn step(&mut self, st: &Step, lifted: Option<&rdna_ir::Body>) {
        let Some(body) = lifted else { return self.forget_writes(st) };
        let read = |r: Reg| match r {
            Reg::Sgpr(n) => self.s.get(&(n as u16)).map(|&v| v as u64),
            Reg::Scc => self.scc.map(|c| c as u64),
            Reg::Vgpr(_) => None,
        };
        let inputs = rdna_ir::Inputs { code_base: Some(0), ..rdna_ir::Inputs::registers(&read) };
        for e in rdna_ir::run_known(body, &inputs) {
            match e {
                rdna_ir::Effect::Reg { reg: Reg::Sgpr(n), value } => self.set(n as u16, value.map(|v| v as u32)),
                rdna_ir::Effect::Reg { reg: Reg::Scc, value } => self.scc = value.map(|v| v != 0),
                _ => {}
            }
        }
    }

    /// Forgets every SGPR the instruction may write, VCC and SCC (conservatively).
    fn forget_writes(&mut self, st: &Step) {
        let inst = &st.inst;
        if inst.entry.name.starts_with("s_movrel") {
            self.s.clear();
        }
        for op in inst.entry.operands {
            let dest = matches!(op.field, Field::Sdst | Field::Sdata) || (op.field == Field::Vdst && op.class == Class::Sgpr);
            if dest {
                let raw = inst.field(op.field);
                let width = if op.mask && inst.wave64 { op.width * 2 } else { op.width };
                for k in 0..width.max(1) as u16 {
                    self.s.remove(&(raw + k));
                }
            }
        }
        for k in 0..4 {
            self.s.remove(&(st.sdst.wrapping_add(k)));
        }
        self.s.remove(&106);
        self.s.remove(&107);
        self.scc = None;
    }
}
