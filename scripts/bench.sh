#!/usr/bin/env bash
# The benchmark suite: builds rdna and rdna-bench (release) and runs every section, printing each
# figure beside its peer's from the same run; the report goes to target/bench/ (report.md,
# report.tsv, scaling.svg). Arguments go to rdna-bench: --only dis,emu,recompile,gpu, --quick,
# --out DIR. Needs clang-19, lld-19, llvm-19 and spirv-tools; the GPU section needs a Vulkan GPU
# (and nvcc for the CUDA peer). BENCHMARKS.md records a run.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p rdna-cli -p rdna-bench
exec target/release/rdna-bench "$@"
