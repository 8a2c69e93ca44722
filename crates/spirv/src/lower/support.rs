//! Which kinds of instruction the recompiler lowers, decided from the kind and encoding alone:
//! `Gen::step` refuses what this refuses (with this reason) before lowering, and
//! `rdna isa --coverage` fills in its recompiled column from it. Refusals that depend on
//! operands (op_sel, clamp on integers, d16, a message other than MSG_DEALLOC_VGPRS) are made
//! by the lowering itself.

use rdna_emu::sem::{Atomic, DsKind, Kind, MemKind, Num, Salu, VOp};
use rdna_isa::Format;

/// `Ok` when instructions of this kind in this encoding are lowered; else why not.
pub fn supports(kind: Kind, format: Format) -> Result<(), String> {
    match kind {
        Kind::Nop | Kind::Branch(_) | Kind::EndPgm | Kind::Barrier | Kind::Sendmsg | Kind::SLogic { .. } | Kind::SaveExec { .. } | Kind::Vopd => Ok(()),
        Kind::Ds(k) => ds(k),
        Kind::Smem(_) => Ok(()),
        Kind::Salu(_) if rdna_frontend::lift::lifts(kind) => Ok(()),
        Kind::Salu(Salu::MovrelsB32 | Salu::MovrelsB64 | Salu::MovreldB32 | Salu::MovreldB64 | Salu::Movrelsd2B32) => Ok(()),
        Kind::Valu(VOp::Nop | VOp::Pipeflush | VOp::Clrexcp) => Ok(()),
        // The clock, hardware registers and float mode (`hwstate`; some operands are refused there).
        Kind::Salu(Salu::Memtime | Salu::Memrealtime | Salu::SendmsgRtnB32 | Salu::SendmsgRtnB64 | Salu::GetregB32 | Salu::DenormMode | Salu::RoundMode) => Ok(()),
        Kind::Salu(op) => Err(format!("scalar operation {op:?} is not recompiled yet")),
        Kind::Valu(op) if format.is_sdwa() => match super::valu::out_of(op) {
            // VOP1/VOP2 SDWA of operations with a 32-bit (or 16-bit) result.
            Some(super::valu::Out::U32 | super::valu::Out::F32 | super::valu::Out::U16 | super::valu::Out::F16) => Ok(()),
            _ => Err("SDWA operand selection is not recompiled yet for this operation".into()),
        },
        Kind::Valu(op) if format.is_dpp16() || format.is_dpp8() => {
            // DPP (VOP1/VOP2, and gfx11's VOP3) of operations with one 32- or 16-bit result,
            // carry-outs included.
            let plain = matches!(super::valu::out_of(op), Some(super::valu::Out::U32 | super::valu::Out::F32 | super::valu::Out::U16 | super::valu::Out::F16)) || op == VOp::PkFmacF16;
            if plain {
                Ok(())
            } else {
                Err(format!("DPP lane permutation is not recompiled yet for {op:?}"))
            }
        }
        Kind::Valu(op) if super::wmma::is_wmma(op) => Ok(()),
        Kind::Valu(op) if format == Format::Vop3p => match super::half::packed_class(op) {
            Some(_) => Ok(()),
            None => Err(format!("packed operation {op:?} is not recompiled yet")),
        },
        Kind::Valu(op) if super::valu::indexes_vgprs(op) => Ok(()),
        Kind::Valu(op) if matches!(op, VOp::ReadfirstlaneB32 | VOp::ReadlaneB32 | VOp::WritelaneB32 | VOp::Permlane16B32 | VOp::Permlanex16B32 | VOp::Permlane64B32 | VOp::SwapB32 | VOp::MqsadU32U8 | VOp::PkFmacF16) || super::valu::out_of(op).is_some() => Ok(()),
        Kind::Valu(op) => Err(format!("vector operation {op:?} is not recompiled yet")),
        // Every number type (`Gen::vcmp`).
        Kind::Vcmp { .. } => Ok(()),
        Kind::VcmpClass { ty: Num::F16 | Num::F32 | Num::F64, .. } => Ok(()),
        Kind::VcmpClass { ty, .. } => Err(format!("{ty:?} class compares are not recompiled yet")),
        Kind::Mem(MemKind::Addtid { .. }) if format == Format::Global => Ok(()),
        Kind::Mem(k) if format == Format::Global => global(k),
        Kind::Mem(k @ MemKind::Atomic { .. }) if format == Format::Mubuf => global(k),
        // Typed buffer accesses (`typed.rs`), every format and d16 form.
        Kind::Mem(MemKind::Format { .. }) if matches!(format, Format::Mubuf | Format::Mtbuf) => Ok(()),
        Kind::Mem(k) if matches!(format, Format::Scratch | Format::Mubuf) => match k {
            MemKind::Load { .. } | MemKind::Store { .. } => Ok(()),
            other => Err(format!("{format:?} access {other:?} is not recompiled yet")),
        },
        Kind::Mem(k) if format == Format::Flat => global(k),
        Kind::Mem(_) => Err(format!("{format:?} memory instructions are not recompiled yet")),
        Kind::Invalid(_) | Kind::Unsupported(_) => Err("an instruction the emulator does not run either".into()),
    }
}

fn integer_atomic(op: Atomic) -> bool {
    !matches!(op, Atomic::FMin | Atomic::FMax | Atomic::FAdd | Atomic::FCmpSwap | Atomic::CSub)
}

fn ds(k: DsKind) -> Result<(), String> {
    match k {
        DsKind::Nop | DsKind::Read { .. } | DsKind::Write { .. } | DsKind::Read2 { .. } | DsKind::Write2 { .. } | DsKind::Xchg2 { .. } => Ok(()),
        DsKind::Swizzle | DsKind::Permute | DsKind::Bpermute | DsKind::ReadAddtid | DsKind::WriteAddtid | DsKind::Append | DsKind::Consume => Ok(()),
        DsKind::Atomic { op, .. } | DsKind::CmpStore { op, .. } if integer_atomic(op) => Ok(()),
        DsKind::Atomic { op: Atomic::FAdd, x2: false, .. } => Ok(()),
        DsKind::Atomic { op: Atomic::FMin | Atomic::FMax | Atomic::FCmpSwap, .. } | DsKind::CmpStore { op: Atomic::FCmpSwap, .. } => Ok(()),
        DsKind::Atomic { op, .. } | DsKind::CmpStore { op, .. } => Err(format!("LDS atomic {op:?} is not recompiled yet")),
    }
}

fn global(k: MemKind) -> Result<(), String> {
    use Atomic::*;
    match k {
        MemKind::Load { .. } | MemKind::Store { .. } => Ok(()),
        MemKind::Atomic { op: Swap | CmpSwap | Add | Sub | SMin | SMax | UMin | UMax | And | Or | Xor | Inc | Dec | FMin | FMax | FCmpSwap | CSub, .. } => Ok(()),
        // f32 add (gfx11's global/flat/buffer_atomic_add_f32): the compare-exchange loop.
        MemKind::Atomic { op: FAdd, x2: false } => Ok(()),
        MemKind::Atomic { op, .. } => Err(format!("atomic {op:?} is not recompiled yet")),
        other => Err(format!("global access {other:?} is not recompiled yet")),
    }
}

/// Whether a VOPD half (`v_dual_*`) is lowered.
pub fn supports_vopd(name: &str) -> bool {
    rdna_frontend::lift::vopd_op(name).is_some()
}
