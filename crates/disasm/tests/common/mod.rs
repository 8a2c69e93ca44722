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
    // A start line opens a probe's group only after the previous probe's markers: a probe's own
    // bytes can decode as the start instruction (an aimed SOPP with that immediate).
    let mut ready = true;
    for l in stdout.lines() {
        let t = l.trim();
        if t.is_empty() || t == ".text" {
            continue;
        }
        if t == START_TEXT && ready {
            groups.push(Vec::new());
            inside = true;
            ready = false;
        } else if t == MARKER_TEXT {
            inside = false;
            ready = true;
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

/// The formats gfx10 has (the golden tests here are gfx10's).
pub fn gfx10_formats() -> impl Iterator<Item = Format> {
    formats(rdna_isa::Isa::Gfx1030)
}

/// The formats a swept target has (non-empty tables).
pub fn formats(isa: rdna_isa::Isa) -> impl Iterator<Item = Format> {
    Format::ALL.into_iter().filter(move |f| !isa.tables().get(*f).entries.is_empty())
}

/// Random dwords aimed at format `f` with opcode `op` in `isa`'s encoding family (see
/// [`rdna_disasm::aim`]), none of them a framing marker.
pub fn aimed_for(isa: rdna_isa::Isa, f: Format, op: u32, rng: &mut Rng) -> Vec<u8> {
    let mut fill = rdna_disasm::aim::Fill::default();
    for w in fill.words.iter_mut() {
        *w = probe_word(rng);
    }
    fill.choices = rng.u32();
    rdna_disasm::aim::aimed_for(isa, f, op, fill).iter().flat_map(|x| x.to_le_bytes()).collect()
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
