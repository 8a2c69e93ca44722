//! The project's own wording: categories, one-line descriptions and behaviour, composed from an
//! instruction's name (its operation word and type suffixes) and the emulator's classification.

use rdna_emu::sem::{Atomic, BranchIf, DsKind, Kind, Logic, MemKind, Num};
use rdna_isa::{Class, Field, Format, ImmTy};

use crate::Behaviour;

pub fn field_name(f: Field) -> &'static str {
    f.name()
}

/// What a category an instruction is listed under.
pub fn category(format: Format, name: &str) -> &'static str {
    use Format as F;
    if name.starts_with("v_mfma") || name.starts_with("v_smfmac") {
        return "Matrix multiply (MFMA)";
    }
    if name.starts_with("v_wmma") || name.starts_with("v_swmmac") {
        return "Matrix multiply (WMMA)";
    }
    match format {
        F::Sop1 | F::Sop2 | F::Sopk => "Scalar ALU",
        F::Sopc => "Scalar compare",
        F::Sopp => "Scalar program control",
        F::Smem => "Scalar memory",
        F::Vopc | F::VopcSdwa | F::VopcDpp16 | F::VopcDpp8 => "Vector compare",
        F::Vop3p | F::Vop3pDpp16 | F::Vop3pDpp8 => "Vector ALU (packed and mixed precision)",
        F::Ds if name.starts_with("ds_gws") || name == "ds_ordered_count" => "Global data share",
        F::Ds => "LDS / Data Share",
        F::Flat => "Flat memory",
        F::Global => "Global memory",
        F::Scratch => "Scratch (private) memory",
        F::Mubuf | F::Mtbuf => "Buffer memory",
        F::Mimg => "Image memory",
        F::Exp => "Export",
        F::Vintrp | F::Vinterp | F::Ldsdir => "Parameter interpolation",
        F::Vopd => "Dual-issue vector ALU",
        _ if name.starts_with("v_cmp") => "Vector compare",
        _ => "Vector ALU",
    }
}

/// Type suffixes of a name (`f32`, `u64`, `b16`, `i32`, `bf16`, ...), in order.
fn types(name: &str) -> Vec<&str> {
    name.split('_')
        .skip(1)
        .filter(|p| {
            let p = p.strip_prefix("bf").or_else(|| p.strip_prefix('f')).or_else(|| p.strip_prefix('u')).or_else(|| p.strip_prefix('i')).or_else(|| p.strip_prefix('b'));
            p.is_some_and(|d| !d.is_empty() && d.len() <= 2 && d.bytes().all(|c| c.is_ascii_digit()))
        })
        .collect()
}

/// A type suffix in words (`f32` → "32-bit float").
fn type_words(t: &str) -> String {
    let (kind, bits) = if let Some(b) = t.strip_prefix("bf") {
        ("bfloat", b)
    } else {
        let (k, b) = t.split_at(1);
        (
            match k {
                "f" => "float",
                "u" => "unsigned integer",
                "i" => "signed integer",
                _ => "bits",
            },
            b,
        )
    };
    if kind == "bits" {
        format!("{bits} bits")
    } else {
        format!("{bits}-bit {kind}")
    }
}

/// The operation word of a name: `v_add_co_ci_u32` → `add`, `s_cmpk_eq_i32` → `cmpk`.
fn op_word(name: &str) -> &str {
    let mut parts = name.split('_');
    parts.next();
    let w = parts.next().unwrap_or("");
    if w == "pk" || w == "dual" {
        return parts.next().unwrap_or(w);
    }
    w
}

