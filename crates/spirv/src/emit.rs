//! The module writer: SPIR-V words appended as the lowering goes, section by section.
//!
//! Its methods are named and typed as `rspirv::dr::Builder`'s (the subset the lowering uses) and
//! write the module that builder writes, word for word (types deduplicated, constants not,
//! sections in the order `rspirv` assembles them). It exists for speed: `rspirv`'s builder keeps
//! every instruction as a heap object with a vector of operands and finds each opcode's grammar
//! entry by a linear search, which made module building most of a kernel's recompile time.
//! Operands other than ids are encoded by `rspirv` itself (`Assemble`), and modules are read
//! back and printed with `rspirv` (`crate::disassemble`).

use rspirv::binary::Assemble;
use rspirv::dr::Operand;
use rspirv::spirv::{self, Op, Word};
use rustc_hash::FxHashMap;
use std::convert::Infallible;

/// Module building cannot fail here; the type keeps `rspirv`'s call shape (`.unwrap()`).
pub type BuildResult<T> = Result<T, Infallible>;

/// A SPIR-V module under construction.
pub struct Builder {
    next_id: Word,
    version: Word,
    capabilities: Vec<u32>,
    ext_inst_imports: Vec<u32>,
    memory_model: Vec<u32>,
    entry_points: Vec<u32>,
    execution_modes: Vec<u32>,
    annotations: Vec<u32>,
    globals: Vec<u32>,
    functions: Vec<u32>,
    /// Helper functions (see [`Builder::begin_helper`]), placed after `functions`.
    helpers: Vec<u32>,
    /// Type declarations by opcode and operand words, so each is declared once.
    types: FxHashMap<(u16, Vec<u32>), Word>,
    /// Whether a block is open (instructions go to the function) or not (variables and
    /// constants go to the module's global section).
    in_block: bool,
    /// Counts the blocks begun, so that the lowering can tell when a value it made may no longer
    /// dominate where it is (see [`Builder::block_serial`]).
    block_serial: u32,
    /// The label of the block instructions go to (for [`Builder::phi`]'s parents).
    label: Word,
}

impl Default for Builder {
    fn default() -> Self {
        Builder::new()
    }
}

/// The function [`Builder::begin_helper`] interrupted: its words and whether a block was open.
pub struct Interrupted {
    words: Vec<u32>,
    in_block: bool,
    label: Word,
}

/// Appends one instruction to `out`: its opcode and word count, then `body`'s words.
fn inst(out: &mut Vec<u32>, op: Op, body: impl FnOnce(&mut Vec<u32>)) {
    let start = out.len();
    out.push(0);
    body(out);
    out[start] = ((out.len() - start) as u32) << 16 | op as u32;
}

fn operands(out: &mut Vec<u32>, ops: impl IntoIterator<Item = Operand>) {
    for o in ops {
        o.assemble_into(out);
    }
}

/// A literal string: UTF-8, NUL-terminated, padded to whole words.
fn string(out: &mut Vec<u32>, s: &str) {
    let bytes = s.as_bytes();
    for chunk in bytes.chunks(4) {
        let mut w = [0u8; 4];
        w[..chunk.len()].copy_from_slice(chunk);
        out.push(u32::from_le_bytes(w));
    }
    if bytes.len() % 4 == 0 {
        out.push(0);
    }
}

macro_rules! unary {
    ($($name:ident => $op:ident),* $(,)?) => {$(
        pub fn $name(&mut self, ty: Word, id: Option<Word>, a: Word) -> BuildResult<Word> {
            Ok(self.value(Op::$op, ty, id, &[a]))
        }
    )*};
}

macro_rules! binary {
    ($($name:ident => $op:ident),* $(,)?) => {$(
        pub fn $name(&mut self, ty: Word, id: Option<Word>, a: Word, b: Word) -> BuildResult<Word> {
            Ok(self.value(Op::$op, ty, id, &[a, b]))
        }
    )*};
}

