#!/usr/bin/env bash
# One bounded device call over several measurement steps: `bash scripts/gpu/round.sh STEP:SECONDS …`
# runs each step of scripts/gpu/h200.sh (or `rope26` of matmul-tune.sh) under its own time limit,
# in the order given, and after each one packs everything written so far into $OUT/round.tgz (the
# device tool returns at most 8 files): a step killed by its limit still leaves what it wrote.
# The tables print at the end. Also `tune-NAME` (a step of matmul-tune.sh) and `watchdog` (watchdog.sh). Redo this session's H200 numbers (docs/benchmarks.md, 2026-12-02):
#   bash scripts/gpu/round.sh formats:150 graph:150 controls:170 ops:60 rope26:30
# (controls timed out at 170 s twice before host work and plants were kept across replays; with them
# it is estimated at 60–220 s: controls:240, or controls-a:150 controls-b:150 as two halves)
set -uo pipefail
FINAL=${OUT:-$PWD/gpu-out}
WORK=$(mktemp -d)
mkdir -p "$FINAL"
for spec in "$@"; do
  step=${spec%%:*}; secs=${spec##*:}
  t0=$(date +%s)
  if [ "$step" = rope26 ]; then
    OUT=$WORK timeout "$secs" bash scripts/gpu/matmul-tune.sh rope26 > "$WORK/rope26.txt" 2>&1
  elif [ "${step#tune-}" != "$step" ]; then
    # tune-NAME: `matmul-tune.sh NAME` (its rows go to tune.txt, kept as tune-NAME.txt)
    OUT=$WORK timeout "$secs" bash scripts/gpu/matmul-tune.sh "${step#tune-}" > "$WORK/$step.log" 2>&1
    mv "$WORK/tune.txt" "$WORK/$step.txt" 2>/dev/null
  elif [ "$step" = watchdog ]; then
    OUT=$WORK timeout "$secs" bash scripts/gpu/watchdog.sh > "$WORK/watchdog.txt" 2>&1
  else
    OUT=$WORK timeout "$secs" bash scripts/gpu/h200.sh "$step" > "$WORK/step-$step.log" 2>&1
  fi
  echo "### $step: rc=$? in $(( $(date +%s) - t0 )) s (limit $secs s)" | tee -a "$WORK/round.log"
  tar czf "$FINAL/round.tgz" -C "$WORK" . 2>/dev/null
done
# The tables, last (the tail of the output is what comes back in the reply).
for f in "$WORK"/formats16k.txt "$WORK"/formats16kf16.txt "$WORK"/formats4k.txt "$WORK"/formatsmmvq.txt "$WORK"/formatsgemm.txt "$WORK"/formats16kt1.txt "$WORK"/formats16kt1n.txt "$WORK"/graph.txt "$WORK"/graph-native.txt "$WORK"/graph-1b.txt "$WORK"/controls.txt "$WORK"/controls-a.txt "$WORK"/controls-b.txt "$WORK"/host.txt "$WORK"/ops.txt "$WORK"/rope26.txt "$WORK"/lane-census.txt "$WORK"/lane-mulmat.txt "$WORK"/ggml-gemv.txt "$WORK"/tune-*.txt "$WORK"/watchdog.txt; do
  [ -s "$f" ] && { echo "##### $(basename "$f")"; tail -c 2500 "$f"; }
done
cat "$WORK/round.log"