/// What an operation word does, as a verb phrase.
fn verb(word: &str) -> Option<&'static str> {
    Some(match word {
        "add" | "add3" | "addk" | "addc" => "Add",
        "sub" | "subb" => "Subtract",
        "subrev" => "Subtract, operands reversed,",
        "mul" | "mulk" => "Multiply",
        "mad" | "fma" | "mac" | "fmac" | "fmamk" | "fmaak" | "madmk" | "madak" => "Multiply and add",
        "min" | "min3" => "Take the minimum",
        "max" | "max3" => "Take the maximum",
        "med3" => "Take the median of three",
        "minmax" | "maxmin" => "Clamp with a minimum and maximum",
        "and" | "and3" => "Bitwise AND",
        "or" | "or3" => "Bitwise OR",
        "xor" | "xor3" => "Bitwise XOR",
        "xnor" => "Bitwise XNOR",
        "nand" => "Bitwise NAND",
        "nor" => "Bitwise NOR",
        "andn2" | "andn1" => "Bitwise AND with a complemented operand",
        "orn2" | "orn1" => "Bitwise OR with a complemented operand",
        "not" => "Complement the bits",
        "lshl" | "lshlrev" => "Shift left",
        "lshr" | "lshrrev" => "Shift right (logical)",
        "ashr" | "ashrrev" => "Shift right (arithmetic)",
        "mov" | "movk" => "Copy",
        "cmov" | "cmovk" => "Copy if SCC is set",
        "cndmask" | "cselect" => "Select between two values",
        "cvt" => "Convert",
        "rcp" => "Approximate the reciprocal",
        "rsq" => "Approximate the reciprocal square root",
        "sqrt" => "Square root",
        "exp" => "Base-2 exponential",
        "log" => "Base-2 logarithm",
        "sin" => "Sine of a fraction of a turn",
        "cos" => "Cosine of a fraction of a turn",
        "floor" => "Round down",
        "ceil" => "Round up",
        "trunc" => "Round toward zero",
        "rndne" => "Round to nearest even",
        "fract" => "Fractional part",
        "ldexp" => "Scale by a power of two",
        "frexp" => "Split into mantissa and exponent",
        "bfe" => "Extract a bit field",
        "bfi" => "Insert bits under a mask",
        "bfm" => "Make a bit-field mask",
        "bfrev" | "brev" => "Reverse the bits",
        "bcnt0" | "bcnt1" | "bcnt" => "Count bits",
        "ff0" | "ff1" | "ffbl" | "ffbh" | "flbit" => "Find the first set bit",
        "cmp" | "cmpk" | "cmpx" => "Compare",
        "bitcmp0" | "bitcmp1" => "Test a bit",
        "bitset0" | "bitset1" => "Set or clear a bit",
        "dot2" | "dot4" | "dot8" | "dot2c" | "dot4c" | "dot8c" => "Dot product",
        "mfma" => "Matrix fused multiply-add",
        "smfmac" => "Sparse matrix fused multiply-add",
        "wmma" | "swmmac" => "Wave matrix multiply-accumulate",
        "perm" => "Permute bytes",
        "permlane16" | "permlanex16" | "permlane64" => "Exchange values between lanes",
        "readlane" | "readfirstlane" => "Read one lane into a scalar register",
        "writelane" => "Write a scalar value into one lane",
        "mbcnt" => "Count the set mask bits below this lane",
        "alignbit" | "alignbyte" => "Extract 32 bits from a 64-bit concatenation",
        "sad" | "msad" | "qsad" | "mqsad" => "Sum of absolute differences",
        "lerp" => "Average bytes",
        "div" => "Division helper",
        "trig" => "Trigonometric range reduction helper",
        "cube" | "cubeid" | "cubesc" | "cubetc" | "cubema" => "Cube-map coordinate helper",
        "pack" => "Pack two halves",
        "swap" | "swaprel" => "Swap two registers",
        "movrels" | "movreld" | "movrelsd" => "Copy with a register index",
        "load" => "Load",
        "store" => "Store",
        "atomic" => "Atomic read-modify-write",
        "read" | "read2" | "read2st64" => "Read LDS",
        "write" | "write2" | "write2st64" => "Write LDS",
        "sample" => "Sample a texture",
        "gather4" => "Gather four texels",
        "branch" => "Branch",
        "cbranch" => "Branch conditionally",
        "endpgm" => "End the program",
        "barrier" => "Wait for every wave of the workgroup",
        "waitcnt" => "Wait for outstanding memory operations",
        "nop" => "Do nothing for a number of cycles",
        "sendmsg" | "sendmsghalt" => "Send a message to the host or the hardware",
        "getreg" => "Read a hardware register",
        "setreg" => "Write a hardware register",
        "getpc" => "Read the program counter",
        "setpc" => "Jump to an address",
        "swappc" | "call" => "Call a function",
        "interp" => "Interpolate a parameter",
        _ => return None,
    })
}

