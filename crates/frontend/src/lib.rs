//! The recompiler's frontend: from a kernel's decoded instructions to the shape of its control
//! flow, which the IR builder and the structurizer consume.
//!
//! - [`cfg`]: basic blocks, branches, calls and returns, with every site it cannot follow.
//! - [`structure`]: dominators, loops and whether the flow is reducible.
//! - [`structurize`]: the tree of loops, selections and breakable blocks for SPIR-V.
//! - [`print`]: text and Graphviz forms of both (`rdna cfg`).
//! - [`lift`]: scalar instructions into the IR ([`rdna_ir`]).

pub mod cfg;
pub mod lift;
pub mod print;
pub mod structure;
pub mod structurize;

pub use cfg::{Block, BlockId, Cfg, CfgError, Exit, Function, Site};

use rdna_disasm::Decoder;
use rdna_emu::program::Program;
use rdna_hsa::{CodeObject, Kernel};

/// Why a kernel has no control-flow graph.
#[derive(Debug)]
pub enum FlowError {
    /// The code object does not lead to the kernel's code.
    Setup(String),
    /// Control the graph cannot follow.
    Flow(CfgError),
}

/// The kernel's decoded code, entry step and control-flow graph. Only the kernel's own
/// function is decoded first (a code object with many kernels costs more to decode whole than
/// one kernel costs to recompile); when its flow leaves that function (calls, or jumps
/// elsewhere), the whole `.text` is.
pub fn kernel_flow(code: &CodeObject, kernel: &Kernel) -> Result<(Program, usize, Cfg), FlowError> {
    let target = rdna_emu::target_of(code, kernel).map_err(|e| FlowError::Setup(e.to_string()))?;
    let dec = Decoder::new(target);
    if let (Some(f), Some(off)) = (code.functions.iter().find(|f| f.addr == kernel.entry), kernel.entry.checked_sub(code.text_addr)) {
        let start = off as usize;
        let to_next = code.code_to_next(f).len();
        // The symbol's size first (it leaves out the padding that follows a kernel, often
        // longer than the kernel), then up to the next function.
        let sized = f.size as usize;
        let lens: &[usize] = if sized > 0 && sized < to_next { &[sized, to_next] } else { &[to_next] };
        for &len in lens {
            // Calls (and jumps) out of the range widen it to the functions they reach, a few
            // times, before the whole section is decoded.
            let mut range = start..start + len;
            for _ in 0..4 {
                let prog = Program::decode_range(&dec, &code.text, code.text_addr, range.clone());
                let Some(entry) = prog.at(off) else { break };
                match Cfg::build(&prog, entry) {
                    Ok(cfg) => return Ok((prog, entry, cfg)),
                    Err(e) if !e.1.is_empty() => {
                        let wider = e.1.iter().fold(range.clone(), |r, &t| {
                            let (lo, hi) = code.function_range(t).unwrap_or((t as usize, t as usize + 4));
                            r.start.min(lo)..r.end.max(hi)
                        });
                        if wider == range || wider.end > code.text.len() {
                            break;
                        }
                        range = wider;
                    }
                    Err(_) => break,
                }
            }
        }
    }
    let (prog, entry) = kernel_program(code, kernel).map_err(FlowError::Setup)?;
    let cfg = Cfg::build(&prog, entry).map_err(FlowError::Flow)?;
    Ok((prog, entry, cfg))
}

/// Decodes the code object's `.text` (steps keep their offsets; the program's base is the section's address), and finds the kernel's entry.
pub fn kernel_program(code: &CodeObject, kernel: &Kernel) -> Result<(Program, usize), String> {
    let target = rdna_emu::target_of(code, kernel).map_err(|e| e.to_string())?;
    let prog = Program::decode(&Decoder::new(target), &code.text, code.text_addr);
    let off = kernel.entry.checked_sub(code.text_addr).ok_or("the kernel entry is before .text")?;
    let entry = prog.at(off).ok_or_else(|| format!("kernel '{}': no instruction decodes at its entry", kernel.name))?;
    Ok((prog, entry))
}
