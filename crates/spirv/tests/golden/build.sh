#!/usr/bin/env bash
# Rebuilds the golden tests' code objects (needs clang-19 and lld-19): gfx1030 in wave32 and
# gfx1100 in wave64.
set -euo pipefail
cd "$(dirname "$0")"
for t in gfx1030:w32: gfx1100:w64:-mwavefrontsize64; do
  IFS=: read -r mcpu wave flag <<<"$t"
  clang-19 -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu="$mcpu" $flag -nogpulib -O2 -c golden.cl -o /tmp/golden.o
  ld.lld-19 -shared /tmp/golden.o -o "golden-$mcpu-$wave.hsaco"
done
