#!/usr/bin/env bash
# The recompiler's corpus test on a machine with a GPU but no clang-19 (the H200 machine, say).
#
#   scripts/gpu-corpus.sh prepare DIR   # here: build the test and the corpus code objects into DIR
#   scripts/gpu-corpus.sh run DIR       # there, with DIR copied over: run it on the Vulkan device
#
# The run prints how many builds are identical to the emulator and how many ran in the subgroup
# wave model; RDNA_VK_DEVICE picks the device, RDNA_WAVE_MODEL forces a model.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  prepare)
    dir=$(realpath -m "${2:?usage: $0 prepare DIR}")
    mkdir -p "$dir/pre"
    # One quick run builds every corpus code object into DIR/pre (and checks one kernel).
    RDNA_SCRATCH="$dir/pre" RDNA_CORPUS_ONLY=k_saxpy cargo test --release -p rdna-vk --test corpus -q
    bin=$(cargo test --release -p rdna-vk --test corpus --no-run 2>&1 | sed -n 's/.*Executable tests\/corpus.rs (\(.*\))/\1/p' | tail -1)
    cp "$bin" "$dir/corpus"
    strip "$dir/corpus" 2>/dev/null || true
    echo "prepared $dir: copy it to the GPU machine and run: scripts/gpu-corpus.sh run DIR"
    ;;
  run)
    dir=$(realpath "${2:?usage: $0 run DIR}")
    RDNA_ROOT="$PWD" RDNA_PREBUILT="$dir/pre" "$dir/corpus" --nocapture 2>&1 | grep -v '^  gfx'
    ;;
  *)
    sed -n '2,9p' "$0"
    exit 2
    ;;
esac
