//! What each operation computes ([`eval`]), the reference interpreter ([`run`]) and the passes.

// FxHash: the keys are small integers and instructions, hashed on every step; SipHash
// was a tenth of the recompile time.
use rustc_hash::FxHashMap as HashMap;

use crate::{Body, Inst, Op, Reg, Type, Value};

/// The value `op` computes from argument values (each within its type's width; `arg_ty` is the
/// first argument's type), or `None` for operations whose value depends on more than their
/// arguments (register reads and writes, code addresses). This is the IR's definition.
pub fn eval(op: Op, ty: Type, arg_ty: Type, a: &[u64], imm: u64) -> Option<u64> {
    let m = ty.mask();
    let w = arg_ty.bits();
    let signed = |x: u64| -> i64 {
        match arg_ty {
            Type::I32 => x as u32 as i32 as i64,
            _ => x as i64,
        }
    };
    let amount = |x: u64| (x % w as u64) as u32;
    let x = a.first().copied().unwrap_or(0);
    let y = a.get(1).copied().unwrap_or(0);
    Some(match op {
        Op::Const => imm,
        Op::ReadReg | Op::WriteReg | Op::WriteLaneBit | Op::WriteLane | Op::ReadLane | Op::LaneId | Op::Arg | Op::CodeAddress | Op::Load32 | Op::Store32 | Op::SafeAddress | Op::LdsCheck | Op::LdsLoad | Op::LdsStore => return None,
        Op::IAdd => x.wrapping_add(y) & m,
        Op::ISub => x.wrapping_sub(y) & m,
        Op::IMul => x.wrapping_mul(y) & m,
        Op::And => x & y,
        Op::Or => x | y,
        Op::Xor => x ^ y,
        Op::UMin => x.min(y),
        Op::Shl => (x << amount(y)) & m,
        Op::LShr => x >> amount(y),
        Op::AShr => (signed(x) >> amount(y)) as u64 & m,
        Op::Not => !x & m,
        Op::BitReverse => x.reverse_bits() >> (64 - w),
        Op::BitCount => x.count_ones() as u64,
        Op::FindLsb => if x == 0 { u32::MAX as u64 } else { x.trailing_zeros() as u64 },
        Op::FindMsb => if x == 0 { u32::MAX as u64 } else { 63 - x.leading_zeros() as u64 },
        Op::Eq => (x == y) as u64,
        Op::Ne => (x != y) as u64,
        Op::ULt => (x < y) as u64,
        Op::ULe => (x <= y) as u64,
        Op::UGt => (x > y) as u64,
        Op::UGe => (x >= y) as u64,
        Op::SLt => (signed(x) < signed(y)) as u64,
        Op::SLe => (signed(x) <= signed(y)) as u64,
        Op::SGt => (signed(x) > signed(y)) as u64,
        Op::SGe => (signed(x) >= signed(y)) as u64,
        Op::FAdd | Op::FSub | Op::FMul | Op::Fma | Op::FMin | Op::FMax => {
            let z = a.get(2).copied().unwrap_or(0);
            if arg_ty == Type::I64 {
                let (x, y, z) = (f64::from_bits(x), f64::from_bits(y), f64::from_bits(z));
                (match op {
                    Op::FAdd => x + y,
                    Op::FSub => x - y,
                    Op::FMul => x * y,
                    Op::Fma => x.mul_add(y, z),
                    _ => rdna_emu::float::minmax64(x, y, op == Op::FMax, true),
                })
                .to_bits()
            } else {
                let (x, y, z) = (f32::from_bits(x as u32), f32::from_bits(y as u32), f32::from_bits(z as u32));
                (match op {
                    Op::FAdd => x + y,
                    Op::FSub => x - y,
                    Op::FMul => x * y,
                    Op::Fma => x.mul_add(y, z),
                    _ => rdna_emu::float::minmax32(x, y, op == Op::FMax, true),
                })
                .to_bits() as u64
            }
        }
        Op::FClamp01 if arg_ty == Type::I64 => {
            let f = f64::from_bits(x);
            (if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) }).to_bits()
        }
        Op::FClamp01 => {
            let f = f32::from_bits(x as u32);
            (if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) }).to_bits() as u64
        }
        Op::FToS | Op::FToU => {
            let f = if arg_ty == Type::I64 { f64::from_bits(x) } else { f32::from_bits(x as u32) as f64 };
            if op == Op::FToS { f as i32 as u32 as u64 } else { f as u32 as u64 }
        }
        Op::FTrunc | Op::FFloor | Op::FCeil | Op::FRndne | Op::FSqrt | Op::FRcp | Op::FFract | Op::FLdexp | Op::FMulLegacy | Op::FMed3 => {
            let f = |v: u64| f32::from_bits(v as u32);
            let (x, y, z) = (f(x), f(y), f(a.get(2).copied().unwrap_or(0)));
            (match op {
                Op::FTrunc => x.trunc(),
                Op::FFloor => x.floor(),
                Op::FCeil => x.ceil(),
                Op::FRndne => x.round_ties_even(),
                Op::FSqrt => x.sqrt(),
                Op::FRcp => (1.0 / x as f64) as f32,
                Op::FFract if x.is_infinite() => f32::NAN,
                Op::FFract => (x - x.floor()).min(f32::from_bits(0x3f7f_ffff)),
                Op::FLdexp => rdna_emu::float::ldexp32(x, a[1] as u32 as i32),
                Op::FMulLegacy if x == 0.0 || y == 0.0 => 0.0,
                Op::FMulLegacy => x * y,
                _ => rdna_emu::float::med3_32(x, y, z, true),
            })
            .to_bits() as u64
        }
        Op::HalfToF32 => rdna_emu::float::Denorm::from_mode(3).in16(x).to_bits() as u64,
        Op::F32ToHalf => rdna_emu::float::Denorm::from_mode(3).out16(f32::from_bits(x as u32)),
        Op::SToF => (x as u32 as i32 as f32).to_bits() as u64,
        Op::UToF => (x as u32 as f32).to_bits() as u64,
        Op::FLt | Op::FEq | Op::FGt | Op::FUnord => {
            let ord = if arg_ty == Type::I64 { f64::from_bits(x).partial_cmp(&f64::from_bits(y)) } else { f32::from_bits(x as u32).partial_cmp(&f32::from_bits(y as u32)) };
            use std::cmp::Ordering::*;
            (match op {
                Op::FLt => ord == Some(Less),
                Op::FEq => ord == Some(Equal),
                Op::FGt => ord == Some(Greater),
                _ => ord.is_none(),
            }) as u64
        }
        Op::Select => if x != 0 { y } else { a[2] },
        Op::ZExt => x,
        Op::SExt => x as u32 as i32 as i64 as u64,
        Op::Lo => x & u32::MAX as u64,
        Op::Hi => x >> 32,
        Op::Concat => x | y << 32,
        Op::BoolToInt => x,
    })
}

