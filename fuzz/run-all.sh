#!/usr/bin/env bash
# Runs every cargo-fuzz target under libFuzzer for SECONDS each (default 600), one after another,
# starting from the seeds the smoke test uses (real code objects, dispatch files, valid
# instruction streams, assembly). Prints each target's executions; a crash stops its target and is
# copied to fuzz/regressions/<target>/, where the smoke test replays it from then on.
#
#   fuzz/run-all.sh [SECONDS] [TARGET...]      (needs nightly and cargo-fuzz 0.13)
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(decode_print assemble code_object dispatch emulate recompile)
mkdir -p corpus logs
# Seeds: the smoke test writes them when RDNA_FUZZ_SEEDS_OUT is set (a tenth of a second of fuzzing).
(cd .. && RDNA_FUZZ_SECONDS=0.1 RDNA_FUZZ_SEEDS_OUT="$PWD/fuzz/corpus" cargo test -q -p rdna-fuzzing --test smoke every_fuzz_target >/dev/null)
for t in "${targets[@]}"; do
  log=logs/$t.log
  set +e
  cargo +nightly fuzz run -O "$t" "corpus/$t" -- -max_total_time="$secs" -rss_limit_mb=4096 -print_final_stats=1 >"$log" 2>&1
  rc=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  echo "$t: ${runs:-?} executions in ${secs} s (exit $rc)"
  for a in artifacts/"$t"/*; do
    [ -e "$a" ] || continue
    mkdir -p "regressions/$t"
    cp "$a" "regressions/$t/"
    echo "  kept $a as regressions/$t/$(basename "$a")"
  done
done
