//! Running a piece of machine code on a single wave, with registers and memory set up by the
//! caller: the harness of the per-instruction behaviour tests, and a quick way for tool authors
//! to try an instruction sequence.

use rdna_disasm::Decoder;

use crate::exec::{self, Flow, Shared};
use crate::program::Program;
use crate::wave::{Mode, Wave};
use crate::Memory;

/// One wave, 64 KiB of LDS and a guest memory.
pub struct Snippet {
    pub wave: Wave,
    pub lds: Vec<u8>,
    pub mem: Memory,
    pub target: rdna_isa::Target,
    /// Use the VALU fast path where it applies (turn off to run everything through the general
    /// path, e.g. to compare the two).
    pub fast: bool,
    /// Instructions `run` executes before it stops the wave as a runaway.
    pub budget: u64,
}

impl Snippet {
    /// A gfx1030 wave (wave32 or wave64) with every lane active, IEEE mode on, denormals kept and
    /// round-to-nearest-even: the state clang-19's OpenCL kernels start in.
    pub fn new(wave64: bool) -> Snippet {
        Snippet::for_target("gfx1030", wave64).expect("gfx1030 is known")
    }

    /// A wave of another target (`gfx1100`, ...), set up like [`Snippet::new`].
    pub fn for_target(name: &str, wave64: bool) -> Option<Snippet> {
        let target = rdna_isa::Target { wave64, ..rdna_isa::Target::from_name(name)? };
        let lanes = if wave64 { 64 } else { 32 };
        let mut wave = Wave::new(lanes, 256, 256);
        wave.set_exec(wave.lane_mask);
        wave.mode = Mode(0xf0 | 1 << 8 | 1 << 9);
        Some(Snippet { wave, lds: vec![0; 64 * 1024], mem: Memory::new(), target, fast: true, budget: 1_000_000 })
    }

    /// Executes `code` from its first byte until `s_endpgm` or the end of the code, at most
    /// [`Snippet::budget`] instructions. Errors name the offset and the instruction.
    pub fn run(&mut self, code: &[u8]) -> Result<u64, String> {
        let dec = Decoder::new(self.target);
        let mut prog = Program::decode(&dec, code, 0);
        if !self.fast {
            for st in &mut prog.steps {
                st.fast = false;
            }
        }
        self.wave.pc = 0;
        self.wave.done = false;
        let mut sh = Shared { prog: &prog, mem: &self.mem, lds: &mut self.lds, code_addr: 0, cycles: 0, scratch: [[0; crate::wave::LANES]; 4] };
        let mut n = 0u64;
        while let Some(st) = prog.steps.get(self.wave.pc) {
            if n >= self.budget {
                return Err("instruction budget exceeded".into());
            }
            n += 1;
            let flow = exec::step(&mut self.wave, &mut sh, st).map_err(|r| format!("{:#x}: `{}`: {r}", st.pc, st.text()))?;
            match flow {
                Flow::Next | Flow::Barrier => self.wave.pc += 1,
                Flow::Jump(i) => self.wave.pc = i,
                Flow::End => break,
            }
        }
        Ok(n)
    }

    /// Sets every lane of VGPR `r` from `f(lane)`.
    pub fn set_v(&mut self, r: usize, f: impl Fn(usize) -> u32) {
        for l in 0..self.wave.lanes {
            self.wave.set_vr(r, l, f(l));
        }
    }

    /// Lane values of VGPR `r`.
    pub fn v(&self, r: usize) -> Vec<u32> {
        (0..self.wave.lanes).map(|l| self.wave.vr(r, l)).collect()
    }
}