fn eval_inst(body: &Body, i: &Inst, vals: &[u64]) -> Option<u64> {
    let args: Vec<u64> = i.args().iter().map(|a| vals[a.0 as usize]).collect();
    let arg_ty = i.args().first().map_or(i.ty, |&a| body.ty(a));
    eval(i.op, i.ty, arg_ty, &args, i.imm)
}

/// Runs a verified wave region: `read` gives the registers' values as the region starts,
/// `code_base` the emulator's address of `.text`. Returns the registers written and their values.
pub fn run(body: &Body, read: impl Fn(Reg) -> u64, code_base: u64) -> Vec<(Reg, u64)> {
    let read = |r| Some(read(r));
    let inputs = Inputs { code_base: Some(code_base), ..Inputs::registers(&read) };
    run_known(body, &inputs)
        .into_iter()
        .filter_map(|e| match e {
            Effect::Reg { reg, value } => Some((reg, value.expect("every input known"))),
            _ => None,
        })
        .collect()
}

/// What [`run_known`] knows of a region's inputs (`None`: unknown).
pub struct Inputs<'a> {
    /// The registers as the region starts.
    pub read: &'a dyn Fn(Reg) -> Option<u64>,
    /// Device memory: the dword at an address.
    pub load: &'a dyn Fn(u64) -> Option<u32>,
    /// The emulator's address of `.text`.
    pub code_base: Option<u64>,
    /// The running lane, for lane regions.
    pub lane: Option<u32>,
    /// VGPR `r` of lane `l`, for wave regions.
    pub vgpr_lane: &'a dyn Fn(u8, u32) -> Option<u32>,
    /// Four bytes of LDS at a byte address.
    pub lds: &'a dyn Fn(u32) -> Option<u32>,
}

