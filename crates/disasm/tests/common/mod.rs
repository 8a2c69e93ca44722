//! Running llvm-mc-19 as the oracle for many encodings at once.
#![allow(dead_code)]

use std::io::Write;

use rdna_isa::Format;
use std::process::{Command, Stdio};

/// Each probe is framed as `s_nop 0x4d1`, probe, then six `s_nop 0x4d2`: whatever LLVM makes of
/// the probe's tail bytes (a MIMG with NSA dwords may swallow four following dwords) ends inside
/// the closing markers, so every probe's output starts right after its own opening marker.
const START: [u8; 4] = [0xd1, 0x04, 0x80, 0xbf];
const START_TEXT: &str = "s_nop 0x4d1";
const MARKER: [u8; 4] = [0xd2, 0x04, 0x80, 0xbf];
const MARKER_TEXT: &str = "s_nop 0x4d2";
const END_MARKERS: usize = 6;
const LINES_PER_PROBE: usize = END_MARKERS + 2;

pub fn llvm_mc() -> String {
    std::env::var("LLVM_MC").unwrap_or_else(|_| "llvm-mc-19".into())
}

fn hex_line(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("0x{b:02x}")).collect::<Vec<_>>().join(",")
}

/// What llvm-mc makes of one encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Oracle {
    /// The text of the first instruction.
    Text(String),
    /// LLVM reports an invalid encoding at the first byte.
    Invalid,
    /// llvm-mc-19 itself crashes on this encoding (it has such bugs); not comparable.
    Crash,
}

/// What llvm-mc prints for the first instruction of each encoding.
pub fn llvm_first_texts(mcpu: &str, mattr: &str, encodings: &[Vec<u8>]) -> Vec<Oracle> {
    let mut results = Vec::with_capacity(encodings.len());
    let mut rest = encodings;
    while !rest.is_empty() {
        let chunk = &rest[..rest.len().min(20000)];
        let (done, crashed) = run_batch(mcpu, mattr, chunk);
        // After a crash the last complete group may be cut short: keep the ones before it.
        let keep = if crashed { done.len().saturating_sub(1) } else { done.len() };
        results.extend(done.into_iter().take(keep));
        rest = &rest[keep..];
        if crashed {
            // Find the probe that crashes: try the next few alone.
            loop {
                let Some(first) = rest.first() else { break };
                let (one, c) = run_batch(mcpu, mattr, std::slice::from_ref(first));
                rest = &rest[1..];
                if c {
                    results.push(Oracle::Crash);
                    break;
                }
                results.extend(one);
            }
        }
    }
    results
}