impl Builder {
    pub fn new() -> Builder {
        Builder {
            next_id: 1,
            version: 0x0001_0000,
            capabilities: Vec::new(),
            ext_inst_imports: Vec::new(),
            memory_model: Vec::new(),
            entry_points: Vec::new(),
            execution_modes: Vec::new(),
            annotations: Vec::new(),
            globals: Vec::with_capacity(1 << 10),
            functions: Vec::with_capacity(1 << 16),
            helpers: Vec::new(),
            types: FxHashMap::default(),
            in_block: false,
            block_serial: 0,
            label: 0,
        }
    }

    pub fn set_version(&mut self, major: u8, minor: u8) {
        self.version = (major as u32) << 16 | (minor as u32) << 8;
    }

    /// A fresh result id.
    pub fn id(&mut self) -> Word {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// The whole module: header (magic, version, `rspirv`'s generator number, id bound) and the
    /// sections in their required order.
    pub fn assemble(&self) -> Vec<u32> {
        let sections = [&self.capabilities, &self.ext_inst_imports, &self.memory_model, &self.entry_points, &self.execution_modes, &self.annotations, &self.globals, &self.functions, &self.helpers];
        let mut out = Vec::with_capacity(5 + sections.iter().map(|s| s.len()).sum::<usize>());
        out.extend([spirv::MAGIC_NUMBER, self.version, 0x000f_0000, self.next_id, 0]);
        for s in sections {
            out.extend_from_slice(s);
        }
        out
    }

    /// An instruction with a result in the open block: `code type id args…`, every argument an id.
    pub fn value(&mut self, code: Op, ty: Word, id: Option<Word>, args: &[Word]) -> Word {
        let id = id.unwrap_or_else(|| self.id());
        inst(&mut self.functions, code, |o| {
            o.extend([ty, id]);
            o.extend_from_slice(args);
        });
        id
    }

    /// An instruction without a result in the open block, every argument an id.
    fn effect(&mut self, code: Op, args: &[Word]) {
        inst(&mut self.functions, code, |o| o.extend_from_slice(args));
    }

    fn terminate(&mut self, code: Op, args: &[Word]) -> BuildResult<()> {
        self.effect(code, args);
        self.in_block = false;
        Ok(())
    }

    // Module-level declarations.

    pub fn capability(&mut self, c: spirv::Capability) {
        // `rspirv` keeps one of each.
        let mut w = Vec::new();
        inst(&mut w, Op::Capability, |o| o.push(c as u32));
        if !self.capabilities.chunks(2).any(|x| x == w.as_slice()) {
            self.capabilities.extend(w);
        }
    }

    pub fn memory_model(&mut self, a: spirv::AddressingModel, m: spirv::MemoryModel) {
        self.memory_model.clear();
        inst(&mut self.memory_model, Op::MemoryModel, |o| o.extend([a as u32, m as u32]));
    }

    pub fn ext_inst_import(&mut self, name: &str) -> Word {
        let id = self.id();
        inst(&mut self.ext_inst_imports, Op::ExtInstImport, |o| {
            o.push(id);
            string(o, name);
        });
        id
    }

    pub fn entry_point(&mut self, model: spirv::ExecutionModel, function: Word, name: &str, interface: impl IntoIterator<Item = Word>) {
        inst(&mut self.entry_points, Op::EntryPoint, |o| {
            o.extend([model as u32, function]);
            string(o, name);
            o.extend(interface);
        });
    }

    pub fn execution_mode(&mut self, function: Word, mode: spirv::ExecutionMode, params: impl IntoIterator<Item = u32>) {
        inst(&mut self.execution_modes, Op::ExecutionMode, |o| {
            o.extend([function, mode as u32]);
            o.extend(params);
        });
    }

    pub fn decorate(&mut self, target: Word, d: spirv::Decoration, params: impl IntoIterator<Item = Operand>) {
        inst(&mut self.annotations, Op::Decorate, |o| {
            o.extend([target, d as u32]);
            operands(o, params);
        });
    }

    pub fn member_decorate(&mut self, structure: Word, member: u32, d: spirv::Decoration, params: impl IntoIterator<Item = Operand>) {
        inst(&mut self.annotations, Op::MemberDecorate, |o| {
            o.extend([structure, member, d as u32]);
            operands(o, params);
        });
    }

    /// A type, declared once (as `rspirv` deduplicates types).
    fn ty(&mut self, code: Op, args: &[u32]) -> Word {
        let key = (code as u16, args.to_vec());
        if let Some(&id) = self.types.get(&key) {
            return id;
        }
        let id = self.id();
        inst(&mut self.globals, code, |o| {
            o.push(id);
            o.extend_from_slice(args);
        });
        self.types.insert(key, id);
        id
    }

    pub fn type_void(&mut self) -> Word {
        self.ty(Op::TypeVoid, &[])
    }

    pub fn type_bool(&mut self) -> Word {
        self.ty(Op::TypeBool, &[])
    }

    pub fn type_int(&mut self, width: u32, signedness: u32) -> Word {
        self.ty(Op::TypeInt, &[width, signedness])
    }

    pub fn type_float(&mut self, width: u32) -> Word {
        self.ty(Op::TypeFloat, &[width])
    }

    pub fn type_vector(&mut self, component: Word, count: u32) -> Word {
        self.ty(Op::TypeVector, &[component, count])
    }

    pub fn type_array(&mut self, element: Word, length: Word) -> Word {
        self.ty(Op::TypeArray, &[element, length])
    }

    pub fn type_struct(&mut self, members: impl IntoIterator<Item = Word>) -> Word {
        let m: Vec<Word> = members.into_iter().collect();
        self.ty(Op::TypeStruct, &m)
    }

    pub fn type_function(&mut self, ret: Word, params: impl IntoIterator<Item = Word>) -> Word {
        let mut a = vec![ret];
        a.extend(params);
        self.ty(Op::TypeFunction, &a)
    }

    pub fn type_pointer(&mut self, id: Option<Word>, class: spirv::StorageClass, pointee: Word) -> Word {
        match id {
            Some(id) => {
                inst(&mut self.globals, Op::TypePointer, |o| o.extend([id, class as u32, pointee]));
                id
            }
            None => self.ty(Op::TypePointer, &[class as u32, pointee]),
        }
    }

    fn constant(&mut self, code: Op, ty: Word, args: &[u32]) -> Word {
        let id = self.id();
        inst(&mut self.globals, code, |o| {
            o.extend([ty, id]);
            o.extend_from_slice(args);
        });
        id
    }

    pub fn constant_true(&mut self, ty: Word) -> Word {
        self.constant(Op::ConstantTrue, ty, &[])
    }

    pub fn constant_false(&mut self, ty: Word) -> Word {
        self.constant(Op::ConstantFalse, ty, &[])
    }

    pub fn constant_null(&mut self, ty: Word) -> Word {
        self.constant(Op::ConstantNull, ty, &[])
    }

    pub fn constant_bit32(&mut self, ty: Word, v: u32) -> Word {
        self.constant(Op::Constant, ty, &[v])
    }

    pub fn constant_composite(&mut self, ty: Word, parts: &[Word]) -> Word {
        self.constant(Op::ConstantComposite, ty, parts)
    }

    pub fn constant_bit64(&mut self, ty: Word, v: u64) -> Word {
        self.constant(Op::Constant, ty, &[v as u32, (v >> 32) as u32])
    }

    /// A variable: in the open block (function storage) or, outside a block, in the module.
    pub fn variable(&mut self, ty: Word, id: Option<Word>, class: spirv::StorageClass, init: Option<Word>) -> Word {
        let id = id.unwrap_or_else(|| self.id());
        let out = if self.in_block { &mut self.functions } else { &mut self.globals };
        inst(out, Op::Variable, |o| {
            o.extend([ty, id, class as u32]);
            o.extend(init);
        });
        id
    }

    // Functions and blocks.

    pub fn begin_function(&mut self, ret: Word, id: Option<Word>, control: spirv::FunctionControl, fn_ty: Word) -> BuildResult<Word> {
        let id = id.unwrap_or_else(|| self.id());
        inst(&mut self.functions, Op::Function, |o| o.extend([ret, id, control.bits(), fn_ty]));
        Ok(id)
    }

    pub fn end_function(&mut self) -> BuildResult<()> {
        self.effect(Op::FunctionEnd, &[]);
        Ok(())
    }

    /// Starts writing a helper function while another function is being written: until
    /// [`Builder::end_helper`], instructions go to the helper (from its `begin_function` to its
    /// `end_function`), and the interrupted function resumes where it was, in the same block.
    /// Helpers follow the other functions in the module.
    pub fn begin_helper(&mut self) -> Interrupted {
        Interrupted { words: std::mem::take(&mut self.functions), in_block: std::mem::replace(&mut self.in_block, false), label: self.label }
    }

    /// Ends a helper function begun by [`Builder::begin_helper`].
    pub fn end_helper(&mut self, interrupted: Interrupted) {
        let helper = std::mem::replace(&mut self.functions, interrupted.words);
        self.helpers.extend_from_slice(&helper);
        self.in_block = interrupted.in_block;
        self.label = interrupted.label;
        // The interrupted block resumes, but values made in the helper are not visible in it.
        self.block_serial += 1;
    }

    /// Changes whenever a block begins (or a block resumes after a helper): a value made while
    /// the serial was the same is in the current block, so it dominates what follows.
    pub fn block_serial(&self) -> u32 {
        self.block_serial
    }

    pub fn function_parameter(&mut self, ty: Word) -> BuildResult<Word> {
        let id = self.id();
        inst(&mut self.functions, Op::FunctionParameter, |o| o.extend([ty, id]));
        Ok(id)
    }

    pub fn function_call(&mut self, ty: Word, id: Option<Word>, function: Word, args: impl IntoIterator<Item = Word>) -> BuildResult<Word> {
        Ok(self.value_list(Op::FunctionCall, ty, id, function, args))
    }

    pub fn ret_value(&mut self, value: Word) -> BuildResult<()> {
        self.terminate(Op::ReturnValue, &[value])
    }

    pub fn begin_block(&mut self, label: Option<Word>) -> BuildResult<Word> {
        let id = label.unwrap_or_else(|| self.id());
        self.effect(Op::Label, &[id]);
        self.in_block = true;
        self.label = id;
        self.block_serial += 1;
        Ok(id)
    }

    /// The label of the block being built.
    pub fn current_label(&self) -> Word {
        self.label
    }

    /// `OpPhi`: `incoming` are (value, parent block label) pairs.
    pub fn phi(&mut self, ty: Word, incoming: &[(Word, Word)]) -> Word {
        let args: Vec<Word> = incoming.iter().flat_map(|&(v, l)| [v, l]).collect();
        self.value(Op::Phi, ty, None, &args)
    }

    pub fn ret(&mut self) -> BuildResult<()> {
        self.terminate(Op::Return, &[])
    }

    pub fn branch(&mut self, target: Word) -> BuildResult<()> {
        self.terminate(Op::Branch, &[target])
    }

    pub fn branch_conditional(&mut self, cond: Word, t: Word, f: Word, weights: impl IntoIterator<Item = u32>) -> BuildResult<()> {
        let mut a = vec![cond, t, f];
        a.extend(weights);
        self.terminate(Op::BranchConditional, &a)
    }

    /// `OpSwitch`: `targets` are (literal, label) pairs.
    pub fn switch(&mut self, selector: Word, default: Word, targets: impl IntoIterator<Item = (u32, Word)>) -> BuildResult<()> {
        let mut a = vec![selector, default];
        a.extend(targets.into_iter().flat_map(|(v, l)| [v, l]));
        self.terminate(Op::Switch, &a)
    }

    pub fn selection_merge(&mut self, merge: Word, control: spirv::SelectionControl) -> BuildResult<()> {
        self.effect(Op::SelectionMerge, &[merge, control.bits()]);
        Ok(())
    }

    pub fn loop_merge(&mut self, merge: Word, cont: Word, control: spirv::LoopControl, params: impl IntoIterator<Item = Word>) -> BuildResult<()> {
        let mut a = vec![merge, cont, control.bits()];
        a.extend(params);
        self.effect(Op::LoopMerge, &a);
        Ok(())
    }

    // Memory.

    pub fn load(&mut self, ty: Word, id: Option<Word>, ptr: Word, access: Option<spirv::MemoryAccess>, params: impl IntoIterator<Item = Operand>) -> BuildResult<Word> {
        let id = id.unwrap_or_else(|| self.id());
        inst(&mut self.functions, Op::Load, |o| {
            o.extend([ty, id, ptr]);
            o.extend(access.map(|a| a.bits()));
            operands(o, params);
        });
        Ok(id)
    }

    pub fn store(&mut self, ptr: Word, obj: Word, access: Option<spirv::MemoryAccess>, params: impl IntoIterator<Item = Operand>) -> BuildResult<()> {
        inst(&mut self.functions, Op::Store, |o| {
            o.extend([ptr, obj]);
            o.extend(access.map(|a| a.bits()));
            operands(o, params);
        });
        Ok(())
    }

    pub fn access_chain(&mut self, ty: Word, id: Option<Word>, base: Word, indexes: impl IntoIterator<Item = Word>) -> BuildResult<Word> {
        Ok(self.value_list(Op::AccessChain, ty, id, base, indexes))
    }

    /// `code ty id first rest…` in the open block: an instruction with a result whose operands
    /// are ids, the last of them a list (an access chain's indexes, a call's arguments).
    fn value_list(&mut self, code: Op, ty: Word, id: Option<Word>, first: Word, rest: impl IntoIterator<Item = Word>) -> Word {
        let id = id.unwrap_or_else(|| self.id());
        inst(&mut self.functions, code, |o| {
            o.extend([ty, id, first]);
            o.extend(rest);
        });
        id
    }

    pub fn atomic_load(&mut self, ty: Word, id: Option<Word>, ptr: Word, scope: Word, sem: Word) -> BuildResult<Word> {
        Ok(self.value(Op::AtomicLoad, ty, id, &[ptr, scope, sem]))
    }

    pub fn atomic_store(&mut self, ptr: Word, scope: Word, sem: Word, v: Word) -> BuildResult<()> {
        self.effect(Op::AtomicStore, &[ptr, scope, sem, v]);
        Ok(())
    }

    pub fn atomic_and(&mut self, ty: Word, id: Option<Word>, ptr: Word, scope: Word, sem: Word, v: Word) -> BuildResult<Word> {
        Ok(self.value(Op::AtomicAnd, ty, id, &[ptr, scope, sem, v]))
    }

    pub fn atomic_or(&mut self, ty: Word, id: Option<Word>, ptr: Word, scope: Word, sem: Word, v: Word) -> BuildResult<Word> {
        Ok(self.value(Op::AtomicOr, ty, id, &[ptr, scope, sem, v]))
    }

    #[allow(clippy::too_many_arguments)]
    pub fn atomic_compare_exchange(&mut self, ty: Word, id: Option<Word>, ptr: Word, scope: Word, equal: Word, unequal: Word, v: Word, comparator: Word) -> BuildResult<Word> {
        Ok(self.value(Op::AtomicCompareExchange, ty, id, &[ptr, scope, equal, unequal, v, comparator]))
    }

    pub fn control_barrier(&mut self, exec: Word, mem: Word, sem: Word) -> BuildResult<()> {
        self.effect(Op::ControlBarrier, &[exec, mem, sem]);
        Ok(())
    }

    // Values.

    unary! {
        u_convert => UConvert,
        logical_not => LogicalNot,
        not => Not,
        convert_u_to_ptr => ConvertUToPtr,
    }

    binary! {
        i_add => IAdd,
        i_sub => ISub,
        i_mul => IMul,
        u_div => UDiv,
        u_mod => UMod,
        bitwise_and => BitwiseAnd,
        bitwise_or => BitwiseOr,
        bitwise_xor => BitwiseXor,
        shift_left_logical => ShiftLeftLogical,
        shift_right_logical => ShiftRightLogical,
        i_equal => IEqual,
        i_not_equal => INotEqual,
        u_less_than => ULessThan,
        u_less_than_equal => ULessThanEqual,
        u_greater_than => UGreaterThan,
        u_greater_than_equal => UGreaterThanEqual,
        logical_and => LogicalAnd,
        logical_or => LogicalOr,
        group_non_uniform_ballot => GroupNonUniformBallot,
    }

    pub fn select(&mut self, ty: Word, id: Option<Word>, cond: Word, a: Word, b: Word) -> BuildResult<Word> {
        Ok(self.value(Op::Select, ty, id, &[cond, a, b]))
    }

    pub fn bit_field_s_extract(&mut self, ty: Word, id: Option<Word>, base: Word, offset: Word, count: Word) -> BuildResult<Word> {
        Ok(self.value(Op::BitFieldSExtract, ty, id, &[base, offset, count]))
    }

    pub fn group_non_uniform_shuffle(&mut self, ty: Word, id: Option<Word>, scope: Word, v: Word, lane: Word) -> BuildResult<Word> {
        Ok(self.value(Op::GroupNonUniformShuffle, ty, id, &[scope, v, lane]))
    }

    /// `indexes` are literal member numbers.
    pub fn composite_extract(&mut self, ty: Word, id: Option<Word>, composite: Word, indexes: impl IntoIterator<Item = u32>) -> BuildResult<Word> {
        let id = id.unwrap_or_else(|| self.id());
        inst(&mut self.functions, Op::CompositeExtract, |o| {
            o.extend([ty, id, composite]);
            o.extend(indexes);
        });
        Ok(id)
    }

    pub fn ext_inst(&mut self, ty: Word, id: Option<Word>, set: Word, instruction: u32, args: impl IntoIterator<Item = Operand>) -> BuildResult<Word> {
        let id = id.unwrap_or_else(|| self.id());
        inst(&mut self.functions, Op::ExtInst, |o| {
            o.extend([ty, id, set, instruction]);
            operands(o, args);
        });
        Ok(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same module built by this writer and by `rspirv`'s builder (the reference for the
    /// words) is the same, word for word; a capability asked for twice is declared once.
    #[test]
    fn writes_what_rspirv_writes() {
        macro_rules! build {
            ($b:ident) => {{
                $b.set_version(1, 6);
                $b.capability(spirv::Capability::Shader);
                $b.memory_model(spirv::AddressingModel::Logical, spirv::MemoryModel::GLSL450);
                let glsl = $b.ext_inst_import("GLSL.std.450");
                let void = $b.type_void();
                let u32t = $b.type_int(32, 0);
                assert_eq!($b.type_int(32, 0), u32t, "types are declared once");
                let f32t = $b.type_float(32);
                let ptr = $b.type_pointer(None, spirv::StorageClass::Function, u32t);
                let fn_ty = $b.type_function(void, []);
                let seven = $b.constant_bit32(u32t, 7);
                let wide = $b.type_int(64, 0);
                let big = $b.constant_bit64(wide, 0x1234_5678_9abc_def0);
                let main = $b.begin_function(void, None, spirv::FunctionControl::NONE, fn_ty).unwrap();
                $b.begin_block(None).unwrap();
                let var = $b.variable(ptr, None, spirv::StorageClass::Function, Some(seven));
                let v = $b.load(u32t, None, var, None, []).unwrap();
                let w = $b.i_add(u32t, None, v, seven).unwrap();
                let n = $b.u_convert(u32t, None, big).unwrap();
                let c = $b.u_less_than(u32t, None, n, w).unwrap();
                let s = $b.select(u32t, None, c, n, w).unwrap();
                $b.store(var, s, Some(spirv::MemoryAccess::ALIGNED), [Operand::LiteralBit32(4)]).unwrap();
                let f = $b.ext_inst(f32t, None, glsl, spirv::GLOp::FAbs as u32, [Operand::IdRef(w)]).unwrap();
                $b.decorate(f, spirv::Decoration::NoContraction, []);
                let (then, join) = ($b.id(), $b.id());
                $b.selection_merge(join, spirv::SelectionControl::NONE).unwrap();
                $b.branch_conditional(c, then, join, []).unwrap();
                $b.begin_block(Some(then)).unwrap();
                $b.branch(join).unwrap();
                $b.begin_block(Some(join)).unwrap();
                $b.ret().unwrap();
                $b.end_function().unwrap();
                $b.entry_point(spirv::ExecutionModel::GLCompute, main, "main", []);
                $b.execution_mode(main, spirv::ExecutionMode::LocalSize, [1, 1, 1]);
            }};
        }
        let mut ours = Builder::new();
        build!(ours);
        ours.capability(spirv::Capability::Shader);
        let mut reference = rspirv::dr::Builder::new();
        build!(reference);
        let expected = rspirv::binary::Assemble::assemble(&reference.module());
        assert_eq!(ours.assemble(), expected);
    }

    /// A helper written in the middle of a block goes after the interrupted function, which
    /// resumes in the same block: the module parses with the call inside main's one block and
    /// the helper's parameters and return in a function of its own.
    #[test]
    fn helpers_follow_the_interrupted_function() {
        let mut b = Builder::new();
        b.capability(spirv::Capability::Shader);
        b.memory_model(spirv::AddressingModel::Logical, spirv::MemoryModel::GLSL450);
        let void = b.type_void();
        let u32t = b.type_int(32, 0);
        let main_ty = b.type_function(void, []);
        let helper_ty = b.type_function(u32t, [u32t, u32t]);
        let one = b.constant_bit32(u32t, 1);
        let main = b.begin_function(void, None, spirv::FunctionControl::NONE, main_ty).unwrap();
        b.begin_block(None).unwrap();
        let before = b.i_add(u32t, None, one, one).unwrap();
        let interrupted = b.begin_helper();
        let helper = b.begin_function(u32t, None, spirv::FunctionControl::NONE, helper_ty).unwrap();
        let (x, y) = (b.function_parameter(u32t).unwrap(), b.function_parameter(u32t).unwrap());
        b.begin_block(None).unwrap();
        let sum = b.i_add(u32t, None, x, y).unwrap();
        b.ret_value(sum).unwrap();
        b.end_function().unwrap();
        b.end_helper(interrupted);
        let call = b.function_call(u32t, None, helper, [before, one]).unwrap();
        b.i_add(u32t, None, call, one).unwrap();
        b.ret().unwrap();
        b.end_function().unwrap();
        b.entry_point(spirv::ExecutionModel::GLCompute, main, "main", []);
        let module = rspirv::dr::load_words(b.assemble()).unwrap();
        let ids: Vec<Word> = module.functions.iter().map(|f| f.def.as_ref().and_then(|d| d.result_id).unwrap()).collect();
        assert_eq!(ids, [main, helper]);
        let main_fn = &module.functions[0];
        assert_eq!(main_fn.blocks.len(), 1);
        let ops: Vec<Op> = main_fn.blocks[0].instructions.iter().map(|i| i.class.opcode).collect();
        assert_eq!(ops, [Op::IAdd, Op::FunctionCall, Op::IAdd, Op::Return]);
        let helper_fn = &module.functions[1];
        assert_eq!(helper_fn.parameters.iter().map(|p| p.result_id.unwrap()).collect::<Vec<_>>(), [x, y]);
        let ops: Vec<Op> = helper_fn.blocks[0].instructions.iter().map(|i| i.class.opcode).collect();
        assert_eq!(ops, [Op::IAdd, Op::ReturnValue]);
    }
}
