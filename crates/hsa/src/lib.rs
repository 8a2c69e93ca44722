//! AMDHSA code objects: the ELF container, its code and the kernels in it.
//!
//! Parsing uses the `object` crate; everything malformed is an [`Error`] naming what is wrong.

use object::{Object, ObjectSection, ObjectSymbol, SymbolKind};

pub mod kd;
pub mod metadata;

pub use kd::{KernelDescriptor, SgprInput};
pub use metadata::{ArgMeta, KernelMeta, Metadata};

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
    #[error("kernel descriptor '{name}' at {addr:#x} is not 64 bytes inside a loaded section")]
    BadDescriptor { name: String, addr: u64 },
    #[error("kernel '{name}': entry point {entry:#x} (descriptor {kd:#x} {offset:+#x}) lies outside .text")]
    BadEntry { name: String, kd: u64, offset: i64, entry: u64 },
    #[error("NT_AMDGPU_METADATA note: {0}")]
    Metadata(String),
    #[error("unsupported code object ABI version {0} (rdna reads v4, v5 and v6)")]
    AbiVersion(u8),
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
    /// Code object version (4, 5 or 6), from the ELF ABI version byte.
    pub version: u8,
    /// Every kernel: a `<name>.kd` descriptor symbol with its entry point and metadata.
    pub kernels: Vec<Kernel>,
    /// The decoded metadata note, when present.
    pub metadata: Option<Metadata>,
    /// Every allocated section but `.text` as (virtual address, bytes; zeros for NOBITS): with
    /// `text`, the image a loader places in memory, so that code can reach its read-only data
    /// PC-relatively. (`.text` is not copied twice: a large code object's copies were a
    /// measurable part of `rdna dis`'s time.)
    pub image: Vec<(u64, Vec<u8>)>,
    /// Whether `.text` is an allocated section, so part of the loaded image.
    pub text_loaded: bool,
}

/// One kernel of a code object.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub name: String,
    /// Address of the kernel descriptor.
    pub kd_addr: u64,
    pub kd: KernelDescriptor,
    /// Address of the first instruction (descriptor address + entry offset).
    pub entry: u64,
    /// This kernel's entry in the metadata note (matched by `.symbol` or `.name`).
    pub meta: Option<KernelMeta>,
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
        0x046 => "gfx1101",
        0x047 => "gfx1102",
        0x044 => "gfx1103",
        0x043 => "gfx1150",
        0x04a => "gfx1151",
        0x055 => "gfx1152",
        _ => return None,
    })
}

/// Largest span of addresses a code object's loaded image may cover (a hostile file could place
/// sections terabytes apart).
pub const MAX_IMAGE_SPAN: u64 = 1 << 28;

impl CodeObject {
    /// The loaded image as one byte range: the lowest section address and the bytes from there
    /// to the end of the highest section (gaps zeroed), as a loader lays it out in memory.
    pub fn flat_image(&self) -> Result<(u64, Vec<u8>), String> {
        let text = self.text_loaded.then_some((self.text_addr, &self.text[..]));
        let sections = || self.image.iter().map(|(a, d)| (*a, &d[..])).chain(text);
        let lo = sections().map(|(a, _)| a).min().unwrap_or(0);
        let hi = sections().map(|(a, d)| a.saturating_add(d.len() as u64)).max().unwrap_or(0);
        if hi - lo > MAX_IMAGE_SPAN {
            return Err(format!("the code object's loaded sections span {:#x} bytes (limit {MAX_IMAGE_SPAN:#x})", hi - lo));
        }
        let mut img = vec![0u8; (hi - lo) as usize];
        for (a, d) in sections() {
            let o = (a - lo) as usize;
            img[o..o + d.len()].copy_from_slice(d);
        }
        Ok((lo, img))
    }

