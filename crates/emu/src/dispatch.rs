//! The dispatch file (`rdna run`): which kernel, grid and workgroup sizes, buffers and
//! arguments. Shared by every backend.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rdna_hsa::{ArgMeta, CodeObject};
use serde::Deserialize;

use crate::{Error, Launch, Memory, Options, Stats};

/// The JSON dispatch file, as written by users.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DispatchFile {
    pub code_object: String,
    pub kernel: String,
    pub grid: Vec<u32>,
    pub workgroup: Vec<u32>,
    #[serde(default)]
    pub buffers: BTreeMap<String, BufferSpec>,
    #[serde(default)]
    pub args: Vec<Arg>,
    /// Extra LDS for kernels that use dynamic group memory.
    #[serde(default)]
    pub dynamic_lds: u32,
}

/// A buffer: initial contents from a file, a size (zero-filled beyond the file), or both.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BufferSpec {
    pub file: Option<String>,
    pub size: Option<u64>,
}

/// One explicit kernel argument.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Arg {
    Buffer(String),
    /// A `__local` pointer argument: this many bytes of LDS, allocated after the kernel's own
    /// (the argument receives their LDS address).
    Local(u32),
    /// Any by-value argument as raw little-endian bytes (vectors such as `float4`, structs).
    Bytes(Vec<u8>),
    U32(u32),
    I32(i32),
    U64(u64),
    I64(i64),
    F32(f32),
    F64(f64),
}

/// A dispatch file with its code object and buffers loaded and checked against the kernel.
pub struct Prepared {
    pub dir: PathBuf,
    pub file: DispatchFile,
    pub code: CodeObject,
    pub kernel: usize,
    /// (name, initial bytes, size)
    pub buffers: Vec<(String, Vec<u8>, u64)>,
    pub grid: [u32; 3],
    pub workgroup: [u32; 3],
}

/// Buffers after a run, by name, and the run's statistics.
pub struct Outputs {
    pub buffers: Vec<(String, Vec<u8>)>,
    pub stats: Stats,
}

fn dims(v: &[u32], what: &str) -> Result<[u32; 3], String> {
    if v.is_empty() || v.len() > 3 {
        return Err(format!("'{what}' must have 1 to 3 elements, has {}", v.len()));
    }
    let mut d = [1u32; 3];
    d[..v.len()].copy_from_slice(v);
    if d.contains(&0) {
        return Err(format!("'{what}' {v:?} has a zero dimension"));
    }
    Ok(d)
}

/// Largest buffer a dispatch may declare (guards against absurd sizes in hostile files).
const MAX_BUFFER: u64 = 8 << 30;