/// One line about what the instruction does.
pub fn description(name: &str, format: Format, kind: &Kind) -> String {
    let ty = types(name);
    let types_text = if ty.is_empty() {
        String::new()
    } else {
        let mut t: Vec<String> = ty.iter().map(|t| type_words(t)).collect();
        t.dedup();
        format!(" ({})", t.join(", "))
    };
    let scope = match format {
        Format::Sop1 | Format::Sop2 | Format::Sopk | Format::Sopc | Format::Sopp | Format::Smem => "once per wave",
        Format::Ds => "per lane, in LDS",
        Format::Flat | Format::Global | Format::Scratch | Format::Mubuf | Format::Mtbuf => "per lane, in memory",
        Format::Mimg => "per lane, through an image resource",
        Format::Exp => "to the graphics pipeline",
        _ => "in each active lane",
    };
    let phrase = match kind {
        Kind::Mem(m) => mem_phrase(m, format),
        Kind::Ds(d) => ds_phrase(d),
        Kind::Smem(s) => format!("Load {} dword{} from {}", s.dwords, if s.dwords == 1 { "" } else { "s" }, if s.buffer { "a buffer" } else { "memory" }),
        Kind::Vcmp { x, .. } | Kind::VcmpClass { x, .. } if *x => "Compare and write the result to EXEC".to_string(),
        Kind::VcmpClass { .. } => "Test the floating-point class".to_string(),
        Kind::SaveExec { .. } => "Save EXEC, then combine it with a scalar operand".to_string(),
        Kind::Branch(BranchIf::Always) => "Branch".to_string(),
        Kind::Branch(c) => format!("Branch if {}", branch_cond(*c)),
        _ => match verb(op_word(name)) {
            Some(v) => v.to_string(),
            None => format!("The '{}' operation", op_word(name)),
        },
    };
    format!("{phrase}{types_text}, {scope}.")
}

fn bytes_words(bytes: u8) -> String {
    match bytes {
        1 => "a byte".into(),
        2 => "2 bytes".into(),
        4 => "a dword".into(),
        n => format!("{} dwords", n / 4),
    }
}

fn mem_phrase(m: &MemKind, format: Format) -> String {
    let place = match format {
        Format::Mubuf | Format::Mtbuf => "buffer memory",
        Format::Scratch => "scratch memory",
        Format::Global => "global memory",
        _ => "a flat address",
    };
    match m {
        MemKind::Load { bytes, sext, .. } => format!("Load {}{} from {place}", bytes_words(*bytes), if *sext { ", sign-extended," } else { "" }),
        MemKind::Store { bytes, .. } => format!("Store {} to {place}", bytes_words(*bytes)),
        MemKind::Atomic { op, x2 } => format!("Atomically {} on {} of {place}", atomic_words(*op), if *x2 { "a 64-bit value" } else { "a 32-bit value" }),
        MemKind::Addtid { store } => format!("{} a dword at an address made from the lane index, {place}", if *store { "Store" } else { "Load" }),
        MemKind::Format { store, comps, .. } => {
            format!("{} {comps} component{} converted through a data format, {place}", if *store { "Store" } else { "Load" }, if *comps == 1 { "" } else { "s" })
        }
    }
}

