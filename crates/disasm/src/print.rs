//! [`Inst`] → text, exactly as `llvm-mc-19 --disassemble` prints it.
//!
//! The operand list comes from the instruction's table entry; this module knows how each kind of
//! operand and each format's modifiers are spelled.

use core::fmt::Write;

use rdna_isa::TableSet;
use rdna_isa::{src, Class, Field, Format, ImmTy, Simm};

use crate::decode::{Inst, SourceKind};

/// Printing options that do not change decoding.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrintOptions {
    /// Print lane masks as 64-bit (`vcc` rather than `vcc_lo`).
    pub wave64: bool,
}

/// Appends a decimal number (faster than `write!` on the printing hot path). Below 1,000
/// (register numbers, most immediates) the digits are pushed one by one: cheaper than copying a
/// short string, which is a library call.
fn push_dec(out: &mut String, mut v: u32) {
    if v < 10 {
        out.push((b'0' + v as u8) as char);
        return;
    }
    if v < 100 {
        out.push((b'0' + (v / 10) as u8) as char);
        out.push((b'0' + (v % 10) as u8) as char);
        return;
    }
    if v < 1000 {
        out.push((b'0' + (v / 100) as u8) as char);
        out.push((b'0' + (v / 10 % 10) as u8) as char);
        out.push((b'0' + (v % 10) as u8) as char);
        return;
    }
    let mut buf = [0u8; 10];
    let mut i = buf.len();
    while v > 0 {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
    }
    // ASCII digits: one copy (a push per character encodes and checks the capacity each time).
    out.push_str(std::str::from_utf8(&buf[i..]).unwrap_or_default());
}

fn reg_range(out: &mut String, prefix: &str, first: u32, width: u32) {
    match prefix.as_bytes() {
        &[c] => out.push(c as char),
        _ => out.push_str(prefix),
    }
    if width == 1 {
        push_dec(out, first);
    } else {
        out.push('[');
        push_dec(out, first);
        out.push(':');
        push_dec(out, first + width - 1);
        out.push(']');
    }
}

/// Scalar register (s0..s105, vcc, ttmp, m0, null, exec) of `width` dwords, or None if the value
/// cannot name one. LLVM aligns SGPR tuples down (64-bit to 2, wider to 4).
pub(crate) fn scalar_reg(out: &mut String, v: u16, width: u32) -> bool {
    if width > 16 {
        // No SGPR class is 1024 bits wide: LLVM names the first register alone, and the named
        // pairs (vcc, exec, gfx9's flat_scratch, ...) by their 64-bit names.
        let pair = matches!(v, src::VCC_LO | src::EXEC_LO) || ((600..=607).contains(&v) && v % 2 == 0);
        return scalar_reg(out, v, if pair { 2 } else { 1 });
    }
    if !scalar_reg_ok(v, width) {
        return false;
    }
    let align = |v: u32| match width {
        1 => v,
        2 => v & !1,
        _ => v & !3,
    };
    match v {
        0..=105 => reg_range(out, "s", align(v as u32), width),
        // No ttmp class is 96 bits wide: LLVM names the encoded register alone (gfx12's *_b96).
        108..=123 if width == 3 => reg_range(out, "ttmp", v as u32 - 108, 1),
        108..=123 => reg_range(out, "ttmp", align(v as u32 - 108), width),
        src::VCC_LO => out.push_str(if width == 1 { "vcc_lo" } else { "vcc" }),
        src::VCC_HI => out.push_str("vcc_hi"),
        src::M0 => out.push_str("m0"),
        src::NULL => out.push_str("null"),
        src::EXEC_LO => out.push_str(if width == 1 { "exec_lo" } else { "exec" }),
        600..=607 => {
            let k = ((v - 600) / 2) as usize;
            let (pair, lo) = crate::decode::gcn::NAMES[k];
            out.push_str(match (width, v % 2) {
                (1, 0) => lo,
                (1, _) => crate::decode::gcn::HI_NAMES[k],
                _ => pair,
            });
        }
        _ => out.push_str("exec_hi"),
    }
    true
}

fn signed_hex(out: &mut String, v: i32) {
    if v < 0 {
        let _ = write!(out, "-0x{:x}", -(v as i64));
    } else {
        let _ = write!(out, "0x{v:x}");
    }
}

fn fmt_hex(out: &mut String, mut v: u64) {
    let mut buf = [0u8; 16];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b"0123456789abcdef"[(v & 15) as usize];
        v >>= 4;
        if v == 0 {
            break;
        }
    }
    out.push_str("0x");
    out.push_str(core::str::from_utf8(&buf[i..]).unwrap_or(""));
}

fn f32_name(bits: u32) -> Option<&'static str> {
    Some(match bits {
        0x3f00_0000 => "0.5",
        0xbf00_0000 => "-0.5",
        0x3f80_0000 => "1.0",
        0xbf80_0000 => "-1.0",
        0x4000_0000 => "2.0",
        0xc000_0000 => "-2.0",
        0x4080_0000 => "4.0",
        0xc080_0000 => "-4.0",
        0x3e22_f983 => "0.15915494",
        _ => return None,
    })
}

fn f16_name(bits: u16) -> Option<&'static str> {
    Some(match bits {
        0x3800 => "0.5",
        0xb800 => "-0.5",
        0x3c00 => "1.0",
        0xbc00 => "-1.0",
        0x4000 => "2.0",
        0xc000 => "-2.0",
        0x4400 => "4.0",
        0xc400 => "-4.0",
        0x3118 => "0.15915494",
        _ => return None,
    })
}

fn f64_name(bits: u64) -> Option<&'static str> {
    Some(match bits {
        0x3fe0_0000_0000_0000 => "0.5",
        0xbfe0_0000_0000_0000 => "-0.5",
        0x3ff0_0000_0000_0000 => "1.0",
        0xbff0_0000_0000_0000 => "-1.0",
        0x4000_0000_0000_0000 => "2.0",
        0xc000_0000_0000_0000 => "-2.0",
        0x4010_0000_0000_0000 => "4.0",
        0xc010_0000_0000_0000 => "-4.0",
        0x3fc4_5f30_6dc9_c882 => "0.15915494309189532",
        _ => return None,
    })
}

fn inline_int_range(v: i64) -> bool {
    (-16..=64).contains(&v)
}

/// Prints a source operand value (9-bit VALU or 8-bit SALU encoding). Returns false where the value
/// does not name a valid operand of this width.
pub(crate) fn source(out: &mut String, v: u16, width: u32, imm: ImmTy, literal: Option<u32>) -> bool {
    if (600..=607).contains(&v) {
        return scalar_reg(out, v, width);
    }
    if v >= src::VGPR0 {
        let first = (v - src::VGPR0) as u32;
        if first + width > 256 {
            return false;
        }
        reg_range(out, "v", first, width);
        return true;
    }
    if let Some(i) = src::inline_int(v) {
        if i < 0 {
            out.push('-');
        }
        push_dec(out, i.unsigned_abs());
        return true;
    }
    if let Some((f32b, f16b, f64b)) = src::inline_float(v) {
        match imm {
            ImmTy::I16 => fmt_hex(out, f16b as u64),
            ImmTy::F16 => out.push_str(f16_name(f16b).unwrap_or("?")),
            ImmTy::F64 | ImmTy::B64 => out.push_str(f64_name(f64b).unwrap_or("?")),
            // A 64-bit operand takes the double; MFMA accumulators (wider) hold 32-bit elements.
            _ if width == 2 => out.push_str(f64_name(f64b).unwrap_or("?")),
            _ => out.push_str(f32_name(f32b).unwrap_or("?")),
        }
        return true;
    }
    if v == src::LITERAL {
        let Some(lit) = literal else { return false };
        literal_value(out, lit, width, imm);
        return true;
    }
    if let Some(name) = src::special_name(v) {
        out.push_str(name);
        return true;
    }
    scalar_reg(out, v, width)
}

fn literal_value(out: &mut String, lit: u32, width: u32, imm: ImmTy) {
    match imm {
        ImmTy::F16 => {
            let lo = lit as u16;
            if inline_int_range(lo as i16 as i64) {
                let _ = write!(out, "{}", lo as i16);
            } else if let Some(n) = f16_name(lo) {
                out.push_str(n);
            } else {
                fmt_hex(out, lo as u64);
            }
        }
        ImmTy::I16 => {
            if inline_int_range(lit as i32 as i64) {
                let _ = write!(out, "{}", lit as i32);
            } else {
                fmt_hex(out, (lit & 0xffff) as u64);
            }
        }
        ImmTy::F64 => {
            if let Some(n) = f64_name((lit as u64) << 32) {
                out.push_str(n);
            } else if lit == 0 {
                out.push('0');
            } else {
                fmt_hex(out, lit as u64);
            }
        }
        ImmTy::B64 => {
            if (0..=64).contains(&lit) {
                let _ = write!(out, "{lit}");
            } else {
                fmt_hex(out, lit as u64);
            }
        }
        _ if width == 2 => fmt_hex(out, lit as u64),
        _ => {
            if inline_int_range(lit as i32 as i64) {
                let _ = write!(out, "{}", lit as i32);
            } else if let Some(n) = f32_name(lit) {
                out.push_str(n);
            } else {
                fmt_hex(out, lit as u64);
            }
        }
    }
}

#[inline]
fn bit(raw: u64, b: u32) -> bool {
    b < 64 && (raw >> b) & 1 != 0
}

#[inline]
fn bits(raw: u64, lo: u32, width: u32) -> u32 {
    (raw.checked_shr(lo).unwrap_or(0) & ((1u64 << width) - 1)) as u32
}

/// Why an instruction could not be printed (the decoder and printer disagree on validity).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadOperand;

/// Appends the text of `inst` to `out`.
pub fn print(inst: &Inst, opts: PrintOptions, out: &mut String) -> Result<(), BadOperand> {
    let e = inst.entry;
    if inst.format == Format::Vopd {
        return vopd(inst, out);
    }
    out.push_str(e.name);
    match inst.format {
        Format::Exp => return export(inst, out),
        Format::Vintrp => return interp(inst, out),
        Format::Mimg => return image(inst, out),
        Format::Ldsdir => return lds_direct(inst, out),
        _ => {}
    }
    let mut first = true;
    let mut opi = 0usize;
    if e.simm == Simm::DecOpt && inst.field(Field::Simm16) == 0 {
        return Ok(());
    }
    if returning_flat_atomic(inst) {
        // With glc a FLAT atomic returns the old value: LLVM prints that destination first.
        let data = e.operands.iter().find(|o| o.field == Field::Data).map_or(1, |o| o.width as u32);
        let w = if e.name.contains("cmpswap") { data / 2 } else { data };
        let v = if g12(inst) { bits(inst.raw, 32, 8) } else { bits(inst.raw, 56, 8) };
        if v + w > 256 {
            return Err(BadOperand);
        }
        out.push(' ');
        reg_range(out, if agpr_select(inst, Field::Vdst) == Some(true) { "a" } else { "v" }, v, w);
        first = false;
    }
    for (j, tok) in e.tokens.iter().enumerate() {
        // Pushed as characters: a one- or two-byte string copy is a library call.
        if !first {
            out.push(',');
        }
        out.push(' ');
        first = false;
        if !tok.is_empty() {
            if !memory_operand(inst, j, tok, out, opts) {
                implicit(inst, out, tok, opts);
            }
            continue;
        }
        let Some(op) = e.operands.get(opi) else { return Err(BadOperand) };
        let lds_load = match inst.format {
            Format::Flat | Format::Global | Format::Scratch => op.field == Field::Vdst && flat_lds(inst),
            Format::Mubuf => op.field == Field::Vdata && !g11(inst) && bit(inst.raw, 16),
            _ => false,
        };
        if lds_load {
            // A load into LDS (the lds bit) has no VGPR destination.
            opi += 1;
            first = j == 0;
            out.truncate(out.len() - if j == 0 { 1 } else { 2 });
            continue;
        }
        operand(inst, opi, op, out)?;
        opi += 1;
    }
    if g12(inst) && matches!(inst.format, Format::Vop2Dpp16 | Format::Vop2Dpp8) && e.name.starts_with("v_cndmask_b32") {
        // llvm-mc-19 closes the |abs| of v_cndmask's second source after its VCC operand on gfx12
        // (`|v12, vcc_lo|`); rdna prints what LLVM prints.
        if let Some(i) = out.rfind("|, vcc") {
            let end = i + "|, vcc".len() + if out[i + 6..].starts_with("_lo") { 3 } else { 0 };
            out.remove(i);
            out.insert(end - 1, '|');
        }
    }
    modifiers(inst, out)
}