/// Runs one llvm-mc process; returns the complete results and whether it crashed.
fn run_batch(mcpu: &str, mattr: &str, chunk: &[Vec<u8>]) -> (Vec<Oracle>, bool) {
    let mut input = String::new();
    for e in chunk {
        input.push_str(&hex_line(&START));
        input.push('\n');
        input.push_str(&hex_line(e));
        input.push('\n');
        for _ in 0..END_MARKERS {
            input.push_str(&hex_line(&MARKER));
            input.push('\n');
        }
    }
    let mut cmd = Command::new(llvm_mc());
    cmd.args(["-arch=amdgcn", &format!("-mcpu={mcpu}"), "--disassemble"]);
    if !mattr.is_empty() {
        cmd.arg(format!("-mattr={mattr}"));
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("llvm-mc-19 must be installed (apt-get install llvm-19), or set LLVM_MC");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let crashed = !out.status.success();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut bad = std::collections::HashSet::new();
    for l in stderr.lines() {
        // <stdin>:LINE:COL: warning: invalid instruction encoding
        let mut it = l.splitn(4, ':');
        if it.next() != Some("<stdin>") {
            continue;
        }
        let line: usize = it.next().and_then(|x| x.parse().ok()).unwrap_or(0);
        let col: usize = it.next().and_then(|x| x.parse().ok()).unwrap_or(0);
        if col == 1 && line >= 2 && (line - 2) % LINES_PER_PROBE == 0 && l.contains("invalid instruction encoding") {
            bad.insert((line - 2) / LINES_PER_PROBE);
        }
    }
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut inside = false;
    for l in stdout.lines() {
        let t = l.trim();
        if t.is_empty() || t == ".text" {
            continue;
        }
        if t == START_TEXT {
            groups.push(Vec::new());
            inside = true;
        } else if t == MARKER_TEXT {
            inside = false;
        } else if inside {
            groups.last_mut().unwrap().push(t.to_string());
        }
    }
    if !crashed {
        assert_eq!(groups.len(), chunk.len(), "llvm-mc output out of step");
    }
    let res = groups
        .into_iter()
        .enumerate()
        .map(|(i, g)| match g.into_iter().next() {
            Some(t) if !bad.contains(&i) => Oracle::Text(t),
            _ => Oracle::Invalid,
        })
        .collect();
    (res, crashed)
}

/// A small seeded generator (xorshift64*), so failures can be replayed from the printed seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn u32(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

pub fn seed_from_env() -> u64 {
    match std::env::var("RDNA_SEED") {
        Ok(s) => s.parse().expect("RDNA_SEED must be an integer"),
        Err(_) => std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64 | 1,
    }
}

/// The first dword's fixed bits for each format, for generating encodings aimed at a format.
pub fn format_ident(f: Format) -> (u32, u32) {
    match f {
        Format::Sop1 => (0xff80_0000, 0xbe80_0000),
        Format::Sop2 => (0xc000_0000, 0x8000_0000),
        Format::Sopk => (0xf000_0000, 0xb000_0000),
        Format::Sopc => (0xff80_0000, 0xbf00_0000),
        Format::Sopp => (0xff80_0000, 0xbf80_0000),
        Format::Smem => (0xfc00_0000, 0xf400_0000),
        Format::Vop1 => (0xfe00_0000, 0x7e00_0000),
        Format::Vop2 => (0x8000_0000, 0x0000_0000),
        Format::Vopc => (0xfe00_0000, 0x7c00_0000),
        // Extended forms are reached through VOP1/VOP2/VOPC's src0 and sampled there.
        Format::Vop1Dpp16 => (0xfe00_01ff, 0x7e00_00fa),
        Format::Vop1Dpp8 => (0xfe00_01fe, 0x7e00_00e8 | 1),
        Format::Vop1Sdwa => (0xfe00_01ff, 0x7e00_00f9),
        Format::Vop2Dpp16 => (0x8000_01ff, 0x0000_00fa),
        Format::Vop2Dpp8 => (0x8000_01fe, 0x0000_00e9),
        Format::Vop2Sdwa => (0x8000_01ff, 0x0000_00f9),
        Format::VopcSdwa => (0xfe00_01ff, 0x7c00_00f9),
        Format::Vop3 => (0xfc00_0000, 0xd400_0000),
        Format::Vop3p => (0xff80_0000, 0xcc00_0000),
        Format::Ds => (0xfc00_0000, 0xd800_0000),
        Format::Flat => (0xfc00_c000, 0xdc00_0000),
        Format::Scratch => (0xfc00_c000, 0xdc00_4000),
        Format::Global => (0xfc00_c000, 0xdc00_8000),
        Format::Mubuf => (0xfc00_0000, 0xe000_0000),
        Format::Mtbuf => (0xfc00_0000, 0xe800_0000),
        Format::Vintrp => (0xfc00_0000, 0xc800_0000),
        Format::Exp => (0xfc00_0000, 0xf800_0000),
        Format::Mimg => (0xfc00_0000, 0xf000_0000),
        // gfx11 only.
        Format::VopcDpp16 => (0xfe00_01ff, 0x7c00_00fa),
        Format::VopcDpp8 => (0xfe00_01fe, 0x7c00_00e8 | 1),
        Format::Vop3Dpp16 | Format::Vop3Dpp8 => (0xfc00_0000, 0xd400_0000),
        Format::Vopd => (0xfc00_0000, 0xc800_0000),
        Format::Vinterp => (0xff80_0000, 0xcd00_0000),
        Format::Vop3pDpp16 | Format::Vop3pDpp8 => (0xff80_0000, 0xcc00_0000),
        Format::Ldsdir => (0xffc0_0000, 0xce00_0000),
    }
}

/// The formats gfx10 has (the golden tests here are gfx10's).
pub fn gfx10_formats() -> impl Iterator<Item = Format> {
    formats(rdna_isa::Isa::Gfx1030)
}

/// The formats a swept target has (non-empty tables).
pub fn formats(isa: rdna_isa::Isa) -> impl Iterator<Item = Format> {
    Format::ALL.into_iter().filter(move |f| !isa.tables().get(*f).entries.is_empty())
}

/// Five random dwords aimed at format `f` with opcode `op` in `isa`'s encoding family.
pub fn aimed_for(isa: rdna_isa::Isa, f: Format, op: u32, rng: &mut Rng) -> Vec<u8> {
    match isa.generation() {
        rdna_isa::Generation::Gfx7 => aimed_gfx7(isa, f, op, rng),
        rdna_isa::Generation::Gfx8 | rdna_isa::Generation::Gfx9 => aimed_gfx9(f, op, rng),
        rdna_isa::Generation::Gfx10 => aimed(f, op, rng),
        rdna_isa::Generation::Gfx11 => aimed_gfx11(f, op, rng),
        rdna_isa::Generation::Gfx12 => aimed_gfx12(f, op, rng),
    }
}

/// Writes opcode `op` of format `f` into an encoding (the format's first-dword pattern must already
/// be there).
pub fn set_opcode(f: Format, op: u32, w: &mut [u32; 5]) {
    let (lo, width) = match f {
        Format::Sop1 => (8, 8),
        Format::Sop2 => (23, 7),
        Format::Sopk => (23, 5),
        Format::Sopc | Format::Sopp => (16, 7),
        Format::Smem | Format::Ds | Format::Mubuf => (18, 8),
        Format::Vop1 | Format::Vop1Dpp16 | Format::Vop1Dpp8 | Format::Vop1Sdwa => (9, 8),
        Format::Vop2 | Format::Vop2Dpp16 | Format::Vop2Dpp8 | Format::Vop2Sdwa => (25, 6),
        Format::Vopc | Format::VopcSdwa | Format::VopcDpp16 | Format::VopcDpp8 => (17, 8),
        Format::Vop3 | Format::Vop3Dpp16 | Format::Vop3Dpp8 => (16, 10),
        Format::Vopd => (22, 4),
        Format::Vop3p | Format::Vop3pDpp16 | Format::Vop3pDpp8 => (16, 7),
        Format::Flat | Format::Scratch | Format::Global => (18, 7),
        Format::Mtbuf => {
            // Opcode bit 3 lives in the second dword (bit 53 of the encoding).
            w[1] = (w[1] & !(1 << 21)) | (op >> 3 & 1) << 21;
            (16, 3)
        }
        Format::Vintrp => (16, 2),
        Format::Vinterp => (16, 7),
        Format::Ldsdir => (20, 2),
        Format::Exp => return,
        Format::Mimg => {
            w[0] = (w[0] & !(0x7f << 18 | 1)) | (op & 0x7f) << 18 | op >> 7;
            return;
        }
    };
    let mask = ((1u32 << width) - 1) << lo;
    w[0] = (w[0] & !mask) | ((op << lo) & mask);
}

/// Five random dwords with format `f`'s pattern and opcode `op`.
pub fn aimed(f: Format, op: u32, rng: &mut Rng) -> Vec<u8> {
    let mut w = [0u32; 5];
    for x in w.iter_mut() {
        *x = probe_word(rng);
    }
    let (mask, val) = format_ident(f);
    w[0] = (w[0] & !mask) | val;
    set_opcode(f, op, &mut w);
    if f == Format::Flat {
        // FLAT is only valid with SADDR = null; random SADDR bits would almost never hit it.
        w[1] = (w[1] & !(0x7f << 16)) | 0x7d << 16;
    }
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// SDWA encodings with a reserved select (7) crash llvm-mc-19; they are not sent to it.
pub fn crashes_llvm(bytes: &[u8]) -> bool {
    let w0 = u32::from_le_bytes(bytes[0..4].try_into().unwrap());
    let w1 = u32::from_le_bytes(bytes[4..8].try_into().unwrap());
    if w0 >> 31 != 0 || w0 & 0x1ff != 0xf9 {
        return false;
    }
    let sels: &[u32] = match w0 >> 25 {
        0x3f => &[8, 16],  // VOP1: dst_sel, src0_sel
        0x3e => &[16, 24], // VOPC: src0_sel, src1_sel
        _ => &[8, 16, 24], // VOP2
    };
    sels.iter().any(|&lo| (w1 >> lo) & 7 == 7)
}

/// Parses a line of `0x..,0x..` bytes.
pub fn parse_hex_line(s: &str) -> Vec<u8> {
    s.split(',').map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).unwrap()).collect()
}

