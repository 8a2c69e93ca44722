//! The fuzz targets, as functions of arbitrary bytes. Each must return normally on every input:
//! a panic is a bug, and so is an answer that breaks the target's stated invariant (an
//! instruction length outside the format's, a recompiled module `spirv-val` rejects).
//!
//! `fuzz/` (cargo-fuzz, nightly) drives them with libFuzzer; `tests/smoke.rs` runs each for a few
//! seconds on stable in CI, and replays every input kept in `fuzz/regressions/<target>/`.

use std::sync::OnceLock;

use rdna_disasm::{Decoder, PrintOptions};
use rdna_isa::Target;

/// The targets a first byte chooses from (every swept generation's representative).
const TARGETS: [&str; 10] = ["gfx700", "gfx803", "gfx908", "gfx90a", "gfx942", "gfx1010", "gfx1030", "gfx1100", "gfx1150", "gfx1200"];

/// The longest instruction any target has: gfx10's MIMG with four NSA dwords, or a 12-byte gfx11
/// VOP3-DPP, plus a literal.
pub const LONGEST: usize = 24;

fn target(selector: u8) -> Target {
    let t = Target::from_name(TARGETS[(selector & 0x7f) as usize % TARGETS.len()]).expect("known target");
    Target { wave64: selector & 0x80 != 0, ..t }
}

/// Decoder and printer: every offset of the input decodes to an instruction of a plausible length
/// or an error, and whatever decodes prints.
pub fn decode_print(data: &[u8]) {
    let Some((&sel, code)) = data.split_first() else { return };
    let dec = Decoder::new(target(sel));
    let opts = PrintOptions { wave64: dec.target.wave64 };
    let mut text = String::new();
    for start in 0..code.len().min(64) {
        if let Ok((inst, len)) = dec.decode(&code[start..]) {
            assert!(len >= 4 && len <= LONGEST && len % 4 == 0 && len <= code.len() - start, "length {len} at {start}");
            text.clear();
            let _ = rdna_disasm::print(&inst, opts, &mut text);
        }
    }
    // The linear disassembly the CLI uses.
    rdna_disasm::disassemble(&dec, opts, code, |_| {});
}

/// Assembler: any text assembles or is an error.
pub fn assemble(data: &[u8]) {
    let Some((&sel, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    // One assembler per target and thread: what it learns about an instruction does not depend on
    // the input, and learning is the slow part.
    thread_local! {
        static ASSEMBLERS: std::cell::RefCell<std::collections::HashMap<(&'static str, bool), rdna_asm::Assembler>> = Default::default();
    }
    let t = target(sel);
    ASSEMBLERS.with(|a| {
        let mut a = a.borrow_mut();
        let asm = a.entry((t.name, t.wave64)).or_insert_with(|| rdna_asm::Assembler::new(t));
        let _ = asm.assemble(&text);
    });
}

/// Code-object loader: any bytes parse or are an error; what parses disassembles.
pub fn code_object(data: &[u8]) {
    let Ok(co) = rdna_hsa::CodeObject::parse(data) else { return };
    let Some(t) = co.mcpu.and_then(Target::from_name) else { return };
    let dec = Decoder::new(t);
    for f in &co.functions {
        rdna_disasm::disassemble(&dec, PrintOptions::default(), co.code(f), |_| {});
    }
    for k in &co.kernels {
        let _ = co.kernel_code(k);
        let _ = co.function_range(k.entry.wrapping_sub(co.text_addr));
    }
    let _ = co.flat_image();
}

/// Dispatch-file parser: any JSON (against the bundled SAXPY's code object and data) is loaded or
/// refused; a small enough dispatch runs on the emulator under a budget.
pub fn dispatch(data: &[u8]) {
    let Ok(file) = serde_json::from_slice::<rdna_emu::dispatch::DispatchFile>(data) else { return };
    let dir = rdna_testkit::root().join("examples");
    let Ok(prepared) = rdna_emu::dispatch::Prepared::from_file(file, &dir) else { return };
    let lanes: u64 = prepared.file.grid.iter().map(|&g| g as u64).product();
    if lanes <= 4096 {
        let opts = rdna_emu::Options { budget: 20_000, threads: 1, ..Default::default() };
        let _ = prepared.run_emu(&opts);
    }
}

/// Emulator: raw words run as one wave (invalid ones fault) under an instruction budget.
pub fn emulate(data: &[u8]) {
    let Some((&sel, code)) = data.split_first() else { return };
    let t = target(sel);
    if !matches!(t.name, "gfx1030" | "gfx1100") {
        return;
    }
    let Some(mut s) = rdna_emu::snippet::Snippet::for_target(t.name, t.wave64) else { return };
    s.budget = 20_000;
    for r in 0..64 {
        s.set_v(r, |l| (r as u32).wrapping_mul(0x9e37_79b9) ^ l as u32);
    }
    let _ = s.run(&code[..code.len().min(4096)]);
}

/// The recompiler target's kernel template per (target, wave size), built once
/// ([`rdna_testkit::stream_template`]).
fn template(mcpu: &'static str, wave64: bool) -> &'static rdna_hsa::CodeObject {
    static T: [OnceLock<rdna_hsa::CodeObject>; 4] = [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
    T[(mcpu == "gfx1100") as usize * 2 + wave64 as usize].get_or_init(|| rdna_testkit::stream_template(mcpu, wave64))
}

/// Recompiler: the valid instructions among the input's words, written over a kernel template,
/// recompile in both wave models to modules spirv-val accepts, or are refused without an
/// internal error.
pub fn recompile(data: &[u8]) {
    let Some((&sel, words)) = data.split_first() else { return };
    let (mcpu, wave64) = [("gfx1030", false), ("gfx1030", true), ("gfx1100", false), ("gfx1100", true)][sel as usize % 4];
    let dec = Decoder::new(Target { wave64, ..Target::from_name(mcpu).expect("known") });
    let mut code = Vec::new();
    let mut at = 0;
    while at + 4 <= words.len() && code.len() < 4 * 100 {
        match dec.decode(&words[at..]) {
            Ok((_, len)) => {
                code.extend_from_slice(&words[at..at + len]);
                at += len;
            }
            Err(_) => at += 4,
        }
    }
    code.extend_from_slice(&0xbf81_0000u32.to_le_bytes());
    let mut co = template(mcpu, wave64).clone();
    let entry = (co.kernels[0].entry - co.text_addr) as usize;
    co.text[entry..entry + code.len()].copy_from_slice(&code);
    for model in [rdna_spirv::WaveModel::Exact, rdna_spirv::WaveModel::Subgroup] {
        match rdna_spirv::recompile(&co, &co.kernels[0], [64, 1, 1], 0, model) {
            Ok(c) => {
                if let Err(e) = rdna_testkit::spirv_val(&c.words, "fuzz") {
                    panic!("spirv-val rejects the module for {code:02x?} ({model}): {e}");
                }
            }
            Err(e) => assert!(!e.to_string().contains("internal"), "{e}"),
        }
    }
}

/// Every target by name, for the smoke test and the regression replays.
pub const ALL: [(&str, fn(&[u8])); 6] =
    [("decode_print", decode_print), ("assemble", assemble), ("code_object", code_object), ("dispatch", dispatch), ("emulate", emulate), ("recompile", recompile)];