/// Whether the instruction was decoded for gfx11 (RDNA3), whose memory encodings move bits.
fn g11(inst: &Inst) -> bool {
    matches!(inst.gen, rdna_isa::Generation::Gfx11 | rdna_isa::Generation::Gfx12)
}

/// Whether the instruction was decoded for gfx12 (RDNA4): 96-bit VBUFFER/VFLAT, 24-bit offsets and
/// `th:`/`scope:` cache policies.
fn g12(inst: &Inst) -> bool {
    inst.gen == rdna_isa::Generation::Gfx12
}

/// gfx12's cache policy: `th:` (its names depend on whether the instruction loads, stores or is an
/// atomic, and on the scope) and `scope:`.
fn cache_policy(inst: &Inst, out: &mut String, th: u32, scope: u32) {
    let name = inst.entry.name;
    let atomic = name.contains("_atomic_");
    let store = !atomic && name.contains("store");
    let th_name = if atomic {
        match (th, scope) {
            (0, _) => String::new(),
            (1, _) => "TH_ATOMIC_RETURN".into(),
            (2, _) => "TH_ATOMIC_NT".into(),
            (3, _) => "TH_ATOMIC_NT_RETURN".into(),
            (4 | 5, 2..) => "TH_ATOMIC_CASCADE_RT".into(),
            (6 | 7, 2..) => "TH_ATOMIC_CASCADE_NT".into(),
            (t, _) => format!("TH_ATOMIC_{t:#x}"),
        }
    } else if store {
        match (th, scope) {
            (3, 3) => "TH_STORE_BYPASS".into(),
            (t, _) => ["", "TH_STORE_NT", "TH_STORE_HT", "TH_STORE_RT_WB", "TH_STORE_NT_RT", "TH_STORE_RT_NT", "TH_STORE_NT_HT", "TH_STORE_NT_WB"][t as usize & 7].into(),
        }
    } else {
        match (th, scope) {
            (3, 3) => "TH_LOAD_BYPASS".into(),
            (t, _) => ["", "TH_LOAD_NT", "TH_LOAD_HT", "TH_LOAD_LU", "TH_LOAD_NT_RT", "TH_LOAD_RT_NT", "TH_LOAD_NT_HT", "0x7"][t as usize & 7].into(),
        }
    };
    if !th_name.is_empty() {
        let _ = write!(out, " th:{th_name}");
    }
    if scope != 0 {
        out.push_str(["", " scope:SCOPE_SE", " scope:SCOPE_DEV", " scope:SCOPE_SYS"][scope as usize & 3]);
    }
}

/// v_fma_mix*: VOP3P encoding with VOP3-style modifiers (neg_lo is neg, neg_hi is abs).
/// gfx8/gfx9's VOP3-encoded f16 interpolation (`v_interp_p2_f16 v1, v2, attr3.y, v4 high`).
pub(crate) fn is_vop3_interp(inst: &Inst) -> bool {
    inst.gen.is_gcn() && inst.format == Format::Vop3 && inst.entry.name.starts_with("v_interp_")
}

fn is_fma_mix(inst: &Inst) -> bool {
    inst.entry.name.starts_with("v_fma_mix") || inst.entry.name.starts_with("v_mad_mix")
}

/// SCRATCH addressing through a VGPR: gfx10 when SADDR is null or exec_hi, gfx11 when the SVE bit
/// is set.
fn scratch_without_saddr(inst: &Inst) -> bool {
    inst.format == Format::Scratch
        && if let Some(b) = scratch_sve_bit(inst) {
            bit(inst.raw, b)
        } else if inst.gen.is_gcn() {
            bits(inst.raw, 48, 7) as u16 == src::EXEC_HI
        } else {
            matches!(bits(inst.raw, 48, 7) as u16, src::NULL | src::EXEC_HI)
        }
}

/// The bit that says a SCRATCH instruction addresses through a VGPR, where there is one (gfx11:
/// 55, gfx942: 13).
fn scratch_sve_bit(inst: &Inst) -> Option<u32> {
    if g12(inst) {
        Some(49)
    } else if g11(inst) {
        Some(55)
    } else if inst.isa == rdna_isa::Isa::Gfx942 {
        Some(13)
    } else {
        None
    }
}

/// A FLAT-family load into LDS by the lds bit (13) of gfx9/gfx10 (gfx942's SCRATCH uses that bit
/// for its VGPR address).
fn flat_lds(inst: &Inst) -> bool {
    !g11(inst) && bit(inst.raw, 13) && !(inst.format == Format::Scratch && scratch_sve_bit(inst).is_some())
}

/// The FLAT-family cache bits (glc, slc, dlc) and the bit that makes an atomic return (glc).
fn flat_cache_bits(inst: &Inst) -> (bool, bool, bool) {
    let raw = inst.raw;
    if g12(inst) {
        (bit(raw, 52), false, false) // th bit 0: an atomic returns
    } else if g11(inst) {
        (bit(raw, 14), bit(raw, 15), bit(raw, 13))
    } else if inst.gen.is_gcn() {
        (bit(raw, 16), bit(raw, 17), false)
    } else {
        (bit(raw, 16), bit(raw, 17), bit(raw, 12))
    }
}

fn returning_flat_atomic(inst: &Inst) -> bool {
    matches!(inst.format, Format::Flat | Format::Global | Format::Scratch)
        && inst.entry.name.contains("_atomic_")
        && flat_cache_bits(inst).0
}

/// MUBUF/MTBUF (offen, idxen) bits.
fn buffer_addr_bits(inst: &Inst) -> (bool, bool) {
    if g12(inst) {
        (bit(inst.raw, 62), bit(inst.raw, 63))
    } else if g11(inst) {
        (bit(inst.raw, 54), bit(inst.raw, 55))
    } else {
        (bit(inst.raw, 12), bit(inst.raw, 13))
    }
}

/// Operands whose printed form depends on other fields: the MUBUF/MTBUF address (`off`, one VGPR
/// or a pair by idxen/offen) and the FLAT scalar address (`off` or an SGPR base).
fn memory_operand(inst: &Inst, j: usize, tok: &str, out: &mut String, opts: PrintOptions) -> bool {
    let raw = inst.raw;
    if inst.format == Format::VopcSdwa && j == 0 && bit(raw, 47) && inst.gen != rdna_isa::Generation::Gfx8 {
        // SDWA compares write an SGPR (mask) when the SD bit is set, else VCC.
        let sdst = crate::decode::swap_m0_null(inst.gen, bits(raw, 40, 7) as u16);
        if !scalar_reg(out, sdst, if opts.wave64 { 2 } else { 1 }) {
            out.push_str("<bad>");
        }
        return true;
    }
    if tok != "off" {
        return false;
    }
    match inst.format {
        Format::Mubuf | Format::Mtbuf => {
            let (offen, idxen) = buffer_addr_bits(inst);
            // gfx7's addr64 addresses with a VGPR pair.
            let addr64 = inst.gen == rdna_isa::Generation::Gfx7 && bit(raw, 15);
            let n = if addr64 { 2 } else { offen as u32 + idxen as u32 };
            if n == 0 {
                out.push_str("off");
            } else {
                reg_range(out, "v", inst.field(Field::Vaddr) as u32, n);
            }
            true
        }
        // gfx942 SCRATCH swept without its VGPR address: the first of two `off`s is that slot.
        Format::Scratch
            if inst.isa == rdna_isa::Isa::Gfx942
                && inst.entry.tokens.iter().filter(|t| **t == "off").count() == 2
                && inst.entry.tokens.iter().position(|t| *t == "off") == Some(j) =>
        {
            if bit(raw, 13) {
                reg_range(out, "v", bits(raw, 32, 8), 1);
            } else {
                out.push_str("off");
            }
            true
        }
        Format::Global | Format::Scratch => {
            let saddr = inst.field(Field::Saddr);
            if (scratch_sve_bit(inst).is_none() && scratch_without_saddr(inst)) || crate::decode::flat_saddr_off(inst) {
                out.push_str("off");
            } else if !scalar_reg(out, saddr, if inst.format == Format::Global { 2 } else { 1 }) {
                out.push_str("<bad>");
            } else if g11(inst) && inst.format == Format::Scratch && saddr == src::EXEC_HI {
                out.push_str("/*Invalid register, operand has 'SReg_32_XEXEC_HI' register class*/");
            }
            true
        }
        _ => false,
    }
}

fn implicit(inst: &Inst, out: &mut String, tok: &str, opts: PrintOptions) {
    match tok {
        "<literal>" => fmt_hex(out, inst.literal.unwrap_or(0) as u64),
        "vcc_lo" if opts.wave64 => out.push_str("vcc"),
        "exec_lo" if opts.wave64 => out.push_str("exec"),
        t => out.push_str(t),
    }
}

/// LLVM's annotation of a value the operand's register class does not allow.
fn invalid_note(inst: &Inst, op: &rdna_isa::Operand, out: &mut String) {
    lo128_note(inst, op, out);
    // Only gfx7-gfx9 have the registers numbered 600..=607.
    if op.flag == 0 && !inst.gen.is_gcn() {
        return;
    }
    let v = crate::decode::scaled_value(inst, op);
    if (600..=607).contains(&v) && !is_mfma(inst) {
        let width = crate::decode::operand_width(inst, op);
        if width >= 4 {
            // gfx8/gfx9's flat_scratch, xnack_mask, tba, tma are pairs: no wider SGPR class has them.
            let _ = write!(out, "/*Invalid register, operand has 'SReg_{}' register class*/", 32 * width);
            return;
        }
    }
    // Most operands allow every class of value.
    if op.flag == 0 {
        return;
    }
    let class = src::value_class(v);
    if op.flag & (1 << class) == 0 {
        return;
    }
    if matches!(class, 9..=11) {
        out.push_str("/*Invalid immediate*/");
    } else {
        // An MFMA accumulator in AGPRs is checked against the AGPR class of the same width.
        let areg = op.rc.strip_prefix("VReg_").filter(|_| agpr_select(inst, op.field) == Some(true)).map(|n| format!("AReg_{n}"));
        // The class was swept in wave32; a wave64 WMMA accumulator is half as wide.
        let halved = crate::decode::operand_width(inst, op) < op.width as u32 && op.rc == "VReg_256";
        let rc = if halved { "VReg_128" } else { areg.as_deref().unwrap_or(op.rc) };
        let _ = write!(out, "/*Invalid register, operand has '{rc}' register class*/");
    }
}