impl Prepared {
    pub fn load(path: &Path) -> Result<Prepared, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let file: DispatchFile = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Prepared::from_file(file, &dir)
    }

    pub fn from_file(file: DispatchFile, dir: &Path) -> Result<Prepared, String> {
        let co_path = dir.join(&file.code_object);
        let bytes = std::fs::read(&co_path).map_err(|e| format!("code object {}: {e}", co_path.display()))?;
        let code = CodeObject::parse(&bytes).map_err(|e| format!("code object {}: {e}", co_path.display()))?;
        let kernel = code.kernels.iter().position(|k| k.name == file.kernel).ok_or_else(|| {
            let names: Vec<&str> = code.kernels.iter().map(|k| k.name.as_str()).collect();
            format!("kernel '{}' is not in {} (it has: {})", file.kernel, co_path.display(), names.join(", "))
        })?;
        let grid = dims(&file.grid, "grid")?;
        let workgroup = dims(&file.workgroup, "workgroup")?;
        let mut buffers = Vec::new();
        for (name, spec) in &file.buffers {
            let data = match &spec.file {
                Some(f) => {
                    let p = dir.join(f);
                    std::fs::read(&p).map_err(|e| format!("buffer '{name}': {}: {e}", p.display()))?
                }
                None => Vec::new(),
            };
            let size = match spec.size {
                Some(s) if s < data.len() as u64 => {
                    return Err(format!("buffer '{name}': size {s} is smaller than its file ({} bytes)", data.len()))
                }
                Some(s) => s,
                None if spec.file.is_some() => data.len() as u64,
                None => return Err(format!("buffer '{name}' needs a 'file' or a 'size'")),
            };
            if size > MAX_BUFFER {
                return Err(format!("buffer '{name}': size {size} exceeds the {MAX_BUFFER}-byte limit"));
            }
            buffers.push((name.clone(), data, size));
        }
        let total: u64 = buffers.iter().map(|(_, _, s)| *s).sum();
        if total > MAX_BUFFER {
            return Err(format!("the buffers add up to {total} bytes, more than the {MAX_BUFFER}-byte limit"));
        }
        let p = Prepared { dir: dir.to_path_buf(), file, code, kernel, buffers, grid, workgroup };
        p.check_args()?;
        Ok(p)
    }

    fn explicit_args(&self) -> Vec<&ArgMeta> {
        let k = &self.code.kernels[self.kernel];
        k.meta.as_ref().map(|m| m.args.iter().filter(|a| !a.is_hidden()).collect()).unwrap_or_default()
    }

    fn check_args(&self) -> Result<(), String> {
        let k = &self.code.kernels[self.kernel];
        if k.meta.is_none() {
            return Err(format!("kernel '{}' has no metadata describing its arguments", k.name));
        }
        let metas = self.explicit_args();
        if metas.len() != self.file.args.len() {
            return Err(format!("kernel '{}' takes {} arguments, the dispatch gives {}", k.name, metas.len(), self.file.args.len()));
        }
        for (i, (a, m)) in self.file.args.iter().zip(&metas).enumerate() {
            let size = match a {
                Arg::Local(_) => {
                    if m.value_kind != "dynamic_shared_pointer" {
                        return Err(format!("argument {i} ({}) is a {}, not a __local pointer", m.name.as_deref().unwrap_or("?"), m.value_kind));
                    }
                    continue;
                }
                Arg::Buffer(b) => {
                    if !self.buffers.iter().any(|(n, _, _)| n == b) {
                        return Err(format!("argument {i}: no buffer named '{b}'"));
                    }
                    if m.value_kind != "global_buffer" {
                        return Err(format!("argument {i} ({}) is a {}, not a buffer", m.name.as_deref().unwrap_or("?"), m.value_kind));
                    }
                    8
                }
                Arg::U32(_) | Arg::I32(_) | Arg::F32(_) => 4,
                Arg::U64(_) | Arg::I64(_) | Arg::F64(_) => 8,
                Arg::Bytes(b) => b.len() as u32,
            };
            if !matches!(a, Arg::Buffer(_)) && (m.size != size || m.value_kind != "by_value") {
                return Err(format!(
                    "argument {i} ({}): kernel expects {} of {} bytes, the dispatch gives a {size}-byte scalar",
                    m.name.as_deref().unwrap_or("?"),
                    m.value_kind,
                    m.size
                ));
            }
        }
        Ok(())
    }

    /// Lays out the kernel argument segment, explicit and hidden arguments.
    pub fn kernarg(&self, buffer_addr: &dyn Fn(&str) -> u64) -> Vec<u8> {
        let k = &self.code.kernels[self.kernel];
        let meta = k.meta.as_ref();
        // Capped: a hostile descriptor's size is refused by `run`, not allocated here.
        let size = (meta.map_or(0, |m| m.kernarg_segment_size).max(k.kd.kernarg_size) as usize).min((1 << 20) + 1);
        let mut seg = vec![0u8; size.max(256)];
        let mut put = |off: u32, bytes: &[u8]| {
            let o = off as usize;
            if let Some(dst) = seg.get_mut(o..o + bytes.len()) {
                dst.copy_from_slice(bytes);
            }
        };
        let metas = self.explicit_args();
        let mut lds_end = k.kd.group_segment_fixed_size;
        for (a, m) in self.file.args.iter().zip(&metas) {
            match a {
                Arg::Local(bytes) => {
                    let align = m.pointee_align.unwrap_or(4).max(1);
                    let at = lds_end.next_multiple_of(align);
                    put(m.offset, &at.to_le_bytes());
                    lds_end = at + bytes;
                }
                Arg::Buffer(b) => put(m.offset, &buffer_addr(b).to_le_bytes()),
                Arg::U32(v) => put(m.offset, &v.to_le_bytes()),
                Arg::I32(v) => put(m.offset, &v.to_le_bytes()),
                Arg::U64(v) => put(m.offset, &v.to_le_bytes()),
                Arg::I64(v) => put(m.offset, &v.to_le_bytes()),
                Arg::F32(v) => put(m.offset, &v.to_le_bytes()),
                Arg::F64(v) => put(m.offset, &v.to_le_bytes()),
                Arg::Bytes(b) => put(m.offset, b),
            }
        }
        let (g, wg) = (self.grid, self.workgroup);
        for m in meta.map(|m| m.args.as_slice()).unwrap_or_default() {
            let d = |s: &str| match s.chars().last() {
                Some('y') => 1,
                Some('z') => 2,
                _ => 0,
            };
            let kind = m.value_kind.as_str();
            match kind {
                _ if kind.starts_with("hidden_block_count_") => put(m.offset, &g[d(kind)].div_ceil(wg[d(kind)]).to_le_bytes()),
                _ if kind.starts_with("hidden_group_size_") => put(m.offset, &(wg[d(kind)] as u16).to_le_bytes()),
                _ if kind.starts_with("hidden_remainder_") => put(m.offset, &((g[d(kind)] % wg[d(kind)]) as u16).to_le_bytes()),
                _ if kind.starts_with("hidden_global_offset_") => put(m.offset, &0u64.to_le_bytes()),
                "hidden_grid_dims" => put(m.offset, &(if g[2] > 1 { 3u16 } else if g[1] > 1 { 2 } else { 1 }).to_le_bytes()),
                "hidden_dynamic_lds_size" => put(m.offset, &self.dynamic_lds().to_le_bytes()),
                "hidden_private_base" => put(m.offset, &crate::wave::PRIVATE_APERTURE_HI.to_le_bytes()),
                "hidden_shared_base" => put(m.offset, &crate::wave::SHARED_APERTURE_HI.to_le_bytes()),
                _ => {}
            }
        }
        seg
    }

    /// LDS beyond the kernel's own: the `dynamic_lds` field plus every `local` argument (with
    /// its alignment padding).
    pub fn dynamic_lds(&self) -> u32 {
        let k = &self.code.kernels[self.kernel];
        let metas = self.explicit_args();
        let mut end = k.kd.group_segment_fixed_size;
        for (a, m) in self.file.args.iter().zip(&metas) {
            if let Arg::Local(bytes) = a {
                end = end.next_multiple_of(m.pointee_align.unwrap_or(4).max(1)) + bytes;
            }
        }
        end - k.kd.group_segment_fixed_size + self.file.dynamic_lds
    }

    /// The emulator's launch, with every buffer mapped into `mem` under its name.
    pub fn launch(&self, mem: &mut Memory) -> Launch<'_> {
        let mut addrs = BTreeMap::new();
        for (name, data, size) in &self.buffers {
            addrs.insert(name.clone(), mem.map(name, data, (*size).max(1)));
        }
        let kernarg = self.kernarg(&|b| addrs.get(b).copied().unwrap_or(0));
        Launch {
            code: &self.code,
            kernel: &self.code.kernels[self.kernel],
            grid: self.grid,
            workgroup: self.workgroup,
            kernarg,
            dynamic_lds: self.dynamic_lds(),
        }
    }

    /// Runs the dispatch on the emulator.
    pub fn run_emu(&self, opts: &Options) -> Result<Outputs, Error> {
        let mut mem = Memory::new();
        let launch = self.launch(&mut mem);
        let stats = crate::run(&launch, &mut mem, opts)?;
        let buffers = self
            .buffers
            .iter()
            .map(|(name, _, size)| {
                let mut b = mem.contents(name).unwrap_or_default();
                b.truncate(*size as usize);
                (name.clone(), b)
            })
            .collect();
        Ok(Outputs { buffers, stats })
    }
}
