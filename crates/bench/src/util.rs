//! What the sections share: the run's settings, timing, and building code objects with
//! clang-19 and ld.lld-19.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// The run's settings.
pub struct Ctx {
    pub quick: bool,
    pub out: PathBuf,
    /// The `rdna` binary that `rdna dis` is timed with.
    pub rdna: PathBuf,
    pub gpu_on_cpu: bool,
    /// The GPU benchmarks to run (empty: all).
    pub gpu_kernels: Vec<String>,
}

impl Ctx {
    /// A directory of the output for a section's inputs.
    pub fn dir(&self, name: &str) -> Result<PathBuf, String> {
        let d = self.out.join(name);
        std::fs::create_dir_all(&d).map_err(|e| format!("{}: {e}", d.display()))?;
        Ok(d)
    }

    pub fn reps(&self, full: usize) -> usize {
        if self.quick {
            1
        } else {
            full
        }
    }
}

/// The shortest of `n` runs of `f`, in seconds.
pub fn best_of(n: usize, mut f: impl FnMut()) -> f64 {
    (0..n.max(1))
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// The shortest of `n` runs of a command whose output goes to /dev/null, in seconds (process
/// start included, as a user sees it).
pub fn time_command(n: usize, program: &Path, args: &[&str]) -> Result<f64, String> {
    let mut err = None;
    let t = best_of(n, || match Command::new(program).args(args).stdout(Stdio::null()).stderr(Stdio::piped()).output() {
        Ok(o) if o.status.success() => {}
        Ok(o) => err = Some(format!("{} {}: {}", program.display(), args.join(" "), String::from_utf8_lossy(&o.stderr).trim())),
        Err(e) => err = Some(format!("{}: {e}", program.display())),
    });
    err.map_or(Ok(t), Err)
}

fn check(cmd: &mut Command) -> Result<(), String> {
    let what = format!("{cmd:?}");
    let o = cmd.output().map_err(|e| format!("{what}: {e}"))?;
    if o.status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed:\n{}", String::from_utf8_lossy(&o.stderr)))
    }
}

/// Compiles OpenCL C or assembly (`-x assembler` in `flags`) to an object file for `mcpu`.
pub fn compile(src: &Path, mcpu: &str, flags: &[&str], obj: &Path) -> Result<(), String> {
    check(Command::new("clang-19").args(["--target=amdgcn-amd-amdhsa", &format!("-mcpu={mcpu}"), "-nogpulib", "-O2", "-c"]).args(flags).arg(src).arg("-o").arg(obj))
}

/// Links object files into one code object.
pub fn link(objs: &[PathBuf], out: &Path) -> Result<(), String> {
    check(Command::new("ld.lld-19").arg("-shared").args(objs).arg("-o").arg(out))
}

/// One line about the machine: CPU, cores, OS.
pub fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("model name")).and_then(|l| l.split(':').nth(1)).map(|s| s.trim().to_string()))
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mem = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| s.lines().next().and_then(|l| l.split_whitespace().nth(1)).and_then(|k| k.parse::<u64>().ok()))
        .map_or(String::new(), |kb| format!(", {} GiB", kb >> 20));
    format!("machine: {cpu}, {cores} cores{mem}")
}

/// The least-squares line through points: (slope, intercept).
pub fn fit(pts: &[(f64, f64)]) -> (f64, f64) {
    let n = pts.len() as f64;
    let (mx, my) = (pts.iter().map(|p| p.0).sum::<f64>() / n, pts.iter().map(|p| p.1).sum::<f64>() / n);
    let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = pts.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    let slope = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    (slope, my - slope * mx)
}