/// gfx11 16-bit operations take v0..v127 only: LLVM notes a higher VGPR after its name.
fn lo128_note(inst: &Inst, op: &rdna_isa::Operand, out: &mut String) {
    if op.lo128.is_empty() {
        return;
    }
    let v = inst.field(op.field);
    let nine_bit = matches!(op.field, Field::Src0 | Field::Src1 | Field::Src2)
        && !(inst.format.is_dpp16() || inst.format.is_dpp8() || inst.format.is_sdwa()) || matches!(op.field, Field::Src1 | Field::Src2);
    let vgpr = if nine_bit { v.checked_sub(256) } else { Some(v) };
    if vgpr.is_some_and(|r| r >= 128) {
        let _ = write!(out, "/*Invalid register, operand has '{}' register class*/", op.lo128);
    }
}

/// Source modifiers of the DPP16/SDWA forms: bit 0 neg, bit 1 abs, bit 2 sext.
fn extended_mods(inst: &Inst, field: Field) -> u32 {
    let raw = inst.raw & !inst.entry.ignored;
    let base = match (field, inst.format.is_dpp16(), inst.format.is_sdwa()) {
        (Field::Src0, true, _) => 52,
        (Field::Vsrc1, true, _) => 54,
        (Field::Src0, _, true) => 51,
        (Field::Vsrc1, _, true) => 59,
        _ => return 0,
    };
    if inst.format.is_dpp16() {
        // For integer operands LLVM reads the neg bit as sext.
        if inst.entry.sext >> base & 1 != 0 {
            bits(raw, base + 1, 1) << 1 | (bit(raw, base) as u32) << 2
        } else {
            bits(raw, base, 2)
        }
    } else {
        bits(raw, base + 1, 2) | (bit(raw, base) as u32) << 2
    }
}

/// An operand of a DPP or SDWA form: a VGPR (or, in SDWA with the S0/S1 bit, a scalar source) with
/// neg/abs or sext modifiers.
fn extended_source(inst: &Inst, op: &rdna_isa::Operand, out: &mut String) -> bool {
    let v = inst.field(op.field);
    let mods = extended_mods(inst, op.field);
    let scalar = inst.format.is_sdwa() && crate::decode::sdwa_scalar(inst, op.field);
    let v = if scalar { crate::decode::swap_m0_null(inst.gen, v) } else { v };
    let is_const = scalar && matches!(v, 128..=208 | 240..=248);
    with_modifiers(out, mods, is_const, |out| {
        if scalar {
            v != src::LITERAL && source(out, v, 1, op.imm, None)
        } else if op.class == Class::Vgpr16 {
            vgpr_half(out, v);
            true
        } else {
            reg_range(out, "v", v as u32, op.width as u32);
            lo128_note(inst, op, out);
            true
        }
    })
}

/// Wraps an operand in its source modifiers (`mods`: bit 0 neg, bit 1 abs, bit 2 sext). LLVM spells
/// a negated constant `neg(c)` and a negated register `-r`.
fn with_modifiers(out: &mut String, mods: u32, is_const: bool, operand: impl FnOnce(&mut String) -> bool) -> bool {
    let (neg, abs, sext) = (mods & 1 != 0, mods & 2 != 0, mods & 4 != 0);
    let neg_mnemo = neg && !abs && is_const;
    if sext {
        out.push_str("sext(");
    }
    if neg_mnemo {
        out.push_str("neg(");
    } else if neg {
        out.push('-');
    }
    if abs {
        out.push('|');
    }
    let ok = operand(out);
    if abs {
        out.push('|');
    }
    if neg_mnemo || sext {
        out.push(')');
    }
    ok
}

/// The operands of the scalar ALU formats and of plain VOP1/VOP2/VOPC/VOP3 from gfx10 on print
/// in one of three forms: a VGPR destination or VSRC1, an SGPR destination, or a source (inside
/// its VOP3 modifiers). This is what [`general_operand`]'s cases come to for them (these targets
/// have no accumulation registers), reached without walking those cases: printing is most of
/// `rdna dis`'s time. None: not one of them (true16 halves, SOPK's immediate, the operands with
/// a meaning of their own); the general cases print it.
/// `plain_operands_print_as_the_general_cases` compares the two on every opcode.
#[inline]
fn plain_operand(inst: &Inst, op: &rdna_isa::Operand, out: &mut String) -> Option<bool> {
    let plain_format =
        matches!(inst.format, Format::Sop1 | Format::Sop2 | Format::Sopc | Format::Sopk | Format::Vop1 | Format::Vop2 | Format::Vopc | Format::Vop3);
    if !plain_format || inst.gen.is_gcn() || matches!(op.class, Class::Vgpr16 | Class::Agpr) {
        return None;
    }
    let v = inst.field(op.field);
    let width = if op.mask && inst.wave64 { 2 * op.width as u32 } else { op.width as u32 };
    let vop3_source = |out: &mut String| {
        let is_const = matches!(v, 128..=208 | 240..=248 | 255);
        with_modifiers(out, src_mods(inst, op.field), is_const, |out| source_operand(inst, op, v, width, out))
    };
    Some(match (inst.format, op.class, op.field) {
        (_, Class::Vgpr, Field::Vdst | Field::Vsrc1) => vgpr_operand(inst, op, v, width, out),
        (_, Class::Sgpr, Field::Sdst) => {
            let ok = scalar_reg(out, v, width);
            invalid_note(inst, op, out);
            ok
        }
        // (gfx8/gfx9's VOP3 interpolation reads SRC0 as an attribute.)
        (Format::Vop3, Class::Other, Field::Src0) => return None,
        (Format::Vop3, _, Field::Src0 | Field::Src1 | Field::Src2) => vop3_source(out),
        (_, _, Field::Src0) => source_operand(inst, op, v, width, out),
        (Format::Sop1, _, Field::Ssrc0) if !inst.entry.name.starts_with("s_sendmsg_rtn") => source_operand(inst, op, v, width, out),
        (Format::Sop2 | Format::Sopc, _, Field::Ssrc0) => source_operand(inst, op, v, width, out),
        (Format::Sop2 | Format::Sopc, _, Field::Ssrc1) if inst.entry.name != "s_set_gpr_idx_on" => source_operand(inst, op, v, width, out),
        _ => return None,
    })
}

/// A VGPR operand: the range and LLVM's note where the operand takes v0..v127 only.
fn vgpr_operand(inst: &Inst, op: &rdna_isa::Operand, v: u16, width: u32, out: &mut String) -> bool {
    if v as u32 + width > 256 {
        return false;
    }
    reg_range(out, "v", v as u32, width);
    lo128_note(inst, op, out);
    true
}

/// A VALU or SALU source (inside its modifiers), and LLVM's note where the operand's class does
/// not allow the value. An inline float where the operand takes none prints in its 32-bit
/// spelling.
fn source_operand(inst: &Inst, op: &rdna_isa::Operand, v: u16, width: u32, out: &mut String) -> bool {
    let refused = op.flag & (1 << src::value_class(v)) != 0 && matches!(v, 240..=248);
    let (width, imm) = if refused { (1, ImmTy::B32) } else { (width, op.imm) };
    let ok = source(out, v, width, imm, inst.literal);
    invalid_note(inst, op, out);
    ok
}

fn operand(inst: &Inst, i: usize, op: &rdna_isa::Operand, out: &mut String) -> Result<(), BadOperand> {
    if let Some(ok) = plain_operand(inst, op, out) {
        return if ok { Ok(()) } else { Err(BadOperand) };
    }
    general_operand(inst, i, op, out)
}

/// [`operand`] by the general cases.
fn general_operand(inst: &Inst, i: usize, op: &rdna_isa::Operand, out: &mut String) -> Result<(), BadOperand> {
    let v = inst.field(op.field);
    let width = crate::decode::operand_width(inst, op);
    let extended = inst.format.is_dpp16() || inst.format.is_dpp8() || inst.format.is_sdwa();
    let ok = match (inst.format, op.field) {
        (Format::Sop1, Field::Ssrc0) if inst.entry.name.starts_with("s_sendmsg_rtn") => {
            sendmsg_rtn(inst.raw as u32 & 0xff, out, inst.isa.tables());
            true
        }
        (Format::Vop3Dpp16 | Format::Vop3Dpp8 | Format::Vop3pDpp16 | Format::Vop3pDpp8, Field::Src0) => with_modifiers(out, src_mods(inst, Field::Src0), false, |out| {
            reg_range(out, "v", v as u32, 1);
            lo128_note(inst, op, out);
            true
        }),
        (Format::Vop3Dpp16 | Format::Vop3Dpp8 | Format::Vop3pDpp16 | Format::Vop3pDpp8, Field::Src1 | Field::Src2) => {
            let is_const = matches!(v, 128..=208 | 240..=248 | 255);
            with_modifiers(out, src_mods(inst, op.field), is_const, |out| {
                let ok = source(out, v, width, op.imm, inst.literal);
                invalid_note(inst, op, out);
                ok
            })
        }
        (_, Field::Src0 | Field::Vsrc1) if extended => extended_source(inst, op, out),
        (Format::Sopk | Format::Sopp, Field::Simm16) => {
            simm16(inst, v, out);
            true
        }
        (Format::Smem, Field::Sbase) => {
            let ok = scalar_reg(out, crate::decode::scaled_value(inst, op), width);
            invalid_note(inst, op, out);
            ok
        }
        (Format::Smem, Field::Offset) if inst.gen.is_gcn() => gcn_smem_offset(inst, out),
        // gfx12's prefetches name their SGPR offset as an operand of its own.
        (Format::Smem, Field::Soffset) if inst.entry.name.contains("prefetch") => scalar_reg(out, v, 1),
        // gfx8/gfx9 VOP3 interpolation: SRC0 is attrN.c (bits 5:0 and 7:6); bit 8 is `high`.
        (Format::Vop3, Field::Src0) if op.class == Class::Other && is_vop3_interp(inst) => {
            let chan = ["x", "y", "z", "w"][bits(inst.raw, 38, 2) as usize];
            let _ = write!(out, "attr{}.{chan}", bits(inst.raw, 32, 6));
            true
        }
        (Format::Sopc, Field::Ssrc1) if inst.entry.name == "s_set_gpr_idx_on" => {
            gpr_idx_mode(bits(inst.raw, 8, 8), out);
            true
        }
        (Format::Smem, Field::Offset) => {
            // A 21-bit (gfx12: 24-bit) signed byte offset; with an SGPR offset too it prints as
            // `offset:`. The prefetches print it alone (their SGPR offset is an operand of its own).
            let w = if g12(inst) { 24 } else { 21 };
            let off = ((bits(inst.raw, 32, w) << (32 - w)) as i32) >> (32 - w);
            let soff = inst.field(Field::Soffset);
            if inst.entry.name.contains("prefetch") {
                signed_hex(out, off);
            } else if soff != src::NULL {
                if !scalar_reg(out, soff, 1) {
                    return Err(BadOperand);
                }
                if off != 0 {
                    out.push_str(" offset:");
                    signed_hex(out, off);
                }
            } else if off == 0 {
                out.push_str("null");
            } else {
                signed_hex(out, off);
            }
            true
        }
        (Format::Mubuf | Format::Mtbuf, Field::Srsrc) => {
            let ok = scalar_reg(out, crate::decode::scaled_value(inst, op), 4);
            invalid_note(inst, op, out);
            ok
        }
        (Format::Flat | Format::Global | Format::Scratch, Field::Saddr) => scalar_reg(out, v, width),
        (Format::Scratch, Field::Addr) if !scratch_without_saddr(inst) => {
            out.push_str("off");
            true
        }
        // A true16 source naming a VGPR half (a 9-bit source's VGPRs start at 256).
        _ if op.class == Class::Vgpr16 && v >= 256 => {
            vgpr_half(out, v - 256);
            true
        }
        // A VALU source in AGPRs: the encoding's bit, or the table's class where no bit chooses.
        _ if (256..512).contains(&v)
            && inst.source_kind(i) == SourceKind::Valu
            && agpr_select(inst, op.field).unwrap_or(op.class == Class::Agpr) =>
        {
            if (v - 256) as u32 + width > 256 {
                return Err(BadOperand);
            }
            reg_range(out, "a", (v - 256) as u32, width);
            invalid_note(inst, op, out);
            true
        }
        _ => match inst.source_kind(i) {
            SourceKind::Valu | SourceKind::Salu => {
                let is_const = matches!(v, 128..=208 | 240..=248 | 255);
                with_modifiers(out, src_mods(inst, op.field), is_const, |out| source_operand(inst, op, v, width, out))
            }
            SourceKind::None => match op.class {
                Class::Vgpr | Class::Agpr if agpr_select(inst, op.field).is_some() => {
                    let prefix = if agpr_select(inst, op.field) == Some(true) { "a" } else { "v" };
                    if v as u32 + width > 256 {
                        false
                    } else {
                        reg_range(out, prefix, v as u32, width);
                        true
                    }
                }
                Class::Vgpr => vgpr_operand(inst, op, v, width, out),
                Class::Vgpr16 => {
                    vgpr_half(out, v);
                    true
                }
                Class::Agpr => {
                    if v as u32 + width > 256 {
                        false
                    } else {
                        reg_range(out, "a", v as u32, width);
                        true
                    }
                }
                Class::Sgpr => {
                    // An 8-bit VDST read as a scalar destination can hold any source value.
                    let ok = if op.field == Field::Vdst {
                        // An 8-bit VDST holding a scalar register number: the generation's numbering.
                        source(out, crate::decode::swap_m0_null(inst.gen, v), width, ImmTy::B32, None)
                    } else {
                        scalar_reg(out, v, width)
                    };
                    invalid_note(inst, op, out);
                    ok
                }
                Class::Other => {
                    // A register field read as a number (s_atc_probe's SDATA) keeps its raw
                    // encoding, not the register numbering Inst::field gives.
                    let v = if op.field == Field::Sdata { bits(inst.raw, 6, 7) as u16 } else { v };
                    if v <= 64 {
                        let _ = write!(out, "{v}");
                    } else {
                        fmt_hex(out, v as u64);
                    }
                    true
                }
            },
        },
    };
    if ok {
        Ok(())
    } else {
        Err(BadOperand)
    }
}