fn ds_phrase(d: &DsKind) -> String {
    match d {
        DsKind::Read { bytes, .. } => format!("Read {}", bytes_words(*bytes)),
        DsKind::Write { bytes, .. } => format!("Write {}", bytes_words(*bytes)),
        DsKind::Read2 { bytes, .. } => format!("Read {} at two offsets", bytes_words(*bytes)),
        DsKind::Write2 { bytes, .. } => format!("Write {} at two offsets", bytes_words(*bytes)),
        DsKind::Atomic { op, rtn, .. } | DsKind::CmpStore { op, rtn, .. } => {
            format!("Atomically {}{}", atomic_words(*op), if *rtn { ", returning the old value" } else { "" })
        }
        DsKind::Xchg2 { .. } => "Exchange values at two offsets".into(),
        DsKind::Swizzle => "Exchange values between lanes by a swizzle pattern".into(),
        DsKind::Permute => "Send each lane's value to the lane its address names".into(),
        DsKind::Bpermute => "Fetch each lane's value from the lane its address names".into(),
        DsKind::Append => "Add the active lane count to a counter".into(),
        DsKind::Consume => "Subtract the active lane count from a counter".into(),
        DsKind::ReadAddtid => "Read a dword at an address made from the lane index".into(),
        DsKind::WriteAddtid => "Write a dword at an address made from the lane index".into(),
        DsKind::Nop => "Do nothing".into(),
    }
}

fn atomic_words(op: Atomic) -> &'static str {
    match op {
        Atomic::Swap => "swap",
        Atomic::CmpSwap => "compare and swap",
        Atomic::Add => "add",
        Atomic::Sub => "subtract",
        Atomic::Rsub => "subtract in reverse",
        Atomic::SMin => "take the signed minimum",
        Atomic::UMin => "take the unsigned minimum",
        Atomic::SMax => "take the signed maximum",
        Atomic::UMax => "take the unsigned maximum",
        Atomic::And => "AND",
        Atomic::Or => "OR",
        Atomic::Xor => "XOR",
        Atomic::Inc => "increment with wrap",
        Atomic::Dec => "decrement with wrap",
        Atomic::FMin => "take the float minimum",
        Atomic::FMax => "take the float maximum",
        Atomic::FAdd => "add floats",
        Atomic::FCmpSwap => "compare floats and swap",
        Atomic::Mskor => "merge bits under a mask",
        Atomic::CondXchg32 => "exchange two dwords where their top bits are set",
        Atomic::CSub => "subtract with clamping at zero",
        Atomic::Wrap => "subtract with wrap",
    }
}

fn atomic_formula(op: Atomic, old: &str, data: &str, cmp: &str) -> String {
    match op {
        Atomic::Swap => data.to_string(),
        Atomic::CmpSwap | Atomic::FCmpSwap => format!("({old} == {cmp}) ? {data} : {old}"),
        Atomic::Add | Atomic::FAdd => format!("{old} + {data}"),
        Atomic::Sub => format!("{old} - {data}"),
        Atomic::Rsub => format!("{data} - {old}"),
        Atomic::SMin | Atomic::UMin | Atomic::FMin => format!("min({old}, {data})"),
        Atomic::SMax | Atomic::UMax | Atomic::FMax => format!("max({old}, {data})"),
        Atomic::And => format!("{old} & {data}"),
        Atomic::Or => format!("{old} | {data}"),
        Atomic::Xor => format!("{old} ^ {data}"),
        Atomic::Inc => format!("({old} >= {data}) ? 0 : {old} + 1"),
        Atomic::Dec => format!("({old} == 0 || {old} > {data}) ? {data} : {old} - 1"),
        Atomic::Mskor => format!("({old} & ~{cmp}) | {data}"),
        Atomic::CondXchg32 => format!("per dword k: {data}[k].bit31 ? {data}[k] & 0x7fffffff : {old}[k]"),
        Atomic::CSub => format!("({old} > {data}) ? {old} - {data} : 0"),
        Atomic::Wrap => format!("({old} >= {data}) ? {old} - {data} : {old}"),
    }
}

fn branch_cond(c: BranchIf) -> &'static str {
    match c {
        BranchIf::Always => "always",
        BranchIf::Scc0 => "SCC == 0",
        BranchIf::Scc1 => "SCC == 1",
        BranchIf::Vccz => "VCC == 0",
        BranchIf::Vccnz => "VCC != 0",
        BranchIf::Execz => "EXEC == 0",
        BranchIf::Execnz => "EXEC != 0",
    }
}

