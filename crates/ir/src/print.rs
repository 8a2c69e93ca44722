//! The text form: one instruction per line, `%N = name.type args`.

use std::fmt;

use crate::{Body, Op, Reg, Type};

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            Type::Bool => "bool",
            Type::I32 => "i32",
            Type::I64 => "i64",
        })
    }
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Reg::Sgpr(r) => write!(f, "s{r}"),
            Reg::Scc => f.write_str("scc"),
            Reg::Vgpr(r) => write!(f, "v{r}"),
        }
    }
}

impl fmt::Display for Body {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.per_lane {
            writeln!(f, "per lane:")?;
        }
        for (n, i) in self.insts.iter().enumerate() {
            let reg = || Reg::from_index(i.imm).map_or_else(|| format!("?{}", i.imm), |r| r.to_string());
            match i.op {
                Op::WriteReg => writeln!(f, "write {}, %{}", reg(), i.args[0].0)?,
                Op::WriteLaneBit => writeln!(f, "write_lane_bit {}, %{}", reg(), i.args[0].0)?,
                Op::Store32 => writeln!(f, "store %{}, %{}", i.args[0].0, i.args[1].0)?,
                Op::LdsStore => writeln!(f, "lds_store.{} %{}, %{}", i.imm, i.args[0].0, i.args[1].0)?,
                Op::LdsCheck => writeln!(f, "lds_check.{} %{}", i.imm, i.args[0].0)?,
                Op::WriteLane => writeln!(f, "write_lane v{}, %{}, %{}", i.imm, i.args[0].0, i.args[1].0)?,
                Op::ReadLane => writeln!(f, "%{n} = read_lane.i32 v{}, %{}", i.imm, i.args[0].0)?,
                Op::ReadReg => writeln!(f, "%{n} = read.{} {}", i.ty, reg())?,
                Op::Const | Op::CodeAddress | Op::Arg => writeln!(f, "%{n} = {}.{} {:#x}", i.op.name(), i.ty, i.imm)?,
                _ => {
                    let args: Vec<String> = i.args().iter().map(|a| format!("%{}", a.0)).collect();
                    writeln!(f, "%{n} = {}.{} {}", i.op.name(), i.ty, args.join(", "))?
                }
            }
        }
        Ok(())
    }
}