/// A true16 register half: `v1.l` for 1, `v1.h` for 129 (bit 7: the high half).
fn vgpr_half(out: &mut String, v: u16) {
    let _ = write!(out, "v{}.{}", v & 0x7f, if v & 0x80 != 0 { "h" } else { "l" });
}

/// VOP3 source modifiers of `field`: bit 0 neg, bit 1 abs.
fn src_mods(inst: &Inst, field: Field) -> u32 {
    let mix = matches!(inst.format, Format::Vop3p | Format::Vop3pDpp16 | Format::Vop3pDpp8) && is_fma_mix(inst);
    if inst.format == Format::Vinterp {
        // VINTERP sources take neg only (bits 61..63).
        let k = match field {
            Field::Src0 => 0,
            Field::Src1 => 1,
            Field::Src2 => 2,
            _ => return 0,
        };
        return bit(inst.raw, 61 + k) as u32;
    }
    if !inst.format.is_vop3() && !mix {
        return 0;
    }
    let raw = inst.raw & !inst.entry.ignored;
    let k = match field {
        Field::Src0 => 0,
        Field::Src1 => 1,
        Field::Src2 => 2,
        _ => return 0,
    };
    let neg = bit(raw, 61 + k) as u32;
    let abs = bit(raw, 8 + k) as u32;
    if inst.entry.sext >> (61 + k) & 1 != 0 {
        // Integer operands: LLVM reads the neg bit as sext.
        return neg << 2 | abs << 1;
    }
    // VOP3B (an SDST in bits 8..14) has no abs bits.
    let has_sdst = inst.entry.operands.iter().any(|o| o.field == Field::Sdst);
    neg | if has_sdst { 0 } else { abs << 1 }
}

/// VOP3 op_sel, clamp and output modifiers.
fn vop3_modifiers(inst: &Inst, raw: u64, out: &mut String) {
            let must = inst.entry.must_zero;
            let is_opsel = |b: u32| must & (1 << b) == 0;
            let nsrc = inst.entry.operands.iter().filter(|o| matches!(o.field, Field::Src0 | Field::Src1 | Field::Src2)).count();
            let has_sdst = inst.entry.operands.iter().any(|o| o.field == Field::Sdst);
            if !has_sdst && (11..15).any(|b| is_opsel(b)) && uses_opsel(inst) {
                let sel = bits(raw, 11, 4);
                if sel != 0 {
                    out.push_str(" op_sel:[");
                    // gfx12's permlanes print two (their fetch-inactive and bound-control bits).
                    let n = if g12(inst) && inst.entry.name.starts_with("v_permlane") {
                        2
                    } else if bit(must, 14) {
                        nsrc
                    } else {
                        nsrc + 1
                    };
                    for k in 0..n {
                        if k > 0 {
                            out.push(',');
                        }
                        let b = if k == nsrc { 3 } else { k as u32 };
                        out.push(if sel >> b & 1 != 0 { '1' } else { '0' });
                    }
                    out.push(']');
                }
            }
            if is_vop3_interp(inst) && bit(raw, 40) {
                out.push_str(" high");
            }
            // gfx7 keeps clamp in bit 11.
            if bit(raw, if inst.gen == rdna_isa::Generation::Gfx7 { 11 } else { 15 }) {
                out.push_str(" clamp");
            }
            match bits(raw, 59, 2) {
                1 => out.push_str(" mul:2"),
                2 => out.push_str(" mul:4"),
                3 => out.push_str(" div:2"),
                _ => {}
            }
}

/// VOP3P op_sel, op_sel_hi, neg_lo/neg_hi (abs/neg on the sources for v_fma_mix*) and clamp.
fn vop3p_modifiers(inst: &Inst, raw: u64, out: &mut String) {
    let nsrc = inst.entry.operands.iter().filter(|o| matches!(o.field, Field::Src0 | Field::Src1 | Field::Src2)).count();
    let list = |out: &mut String, name: &str, vals: [bool; 3], default: bool| {
        if vals[..nsrc].iter().all(|&v| v == default) {
            return;
        }
        out.push(' ');
        out.push_str(name);
        out.push_str(":[");
        for (k, v) in vals[..nsrc].iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            out.push(if *v { '1' } else { '0' });
        }
        out.push(']');
    };
    // WMMA with an f32 or i32 result has no op_sel operands (LLVM ignores those bits).
    let n = inst.entry.name;
    if !(n.starts_with("v_wmma_f32") || n.starts_with("v_wmma_i32")) {
        list(out, "op_sel", [bit(raw, 11), bit(raw, 12), bit(raw, 13)], false);
        // op_sel_hi defaults to all ones, except for v_fma_mix* where it selects f16 sources.
        list(out, "op_sel_hi", [bit(raw, 59), bit(raw, 60), bit(raw, 14)], !is_fma_mix(inst));
    }
    if !is_fma_mix(inst) {
        list(out, "neg_lo", [bit(raw, 61), bit(raw, 62), bit(raw, 63)], false);
        list(out, "neg_hi", [bit(raw, 8), bit(raw, 9), bit(raw, 10)], false);
    }
    if bit(raw, 15) {
        out.push_str(" clamp");
    }
}

/// DPP16 controls from a DPP dword placed at bits 32..63 of `dw`.
fn dpp16_controls(out: &mut String, dw: u64, isa: rdna_isa::Isa, double: bool) {
    let c = bits(dw, 40, 9);
    let newbcast = matches!(isa, rdna_isa::Isa::Gfx90a | rdna_isa::Isa::Gfx942);
    if newbcast && double && !(0x150..=0x15f).contains(&c) {
        // gfx90a/gfx942 64-bit operations take row_newbcast only.
        out.push_str("  /* DP ALU dpp only supports row_newbcast */");
    } else if isa.generation().is_gcn() {
        gcn_dpp_ctrl(out, c, matches!(isa, rdna_isa::Isa::Gfx90a | rdna_isa::Isa::Gfx942));
    } else {
        out.push(' ');
        dpp_ctrl(out, c);
    }
    let _ = write!(out, " row_mask:0x{:x} bank_mask:0x{:x}", bits(dw, 60, 4), bits(dw, 56, 4));
    if bit(dw, 51) {
        out.push_str(" bound_ctrl:1");
    }
    if bit(dw, 50) {
        out.push_str(" fi:1");
    }
}

/// DPP8 lane selects from a DPP dword placed at bits 32..63 of `dw`; `fi` when src0 said 0xEA.
fn dpp8_controls(out: &mut String, dw: u64, fi: bool) {
    out.push_str(" dpp8:[");
    for k in 0..8 {
        if k > 0 {
            out.push(',');
        }
        let _ = write!(out, "{}", bits(dw, 40 + 3 * k, 3));
    }
    out.push(']');
    if fi {
        out.push_str(" fi:1");
    }
}