    pub fn parse(data: &[u8]) -> Result<CodeObject, Error> {
        let file = object::File::parse(data)?;
        let (machine, flags, abi) = match &file {
            object::File::Elf64(elf) => {
                let h = elf.elf_header();
                let e = elf.endian();
                (h.e_machine.get(e), h.e_flags.get(e), h.e_ident.abi_version)
            }
            _ => (0, 0, 0),
        };
        if machine != EM_AMDGPU {
            return Err(Error::Machine(machine));
        }
        // ELFABIVERSION_AMDGPU_HSA_V4 = 2, V5 = 3, V6 = 4.
        let version = match abi {
            2..=4 => abi + 2,
            v => return Err(Error::AbiVersion(v)),
        };
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
        let metadata = read_metadata(&file)?;
        let mut image = Vec::new();
        let mut text_loaded = false;
        for s in file.sections() {
            let object::SectionFlags::Elf { sh_flags } = s.flags() else { continue };
            // SHF_ALLOC = 2; limit sizes so a hostile header cannot ask for huge zero fills.
            if sh_flags & 2 == 0 || s.size() == 0 || s.size() > 1 << 30 {
                continue;
            }
            if s.index() == text.index() {
                text_loaded = true;
                continue;
            }
            let data = match s.kind() {
                object::SectionKind::UninitializedData => vec![0; s.size() as usize],
                _ => s.data()?.to_vec(),
            };
            image.push((s.address(), data));
        }
        let kernels = read_kernels(&file, text_addr, bytes.len() as u64, metadata.as_ref())?;
        Ok(CodeObject { text: bytes, text_addr, functions, mcpu: mach_name(flags), version, kernels, metadata, image, text_loaded })
    }

    /// The kernel named `name` (without the `.kd` suffix).
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.name == name)
    }

    /// The code of a kernel from its entry point to the end of `.text` (the kernel may branch
    /// anywhere after its entry; the function symbol's size is not trusted for that).
    pub fn kernel_code(&self, k: &Kernel) -> &[u8] {
        &self.text[(k.entry - self.text_addr) as usize..]
    }

    /// The bytes of one function.
    pub fn code(&self, f: &Function) -> &[u8] {
        let start = (f.addr - self.text_addr) as usize;
        &self.text[start..start + f.size as usize]
    }

    /// The `.text` byte range of the function that holds byte offset `off` of `.text` (its
    /// symbol's size, or up to the next function where the size is 0).
    pub fn function_range(&self, off: u64) -> Option<(usize, usize)> {
        let f = self.functions.iter().filter(|f| f.addr >= self.text_addr && f.addr - self.text_addr <= off).max_by_key(|f| f.addr)?;
        let start = (f.addr - self.text_addr) as usize;
        let end = if f.size > 0 { start + f.size as usize } else { start + self.code_to_next(f).len() };
        (off < end as u64 && end <= self.text.len()).then_some((start, end))
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

/// Reads the AMDGPU metadata note (owner "AMDGPU", type NT_AMDGPU_METADATA = 32), if present.
fn read_metadata(file: &object::File) -> Result<Option<Metadata>, Error> {
    use object::read::elf::SectionHeader as _;
    let object::File::Elf64(elf) = file else { return Ok(None) };
    let endian = elf.endian();
    for section in elf.sections() {
        let Some(mut notes) = section.elf_section_header().notes(endian, elf.data())? else { continue };
        while let Some(note) = notes.next()? {
            if note.name() == b"AMDGPU" && note.n_type(endian) == 32 {
                return Metadata::parse(note.desc()).map(Some).map_err(Error::Metadata);
            }
        }
    }
    Ok(None)
}

/// Finds every `<name>.kd` object symbol, reads its descriptor and resolves its entry point.
fn read_kernels(file: &object::File, text_addr: u64, text_len: u64, meta: Option<&Metadata>) -> Result<Vec<Kernel>, Error> {
    let mut kernels = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for sym in file.symbols().chain(file.dynamic_symbols()) {
        let Ok(name) = sym.name() else { continue };
        let Some(kname) = name.strip_suffix(".kd") else { continue };
        if sym.kind() != SymbolKind::Data || !seen.insert(name.to_string()) {
            continue;
        }
        let addr = sym.address();
        let bad = || Error::BadDescriptor { name: name.to_string(), addr };
        let section = sym.section_index().and_then(|i| file.section_by_index(i).ok()).ok_or_else(bad)?;
        let data = section.data()?;
        let off = addr.checked_sub(section.address()).ok_or_else(bad)? as usize;
        let kd = data.get(off..).and_then(KernelDescriptor::parse).ok_or_else(bad)?;
        let entry = addr.checked_add_signed(kd.kernel_code_entry_byte_offset);
        let entry = match entry {
            Some(e) if e >= text_addr && e < text_addr + text_len && e % 4 == 0 => e,
            _ => {
                return Err(Error::BadEntry {
                    name: kname.to_string(),
                    kd: addr,
                    offset: kd.kernel_code_entry_byte_offset,
                    entry: entry.unwrap_or(0),
                })
            }
        };
        let meta = meta.and_then(|m| m.kernels.iter().find(|k| k.symbol == name || k.name == kname)).cloned();
        kernels.push(Kernel { name: kname.to_string(), kd_addr: addr, kd, entry, meta });
    }
    kernels.sort_by_key(|k| k.entry);
    Ok(kernels)
}