fn logic_op(l: Logic, a: &str, b: &str) -> String {
    match l {
        Logic::And => format!("{a} & {b}"),
        Logic::Or => format!("{a} | {b}"),
        Logic::Xor => format!("{a} ^ {b}"),
        Logic::Andn2 => format!("{a} & ~{b}"),
        Logic::Orn2 => format!("{a} | ~{b}"),
        Logic::Nand => format!("~({a} & {b})"),
        Logic::Nor => format!("~({a} | {b})"),
        Logic::Xnor => format!("~({a} ^ {b})"),
        Logic::Andn1 => format!("~{a} & {b}"),
        Logic::Orn1 => format!("~{a} | {b}"),
    }
}

fn num_name(n: Num) -> &'static str {
    match n {
        Num::F16 => "f16",
        Num::F32 => "f32",
        Num::F64 => "f64",
        Num::I16 => "i16",
        Num::I32 => "i32",
        Num::I64 => "i64",
        Num::U16 => "u16",
        Num::U32 => "u32",
        Num::U64 => "u64",
    }
}

/// A compare condition as an expression of `a` and `b`.
fn condition(c: rdna_emu::sem::Cond, a: &str, b: &str) -> String {
    let rel = match (c.lt, c.eq, c.gt) {
        (false, false, false) => None,
        (true, false, false) => Some(format!("{a} < {b}")),
        (false, true, false) => Some(format!("{a} == {b}")),
        (false, false, true) => Some(format!("{a} > {b}")),
        (true, true, false) => Some(format!("{a} <= {b}")),
        (false, true, true) => Some(format!("{a} >= {b}")),
        (true, false, true) => Some(format!("{a} != {b}")),
        (true, true, true) => Some(format!("!isnan({a}) && !isnan({b})")),
    };
    match (rel, c.unord) {
        (None, false) => "0".into(),
        (None, true) => format!("isnan({a}) || isnan({b})"),
        (Some(r), false) => r,
        (Some(_), true) if c.lt && c.eq && c.gt => "1".into(),
        (Some(r), true) => format!("{r} || isnan({a}) || isnan({b})"),
    }
}

