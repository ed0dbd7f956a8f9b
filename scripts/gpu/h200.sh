#!/usr/bin/env bash
# Redoes the lab's H200 measurements on the device machine (the device tool's `run`), carrying
# .gpu/ (../shared/device/prepare.sh) and dist-cli/ (npm run build:cli). Usage on the device:
#   bash scripts/gpu/h200.sh [STEP …]   (steps: device calibrate bench lane agreement ops replay aa
#   sensitivity controls controls-a controls-b host graph lane-census formats formats16k formats16kf16 formats4k
#   formatsmmvq formatsgemm formats16kt1 formats16kt1n formats_all lane-mulmat ggml-gemv;
#   default: device calibrate bench)
#   controls: A/A and planted 1.02×/1.05× (inside the kernel, measured ±1 point) at tolerance 0.02 on
#   ADD 4096², RMS_NORM 4096², MUL_MAT 4096×1×4096 and 4096×512×4096, ${SENS_REPLAYS:-10} replays each;
#   prints the sensitivity table by kernel duration (issue 22). controls-a / controls-b: the same on
#   ADD+RMS_NORM / the two MUL_MATs (two shorter steps; inputs, oracles, checks and plants once per run).
#   ops: every op (≈ 7 s an op on the H200: 50 ops ≈ 6 min); OPS_ONLY=A,B,… times only those.
# formats: issue 20's performance rows (GEMV 16384² N=1 f16/q8_0/q4_0/mxfp4/nvfp4, GEMV 4096² N=1
# q4_0/q8_0, GEMM 4096×512×4096 of the 4-bit formats), each a `lab formats` table, the GEMVs with
# --mmvq: each integer block format on the registry's pick (MMVQ: q8_1 activations + dot4I8Packed,
# where WGSL offers it) and again on the other GEMV path (the block-decode gemv);
# formatsmmvq: every integer block format's GEMV at 4096², both paths; the mmvq knobs: `round.sh tune-mmvq:420`;
# formats16kt1 / formats16kt1n: GEMV 16384² N=1 of ggml mxfp4/q4_0, the K-quants and Track-1 formats
# ($T1_FORMATS), registry pick (mmvq for mxfp4, nvfp4, mxfp4_t1, int4, int8, mxint8, q4_0; the block-decode
# gemv for the rest; formats16k's --mmvq rows compare mxfp4/nvfp4 on both paths, the step formats16kq
# mxfp4_t1, int4, int8, mxint8) / native template; formats_all:
# every format's GEMV at 4096² and DEQUANT at 4096² (the full format matrix, checked then timed).
# Full outputs go to $OUT (or ./gpu-out); the tables print last.
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
for f in .gpu/*.deb; do dpkg -x "$f" / >/dev/null 2>&1; done
ldconfig
xz -dc .gpu/node.xz > /tmp/node && chmod +x /tmp/node
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export KERNEL_LAB_DAWN=$PWD/.gpu/dawn.node
export KERNEL_LAB_UNSAFE_APIS=1   # subgroup-matrix is experimental in Dawn
lab() { /tmp/node dist-cli/lab.mjs "$@"; }
run_step() {
  local name=$1; shift
  echo "=== $name: lab $*" | tee -a "$OUT/log.txt"
  local t0=$(date +%s%N)
  lab "$@" > "$OUT/$name.txt" 2> "$OUT/$name.err"
  local rc=$?
  echo "=== $name: rc=$rc in $(( ($(date +%s%N) - t0) / 1000000 )) ms" | tee -a "$OUT/log.txt"
}
# Issue 20's performance rows, one `lab formats` table each.
T1_FORMATS=mxfp4,nvfp4,mxfp4_t1,q4_k,q6_k,int4,int8,fp8_e4m3,mxint8,q4_0
formats_step() {
  local args
  case "$1" in
    # f16 apart: its oracle gathers the whole 16384² matrix as f64 (MUL_MAT's plain oracle), the slowest host part.
    formats16k) args="--op gemv --shape 16384x1x16384 --format q8_0,q4_0,mxfp4,nvfp4 --mmvq" ;;
    formats16kf16) args="--op gemv --shape 16384x1x16384 --format f16" ;;
    formats4k) args="--op gemv --shape 4096x1x4096 --format f16,q8_0,q4_0 --mmvq" ;;
    formatsmmvq) args="--op gemv --shape 4096x1x4096 --format q4_0,q4_1,q5_0,q5_1,q8_0,mxfp4 --mmvq" ;;
    formatsgemm) args="--op gemm --shape 4096x512x4096 --format f16,q4_0,mxfp4,nvfp4,int4,mxint4" ;;
    # The Track-1 and K-quant GEMVs on the registry's pick (mmvq for the E2M1 and int4/int8 codes, else the
    # block-decode gemv, four threads per 32-weight chunk), and the same through the native template.
    formats16kt1) args="--op gemv --shape 16384x1x16384 --format $T1_FORMATS" ;;
    formats16kt1n) args="--op gemv --shape 16384x1x16384 --format $T1_FORMATS --native" ;;
    # The Track-1 formats mmvq now takes (E2M1, int4/int8 codes) on both GEMV paths.
    formats16kq) args="--op gemv --shape 16384x1x16384 --format mxfp4_t1,int4,int8,mxint8 --mmvq" ;;
  esac
  run_step "$1" formats $args --json "$OUT/$1.json" --markdown "$OUT/$1.md"
}
# The controls' shapes, whole (controls) or in two halves that each fit a shorter limit (controls-a:
# the two 4096² elementwise/row cases, controls-b: GEMV and GEMM).
CONTROLS_A="--shape ADD:4096x4096 --shape RMS_NORM:4096x4096"
CONTROLS_B="--shape MUL_MAT:4096x1x4096 --shape MUL_MAT:4096x512x4096"
CONTROLS_ARGS="--repeat 5 --tolerance 0.02 --sensitivity --factors 1.02,1.05 --replay ${SENS_REPLAYS:-10} -v"
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(device calibrate bench)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw --format=csv > "$OUT/nvidia-smi.txt" 2>&1
for s in "${steps[@]}"; do
  case "$s" in
    device) run_step device device --json "$OUT/device.json" ;;
    calibrate) run_step calibrate device --calibrate --json "$OUT/calibration.json" ;;
    bench) run_step bench bench ;;
    lane) run_step lane lane --repeat 5 --json "$OUT/lane.json" ;;
    agreement) run_step agreement bench --only agreement --json "$OUT/agreement.json" ;;
    ops) run_step ops bench --only ops ${OPS_ONLY:+--op "$OPS_ONLY"} --json "$OUT/ops.json" ;;
    replay) run_step replay lane --repeat 5 --replay 10 --json "$OUT/replay.json" ;;
    aa) run_step aa lane --control aa --repeat 5 --replay 10 --json "$OUT/aa.json" ;;
    sensitivity) run_step sensitivity lane --op ADD --op RMS_NORM --op MUL_MAT --repeat 5 --sensitivity --replay ${SENS_REPLAYS:-10} --json "$OUT/sensitivity.json" ;;
    controls) run_step controls lane $CONTROLS_A $CONTROLS_B $CONTROLS_ARGS --json "$OUT/controls.json" ;;
    controls-a) run_step controls-a lane $CONTROLS_A $CONTROLS_ARGS --json "$OUT/controls-a.json" ;;
    controls-b) run_step controls-b lane $CONTROLS_B $CONTROLS_ARGS --json "$OUT/controls-b.json" ;;
    host) run_step host lane --shape ADD:4096x4096 --shape RMS_NORM:4096x4096 --shape MUL_MAT:4096x1x4096 --shape MUL_MAT:4096x512x4096 --repeat 5 --replay 10 -v --json "$OUT/host.json"
          /tmp/node scripts/gpu/host-table.mjs "$OUT/host.json" >> "$OUT/host.txt" 2>&1 ;;
    # the training step on the GPU (census --run): tiny, 20 steps, registry kernels then all native
    # (per-op times side by side), and the 1b preset at batch 1 (no CPU check: its f64 oracle
    # evaluation would take hours in JS; the loss curve and the dispatch table still print)
    graph)
      run_step graph census --run --preset tiny --steps 20 --json "$OUT/graph-tiny.json"
      run_step graph-native census --run --preset tiny --steps 20 --native --json "$OUT/graph-tiny-native.json"
      run_step graph-1b census --run --preset 1b --batch 1 --steps 5 --no-check --memory-gib 120 --json "$OUT/graph-1b.json" ;;
    # every census shape of the tiny step (64 distinct, all in declared layouts), native vs generated,
    # then one checked graph step for the retire items.
    # Estimate ≤ 150 s: per shape ≈ 1 s of host work (oracle, two pipelines, a warm-up) + 10 batches
    # of ≥ 5 ms (repeat 5, both sides); the graph step ≈ 15 s (its CPU f64 check), start ≈ 5 s.
    lane-census) run_step lane-census lane --census --preset tiny --top 64 --repeat 5 --run-graph --json "$OUT/lane-census.json" ;;
    # MUL_MAT's generated kernels against native under the rules measured this round (f16 and f32 on
    # subgroup matrices / tiles, f16 weights × f32, 4-bit weights on subgroup matrices)
    lane-mulmat) run_step lane-mulmat lane --shape MUL_MAT:4096x4096x4096:contiguous:type0=1,type1=1 --shape MUL_MAT:4096x512x4096:contiguous:type0=1,type1=1 --shape MUL_MAT:4096x4096x4096:contiguous:type0=1 --shape MUL_MAT:4096x512x4096 --shape MUL_MAT:4096x512x4096:contiguous:type0=q4_0 --shape MUL_MAT:4096x1x4096:contiguous:type0=q4_0 --shape MUL_MAT:16384x1x16384:contiguous:type0=nvfp4 --shape MUL_MAT:16384x1x16384:contiguous:type0=mxfp4 --repeat 3 --json "$OUT/lane-mulmat.json" ;;
    ggml-gemv)
      # ggml-webgpu's own f32 GEMV (its WGSL preprocessed by scripts/gpu/ggml-peer/prepare.sh into GGML_PEER,
      # default .exp/ggml, carried) as a third column beside native and generated, same process (issue 26 item 4).
      run_step ggml-gemv lane --shape MUL_MAT:4096x1x4096 --shape MUL_MAT:16384x1x16384 --kernel "${GGML_PEER:-.exp/ggml}/mul_mat_vec_f32.json" --repeat 5 --json "$OUT/ggml-gemv.json" ;;
    formats16k|formats16kf16|formats4k|formatsmmvq|formatsgemm|formats16kt1|formats16kt1n) formats_step "$s" ;;
    formats)
      # The three rows as one step (run them as separate steps when a command's time is capped).
      for f in formats16k formats16kf16 formats4k formatsgemm; do formats_step "$f"; done
      cat "$OUT"/formats16k.txt "$OUT"/formats16kf16.txt "$OUT"/formats4k.txt "$OUT"/formatsgemm.txt > "$OUT/formats.txt" ;;
    formats_all)
      run_step formats_all_gemv formats --op gemv --shape 4096x1x4096 --json "$OUT/formats_all_gemv.json"
      run_step formats_all_dequant formats --op dequant --shape 4096x4096 --json "$OUT/formats_all_dequant.json"
      cat "$OUT"/formats_all_gemv.txt "$OUT"/formats_all_dequant.txt > "$OUT/formats_all.txt" ;;
    formats16kq) formats_step "$s" ;;
    *) echo "unknown step $s" ;;
  esac
done
for s in "${steps[@]}"; do
  names=("$s"); [ "$s" = graph ] && names=(graph graph-native graph-1b)
  for n in "${names[@]}"; do echo "----- $n"; tail -40 "$OUT/$n.txt" 2>/dev/null; tail -5 "$OUT/$n.err" 2>/dev/null; done
done
