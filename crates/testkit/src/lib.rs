//! Helpers the workspace's tests share: where the repository is, and building test kernels
//! (OpenCL C or assembly) into code objects with clang-19 and ld.lld-19, and seeded random values.

use std::path::{Path, PathBuf};
use std::process::Command;

use rdna_hsa::CodeObject;

/// The repository root (`RDNA_ROOT` when a test binary runs from another checkout, as
/// `scripts/gpu-corpus.sh run` does).
pub fn root() -> PathBuf {
    match std::env::var_os("RDNA_ROOT") {
        Some(r) => PathBuf::from(r),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."),
    }
}

/// A scratch directory for this test process (`RDNA_SCRATCH=DIR` names one, to keep what the
/// tests build: `scripts/gpu-corpus.sh` takes the corpus code objects from there).
pub fn scratch() -> PathBuf {
    let dir = match std::env::var_os("RDNA_SCRATCH") {
        Some(d) => PathBuf::from(d),
        None => std::env::temp_dir().join(format!("rdna-tests-{}", std::process::id())),
    };
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A path for a temporary file no other call of this process gets, though tests run in
/// parallel and may pass the same tag.
pub fn temp_path(tag: &str) -> PathBuf {
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tag: String = tag.chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c } else { '_' }).collect();
    std::env::temp_dir().join(format!("rdna-{}-{call}-{tag}", std::process::id()))
}

/// Compiles `src` (OpenCL C, or assembly with `-x assembler`) for `mcpu` and links a code
/// object; returns its path. `tag` keeps builds of one file with different flags apart.
///
/// With `RDNA_PREBUILT=DIR`, the code object is `DIR/<stem>-<mcpu>-<tag>.hsaco`, built
/// earlier (a copy of a scratch directory): for machines without clang-19, such as the GPU
/// machine the corpus runs on.
pub fn build(src: &Path, mcpu: &str, tag: &str, extra: &[&str]) -> PathBuf {
    let dir = scratch();
    let stem = src.file_stem().unwrap().to_str().unwrap();
    if let Some(pre) = std::env::var_os("RDNA_PREBUILT") {
        let p = Path::new(&pre).join(format!("{stem}-{mcpu}-{tag}.hsaco"));
        assert!(p.exists(), "RDNA_PREBUILT: {} is missing", p.display());
        return p;
    }
    // Built under names of this call's own and renamed into place at the end: tests run in
    // parallel, and two may build the same kernel at once.
    let hsaco = dir.join(format!("{stem}-{mcpu}-{tag}.hsaco"));
    let unique = temp_path("");
    let unique = unique.file_name().unwrap().to_str().unwrap();
    let obj = dir.join(format!("{stem}-{mcpu}-{tag}.{unique}.o"));
    let linked = dir.join(format!("{stem}-{mcpu}-{tag}.{unique}.hsaco"));
    let out = Command::new("clang-19")
        .args(["--target=amdgcn-amd-amdhsa", &format!("-mcpu={mcpu}"), "-nogpulib", "-O2", "-c"])
        .args(extra)
        .arg(src)
        .arg("-o")
        .arg(&obj)
        .output()
        .expect("clang-19 must be installed (see .ci/run)");
    assert!(out.status.success(), "clang-19 failed on {}:\n{}", src.display(), String::from_utf8_lossy(&out.stderr));
    let st = Command::new("ld.lld-19").arg("-shared").arg(&obj).arg("-o").arg(&linked).status().expect("ld.lld-19");
    assert!(st.success());
    let _ = std::fs::remove_file(&obj);
    std::fs::rename(&linked, &hsaco).unwrap();
    hsaco
}

/// A kernel of 128 `s_nop 0` and `s_endpgm` for `mcpu`, every VGPR and 4 KiB of LDS allocated:
/// random instruction streams are written over its first instructions (the recompiler's random
/// stream test and fuzz target).
pub fn stream_template(mcpu: &str, wave64: bool) -> CodeObject {
    let nops = "    s_nop 0\n".repeat(128);
    let source = format!(
        r#"    .amdgcn_target "amdgcn-amd-amdhsa--{mcpu}"
    .text
    .globl k
    .p2align 8
    .type k,@function
k:
{nops}    s_endpgm
    .rodata
    .p2align 6
    .amdhsa_kernel k
        .amdhsa_next_free_vgpr 256
        .amdhsa_next_free_sgpr 104
        .amdhsa_user_sgpr_kernarg_segment_ptr 1
        .amdhsa_wavefront_size32 {w32}
        .amdhsa_float_denorm_mode_32 3
        .amdhsa_group_segment_fixed_size 4096
    .end_amdhsa_kernel
"#,
        w32 = if wave64 { 0 } else { 1 }
    );
    let dir = scratch().join("streams");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let path = dir.join(format!("template-{mcpu}-{}.s", if wave64 { 64 } else { 32 }));
    std::fs::write(&path, source).expect("template source");
    compile_for(&path, mcpu, "streams", if wave64 { &["-mwavefrontsize64"] } else { &[] })
}