impl Inputs<'_> {
    /// Nothing known beyond the registers `read` gives.
    pub fn registers(read: &dyn Fn(Reg) -> Option<u64>) -> Inputs<'_> {
        Inputs { read, load: &|_| None, code_base: None, lane: None, vgpr_lane: &|_, _| None, lds: &|_| None }
    }
}

/// What a region leaves behind (`None`: not known from the inputs given).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// A register's value where the region ends.
    Reg { reg: Reg, value: Option<u64> },
    /// The running lane's bit of the lane mask held from SGPR `mask`.
    LaneBit { mask: u8, bit: Option<bool> },
    /// One lane of a VGPR ([`Op::WriteLane`]).
    LaneWrite { vgpr: u8, lane: Option<u32>, value: Option<u64> },
    /// A dword stored to device memory ([`Op::Store32`]).
    Store { addr: Option<u64>, value: Option<u64> },
    /// The low `bytes` of a value stored to LDS ([`Op::LdsStore`]).
    LdsStore { addr: Option<u32>, value: Option<u64>, bytes: u8 },
    /// An LDS bounds check ([`Op::LdsCheck`]): the run stops unless `bytes` at `addr` exist.
    LdsCheck { addr: Option<u32>, bytes: u8 },
}

/// Runs a verified body where only some inputs are known (`None`: unknown): a value is known
/// when the arguments it depends on are (a select's, its condition and the chosen argument).
pub fn run_known(body: &Body, inputs: &Inputs) -> Vec<Effect> {
    let Inputs { read, load, code_base, lane, vgpr_lane, lds } = *inputs;
    // LDS stores so far: (address, value, bytes); a later load that may overlap one is unknown
    // unless it reads exactly what one stored.
    let mut lds_stored: Vec<(Option<u32>, Option<u64>, u8)> = Vec::new();
    let mut vals: Vec<Option<u64>> = vec![None; body.insts.len()];
    let mut out = Vec::new();
    // Lanes of VGPRs the region wrote so far: (register, lane or unknown, value); and stores.
    let mut lanes_written: Vec<(u8, Option<u32>, Option<u64>)> = Vec::new();
    let mut stored: Vec<(Option<u64>, Option<u64>)> = Vec::new();
    let mut args = Vec::with_capacity(3);
    for (n, i) in body.insts.iter().enumerate() {
        let r = Reg::from_index(i.imm);
        let get = |v: Value| vals[v.0 as usize];
        vals[n] = match i.op {
            Op::ReadReg => read(r.expect("verified")).map(|v| v & i.ty.mask()),
            Op::WriteReg => {
                out.push(Effect::Reg { reg: r.expect("verified"), value: get(i.args[0]) });
                None
            }
            Op::WriteLaneBit => {
                out.push(Effect::LaneBit { mask: i.imm as u8, bit: get(i.args[0]).map(|b| b != 0) });
                None
            }
            Op::LaneId => lane.map(u64::from),
            Op::Arg | Op::SafeAddress => None,
            // The latest store that may be to this dword decides; else memory.
            Op::Load32 => {
                let a = get(i.args[0]);
                match stored.iter().rev().find(|(s, _)| s.is_none() || a.is_none() || s.is_some_and(|s| a.is_some_and(|a| s.abs_diff(a) < 4))) {
                    Some(&(s, v)) if s.is_some() && s == a => v,
                    Some(_) => None,
                    None => a.and_then(load).map(u64::from),
                }
            }
            Op::WriteLane => {
                let (l, v) = (get(i.args[0]).map(|l| l as u32), get(i.args[1]));
                lanes_written.push((i.imm as u8, l, v));
                out.push(Effect::LaneWrite { vgpr: i.imm as u8, lane: l, value: v });
                None
            }
            Op::LdsCheck => {
                out.push(Effect::LdsCheck { addr: get(i.args[0]).map(|a| a as u32), bytes: i.imm as u8 });
                None
            }
            Op::LdsStore => {
                let (a, v) = (get(i.args[0]).map(|a| a as u32), get(i.args[1]));
                lds_stored.push((a, v, i.imm as u8));
                out.push(Effect::LdsStore { addr: a, value: v, bytes: i.imm as u8 });
                None
            }
            Op::LdsLoad => {
                let a = get(i.args[0]).map(|a| a as u32);
                let hit = lds_stored.iter().rev().find(|(s, _, n)| s.is_none() || a.is_none() || s.is_some_and(|s| a.is_some_and(|a| s < a.wrapping_add(4) && a < s.wrapping_add(*n as u32))));
                match hit {
                    Some(&(s, v, 4)) if s.is_some() && s == a => v,
                    Some(_) => None,
                    None => a.and_then(lds).map(u64::from),
                }
            }
            Op::Store32 => {
                let (a, v) = (get(i.args[0]), get(i.args[1]));
                stored.push((a, v));
                out.push(Effect::Store { addr: a, value: v });
                None
            }
            Op::ReadLane => {
                let l = get(i.args[0]).map(|l| l as u32);
                // The latest write of this register that may be this lane decides.
                match lanes_written.iter().rev().find(|w| w.0 == i.imm as u8 && (w.1.is_none() || l.is_none() || w.1 == l)) {
                    Some(w) if w.1.is_some() && w.1 == l => w.2,
                    Some(_) => None,
                    None => l.and_then(|l| vgpr_lane(i.imm as u8, l)).map(u64::from),
                }
            }
            Op::CodeAddress => code_base.map(|b| b.wrapping_add(i.imm)),
            Op::Select => match get(i.args[0]) {
                Some(c) => get(if c != 0 { i.args[1] } else { i.args[2] }),
                None => None,
            },
            _ => {
                args.clear();
                args.extend(i.args().iter().map(|&a| get(a)));
                if args.iter().all(Option::is_some) {
                    let known: Vec<u64> = args.iter().map(|a| a.unwrap()).collect();
                    let arg_ty = i.args().first().map_or(i.ty, |&a| body.ty(a));
                    Some(eval(i.op, i.ty, arg_ty, &known, i.imm).expect("pure operation"))
                } else {
                    None
                }
            }
        };
    }
    out
}

