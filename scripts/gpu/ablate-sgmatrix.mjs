// Ablations of one generated sgmatrix kernel (issue 26: where does f16 4096³'s time go?). No
// profiler reaches the H200 through Dawn, so the kernel is timed with one part cut out at a time
// (`lab time --kernel … --time-incorrect`): the difference is what that part costs where it is not
// hidden under the rest. Each cut is a text edit of the WGSL the lab generated (`lab time -vv`),
// and fails loudly when the text it edits is not there, so an unchanged kernel is never timed
// under a cut's name.
//   node scripts/gpu/ablate-sgmatrix.mjs TIME_VV_STDERR OUTDIR [TYPES_JSON] [--probes]
// writes OUTDIR/NAME/manifest.json + NAME.wgsl for 'full' (the kernel as generated: its check must
// pass, proving the manifest binds what the schedule saw) and, for an sgmatrix kernel, each cut.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The WGSL and dispatch `lab time -vv` printed ("wgsl (dispatch X × Y × Z):" then the text, ending at main's closing brace). */
export function extractWgsl(log) {
  const head = log.match(/^wgsl \(dispatch (\d+) × (\d+) × (\d+)\):\n/m);
  if (!head) throw new Error('no "wgsl (dispatch …):" block in the log: run `lab time … -vv`');
  const rest = log.slice(head.index + head[0].length);
  const main = rest.indexOf('\nfn main(');
  const end = main < 0 ? -1 : rest.indexOf('\n}\n', main);
  if (end < 0) throw new Error('the WGSL block has no `fn main(` closed by a `}` line');
  return { wgsl: rest.slice(0, end + 3), dispatch: [Number(head[1]), Number(head[2]), Number(head[3])] };
}

/** Removes every line matching re; throws when none does (the cut would time the kernel unchanged). */
function drop(wgsl, re, what) {
  const lines = wgsl.split('\n');
  const kept = lines.filter((l) => !re.test(l));
  if (kept.length === lines.length) throw new Error(`cut '${what}': no line matches ${re}`);
  return kept.join('\n');
}

