#!/usr/bin/env bash
# MUL_MAT schedule variants on the H200 (issue 11): GEMV / small N, f16 subgroup matrices, f32.
# Same prelude as h200.sh; each line is one `lab time` (checked against the oracle, then timed).
# Usage on the device: bash scripts/gpu/matmul-tune.sh [STEP|bench]   (outputs in $OUT; LAB_DIR: where lab.mjs is, default dist-cli)
# Steps: issue26 gemm1 gemm2 gemm3 gemm4 gemm5 gemm6 (sgmatrix splitK) gemm7 (sgmatrix tilings swept, f16) gemm8 (the 4096×512 f16 rule's knobs) rope26 issue26b qgemm (quantized weights on subgroup matrices), mmvq mmvqfp4 mmvq3 mmvq4 mmvq5 (mmvq's knobs; mmvq3: 'shared' activations; mmvq4: its quantize four threads a block, weights preloaded; MMVQ4_STEP=auto: the registry's picks; mmvq5: codeLoads vec4 on the Track-1 formats; mmvq6: e2m1Decode table on the E2M1 formats; mmvq7: nvfp4's f16 scale pair, ggml mxfp4 blocksPerLoad 4, dotFloat mantissa), f32b (f32 tiled knobs, gemv rowsPerThread), f32c (f32 tiled: stores vec4, inner pipelined4), e2m1 (E2M1 decode, this build vs main's), auto26 (what the registry picks for issue 26's rows), readfloor (GEMV f32 against SUM_ROWS over the same matrix: the read floor), gemvfloor (the gemv family at the read floor's points), alufloor (the E2M1 GEMVs with the weights in L2: their instruction floor), f32d, f32e, f32g, f32h, f32i (f32 4096³: 128×256 / 256×128 tiles, K8 double, and around the best of them), gemm9 (f16 4096³: written-out K steps, 128×256, K64 eight subgroups), robust20 (the E2M1 GEMV with robustness off), ablate26 (f16 4096³'s kernel with one part cut out at a time, and the staging forms without 16-bit stores, robustness on and off; ABLATE_SCHEDULE another kernel, ABLATE_ONLY_CUTS=1 the cuts alone), ablate26rot (its cuts with rotated staging stores), gemm10 (f16 4096³ after the ablations: rotated stores on the best tilings, K64), ablate26sc (the cuts of the rule with spread stores and branch-free prefetch), gemm11 (spread stores, prefetchGuard clamped), ablate26sp (the cuts with spread stores), ablate26db (the cuts of spread with double staging), gemm12 (around spread: prefetchAt early, double, eight-subgroup tilings, f16 × f32), gemm13 (prefetch2: two staging register sets), gemm14 (prefetchGuard peeled), gemm15 (spread with the prefetch inside the first MMA step), gemm16 (single staging, splitK 2, with spread), probe26 (f16 4096³: rounds of 264 workgroups, occupancy against workgroup memory, K16 double, the driver's machine code), gemm17 (deep staging, K16 double and spread inside 24 KiB, prefetchAt interleaved, loadsfenced), gemm18 (swapped stores: conflict-free for the driver's 8-byte stores), gemm19 (swapped with arithmetic offsets), gemm20 (pairStride: co-resident workgroups on one B tile; smaller register files), gemm21 (sixteen subgroups: the driver's register cap at 512 threads), gemm22 (a tile's fixed cost: K from 4096 to 256 at 4 rounds), gemm23 (persistent workgroups), gemm24 (around persistent 256); none or default: the GEMV/sgmatrix rows, then bench; an unknown step exits 2 at once.
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
NODE=/tmp/node
if [ -n "${LOCAL:-}" ]; then
  # A dry run of this script here (SwiftShader; run under `node scripts/with-gpu-env.mjs`): small shapes.
  NODE=node