/// [`build`], parsed.
pub fn compile_for(src: &Path, mcpu: &str, tag: &str, extra: &[&str]) -> CodeObject {
    CodeObject::parse(&std::fs::read(build(src, mcpu, tag, extra)).unwrap()).unwrap()
}

/// The OpenCL C test kernels: (path, the one target they are for, or None for every target).
pub fn kernel_sources() -> Vec<(PathBuf, Option<&'static str>)> {
    let dir = root().join("tests/kernels");
    let mut files = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "cl") {
            files.push((p, None));
        }
    }
    for e in std::fs::read_dir(dir.join("gfx11")).unwrap() {
        files.push((e.unwrap().path(), Some("gfx1100")));
    }
    files.sort();
    files
}

/// Assembles code for a target with `llvm-mc-19 -show-encoding` (the encoding oracle) and returns
/// its bytes. Branch offsets must be numbers (labels would leave fixups unresolved).
pub fn asm_for(mcpu: &str, text: &str, wave64: bool) -> Vec<u8> {
    use std::io::Write;
    let mut cmd = Command::new("llvm-mc-19");
    cmd.args(["-arch=amdgcn", &format!("-mcpu={mcpu}"), "-show-encoding"]);
    if wave64 {
        cmd.arg("-mattr=+wavefrontsize64");
    }
    let mut child = cmd
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("llvm-mc-19 must be installed");
    child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "llvm-mc-19 rejected:\n{text}\n{}", String::from_utf8_lossy(&out.stderr));
    let mut bytes = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        if let Some(enc) = line.split("encoding: [").nth(1) {
            for b in enc.trim_end_matches(']').split(',') {
                bytes.push(u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).unwrap());
            }
        }
    }
    bytes
}

/// A launch of any kernel with inputs that need no knowledge of it: every buffer argument gets
/// its own zeroed 256 KiB, by-value arguments are small (64), `__local` arguments 4 KiB each,
/// and the grid is 256 work-items in workgroups of 64 (16×16 over 32×32 for matmul kernels,
/// one wave32 for WMMA kernels). Returns the launch and its memory.
pub fn plain_launch<'a>(co: &'a CodeObject, k: &'a rdna_hsa::Kernel) -> (rdna_emu::Launch<'a>, rdna_emu::Memory) {
    launch_filled(co, k, 0)
}

/// [`plain_launch`] with buffers filled from `seed` (0: zeros) with small values (each byte
/// 0..8), so that data-dependent branches go both ways while indices stay mostly in range.
pub fn launch_filled<'a>(co: &'a CodeObject, k: &'a rdna_hsa::Kernel, seed: u64) -> (rdna_emu::Launch<'a>, rdna_emu::Memory) {
    let mut mem = rdna_emu::Memory::new();
    let addrs: Vec<u64> = buffer_data(k, seed).iter().enumerate().map(|(i, d)| mem.map(&format!("b{i}"), d, PLAIN_BUFFER)).collect();
    let (kernarg, dynamic) = plain_kernarg(k, &addrs);
    let (grid, wg) = plain_grid(k);
    (rdna_emu::Launch { code: co, kernel: k, grid, workgroup: wg, kernarg, dynamic_lds: dynamic }, mem)
}

/// Size of each buffer argument of a plain launch.
pub const PLAIN_BUFFER: u64 = 256 << 10;

/// The initial contents of each buffer argument of a plain launch (see [`launch_filled`]).
pub fn buffer_data(k: &rdna_hsa::Kernel, seed: u64) -> Vec<Vec<u8>> {
    let meta = k.meta.as_ref().expect("clang-19 code objects carry metadata");
    let n = meta.args.iter().filter(|a| a.value_kind == "global_buffer").count();
    (0..n)
        .map(|i| {
            if seed == 0 {
                return vec![0; PLAIN_BUFFER as usize];
            }
            let mut x = seed ^ (i as u64 + 1).wrapping_mul(0x2545_f491_4f6c_dd1d);
            (0..PLAIN_BUFFER)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x >> 40) as u8 & 7
                })
                .collect()
        })
        .collect()
}

/// The grid and workgroup of a plain launch.
pub fn plain_grid(k: &rdna_hsa::Kernel) -> ([u32; 3], [u32; 3]) {
    let wg = if k.name.contains("matmul") { [16, 16, 1] } else if k.name.contains("wmma") { [32, 1, 1] } else { [64, 1, 1] };
    let grid = if wg[1] == 16 { [32, 32, 1] } else if k.name.contains("wmma") { [32, 1, 1] } else { [256, 1, 1] };
    (grid, wg)
}