/// Folds constants, selects on a constant or between equal values, and repeated computations
/// (value numbering), and drops writes of a register's own value. Leaves dead instructions for
/// [`dce`].
pub fn fold(body: &Body) -> Body {
    let mut out = Body { insts: Vec::with_capacity(body.insts.len()), per_lane: body.per_lane };
    let mut map: Vec<Value> = Vec::with_capacity(body.insts.len());
    let mut known: HashMap<Inst, Value> = HashMap::with_capacity_and_hasher(body.insts.len(), Default::default());
    // Constant values, by output instruction.
    let mut vals: Vec<u64> = Vec::with_capacity(body.insts.len());
    for i in &body.insts {
        let mut n = *i;
        let arity = i.op.arity();
        n.args = std::array::from_fn(|k| if k < arity { map[i.args[k].0 as usize] } else { Value(0) });
        let is_const = |v: Value| out.insts[v.0 as usize].op == Op::Const;
        let folded = match n.op {
            Op::WriteReg => {
                let src = out.insts[n.args[0].0 as usize];
                if src.op == Op::ReadReg && src.imm == n.imm {
                    map.push(Value(u32::MAX));
                    continue;
                }
                None
            }
            Op::Select if is_const(n.args[0]) => Some(Err(if vals[n.args[0].0 as usize] != 0 { n.args[1] } else { n.args[2] })),
            Op::Select if n.args[1] == n.args[2] => Some(Err(n.args[1])),
            // x op identity (either side where the operation commutes).
            _ if identity(&out, &n, &vals).is_some() => Some(Err(identity(&out, &n, &vals).unwrap())),
            Op::Const | Op::ReadReg | Op::WriteLaneBit | Op::WriteLane | Op::ReadLane | Op::LaneId | Op::Arg | Op::CodeAddress | Op::Load32 | Op::Store32 | Op::SafeAddress | Op::LdsCheck | Op::LdsLoad | Op::LdsStore => None,
            _ if n.args().iter().all(|&a| is_const(a)) => {
                let v = eval_inst(&out, &n, &vals).expect("pure operation");
                Some(Ok(Inst { op: Op::Const, ty: n.ty, args: [Value(0); 3], imm: v }))
            }
            _ => None,
        };
        let n = match folded {
            Some(Err(existing)) => {
                map.push(existing);
                continue;
            }
            Some(Ok(c)) => c,
            None => n,
        };
        // Reads of memory and VGPR lanes are not merged: each reads where the program reads.
        if n.op.has_result() && !n.op.reads_state() {
            if let Some(&v) = known.get(&n) {
                map.push(v);
                continue;
            }
        }
        let v = Value(out.insts.len() as u32);
        out.insts.push(n);
        vals.push(if n.op == Op::Const { n.imm } else { 0 });
        if n.op.has_result() && !n.op.reads_state() {
            known.insert(n, v);
        }
        map.push(v);
    }
    out
}

