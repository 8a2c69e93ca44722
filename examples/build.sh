#!/usr/bin/env bash
# Rebuilds the bundled example code object (needs clang-19 and lld-19).
set -euo pipefail
cd "$(dirname "$0")"
clang-19 -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=gfx1030 -nogpulib -O2 -c saxpy.cl -o /tmp/saxpy.o
ld.lld-19 -shared /tmp/saxpy.o -o saxpy.hsaco