fn modifiers(inst: &Inst, out: &mut String) -> Result<(), BadOperand> {
    let raw = inst.raw & !inst.entry.ignored;
    match inst.format {
        Format::Vop3 => vop3_modifiers(inst, raw, out),
        Format::Vinterp => {
            // `clamp op_sel:[a,b,c,d] wait_exp:N`; op_sel only where the operation has 16-bit parts.
            if bit(raw, 15) {
                out.push_str(" clamp");
            }
            let sel = bits(raw, 11, 4);
            if sel != 0 {
                let b = |k: u32| sel >> k & 1;
                let _ = write!(out, " op_sel:[{},{},{},{}]", b(0), b(1), b(2), b(3));
            }
            let _ = write!(out, " wait_exp:{}", bits(raw, 8, 3));
        }
        Format::Vop3Dpp16 | Format::Vop3Dpp8 | Format::Vop3pDpp16 | Format::Vop3pDpp8 => {
            // gfx11 VOP3/VOP3P DPP: the VOP3(P) modifiers, then the controls of the third dword.
            if matches!(inst.format, Format::Vop3pDpp16 | Format::Vop3pDpp8) {
                vop3p_modifiers(inst, raw, out);
            } else {
                vop3_modifiers(inst, raw, out);
            }
            let ext = (inst.ext as u64) << 32;
            if inst.format.is_dpp16() {
                dpp16_controls(out, ext, inst.isa, false);
            } else {
                dpp8_controls(out, ext, bits(raw, 32, 9) as u16 == src::DPP8_FI);
            }
        }
        f if (f.is_dpp16() || f.is_dpp8() || f.is_sdwa()) && inst.entry.operands.is_empty() => {}
        f if f.is_dpp16() => {
            let double = inst.entry.operands.iter().any(|o| o.class == Class::Vgpr && o.width == 2);
            dpp16_controls(out, raw, inst.isa, double)
        }
        f if f.is_dpp8() => {
            dpp8_controls(out, raw, bits(raw, 0, 9) as u16 == src::DPP8_FI);
        }
        f if f.is_sdwa() => {
            // 7 is reserved and rejected by the decoder.
            const SEL: [&str; 8] = ["BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD", "DWORD"];
            // LLVM prints the reserved value 3 as UNUSED_PAD.
            const UNUSED: [&str; 4] = ["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "UNUSED_PAD"];
            // gfx8's SDWA compares have a clamp bit (gfx9+ keep their SDST there).
            if f == Format::VopcSdwa && inst.gen == rdna_isa::Generation::Gfx8 && bit(raw, 45) {
                out.push_str(" clamp");
            }
            if f != Format::VopcSdwa {
                if bit(raw, 45) {
                    out.push_str(" clamp");
                }
                match bits(raw, 46, 2) {
                    1 => out.push_str(" mul:2"),
                    2 => out.push_str(" mul:4"),
                    3 => out.push_str(" div:2"),
                    _ => {}
                }
                let _ = write!(out, " dst_sel:{} dst_unused:{}", SEL[bits(raw, 40, 3) as usize], UNUSED[bits(raw, 43, 2) as usize]);
            }
            let _ = write!(out, " src0_sel:{}", SEL[bits(raw, 48, 3) as usize]);
            if f != Format::Vop1Sdwa {
                let _ = write!(out, " src1_sel:{}", SEL[bits(raw, 56, 3) as usize]);
            }
        }
        Format::Vop3p if is_mfma(inst) => {
            // MFMA: broadcast controls instead of op_sel/neg (bit 15 picks AGPRs or is unused).
            for (name, v) in [("cbsz", bits(raw, 8, 3)), ("abid", bits(raw, 11, 4))] {
                if v != 0 {
                    let _ = write!(out, " {name}:{v}");
                }
            }
            // gfx942's double-precision MFMA reads bits 61..63 as source negation; elsewhere blgp.
            let high = bits(raw, 61, 3);
            if high != 0 && inst.entry.name.contains("_f64") && inst.isa == rdna_isa::Isa::Gfx942 {
                let _ = write!(out, " neg:[{},{},{}]", high & 1, high >> 1 & 1, high >> 2);
            } else if high != 0 {
                let _ = write!(out, " blgp:{high}");
            }
        }
        Format::Vop3p => vop3p_modifiers(inst, raw, out),
        Format::Smem if inst.entry.operands.iter().any(|o| o.field == Field::Sbase) => {
            // gcn has no dlc (its bit 14 is soe).
            if g12(inst) {
                cache_policy(inst, out, bits(raw, 23, 2), bits(raw, 21, 2));
                return Ok(());
            }
            // gfx7's SMRD has no cache bits.
            let (glc, dlc) = if g11(inst) {
                (14, 13)
            } else if inst.gen == rdna_isa::Generation::Gfx7 {
                (64, 64)
            } else if inst.gen.is_gcn() {
                (16, 64)
            } else {
                (16, 14)
            };
            if bit(raw, glc) {
                out.push_str(" glc");
            }
            if bit(raw, dlc) {
                out.push_str(" dlc");
            }
        }
        Format::Ds => {
            let o0 = bits(raw, 0, 8);
            let o1 = bits(raw, 8, 8);
            let name = inst.entry.name;
            if ["write2", "read2", "wrxchg2", "2addr"].iter().any(|k| name.contains(k)) {
                // The two-address forms have two 8-bit offsets.
                if o0 != 0 {
                    let _ = write!(out, " offset0:{o0}");
                }
                if o1 != 0 {
                    let _ = write!(out, " offset1:{o1}");
                }
            } else if name == "ds_swizzle_b32" {
                let off = o0 | o1 << 8;
                let (and, or, xor) = (off & 0x1f, off >> 5 & 0x1f, off >> 10 & 0x1f);
                let lossy = off & 0x8000 == 0 && (!and & xor != 0 || and & or != 0);
                if lossy && inst.gen == rdna_isa::Generation::Gfx7 {
                    // LLVM's BITMASK_PERM string cannot say this mask; gfx7 has no LLVM text to
                    // match, so the offset is printed exactly.
                    let _ = write!(out, " offset:{off}");
                } else if off != 0 {
                    let _ = write!(out, " offset:swizzle(");
                    swizzle(out, off);
                    out.push(')');
                }
            } else {
                let off = o0 | o1 << 8;
                if off != 0 {
                    let _ = write!(out, " offset:{off}");
                }
            }
            // GWS operations without operands print `gds` as their one token (`ds_gws_sema_v gds`).
            if bit(raw, if inst.gen.is_gcn() && inst.gen != rdna_isa::Generation::Gfx7 { 16 } else { 17 }) && !inst.entry.tokens.contains(&"gds") {
                out.push_str(" gds");
            }
        }
        Format::Flat | Format::Global | Format::Scratch | Format::Mubuf | Format::Mtbuf if g12(inst) => {
            // gfx12 VFLAT/VBUFFER: a 24-bit signed offset in the third dword, th/scope, tfe.
            if inst.format == Format::Mtbuf {
                let name = inst.isa.tables().mtbuf_formats[bits(raw, 55, 7) as usize];
                if !name.is_empty() {
                    let _ = write!(out, " format:{name}");
                }
            }
            if matches!(inst.format, Format::Mubuf | Format::Mtbuf) {
                let (offen, idxen) = buffer_addr_bits(inst);
                if idxen {
                    out.push_str(" idxen");
                }
                if offen {
                    out.push_str(" offen");
                }
            }
            let off = (inst.ext as i32) >> 8;
            // The cache-control operations (global_inv, global_wb, …) have no address: no offset.
            if off != 0 && !inst.entry.operands.is_empty() {
                let _ = write!(out, " offset:{off}");
            }
            cache_policy(inst, out, bits(raw, 52, 3), bits(raw, 50, 2));
            if matches!(inst.format, Format::Mubuf | Format::Mtbuf) && bit(raw, 22) {
                out.push_str(" tfe");
            }
        }
        Format::Flat | Format::Global | Format::Scratch => {
            // FLAT offsets are 12-bit unsigned; GLOBAL and SCRATCH offsets are 12-bit signed on
            // gfx10, 13-bit signed on gfx11.
            // gfx9: 13-bit offsets, unsigned for FLAT (LLVM prints all 13 bits although the ISA
            // documents 12), signed for GLOBAL/SCRATCH.
            let w = if g11(inst) || inst.gen == rdna_isa::Generation::Gfx9 || inst.isa == rdna_isa::Isa::Gfx810 { 13 } else { 12 };
            let off = bits(raw, 0, w);
            let off = if inst.format == Format::Flat { off as i32 } else { ((off << (32 - w)) as i32) >> (32 - w) };
            if off != 0 {
                let _ = write!(out, " offset:{off}");
            }
            let (glc, slc, dlc) = flat_cache_bits(inst);
            if cdna2(inst) {
                cdna_cache_bits(inst, out, glc, slc, bit(raw, 25));
            } else {
                cache_bits(out, glc, slc, dlc);
            }
            if flat_lds(inst) {
                out.push_str(" lds");
            }
        }
        Format::Mubuf | Format::Mtbuf => {
            if inst.format == Format::Mtbuf {
                let names = inst.isa.tables().mtbuf_formats;
                let name = names[bits(raw, 19, 7) as usize];
                if !name.is_empty() {
                    let _ = write!(out, " format:{name}");
                }
            }
            let (offen, idxen) = buffer_addr_bits(inst);
            if idxen {
                out.push_str(" idxen");
            }
            if offen {
                out.push_str(" offen");
            }
            if inst.gen == rdna_isa::Generation::Gfx7 && bit(raw, 15) {
                out.push_str(" addr64");
            }
            let off = bits(raw, 0, 12);
            if off != 0 {
                let _ = write!(out, " offset:{off}");
            }
            let (slc, dlc, tfe) = if g11(inst) {
                (12, 13, 53)
            } else if inst.gen == rdna_isa::Generation::Gfx7 {
                (54, 64, 55) // gfx7: slc in the second dword for both
            } else if inst.gen.is_gcn() {
                // gcn: MUBUF's slc is bit 17, MTBUF's bit 54; no dlc.
                (if inst.format == Format::Mubuf { 17 } else { 54 }, 64, 55)
            } else {
                (54, 15, 55)
            };
            // buffer_store_lds_dword's lds comes before the cache bits.
            let lds_first = inst.entry.name == "buffer_store_lds_dword";
            let lds = inst.format == Format::Mubuf && !g11(inst) && bit(raw, 16);
            if lds && lds_first {
                out.push_str(" lds");
            }
            if cdna2(inst) {
                // MTBUF's bit 15 is part of its opcode: its scc (gfx942: sc1) is bit 53.
                let scc = if inst.format == Format::Mubuf { bit(raw, 15) } else { bit(raw, 53) };
                cdna_cache_bits(inst, out, bit(raw, 14), bit(raw, slc), scc);
            } else {
                cache_bits(out, bit(raw, 14), bit(raw, slc), bit(raw, dlc));
            }
            if lds && !lds_first {
                out.push_str(" lds");
            }
            // CDNA2+ uses bit 55 to put the data in AGPRs (no tfe).
            if bit(raw, tfe) && !cdna2(inst) {
                out.push_str(" tfe");
            }
        }
        _ => {}
    }
    Ok(())
}

/// gfx8/gfx9 SMEM offsets: an SGPR (imm clear: in the low bits, or in SOFFSET with soe), an
/// immediate (gfx8: 20-bit unsigned, gfx9: 21-bit signed), or both (`s7 offset:0x10`).
fn gcn_smem_offset(inst: &Inst, out: &mut String) -> bool {
    let raw = inst.raw;
    if inst.gen == rdna_isa::Generation::Gfx7 {
        // SMRD: an 8-bit dword offset (imm, bit 8), a literal dword offset (0xff), or an SGPR.
        let off = bits(raw, 0, 8);
        if bit(raw, 8) {
            fmt_hex(out, off as u64);
            return true;
        }
        if off == 0xff {
            fmt_hex(out, inst.literal.unwrap_or(0) as u64);
            return true;
        }
        return scalar_reg(out, crate::decode::swap_m0_null(inst.gen, off as u16), 1);
    }
    let gfx9 = inst.gen == rdna_isa::Generation::Gfx9;
    let imm = bit(raw, 17);
    let soe = gfx9 && bit(raw, 14);
    let sgpr = |lo: u32| crate::decode::swap_m0_null(inst.gen, bits(raw, lo, 7) as u16);
    let offset = |out: &mut String| {
        if gfx9 {
            signed_hex(out, ((bits(raw, 32, 21) << 11) as i32) >> 11);
        } else {
            fmt_hex(out, bits(raw, 32, 20) as u64);
        }
    };
    match (imm, soe) {
        (false, false) => scalar_reg(out, sgpr(32), 1),
        (false, true) => scalar_reg(out, sgpr(57), 1),
        (true, false) => {
            offset(out);
            true
        }
        (true, true) => {
            let ok = scalar_reg(out, sgpr(57), 1);
            out.push_str(" offset:");
            offset(out);
            ok
        }
    }
}

/// `exp tgt src0, src1, src2, src3 [done] [compr] [vm]`; a source whose enable bit is clear is `off`,
/// and with compr the sources are VSRC0, VSRC0, VSRC1, VSRC1.
fn export(inst: &Inst, out: &mut String) -> Result<(), BadOperand> {
    let raw = inst.raw;
    let en = bits(raw, 0, 4);
    let tgt = bits(raw, 4, 6);
    let g11 = g11(inst);
    // gfx11 has no compressed exports and no parameter targets, and adds row_en.
    let compr = !g11 && bit(raw, 10);
    out.push(' ');
    match tgt {
        21 if g11 => out.push_str("dual_src_blend0"),
        22 if g11 => out.push_str("dual_src_blend1"),
        // gfx11 dropped the null target (9) and the parameter targets.
        9 | 32..=63 if g11 => {
            let _ = write!(out, "invalid_target_{tgt}");
        }
        0..=7 => {
            let _ = write!(out, "mrt{tgt}");
        }
        8 => out.push_str("mrtz"),
        9 => out.push_str("null"),
        // gfx8/gfx9 have four position targets and no primitive export.
        16..=20 if inst.gen.is_gcn() => {
            let _ = write!(out, "invalid_target_{tgt}");
        }
        12..=15 => {
            let _ = write!(out, "pos{}", tgt - 12);
        }
        16 => out.push_str("pos4"),
        20 => out.push_str("prim"),
        32..=63 => {
            let _ = write!(out, "param{}", tgt - 32);
        }
        _ => {
            let _ = write!(out, "invalid_target_{tgt}");
        }
    }
    for n in 0..4u32 {
        out.push_str(if n == 0 { " " } else { ", " });
        let src = if compr { n / 2 } else { n };
        if en >> n & 1 != 0 {
            reg_range(out, "v", bits(raw, 32 + 8 * src, 8), 1);
        } else {
            out.push_str("off");
        }
    }
    let flags: &[(u32, &str)] = if g11 { &[(11, " done"), (13, " row_en")] } else { &[(11, " done"), (10, " compr"), (12, " vm")] };
    for &(b, name) in flags {
        if bit(raw, b) {
            out.push_str(name);
        }
    }
    Ok(())
}

/// `lds_param_load vdst, attrN.c wait_vdst:W` / `lds_direct_load vdst wait_vdst:W`.
fn lds_direct(inst: &Inst, out: &mut String) -> Result<(), BadOperand> {
    let raw = inst.raw;
    out.push(' ');
    reg_range(out, "v", bits(raw, 0, 8), 1);
    if matches!(inst.entry.name, "lds_param_load" | "ds_param_load") {
        let chan = ["x", "y", "z", "w"][bits(raw, 8, 2) as usize];
        let _ = write!(out, ", attr{}.{chan}", bits(raw, 10, 6));
    }
    if g12(inst) {
        // gfx12 (VDSDIR): wait_va_vdst and wait_vm_vsrc.
        let _ = write!(out, " wait_va_vdst:{} wait_vm_vsrc:{}", bits(raw, 16, 4), bits(raw, 23, 1));
    } else {
        let _ = write!(out, " wait_vdst:{}", bits(raw, 16, 4));
    }
    Ok(())
}

/// gfx12 VIMAGE/VSAMPLE: `image_* vdata, vaddr|[a0, a1, ...], rsrc[, samp] modifiers`. The
/// addresses have a field each (VIMAGE five: the third dword's bytes and bits 63:56; VSAMPLE four);
/// when there are more addresses than fields, the last field starts a range of the rest.
fn image_gfx12(inst: &Inst, out: &mut String) -> Result<(), BadOperand> {
    let raw = inst.raw;
    let mb = crate::decode::MimgBits::of_inst(inst);
    let sample = inst.entry.op >= 0x100;
    let (addrs, data) = crate::decode::mimg_shape(inst);
    out.push(' ');
    reg_range(out, "v", inst.field(Field::Vdata) as u32, data);
    out.push_str(", ");
    let fields: Vec<u32> = (0..4).map(|k| inst.ext >> (8 * k) & 0xff).chain((!sample).then(|| bits(raw, 56, 8))).collect();
    if addrs == 1 {
        reg_range(out, "v", fields[0], 1);
    } else {
        out.push('[');
        let n = fields.len() as u32;
        for k in 0..addrs.min(n) {
            if k > 0 {
                out.push_str(", ");
            }
            let last = k == n - 1;
            let count = if last { addrs - (n - 1) } else { 1 };
            if fields[k as usize] + count > 256 {
                return Err(BadOperand);
            }
            reg_range(out, "v", fields[k as usize], count);
        }
        out.push(']');
    }
    for op in inst.entry.operands.iter().filter(|o| matches!(o.field, Field::Srsrc | Field::Ssamp)) {
        out.push_str(", ");
        let v = crate::decode::scaled_value(inst, op);
        let w = op.width as u32;
        let ok = match v {
            128..=208 | 240..=248 => source(out, v, 1, rdna_isa::ImmTy::B32, None),
            _ => source(out, v, w, rdna_isa::ImmTy::B32, None),
        };
        if !ok {
            return Err(BadOperand);
        }
        invalid_note(inst, op, out);
    }
    let m = raw & !inst.entry.ignored;
    let dmask = bits(m, 22, 4);
    if dmask != 0 {
        let _ = write!(out, " dmask:0x{dmask:x}");
    }
    const DIMS: [&str; 8] = ["1D", "2D", "3D", "CUBE", "1D_ARRAY", "2D_ARRAY", "2D_MSAA", "2D_MSAA_ARRAY"];
    if inst.entry.ignored & 7 != 7 {
        let _ = write!(out, " dim:SQ_RSRC_IMG_{}", DIMS[mb.dim(raw) as usize]);
    }
    if bit(m, mb.unorm) {
        out.push_str(" unorm");
    }
    cache_policy(inst, out, bits(m, 52, 3), bits(m, 50, 2));
    for (b, name) in [(mb.r128, " r128"), (mb.a16, " a16"), (mb.tfe, " tfe"), (mb.lwe, " lwe"), (mb.d16, " d16")] {
        if bit(m, b) {
            out.push_str(name);
        }
    }
    Ok(())
}

/// `image_* vdata, vaddr|[a0, a1, ...], srsrc[, ssamp] modifiers`; for some opcodes LLVM puts two
/// spaces after the mnemonic of the NSA form.
fn image(inst: &Inst, out: &mut String) -> Result<(), BadOperand> {
    if g12(inst) {
        return image_gfx12(inst, out);
    }
    let raw = inst.raw;
    let mb = crate::decode::MimgBits::of(inst.gen);
    let (addrs, data) = crate::decode::mimg_shape(inst);
    let nsa = mb.nsa_dwords(raw);
    let t = inst.isa.tables();
    let gap = t.mimg.is_some_and(|m| t.get(Format::Mimg).index.get(inst.entry.op as usize).is_some_and(|&i| m.nsa_gap[i as usize]));
    out.push_str(if nsa != 0 && gap { "  " } else { " " });
    // gfx90a: bit 16 puts the data in AGPRs (no tfe there) and bit 7 is scc.
    let cdna = cdna2(inst);
    reg_range(out, if cdna && bit(raw, 16) { "a" } else { "v" }, bits(raw, 40, 8), data);
    out.push_str(", ");
    if nsa != 0 {
        // gfx10: one byte per address; gfx11: at most five entries, the last one a range holding
        // whatever addresses remain.
        let entries = if inst.gen == rdna_isa::Generation::Gfx11 { addrs.min(5) } else { addrs };
        out.push('[');
        for k in 0..entries {
            if k > 0 {
                out.push_str(", ");
            }
            let v = if k == 0 { bits(raw, 32, 8) } else { inst.nsa[((k - 1) / 4) as usize] >> (8 * ((k - 1) % 4)) & 0xff };
            let w = if k + 1 == entries { addrs - entries + 1 } else { 1 };
            if v + w > 256 {
                return Err(BadOperand);
            }
            reg_range(out, "v", v, w);
        }
        out.push(']');
    } else {
        reg_range(out, "v", bits(raw, 32, 8), addrs);
    }
    for op in inst.entry.operands.iter().filter(|o| matches!(o.field, Field::Srsrc | Field::Ssamp)) {
        out.push_str(", ");
        let v = crate::decode::scaled_value(inst, op);
        if inst.gen == rdna_isa::Generation::Gfx11 && v == src::NULL {
            out.push_str("null");
        } else if !scalar_reg(out, v, op.width as u32) {
            return Err(BadOperand);
        }
        invalid_note(inst, op, out);
    }
    let m = raw & !inst.entry.ignored;
    let dmask = bits(m, 8, 4);
    if dmask != 0 {
        let _ = write!(out, " dmask:0x{dmask:x}");
    }
    let gfx9 = inst.gen.is_gcn();
    if !gfx9 {
        const DIMS: [&str; 8] = ["1D", "2D", "3D", "CUBE", "1D_ARRAY", "2D_ARRAY", "2D_MSAA", "2D_MSAA_ARRAY"];
        let _ = write!(out, " dim:SQ_RSRC_IMG_{}", DIMS[mb.dim(raw) as usize]);
    }
    // gfx9 names bit 15 a16 (gfx8: r128) and has `da` (bit 14) where later generations have dim.
    let bit15 = if matches!(inst.gen, rdna_isa::Generation::Gfx7 | rdna_isa::Generation::Gfx8) { " r128" } else { " a16" };
    let flags = [
        (mb.unorm, " unorm"),
        (mb.glc, " glc"),
        (mb.slc, " slc"),
        (if cdna { 7 } else { mb.dlc }, if cdna { " scc" } else { " dlc" }),
        (mb.r128, " r128"),
        (mb.a16, if gfx9 { bit15 } else { " a16" }),
        (if cdna { 64 } else { mb.tfe }, " tfe"),
        (mb.lwe, " lwe"),
        (if gfx9 { 14 } else { 64 }, " da"),
        (mb.d16, " d16"),
    ];
    for (b, name) in flags {
        if bit(m, b) {
            out.push_str(name);
        }
    }
    Ok(())
}

/// `v_interp_* vdst, vsrc|param, attrN.c`.
fn interp(inst: &Inst, out: &mut String) -> Result<(), BadOperand> {
    let raw = inst.raw;
    out.push(' ');
    reg_range(out, "v", bits(raw, 18, 8), 1);
    out.push_str(", ");
    let vsrc = bits(raw, 0, 8);
    if inst.entry.op == 2 {
        match vsrc {
            0 => out.push_str("p10"),
            1 => out.push_str("p20"),
            2 => out.push_str("p0"),
            v => {
                let _ = write!(out, "invalid_param_{v}");
            }
        }
    } else {
        reg_range(out, "v", vsrc, 1);
    }
    let chan = ["x", "y", "z", "w"][bits(raw, 8, 2) as usize];
    let _ = write!(out, ", attr{}.{chan}", bits(raw, 10, 6));
    Ok(())
}

/// The DPP16 lane-control field, as gfx10 names it.
fn dpp_ctrl(out: &mut String, c: u32) {
    let _ = match c {
        0x000..=0x0ff => write!(out, "quad_perm:[{},{},{},{}]", c & 3, c >> 2 & 3, c >> 4 & 3, c >> 6 & 3),
        0x101..=0x10f => write!(out, "row_shl:{}", c & 0xf),
        0x111..=0x11f => write!(out, "row_shr:{}", c & 0xf),
        0x121..=0x12f => write!(out, "row_ror:{}", c & 0xf),
        0x140 => write!(out, "row_mirror"),
        0x141 => write!(out, "row_half_mirror"),
        0x150..=0x15f => write!(out, "row_share:{}", c & 0xf),
        0x160..=0x16f => write!(out, "row_xmask:{}", c & 0xf),
        0x130 => write!(out, "/* wave_shl is not supported starting from GFX10 */"),
        0x134 => write!(out, "/* wave_rol is not supported starting from GFX10 */"),
        0x138 => write!(out, "/* wave_shr is not supported starting from GFX10 */"),
        0x13c => write!(out, "/* wave_ror is not supported starting from GFX10 */"),
        0x142 | 0x143 => write!(out, "/* row_bcast is not supported starting from GFX10 */"),
        _ => write!(out, "/* Invalid dpp_ctrl value */"),
    };
}

/// The DPP lane control as gfx8/gfx9 name it (with the space before it): wave shifts and row
/// broadcasts exist, row_share (gfx90a/gfx942: row_newbcast) and row_xmask do not.
fn gcn_dpp_ctrl(out: &mut String, c: u32, newbcast: bool) {
    let _ = match c {
        0x130 => write!(out, " wave_shl:1"),
        0x134 => write!(out, " wave_rol:1"),
        0x138 => write!(out, " wave_shr:1"),
        0x13c => write!(out, " wave_ror:1"),
        0x142 => write!(out, " row_bcast:15"),
        0x143 => write!(out, " row_bcast:31"),
        0x150..=0x15f if newbcast => write!(out, " row_newbcast:{}", c & 0xf),
        0x150..=0x15f => write!(out, "  /* row_newbcast/row_share is not supported on ASICs earlier than GFX90A/GFX10 */"),
        0x160..=0x16f => write!(out, " /* row_xmask is not supported on ASICs earlier than GFX10 */"),
        _ => {
            out.push(' ');
            dpp_ctrl(out, c);
            Ok(())
        }
    };
}

/// Matrix operations (MFMA, and gfx942's sparse SMFMAC): CDNA's VOP3P with AGPR selects and
/// broadcast controls in place of op_sel and neg.
fn is_mfma(inst: &Inst) -> bool {
    inst.format == Format::Vop3p && (inst.entry.name.starts_with("v_mfma") || inst.entry.name.starts_with("v_smfmac"))
}

/// gfx90a and gfx942: AGPRs for memory data and MFMA accumulators chosen per instruction, and a
/// third cache bit.
fn cdna2(inst: &Inst) -> bool {
    matches!(inst.isa, rdna_isa::Isa::Gfx90a | rdna_isa::Isa::Gfx942)
}

/// gfx90a prints glc slc scc; gfx942 names the same bits sc0 nt sc1.
fn cdna_cache_bits(inst: &Inst, out: &mut String, glc: bool, slc: bool, scc: bool) {
    let names = if inst.isa == rdna_isa::Isa::Gfx942 { [" sc0", " nt", " sc1"] } else { [" glc", " slc", " scc"] };
    for (on, name) in [glc, slc, scc].into_iter().zip(names) {
        if on {
            out.push_str(name);
        }
    }
}

/// Whether a CDNA operand names AGPRs (`a[0:3]`) rather than VGPRs, where a bit of the encoding
/// chooses: MFMA sources A/B (bits 59/60) and, on gfx90a/gfx942, the accumulator (bit 15, acc_cd)
/// and memory data (bit 55; DS: bit 25). None where the table's class stands.
fn agpr_select(inst: &Inst, field: Field) -> Option<bool> {
    let raw = inst.raw;
    let mfma = inst.format == Format::Vop3p && is_mfma(inst);
    match (inst.format, field) {
        (_, Field::Src0) if mfma => Some(bit(raw, 59)),
        (_, Field::Src1) if mfma => Some(bit(raw, 60)),
        // SMFMAC's SRC2 is the sparsity index: always a VGPR.
        (_, Field::Src2) if mfma && inst.entry.name.starts_with("v_smfmac") => Some(false),
        (_, Field::Vdst | Field::Src2) if mfma && cdna2(inst) => Some(bit(raw, 15)),
        _ if !cdna2(inst) => None,
        (Format::Ds, Field::Vdst | Field::Data0 | Field::Data1) => Some(bit(raw, 25)),
        (Format::Flat | Format::Global | Format::Scratch, Field::Vdst | Field::Data) => Some(bit(raw, 55)),
        (Format::Mubuf | Format::Mtbuf, Field::Vdata) => Some(bit(raw, 55)),
        _ => None,
    }
}

/// The memory cache-policy bits, in LLVM's order.
fn cache_bits(out: &mut String, glc: bool, slc: bool, dlc: bool) {
    if glc {
        out.push_str(" glc");
    }
    if slc {
        out.push_str(" slc");
    }
    if dlc {
        out.push_str(" dlc");
    }
}

/// Whether the VOP3 op_sel bits are printed for this opcode (16-bit VOP3-only opcodes on gfx10).
fn uses_opsel(inst: &Inst) -> bool {
    if g11(inst) {
        return true;
    }
    if inst.gen.is_gcn() {
        // gfx9's op_sel operations are the ones whose op_sel bits the sweep saw LLVM print.
        return inst.gen == rdna_isa::Generation::Gfx9 && (11..15).any(|b| inst.entry.ignored & (1 << b) == 0);
    }
    inst.entry.op >= 0x140 && !(0x180..0x200).contains(&inst.entry.op)
}

fn swizzle(out: &mut String, off: u32) {
    if off & 0x8000 != 0 {
        let _ = write!(out, "QUAD_PERM,{},{},{},{}", off & 3, off >> 2 & 3, off >> 4 & 3, off >> 6 & 3);
    } else {
        let and = off & 0x1f;
        let or = off >> 5 & 0x1f;
        let xor = off >> 10 & 0x1f;
        let _ = write!(out, "BITMASK_PERM,\"");
        for b in (0..5).rev() {
            let c = if and >> b & 1 == 0 {
                if or >> b & 1 != 0 {
                    '1'
                } else {
                    '0'
                }
            } else if xor >> b & 1 != 0 {
                'i'
            } else {
                'p'
            };
            out.push(c);
        }
        out.push('"');
    }
}

fn simm16(inst: &Inst, v: u16, out: &mut String) {
    let e = inst.entry;
    match e.simm {
        Simm::Hex => fmt_hex(out, v as u64),
        Simm::Dec | Simm::DecOpt => push_dec(out, v as u32),
        Simm::U16 => {
            if v <= 64 {
                push_dec(out, v as u32);
            } else {
                fmt_hex(out, v as u64);
            }
        }
        Simm::Special | Simm::NoSimm => special_simm(e.name, v, out, g11(inst), inst.isa.tables(), inst.gen.is_gcn()),
    }
}

fn special_simm(name: &str, v: u16, out: &mut String, g11: bool, tables: &TableSet, gcn: bool) {
    let v = v as u32;
    match name {
        // gfx11: expcnt [2:0], lgkmcnt [9:4], vmcnt [15:10].
        "s_waitcnt" if g11 => waitcnt(out, v >> 10 & 0x3f, v & 7, v >> 4 & 0x3f),
        "s_delay_alu" => delay_alu(v, out),
        "s_getreg_b32" | "s_setreg_b32" | "s_setreg_imm32_b32" => {
            let id = v & 0x3f;
            let offset = v >> 6 & 0x1f;
            let size = (v >> 11) + 1;
            out.push_str("hwreg(");
            match tables.hwreg_names[id as usize] {
                "" => {
                    let _ = write!(out, "{id}");
                }
                n => out.push_str(n),
            }
            if !(offset == 0 && size == 32) {
                let _ = write!(out, ", {offset}, {size}");
            }
            out.push(')');
        }
        // gfx6-gfx8: vmcnt [3:0], gfx9 adds [15:14]; expcnt [6:4]; lgkmcnt [11:8].
        "s_waitcnt" if matches!(tables.mcpu, "gfx803" | "gfx810" | "gfx700" | "gfx600") => waitcnt_max(out, v & 0xf, v >> 4 & 7, v >> 8 & 0xf, 15, 15),
        "s_waitcnt" if gcn => waitcnt_max(out, (v & 0xf) | (v >> 14 & 3) << 4, v >> 4 & 7, v >> 8 & 0xf, 63, 15),
        "s_set_gpr_idx_mode" => gpr_idx_mode(v, out),
        // gfx10: vmcnt [3:0] and [15:14], expcnt [6:4], lgkmcnt [13:8].
        "s_waitcnt" => waitcnt(out, (v & 0xf) | (v >> 14 & 3) << 4, v >> 4 & 7, v >> 8 & 0x3f),
        "s_sendmsg" | "s_sendmsghalt" if g11 => sendmsg_gfx11(v, out, tables),
        "s_sendmsg" | "s_sendmsghalt" => sendmsg(v, out, tables),
        // gfx10.1 has no hold_cnt field (bit 7 is then outside every field).
        "s_waitcnt_depctr" | "s_wait_alu" => depctr(v, out, !matches!(tables.mcpu, "gfx1010" | "gfx1011" | "gfx1012")),
        "s_version" => version(v, out, tables),
        _ => {
            let _ = write!(out, "{v}");
        }
    }
}

/// `sendmsg(MSG, OP, STREAM)`: symbolic when the message, operation and stream are valid (bits
/// above 9 are then ignored, as LLVM does), numeric `sendmsg(id, op, stream)` when the value is
/// exactly those fields, else the plain number.
fn sendmsg(v: u32, out: &mut String, tables: &TableSet) {
    let id = v & 0xf;
    let op = v >> 4 & 7;
    let stream = v >> 8 & 3;
    let name = tables.sendmsg_names[id as usize];
    let gs = matches!(id, 2 | 3);
    let valid = !name.is_empty()
        && match id {
            2 | 3 => op < 4 && !(id == 2 && op == 0) && !(op == 0 && stream != 0),
            15 => (1..=4).contains(&op) && stream == 0,
            _ => op == 0 && stream == 0,
        };
    if valid {
        let _ = write!(out, "sendmsg({name}");
        if gs {
            let ops = ["GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"];
            let _ = write!(out, ", {}", ops[op as usize]);
            if op != 0 {
                let _ = write!(out, ", {stream}");
            }
        } else if id == 15 {
            let ops = ["", "SYSMSG_OP_ECC_ERR_INTERRUPT", "SYSMSG_OP_REG_RD", "SYSMSG_OP_HOST_TRAP_ACK", "SYSMSG_OP_TTRACE_PC"];
            let _ = write!(out, ", {}", ops[op as usize]);
        }
        out.push(')');
    } else if v == id | op << 4 | stream << 8 {
        let _ = write!(out, "sendmsg({id}, {op}, {stream})");
    } else {
        let _ = write!(out, "{v}");
    }
}

/// gfx11 VOPD: `X-op vdst, src0[, vsrc1] :: Y-op vdst, src0[, vsrc1]`, with the literal where
/// fmaak/fmamk take it (cndmask's VCC is implicit and not printed).
fn vopd(inst: &Inst, out: &mut String) -> Result<(), BadOperand> {
    for (k, y) in [false, true].into_iter().enumerate() {
        let (name, vdst, src0, vsrc1) = inst.vopd_half(y);
        if name.is_empty() {
            return Err(BadOperand);
        }
        if k == 1 {
            out.push_str(" :: ");
        }
        out.push_str(name);
        out.push(' ');
        reg_range(out, "v", vdst as u32, 1);
        out.push_str(", ");
        if !source(out, src0, 1, ImmTy::B32, inst.literal) {
            return Err(BadOperand);
        }
        let lit = |out: &mut String| {
            out.push_str(", ");
            fmt_hex(out, inst.literal.unwrap_or(0) as u64);
        };
        match name {
            "v_dual_mov_b32" => {}
            "v_dual_fmamk_f32" => {
                lit(out);
                out.push_str(", ");
                reg_range(out, "v", vsrc1 as u32, 1);
            }
            _ => {
                out.push_str(", ");
                reg_range(out, "v", vsrc1 as u32, 1);
                if name == "v_dual_fmaak_f32" {
                    lit(out);
                }
            }
        }
    }
    Ok(())
}

/// `s_waitcnt` counters, each printed unless at its maximum (all of them when all are).
fn waitcnt(out: &mut String, vm: u32, exp: u32, lgkm: u32) {
    waitcnt_max(out, vm, exp, lgkm, 63, 63)
}

/// `s_waitcnt` counters that are not at their maximum (all of them when all are).
fn waitcnt_max(out: &mut String, vm: u32, exp: u32, lgkm: u32, vm_max: u32, lgkm_max: u32) {
    let all = vm == vm_max && exp == 7 && lgkm == lgkm_max;
    let mut sep = "";
    if vm != vm_max || all {
        let _ = write!(out, "vmcnt({vm})");
        sep = " ";
    }
    if exp != 7 || all {
        let _ = write!(out, "{sep}expcnt({exp})");
        sep = " ";
    }
    if lgkm != lgkm_max || all {
        let _ = write!(out, "{sep}lgkmcnt({lgkm})");
    }
}

/// gfx11 `s_delay_alu`: instid0 [3:0], instskip [6:4], instid1 [10:7], joined with ` | `.
fn delay_alu(v: u32, out: &mut String) {
    const ID: [&str; 12] = [
        "NO_DEP", "VALU_DEP_1", "VALU_DEP_2", "VALU_DEP_3", "VALU_DEP_4", "TRANS32_DEP_1", "TRANS32_DEP_2",
        "TRANS32_DEP_3", "FMA_ACCUM_CYCLE_1", "SALU_CYCLE_1", "SALU_CYCLE_2", "SALU_CYCLE_3",
    ];
    const SKIP: [&str; 6] = ["SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4"];
    let (id0, skip, id1) = (v & 0xf, v >> 4 & 7, v >> 7 & 0xf);
    let mut parts = Vec::new();
    let name = |t: &[&str], x: u32, what: &str| t.get(x as usize).map_or(format!("/* invalid {what} value */"), |s| s.to_string());
    if id0 != 0 {
        parts.push(format!("instid0({})", name(&ID, id0, "instid")));
    }
    if skip != 0 {
        parts.push(format!("instskip({})", name(&SKIP, skip, "instskip")));
    }
    if id1 != 0 {
        parts.push(format!("instid1({})", name(&ID, id1, "instid")));
    }
    if parts.is_empty() {
        out.push('0');
    } else {
        out.push_str(&parts.join(" | "));
    }
}

/// The gfx11 name of an 8-bit message id (empty where it has none): ids 0..15 from the sweep, the
/// returning messages at 128..134.
fn message_name_gfx11(id: u32, tables: &TableSet) -> &'static str {
    const RTN: [&str; 7] = [
        "MSG_RTN_GET_DOORBELL",
        "MSG_RTN_GET_DDID",
        "MSG_RTN_GET_TMA",
        "MSG_RTN_GET_REALTIME",
        "MSG_RTN_SAVE_WAVE",
        "MSG_RTN_GET_TBA",
        "MSG_RTN_GET_TBA_TO_PC",
    ];
    match id {
        0..=15 => tables.sendmsg_names[id as usize],
        128..=134 => RTN[(id - 128) as usize],
        _ => "",
    }
}