/// The argument `n` is equal to when its other argument is the operation's identity: `x | 0`,
/// `x ^ 0`, `x + 0`, `x - 0`, shifts by 0, `x & ~0`, `x * 1`.
fn identity(out: &Body, n: &Inst, vals: &[u64]) -> Option<Value> {
    let k = |v: Value| (out.insts[v.0 as usize].op == Op::Const).then(|| vals[v.0 as usize]);
    let ones = n.ty.mask();
    let (x, y) = (n.args[0], n.args[1]);
    let unit = match n.op {
        Op::Or | Op::Xor | Op::IAdd => Some(0),
        Op::And => Some(ones),
        Op::IMul => Some(1),
        Op::ISub | Op::Shl | Op::LShr | Op::AShr => return (k(y) == Some(0)).then_some(x),
        _ => None,
    }?;
    if k(y) == Some(unit) {
        Some(x)
    } else if k(x) == Some(unit) {
        Some(y)
    } else {
        None
    }
}

/// Removes instructions no register write depends on.
pub fn dce(body: &Body) -> Body {
    let mut live = vec![false; body.insts.len()];
    for (n, i) in body.insts.iter().enumerate().rev() {
        if matches!(i.op, Op::WriteReg | Op::WriteLaneBit | Op::WriteLane | Op::Store32 | Op::LdsStore | Op::LdsCheck) {
            live[n] = true;
        }
        if live[n] {
            for a in i.args() {
                live[a.0 as usize] = true;
            }
        }
    }
    let mut out = Body { insts: Vec::new(), per_lane: body.per_lane };
    let mut map = vec![Value(u32::MAX); body.insts.len()];
    for (n, i) in body.insts.iter().enumerate() {
        if live[n] {
            let mut k = *i;
            for a in &mut k.args[..i.op.arity()] {
                *a = map[a.0 as usize];
            }
            map[n] = Value(out.insts.len() as u32);
            out.insts.push(k);
        }
    }
    out
}

/// Uniformity: which values are the same in every lane (computed from the wave's state and
/// constants only) and which vary (from a VGPR or the lane's index). Uniform values of a lane
/// region can be computed once for the wave, before its loop over the lanes.
pub fn uniform(body: &Body) -> Vec<bool> {
    let mut u = vec![true; body.insts.len()];
    for (n, i) in body.insts.iter().enumerate() {
        u[n] = match i.op {
            Op::LaneId | Op::Arg => false,
            Op::ReadReg => !matches!(Reg::from_index(i.imm), Some(Reg::Vgpr(_))),
            _ => i.op.has_result() && i.args().iter().all(|a| u[a.0 as usize]),
        };
    }
    u
}

/// The passes in order: [`fold`], then [`dce`]. In debug builds (the tests) the verifier
/// checks the input and each pass's output, naming the pass that broke it.
pub fn optimize(body: &Body) -> Body {
    let checked = |stage: &str, b: &Body| {
        if cfg!(debug_assertions) {
            if let Err(e) = crate::verify(b) {
                panic!("IR {stage}: {e}\n{b}");
            }
        }
    };
    checked("input", body);
    let folded = fold(body);
    checked("after fold", &folded);
    let out = dce(&folded);
    checked("after dce", &out);
    out
}
