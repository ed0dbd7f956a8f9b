#!/usr/bin/env bash
# ggml-webgpu's own GEMV beside the lab's, in one process (issue 26 item 4): ggml's WGSL is not in this
# repository; this script preprocesses it from a ggml checkout the way ggml's pre_wgsl does (a C-style
# #define/#ifdef/#include pass: cpp -P), with the defines ggml's get_mul_mat_vec_pipeline picks for f32
# weights and an f32 vector on an adapter with subgroups, into OUT_DIR beside our manifest.
# Usage: bash scripts/gpu/ggml-peer/prepare.sh GGML_DIR OUT_DIR   (GGML_DIR: a ggml or llama.cpp checkout)
# Then: npm run lab -- lane --shape MUL_MAT:16384x1x16384 --kernel OUT_DIR/mul_mat_vec_f32.json
set -euo pipefail
GGML=${1:?a ggml checkout}; OUT=${2:?an output folder}
SRC=$(find "$GGML" -type d -path '*ggml-webgpu/wgsl-shaders' | head -1)
[ -n "$SRC" ] || { echo "no ggml-webgpu/wgsl-shaders under $GGML" >&2; exit 2; }
mkdir -p "$OUT"
cpp -P -undef -nostdinc -I "$SRC" -DSRC0_INNER_TYPE=f32 -DSRC1_INNER_TYPE=f32 -DMUL_ACC_FLOAT -DVEC \
  -DWG_SIZE=256 -DOUTPUTS_PER_WG=4 -DUSE_SUBGROUP_REDUCTION -DNUM_COLS=1 "$SRC/mul_mat_vec.wgsl" > "$OUT/mul_mat_vec_f32.wgsl"
cp "$(dirname "$0")/mul_mat_vec_f32.json" "$OUT/"
echo "$OUT/mul_mat_vec_f32.json ($(wc -l < "$OUT/mul_mat_vec_f32.wgsl") lines of WGSL from $SRC)"