else
  for f in .gpu/*.deb; do dpkg -x "$f" / >/dev/null 2>&1; done
  ldconfig
  xz -dc .gpu/node.xz > /tmp/node && chmod +x /tmp/node
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  export KERNEL_LAB_DAWN=$PWD/.gpu/dawn.node
  export KERNEL_LAB_UNSAFE_APIS=1
fi
date -u +%FT%TZ | tee "$OUT/tune.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null | tee -a "$OUT/tune.txt"
g() { # shape W R C vw U reduction [params] [rowsPerThread]
  local params=${8:-} rt=${9:-}
  local p=${params:+--param $params}
  echo "## $1 gemv W$2 R$3 C$4 vw$5 U$6 $7 $params${rt:+ RT$rt}" >> "$OUT/tune.txt"
  timeout 40 $NODE ${LAB_DIR:-dist-cli}/lab.mjs time --op MUL_MAT --shape "$1" $p --schedule "{\"family\":\"gemv\",\"workgroupSize\":$2,\"rowsPerWorkgroup\":$3,\"columnsPerPass\":$4,\"vectorWidth\":$5,\"unroll\":$6,\"reduction\":\"$7\"${rt:+,\"rowsPerThread\":$rt}}" 2>&1 | grep -E "^correct|^timing|^metrics|rror|refused" >> "$OUT/tune.txt"
}
s() { # shape config sgM sgN mM mN tileK params [staging: single|prefetch|double|direct] [storeOrder: plain|rotated|matrix] [more knobs: JSON members, e.g. '"groupM":8,"storeIndex":"clamped"']
  local st=${9:-single} so=${10:-plain} more=${11:-}
  # DEADLINE (seconds of this shell, optional): rows past it are named, not run, so a step stays inside its device call.
  if [ -n "${DEADLINE:-}" ] && [ "$SECONDS" -ge "$DEADLINE" ]; then echo "## $1 sgmatrix sg$3x$4 mat$5x$6 $st $more: skipped (deadline)" >> "$OUT/tune.txt"; return; fi
  echo "## $1 sgmatrix $2 sg$3x$4 mat$5x$6 K$7 $st $so $8 $more" >> "$OUT/tune.txt"
  timeout 40 $NODE ${LAB_DIR:-dist-cli}/lab.mjs time --op MUL_MAT --shape "$1" --param "$8" --schedule "{\"family\":\"sgmatrix\",\"config\":\"$2\",\"subgroupsM\":$3,\"subgroupsN\":$4,\"matricesM\":$5,\"matricesN\":$6,\"tileK\":$7,\"subgroupSize\":32,\"staging\":\"$st\",\"storeOrder\":\"$so\"${more:+,$more}}" 2>&1 | grep -E "^correct|^timing|^metrics|rror|refused" >> "$OUT/tune.txt"
}
r() { # op shape [--native]: ROPE and others, generated (auto) or native
  echo "## $1 $2 ${3:-auto}" >> "$OUT/tune.txt"
  timeout 40 $NODE ${LAB_DIR:-dist-cli}/lab.mjs time --op "$1" --shape "$2" ${3:-} 2>&1 | grep -E "^$1|^correct|^timing|^metrics|rror" >> "$OUT/tune.txt"
}
m() { # shape tileM tileN tileK threadM threadN staging splitK [padding: none|vec4] [inner: loop|unrolled|pipelined|pipelined4] [stores: scalar|vec4]: the tiled f32 family, vec4
  local pad=${9:-none} inner=${10:-loop} st=${11:-scalar}
  echo "## $1 matmul $2x$3 K$4 t$5x$6 $7 splitK$8 pad-$pad $inner${11:+ st-$st}" >> "$OUT/tune.txt"
  timeout 40 $NODE ${LAB_DIR:-dist-cli}/lab.mjs time --op MUL_MAT --shape "$1" --schedule "{\"family\":\"matmul\",\"tileM\":$2,\"tileN\":$3,\"tileK\":$4,\"threadM\":$5,\"threadN\":$6,\"vectorWidth\":4,\"staging\":\"$7\",\"splitK\":$8,\"padding\":\"$pad\",\"inner\":\"$inner\",\"stores\":\"$st\"}" 2>&1 | grep -E "^correct|^timing|^metrics|rror|refused" >> "$OUT/tune.txt"
}
rates() { # NAME: the rows so far as "row | median | rate" into $OUT/NAME-table.txt and tune.txt
  echo "=== $1: row | median | rate" >> "$OUT/tune.txt"
  awk '/^## /{h=substr($0,4)} /^timing/{m=""; for(i=1;i<=NF;i++) if($i=="median" && m=="") m=$(i+1)" "$(i+2)} /^metrics/{r=""; for(i=2;i<=NF;i++) if($i=="TFLOP/s" || $i=="TB/s") r=r" "$(i-1)" "$i; printf "%s | %s |%s\n", h, m, r} /rror|refused/{printf "%s | %s\n", h, substr($0,1,120)}' "$OUT/tune.txt" > "$OUT/$1-table.txt"
  cat "$OUT/$1-table.txt" >> "$OUT/tune.txt"
  date -u +%FT%TZ >> "$OUT/tune.txt"
}
nvcache_keep() { # the driver's shader cache in /tmp/nvcache, for scripts/gpu/nv-cache-sass.py (set before the step's first kernel)
  export __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 __GL_SHADER_DISK_CACHE_PATH=/tmp/nvcache
  mkdir -p /tmp/nvcache
}
nvcache_pack() { # that cache as $OUT/nvcache.tgz; where the machine has zstd, also its code disassembled and summed up in tune.txt
  tar czf "$OUT/nvcache.tgz" -C /tmp nvcache 2>/dev/null
  if command -v zstd >/dev/null; then
    echo "=== the driver's machine code (nv-cache-sass.py)" >> "$OUT/tune.txt"
    python3 scripts/gpu/nv-cache-sass.py extract /tmp/nvcache "$OUT/code" > /dev/null && python3 scripts/gpu/nv-cache-sass.py disasm "$OUT/code" && python3 scripts/gpu/nv-cache-sass.py summary "$OUT/code" >> "$OUT/tune.txt"
  fi
}
finish() { # NAME [nvcache]: a step's table (rates), the driver's cache packed where kept, tune.txt printed; the step ends
  rates "$1"
  [ "${2:-}" = nvcache ] && nvcache_pack
  cat "$OUT/tune.txt"; exit 0
}
spread16() { # the f16 4096³ rule (2×2 · 4×4 K32 prefetch spread) [more JSON members]: a step's reference, first and last
  h16 2 2 4 4 32 prefetch spread "${1:-}"
}
# The f16 4096³ rule (2×2 · 4×4 16x16x16, K32, prefetch, spread stores), for the probes.
SPREAD='{"family":"sgmatrix","config":"16x16x16","subgroupsM":2,"subgroupsN":2,"matricesM":4,"matricesN":4,"tileK":32,"subgroupSize":32,"staging":"prefetch","storeOrder":"spread"}'
probes() { # SCHEDULE_JSON NAMES: f16 4096³ through `lab time -vv`, then the probes of ablate-sgmatrix.mjs --probes named (correct variants, timed with their check)
  local SH=4096x4096x4096 P=type0=1,type1=1
  echo "## $SH probe: the kernel $1" >> "$OUT/tune.txt"
  timeout 40 $NODE ${LAB_DIR:-dist-cli}/lab.mjs time --op MUL_MAT --shape "$SH" --param $P --schedule "$1" -vv > "$OUT/probe-rule.txt" 2> "$OUT/probe-rule.err"
  grep -hE "^correct|^timing|^metrics|rror" "$OUT/probe-rule.txt" "$OUT/probe-rule.err" >> "$OUT/tune.txt"
  $NODE scripts/gpu/ablate-sgmatrix.mjs "$OUT/probe-rule.err" "$OUT/probe" '{"src0":"f16","src1":"f16"}' --probes > "$OUT/probe-list.txt" 2>> "$OUT/tune.txt"
  while IFS=$'\t' read -r name doc; do
    [[ " $2 " != *" $name "* ]] && continue
    echo "## $SH probe $name: $doc" >> "$OUT/tune.txt"
    timeout 40 $NODE ${LAB_DIR:-dist-cli}/lab.mjs time --kernel "$OUT/probe/$name/manifest.json" --shape "$SH" --param $P 2>&1 | grep -E "^correct|^timing|^metrics|rror" >> "$OUT/tune.txt"
  done < "$OUT/probe-list.txt"
}
h16() { # f16 × f16 4096³ on 16x16x16 matrices (issue 26's missed row): sgM sgN mM mN tileK staging storeOrder [more JSON members]
  s 4096x4096x4096 16x16x16 $1 $2 $3 $4 $5 type0=1,type1=1 $6 $7 "${8:-}"
}
a() { # shape [params]: what auto picks
  local params=${2:-}
  echo "## $1 auto $params" >> "$OUT/tune.txt"
  timeout 40 $NODE ${LAB_DIR:-dist-cli}/lab.mjs time --op MUL_MAT --shape "$1" ${params:+--param $params} 2>&1 | grep -E "^MUL_MAT|^correct|^timing|^metrics|rror" >> "$OUT/tune.txt"
}
if [ "${1:-}" = f32b ]; then
  # Issue 26's f32 rows, f32mm helper (2026-12-02): the tiled family's new knobs — padding 'vec4' (16 B after each
  # staged k row: conflict-free transposing stores) and inner 'unrolled'/'pipelined' (the K-tile loop written out at
  # constant offsets; pipelined also loads the next k's fragments before this k's FMAs) — and gemv's rowsPerThread
  # (a thread reads 2–4 rows side by side: more loads in flight, one src1 load for them all), plus gemv points not yet
  # run (16384² with 512/1024 threads a row). Each block starts with the registry's rule (the reference) and the
  # 4096³ block ends with it again (clock drift). `round.sh tune-f32b:280`; lines are skipped past F32B_S seconds.
  # LOCAL=1: the same rows at small shapes (SwiftShader dry run).
  BIG=4096x4096x4096; N512=4096x512x4096; G4=4096x1x4096; G16=16384x1x16384
  [ -n "${LOCAL:-}" ] && { BIG=128x128x64; N512=128x64x64; G4=256x1x256; G16=512x1x512; }
  ok() { [ "$SECONDS" -lt "${F32B_S:-265}" ] || { echo "## (skipped past ${F32B_S:-265} s: $*)" >> "$OUT/tune.txt"; return 1; }; }
  for v in "prefetch 1 none loop" "prefetch 1 vec4 loop" "prefetch 1 none pipelined" "prefetch 1 vec4 unrolled" "prefetch 1 vec4 pipelined" "double 1 vec4 pipelined" "single 1 vec4 unrolled"; do
    set -- $v; ok $BIG 8x16 $v && m $BIG 128 128 16 8 16 $1 $2 $3 $4
  done
  ok $BIG 8x8 && m $BIG 128 128 16 8 8 prefetch 1 vec4 pipelined
  ok $BIG K32 && m $BIG 128 128 32 8 16 prefetch 1 vec4 unrolled
  ok $BIG ref && m $BIG 128 128 16 8 16 prefetch 1 none loop
  for v in "16 8 double none loop" "16 8 double vec4 loop" "16 8 double none pipelined" "16 8 double vec4 pipelined" "16 8 double vec4 unrolled" "16 8 prefetch vec4 pipelined" "32 8 prefetch none loop" "32 8 prefetch vec4 pipelined" "16 16 double vec4 pipelined"; do
    set -- $v; ok $N512 $v && m $N512 128 128 $1 8 $2 $3 1 $4 $5
  done
  # GEMV: the rule (W256 R4 U4) first; rowsPerThread 2/4 at the rule's 64 threads a row group and at 128.
  for v in "256 4 1 4 4 subgroup" "256 8 1 4 4 subgroup:2" "256 8 1 4 2 subgroup:2" "256 4 1 4 4 subgroup:2" "256 16 1 4 2 subgroup:4" "128 4 1 4 4 subgroup:2" "256 4 1 4 8 subgroup"; do
    rt=${v#*:}; [ "$rt" = "$v" ] && rt=""; set -- ${v%:*}; ok $G4 $v && g $G4 $1 $2 $3 $4 $5 $6 "" $rt
  done
  for v in "256 4 1 4 4 subgroup" "256 8 1 4 4 subgroup:2" "256 4 1 4 4 subgroup:2" "512 1 1 4 4 subgroup" "1024 1 1 4 4 subgroup" "1024 2 1 4 4 subgroup:2"; do
    rt=${v#*:}; [ "$rt" = "$v" ] && rt=""; set -- ${v%:*}; ok $G16 $v && g $G16 $1 $2 $3 $4 $5 $6 "" $rt
  done
  rates f32b
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = f32c ]; then
  # Issue 26's f32 rows, f32vec helper (2026-12-02): stores 'vec4' (a thread stages 4×4 blocks, transposes them in
  # registers and writes 4 vec4 along m: 8 staging stores a tile at 8×16 instead of 32 scalar; whole blocks a thread
  # only, so not 8×8 at K16) and inner 'pipelined4' (a loop over 4-k groups, each written out pipelined: a quarter of
  # 'pipelined''s ~2048 FMAs a body at K16, to test the instruction-cache guess behind double staging's and K32's 2×
  # losses at 8×16). Each block starts and ends with the registry's rule (clock drift). Rows past F32C_S s are named,
  # not run (`round.sh tune-f32c:280`). LOCAL=1: the same rows at small shapes (SwiftShader dry run).
  BIG=4096x4096x4096; N512=4096x512x4096
  [ -n "${LOCAL:-}" ] && { BIG=128x128x64; N512=128x64x64; }
  ok() { [ "$SECONDS" -lt "${F32C_S:-265}" ] || { echo "## (skipped past ${F32C_S:-265} s: $*)" >> "$OUT/tune.txt"; return 1; }; }
  # 4096³: tileK threadN staging padding inner stores (128×128 tiles, threadM 8, splitK 1).
  for v in "16 16 prefetch none pipelined scalar" "16 16 prefetch none pipelined vec4" "16 16 prefetch vec4 pipelined vec4" \
    "16 16 prefetch none pipelined4 scalar" "16 16 prefetch vec4 pipelined4 vec4" "16 16 double vec4 pipelined4 scalar" "16 16 double vec4 pipelined4 vec4" \
    "32 16 prefetch none pipelined4 scalar" "32 16 prefetch vec4 pipelined4 vec4" "32 16 prefetch vec4 pipelined vec4" "16 16 prefetch none pipelined scalar"; do
    set -- $v; ok $BIG $v && m $BIG 128 128 $1 8 $2 $3 1 $4 $5 $6
  done
  # 4096x512x4096: the rule (8×8 double padded pipelined) first and last; 8×8 takes vec4 stores at K32 only (256 threads).
  for v in "16 8 double vec4 pipelined scalar" "16 8 double vec4 pipelined4 scalar" "32 8 prefetch vec4 pipelined vec4" "32 8 prefetch vec4 pipelined4 vec4" \
    "16 16 double vec4 pipelined vec4" "16 16 double vec4 pipelined4 vec4" "16 16 prefetch vec4 pipelined vec4" "16 8 double vec4 pipelined scalar"; do
    set -- $v; ok $N512 $v && m $N512 128 128 $1 8 $2 $3 1 $4 $5 $6
  done
  rates f32c
elif [ "${1:-}" = mmvq ] || [ "${1:-}" = alufloor ] || [ "${1:-}" = mmvqfp4 ] || [ "${1:-}" = mmvq3 ] || [ "${1:-}" = mmvq4 ] || [ "${1:-}" = mmvq5 ] || [ "${1:-}" = mmvq6 ] || [ "${1:-}" = mmvq7 ]; then
  # Issue 20, mmvq helper: the integer-dot GEMV's knobs (rowsPerWorkgroup, rowsPerThread, blocksPerThread,
  # activations prequantized = two passes timed as their sum | fused = one pass) on q4_0, q4_1, q5_0, q8_0
  # at 4096x1x4096 and 16384x1x16384, and N = 2, 4, 8 at 4096 (q4_0, q8_0). One `lab sweep` per group (limits sum to 410 s): inputs and oracle
  # once per shape, every candidate checked then timed; its reference column is the registry's pick.
  # Targets (GB/s of the weights as stored; copy 4.24 TB/s): 16384² q8_0/q4_0 ≥ 2.97 TB/s (70%); 4096² q4_0 ≥ 0.8, q8_0 ≥ 1.5 TB/s.
  # Weight bytes: q4_0 18, q4_1 20, q5_0 22, q8_0 34 per 32 weights (4096²: 9.4, 10.5, 11.5, 17.8 MB; 16384²: 151, 168, 185, 285 MB).
  sw() { # label seconds shapes space
    echo "=== $1: sweep $3" >> "$OUT/tune.txt"
    timeout "$2" $NODE ${LAB_DIR:-dist-cli}/lab.mjs sweep --op MUL_MAT --reps ${MMVQ_REPS:-5} --shapes "$3" --space "$4" --json "$OUT/mmvq-$1.json" > "$OUT/mmvq-$1.txt" 2> "$OUT/mmvq-$1.err"
    echo "rc=$?" >> "$OUT/tune.txt"
    # The keys, short: mmvq W R RT U L(blocksPerLoad) QT(quantizeThreads) activations preload reduction, then V4 where codeLoads is 'vec4' (nothing for 'words')
    # MANT where dotFloat is 'mantissa', LUT where e2m1Decode is 'table' (the defaults are not in keys: omitDefault).
    sed -n '/^reference/,/^proposal/p' "$OUT/mmvq-$1.txt" | sed -E 's/"codeLoads":"vec4",([^}]*)\}/\1} V4/g; s/"codeLoads":"words",//g; s/"dotFloat":"mantissa",([^}]*)\}/\1} MANT/g; s/"dotFloat":"convert",//g; s/"e2m1Decode":"table",([^}]*)\}/\1} LUT/g' | sed -E 's/mmvq\{"activations":"([a-z]*)","blocksPerLoad":([0-9]),"blocksPerThread":([0-9]),"preload":"([a-z]*)","quantizeThreads":([0-9]),"reduction":"([a-z]*)","rowsPerThread":([0-9]),"rowsPerWorkgroup":([0-9]*),"workgroupSize":([0-9]*)\}/mmvq W\9 R\8 RT\7 U\3 L\2 QT\5 \1 \4 \6/g' >> "$OUT/tune.txt"
    tail -3 "$OUT/mmvq-$1.err" >> "$OUT/tune.txt"
  }
  # 4096² has 128 blocks per row: rowsPerWorkgroup 4/8/16 keeps 16–256 threads per row group (blocksPerThread 2 needs ≤ 64 to
  # step). rowsPerThread 4 (32 KiB of partials declared for N ≤ 8: the H200 offers 48) is where fused quantizes each block once a workgroup.
  F4="q4_0 q4_1 q5_0 q8_0"
  shapes() { local d=$1; shift; local out=""; for f in "$@"; do out="$out${out:+,}$d:contiguous:type0=$f"; done; echo "$out"; }
  if [ "$1" = alufloor ]; then
    # `round.sh tune-alufloor:150` (issue 20's last row, sixth session): is the E2M1 GEMV bound by its integer work or by
    # memory? One schedule (the 16384² rule: W256 R8 RT2 U2 prequantized) on int4 (3-op decode, nvfp4's bytes), q4_0,
    # nvfp4, mxfp4_t1 and ggml mxfp4 at 4096², 6144² (9–21 MB: the weights stay in the H200's 50 MB L2 between the
    # batched runs, nothing flushes it) and 16384² (151 MB: HBM). The marginal time a weight between 4096² and 6144²
    # (the dispatches' fixed cost cancels) is what the kernel costs with memory out of the way: × 16384² it is the
    # GEMV's floor from its own instructions. Reference column: the registry's pick.
    ONE='{"family":"mmvq","workgroupSize":[256],"rowsPerWorkgroup":[8],"rowsPerThread":[2],"blocksPerThread":[2],"blocksPerLoad":[1],"codeLoads":["words"],"activations":["prequantized"],"quantizeThreads":[1],"preload":["none"],"reduction":["subgroup"]}'
    FMT="int4 q4_0 nvfp4 mxfp4_t1 mxfp4"
    if [ -n "${LOCAL:-}" ]; then
      sw localfloor 300 "$(shapes 256x1x512 $FMT),$(shapes 512x1x512 $FMT)" "$(echo "$ONE" | sed 's/\[256\]/[64]/')"
    else
      # FLOOR_SIZES: the L2-resident sizes (default 4096 6144, the first call; 3072…7168 the second: 4.7–25.6 MB at nvfp4).
      for n in ${FLOOR_SIZES:-4096 6144}; do sw l2-$n 45 "$(shapes ${n}x1x$n $FMT)" "$ONE"; done
      [ -n "${FLOOR_NO16K:-}" ] || sw hbm-16k 55 "$(shapes 16384x1x16384 $FMT)" "$ONE"
    fi
  elif [ "$1" = mmvq7 ]; then
    # `round.sh tune-mmvq7:130` (issue 20, mxfp4ld helper): the E2M1 formats' per-block integer work past the code decode, at
    # 16384² (70% of copy: nvfp4 151 MB ≤ 51 µs, ggml mxfp4 142.6 MB ≤ 48 µs; before this build, 2026-12-02: 74.3 / 77.5 µs).
    # (1) nvfp4's two E4M3 scales as one f16 pair (7 integer ops against ≈ 20): the default decode now, so no old form to sweep:
    #     it shows as the registry's pick (the sweeps' reference column, and `lab time` below) against 74.3 µs.
    # (2) ggml mxfp4 four blocks a load (blocksPerLoad 4: 17 aligned words, constant shifts) against one (5 words, runtime shifts).
    # (3) dotFloat 'mantissa' (the block's dot read from an f32's mantissa: no int → float conversion, nvfp4 has two a block)
    #     against 'convert'. Both formats over R4/8 × RT1/2 × U1/2 (W256 prequantized, the registry's family), each candidate
    #     checked then timed; then the registry's pick of each format by `lab time` (the default decode's own number).
    s7() { echo '{"family":"mmvq","workgroupSize":['"$1"'],"activations":["prequantized"],"reduction":["subgroup"],"rowsPerWorkgroup":[4,8],"rowsPerThread":[1,2],"blocksPerThread":[1,2],"dotFloat":["convert","mantissa"]'"${2:-}"'}'; }
    if [ -n "${LOCAL:-}" ]; then
      sw local7-mx 300 "$(shapes 100x1x512 mxfp4),$(shapes 70x3x256 mxfp4)" "$(s7 64 ',"blocksPerLoad":[1,4]')"
      sw local7-nv 300 "$(shapes 100x1x512 nvfp4),$(shapes 70x3x256 nvfp4)" "$(s7 64)"
      for f in nvfp4 mxfp4; do a 100x1x512 type0=$f; done
    else
      sw 16k7-mx 60 "$(shapes 16384x1x16384 mxfp4)" "$(s7 256 ',"blocksPerLoad":[1,4]')"
      sw 16k7-nv 40 "$(shapes 16384x1x16384 nvfp4)" "$(s7 256)"
      for f in nvfp4 mxfp4; do a 16384x1x16384 type0=$f; done
    fi
    rates mmvq7
  elif [ "$1" = mmvq6 ]; then
    # `round.sh tune-mmvq6:130` (issue 20, fp4lut helper): e2m1Decode 'table' (each E2M1 code byte looked up in a 32 KiB
    # per-lane table in workgroup memory: ~10 integer ops a code word against the bit decode's ~15, plus 4 shared loads)
    # against 'bits' on the three E2M1 formats at 16384² (nvfp4 74.3, mxfp4_t1 65.1, ggml mxfp4 77.5 µs today; 70% of copy:
    # nvfp4 151 MB ≤ 51 µs, mxfp4 142.6 MB ≤ 48 µs; int4's 49.2 µs the same bytes with a 3-op decode). The E2M1 GEMVs are
    # integer-ALU bound (≈0.67 µs per integer op per block). RT2 at W256 declares 16 KiB of partials (N ≤ 8) + 32 KiB of table
    # = 48 KiB, the H200's limit; more rows a workgroup fill the table fewer times (2048 workgroups at R8). 3 formats × 24 candidates, each checked then timed; the reference column is the registry's pick.
    s6() { echo '{"family":"mmvq","workgroupSize":['"$1"'],"activations":["prequantized"],"reduction":["subgroup"],"e2m1Decode":["bits","table"],"rowsPerWorkgroup":['"$2"'],"rowsPerThread":['"$3"'],"blocksPerThread":[1,2]}'; }
    if [ -n "${LOCAL:-}" ]; then
      # SwiftShader's 32 KiB is the table alone: one thread a row (R = 64·RT); R4 shows the refusal.
      sw local6 300 "$(shapes 100x1x512 nvfp4 mxfp4_t1 mxfp4),$(shapes 70x3x256 nvfp4)" "$(s6 64 4,64 1)"
    else
      sw 16k6 115 "$(shapes 16384x1x16384 nvfp4 mxfp4_t1 mxfp4)" "$(s6 256 4,8,16 1,2)"
    fi
  elif [ "$1" = mmvq5 ]; then
    # `round.sh tune-mmvq5:150` (issue 20, fp4vec helper): codeLoads 'vec4' (src0 bound as array<vec4<u32>>: a Track-1 block's
    # 16 code bytes one 16-byte load, scales component picks) against 'words' (today's kernel, word by word) on the three
    # Track-1 integer-dot formats at 16384² (nvfp4 75.8 µs, mxfp4_t1 66.5 µs on the words kernel; 70% of copy ≈ 51 / 48 µs
    # for their 151 / 143 MB; int4 (fp32 scale per 64: 151 MB) the control with the cheapest decode). ggml q4_0/q8_0/mxfp4
    # blocks are 18/34/17 B: vec4 refuses them one at a time. 3 formats × 16 candidates, each checked then timed; the reference column is the registry's pick.
    # Then ggml q4_0 / q8_0 eight blocks at a time (blocksPerLoad 8 with vec4: 144 B = 9 vec4, 272 B = 17; the only vec4 form
    # of an 18 / 34 B block): against words L1 (q4_0's rule W256 R8 RT2 U2 is 50.6 µs, 70.5%); vec4 L1 and words L8 are refused.
    # At 16384² a row is 64 eights: R8 RT2 / R4 RT1 give a row group 64 threads (one eight each), R4 RT2 128 (half idle).
    s5() { echo '{"family":"mmvq","workgroupSize":['"$1"'],"activations":["prequantized"],"reduction":["subgroup"],"codeLoads":["words","vec4"],"rowsPerWorkgroup":[4,8],"rowsPerThread":[1,2],"blocksPerThread":[1,2]'"${2:-}"'}'; }
    if [ -n "${LOCAL:-}" ]; then
      sw local5 300 "$(shapes 100x1x512 nvfp4 mxfp4_t1 int4),$(shapes 70x3x256 nvfp4)" "$(s5 64)"
      sw local5-q 300 "$(shapes 100x1x512 q4_0 q8_0),$(shapes 70x3x256 q4_0)" "$(s5 64 ',"blocksPerLoad":[1,8]')"
    else
      sw 16k5 120 "$(shapes 16384x1x16384 nvfp4 mxfp4_t1 int4)" "$(s5 256)"
      sw 16k5-q 90 "$(shapes 16384x1x16384 q4_0 q8_0)" "$(s5 256 ',"blocksPerLoad":[1,8]')"
    fi
  elif [ "$1" = mmvq4 ]; then
    # `round.sh tune-mmvq4:200` (issue 20, mmvq4k helper): 'shared' with the quantize four threads a block (quantizeThreads 4:
    # src1 read coalesced, max and Σq by subgroup shuffles) and the first weight step loaded before it (preload 'weights'),
    # more rows (RT4) and blocks (U2/U4) per thread, W512. Targets: 4096² q4_0 ≤ 11.8 µs, q8_0 ≤ 11.9; 16384² q4_0 ≤ 50.8 µs
    # (prequantized RT2/RT4/U2 beside shared QT4 at 16 to 32 rows a workgroup). The reference column is the registry's pick.
    # MMVQ4_STEP picks the sweeps (default: all). Limits sum to 190 s.
    sh4() { sw "$1" "$2" "$3" "$4"; }
    S4='"family":"mmvq","activations":["shared"],"reduction":["subgroup"]'
    if [ -n "${LOCAL:-}" ]; then
      sh4 local4 300 "$(shapes 100x1x512 q4_0 q8_0),$(shapes 70x3x256 nvfp4)" '{'"$S4"',"workgroupSize":[64],"rowsPerWorkgroup":[4,16],"rowsPerThread":[1,2],"blocksPerThread":[1,2],"quantizeThreads":[1,4],"preload":["none","weights"],"blocksPerLoad":[1,2]}'
    else
      case ${MMVQ4_STEP:-b} in
      a)
        # Call 1 (14:16 UTC): W256 R16/32 RT2 QT4 ≈ q4_0 10.6–11.0 µs; W512 R32 RT2 QT4: q4_0 10.2–10.5, q8_0 11.8–12.1 (7–8% spread).
        sh4 4k4 90 "$(shapes 4096x1x4096 q4_0 q8_0)" '{'"$S4"',"workgroupSize":[256],"rowsPerWorkgroup":[8,16,32],"rowsPerThread":[1,2,4],"blocksPerThread":[1,2,4],"quantizeThreads":[1,4],"preload":["none","weights"]}'
        sh4 4k4-w512 40 "$(shapes 4096x1x4096 q4_0 q8_0)" '{'"$S4"',"workgroupSize":[512],"rowsPerWorkgroup":[16,32],"rowsPerThread":[2,4],"blocksPerThread":[1,2],"quantizeThreads":[4],"preload":["none","weights"]}'
        P16='"family":"mmvq","reduction":["subgroup"],"workgroupSize":[256],"blocksPerThread":[1,2],"rowsPerThread":[2,4]'
        sw 16k4 30 "$(shapes 16384x1x16384 q4_0 q8_0)" '{'"$P16"',"activations":["prequantized"],"rowsPerWorkgroup":[4,8]}'
        sw 16k4-shared 30 "$(shapes 16384x1x16384 q4_0 q8_0)" '{'"$P16"',"activations":["shared"],"rowsPerWorkgroup":[16,32],"quantizeThreads":[4],"preload":["weights"]}'
        ;;
      auto)
        # What the registry picks now (the mmvq4 rules), one `lab time` each: `MMVQ4_STEP=auto`.
        for f in q4_0 q8_0; do a 4096x1x4096 type0=$f; a 16384x1x16384 type0=$f; done
        ;;
      b)
        # blocksPerLoad 2 (q4_0/q8_0 blocks in 4-aligned pairs, no select) beside 1, at 4096² (shared) and 16384² (prequantized).
        # Call 2 (15:12 UTC, 73 s): 4096² best W256 R16 RT2 U4 QT4 shared: q4_0 10.5 µs, q8_0 11.4 (pick 13.9 / 14.4): the rule;
        # 16384² q4_0 W256 R8 RT2 U2 prequantized 50.6 (pick 52.4): the rule; blocksPerLoad 2 lost everywhere (16384² q8_0 108–126 µs).
        sh4 4k4b 80 "$(shapes 4096x1x4096 q4_0 q8_0)" '{'"$S4"',"workgroupSize":[256],"rowsPerWorkgroup":[8,16,32],"rowsPerThread":[2],"blocksPerThread":[1,2,4],"quantizeThreads":[1,4],"preload":["none","weights"],"blocksPerLoad":[1,2]}'
        sh4 4k4b-rt4 30 "$(shapes 4096x1x4096 q4_0 q8_0)" '{'"$S4"',"workgroupSize":[256],"rowsPerWorkgroup":[16,32],"rowsPerThread":[4],"blocksPerThread":[1,2],"quantizeThreads":[4],"preload":["none","weights"],"blocksPerLoad":[1,2]}'
        sh4 4k4b-w512 30 "$(shapes 4096x1x4096 q4_0 q8_0)" '{'"$S4"',"workgroupSize":[512],"rowsPerWorkgroup":[16,32],"rowsPerThread":[2],"blocksPerThread":[1,2,4],"quantizeThreads":[4],"preload":["none","weights"],"blocksPerLoad":[2]}'
        sw 16k4b 40 "$(shapes 16384x1x16384 q4_0 q8_0)" '{"family":"mmvq","reduction":["subgroup"],"workgroupSize":[256],"activations":["prequantized"],"rowsPerWorkgroup":[4,8],"rowsPerThread":[1,2],"blocksPerThread":[1,2],"blocksPerLoad":[1,2]}'
        ;;
      esac
    fi
  elif [ "$1" = mmvq3 ]; then
    # `round.sh tune-mmvq3:290` (issue 20, mmvqs helper): activations 'shared' (one pass: each workgroup quantizes the
    # N·K/32 q8_1 blocks into workgroup memory, 24 KiB at K = 16384) against 'prequantized' (two dispatches, an empty one
    # is 6.4 µs here), rows per workgroup up to 64 so a workgroup's quantize is spread over many rows. Targets: 4096² q4_0
    # ≤ 11.8 µs (0.8 TB/s), q8_0 ≤ 11.9 µs (1.5 TB/s); 16384² q4_0 ≤ 50.8 µs (70% of copy). Three sweeps (limits sum to 270 s; a sweep prints when done, so the targets first);
    # on the H200 they took 16, 14 and 17 s (the whole step 52 s with the prelude).
    sh3() { # label seconds shapes workgroupSizes
      sw "$1" "$2" "$3" '{"family":"mmvq","workgroupSize":['"$4"'],"activations":["prequantized","shared"],"rowsPerWorkgroup":[4,8,16,32,64],"rowsPerThread":[1,2],"blocksPerThread":[1],"reduction":["subgroup"]}'
    }
    if [ -n "${LOCAL:-}" ]; then
      sh3 local3 300 "$(shapes 100x1x512 q4_0 q8_0),$(shapes 70x3x256 nvfp4)" 64
    else
      sh3 4k3 60 "$(shapes 4096x1x4096 q4_0 q8_0)" 128,256
      sh3 16k3 110 "$(shapes 16384x1x16384 q4_0 q8_0)" 256
      sh3 16k3-fp4 100 "$(shapes 16384x1x16384 mxfp4 nvfp4)" 256
    fi
  elif [ "$1" = mmvqfp4 ]; then
    # `round.sh tune-mmvqfp4:240`: the E2M1 formats on mmvq (ggml mxfp4 17 B, nvfp4 18 B per 32 weights: 142.6 / 151 MB at
    # 16384²; 70% of copy ≈ 48 / 51 µs). Their decode costs ~25 integer ops per 8 weights, so more rows per thread may pay.
    sw 16k-fp4 200 "$(shapes 16384x1x16384 mxfp4 nvfp4)" '{"family":"mmvq","workgroupSize":[256],"rowsPerWorkgroup":[4,8],"rowsPerThread":[1,2],"blocksPerThread":[1,2],"activations":["prequantized","fused"],"reduction":["subgroup"]}'
  elif [ -n "${LOCAL:-}" ]; then
    sw local 300 "$(shapes 64x1x256 q4_0 q8_0)" '{"family":"mmvq","workgroupSize":[64],"rowsPerWorkgroup":[4],"rowsPerThread":[1,2],"blocksPerThread":[1,2],"activations":["prequantized","fused"],"reduction":["subgroup"]}'
  else
    sw 4k 120 "$(shapes 4096x1x4096 $F4)" '{"family":"mmvq","workgroupSize":[256],"rowsPerWorkgroup":[4,8,16],"rowsPerThread":[1,2,4],"blocksPerThread":[1,2],"activations":["prequantized","fused"],"reduction":["subgroup"]}'
    # A sweep prints only when done: the two target formats first, in a step of their own.
    sw 16k 110 "$(shapes 16384x1x16384 q4_0 q8_0)" '{"family":"mmvq","workgroupSize":[256],"rowsPerWorkgroup":[4,8],"rowsPerThread":[1,2,4],"blocksPerThread":[1,2],"activations":["prequantized","fused"],"reduction":["subgroup"]}'
    sw 16k-b 90 "$(shapes 16384x1x16384 q4_1 q5_0)" '{"family":"mmvq","workgroupSize":[256],"rowsPerWorkgroup":[4,8],"rowsPerThread":[1,2,4],"blocksPerThread":[1,2],"activations":["prequantized","fused"],"reduction":["subgroup"]}'
    sw n248 90 "$(shapes 4096x2x4096 q4_0 q8_0),$(shapes 4096x4x4096 q4_0 q8_0),$(shapes 4096x8x4096 q4_0 q8_0)" '{"family":"mmvq","workgroupSize":[256],"rowsPerWorkgroup":[4],"rowsPerThread":[1,2],"blocksPerThread":[1,2],"activations":["prequantized","fused"],"reduction":["subgroup"]}'
  fi
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = e2m1 ]; then
  # Issue 20, e2m1 helper (`round.sh tune-e2m1:280`): the E2M1 decode and ggml mxfp4's loads, this build against
  # main's. GEMV 16384x1x16384 (registry's pick: mmvq W256 R4 RT1 U1 prequantized) on mxfp4 (ggml, 17 B per 32),
  # nvfp4 (18 B), mxfp4_t1 (Track-1, aligned codes) and q4_0 (the control: its code is untouched), each line
  # checked against the oracle then timed; builds interleaved per format. E2M1_MAIN: main's dist-cli
  # (default .exp/e2m1/main-cli), E2M1_DEC: a build with the new decode and main's mxfp4 loads (optional).
  # Then robustness off (diagnosis only: browsers never offer it), main then this build again (drift), and
  # mmvq's knobs on this build (`lab sweep`, whatever time is left). 70% of copy: ≤ 48 / 51 µs (mxfp4 / nvfp4).
  S=16384x1x16384
  [ -n "${LOCAL:-}" ] && S=256x1x512
  MAIN=${E2M1_MAIN:-.exp/e2m1/main-cli} DEC=${E2M1_DEC:-.exp/e2m1/cli-dec} HERE=${LAB_DIR:-dist-cli}
  t() { # label lab-dir format [toggles]
    [ -d "$2" ] || { echo "## $1 $3: no $2" >> "$OUT/tune.txt"; return; }
    [ "$SECONDS" -lt "${E2M1_STOP:-190}" ] || { echo "## $1 $3: skipped (time)" >> "$OUT/tune.txt"; return; }
    echo "## $1 $3 ${4:-}" >> "$OUT/tune.txt"
    KERNEL_LAB_DAWN_TOGGLES=${4:-} timeout 30 $NODE "$2/lab.mjs" time --op MUL_MAT --shape "$S" --param "type0=$3" 2>&1 | grep -E "^correct|^timing|rror|refused" >> "$OUT/tune.txt"
  }
  for f in mxfp4 nvfp4 mxfp4_t1 q4_0; do t main "$MAIN" $f; t branch "$HERE" $f; done
  t decode-only "$DEC" mxfp4
  t branch "$HERE" mxfp4 disable_robustness; t main "$MAIN" mxfp4 disable_robustness; t branch "$HERE" q4_0 disable_robustness
  t main "$MAIN" mxfp4; t branch "$HERE" mxfp4
  left=$(( ${E2M1_END:-275} - SECONDS ))
  if [ "$left" -gt 40 ]; then
    echo "=== sweep ($left s) $S mxfp4 nvfp4" >> "$OUT/tune.txt"
    timeout "$left" $NODE $HERE/lab.mjs sweep --op MUL_MAT --reps 3 --shapes "$S:contiguous:type0=mxfp4,$S:contiguous:type0=nvfp4" --space '{"family":"mmvq","workgroupSize":[256],"rowsPerWorkgroup":[4,8],"rowsPerThread":[1,2],"blocksPerThread":[1,2],"activations":["prequantized"],"reduction":["subgroup"]}' > "$OUT/e2m1-sweep.txt" 2> "$OUT/e2m1-sweep.err"
    echo "rc=$?" >> "$OUT/tune.txt"
    sed -n '/^reference/,/^proposal/p' "$OUT/e2m1-sweep.txt" | sed 's/mmvq{"activations":"\([a-z]*\)","blocksPerThread":\([0-9]\),"reduction":"\([a-z]*\)","rowsPerThread":\([0-9]\),"rowsPerWorkgroup":\([0-9]*\),"workgroupSize":\([0-9]*\)}/mmvq W\6 R\5 RT\4 U\2 \1 \3/g' >> "$OUT/tune.txt"
  fi
  echo "elapsed ${SECONDS}s" >> "$OUT/tune.txt"
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = gemvfloor ]; then
  # The GEMV f32 rows against their read floor (readfloor: SUM_ROWS over the same matrix, 22.7 / 240.3 µs, the best
  # of 24 being one workgroup a row, 128–512 threads, 8 loads in flight): the gemv family at the same points, one
  # `lab sweep` over both shapes (reference = the registry's pick). `round.sh tune-gemvfloor:90`. LOCAL=1: small shapes.
  G4=4096x1x4096; G16=16384x1x16384
  [ -n "${LOCAL:-}" ] && { G4=256x1x64; G16=512x1x128; }
  echo "=== gemvfloor: sweep $G4,$G16" >> "$OUT/tune.txt"
  timeout 80 $NODE ${LAB_DIR:-dist-cli}/lab.mjs sweep --op MUL_MAT --reps ${FLOOR_REPS:-5} --shapes "$G4,$G16" --space '{"family":"gemv","workgroupSize":[128,256,512],"rowsPerWorkgroup":[1,2,4],"columnsPerPass":[1],"vectorWidth":[4],"unroll":[4,8],"reduction":["subgroup"]}' --json "$OUT/gemvfloor.json" > "$OUT/gemvfloor.txt" 2> "$OUT/gemvfloor.err"
  echo "rc=$?" >> "$OUT/tune.txt"
  sed -n '/^reference/,/^proposal/p' "$OUT/gemvfloor.txt" | sed -E 's/gemv\{"columnsPerPass":1,"reduction":"subgroup","rowsPerThread":1,"rowsPerWorkgroup":([0-9]*),"unroll":([0-9]*),"vectorWidth":4,"workgroupSize":([0-9]*)\}/gemv W\3 R\1 U\2/g' >> "$OUT/tune.txt"
  tail -2 "$OUT/gemvfloor.err" >> "$OUT/tune.txt"
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = readfloor ]; then
  # Issue 26's GEMV f32 rows against a read floor (`round.sh tune-readfloor:150`): a GEMV with N = 1 reads all M·K
  # weights, so no GEMV can beat the fastest kernel that only reads the same matrix. SUM_ROWS over the same
  # K×M f32 matrix (ggml dims K x M: a row per weight row) reads exactly those bytes and writes M floats; the norm
  # family's one-workgroup-a-row kernels are swept over threads, reduction and loads in flight, in one call with
  # the registry's GEMV picks (`lab time`, before and after the sweeps: clock drift). Targets: 4096² ≤ 22 µs,
  # 16384² ≤ 235 µs. LOCAL=1: small shapes (SwiftShader dry run).
  R4=4096x4096; R16=16384x16384; G4=4096x1x4096; G16=16384x1x16384
  [ -n "${LOCAL:-}" ] && { R4=256x64; R16=512x128; G4=256x1x64; G16=512x1x128; }
  a $G4; a $G16
  for sh in $R4 $R16; do
    echo "=== readfloor: SUM_ROWS $sh" >> "$OUT/tune.txt"
    timeout 70 $NODE ${LAB_DIR:-dist-cli}/lab.mjs sweep --op SUM_ROWS --reps ${FLOOR_REPS:-5} --shapes "$sh" --space '{"family":"norm","workgroupSize":[128,256,512,1024],"vectorWidth":[4],"reduction":["subgroup","shared"],"unroll":[2,4,8]}' --json "$OUT/floor-$sh.json" > "$OUT/floor-$sh.txt" 2> "$OUT/floor-$sh.err"
    echo "rc=$?" >> "$OUT/tune.txt"
    sed -n '/^reference/,/^refused/p' "$OUT/floor-$sh.txt" | sed -E 's/norm\{"reduction":"([a-z]*)","unroll":([0-9]*),"vectorWidth":([0-9]*),"workgroupSize":([0-9]*)\}/norm W\4 U\2 vw\3 \1/g' >> "$OUT/tune.txt"
    tail -2 "$OUT/floor-$sh.err" >> "$OUT/tune.txt"
  done
  a $G4; a $G16
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = f32d ] || [ "${1:-}" = f32e ] || [ "${1:-}" = f32g ] || [ "${1:-}" = f32h ] || [ "${1:-}" = f32i ] || [ "${1:-}" = gemm9 ]; then
  # Issue 26's two missed MUL_MAT rows, sixth session. f32d (f32 4096³ ≥ 45; the rule 128×128 K16 8×16 prefetch pipelined,
  # 41.5): 256-thread 8×16 tiles of 128×256 and 256×128 (tileM/tileN 256, swept on request: 33% fewer staged floats a
  # FMA) and K8 double staging. gemm9 (f16 4096³ ≥ 250; the rule 2×2 · 4×4 K32 prefetch, 609 µs): K steps written out,
  # 128×256 at K32 with the eight-subgroup grid, the 4096×512 rule's K64 tiles with workgroup order and written-out steps.
  # The rule first and last (clock drift). `round.sh tune-f32d:100 tune-gemm9:80`; DEADLINE names what is left unrun.
  BIG=4096x4096x4096; F=type0=1,type1=1
  [ -n "${LOCAL:-}" ] && BIG=256x256x128
  DEADLINE=$((SECONDS + ${F32D_S:-95}))
  ok() { [ "$SECONDS" -lt "$DEADLINE" ] || { echo "## (skipped past the deadline: $*)" >> "$OUT/tune.txt"; return 1; }; }
  # mm SHAPE ROW…: each ROW "tileM tileN tileK threadM threadN staging padding inner" (vec4, splitK 1, scalar stores), timed unless past DEADLINE.
  mm() { local sh=$1; shift; for v in "$@"; do set -- $v; ok $v && m $sh $1 $2 $3 $4 $5 $6 1 $7 $8; done; }
  if [ "$1" = f32d ]; then
    mm $BIG \
      "128 128 16 8 16 prefetch none pipelined" "128 256 16 8 16 prefetch none pipelined" "256 128 16 8 16 prefetch none pipelined" \
      "128 256 16 8 16 prefetch vec4 pipelined" "128 256 16 8 16 prefetch none pipelined4" "128 256 8 8 16 prefetch none pipelined" \
      "128 256 8 8 16 double none pipelined" "128 128 8 8 16 double none pipelined" "128 256 16 8 16 single none pipelined" \
      "128 128 16 8 16 prefetch none pipelined"
    rates f32d
  elif [ "$1" = f32e ]; then
    # Around f32d's best (128×256 K8 double pipelined: 42.00 against the rule's 41.48 in one call): its padding, inner
    # loop, 256×128, K16 double (48 KiB: the H200's limit), the rule and the winner again (drift).
    mm $BIG \
      "128 128 16 8 16 prefetch none pipelined" "128 256 8 8 16 double none pipelined" "128 256 8 8 16 double vec4 pipelined" \
      "128 256 8 8 16 double none unrolled" "128 256 8 8 16 double none loop" "256 128 8 8 16 double none pipelined" \
      "128 256 16 8 16 double none pipelined" "256 128 16 8 16 double none pipelined" "128 128 16 8 16 prefetch none pipelined" \
      "128 256 8 8 16 double none pipelined"
    rates f32e
  elif [ "$1" = f32g ]; then
    # Around f32e's best (128×256 K8 double padded pipelined, 42.40): its inner loop as 4-k groups or written out,
    # 8×8 a thread (512 threads: twice the warps for latency, 64 accumulators), 128×128 K8 double padded, the old rule;
    # the 128×256 8×16 tile first and last.
    mm $BIG \
      "128 256 8 8 16 double vec4 pipelined" "128 256 8 8 16 double vec4 pipelined4" "128 256 8 8 16 double vec4 unrolled" \
      "128 256 8 8 8 double vec4 pipelined" "128 256 16 8 8 double vec4 pipelined" "128 128 8 8 16 double vec4 pipelined" \
      "128 128 16 8 16 prefetch none pipelined" "128 256 8 8 16 double vec4 pipelined"
    rates f32g
  elif [ "$1" = f32h ]; then
    # f32g's lead: 128×256 at 8×8 a thread (512 threads) 43.92 against 42.43 for 8×16 (256 threads). More warps a tile;
    # the 8×16 tile first and last.
    mm $BIG \
      "128 256 8 8 16 double vec4 pipelined" "128 256 8 8 8 double vec4 pipelined" "256 128 8 8 8 double vec4 pipelined" \
      "128 256 8 8 8 double none pipelined" "128 256 8 8 8 double vec4 unrolled" "128 256 8 8 8 prefetch vec4 pipelined" \
      "128 256 16 8 8 prefetch none pipelined" "128 256 8 4 16 double vec4 pipelined" "128 128 8 8 8 double vec4 pipelined" \
      "256 256 8 8 16 double vec4 pipelined" "128 256 8 8 8 double vec4 pipelined" "128 256 8 8 16 double vec4 pipelined"
    rates f32h
  elif [ "$1" = f32i ]; then
    # f32h's winner, 128×128 K8 8×8 double padded pipelined (256 threads, 64 accumulators): 45.27 TFLOP/s at 4096³,
    # against 42.39 / 42.30 for 128×256 8×16. Its knobs, then 4096x512x4096 against that shape's rule (K16).
    N512=4096x512x4096
    [ -n "${LOCAL:-}" ] && N512=128x64x64
    mm $BIG \
      "128 128 8 8 8 double vec4 pipelined" "128 128 16 8 8 double vec4 pipelined" "128 128 8 8 8 double none pipelined" \
      "128 128 8 8 8 double vec4 unrolled" "128 128 8 8 8 double vec4 loop" "128 128 8 8 8 prefetch vec4 pipelined" \
      "128 128 8 4 8 double vec4 pipelined" "64 128 8 8 8 double vec4 pipelined" "128 256 8 8 16 double vec4 pipelined" \
      "128 128 8 8 8 double vec4 pipelined"
    mm $N512 \
      "128 128 16 8 8 double vec4 pipelined" "128 128 8 8 8 double vec4 pipelined" "128 128 8 8 8 double none pipelined" \
      "128 128 16 8 8 double vec4 pipelined"
    rates f32i
  else
    T() { ok "$@" && s $BIG 16x16x16 $1 $2 $3 $4 $5 $F $6 plain "${7:-}"; }
    T 2 2 4 4 32 prefetch
    T 2 2 4 4 32 prefetch '"kSteps":"unrolled"'
    T 2 2 4 4 32 prefetch '"kSteps":"unrolled","prefetchAt":"mma"'
    T 2 2 4 4 32 prefetch '"groupM":8,"kSteps":"unrolled"'
    T 2 4 4 4 32 prefetch
    T 2 4 4 2 64 prefetch '"groupM":8'
    T 2 4 4 2 64 prefetch '"kSteps":"unrolled"'
    T 2 2 4 4 32 prefetch
    rates gemm9
  fi
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = gemm8 ]; then
  # Issue 26's f16 4096×512×4096 row (≥ 150 TFLOP/s, ≤ 114.5 µs) around gemm7's winner, now the rule (4×2 · 2×4: 128×128
  # tiles of eight subgroups; lane 118.6 µs, 144.9): its staging, K tile, row padding, workgroup order, K steps and
  # prefetch placement; the rule first and last (drift). `round.sh tune-gemm8:80`; DEADLINE keeps it under 75 s.
  F=type0=1,type1=1; N512=4096x512x4096
  [ -n "${LOCAL:-}" ] && N512=256x128x128
  DEADLINE=$((SECONDS + ${GEMM8_S:-75}))
  T() { s $N512 16x16x16 $1 $2 $3 $4 $5 $F $6 plain "${7:-}"; }
  T 4 2 2 4 32 prefetch
  T 4 2 2 4 64 prefetch
  T 4 2 2 4 32 double
  T 4 2 2 4 32 single
  T 4 2 2 4 32 prefetch '"rowPad":"32B"'
  T 4 2 2 4 32 prefetch '"rowPad":"none"'
  T 4 2 2 4 32 prefetch '"groupM":4'
  T 4 2 2 4 32 prefetch '"groupM":8'
  T 4 2 2 4 32 prefetch '"kSteps":"unrolled"'
  T 4 2 2 4 32 prefetch '"prefetchAt":"mma"'
  T 2 4 4 2 32 double
  T 2 4 4 2 64 prefetch
  T 4 2 2 4 32 prefetch
  rates gemm8
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = gemm7 ]; then
  # Issue 26's f16 rows after gemm6 (2×4 · 4×2, eight subgroups on a 128×128 tile, was the best 4096×512 row: 144.3
  # against the rule's 141): one `lab sweep` over subgroups 2/4 × 2/4 and matrices 2/4 × 2/4 (K32 prefetch) at
  # 4096×512×4096 and 4096³, f16×f16→f32; reference = the registry's picks. `round.sh tune-gemm7:150`.
  SH="4096x512x4096:contiguous:type0=1;type1=1,4096x4096x4096:contiguous:type0=1;type1=1"
  [ -n "${LOCAL:-}" ] && SH="256x128x128:contiguous:type0=1;type1=1"
  echo "=== gemm7: sweep $SH" >> "$OUT/tune.txt"
  timeout ${GEMM7_S:-140} $NODE ${LAB_DIR:-dist-cli}/lab.mjs sweep --op MUL_MAT --reps ${GEMM7_REPS:-5} --shapes "$SH" --space '{"family":"sgmatrix","config":["16x16x16"],"subgroupsM":[2,4],"subgroupsN":[2,4],"matricesM":[2,4],"matricesN":[2,4],"tileK":[32],"subgroupSize":[32],"staging":["prefetch"]}' --json "$OUT/gemm7.json" > "$OUT/gemm7.txt" 2> "$OUT/gemm7.err"
  echo "rc=$?" >> "$OUT/tune.txt"
  sed -n '/^reference/,/^proposal/p' "$OUT/gemm7.txt" | sed -E 's/sgmatrix\{"config":"16x16x16",.*"matricesM":([0-9]),"matricesN":([0-9]),.*"staging":"([a-z]*)",.*"subgroupsM":([0-9]),"subgroupsN":([0-9]),"tileK":([0-9]*)\}/sgmatrix \4x\5 · \1x\2 K\6 \3/g' >> "$OUT/tune.txt"
  tail -3 "$OUT/gemm7.err" >> "$OUT/tune.txt"
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = gemm6 ]; then
  # Issue 26, sgmsplit helper (2026-12-02): sgmatrix splitK — K groups of subgroups inside the workgroup (each
  # multiplies its slice of every staged K tile into its own accumulators; partials summed through workgroup
  # memory at the end): 8 subgroups on a 128×64 tile without a shorter grid (4096x512x4096: 256 workgroups).
  # The registry's rule for 4096x512x4096 (2×2 · 4×2, K32 prefetch) first and last (drift); 4096³'s rule before
  # its rows. `round.sh tune-gemm6:150`; DEADLINE keeps the step under 140 s. LOCAL=1: small shapes (refusals on
  # SwiftShader: no subgroup matrices).
  # Placed before the generic LOCAL branch below so that LOCAL=1 runs this step's rows.
  F=type0=1,type1=1
  N512=4096x512x4096; BIG=4096x4096x4096
  [ -n "${LOCAL:-}" ] && { N512=256x128x128; BIG=256x256x128; }
  DEADLINE=$((SECONDS + ${GEMM6_S:-135}))
  T() { s $N512 16x16x16 $1 $2 $3 $4 $5 $F $6 plain "$7"; }
  B() { s $BIG 16x16x16 $1 $2 $3 $4 $5 $F $6 plain "$7"; }
  K2='"splitK":2'; K4='"splitK":4'
  T 2 2 4 2 32 prefetch ''
  T 2 2 4 2 32 prefetch "$K2"
  T 2 2 4 2 64 prefetch ''
  T 2 2 4 2 64 prefetch "$K2"
  T 2 2 4 2 64 prefetch "$K4"
  T 2 2 4 2 32 double "$K2"
  T 2 2 4 2 32 single "$K2"
  T 2 2 4 2 32 prefetch "$K2,\"kSteps\":\"unrolled\""
  T 2 1 4 4 32 prefetch "$K2"
  T 2 1 4 4 64 prefetch "$K4"
  T 4 2 2 2 32 prefetch ''
  T 4 2 2 2 32 prefetch "$K2"
  T 2 2 2 2 32 prefetch "$K2"
  T 2 2 4 4 32 prefetch ''
  T 2 2 4 4 32 prefetch "$K2"
  T 2 4 4 2 32 prefetch ''
  T 2 4 4 2 32 prefetch "$K2"
  B 2 2 4 4 32 prefetch ''
  B 2 2 4 4 32 prefetch "$K2"
  B 2 4 4 2 32 prefetch "$K2"
  B 4 2 4 4 32 prefetch "$K2"
  T 2 2 4 2 32 prefetch ''
  rates gemm6
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = ablate26 ] || [ "${1:-}" = ablate26rot ] || [ "${1:-}" = ablate26sc ] || [ "${1:-}" = ablate26sp ] || [ "${1:-}" = ablate26db ]; then
  # Issue 26's f16 4096³ row (225 against ≥ 250), seventh session: where its time goes, with no profiler. The rule's
  # kernel (ABLATE_SCHEDULE to take another) is generated by `lab time -vv`, then timed whole through a manifest (its
  # check must pass: the manifest binds what the schedule saw) and with one part cut out at a time
  # (scripts/gpu/ablate-sgmatrix.mjs; `lab time --kernel … --time-incorrect`, a diagnosis: the cut kernels are wrong).
  # Then the two staging forms that avoid 16-bit stores ('matrix' copies, 'direct' loads), robustness on and off
  # (KERNEL_LAB_DAWN_TOGGLES, diagnosis only), and the rule once more (clock drift). `round.sh tune-ablate26:150`.
  SH=${ABLATE_SHAPE:-4096x4096x4096}; P=type0=1,type1=1
  RULE=${ABLATE_SCHEDULE:-'{"family":"sgmatrix","config":"16x16x16","subgroupsM":2,"subgroupsN":2,"matricesM":4,"matricesN":4,"tileK":32,"subgroupSize":32,"staging":"prefetch"}'}
  # ablate26rot: the same kernel with conflict-free (rotated) staging stores, its cuts only.
  [ "$1" = ablate26rot ] && { RULE=${RULE%\}},\"storeOrder\":\"rotated\"\}; ABLATE_ONLY_CUTS=1; }
  # ablate26sc: with spread stores and branch-free prefetch (gemm11), its cuts only.
  [ "$1" = ablate26sc ] && { RULE=${RULE%\}},\"storeOrder\":\"spread\",\"prefetchGuard\":\"clamped\"\}; ABLATE_ONLY_CUTS=1; }
  # ablate26sp: with spread stores alone (gemm11's winner), its cuts only.
  [ "$1" = ablate26sp ] && { RULE=${RULE%\}},\"storeOrder\":\"spread\"\}; ABLATE_ONLY_CUTS=1; }
  # ablate26db: spread stores with double staging (969 µs against prefetch's 563: where does it lose?), its cuts only.
  [ "$1" = ablate26db ] && { RULE=${RULE/prefetch/double}; RULE=${RULE%\}},\"storeOrder\":\"spread\"\}; ABLATE_ONLY_CUTS=1; }
  if [ -n "${LOCAL:-}" ]; then
    # SwiftShader has no subgroup matrices: the dry run takes an f32 tiled kernel through the same pipeline ('full' only).
    SH=64x32x64; P=type0=0
    RULE='{"family":"matmul","tileM":32,"tileN":32,"tileK":8,"threadM":4,"threadN":4,"vectorWidth":4,"staging":"single","splitK":1}'
  fi
  echo "## $SH ablate: the kernel $RULE" >> "$OUT/tune.txt"
  timeout 40 $NODE ${LAB_DIR:-dist-cli}/lab.mjs time --op MUL_MAT --shape "$SH" --param $P --schedule "$RULE" -vv > "$OUT/ablate-rule.txt" 2> "$OUT/ablate-rule.err"
  grep -hE "^correct|^timing|^metrics|rror" "$OUT/ablate-rule.txt" "$OUT/ablate-rule.err" >> "$OUT/tune.txt"
  TYPES='{"src0":"f16","src1":"f16"}'; [ -n "${LOCAL:-}" ] && TYPES='{}'
  $NODE scripts/gpu/ablate-sgmatrix.mjs "$OUT/ablate-rule.err" "$OUT/ablate" "$TYPES" > "$OUT/ablate-cuts.txt" 2>> "$OUT/tune.txt"
  while IFS=$'\t' read -r name doc; do
    # ABLATE_NAMES (space-separated): only these variants.
    [ -n "${ABLATE_NAMES:-}" ] && [[ " $ABLATE_NAMES " != *" $name "* ]] && continue
    echo "## $SH ablate $name: $doc" >> "$OUT/tune.txt"
    timeout 40 $NODE ${LAB_DIR:-dist-cli}/lab.mjs time --kernel "$OUT/ablate/$name/manifest.json" --shape "$SH" --param $P --time-incorrect 2>&1 | grep -E "^correct|^timing|^metrics|rror" >> "$OUT/tune.txt"
  done < "$OUT/ablate-cuts.txt"
  if [ -z "${LOCAL:-}" ] && [ -z "${ABLATE_ONLY_CUTS:-}" ]; then
    F=type0=1,type1=1
    stagings() { s $SH 16x16x16 2 2 4 4 32 $F prefetch matrix; s $SH 16x16x16 2 2 4 4 32 $F direct plain; }
    stagings
    echo "=== KERNEL_LAB_DAWN_TOGGLES=disable_robustness" >> "$OUT/tune.txt"
    KERNEL_LAB_DAWN_TOGGLES=disable_robustness s $SH 16x16x16 2 2 4 4 32 $F prefetch plain
    KERNEL_LAB_DAWN_TOGGLES=disable_robustness stagings
    echo "=== robustness on" >> "$OUT/tune.txt"
    s $SH 16x16x16 2 2 4 4 32 $F prefetch plain
  fi
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = probe26 ]; then
  # f16 4096³ (spread, 560–565 µs; ≥ 250 TFLOP/s is ≤ 549.8 µs), eighth session: what limits it, before more knobs.
  # (1) Rounds: 1024 tiles of 128×128 on 132 SMs at two workgroups an SM are 3.88 rounds of 264, run as 4. N = 4224
  # (1056 tiles: exactly 4 rounds) costing what 4096 costs, and N = 3200 / 3328 (3.03 / 3.15 rounds) costing near
  # it too, says the last round is a whole one. (2) Occupancy: the kernel with workgroup memory padded to 24–48 KiB
  # (scripts/gpu/ablate-sgmatrix.mjs --probes): where two workgroups an SM stop fitting, the time jumps (double staging
  # takes 40 KiB, K64 36). (3) K16 double staging (24 KiB). (4) The driver's shader disk cache kept as nvcache.tgz
  # (scripts/gpu/nv-cache-sass.py extract / disasm / summary: registers, spills, instruction counts). `round.sh tune-probe26:200`.
  nvcache_keep
  P=type0=1,type1=1; SH=4096x4096x4096
  for N in 4096 4224 3328 3200 3072 2048 4096; do s 4096x${N}x4096 16x16x16 2 2 4 4 32 $P prefetch spread; done
  probes "$SPREAD" "smem24 smem28 smem32 smem40 smem48"
  h16 2 2 4 4 16 double plain ''; h16 2 2 4 4 16 prefetch plain ''
  s 4096x4096x4096 16x16x16 2 2 4 4 32 $P prefetch spread
  rates probe26
  nvcache_pack
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = gemm17 ]; then
  # f16 4096³ after probe26: more than 24 KiB of workgroup memory halves the workgroups an SM (double's 40 KiB and
  # K64's 36 ran at one: 964 µs, as double's 969), and 4096³ runs 4 whole rounds of 264 workgroups (N = 4224 costs
  # the same 564 µs: 251 TFLOP/s). Deeper staging inside 24 KiB: 'deep' (two register sets, each refilled right after
  # its stores: loads two tiles ahead), K16 double (24 KiB) with K16 spread stores, 8 warps a tile at K16; the
  # prefetch's loads one after each MMA group (prefetchAt interleaved); the scheduling probe 'loadsfenced'. The spread rule first and last; the driver's cache kept for reading offline.
  # `round.sh tune-gemm17:200`.
  nvcache_keep
  U='"kSteps":"unrolled"'
  h16 2 2 4 4 32 prefetch spread ''
  h16 2 2 4 4 32 deep spread ''; h16 2 2 4 4 32 deep spread "$U"; h16 2 2 4 4 32 deep plain ''
  h16 2 2 4 4 16 double spread ''; h16 2 2 4 4 16 deep spread ''; h16 2 2 4 4 16 prefetch spread ''
  h16 4 2 4 4 16 double spread ''; h16 2 4 4 4 16 double spread ''; h16 2 4 4 2 16 double spread ''; h16 4 2 2 4 16 double spread ''
  h16 2 2 4 4 32 deep spread '"groupM":8'
  h16 2 2 4 4 32 prefetch spread "$U,\"prefetchAt\":\"interleaved\""
  probes "$SPREAD" "full loadsfenced"
  h16 2 2 4 4 32 prefetch spread ''
  finish gemm17 nvcache
elif [ "${1:-}" = gemm18 ]; then
  # f16 4096³ after reading the driver's machine code (gemm17's shader cache, disassembled): the staging stores are
  # STS.64 (a thread's eight 16-bit stores merged into two 8-byte stores, not one 16-byte store), and with 'spread'
  # each half-warp's 16 lanes put their lower (or upper) halves on 8 slots: 2-way conflicts. 'swapped' stores an odd
  # row's upper half first: 16 distinct slots. On the f16 rule's tiles, K16/K32/K64, deep and double; on the 4096×512
  # rule and f16 weights × f32; resultOrder 'nm' (64-bit result stores, not the driver's 128 32-bit ones a thread);
  # the spread rule first and last. `round.sh tune-gemm18:200`.
  nvcache_keep
  F=type0=1,type1=1; B=4096x4096x4096; U='"kSteps":"unrolled"'
  h16 2 2 4 4 32 prefetch spread ''
  h16 2 2 4 4 32 prefetch swapped ''; h16 2 2 4 4 32 prefetch swapped '"resultOrder":"nm"'; h16 2 2 4 4 32 prefetch spread '"resultOrder":"nm"'
  h16 2 2 4 4 32 prefetch swapped "$U"; h16 2 2 4 4 32 deep swapped ''; h16 2 2 4 4 32 prefetch swapped '"groupM":8'
  h16 2 2 4 4 16 double swapped ''; h16 2 2 4 4 16 prefetch swapped ''; h16 2 2 4 4 64 prefetch swapped ''
  h16 4 2 4 4 32 prefetch swapped ''; h16 2 4 4 4 32 prefetch swapped ''
  s 4096x512x4096 16x16x16 2 4 4 2 64 $F prefetch plain; s 4096x512x4096 16x16x16 2 4 4 2 64 $F prefetch swapped; s 4096x512x4096 16x16x16 2 2 4 4 32 $F prefetch swapped
  s $B 16x16x16 2 2 4 4 32 type0=1 prefetch spread; s $B 16x16x16 2 2 4 4 32 type0=1 prefetch swapped
  h16 2 2 4 4 32 prefetch swapped ''
  h16 2 2 4 4 32 prefetch spread ''
  finish gemm18 nvcache
elif [ "${1:-}" = gemm19 ]; then
  # f16 4096³ after gemm18: 'swapped' with its offsets from select() took 717 µs against spread's 560 (the driver, it
  # seems, no longer merged the 16-bit stores); the offsets now by arithmetic ((row & 1) · 4). Spread first and last;
  # the driver's cache kept (and disassembled where the machine has zstd). `round.sh tune-gemm19:90`.
  nvcache_keep
  h16 2 2 4 4 32 prefetch spread ''
  h16 2 2 4 4 32 prefetch swapped ''; h16 2 2 4 4 64 prefetch swapped ''
  s 4096x4096x4096 16x16x16 2 2 4 4 32 type0=1 prefetch swapped
  h16 2 2 4 4 32 prefetch spread ''
  finish gemm19 nvcache
elif [ "${1:-}" = gemm20 ]; then
  # f16 4096³, ninth session. (1) pairStride: workgroups w and w + P take tiles stacked along M that read the same
  # src1 columns, so if the H200 runs them on one SM at once the second finds its B tile in L1 (the loads alone
  # took 272 µs of the 560 in ablate26). (2) Smaller register files: the eight-subgroup 128×128 tiles were given
  # 162 registers a thread (one workgroup an SM); single staging and 128×64 tiles, with the registers read from
  # the driver's cache (nv-cache-sass.py extract). Spread first and last. `round.sh tune-gemm20:200`.
  nvcache_keep
  spread16
  spread16 '"pairStride":132'; spread16 '"pairStride":66'
  spread16 '"pairStride":2'
  h16 2 4 4 2 32 single spread ''; h16 4 2 2 4 32 single spread ''
  h16 2 2 4 2 32 prefetch spread ''; h16 2 2 2 4 32 prefetch spread ''
  spread16 '"pairStride":132'
  spread16
  finish gemm20 nvcache
elif [ "${1:-}" = gemm21 ]; then
  # f16 4096³ after gemm20: the driver gives a thread all the registers it likes (212 for a 128×64 tile of 64
  # accumulators, 160 for eight subgroups), so occupancy comes only from its cap, 65536 / threads: sixteen
  # subgroups (512 threads) cap it at 128. 256×128 / 128×256 tiles of sixteen subgroups (4×2 or 2×4 matrices
  # each), 128×128 of sixteen (2×2 each), K32 and K16. Spread first and last. `round.sh tune-gemm21:200`.
  nvcache_keep
  spread16
  h16 4 4 4 2 32 prefetch spread ''; h16 4 4 2 4 32 prefetch spread ''; h16 4 4 2 2 32 prefetch spread ''
  h16 4 4 4 2 32 single spread ''; h16 4 4 4 2 16 prefetch spread ''; h16 4 4 2 4 16 prefetch spread ''
  spread16
  finish gemm21 nvcache
elif [ "${1:-}" = gemm22 ]; then
  # f16, the spread rule: a tile's fixed cost (first loads, the result's stores) against its K steps. M = 4096 and
  # N = 4224 (exactly 4 rounds of 264 workgroups) or 4096 (3.88), K = 4096 … 256: time = a + b·K per round.
  # `round.sh tune-gemm22:120`.
  for N in 4224 4096; do for K in 4096 2048 1024 512 256; do
    s 4096x${N}x${K} 16x16x16 2 2 4 4 32 type0=1,type1=1 prefetch spread
  done; done
  finish gemm22
elif [ "${1:-}" = gemm23 ]; then
  # f16 4096³: persistent workgroups (264 = 2 an SM × 132 SMs, and a few less), each chaining its tiles so the next
  # tile's first loads fly while this one's result is stored. Spread first and last; then f16 weights × f32, the rule
  # and persistent. `round.sh tune-gemm23:120`.
  spread16
  spread16 '"persistent":264'; spread16 '"persistent":256'
  spread16 '"persistent":132'
  s 4096x4224x4096 16x16x16 2 2 4 4 32 type0=1,type1=1 prefetch spread '"persistent":264'
  spread16 '"persistent":264'
  spread16
  s 4096x4096x4096 16x16x16 2 2 4 4 32 type0=1 prefetch spread; s 4096x4096x4096 16x16x16 2 2 4 4 32 type0=1 prefetch spread '"persistent":264'
  finish gemm23
elif [ "${1:-}" = gemm24 ]; then
  # f16 4096³ around gemm23's persistent 256 (552 µs: 1024 tiles, exactly 4 a workgroup): written-out K steps, row
  # padding, fewer workgroups. Spread and persistent 256 first and last. `round.sh tune-gemm24:120`.
  spread16; spread16 '"persistent":256'
  spread16 '"persistent":256,"kSteps":"unrolled"'; spread16 '"persistent":256,"rowPad":"32B"'
  spread16 '"persistent":248'; spread16 '"persistent":240'; spread16 '"persistent":260'
  spread16 '"persistent":256'; spread16
  finish gemm24
elif [ "${1:-}" = gemm10 ]; then
  # f16 4096³ after the ablations (ablate26, seventh session): without global loads the staging stores cost 180 µs, and
  # the plain order's 16-bit stores hit 8 banks a warp (4-way conflicts). 'rotated' (every lane on its own bank) was
  # last timed before the robustness clamp fix; here on the best tilings, K32 and K64. The rule first and last.
  # `round.sh tune-gemm10:90`.
  h16 2 2 4 4 32 prefetch plain
  h16 2 2 4 4 32 prefetch rotated; h16 2 2 4 4 64 prefetch plain; h16 2 2 4 4 64 prefetch rotated
  h16 4 2 4 4 32 prefetch rotated; h16 2 4 4 4 32 prefetch rotated; h16 2 4 4 2 64 prefetch rotated; h16 2 2 4 4 32 double rotated
  h16 2 2 4 4 32 prefetch plain
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = gemm11 ]; then
  # f16 4096³ after ablate26's second call: without global loads the staging stores still cost 180 µs, 'rotated' (32
  # banks, 16-bit stores) costs more, so the stores are likely merged per thread; 'spread' keeps them mergeable and puts
  # a quarter-warp's 16-byte chunks on 32 banks. prefetchGuard 'clamped' drops the branch behind the prefetch loads.
  # The rule first and last; then the 4096×512 and f16 × f32 rules with the same knobs. `round.sh tune-gemm11:120`.
  F=type0=1,type1=1; B=4096x4096x4096
  SC='"prefetchGuard":"clamped"'
  h16 2 2 4 4 32 prefetch plain ''
  h16 2 2 4 4 32 prefetch spread ''; h16 2 2 4 4 32 prefetch plain "$SC"; h16 2 2 4 4 32 prefetch spread "$SC"
  h16 2 2 4 4 64 prefetch plain "$SC"; h16 2 4 4 2 64 prefetch plain "$SC"; h16 4 2 4 4 32 prefetch spread "$SC"; h16 2 4 4 4 32 prefetch spread "$SC"
  h16 2 2 4 4 32 prefetch plain ''
  s 4096x512x4096 16x16x16 2 4 4 2 64 $F prefetch plain; s 4096x512x4096 16x16x16 2 4 4 2 64 $F prefetch plain "$SC"
  s $B 16x16x16 4 2 4 4 32 type0=1 prefetch plain; s $B 16x16x16 4 2 4 4 32 type0=1 prefetch spread "$SC"
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = gemm12 ]; then
  # f16 4096³ around gemm11's winner, spread stores (562 µs against the rule's 614; ≥ 250 TFLOP/s is ≤ 549.8 µs): the
  # prefetch issued right after the stores (prefetchAt early), double staging, the eight-subgroup tilings, K steps written
  # out, groupM; f16 weights × f32 with spread. The rule and spread first and last. `round.sh tune-gemm12:150`.
  B=4096x4096x4096
  h16 2 2 4 4 32 prefetch plain ''; h16 2 2 4 4 32 prefetch spread ''
  h16 2 2 4 4 32 prefetch spread '"prefetchAt":"early"'; h16 2 2 4 4 32 double spread ''
  h16 4 2 4 4 32 prefetch spread ''; h16 2 4 4 4 32 prefetch spread ''; h16 2 4 4 2 32 prefetch spread ''; h16 4 2 2 4 32 prefetch spread ''
  h16 2 2 4 4 32 prefetch spread '"kSteps":"unrolled"'; h16 2 2 4 4 32 prefetch spread '"groupM":8'
  s $B 16x16x16 4 2 4 4 32 type0=1 prefetch spread; s $B 16x16x16 2 2 4 4 32 type0=1 prefetch spread
  h16 2 2 4 4 32 prefetch plain ''; h16 2 2 4 4 32 prefetch spread ''
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = gemm13 ]; then
  # f16 4096³ after gemm12 (spread 562 µs; ≥ 250 TFLOP/s is ≤ 549.8 µs). ablate26sp: the global loads still add ~150 µs
  # over the kernel without them (410), though issued a whole multiply ahead. prefetch2: two register sets, each tile's
  # loads issued an iteration before its stores. The rule and spread first and last. `round.sh tune-gemm13:150`.
  F=type0=1,type1=1; B=4096x4096x4096
  h16 2 2 4 4 32 prefetch plain ''; h16 2 2 4 4 32 prefetch spread ''
  h16 2 2 4 4 32 prefetch2 spread ''; h16 2 2 4 4 32 prefetch2 plain ''; h16 2 2 4 4 32 prefetch2 spread '"kSteps":"unrolled"'
  h16 4 2 4 4 32 prefetch2 spread ''; h16 2 4 4 4 32 prefetch2 spread ''; h16 2 2 4 4 64 prefetch2 plain ''
  s $B 16x16x16 2 2 4 4 32 type0=1 prefetch2 spread
  s 4096x512x4096 16x16x16 2 4 4 2 64 $F prefetch plain; s 4096x512x4096 16x16x16 2 4 4 2 64 $F prefetch2 plain; s 4096x512x4096 16x16x16 2 4 4 2 32 $F prefetch2 spread
  h16 2 2 4 4 32 prefetch plain ''; h16 2 2 4 4 32 prefetch spread ''
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = gemm14 ]; then
  # f16 4096³ after gemm13 (prefetch2 lost: 613 against spread's 562; ≥ 250 TFLOP/s is ≤ 549.8 µs): the prefetch's last
  # tile peeled (no branch in the loop) with spread stores; the same for f16 × f32 and the 4096×512 rule. The rule and
  # spread first and last. `round.sh tune-gemm14:100`.
  F=type0=1,type1=1; B=4096x4096x4096; PE='"prefetchGuard":"peeled"'
  h16 2 2 4 4 32 prefetch plain ''; h16 2 2 4 4 32 prefetch spread ''
  h16 2 2 4 4 32 prefetch spread "$PE"; h16 2 2 4 4 32 prefetch plain "$PE"; h16 2 2 4 4 32 prefetch spread "$PE,\"kSteps\":\"unrolled\""
  s $B 16x16x16 2 2 4 4 32 type0=1 prefetch spread; s $B 16x16x16 2 2 4 4 32 type0=1 prefetch spread "$PE"
  s 4096x512x4096 16x16x16 2 4 4 2 64 $F prefetch plain; s 4096x512x4096 16x16x16 2 4 4 2 64 $F prefetch plain "$PE"
  h16 2 2 4 4 32 prefetch plain ''; h16 2 2 4 4 32 prefetch spread ''
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = gemm15 ]; then
  # f16 4096³, the last rows of the seventh session (spread is the rule: 560–565 µs; ≥ 250 TFLOP/s is ≤ 549.8 µs): the
  # prefetch inside the first MMA step with spread stores (2% slower with plain stores, gemm5), with groupM 8; spread
  # on 16x8x16 matrices. The rule first and last. `round.sh tune-gemm15:60`.
  F=type0=1,type1=1; B=4096x4096x4096; MMA='"kSteps":"unrolled","prefetchAt":"mma"'
  h16 2 2 4 4 32 prefetch spread ''
  h16 2 2 4 4 32 prefetch spread "$MMA"; h16 2 2 4 4 32 prefetch spread "$MMA,\"groupM\":8"
  s $B 16x8x16 2 2 4 4 32 $F prefetch spread
  h16 2 2 4 4 32 prefetch spread ''
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = gemm16 ]; then
  # f16 4096³: fewer live registers a thread for more workgroups an SM (1024 workgroups here, unlike 4096×512's 128):
  # single staging (no prefetch registers), K32 and K64, with spread stores; splitK 2 (eight warps share a tile, half
  # the staging a thread). The spread rule first and last. `round.sh tune-gemm16:80`.
  h16 2 2 4 4 32 prefetch spread ''
  h16 2 2 4 4 32 single spread ''; h16 2 2 4 4 64 single spread ''; h16 2 2 4 4 32 prefetch spread '"splitK":2'; h16 2 2 4 4 64 prefetch spread '"splitK":2'
  h16 2 2 4 4 32 prefetch spread ''
  cat "$OUT/tune.txt"; exit 0
elif [ -n "${LOCAL:-}" ]; then
  g 256x1x256 256 4 1 4 4 subgroup; g 256x1x256 64 2 1 4 4 shared type0=1; g 130x3x66 64 8 4 1 2 subgroup
  s 128x64x128 16x8x16 2 2 2 2 32 type0=1,type1=1
  m 130x66x100 64 64 16 8 8 prefetch 2
  a 256x8x256; a 128x64x128 type0=1,type1=1
  # qgemm's rows: here the sgmatrix schedules are refused by name (no subgroup matrices), auto runs the tiled f32 matmul.
  s 128x64x128 16x16x16 2 2 4 2 32 type0=q4_0,type1=0 prefetch; a 128x64x128 type0=q4_0; a 128x64x128 type0=nvfp4,type1=1
elif [ "${1:-}" = issue26 ]; then
  # Issue 26 (2026-12-02): sgmatrix staging and tilings (16x16x16 needs > 16 KiB: the H200 offers 48),
  # f16 weights × f32, N = 512, GEMV, ROPE generated vs native; `device --calibrate` first (the MMA ceiling).
  F=type0=1,type1=1
  echo "=== calibrate (first: the %FLOP of sgmatrix rows is against its MMA ceiling)" >> "$OUT/tune.txt"
  timeout 90 $NODE ${LAB_DIR:-dist-cli}/lab.mjs device --calibrate --json "$OUT/calibration.json" 2>&1 | grep -iE "mma|fma|copy|empty|rror" >> "$OUT/tune.txt"
  for v in "2 2 4 4 32 single" "2 2 4 4 32 prefetch" "2 2 4 4 32 double" "2 2 4 4 64 prefetch" "4 2 2 4 32 prefetch" "4 4 2 2 32 prefetch" "2 4 4 2 32 double" "4 2 2 4 32 double"; do set -- $v; s 4096x4096x4096 16x16x16 $1 $2 $3 $4 $5 $F $6; done
  s 4096x4096x4096 16x8x16 2 2 4 4 32 $F prefetch
  for v in "2 2 4 4 32 prefetch" "2 2 2 2 32 prefetch" "4 2 2 2 32 prefetch" "2 2 2 4 32 double" "2 2 2 2 64 double"; do set -- $v; s 4096x512x4096 16x16x16 $1 $2 $3 $4 $5 $F $6; done
  for v in "2 2 4 4 32 prefetch" "2 2 4 4 32 double"; do set -- $v; s 4096x4096x4096 16x16x16 $1 $2 $3 $4 $5 type0=1 $6; done
  for v in "256 8 1 4 4 subgroup" "256 8 1 4 2 subgroup" "128 4 1 4 4 subgroup" "512 16 1 4 4 subgroup" "256 1 1 4 4 subgroup"; do g 4096x1x4096 $v; done
  for v in "256 8 1 4 4 subgroup" "256 4 1 4 4 subgroup" "256 1 1 4 4 subgroup" "512 2 1 4 4 subgroup"; do g 16384x1x16384 $v; done
  for v in "256 8 8 4 4 subgroup" "256 8 8 4 2 subgroup" "256 4 8 4 2 subgroup"; do g 4096x8x4096 $v; done
  r ROPE 128x32x512; r ROPE 128x32x512 --native; r ROPE 128x32x4096; r ROPE 128x32x4096 --native
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = gemm1 ]; then
  # Issue 26, gemm helper (2026-12-02): sgmatrix f16 stores rotated by row (bank conflicts), 'direct'
  # (f16 operands loaded by subgroupMatrixLoad from their buffers, no staging); f32 larger register
  # tiles and split K inside the workgroup. References: what auto picks, in the same call.
  F=type0=1,type1=1
  a 4096x4096x4096 $F
  # What Dawn's robustness (clamped indices) costs: diagnosis only, a toggle no browser offers.
  echo "=== KERNEL_LAB_DAWN_TOGGLES=disable_robustness" >> "$OUT/tune.txt"
  KERNEL_LAB_DAWN_TOGGLES=disable_robustness a 4096x4096x4096 $F; KERNEL_LAB_DAWN_TOGGLES=disable_robustness a 4096x4096x4096
  echo "=== (toggles back to the lab's own)" >> "$OUT/tune.txt"
  for v in "4 2 4 4 32 prefetch" "2 2 4 4 32 prefetch" "2 4 4 4 32 prefetch" "4 2 4 4 64 prefetch" "4 2 4 4 32 double" "4 2 4 4 32 single"; do set -- $v; s 4096x4096x4096 16x16x16 $1 $2 $3 $4 $5 $F $6 rotated; done
  for v in "2 2 4 4 32" "4 2 4 4 32" "1 1 4 4 32" "2 2 2 4 32"; do set -- $v; s 4096x4096x4096 16x16x16 $1 $2 $3 $4 $5 $F direct; done
  a 4096x512x4096 $F
  for v in "2 2 4 4 32 prefetch" "2 2 4 2 32 prefetch" "2 2 2 2 32 prefetch" "2 2 4 4 32 direct" "2 2 2 4 32 direct" "1 1 4 4 32 direct"; do set -- $v; s 4096x512x4096 16x16x16 $1 $2 $3 $4 $5 $F $6 rotated; done
  a 4096x4096x4096 type0=1
  for v in "4 2 4 4 32 prefetch" "4 2 4 4 32 direct"; do set -- $v; s 4096x4096x4096 16x16x16 $1 $2 $3 $4 $5 type0=1 $6 rotated; done
  a 4096x4096x4096
  for v in "128 128 16 16 8 prefetch 1" "128 128 16 8 16 prefetch 1" "256 128 16 16 8 prefetch 1" "256 128 8 16 8 prefetch 1" "128 128 16 16 8 prefetch 2" "128 128 16 8 8 prefetch 2"; do m 4096x4096x4096 $v; done
  a 4096x512x4096
  for v in "128 128 16 8 8 prefetch 1" "128 64 16 8 8 prefetch 1" "128 64 16 8 8 prefetch 2" "64 64 16 8 8 prefetch 4" "128 128 16 8 8 prefetch 2" "128 128 16 16 8 prefetch 2" "64 128 32 8 8 prefetch 2" "64 64 16 4 4 prefetch 2"; do m 4096x512x4096 $v; done
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = gemm2 ]; then
  # Issue 26, gemm helper, second call: sgmatrix workgroup loads with min()-clamped offsets (so the
  # driver can drop robustness's predicate around every subgroupMatrixLoad); f32 8×16 register tiles.
  F=type0=1,type1=1
  a 4096x4096x4096 $F; a 4096x512x4096 $F; a 4096x4096x4096 type0=1
  s 4096x4096x4096 16x16x16 2 4 4 4 32 $F prefetch; s 4096x512x4096 16x16x16 2 2 4 2 32 $F prefetch; s 4096x4096x4096 16x8x16 2 2 4 4 32 $F prefetch
  for v in "128 256 16 8 16 prefetch 1"; do m 4096x4096x4096 $v; done
  for v in "128 128 16 8 16 prefetch 1" "128 64 16 8 16 prefetch 1"; do m 4096x512x4096 $v; done
  echo "=== KERNEL_LAB_DAWN_TOGGLES=disable_robustness" >> "$OUT/tune.txt"
  KERNEL_LAB_DAWN_TOGGLES=disable_robustness a 4096x512x4096 $F
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = gemm3 ]; then
  # Issue 26, next (not yet run): with robustness's predicate gone (clamped offsets), do the staging
  # stores' bank conflicts (rotated), double buffering or K64 pay now? N = 512 toward 150 TFLOP/s.
  F=type0=1,type1=1
  a 4096x4096x4096 $F; a 4096x512x4096 $F
  echo "=== KERNEL_LAB_DAWN_TOGGLES=disable_robustness" >> "$OUT/tune.txt"
  KERNEL_LAB_DAWN_TOGGLES=disable_robustness a 4096x4096x4096 $F
  echo "=== (toggles back to the lab's own)" >> "$OUT/tune.txt"
  for v in "4 2 4 4 32 prefetch rotated" "2 4 4 4 32 prefetch rotated" "2 2 4 4 32 double plain" "2 2 4 4 64 prefetch plain" "4 2 4 4 16 prefetch plain" "2 2 4 4 32 prefetch plain"; do set -- $v; s 4096x4096x4096 16x16x16 $1 $2 $3 $4 $5 $F $6 $7; done
  for v in "2 2 4 2 32 prefetch rotated" "2 2 4 2 16 prefetch plain" "2 2 4 2 64 prefetch plain" "2 2 4 2 32 double plain" "2 2 2 4 32 prefetch plain" "4 2 2 2 32 prefetch plain" "4 1 2 4 32 prefetch plain" "1 2 4 4 32 prefetch plain" "2 2 4 4 32 prefetch rotated"; do set -- $v; s 4096x512x4096 16x16x16 $1 $2 $3 $4 $5 $F $6 $7; done
  a 4096x4096x4096 type0=1; s 4096x4096x4096 16x16x16 4 2 4 4 32 type0=1 prefetch rotated
  a 4096x512x4096 type0=1
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = qgemv ]; then
  # Issue 20: the quantized GEMV's block path at 16384² N=1 — the rule (W256 R4 U4: 64 threads a row,
  # four per 32-weight chunk), fewer/more loads in flight, more/fewer rows, and R128 (two threads a
  # row: a thread per whole chunk, the pre-parts layout) as the baseline.
  for f in q4_0 nvfp4; do
    for v in "256 4 1 4 4 subgroup" "256 4 1 4 2 subgroup" "256 4 1 4 1 subgroup" "256 8 1 4 4 subgroup" "256 1 1 4 4 subgroup" "256 128 1 4 1 subgroup"; do g 16384x1x16384 $v type0=$f; done
  done
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = qgemm ]; then
  # Issue 20, qgemm helper: quantized weights on subgroup matrices at 4096×512×4096 (target ≥ 40 TFLOP/s
  # for a 4-bit format), each K tile decoded into f16 workgroup memory (block formats a block per thread,
  # nvfp4 four weights a load), src1 f32 (staged as f16) or f16. Each format: what auto picks (the rule:
  # 128×64 tiles, 256 workgroups, each weight decoded 8×) with f32 and f16 src1; q4_0 also 128×128
  # (20 KiB, decoded 4×), tileK 64 (two blocks a row), 256×128 (30 KiB), and the tiled f32 matmul (what
  # auto picked before, and picks where subgroup matrices are missing). 13 rows, one `lab time` each.
  for fmt in q4_0 q8_0 mxfp4 nvfp4; do a 4096x512x4096 type0=$fmt,type1=0; a 4096x512x4096 type0=$fmt,type1=1; done
  for v in "2 2 4 4 32 prefetch" "2 2 4 2 64 prefetch" "4 2 4 4 32 prefetch"; do set -- $v; s 4096x512x4096 16x16x16 $1 $2 $3 $4 $5 type0=q4_0,type1=0 $6; done
  s 4096x512x4096 16x16x16 2 2 4 4 32 type0=q4_0,type1=1 prefetch
  echo "## 4096x512x4096 matmul 128x128 K16 t8x8 prefetch type0=q4_0 (f32 tiled)" >> "$OUT/tune.txt"
  timeout 40 $NODE ${LAB_DIR:-dist-cli}/lab.mjs time --op MUL_MAT --shape 4096x512x4096 --param type0=q4_0 --schedule '{"family":"matmul","tileM":128,"tileN":128,"tileK":16,"threadM":8,"threadN":8,"vectorWidth":4,"staging":"prefetch","splitK":1}' 2>&1 | grep -E "^correct|^timing|^metrics|rror|refused" >> "$OUT/tune.txt"
  # The short table last: one line per row (median, GFLOP/s, or the error).
  echo "=== qgemm: row | what auto ran | median | GFLOP/s" >> "$OUT/tune.txt"
  awk '/^## /{h=substr($0,4); v=""} /^MUL_MAT /{for(i=1;i<=NF;i++) if($i=="generated"||$i=="native") v=$i" "$(i+1); sub(/\{.*/, "", v)} /^timing/{m=""; for(i=1;i<=NF;i++) if($i=="median" && m=="") m=$(i+1)" "$(i+2)} /^metrics/{for(i=1;i<=NF;i++) if($i=="GFLOP/s") g=$(i-1); printf "%s | %s | %s | %s\n", h, v, m, g} /rror|refused/{printf "%s | %s\n", h, substr($0,1,120)}' "$OUT/tune.txt" > "$OUT/qgemm-table.txt"
  cat "$OUT/qgemm-table.txt" >> "$OUT/tune.txt"
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = qgemm2 ]; then
  # Issue 20, after qgemm: the quantized rule's 128×128 tiles with double staging (constant buffer offsets),
  # and auto for the 4-bit formats at 4096³-class N (2048).
  a 4096x512x4096 type0=q4_0; s 4096x512x4096 16x16x16 2 2 4 4 32 type0=q4_0,type1=0 double
  s 4096x512x4096 16x16x16 2 2 4 4 64 type0=q4_0,type1=0 prefetch; a 4096x512x4096 type0=q8_0,type1=1
  a 4096x2048x4096 type0=q4_0; a 4096x512x4096 type0=int4
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = gemm4 ]; then
  # Issue 26, sgtune helper (2026-12-02): the rules now take 2×2 · 4×4 (gemm3's best, 225.7 TFLOP/s);
  # double staging with constant buffer offsets (gemm3's runtime-picked buffer ran 2.2× slower);
  # storeOrder 'matrix' (f16 tiles copied by subgroupMatrixLoad/Store: no 16-bit workgroup stores);
  # f32 double staging, fixed the same way. 30 rows, one `lab time` process each (~4 s); the first
  # row of each block is the reference (what auto picks).
  F=type0=1,type1=1
  a 4096x4096x4096 $F
  for v in "4 2 4 4 32 prefetch plain" "2 2 4 4 32 double plain" "2 2 4 4 32 prefetch matrix" "2 2 4 4 32 double matrix" "2 2 4 4 32 single matrix" "2 2 4 4 64 prefetch matrix" "2 2 4 4 16 double plain" "4 2 4 4 32 prefetch matrix" "2 4 4 4 32 prefetch matrix"; do set -- $v; s 4096x4096x4096 16x16x16 $1 $2 $3 $4 $5 $F $6 $7; done
  echo "=== KERNEL_LAB_DAWN_TOGGLES=disable_robustness (what the predicate on the global subgroupMatrixLoads costs)" >> "$OUT/tune.txt"
  KERNEL_LAB_DAWN_TOGGLES=disable_robustness s 4096x4096x4096 16x16x16 2 2 4 4 32 $F prefetch matrix
  KERNEL_LAB_DAWN_TOGGLES=disable_robustness s 4096x4096x4096 16x16x16 2 2 4 4 32 $F double plain
  echo "=== (toggles back to the lab's own)" >> "$OUT/tune.txt"
  a 4096x512x4096 $F
  for v in "2 2 4 2 32 double plain" "2 2 4 2 32 prefetch matrix" "2 2 4 2 32 double matrix" "2 2 2 4 32 double plain" "4 1 2 4 32 double plain" "2 2 4 2 16 double plain"; do set -- $v; s 4096x512x4096 16x16x16 $1 $2 $3 $4 $5 $F $6 $7; done
  a 4096x4096x4096 type0=1
  for v in "2 2 4 4 32 prefetch plain" "2 2 4 4 32 double plain" "4 2 4 4 32 prefetch matrix" "2 2 4 4 32 prefetch matrix"; do set -- $v; s 4096x4096x4096 16x16x16 $1 $2 $3 $4 $5 type0=1 $6 $7; done
  a 4096x512x4096 type0=1; s 4096x512x4096 16x16x16 2 2 4 2 32 type0=1 double plain
  # f32 (tiled family): its double staging had the same runtime-picked buffer; now constant offsets too.
  a 4096x4096x4096; m 4096x4096x4096 128 128 16 8 16 double 1
  a 4096x512x4096; m 4096x512x4096 128 128 16 8 8 double 1
  date -u +%FT%TZ >> "$OUT/tune.txt"
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = gemm5 ]; then
  # Issue 26, sgm5 helper (2026-12-02): the f16 rows toward 250 / 150 TFLOP/s with the sgmatrix knobs
  # groupM (workgroup order in bands of G tile-rows: L2 reuse), rowPad (none / 32B), kSteps 'unrolled',
  # prefetchAt 'mma' (next tile's loads inside the first K step), storeIndex 'clamped' (staging stores at
  # min(o, length − span) + e, as the matrix loads' clamp). Reference rows first (today's rules) and again
  # last (drift). 27 rows, one `lab time` each (104 s on the H200); DEADLINE keeps the step under 280 s.
  # Measured 2026-12-02 (docs/benchmarks.md, fourth session): none beat the rules; clamped stores 1.6× slower.
  F=type0=1,type1=1
  DEADLINE=$((SECONDS + ${GEMM5_S:-270}))
  C='"storeIndex":"clamped"'; U='"kSteps":"unrolled"'; P='"kSteps":"unrolled","prefetchAt":"mma"'
  R() { s 4096x4096x4096 16x16x16 2 2 4 4 32 $F prefetch plain "$1"; }
  R ''
  for v in '"groupM":4' '"groupM":8' '"groupM":16' '"rowPad":"none"' '"rowPad":"32B"' "$U" "$P" "$C" "$C,$P" "$C,\"groupM\":8" "$C,$P,\"groupM\":8" "$C,\"rowPad\":\"none\""; do R "$v"; done
  s 4096x4096x4096 16x16x16 4 2 4 4 32 $F prefetch plain "$C"
  T() { s 4096x512x4096 16x16x16 $1 $2 $3 $4 32 $F prefetch plain "$5"; }
  T 2 2 4 2 ''
  for v in "$C" "$P" "$C,$P" '"rowPad":"none"' '"groupM":4'; do T 2 2 4 2 "$v"; done
  for t in "2 1 4 4" "1 2 4 4"; do T $t ''; T $t "$C"; done
  T 2 1 4 4 "$C,$P"
  T 2 2 4 2 ''
  R ''
  date -u +%FT%TZ >> "$OUT/tune.txt"
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = rope26 ]; then
  # ROPE generated vs native (issue 26: the generated path's powi unrolled into selects), llama case and 4096 tokens.
  for sh in 128x32x512 128x32x4096; do r ROPE $sh; r ROPE $sh --native; r ROPE_BACK $sh; r ROPE_BACK $sh --native; done
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = issue26b ]; then
  # Issue 26, second pass: what auto now picks (the 16x16x16 prefetch rule needs the adapter's 48 KiB),
  # larger sgmatrix tiles, GEMV with more loads in flight or more threads per row.
  F=type0=1,type1=1
  a 4096x4096x4096 $F; a 4096x512x4096 $F; a 4096x4096x4096 type0=1
  for v in "2 2 4 4 16 prefetch" "4 2 4 4 32 prefetch" "2 4 4 4 32 prefetch"; do set -- $v; s 4096x4096x4096 16x16x16 $1 $2 $3 $4 $5 $F $6; done
  for v in "2 2 4 2 32 prefetch" "2 2 4 4 16 prefetch" "4 2 4 4 32 prefetch"; do set -- $v; s 4096x512x4096 16x16x16 $1 $2 $3 $4 $5 $F $6; done
  s 4096x4096x4096 16x16x16 4 2 4 4 32 type0=1 prefetch
  for v in "1024 4 1 4 4 subgroup" "256 1 1 4 8 subgroup" "256 4 1 4 8 subgroup" "512 1 1 4 4 subgroup"; do g 4096x1x4096 $v; done
  for v in "1024 4 1 4 4 subgroup" "256 1 1 4 8 subgroup"; do g 16384x1x16384 $v; done
  for v in "256 2 8 4 2 subgroup" "128 1 8 4 2 subgroup" "256 4 4 4 2 subgroup" "256 4 8 4 1 subgroup"; do g 4096x8x4096 $v; done
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = robust20 ]; then
  # Issue 20's E2M1 row, sixth session: how much of the instruction floor (alufloor) is robustness's clamping? nvfp4 and
  # int4 GEMVs (the registry's picks) at 6144² (weights in L2) and 16384², robustness on, then off (diagnosis only:
  # browsers never offer the toggle), then on again. `round.sh tune-robust20:90`.
  G6=6144x1x6144; G16=16384x1x16384
  rows() { for f in nvfp4 int4; do a $G6 type0=$f; done; a $G16 type0=nvfp4; }
  rows
  echo "=== KERNEL_LAB_DAWN_TOGGLES=disable_robustness" >> "$OUT/tune.txt"
  KERNEL_LAB_DAWN_TOGGLES=disable_robustness rows
  echo "=== robustness on again" >> "$OUT/tune.txt"
  rows
  rates robust20
  cat "$OUT/tune.txt"; exit 0
