//! The verifier: a body it accepts is one every backend can lower without further checks.

use crate::{Body, Op, Reg, Sig, Type};

/// What is wrong with a body, at which instruction.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("IR instruction %{at} ({op}): {what}")]
pub struct VerifyError {
    pub at: usize,
    pub op: &'static str,
    pub what: String,
}

/// Checks SSA form (every argument defined earlier, by an instruction with a result), each
/// instruction's types against its operation's rule, constants within their type, and the
/// register discipline [`crate::Builder`] establishes: registers known by index, at most one
/// read and one write of each, no read after the write, writes last. Lane regions read any
/// register but write only VGPRs and lane bits (of SGPR masks they do not read after); wave
/// regions touch no VGPR and no lane.
pub fn verify(body: &Body) -> Result<(), VerifyError> {
    let mut read = [false; Reg::COUNT];
    let mut written = [false; Reg::COUNT];
    let mut lane_bit = [false; 128];
    let mut writes_began = false;
    for (at, i) in body.insts.iter().enumerate() {
        let err = |what: String| VerifyError { at, op: i.op.name(), what };
        if i.op.per_lane() && !body.per_lane {
            return Err(err("a lane operation in a wave region".into()));
        }
        let mut arg_tys = Vec::with_capacity(3);
        for &a in i.args() {
            let Some(d) = body.insts.get(a.0 as usize).filter(|_| (a.0 as usize) < at) else {
                return Err(err(format!("argument %{} is not defined before its use", a.0)));
            };
            if !d.op.has_result() {
                return Err(err(format!("argument %{} ({}) has no result", a.0, d.op.name())));
            }
            arg_tys.push(d.ty);
        }
        let same_int = |tys: &[Type]| tys.iter().all(|&t| t == tys[0]) && tys[0].is_int();
        let ok = match i.op.sig() {
            Sig::Const => i.imm & !i.ty.mask() == 0,
            Sig::Arg => true,
            Sig::WriteLane => arg_tys == [Type::I32, Type::I32] && i.imm < 256 && !body.per_lane,
            Sig::Store => arg_tys == [Type::I64, Type::I32],
            Sig::LdsStore => arg_tys == [Type::I32, Type::I32] && (1..=4).contains(&i.imm),
            Sig::Check => arg_tys == [Type::I32] && (1..=16).contains(&i.imm),
            Sig::ReadReg | Sig::WriteReg => {
                let Some(r) = Reg::from_index(i.imm) else { return Err(err(format!("no register {}", i.imm))) };
                let ix = r.index();
                if matches!(r, Reg::Vgpr(_)) && !body.per_lane {
                    return Err(err(format!("{r} in a wave region")));
                }
                if i.op == Op::ReadReg {
                    if read[ix] || written[ix] || matches!(r, Reg::Sgpr(s) if lane_bit[s as usize]) {
                        return Err(err(format!("{r:?} read twice or after its write")));
                    }
                    read[ix] = true;
                } else {
                    if body.per_lane && !matches!(r, Reg::Vgpr(_)) {
                        return Err(err(format!("a lane region writing {r}")));
                    }
                    if written[ix] {
                        return Err(err(format!("{r:?} written twice")));
                    }
                    written[ix] = true;
                }
                i.ty == r.ty() && (i.op == Op::ReadReg || arg_tys[0] == r.ty())
            }
            Sig::WriteLaneBit => {
                let Some(Reg::Sgpr(m)) = Reg::from_index(i.imm) else { return Err(err(format!("no lane mask at register {}", i.imm))) };
                if std::mem::replace(&mut lane_bit[m as usize], true) {
                    return Err(err(format!("the lane's bit of s{m} set twice")));
                }
                arg_tys[0] == Type::Bool
            }
            Sig::Binary | Sig::Shift | Sig::Unary | Sig::Ternary => same_int(&arg_tys) && i.ty == arg_tys[0],
            Sig::Bitwise => arg_tys[0] == arg_tys[1] && i.ty == arg_tys[0],
            Sig::Count => arg_tys[0].is_int() && i.ty == Type::I32,
            Sig::Compare => same_int(&arg_tys) && i.ty == Type::Bool,
            Sig::Select => arg_tys[0] == Type::Bool && arg_tys[1] == arg_tys[2] && i.ty == arg_tys[1],
            Sig::Fixed(args, r) => arg_tys == args && i.ty == r && (i.op != Op::ReadLane || (i.imm < 256 && !body.per_lane)),
        };
        if !ok {
            return Err(err(format!("types {arg_tys:?} -> {:?} break the rule {:?}", i.ty, i.op.sig())));
        }
        if matches!(i.op, Op::WriteReg | Op::WriteLaneBit) {
            writes_began = true;
        } else if writes_began {
            return Err(err("an instruction after the region's writes".into()));
        }
    }
    Ok(())
}