/// gfx11 `s_sendmsg_rtn`: the 8-bit message id, by name where it has one.
fn sendmsg_rtn(id: u32, out: &mut String, tables: &TableSet) {
    match message_name_gfx11(id, tables) {
        "" => {
            let _ = write!(out, "sendmsg({id}, 0, 0)");
        }
        name => {
            let _ = write!(out, "sendmsg({name})");
        }
    }
}

/// gfx11 `s_sendmsg`: the id is the low 8 bits. A named id prints by name (the other bits are not
/// looked at), an unnamed one as `sendmsg(id, 0, 0)` when no other bit is set, else the number.
fn sendmsg_gfx11(v: u32, out: &mut String, tables: &TableSet) {
    let id = v & 0xff;
    match message_name_gfx11(id, tables) {
        "" if v >> 8 == 0 => {
            let _ = write!(out, "sendmsg({id}, 0, 0)");
        }
        "" => {
            let _ = write!(out, "{v}");
        }
        name => {
            let _ = write!(out, "sendmsg({name})");
        }
    }
}

/// `s_set_gpr_idx_mode`: the four index-mode bits by name, a value with other bits in hex.
fn gpr_idx_mode(v: u32, out: &mut String) {
    if v >> 4 != 0 {
        fmt_hex(out, v as u64);
        return;
    }
    let names: Vec<&str> = ["SRC0", "SRC1", "SRC2", "DST"].iter().enumerate().filter(|(k, _)| v >> k & 1 != 0).map(|(_, n)| *n).collect();
    let _ = write!(out, "gpr_idx({})", names.join(","));
}