elif [ "${1:-}" = auto26 ]; then
  # Issue 26's rows as the registry picks them now (`round.sh tune-auto26:150`): one `lab time` each.
  F=type0=1,type1=1
  a 4096x4096x4096 $F; a 4096x512x4096 $F; a 4096x4096x4096 type0=1
  a 4096x4096x4096; a 4096x512x4096; a 4096x1x4096; a 16384x1x16384; a 4096x8x4096
  cat "$OUT/tune.txt"; exit 0
elif [ -n "${1:-}" ] && [ "$1" != bench ] && [ "$1" != default ]; then
  # A step this copy of the script lacks (a branch not merged here) must not fall through to the long default rows.
  echo "matmul-tune.sh: unknown step '$1' (this checkout's steps are listed at the top of the script)" | tee -a "$OUT/tune.txt" >&2
  exit 2
elif [ "${1:-}" != bench ]; then
  for v in "256 4 1 4 4 subgroup" "256 8 1 4 4 subgroup" "128 4 1 4 4 subgroup" "256 2 1 4 4 subgroup" "256 1 1 4 4 subgroup" "256 8 1 4 2 subgroup" "64 2 1 4 4 subgroup" "256 4 1 4 4 shared"; do g 4096x1x4096 $v; done
  for v in "256 8 1 4 4 subgroup" "256 2 1 4 4 subgroup"; do g 16384x1x16384 $v; done
  for v in "256 4 8 4 4 subgroup" "256 8 8 4 4 subgroup" "256 2 8 4 4 subgroup" "256 8 4 4 4 subgroup" "256 8 8 4 2 subgroup" "256 1 8 4 2 subgroup"; do g 4096x8x4096 $v; done
  g 4096x1x4096 256 8 1 4 4 subgroup type0=1
  for v in "16x8x16 2 2 4 4 32" "16x16x16 2 2 4 4 32" "16x8x16 4 2 2 4 32" "16x8x16 2 2 4 4 64" "16x8x16 2 4 4 2 32" "16x8x8 2 2 4 4 32"; do s 4096x4096x4096 $v type0=1,type1=1; done
  s 4096x512x4096 16x8x16 2 2 4 4 32 type0=1,type1=1
  s 4096x4096x4096 16x8x16 2 2 4 4 32 type0=1
  a 4096x4096x4096; a 4096x512x4096
fi
echo "=== bench" >> "$OUT/tune.txt"
timeout ${BENCH_S:-120} $NODE ${LAB_DIR:-dist-cli}/lab.mjs bench ${BENCH_ONLY:+--only $BENCH_ONLY} --peer tfjs --json "$OUT/bench.json" > "$OUT/bench.txt" 2> "$OUT/bench.err"
echo "bench rc=$?" >> "$OUT/tune.txt"
cat "$OUT/tune.txt"; tail -30 "$OUT/bench.txt"; tail -5 "$OUT/bench.err"