/// The value an ALU operation computes, from its operation word, with typed operands.
fn alu_formula(name: &str, scalar: bool) -> Option<String> {
    let ty = types(name);
    let t = |i: usize| ty.get(i).or(ty.last()).map(|t| format!(".{t}")).unwrap_or_default();
    let (d, s0, s1, s2) = (format!("D{}", t(0)), format!("S0{}", t(ty.len().saturating_sub(1))), format!("S1{}", t(ty.len().saturating_sub(1))), format!("S2{}", t(ty.len().saturating_sub(1))));
    let w = op_word(name);
    let has = |p: &str| name.split('_').any(|x| x == p);
    let carry = if scalar { "SCC" } else { "VCC[lane]" };
    Some(match w {
        "add" if has("ci") || has("addc") => format!("{d} = {s0} + {s1} + {carry}; {carry} = carry out"),
        "addc" => format!("{d} = {s0} + {s1} + SCC; SCC = carry out"),
        "add" if has("co") || (scalar && name.ends_with("_u32")) => format!("{d} = {s0} + {s1}; {carry} = carry out"),
        "add" => format!("{d} = {s0} + {s1}"),
        "add3" => format!("{d} = {s0} + {s1} + {s2}"),
        "sub" if has("ci") => format!("{d} = {s0} - {s1} - {carry}; {carry} = borrow out"),
        "subb" => format!("{d} = {s0} - {s1} - SCC; SCC = borrow out"),
        "sub" if has("co") || (scalar && name.ends_with("_u32")) => format!("{d} = {s0} - {s1}; {carry} = borrow out"),
        "sub" => format!("{d} = {s0} - {s1}"),
        "subrev" if has("ci") => format!("{d} = {s1} - {s0} - {carry}; {carry} = borrow out"),
        "subrev" => format!("{d} = {s1} - {s0}"),
        "mul" if has("hi") => format!("{d} = ({s0} * {s1}) >> width (high half)"),
        "mul" => format!("{d} = {s0} * {s1}"),
        "mad" | "fma" => format!("{d} = {s0} * {s1} + {s2}"),
        "mac" | "fmac" => format!("{d} = {s0} * {s1} + {d}"),
        "fmamk" | "madmk" => format!("{d} = {s0} * K + {s1}"),
        "fmaak" | "madak" => format!("{d} = {s0} * {s1} + K"),
        "min" => format!("{d} = min({s0}, {s1})"),
        "max" => format!("{d} = max({s0}, {s1})"),
        "min3" => format!("{d} = min({s0}, {s1}, {s2})"),
        "max3" => format!("{d} = max({s0}, {s1}, {s2})"),
        "med3" => format!("{d} = median({s0}, {s1}, {s2})"),
        "maxmin" => format!("{d} = min(max({s0}, {s1}), {s2})"),
        "minmax" => format!("{d} = max(min({s0}, {s1}), {s2})"),
        "and" => format!("{d} = {s0} & {s1}"),
        "or" => format!("{d} = {s0} | {s1}"),
        "xor" => format!("{d} = {s0} ^ {s1}"),
        "xnor" => format!("{d} = ~({s0} ^ {s1})"),
        "or3" => format!("{d} = {s0} | {s1} | {s2}"),
        "xor3" => format!("{d} = {s0} ^ {s1} ^ {s2}"),
        "not" => format!("{d} = ~{s0}"),
        "lshlrev" => format!("{d} = {s1} << {s0}"),
        "lshrrev" => format!("{d} = {s1} >> {s0} (logical)"),
        "ashrrev" => format!("{d} = {s1} >> {s0} (arithmetic)"),
        "lshl" => format!("{d} = {s0} << {s1}"),
        "lshr" => format!("{d} = {s0} >> {s1} (logical)"),
        "ashr" => format!("{d} = {s0} >> {s1} (arithmetic)"),
        "mov" | "movk" => format!("{d} = {s0}"),
        "cmov" | "cmovk" => format!("if SCC: {d} = {s0}"),
        "cndmask" => format!("{d} = VCC[lane] ? {s1} : {s0}"),
        "cselect" => format!("{d} = SCC ? {s0} : {s1}"),
        "cvt" if ty.len() >= 2 => format!("D.{} = convert(S0.{})", ty[0], ty[1]),
        "rcp" => format!("{d} = 1 / {s0}"),
        "rsq" => format!("{d} = 1 / sqrt({s0})"),
        "sqrt" => format!("{d} = sqrt({s0})"),
        "exp" => format!("{d} = 2 ** {s0}"),
        "log" => format!("{d} = log2({s0})"),
        "sin" => format!("{d} = sin({s0} * 2 * pi)"),
        "cos" => format!("{d} = cos({s0} * 2 * pi)"),
        "floor" => format!("{d} = floor({s0})"),
        "ceil" => format!("{d} = ceil({s0})"),
        "trunc" => format!("{d} = trunc({s0})"),
        "rndne" => format!("{d} = round_to_nearest_even({s0})"),
        "fract" => format!("{d} = {s0} - floor({s0})"),
        "ldexp" => format!("{d} = {s0} * 2 ** S1.i32"),
        "bfe" => format!("{d} = ({s0} >> S1[4:0]) & ((1 << S2[4:0]) - 1)"),
        "bfi" => format!("{d} = ({s0} & {s1}) | (~{s0} & {s2})"),
        "bfm" => format!("{d} = ((1 << S0[4:0]) - 1) << S1[4:0]"),
        "brev" | "bfrev" => format!("{d} = reverse_bits({s0})"),
        "bcnt1" | "bcnt" => format!("{d} = popcount({s0})"),
        "bcnt0" => format!("{d} = popcount(~{s0})"),
        "readfirstlane" => "D = S0[first active lane]".into(),
        "readlane" => "D = S0[lane S1]".into(),
        "writelane" => "D[lane S1] = S0".into(),
        _ => return None,
    })
}