/// `s_waitcnt_depctr` fields, printed when not at their default (all ones), or all of them when all
/// are; a value with bits outside the fields prints in hex.
fn depctr(v: u32, out: &mut String, hold_cnt: bool) {
    const FIELDS: [(&str, u32, u32); 7] = [
        ("depctr_hold_cnt", 7, 1),
        ("depctr_sa_sdst", 0, 1),
        ("depctr_va_vdst", 12, 4),
        ("depctr_va_sdst", 9, 3),
        ("depctr_va_ssrc", 8, 1),
        ("depctr_va_vcc", 1, 1),
        ("depctr_vm_vsrc", 2, 3),
    ];
    let fields = if hold_cnt { &FIELDS[..] } else { &FIELDS[1..] };
    if v & 0x60 != 0 || (!hold_cnt && v & 0x80 != 0) {
        fmt_hex(out, v as u64);
        return;
    }
    let all_default = fields.iter().all(|&(_, lo, w)| v >> lo & ((1 << w) - 1) == (1 << w) - 1);
    let mut sep = "";
    for &(name, lo, w) in fields {
        let f = v >> lo & ((1 << w) - 1);
        if f != (1 << w) - 1 || all_default {
            let _ = write!(out, "{sep}{name}({f})");
            sep = " ";
        }
    }
}