/// The argument segment of a plain launch, given its buffers' addresses; and the dynamic LDS.
pub fn plain_kernarg(k: &rdna_hsa::Kernel, buffer_addrs: &[u64]) -> (Vec<u8>, u32) {
    let meta = k.meta.as_ref().expect("clang-19 code objects carry metadata");
    let mut kernarg = vec![0u8; meta.kernarg_segment_size.max(256) as usize];
    let mut dynamic = 0u32;
    let mut nbuf = 0;
    for a in &meta.args {
        let o = a.offset as usize;
        match a.value_kind.as_str() {
            "global_buffer" => {
                kernarg[o..o + 8].copy_from_slice(&buffer_addrs[nbuf].to_le_bytes());
                nbuf += 1;
            }
            "by_value" => kernarg[o] = 64,
            "dynamic_shared_pointer" => {
                kernarg[o..o + 4].copy_from_slice(&(k.kd.group_segment_fixed_size + dynamic).to_le_bytes());
                dynamic += 4096;
            }
            "hidden_group_size_x" => kernarg[o..o + 2].copy_from_slice(&64u16.to_le_bytes()),
            "hidden_group_size_y" | "hidden_group_size_z" => kernarg[o..o + 2].copy_from_slice(&1u16.to_le_bytes()),
            "hidden_block_count_x" => kernarg[o..o + 4].copy_from_slice(&4u32.to_le_bytes()),
            "hidden_block_count_y" | "hidden_block_count_z" => kernarg[o..o + 4].copy_from_slice(&1u32.to_le_bytes()),
            _ => {}
        }
    }
    (kernarg, dynamic)
}

/// One build of a test kernel file.
pub struct Build {
    pub mcpu: &'static str,
    pub lanes: u32,
    pub co: CodeObject,
}

/// Every test kernel file ([`kernel_sources`]) built for gfx1030 and gfx1100 in wave32 and
/// wave64 (WMMA only in wave32, the files under `gfx11/` only for gfx1100); `tag` plus the wave
/// size names the builds in the scratch directory (and under `RDNA_PREBUILT`).
pub fn corpus_builds(tag: &str) -> Vec<Build> {
    let mut builds = Vec::new();
    for (cl, only) in kernel_sources() {
        for mcpu in ["gfx1030", "gfx1100"] {
            if only.is_some_and(|t| t != mcpu) {
                continue;
            }
            for lanes in [32u32, 64] {
                if cl.to_string_lossy().contains("wmma") && lanes == 64 {
                    continue;
                }
                let co = compile_for(&cl, mcpu, &format!("{tag}{lanes}"), &cl_flags(lanes));
                builds.push(Build { mcpu, lanes, co });
            }
        }
    }
    builds
}

/// The clang-19 flags for a test kernel in a wave size.
pub fn cl_flags(lanes: u32) -> Vec<&'static str> {
    let mut args = vec!["-x", "cl", "-cl-std=CL2.0"];
    if lanes == 64 {
        args.push("-mwavefrontsize64");
    }
    args
}

/// Validates a SPIR-V module with spirv-val (spirv-tools, the oracle) for Vulkan 1.3; returns
/// its complaint, if any.
pub fn spirv_val(words: &[u32], tag: &str) -> Result<(), String> {
    let p = temp_path(&format!("{tag}.spv"));
    std::fs::write(&p, words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
    let out = Command::new("spirv-val").args(["--target-env", "vulkan1.3"]).arg(&p).output().expect("spirv-val (spirv-tools) must be installed");
    let _ = std::fs::remove_file(&p);
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
    }
}

/// A small seeded generator (xorshift64) for tests that draw many random values: the same seed
/// gives the same values on every machine. The seed must not be 0.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A random valid instruction for `dec`: 16 random bytes until they decode, one draw in
    /// `salu_one_in` made a scalar ALU encoding (so that branches stay near and scalar code is
    /// frequent). The decoded instruction and its bytes.
    pub fn instruction(&mut self, dec: &rdna_disasm::Decoder, salu_one_in: u64) -> (rdna_disasm::Inst, Vec<u8>) {
        loop {
            let mut w = [0u8; 16];
            for c in w.chunks_mut(8) {
                c.copy_from_slice(&self.next().to_le_bytes());
            }
            if self.next() % salu_one_in == 0 {
                w[3] = 0xbe | (w[3] & 1);
            }
            if let Ok((inst, len)) = dec.decode(&w) {
                return (inst, w[..len].to_vec());
            }
        }
    }
}