/// The behaviour: from the emulator's classification where it runs the instruction.
pub fn behaviour(name: &str, format: Format, kind: &Kind) -> Behaviour {
    let emu = |text: String| Behaviour { text, source: "emulator".into() };
    let scalar = matches!(format, Format::Sop1 | Format::Sop2 | Format::Sopk | Format::Sopc | Format::Sopp);
    match kind {
        Kind::Vcmp { ty, cond, x } => {
            let t = num_name(*ty);
            let c = condition(*cond, &format!("S0.{t}"), &format!("S1.{t}"));
            emu(format!("D[lane] = {c}{}", if *x { "; EXEC[lane] = D[lane]" } else { "" }))
        }
        Kind::VcmpClass { ty, x } => emu(format!(
            "D[lane] = (class of S0.{} is one of the classes set in S1: signaling NaN, quiet NaN, -inf, -normal, -denormal, -0, +0, +denormal, +normal, +inf){}",
            num_name(*ty),
            if *x { "; EXEC[lane] = D[lane]" } else { "" }
        )),
        Kind::SLogic { op, .. } => emu(format!("D = {}; SCC = (D != 0)", logic_op(*op, "S0", "S1"))),
        Kind::SaveExec { op, wrexec } => emu(if *wrexec {
            format!("EXEC = {}; D = EXEC; SCC = (EXEC != 0)", logic_op(*op, "EXEC", "S0"))
        } else {
            format!("D = EXEC; EXEC = {}; SCC = (EXEC != 0)", logic_op(*op, "S0", "EXEC"))
        }),
        Kind::Smem(s) => emu(format!("D[0..{}] = MEM[SBASE + OFFSET], {} dword{}", s.dwords, s.dwords, if s.dwords == 1 { "" } else { "s" })),
        Kind::Branch(BranchIf::Always) => emu("PC = PC + 4 + SIMM16 * 4".into()),
        Kind::Branch(c) => emu(format!("if {}: PC = PC + 4 + SIMM16 * 4", branch_cond(*c))),
        Kind::EndPgm => emu("the wave ends".into()),
        Kind::Barrier => emu("wait until every wave of the workgroup has reached a barrier".into()),
        Kind::Nop => emu("no effect on registers or memory in this model (a wait, hint or cache control)".into()),
        Kind::Mem(m) => emu(match m {
            MemKind::Load { bytes, sext, d16, hi } => format!(
                "VDST{} = MEM[address + OFFSET], {} bytes{}",
                if *d16 { if *hi { "[31:16]" } else { "[15:0]" } } else { "" },
                bytes,
                if *sext { ", sign-extended" } else { "" }
            ),
            MemKind::Store { bytes, hi } => format!("MEM[address + OFFSET] = DATA{}, {} bytes", if *hi { "[31:16]" } else { "" }, bytes),
            MemKind::Atomic { op, .. } => {
                format!("old = MEM[address + OFFSET]; MEM[address + OFFSET] = {}; if returning: VDST = old", atomic_formula(*op, "old", "DATA", "DATA[hi]"))
            }
            MemKind::Addtid { store: false } => "VDST = MEM[SADDR + OFFSET + 4 * lane]".into(),
            MemKind::Addtid { store: true } => "MEM[SADDR + OFFSET + 4 * lane] = DATA".into(),
            MemKind::Format { store: false, comps, .. } => format!("VDATA[0..{comps}] = convert_from_format(MEM[address])"),
            MemKind::Format { store: true, comps, .. } => format!("MEM[address] = convert_to_format(VDATA[0..{comps}])"),
        }),
        Kind::Ds(d) => emu(match d {
            DsKind::Read { bytes, sext, .. } => format!("VDST = LDS[ADDR + OFFSET], {bytes} bytes{}", if *sext { ", sign-extended" } else { "" }),
            DsKind::Write { bytes, .. } => format!("LDS[ADDR + OFFSET] = DATA0, {bytes} bytes"),
            DsKind::Read2 { bytes, st64 } => {
                let s = if *st64 { *bytes as u32 * 64 } else { *bytes as u32 };
                format!("VDST[0] = LDS[ADDR + OFFSET0 * {s}]; VDST[1] = LDS[ADDR + OFFSET1 * {s}], {bytes} bytes each")
            }
            DsKind::Write2 { bytes, st64 } => {
                let s = if *st64 { *bytes as u32 * 64 } else { *bytes as u32 };
                format!("LDS[ADDR + OFFSET0 * {s}] = DATA0; LDS[ADDR + OFFSET1 * {s}] = DATA1, {bytes} bytes each")
            }
            DsKind::Atomic { op, rtn, .. } | DsKind::CmpStore { op, rtn, .. } => format!(
                "old = LDS[ADDR + OFFSET]; LDS[ADDR + OFFSET] = {}{}",
                atomic_formula(*op, "old", "DATA0", "DATA1"),
                if *rtn { "; VDST = old" } else { "" }
            ),
            DsKind::Xchg2 { .. } => "VDST[0] = LDS[a0]; VDST[1] = LDS[a1]; LDS[a0] = DATA0; LDS[a1] = DATA1".into(),
            DsKind::Swizzle => "VDST[lane] = DATA0[swizzle(lane, OFFSET)]".into(),
            DsKind::Permute => "VDST[ADDR[lane] / 4] = DATA0[lane]".into(),
            DsKind::Bpermute => "VDST[lane] = DATA0[ADDR[lane] / 4]".into(),
            DsKind::Append => "VDST = LDS[M0 + OFFSET]; LDS[M0 + OFFSET] += popcount(EXEC)".into(),
            DsKind::Consume => "VDST = LDS[M0 + OFFSET]; LDS[M0 + OFFSET] -= popcount(EXEC)".into(),
            DsKind::ReadAddtid => "VDST = LDS[M0 + OFFSET + 4 * lane]".into(),
            DsKind::WriteAddtid => "LDS[M0 + OFFSET + 4 * lane] = DATA0".into(),
            DsKind::Nop => "no effect".into(),
        }),
        Kind::Salu(_) | Kind::Valu(_) => match alu_formula(name, scalar) {
            Some(f) => emu(f),
            None => Behaviour { text: format!("{} See the description.", description(name, format, kind)), source: "description".into() },
        },
        Kind::Vopd => emu("X and Y both read their sources before either writes: DX = X(SRC0X, VSRC1X); DY = Y(SRC0Y, VSRC1Y)".into()),
        Kind::Sendmsg => emu("sends the message SIMM16 names".into()),
        Kind::Unsupported(why) => Behaviour { text: format!("{} The emulator does not run it: {why}.", description(name, format, kind)), source: "description".into() },
        Kind::Invalid(_) => Behaviour { text: description(name, format, kind), source: "description".into() },
    }
}

/// What an operand may name.
pub fn class(c: Class, imm: ImmTy) -> &'static str {
    match (c, imm) {
        (Class::Vgpr, ImmTy::NoImm) => "vector register",
        (Class::Vgpr, _) => "vector register, scalar register or constant",
        (Class::Vgpr16, ImmTy::NoImm) => "16-bit half of a vector register",
        (Class::Vgpr16, _) => "16-bit half of a vector register, scalar register or constant",
        (Class::Agpr, _) => "accumulation register (or vector register)",
        (Class::Sgpr, ImmTy::NoImm) => "scalar register",
        (Class::Sgpr, _) => "scalar register or constant",
        (Class::Other, _) => "immediate value",
    }
}

/// The data an operand holds.
pub fn data(width: u8, imm: ImmTy, class: Class) -> String {
    if class == Class::Other {
        return "encoded immediate".into();
    }
    let bits = if class == Class::Vgpr16 { 16 } else { 32 * width as u32 };
    match imm {
        ImmTy::F16 => format!("{bits} bits, read as 16-bit float"),
        ImmTy::F64 => format!("{bits} bits, read as 64-bit float"),
        ImmTy::I16 => format!("{bits} bits, read as 16-bit integer"),
        _ => format!("{bits} bits"),
    }
}