/// `s_version`: with bits 8..12 clear, the code (bits 0..7) by name or in decimal and the
/// W64/W32/MDP flag bits by name; otherwise the whole value in hex (llvm-mc-19, every target).
fn version(v: u32, out: &mut String, tables: &TableSet) {
    let code = v & 0xff;
    if v & 0x1f00 != 0 {
        fmt_hex(out, v as u64);
        return;
    }
    let number = code.to_string();
    let name = match tables.version_names.get(code as usize) {
        Some(n) if !n.is_empty() => *n,
        _ => &number,
    };
    let flags = [(13, "UC_VERSION_W64_BIT"), (14, "UC_VERSION_W32_BIT"), (15, "UC_VERSION_MDP_BIT")];
    let set: Vec<&str> = flags.iter().filter(|(b, _)| v >> b & 1 != 0).map(|(_, n)| *n).collect();
    // LLVM prints the expression left-associated: ((A|B)|C)|D.
    for _ in 1..set.len() {
        out.push('(');
    }
    out.push_str(name);
    for (i, f) in set.iter().enumerate() {
        out.push('|');
        out.push_str(f);
        if i + 1 < set.len() {
            out.push(')');
        }
    }
}
/// Whether [`scalar_reg`] can name a register for this value and width (no output).
pub(crate) fn scalar_reg_ok(v: u16, width: u32) -> bool {
    if width > 16 {
        return scalar_reg_ok(v, 1); // printed as one register (see scalar_reg)
    }
    let align = |v: u32| match width {
        1 => v,
        2 => v & !1,
        _ => v & !3,
    };
    match v {
        0..=105 => align(v as u32) + width <= 106,
        108..=123 => align(v as u32 - 108) + width <= 16,
        // Wider than 64 bits LLVM still names vcc/exec (and flags the class mismatch).
        src::VCC_LO | src::EXEC_LO => true,
        src::VCC_HI | src::M0 | src::EXEC_HI => width == 1,
        src::NULL => true,
        // gfx8/gfx9's flat_scratch, xnack_mask, tba, tma: one dword, or (wider) from its low half.
        600..=607 => width == 1 || v % 2 == 0,
        _ => false,
    }
}

/// Whether [`source`] can print this value at this width.
pub(crate) fn source_ok(v: u16, width: u32) -> bool {
    match v {
        256..=511 => (v - 256) as u32 + width <= 256,
        128..=208 | 240..=248 | 255 => true,
        235..=239 | 251..=254 => true,
        _ => scalar_reg_ok(v, width),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aim::{aimed_for, Fill};
    use crate::Decoder;
    use rdna_isa::Target;

    /// The digit-by-digit decimal against the standard formatter, across every branch.
    #[test]
    fn push_dec_matches_the_formatter() {
        for v in (0..=12_000).chain([99_999, 100_000, 4_294_967_295, 1 << 31]) {
            let mut s = String::from("x");
            push_dec(&mut s, v);
            assert_eq!(s, format!("x{v}"));
        }
        let mut s = String::new();
        reg_range(&mut s, "v", 7, 1);
        reg_range(&mut s, "ttmp", 4, 4);
        assert_eq!(s, "v7ttmp[4:7]");
    }

    /// Every operand [`plain_operand`] takes prints exactly as the general cases print it (text
    /// and validity), on random encodings aimed at every opcode of its formats, wave32 and
    /// wave64, on each generation it serves; on gfx9 it takes none.
    #[test]
    fn plain_operands_print_as_the_general_cases() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut compared = 0;
        for name in ["gfx900", "gfx1030", "gfx1030:wave64", "gfx1100", "gfx1100:wave64", "gfx1200"] {
            let (mcpu, wave64) = name.split_once(':').map_or((name, false), |(m, _)| (m, true));
            let mut target = Target::from_name(mcpu).unwrap();
            target.wave64 |= wave64;
            let dec = Decoder::new(target);
            for format in [Format::Sop1, Format::Sop2, Format::Sopc, Format::Sopk, Format::Vop1, Format::Vop2, Format::Vopc, Format::Vop3] {
                for op in 0..target.table(format).index.len() as u32 {
                    for _ in 0..48 {
                        let fill = Fill { words: std::array::from_fn(|_| next() as u32), choices: next() as u32 };
                        let words = aimed_for(target.isa, format, op, fill);
                        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                        let Ok((inst, _)) = dec.decode(&bytes) else { continue };
                        for (i, op) in inst.entry.operands.iter().enumerate() {
                            let mut plain = String::new();
                            let Some(ok) = plain_operand(&inst, op, &mut plain) else { continue };
                            assert!(!mcpu.starts_with("gfx9"), "{name}: the plain forms are for gfx10 on");
                            let mut general = String::new();
                            let general_ok = general_operand(&inst, i, op, &mut general).is_ok();
                            assert_eq!((ok, &plain), (general_ok, &general), "{name} {} {words:08x?} operand {i}", inst.entry.name);
                            compared += 1;
                        }
                    }
                }
            }
        }
        assert!(compared > 100_000, "only {compared} operands compared");
    }
}