/** Replaces every match of re; throws when there is none. */
function swap(wgsl, re, to, what) {
  if (!re.test(wgsl)) throw new Error(`cut '${what}': nothing matches ${re}`);
  return wgsl.replace(new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`), to);
}

// The generator's lines the cuts recognise (src/core/families/sgmatrix.ts).
const GLOBAL_LOAD = /^\s*[ab]w\d+ = src[01]\[.*\];$/;
const STAGE_STORE = /^\s*s[AB]\d?\[.*\] = .*;$/;
const BARRIER = /^\s*workgroupBarrier\(\);$/;
const MMA = /^\s*acc\d+_\d+ = subgroupMatrixMultiplyAccumulate\(.*\);$/;
const MATRIX_LOAD = /^\s*let ([lr]\d+) = subgroupMatrixLoad<(.*)>\((&s[AB]\d?), min\((.*) \+ kk, (\d+u)\), (true|false), (\d+u)\);$/;

// Each cut is built from the ones before it where it extends them.
const nostage = (w) => drop(drop(w, GLOBAL_LOAD, 'nostage'), STAGE_STORE, 'nostage');
const nostore = (w) => {
  let out = drop(w, STAGE_STORE, 'nostore');
  // The sink's XOR goes before the store block's first use of the loaded vector (a bitcast, or rotated's select).
  out = swap(out, /^(\s*)(let [ab](?:h0 = bitcast<vec2<f16>>\(|v1 = select\()([ab]w\d+)[.,].*;)$/m, '$1sink = sink ^ $3;\n$1$2', 'nostore');
  out = swap(out, /^(\s*)let sg = lid \/ sgSize;$/m, '$1var sink = vec4<u32>();\n$1let sg = lid / sgSize;', 'nostore');
  // Written only when an impossible XOR comes out, so the loads stay and dst is untouched.
  return swap(out, /\n}\n$/, '\n  if (all(sink == vec4<u32>(0x12345u, 0x6789u, 0xabcdu, 0xef01u))) {\n    dst[0] = 1.0;\n  }\n}\n', 'nostore');
};
/** An MMA into acc i_j with i ≠ j (three in four of a square tile). */
const OFF_DIAGONAL_MMA = /^\s*acc(\d+)_(?!\1 =)\d+ = subgroupMatrixMultiplyAccumulate\(.*\);$/;

/**
 * The cuts, each a name, what it keeps, and the edit. Inputs stay uninitialised where staging is cut:
 * the MMA's speed does not depend on the values.
 */
export const CUTS = [
  {
    name: 'nostage',
    doc: 'no global loads and no staging stores: matrix loads from workgroup memory, MMAs, barriers',
    edit: nostage,
  },
  {
    name: 'nostage_nobarrier',
    doc: 'nostage without the barriers: matrix loads and MMAs alone',
    edit: (w) => drop(nostage(w), BARRIER, 'nostage_nobarrier'),
  },
  {
    name: 'noglobal',
    doc: 'staging stores of values made from the index, not loaded: stores, matrix loads, MMAs, barriers',
    edit: (w) => swap(w, /= src([01])\[(.*)\];$/m, '= vec4<u32>($2);', 'noglobal'),
  },
  {
    name: 'nostore',
    doc: 'global loads kept alive by an XOR sink where their stores were (the same wait), no staging stores: loads, matrix loads, MMAs, barriers',
    edit: nostore,
  },
  {
    name: 'loadsonly',
    doc: 'global loads kept alive by an XOR sink where their stores were, nothing else in the K loop but the barriers: the loads’ own floor',
    // The matrix loads go too (left without a use); the result matrices are stored as zeros.
    edit: (w) => drop(drop(nostore(w), MMA, 'loadsonly'), MATRIX_LOAD, 'loadsonly'),
  },
  {
    name: 'mma_quarter',
    doc: 'every matrix load and staging kept, one MMA in four (acc i_j with i = j): the multiply’s share of the time',
    edit: (w) => drop(w, OFF_DIAGONAL_MMA, 'mma_quarter'),
  },
  {
    name: 'noldsm',
    doc: 'the multiply’s matrix loads hoisted out of the K loop (loaded once): staging, barriers, MMAs on registers',
    edit: (w) => {
      const lines = w.split('\n');
      const hoisted = [];
      const rest = lines.filter((l) => {
        const m = l.match(MATRIX_LOAD);
        if (!m) return true;
        hoisted.push(`  let ${m[1]} = subgroupMatrixLoad<${m[2]}>(${m[3]}, min(${m[4]} + 0u, ${m[5]}), ${m[6]}, ${m[7]});`);
        return false;
      });
      if (!hoisted.length) throw new Error("cut 'noldsm': no subgroupMatrixLoad from workgroup memory inside the K step");
      const at = rest.findIndex((l) => /^\s*for \(var k0 = /.test(l));
      if (at < 0) throw new Error("cut 'noldsm': no K loop");
      // Loaded once, before the first tile (workgroup memory not yet written: values do not matter here).
      const unique = [...new Map(hoisted.map((h) => [h.match(/let (\w+)/)[1], h])).values()];
      return [...rest.slice(0, at), ...unique, ...rest.slice(at)].join('\n');
    },
  },
];

/**
 * Variants that stay correct where the subgroup size is 32 (the H200): the branch around the multiply made
 * constant-true, and the subgroup index from a constant size. Timed with their check, like 'full'.
 */
const noactive = (w, what) => swap(w, /^(\s*)let isActive = sg < \d+u;$/m, '$1let isActive = true;', what);
export const SG32 = [
  {
    name: 'noactive',
    doc: 'isActive constant true (every subgroup in the tile at size 32): no branch around the multiply',
    edit: (w) => noactive(w, 'noactive'),
  },
  {
    name: 'sg32',
    doc: 'the subgroup index lid / 32 (a constant size) and isActive constant true',
    edit: (w) => noactive(swap(w, /^(\s*)let sg = lid \/ sgSize;$/m, '$1let sg = lid / 32u;', 'sg32'), 'sg32'),
  },
];

/**
 * A correct variant for kernels whose K loop issues global loads unguarded (double staging's first half): those loads
 * wrapped in a branch on arrayLength(&src0) != 0u (always true, opaque to the compiler), as prefetch's guard wraps
 * its loads. Is the driver sinking unguarded loads down to their stores, past the multiply? Absent where no such loads.
 */
export const GUARDED = {
  name: 'loadsbranch',
  doc: 'the K loop’s unguarded global loads inside an opaque always-true branch (as prefetch’s guard puts them)',
  edit: (w) => {
    const lines = w.split('\n');
    const loop = lines.findIndex((l) => /^\s*for \(var k0 = /.test(l));
    if (loop < 0) return null;
    // The run of loads right after the loop's head (unguarded: a guarded run follows an `if (` line instead).
    let end = loop + 1;
    while (end < lines.length && GLOBAL_LOAD.test(lines[end])) end++;
    if (end === loop + 1) return null;
    const pad = lines[loop + 1].match(/^\s*/)[0];
    return [...lines.slice(0, loop + 1), `${pad}if (arrayLength(&src0) != 0u) {`, ...lines.slice(loop + 1, end).map((l) => `  ${l}`), `${pad}}`, ...lines.slice(end)].join('\n');
  },
};

/**
 * A correct variant for prefetch kernels: the next-tile guard `if (k0 + T < K)` made opaque (`&& arrayLength(&src0) != 0u`),
 * so the compiler cannot peel the last iteration and leave the other loads unguarded (free to sink to their stores).
 */
export const OPAQUE = {
  name: 'opaqueguard',
  doc: 'the prefetch guard if (k0 + T < K) made opaque to the compiler (&& arrayLength(&src0) != 0u)',
  edit: (w) => (/^\s*if \(k0 \+ \d+u < \d+u\) \{$/m.test(w) ? w.replace(/^(\s*)if \(k0 \+ (\d+)u < (\d+)u\) \{$/gm, '$1if (k0 + $2u < $3u && arrayLength(&src0) != 0u) {') : null),
};

/** Bytes of workgroup memory the kernel declares (f16, f32, u32 and vec4<u32> arrays). */
export function workgroupBytes(wgsl) {
  const size = { f16: 2, f32: 4, u32: 4, 'vec4<u32>': 16, 'vec4<f32>': 16 };
  let bytes = 0;
  for (const m of wgsl.matchAll(/^var<workgroup> \w+: array<(f16|f32|u32|vec4<u32>|vec4<f32>), (\d+)>;$/gm)) bytes += size[m[1]] * Number(m[2]);
  return bytes;
}

/**
 * Occupancy probes (correct variants): the kernel unchanged but for an unused workgroup array that brings its
 * workgroup memory to KIB KiB. Where two workgroups an SM stop fitting the SM's shared memory, the time jumps:
 * that tells whether double staging's or K64's extra workgroup memory is what cost them a workgroup an SM. The
 * array is written only behind an opaque never-true branch, at a dynamic index, so the compiler must keep all of it.
 */
export const SMEM_PROBES_KIB = [24, 28, 32, 40, 48];
export function smemProbe(wgsl, kib) {
  const pad = kib * 1024 - workgroupBytes(wgsl);
  if (pad <= 0 || pad % 16 !== 0) return null;
  const decl = wgsl.match(/^var<workgroup> .*;$/gm);
  if (!decl) throw new Error(`probe smem${kib}: the kernel declares no workgroup memory`);
  const lastDecl = decl[decl.length - 1];
  let out = wgsl.replace(lastDecl, `${lastDecl}\nvar<workgroup> probePad: array<vec4<u32>, ${pad / 16}>;`);
  out = swap(out, /\n}\n$/, `\n  if (arrayLength(&src0) == 0u) {\n    probePad[lid % ${pad / 16}u] = vec4<u32>(lid);\n  }\n}\n`, `smem${kib}`);
  return out;
}
/**
 * A scheduling probe (correct): a barrier right after the prefetch's loads, before the multiply. A compiler that
 * sinks the loads past the multiply (to shorten their registers' lives) cannot move them across it, so where the
 * time falls, the loads were being issued late. Null where the kernel has no guarded prefetch block.
 */
export function fencedProbe(wgsl) {
  const re = /^(\s*)if \(k0 \+ \d+u < \d+u\) \{\n(?:\1 {2}[ab]w\d+b? = src[01]\[.*\];\n)+\1\}\n/m;
  const m = wgsl.match(re);
  return m ? wgsl.replace(re, `${m[0]}${m[1]}workgroupBarrier();\n`) : null;
}
export const PROBES = [
  ...SMEM_PROBES_KIB.map((kib) => ({
    name: `smem${kib}`,
    doc: `occupancy probe: an unused workgroup array brings workgroup memory to ${kib} KiB (two workgroups an SM need ${2 * kib} KiB)`,
    edit: (w) => smemProbe(w, kib),
  })),
  { name: 'loadsfenced', doc: 'scheduling probe: a barrier right after the prefetch loads, so they cannot sink past the multiply', edit: fencedProbe },
];

/** Every variant of a generated kernel: 'full', then each cut and each size-32 variant (sgmatrix kernels only); with probes, the occupancy probes alone. */
export function ablations(wgsl, { probes = false } = {}) {
  if (probes) {
    const out = [{ name: 'full', doc: 'the kernel as generated', wgsl }];
    for (const c of PROBES) {
      const edited = c.edit(wgsl);
      if (edited !== null) out.push({ name: c.name, doc: c.doc, wgsl: `// probe ${c.name}: ${c.doc}\n${edited}` });
    }
    return out;
  }
  const out = [{ name: 'full', doc: 'the kernel as generated', wgsl }];
  if (!wgsl.includes('subgroupMatrixMultiplyAccumulate')) return out;
  for (const c of CUTS) out.push({ name: c.name, doc: c.doc, wgsl: `// ablation ${c.name}: ${c.doc}\n${c.edit(wgsl)}` });
  for (const c of SG32) out.push({ name: c.name, doc: c.doc, wgsl: `// variant ${c.name}: ${c.doc}\n${c.edit(wgsl)}` });
  for (const c of [GUARDED, OPAQUE]) {
    const edited = c.edit(wgsl);
    if (edited !== null) out.push({ name: c.name, doc: c.doc, wgsl: `// variant ${c.name}: ${c.doc}\n${edited}` });
  }
  return out;
}

