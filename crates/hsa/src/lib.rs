//! AMDHSA code objects: the ELF container, its code and the kernels in it.
//!
//! Parsing uses the `object` crate; everything malformed is an [`Error`] naming what is wrong.

use object::{Object, ObjectSection, ObjectSymbol, SymbolKind};

/// Problems with a code object.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("not a valid ELF file: {0}")]
    Elf(#[from] object::Error),
    #[error("ELF machine is {0:#x}, expected EM_AMDGPU (0xe0)")]
    Machine(u16),
    #[error("code object has no .text section")]
    NoText,
    #[error("symbol '{name}' at {addr:#x}+{size:#x} lies outside .text")]
    SymbolOutside { name: String, addr: u64, size: u64 },
}

/// A function symbol in `.text` (a kernel entry or a device function).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    pub name: String,
    /// Virtual address of the first instruction.
    pub addr: u64,
    pub size: u64,
}

/// A loaded code object: its `.text` bytes and the functions in them.
#[derive(Clone, Debug)]
pub struct CodeObject {
    pub text: Vec<u8>,
    pub text_addr: u64,
    pub functions: Vec<Function>,
    /// The `EF_AMDGPU_MACH` processor name from the ELF flags, when known (e.g. "gfx1030").
    pub mcpu: Option<&'static str>,
}

const EM_AMDGPU: u16 = 0xe0;

fn mach_name(flags: u32) -> Option<&'static str> {
    Some(match flags & 0xff {
        0x036 => "gfx1030",
        0x037 => "gfx1031",
        0x038 => "gfx1032",
        0x039 => "gfx1033",
        0x03d => "gfx1034",
        0x03e => "gfx1035",
        0x045 => "gfx1036",
        0x041 => "gfx1100",
        _ => return None,
    })
}

impl CodeObject {
    pub fn parse(data: &[u8]) -> Result<CodeObject, Error> {
        let file = object::File::parse(data)?;
        let (machine, flags) = match &file {
            object::File::Elf64(elf) => {
                let h = elf.elf_header();
                let e = elf.endian();
                (h.e_machine.get(e), h.e_flags.get(e))
            }
            _ => (0, 0),
        };
        if machine != EM_AMDGPU {
            return Err(Error::Machine(machine));
        }
        let text = file.section_by_name(".text").ok_or(Error::NoText)?;
        let text_addr = text.address();
        let bytes = text.data()?.to_vec();
        let mut functions = Vec::new();
        for sym in file.symbols() {
            if sym.kind() != SymbolKind::Text || sym.section_index() != Some(text.index()) {
                continue;
            }
            let name = sym.name().unwrap_or("").to_string();
            let (addr, size) = (sym.address(), sym.size());
            let end = text_addr + bytes.len() as u64;
            if addr < text_addr || addr.checked_add(size).map_or(true, |e| e > end) {
                return Err(Error::SymbolOutside { name, addr, size });
            }
            functions.push(Function { name, addr, size });
        }
        functions.sort_by_key(|f| f.addr);
        Ok(CodeObject { text: bytes, text_addr, functions, mcpu: mach_name(flags) })
    }

    /// The bytes of one function.
    pub fn code(&self, f: &Function) -> &[u8] {
        let start = (f.addr - self.text_addr) as usize;
        &self.text[start..start + f.size as usize]
    }

    /// The bytes from a function's start up to the next function (or the end of `.text`), which is
    /// what `llvm-objdump -d` lists under the function's label (padding included).
    pub fn code_to_next(&self, f: &Function) -> &[u8] {
        let start = (f.addr - self.text_addr) as usize;
        let end = self
            .functions
            .iter()
            .map(|g| g.addr)
            .filter(|&a| a > f.addr)
            .min()
            .map_or(self.text.len(), |a| (a - self.text_addr) as usize);
        &self.text[start..end]
    }
}
