//! The recompiler's frontend: from a kernel's decoded instructions to the shape of its control
//! flow, which the IR builder and the structurizer consume.
//!
//! - [`cfg`]: basic blocks, branches, calls and returns, with every site it cannot follow.
//! - [`structure`]: dominators, loops and whether the flow is reducible.
//! - [`structurize`]: the tree of loops, selections and breakable blocks for SPIR-V.
//! - [`print`]: text and Graphviz forms of both (`rdna cfg`).

pub mod cfg;
pub mod print;
pub mod structure;
pub mod structurize;

pub use cfg::{Block, BlockId, Cfg, CfgError, Exit, Function, Site};

use rdna_disasm::Decoder;
use rdna_emu::program::Program;
use rdna_hsa::{CodeObject, Kernel};

/// Decodes the code object's `.text` with offsets as addresses, and finds the kernel's entry.
pub fn kernel_program(code: &CodeObject, kernel: &Kernel) -> Result<(Program, usize), String> {
    let target = rdna_emu::target_of(code, kernel).map_err(|e| e.to_string())?;
    let prog = Program::decode(&Decoder::new(target), &code.text, 0);
    let off = kernel.entry.checked_sub(code.text_addr).ok_or("the kernel entry is before .text")?;
    let entry = prog.at(off).ok_or_else(|| format!("kernel '{}': no instruction decodes at its entry", kernel.name))?;
    Ok((prog, entry))
}
