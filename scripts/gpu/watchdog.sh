#!/usr/bin/env bash
# The watchdog and the ggml-style user kernel on the H200 (issues 23/25), on the device machine
# (the device tool's `run`), carrying .gpu/ and dist-cli/ as scripts/gpu/h200.sh does. Usage:
#   bash scripts/gpu/watchdog.sh
# 1. ggml-style-add unchanged: the f16 variant is chosen (shader-f16 through Dawn's toggle),
#    judged by f16's bound, labelled (f16-staged); workgroup = maxComputeInvocationsPerWorkgroup.
# 2. A never-terminating user kernel in the lane beside the example: the watchdog (bound 2 s) ends
#    it, the device is recreated (recovery ms in the note), the lane goes on: the second shape and
#    the other kernel are measured.
# 3. `time --kernel` over three shapes whose middle one never finishes (the loop breaks on every
#    other element count): the CLI prints the too-slow row naming the bound and measures the shapes
#    after it (on a GPU in the same process, the new device's recovery ms in the JSON; where no
#    device works, in a fresh process). Prints a short table: whole CLI run, bound, recovery ms.
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
for f in .gpu/*.deb; do dpkg -x "$f" / >/dev/null 2>&1; done
ldconfig
xz -dc .gpu/node.xz > /tmp/node && chmod +x /tmp/node
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export KERNEL_LAB_DAWN=$PWD/.gpu/dawn.node
lab() { /tmp/node dist-cli/lab.mjs "$@"; }
HANG=$(mktemp -d)
cp examples/kernels/ggml-style-add/*.wgsl "$HANG/"
sed -i 's|    let c = coords(gid.x);|    var k = 0u;\n    loop { if (params.ne == 0u) { break; } k = k + 1u; dst[params.offset_dst] = f32(k); }\n    let c = coords(gid.x);|' "$HANG/binary.wgsl" "$HANG/binary_f16.wgsl"
sed 's/"name": "ggml-style-add"/"name": "never-ends"/' examples/kernels/ggml-style-add/manifest.json > "$HANG/manifest.json"
t0=$(date +%s%N)
lab time --kernel examples/kernels/ggml-style-add/manifest.json --shape 4096x4096 --json "$OUT/ggml-style-add.json" > "$OUT/ggml-style-add.txt" 2>&1; echo "time ggml-style-add: rc=$? in $(( ($(date +%s%N) - t0) / 1000000 )) ms"
t0=$(date +%s%N)
timeout 300 /tmp/node dist-cli/lab.mjs lane --kernel "$HANG/manifest.json" --kernel examples/kernels/ggml-style-add/manifest.json --shape ADD:4096x4096 --shape ADD:4096x64 --repeat 3 --watchdog-ms 2000 --json "$OUT/watchdog-lane.json" > "$OUT/watchdog-lane.txt" 2>&1
echo "lane with a hung kernel: rc=$? in $(( ($(date +%s%N) - t0) / 1000000 )) ms (124 = not bounded)"
# 3. Hangs only where the case has 4096×4096 elements.
HANG2=$(mktemp -d)
cp "$HANG"/*.wgsl "$HANG2/"
sed -i 's|if (params.ne == 0u) { break; }|if (params.ne != 16777216u) { break; }|' "$HANG2/binary.wgsl" "$HANG2/binary_f16.wgsl"
sed 's/"name": "ggml-style-add"/"name": "hangs-at-4096x4096"/' examples/kernels/ggml-style-add/manifest.json > "$HANG2/manifest.json"
t0=$(date +%s%N)
timeout 300 /tmp/node dist-cli/lab.mjs time --kernel "$HANG2/manifest.json" --shape 4096x64 --shape 4096x4096 --shape 4096x256 --watchdog-ms 2000 --json "$OUT/watchdog-time.json" > "$OUT/watchdog-time.txt" 2>&1
TIME_RC=$?
TIME_MS=$(( ($(date +%s%N) - t0) / 1000000 ))
echo "time over 3 shapes, the middle one hung: rc=$TIME_RC in $TIME_MS ms (1 = a too-slow row; 124 = not bounded)"
/tmp/node -e '
const fs = require("fs"); const out = process.argv[1];
const g = JSON.parse(fs.readFileSync(out + "/ggml-style-add.json", "utf8"));
console.log(`ggml-style-add: ${g.userKernel.id} variant ${g.userKernel.variant} correct ${g.correct} bound ${g.bound} workgroup ${g.workgroupSize} dispatch ${g.dispatch} median ${g.timing && (g.timing.medianNs / 1e3).toFixed(1)} µs`);
try { const l = JSON.parse(fs.readFileSync(out + "/watchdog-lane.json", "utf8"));
  for (const p of l.pairs) for (const s of p.shapes) for (const u of s.users ?? []) console.log(`${s.shape}\t${u.kernel.id}\t${u.verdict}\t${(u.note ?? "").slice(0, 160)}`);
} catch (e) { console.log("lane: no JSON (" + e.message + ")"); }
try { const t = JSON.parse(fs.readFileSync(out + "/watchdog-time.json", "utf8"));
  const txt = fs.readFileSync(out + "/watchdog-time.txt", "utf8"); const fresh = /recovered: a fresh process has a device (\d+) ms/.exec(txt);
  console.log("time --kernel, 3 shapes (whole CLI run " + process.argv[2] + " ms, exit " + process.argv[3] + ")");
  console.log("shape\tverdict\tmedian µs\tbound ms\trecovery ms");
  for (const r of t.results) console.log(`${r.shape}\t${r.verdict ?? (r.correct ? "correct" : "wrong")}\t${r.timing ? (r.timing.medianNs / 1e3).toFixed(1) : "—"}\t${r.watchdog ? r.watchdog.boundMs : "—"}\t${r.watchdog ? (r.watchdog.recoveryMs ?? (fresh ? fresh[1] + " (fresh process)" : "none")) : "—"}`);
} catch (e) { console.log("time: no JSON (" + e.message + ")"); }
' "$OUT" "$TIME_MS" "$TIME_RC"