pub fn hex_bytes(bytes: &[u8]) -> String {
    hex_line(bytes)
}

/// A random dword that is not one of the framing markers: every instruction is a whole number of
/// dwords, so a probe without marker dwords can never print a marker's text.
pub fn probe_word(rng: &mut Rng) -> u32 {
    loop {
        let w = rng.u32();
        if w != u32::from_le_bytes(START) && w != u32::from_le_bytes(MARKER) {
            return w;
        }
    }
}

/// Five random dwords, none of them a framing marker.
pub fn random_probe(rng: &mut Rng) -> Vec<u8> {
    (0..5).flat_map(|_| probe_word(rng).to_le_bytes()).collect()
}

/// Five random dwords aimed at gfx11 format `f` with opcode `op` (gfx11 moves FLAT's segment to
/// bits 17:16 and MTBUF's opcode to 18:15; VOPD replaces VINTRP; VOP3 DPP is selected by the
/// second dword's src0).
pub fn aimed_gfx11(f: Format, op: u32, rng: &mut Rng) -> Vec<u8> {
    let mut w = [0u32; 5];
    for x in w.iter_mut() {
        *x = probe_word(rng);
    }
    let (mask, val) = match f {
        Format::Flat => (0xfc03_0000, 0xdc00_0000),
        Format::Scratch => (0xfc03_0000, 0xdc01_0000),
        Format::Global => (0xfc03_0000, 0xdc02_0000),
        Format::Vopd => (0xfc00_0000, 0xc800_0000),
        f => format_ident(f),
    };
    w[0] = (w[0] & !mask) | val;
    match f {
        Format::Mtbuf => w[0] = (w[0] & !(0xf << 15)) | (op & 0xf) << 15,
        Format::Vopd => {}
        f => set_opcode(f, op, &mut w),
    }
    match f {
        // FLAT needs SADDR = null (124 on gfx11).
        Format::Flat => w[1] = (w[1] & !(0x7f << 16)) | 0x7c << 16,
        Format::Vop3Dpp16 | Format::Vop3pDpp16 => w[1] = (w[1] & !0x1ff) | 0xfa,
        Format::Vop3Dpp8 | Format::Vop3pDpp8 => w[1] = (w[1] & !0x1ff) | 0xe9,
        _ => {}
    }
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Five random dwords aimed at gfx8/gfx9 format `f` with opcode `op` (VOP3 at 0b110100, SMEM at
/// 0b110000, DS's opcode at 24:17, 7-bit MUBUF/MIMG opcodes, EXP and VINTRP at their gfx9 patterns).
pub fn aimed_gfx9(f: Format, op: u32, rng: &mut Rng) -> Vec<u8> {
    let ident = match f {
        Format::Vop3 => Some((0xfc00_0000, 0xd000_0000)),
        Format::Vop3p => Some((0xff80_0000, 0xd380_0000)),
        Format::Smem => Some((0xfc00_0000, 0xc000_0000)),
        Format::Vintrp => Some((0xfc00_0000, 0xd400_0000)),
        Format::Exp => Some((0xfc00_0000, 0xc400_0000)),
        _ => None,
    };
    let opcode = match f {
        Format::Ds => Some((17, 8)),
        Format::Mubuf | Format::Mimg => Some((18, 7)),
        Format::Mtbuf => Some((15, 4)),
        Format::Exp => Some((0, 0)),
        _ => None,
    };
    let mut w = aimed_words(f, op, rng, ident, opcode);
    if matches!(f, Format::Flat | Format::Global | Format::Scratch) && rng.below(2) == 0 {
        // "off" (0x7f) in half the cases: random SADDR bits would rarely hit it.
        w[1] = (w[1] & !(0x7f << 16)) | 0x7f << 16;
    }
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Five random dwords with a first-dword pattern (`ident`: mask and value; the format's gfx10
/// pattern where None) and opcode `op` in `opcode` (lowest bit, width; where None, where gfx10
/// keeps it; width 0: no opcode field).
fn aimed_words(f: Format, op: u32, rng: &mut Rng, ident: Option<(u32, u32)>, opcode: Option<(u32, u32)>) -> [u32; 5] {
    let mut w = [0u32; 5];
    for x in w.iter_mut() {
        *x = probe_word(rng);
    }
    let (mask, val) = ident.unwrap_or_else(|| format_ident(f));
    w[0] = (w[0] & !mask) | val;
    match opcode {
        None => set_opcode(f, op, &mut w),
        Some((_, 0)) => {}
        Some((lo, width)) => {
            let m = ((1u32 << width) - 1) << lo;
            w[0] = (w[0] & !m) | ((op << lo) & m);
        }
    }
    w
}

/// Five random dwords aimed at gfx7 format `f` with opcode `op`: SMRD at 0b11000 (opcode 26:22),
/// VOP3's 9-bit opcode at 25:17, DS's at 25:18, MTBUF's 3-bit opcode at 18:16, VINTRP at 0b110010.
/// The bits the entry marks ignored (fields it does not use, reserved bits) are cleared: the
/// disassembly cannot show them, so reassembly could not give them back.
pub fn aimed_gfx7(isa: rdna_isa::Isa, f: Format, op: u32, rng: &mut Rng) -> Vec<u8> {
    let ident = match f {
        Format::Smem => Some((0xf800_0000, 0xc000_0000)),
        Format::Vop3 => Some((0xfc00_0000, 0xd000_0000)),
        Format::Flat => Some((0xfc00_0000, 0xdc00_0000)),
        _ => None,
    };
    let opcode = match f {
        Format::Smem => Some((22, 5)),
        Format::Vop3 => Some((17, 9)),
        Format::Ds => Some((18, 8)),
        Format::Flat | Format::Mubuf | Format::Mimg => Some((18, 7)),
        Format::Mtbuf => Some((16, 3)),
        Format::Vintrp => Some((16, 2)),
        Format::Exp => Some((0, 0)),
        _ => None,
    };
    let mut w = aimed_words(f, op, rng, ident, opcode);
    if f == Format::Smem && rng.below(8) == 0 {
        w[0] = (w[0] & !0x1ff) | 0xff; // a literal offset
    }
    if let Some(e) = isa.tables().get(f).get(op) {
        w[0] &= !(e.ignored as u32);
        w[1] &= !((e.ignored >> 32) as u32);
        canonical_gfx7(f, e, &mut w);
    }
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Clears what the hardware ignores and a disassembly therefore cannot show: the low bits of
/// scalar register tuples (s[4:5] is all an odd first register can mean) and the fields of
/// disabled export sources.
fn canonical_gfx7(f: Format, e: &rdna_isa::OpEntry, w: &mut [u32; 5]) {
    use rdna_isa::{Class, Field};
    let mut raw = w[0] as u64 | (w[1] as u64) << 32;
    for op in e.operands {
        // 9-bit sources read scalars below 128 whatever class the sweep saw; other fields only
        // where they hold scalar registers.
        if op.width < 2 {
            continue;
        }
        let (lo, width) = match (f, op.field) {
            (Format::Sop1 | Format::Sop2 | Format::Sopk, Field::Sdst) => (16, 7),
            (Format::Vop3, Field::Sdst) => (8, 7),
            (Format::Vop3, Field::Vdst) if op.class == Class::Sgpr => (0, 8),
            (_, Field::Ssrc0) if op.class == Class::Sgpr => (0, 8),
            (_, Field::Ssrc1) if op.class == Class::Sgpr => (8, 8),
            (Format::Smem, Field::Sdata) => (15, 7),
            (Format::Smem, Field::Sbase) => (9, 6),
            (Format::Vop1 | Format::Vop2 | Format::Vopc, Field::Src0) => (0, 9),
            (_, Field::Src0) => (32, 9),
            (_, Field::Src1) => (41, 9),
            (_, Field::Src2) => (50, 9),
            _ => continue,
        };
        let v = (raw >> lo) & ((1 << width) - 1);
        if op.field == Field::Sbase {
            if op.width >= 4 {
                raw &= !(1u64 << lo); // SBASE counts pairs: a quad starts at an even pair
            }
            continue;
        }
        if v < 128 {
            let align = if op.width >= 4 && v < 124 { 3 } else { 1 };
            raw &= !(align << lo);
        }
    }
    if f == Format::Mubuf && raw >> 16 & 1 != 0 {
        raw &= !(0xffu64 << 40); // a load into LDS has no VDATA
    }
    if matches!(f, Format::Mubuf | Format::Mtbuf) && raw >> 12 & 0xb == 0 {
        raw &= !(0xffu64 << 32); // no offen, idxen or addr64: no VGPR address
    }
    if f == Format::Ds && e.name == "ds_swizzle_b32" && raw >> 15 & 1 != 0 {
        raw &= !(0x7fu64 << 8); // QUAD_PERM reads the low byte only
    }
    if f == Format::Exp {
        let compr = raw >> 10 & 1 != 0;
        if compr {
            // Compressed exports enable their two sources by bit pairs; LLVM writes both bits.
            for k in 0..2 {
                if raw >> (2 * k) & 3 != 0 {
                    raw |= 3 << (2 * k);
                }
            }
        }
        let en = raw & 0xf;
        for k in 0..4 {
            // With compr the sources are VSRC0, VSRC0, VSRC1, VSRC1 (enable bits in pairs).
            let used = if compr { k < 2 && en >> (2 * k) & 3 != 0 } else { en >> k & 1 != 0 };
            if !used {
                raw &= !(0xffu64 << (32 + 8 * k));
            }
        }
    }
    w[0] = raw as u32;
    w[1] = (raw >> 32) as u32;
}

/// Assembles each line with `llvm-mc-19 -show-encoding` for `mcpu`: its bytes, or None where
/// llvm-mc rejects the line.
pub fn llvm_assemble(mcpu: &str, lines: &[String]) -> Vec<Option<Vec<u8>>> {
    let mut input = String::new();
    for l in lines {
        assert!(!l.contains('\n'), "one instruction per line: {l:?}");
        input.push_str(l);
        input.push('\n');
    }
    let mut child = Command::new(llvm_mc())
        .args(["-arch=amdgcn", &format!("-mcpu={mcpu}"), "-show-encoding"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("llvm-mc-19 runs");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("llvm-mc-19 finishes");
    writer.join().unwrap().expect("llvm-mc-19 reads its input");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let bad: std::collections::HashSet<usize> = stderr
        .lines()
        .filter(|l| l.contains(": error:"))
        .filter_map(|l| l.strip_prefix("<stdin>:")?.split(':').next()?.parse::<usize>().ok())
        .map(|n| n - 1)
        .collect();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut encs = stdout.lines().filter_map(|l| {
        let start = l.find("; encoding: [")? + "; encoding: [".len();
        let end = l[start..].find(']')? + start;
        Some(parse_hex_line(&l[start..end]))
    });
    (0..lines.len()).map(|i| if bad.contains(&i) { None } else { encs.next() }).collect()
}

/// Five random dwords aimed at gfx12 format `f` with opcode `op`: gfx11's patterns except SMEM
/// (opcode 18:13), VBUFFER (0b110001: MUBUF opcode 21:14, MTBUF 17:14 under 0b1000), VFLAT
/// (0b111011, segment 25:24, opcode 21:14, SADDR 6:0) and VIMAGE/VSAMPLE (0b110100/0b111001,
/// opcode 21:14).
pub fn aimed_gfx12(f: Format, op: u32, rng: &mut Rng) -> Vec<u8> {
    let (ident, opcode) = match f {
        Format::Smem => ((0xfc00_0000, 0xf400_0000), (13, 6)),
        Format::Mubuf => ((0xfc00_0000, 0xc400_0000), (14, 8)),
        Format::Mtbuf => ((0xfc3c_0000, 0xc420_0000), (14, 4)),
        Format::Flat => ((0xff00_0000, 0xec00_0000), (14, 8)),
        Format::Scratch => ((0xff00_0000, 0xed00_0000), (14, 8)),
        Format::Global => ((0xff00_0000, 0xee00_0000), (14, 8)),
        // VIMAGE, or VSAMPLE for the merged table's opcodes from 0x100.
        Format::Mimg if op >= 0x100 => ((0xfc00_0000, 0xe400_0000), (14, 8)),
        Format::Mimg => ((0xfc00_0000, 0xd000_0000), (14, 8)),
        _ => return aimed_gfx11(f, op, rng),
    };
    let mut w = aimed_words(f, op, rng, Some(ident), Some(opcode));
    // FLAT needs SADDR = null (124); GLOBAL/SCRATCH get it in half the cases.
    if f == Format::Flat || (matches!(f, Format::Global | Format::Scratch) && rng.below(2) == 0) {
        w[0] = (w[0] & !0x7f) | 0x7c;
    }
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Every opcode of every format of `isa`, `times` times each with random operand and modifier bits.
pub fn opcode_walk(isa: rdna_isa::Isa, times: usize, rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut enc = Vec::new();
    for f in formats(isa) {
        for e in isa.tables().get(f).entries {
            for _ in 0..times {
                enc.push(aimed_for(isa, f, e.op as u32, rng));
            }
        }
    }
    enc
}
