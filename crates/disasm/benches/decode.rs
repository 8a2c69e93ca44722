//! Throughput benchmark (not a test): decode-only and decode+print instructions per second, and
//! `rdna dis` against `llvm-objdump-19 -d` on the same large code object, as a ratio measured in
//! the same run.  Run with `cargo bench -p rdna-disasm`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use rdna_disasm::{print, Decoder, PrintOptions};
use rdna_isa::Target;

/// Builds a large gfx1030 code object from generated OpenCL (many kernels of unrolled math).
fn big_code_object(dir: &Path) -> PathBuf {
    let mut src = String::new();
    for k in 0..150 {
        src.push_str(&format!(
            "__kernel void k{k}(__global float *f, __global uint *u, uint n) {{\n\
             uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();\n\
             float x = f[i]; uint y = u[i];\n\
             #pragma unroll\n\
             for (int j = 0; j < 48; ++j) {{ x = x * {k}.5f + (float)(y >> (j & 7)); y = y * 2654435761u + (uint)x; if (y & {k}) x = -x; }}\n\
             f[i] = x; u[i] = y; }}\n"
        ));
    }
    let cl = dir.join("big.cl");
    std::fs::write(&cl, src).unwrap();
    let obj = dir.join("big.o");
    let hsaco = dir.join("big.hsaco");
    let ok = Command::new("clang-19")
        .args(["-x", "cl", "-cl-std=CL2.0", "--target=amdgcn-amd-amdhsa", "-mcpu=gfx1030", "-nogpulib", "-O2", "-c"])
        .arg(&cl)
        .arg("-o")
        .arg(&obj)
        .status()
        .expect("clang-19")
        .success();
    assert!(ok);
    assert!(Command::new("ld.lld-19").arg("-shared").arg(&obj).arg("-o").arg(&hsaco).status().unwrap().success());
    hsaco
}

fn best_of<F: FnMut()>(n: usize, mut f: F) -> f64 {
    (0..n)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let dir = std::env::temp_dir().join(format!("rdna-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let hsaco = big_code_object(&dir);
    let data = std::fs::read(&hsaco).unwrap();
    let co = rdna_hsa::CodeObject::parse(&data).unwrap();
    let dec = Decoder::new(Target::from_name("gfx1030").unwrap());

    // The instruction stream: all of .text, repeated to about 8 MiB.
    let mut code = Vec::new();
    while code.len() < 8 << 20 {
        code.extend_from_slice(&co.text);
    }
    let count = |code: &[u8]| {
        let (mut off, mut n) = (0, 0u64);
        while off + 4 <= code.len() {
            off += dec.decode_at(code, off).map_or(4, |(_, l)| l);
            n += 1;
        }
        n
    };
    let n = count(&code);
    let t_dec = best_of(5, || {
        std::hint::black_box(count(std::hint::black_box(&code)));
    });
    let mut s = String::with_capacity(128);
    let t_print = best_of(3, || {
        let mut off = 0;
        while off + 4 <= code.len() {
            match dec.decode_at(&code, off) {
                Ok((inst, l)) => {
                    s.clear();
                    let _ = print(&inst, PrintOptions::default(), &mut s);
                    std::hint::black_box(&s);
                    off += l;
                }
                Err(_) => off += 4,
            }
        }
    });
    println!("instructions in stream: {n} ({} bytes)", code.len());
    println!("decode only:    {:8.1} M instructions/s (one core)", n as f64 / t_dec / 1e6);
    println!("decode + print: {:8.1} M instructions/s (one core)", n as f64 / t_print / 1e6);

    // rdna dis vs llvm-objdump-19 -d on the same code object, output to /dev/null.
    let rdna = env!("CARGO_MANIFEST_DIR").to_string() + "/../../target/release/rdna";
    let have_rdna = Path::new(&rdna).exists();
    let run = |cmd: &str, args: &[&str]| {
        best_of(3, || {
            let st = Command::new(cmd).args(args).stdout(std::process::Stdio::null()).status().unwrap();
            assert!(st.success());
        })
    };
    let h = hsaco.to_str().unwrap();
    let t_llvm = run("llvm-objdump-19", &["-d", h]);
    let kernel_insts = count(&co.text);
    println!("code object: {} functions, {} instructions", co.functions.len(), kernel_insts);
    println!("llvm-objdump-19 -d: {:.3} s ({:.2} M instructions/s)", t_llvm, kernel_insts as f64 / t_llvm / 1e6);
    if have_rdna {
        let t_rdna = run(&rdna, &["dis", h]);
        println!("rdna dis:           {:.3} s ({:.2} M instructions/s)", t_rdna, kernel_insts as f64 / t_rdna / 1e6);
        println!("ratio: rdna dis is {:.1}x faster than llvm-objdump-19 -d", t_llvm / t_rdna);
    } else {
        println!("(build target/release/rdna first — cargo build --release — for the rdna dis ratio)");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