/** A manifest that runs one WGSL text at the dispatch the lab used, for this one shape. */
export function manifestFor(name, wgsl, dispatch, types) {
  const size = wgsl.match(/@workgroup_size\((\d+)(?:, (\d+))?(?:, (\d+))?\)/);
  if (!size) throw new Error(`${name}: no @workgroup_size in the WGSL`);
  const features = ['shader-f16', 'subgroups', 'chromium-experimental-subgroup-matrix'].filter((f) =>
    f === 'shader-f16' ? /enable f16;/.test(wgsl) : f === 'subgroups' ? /enable subgroups;/.test(wgsl) : /enable chromium_experimental_subgroup_matrix;/.test(wgsl),
  );
  const bindings = [...wgsl.matchAll(/@binding\((\d+)\) var<storage, [a-z_]+> (src0|src1|dst):/g)].map((m) => ({ binding: Number(m[1]), role: m[2] }));
  return {
    manifestVersion: 1,
    name: `ablate-${name}`,
    description: `diagnosis: a generated kernel${name === 'full' ? '' : ` with a part cut out (${name})`}, for one shape`,
    op: 'MUL_MAT',
    claims: { types },
    features,
    kernels: [{ name, wgsl: `${name}.wgsl`, workgroupSize: size.slice(1).filter(Boolean).map(Number), bindings, dispatch }],
  };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const args = process.argv.slice(2);
  const probes = args.includes('--probes');
  const [log, outDir, types = '{}'] = args.filter((a) => a !== '--probes');
  if (!log || !outDir) {
    console.error('usage: node scripts/gpu/ablate-sgmatrix.mjs TIME_VV_STDERR OUTDIR [TYPES_JSON] [--probes]');
    process.exit(2);
  }
  const { wgsl, dispatch } = extractWgsl(readFileSync(log, 'utf8'));
  for (const v of ablations(wgsl, { probes })) {
    const dir = join(outDir, v.name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${v.name}.wgsl`), v.wgsl);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifestFor(v.name, v.wgsl, dispatch, JSON.parse(types)), null, 2));
    console.log(`${v.name}\t${v.doc}`);
  }
}
