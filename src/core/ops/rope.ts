// ROPE — ggml_rope_ext(a, pos, freq_factors, n_dims, mode, n_ctx_orig, freq_base, freq_scale,
// ext_factor, attn_factor, beta_fast, beta_slow) and ROPE_BACK — ggml_rope_ext_back (same params):
// a [ne0, ne1 (heads), ne2 (tokens), ne3] f32, pos i32 [ne2], freq_factors f32 [≥ n_dims/2] or none.
// For rotated pair j (0 ≤ j < n_dims/2) of a row at token i2, with p = pos[i2]:
//   θ_extrap = p · theta_scale^j / ff[j],   theta_scale = powf(freq_base, -2/n_dims)
//   θ = freq_scale·θ_extrap, or with ext_factor ≠ 0 YaRN's mix toward θ_extrap by a ramp over j
//   (corr dims from beta_fast/beta_slow) and mscale·= 1 + 0.1·ln(1/freq_scale)
//   (y0, y1) = mscale · (x0·cos θ − x1·sin θ, x0·sin θ + x1·cos θ)
// The pair is (2j, 2j+1) in mode 0 (normal) and (j, j + n_dims/2) in mode 2 (neox), both shifted
// by n_offs (op_params[15], ggml_rope_set_offset); the other elements of the row are copied.
// ROPE_BACK is the inverse rotation (ggml flips sin's sign). This matches ggml d99724f2
// (2026-08-21), ggml-cpu/ops.cpp ggml_compute_forward_rope_flt; multi-rope and vision modes
// (8, 24, 40) are not modelled.
import nativeWgsl from '../../../kernels/ROPE/rope.wgsl?raw';
import { deviceOffsetElements, gather, prng, randomBuffer, randomIntBuffer } from '../hostdata';
import { uniformSchema } from '../codegen/uniforms';
import { f, u } from '../codegen/wgsl';
import { ELEMENTWISE, type ElementwiseSnippet } from '../families/elementwise';
import { generatedPath } from '../families/types';
import { type BindingRole, grid2d, type KernelSpec, nativeTemplated } from '../kernel';
import { contiguous, elementStrides, nelements, nrows, permute, rowsContiguous, view, type TensorDesc } from '../tensor';
import { commonRejection } from './contract';
import { caseLabel, OpCaseError, paramsLabel, parseParams, type OpCase, type OpDef, type OracleResult, type ParamSpec, eachElementOnce } from './types';
import { inputSeed } from '../inputs';

/** llama.cpp's defaults (llama_context_params, llama_hparams) where ggml's builder has none. */
export const PARAMS: readonly ParamSpec[] = Object.freeze([
  { name: 'mode', type: 'enum', default: 0, values: [{ value: 0, name: 'normal' }, { value: 2, name: 'neox' }], doc: 'GGML_ROPE_TYPE_NORMAL (0): pairs (2j, 2j+1); GGML_ROPE_TYPE_NEOX (2): pairs (j, j + n_dims/2)' },
  { name: 'n_dims', type: 'u32', default: 0, doc: 'rotated elements per row, even, ≤ ne0 − n_offs; 0 means ne0 (llama: n_rot = head dim)' },
  { name: 'n_offs', type: 'u32', default: 0, doc: 'first rotated element (op_params[15], ggml_rope_set_offset), even' },
  { name: 'n_ctx_orig', type: 'u32', default: 4096, doc: "training context of the model (YaRN's correction dims)" },
  { name: 'freq_base', type: 'f32', default: 10000, min: 0, doc: 'theta base, > 0 (llama: rope_freq_base, 10000 or 500000)' },
  { name: 'freq_scale', type: 'f32', default: 1, min: 0, doc: 'position scale, > 0 (linear rope scaling: 1/factor)' },
  { name: 'ext_factor', type: 'f32', default: 0, min: 0, doc: 'YaRN extrapolation mix (llama: 0 off, 1 for YaRN models)' },
  { name: 'attn_factor', type: 'f32', default: 1, doc: 'magnitude scale of cos and sin' },
  { name: 'beta_fast', type: 'f32', default: 32, doc: 'YaRN low correction dim (llama default 32)' },
  { name: 'beta_slow', type: 'f32', default: 1, doc: 'YaRN high correction dim (llama default 1)' },
]);

const F = Math.fround;

/** Per-case constants ggml computes once per op in f32; shared by the oracle and the kernel's uniform. */
export interface RopeConstants {
  readonly nDims: number;
  readonly thetaScale: number;
  /** YaRN's [low, high] correction dims (ggml_rope_yarn_corr_dims). */
  readonly corrDims: readonly [number, number];
  /** attn_factor, times 1 + 0.1·ln(1/freq_scale) when ext_factor ≠ 0. */
  readonly mscale: number;
}

/** ggml_rope_yarn_corr_dim, in f32 step by step as ggml's C evaluates it. */
function corrDim(nDims: number, nCtxOrig: number, nRot: number, base: number): number {
  const denom = F(F(nRot * 2) * F(Math.PI));
  return F(F(nDims * F(Math.log(F(nCtxOrig / denom)))) / F(2 * F(Math.log(base))));
}

/** ggml's MAX/MIN macros (a > b ? a : b), whose NaN behaviour differs from Math.max. */
const cmax = (a: number, b: number) => (a > b ? a : b);
const cmin = (a: number, b: number) => (a < b ? a : b);

export function ropeConstants(params: Readonly<Record<string, number>>, ne0: number): RopeConstants {
  const nDims = params.n_dims || ne0;
  const base = params.freq_base;
  const thetaScale = F(Math.pow(base, F(-2 / nDims)));
  const start = Math.floor(corrDim(nDims, params.n_ctx_orig, params.beta_fast, base));
  const end = Math.ceil(corrDim(nDims, params.n_ctx_orig, params.beta_slow, base));
  const corrDims: [number, number] = [cmax(0, start), cmin(nDims - 1, end)];
  let mscale = F(params.attn_factor);
  if (params.ext_factor !== 0) mscale = F(mscale * F(1 + F(F(0.1) * F(Math.log(F(1 / F(params.freq_scale)))))));
  return Object.freeze({ nDims, thetaScale, corrDims: Object.freeze(corrDims), mscale });
}

/** rope_yarn_ramp(low, high, i0) with i0/2 = j, the pair index. */
function yarnRamp(low: number, high: number, j: number): number {
  const y = (j - low) / cmax(0.001, high - low);
  return 1 - cmin(1, cmax(0, y));
}

/** The params and constants, checked the way ggml asserts (plus its hazards, named). */
function checkRope(op: string, ne: readonly number[], params: Readonly<Record<string, number>>): { params: Readonly<Record<string, number>>; k: RopeConstants } {
  const p = parseParams(op, PARAMS, params);
  for (const name of ['freq_base', 'freq_scale']) {
    if (!(p[name] > 0)) throw new OpCaseError(`${op}: ${name} = ${p[name]} is out of range (${name} is a finite number > 0)`);
  }
  const ne0 = ne[0];
  const nDims = p.n_dims || ne0;
  if (nDims % 2) throw new OpCaseError(`${op}: n_dims must be even (ggml asserts n_dims % 2 == 0), got ${nDims}`);
  if (p.n_offs % 2) throw new OpCaseError(`${op}: n_offs must be even (ggml asserts n_offs % 2 == 0), got ${p.n_offs}`);
  if (p.n_offs + nDims > ne0) throw new OpCaseError(`${op}: n_offs + n_dims = ${p.n_offs + nDims} exceeds ne0 = ${ne0} (ggml asserts n_offs + n_dims <= ne0)`);
  // ggml's copy loop walks the row in pairs: an odd ne0 reads and writes one element past the row.
  if (ne0 % 2) throw new OpCaseError(`${op}: ne0 must be even, got ${ne0} (ggml copies the unrotated elements in pairs and would touch element ne0)`);
  const k = ropeConstants(p, ne0);
  if (p.ext_factor !== 0 && !(k.corrDims.every(Number.isFinite) && Number.isFinite(k.mscale))) {
    throw new OpCaseError(`${op}: with ext_factor ≠ 0 the YaRN correction dims are [${k.corrDims.join(', ')}] (n_ctx_orig ${p.n_ctx_orig}, beta_fast ${p.beta_fast}, beta_slow ${p.beta_slow}, freq_base ${p.freq_base}): ggml would compute NaN angles; give n_ctx_orig > 0, beta_fast > 0, beta_slow > 0 and freq_base ≠ 1`);
  }
  return { params: p, k };
}

const NATIVE_WG = 256;

/** The native kernel's uniform: src0 and dst as the shared Tensor descriptors, then the pairs and the per-op constants. */
const ROPE_UNIFORMS = uniformSchema('Params', {
  src0: 'tensor', dst: 'tensor', npairs: 'u32',
  off_pos: 'u32', off_ff: 'u32', neox: 'u32', n_dims: 'u32',
  n_offs: 'u32', ext: 'u32', theta_scale: 'f32', freq_scale: 'f32',
  ext_factor: 'f32', mscale: 'f32', corr0: 'f32', corr1: 'f32',
  sin_sign: 'f32',
});

/** powi and cos_sin, taken from the native source so both kernels turn by the same arithmetic. */
const HELPERS = (() => {
  const m = /\/\/ rope helpers: begin[^\n]*\n([\s\S]*?)\/\/ rope helpers: end/.exec(nativeWgsl);
  if (!m) throw new Error('kernels/ROPE/rope.wgsl lost its "rope helpers: begin … end" markers');
  return m[1];
})();

/**
 * powi(b, j) for j < n without its loop: the same products in the same order (r·x for each set
 * bit, low to high, x squared between), so bit for bit the native kernel's value; the squares of
 * the constant b are baked (f32 squaring is exactly rounded, Math.fround here gives the same), and
 * each bit is a select, so the lanes of a subgroup (different j) never diverge.
 */
export function powiUnrolled(b: number, n: number, name: string): string[] {
  const bits = Math.max(1, Math.ceil(Math.log2(n)));
  const lines = [`  // ${name} = powi(${f(b)}, j) for j < ${n}, unrolled over ${bits} bit${bits > 1 ? 's' : ''}`, `  var ${name} = 1.0;`];
  let x = Math.fround(b);
  for (let i = 0; i < bits; i++) {
    lines.push(`  ${name} = select(${name}, ${name} * ${f(x)}, (j & ${u(2 ** i)}) != 0u);`);
    x = Math.fround(x * x);
  }
  return lines;
}

/**
 * The generated path: one thread per element of dst (the elementwise family). Each element
 * reads itself and its partner in the pair (a custom index), its token's position and, with
 * freq factors, its pair's factor, and rotates with the per-op constants baked in.
 */
function snippet(c: OpCase, sinSign: number): ElementwiseSnippet {
  const [src0, pos, ff] = c.srcs;
  const p = c.params;
  const k = ropeConstants(p, c.dst.ne[0]);
  const nh = k.nDims / 2;
  const lo = u(p.n_offs);
  const hi = u(p.n_offs + k.nDims);
  const neox = p.mode === 2;
  const [, s01, s02, s03] = elementStrides(src0);
  const rowAt = (i0: string) => `${u(deviceOffsetElements(src0))} + ${i0} + i1 * ${u(s01)} + i2 * ${u(s02)} + i3 * ${u(s03)}`;
  const partner = neox ? `select(i0, select(i0 - ${u(nh)}, i0 + ${u(nh)}, i0 < ${u(p.n_offs + nh)}), i0 >= ${lo} && i0 < ${hi})` : '(i0 ^ 1u)';
  // Pair index (u32 wrap below n_offs lands past nh − 1 and is clamped: an in-bounds read never used).
  const pair = neox ? `(i0 - ${lo}) % ${u(nh)}` : `(i0 - ${lo}) / 2u`;
  const first = neox ? `i0 < ${u(p.n_offs + nh)}` : '(i0 & 1u) == 0u';
  const x = c.inplace ? 'dst' : 'src0';
  const yarn = p.ext_factor !== 0
    ? [
        `  let y = (f32(j) - ${f(k.corrDims[0])}) / max(0.001, ${f(k.corrDims[1])} - ${f(k.corrDims[0])});`,
        `  let mix = (1.0 - min(1.0, max(0.0, y))) * ${f(p.ext_factor)};`,
        '  theta = theta * (1.0 - mix) + extrap * mix;',
      ]
    : [];
  const fn = [
    `// y for element i0 (x) given its pair's other element (xp), the token's position and the pair's freq factor`,
    'fn rope(x: f32, xp: f32, pos: f32, ff: f32, i0: u32) -> f32 {',
    `  if (i0 < ${lo} || i0 >= ${hi}) {`,
    '    return x;',
    '  }',
    `  let j = ${pair};`,
    ...powiUnrolled(k.thetaScale, nh, 'tp'),
    '  var extrap = pos * tp;',
    ...(ff ? ['  extrap = extrap / ff;'] : []),
    `  var theta = ${f(p.freq_scale)} * extrap;`,
    ...yarn,
    '  let cs = cos_sin(theta);',
    `  let c = cs.x * ${f(k.mscale)};`,
    `  let s = cs.y * ${f(k.mscale)} * ${f(sinSign)};`,
    `  if (${first}) {`,
    '    return x * c - xp * s;',
    '  }',
    '  return xp * s + x * c;',
    '}',
  ];
  return {
    sources: [
      { name: 'x', tensor: src0, binding: x },
      { name: 'xp', tensor: src0, binding: x, index: rowAt(partner) },
      { name: 'pos', tensor: pos, binding: 'src1', index: `${u(deviceOffsetElements(pos))} + i2` },
      ...(ff ? [{ name: 'ff', tensor: ff, binding: 'src2' as const, index: `${u(deviceOffsetElements(ff))} + min(${pair}, ${u(nh - 1)})` }] : []),
    ],
    outputs: [{ tensor: c.dst, binding: 'dst', expr: `rope(x, xp, f32(pos), ${ff ? 'ff' : '1.0'}, i0)` }],
    functions: `${HELPERS}
${fn.join('\n')}`,
  };
}

export interface RopeOpSpec {
  readonly name: 'ROPE' | 'ROPE_BACK';
  readonly summary: string;
  /** +1 forward, −1 backward (the transposed rotation). */
  readonly sinSign: 1 | -1;
  readonly layouts: readonly { name: string; doc: string }[];
  readonly matrix: OpDef['matrix'];
  readonly bench: OpDef['bench'];
}

function ropeDef(spec: RopeOpSpec): OpDef {
  const op = spec.name;
  const layoutNames = spec.layouts.map((l) => l.name);

  function makeCase(dims: readonly number[], layout: string = 'contiguous', params: Readonly<Record<string, number>> = {}): OpCase {
    if (dims.length < 1 || dims.length > 4) throw new OpCaseError(`${op} takes 1 to 4 dims (ne0xne1[xne2xne3]: head dim, heads, tokens, sequences), got ${dims.length}`);
    if (!layoutNames.includes(layout)) throw new OpCaseError(`${op} has no layout '${layout}' (layouts: ${layoutNames.join(', ')})`);
    const ne = [1, 1, 1, 1].map((one, i) => dims[i] ?? one);
    const [ne0, ne1, ne2, ne3] = ne;
    const { params: p, k } = checkRope(op, ne, params);
    let src0 = contiguous('f32', ne);
    const pos = contiguous('i32', [ne2]);
    let ff: TensorDesc | null = null;
    switch (layout) {
      case 'src0-qkv-view': {
        // The K of a fused QKV projection [3·ne0·ne1, tokens]: heads packed, tokens 3× apart.
        const qkv = contiguous('f32', [3 * ne0 * ne1, ne2, ne3]);
        src0 = view(qkv, ne, [ne0 * 4, qkv.nb[1], qkv.nb[2]], ne0 * ne1 * 4, 'qkv-view');
        break;
      }
      case 'src0-permuted':
        src0 = permute(contiguous('f32', [ne0, ne2, ne1, ne3]), [0, 2, 1, 3]);
        break;
      case 'freq-factors':
        ff = contiguous('f32', [k.nDims / 2]);
        break;
    }
    if (!rowsContiguous(src0)) throw new OpCaseError(`${op}: src0 rows must be contiguous (ggml asserts nb00 == sizeof(float))`);
    const inplace = layout === 'inplace';
    const dst = inplace ? { ...src0, layout: 'inplace' } : contiguous('f32', ne);
    const srcs = ff ? [src0, pos, ff] : [src0, pos];
    return Object.freeze({ op, dims: Object.freeze([...dims]), layout, label: caseLabel(dims, layout, 'contiguous', paramsLabel(PARAMS, p)), srcs: Object.freeze(srcs), dst, inplace, params: p });
  }

  /**
   * x in [-1, 1); positions in [0, 8192) (past n_ctx_orig, where YaRN matters); freq factors in
   * [1, 8) as llama 3's rope_freqs (a factor near 0 would blow θ up).
   */
  function inputs(c: OpCase, seed: number): ArrayBuffer[] {
    const out = [randomBuffer(c.srcs[0], inputSeed(seed, 0)), randomIntBuffer(c.srcs[1], inputSeed(seed, 1), 0, 8192)];
    if (c.srcs[2]) {
      const buf = new ArrayBuffer(c.srcs[2].bufferSizeBytes);
      const next = prng(inputSeed(seed, 2));
      const v = new Float32Array(buf);
      for (let i = 0; i < v.length; i++) v[i] = 1 + 7 * next();
      out.push(buf);
    }
    return out;
  }

  /**
   * f64 rotation with ggml's f32 constants (theta_scale, corr dims, mscale). The kernel forms
   * θ in f32 (theta_scale^j by squaring: up to j + log2 j roundings, as ggml's own running
   * product), so its error is relative to |θ|: epsFloor = |mscale|·(|x0| + |x1|)·(1 + |θ|), and
   * k = n_dims covers those ≈ n_dims/2 roundings. Copied elements are exact (floor 0).
   */
  function oracle(c: OpCase, srcs: readonly ArrayBuffer[]): OracleResult {
    const x = gather(c.srcs[0], srcs[0]);
    const pos = gather(c.srcs[1], srcs[1]);
    const ff = c.srcs[2] ? gather(c.srcs[2], srcs[2]) : null;
    const [ne0, ne1, ne2] = c.dst.ne;
    const p = c.params;
    const { nDims, thetaScale, corrDims, mscale } = ropeConstants(p, ne0);
    const half = nDims / 2;
    const ref = Float64Array.from(x);
    const epsFloor = new Float64Array(x.length);
    const cosSin = new Float64Array(nDims);
    const thetaMag = new Float64Array(half);
    for (let r = 0; r < nrows(c.dst); r++) {
      const i2 = Math.floor(r / ne1) % ne2;
      if (r % ne1 === 0) {
        for (let j = 0; j < half; j++) {
          const extrap = (pos[i2] * thetaScale ** j) / (ff ? ff[j] : 1);
          let theta = p.freq_scale * extrap;
          if (p.ext_factor !== 0) {
            const mix = yarnRamp(corrDims[0], corrDims[1], j) * p.ext_factor;
            theta = theta * (1 - mix) + extrap * mix;
          }
          cosSin[2 * j] = Math.cos(theta) * mscale;
          cosSin[2 * j + 1] = Math.sin(theta) * mscale * spec.sinSign;
          thetaMag[j] = 1 + Math.max(Math.abs(theta), Math.abs(extrap));
        }
      }
      const base = r * ne0 + p.n_offs;
      for (let j = 0; j < half; j++) {
        const [e0, e1] = p.mode === 2 ? [base + j, base + j + half] : [base + 2 * j, base + 2 * j + 1];
        const cos = cosSin[2 * j];
        const sin = cosSin[2 * j + 1];
        ref[e0] = x[e0] * cos - x[e1] * sin;
        ref[e1] = x[e0] * sin + x[e1] * cos;
        epsFloor[e0] = epsFloor[e1] = Math.abs(mscale) * (Math.abs(x[e0]) + Math.abs(x[e1])) * thetaMag[j];
      }
    }
    return { ref, epsFloor, terms: nDims };
  }

  function native(c: OpCase): KernelSpec {
    const [src0, pos, ff] = c.srcs;
    const ne0 = c.dst.ne[0];
    const p = c.params;
    const k = ropeConstants(p, ne0);
    const npairs = nrows(c.dst) * (ne0 / 2);
    const values = {
      src0, dst: c.dst, npairs,
      off_pos: deviceOffsetElements(pos), off_ff: ff ? deviceOffsetElements(ff) : 0, neox: p.mode === 2 ? 1 : 0, n_dims: k.nDims,
      n_offs: p.n_offs, ext: p.ext_factor !== 0 ? 1 : 0, theta_scale: k.thetaScale, freq_scale: p.freq_scale,
      ext_factor: p.ext_factor, mscale: k.mscale, corr0: k.corrDims[0], corr1: k.corrDims[1], sin_sign: spec.sinSign,
    };
    const roles = [c.inplace ? 'dst' : 'src0', 'src1', ...(ff ? ['src2'] : []), ...(c.inplace ? [] : ['dst']), 'params'] as const;
    return nativeTemplated('ROPE/rope.wgsl', nativeWgsl, roles as unknown as BindingRole[], grid2d(Math.ceil(npairs / NATIVE_WG)), ROPE_UNIFORMS, values, { INPLACE: c.inplace, FF: !!ff, WG: NATIVE_WG, SRC: c.inplace ? 'dst' : 'src0' });
  }

  const generated = generatedPath(ELEMENTWISE, (c: OpCase) => snippet(c, spec.sinSign));

  return {
    name: op,
    summary: spec.summary,
    shapeSyntax: 'ne0xne1[xne2xne3] of src0: head dim, heads, tokens, sequences',
    layouts: spec.layouts,
    params: PARAMS,
    matrix: spec.matrix,
    bench: spec.bench,
    makeCase,
    oracle,
    inputs,
    flops: () => null,
    bytes: eachElementOnce,
    features: (c) => ({ ne0: c.dst.ne[0], rows: nrows(c.dst), n: nelements(c.dst), nDims: c.params.n_dims || c.dst.ne[0] }),
    native,
    family: generated.family,
    require: (c, adapter) =>
      commonRejection(c, adapter) ??
      (c.inplace ? { code: 'inplace-pairs', reason: "the generated kernel gives each element its own thread, which reads the element's partner: in place another thread may already have overwritten it" } : null),
    fits: generated.fits,
    generate: generated.generate,
  };
}

const COMMON_LAYOUTS = [
  { name: 'contiguous', doc: 'src0 and dst packed [head dim, heads, tokens, sequences]; no freq factors' },
  { name: 'src0-permuted', doc: 'src0 is permute(0,2,1,3) of a packed [ne0, ne2, ne1, ne3] (rows contiguous, heads and tokens swapped)' },
  { name: 'freq-factors', doc: "src2 = freq_factors [n_dims/2] f32 in [1, 8) (llama 3's rope_freqs): θ_j / ff[j]" },
] as const;

export const ROPE = ropeDef({
  name: 'ROPE',
  bench: { dims: [128, 32, 512] },
  summary: 'rotary position embedding, normal or neox pairs, YaRN (ggml_rope_ext, ggml_rope_ext_inplace)',
  sinSign: 1,
  layouts: [
    COMMON_LAYOUTS[0],
    { name: 'inplace', doc: 'ggml_rope_ext_inplace: dst is src0 itself' },
    { name: 'src0-qkv-view', doc: 'src0 is the K slice of a fused QKV tensor [3·ne0·ne1, tokens]: heads packed, tokens 3·ne0·ne1 apart' },
    COMMON_LAYOUTS[1],
    COMMON_LAYOUTS[2],
  ],
  matrix: [
    { dims: [128, 8, 32], layout: 'contiguous' },
    { dims: [64, 7, 33, 2], layout: 'contiguous' },
    { dims: [128, 4, 17], layout: 'inplace' },
    { dims: [96, 5, 19], layout: 'src0-qkv-view' },
    { dims: [64, 6, 21], layout: 'src0-permuted' },
    { dims: [128, 3, 23], layout: 'freq-factors' },
    { dims: [128, 8, 16], layout: 'contiguous', params: { mode: 2 } },
    { dims: [128, 4, 17], layout: 'contiguous', params: { mode: 2, n_dims: 64, ext_factor: 1, freq_scale: 0.25, n_ctx_orig: 2048, beta_fast: 16, beta_slow: 2, attn_factor: 1.5, freq_base: 500000 } },
    { dims: [96, 5, 19], layout: 'src0-qkv-view', params: { n_dims: 32, n_offs: 16 } },
    { dims: [64, 4, 9], layout: 'inplace', params: { mode: 2 } },
  ],
});

export const ROPE_BACK = ropeDef({
  name: 'ROPE_BACK',
  bench: { dims: [128, 32, 512] },
  summary: "ROPE's backward: the inverse rotation (sin negated), same params (ggml_rope_ext_back)",
  sinSign: -1,
  layouts: COMMON_LAYOUTS,
  matrix: [
    { dims: [128, 8, 32], layout: 'contiguous' },
    { dims: [64, 7, 33, 2], layout: 'contiguous' },
    { dims: [64, 6, 21], layout: 'src0-permuted' },
    { dims: [128, 3, 23], layout: 'freq-factors' },
    { dims: [128, 8, 16], layout: 'contiguous', params: { mode: 2 } },
    { dims: [128, 4, 17], layout: 'freq-factors', params: { mode: 2, n_dims: 64, ext_factor: 1, freq_scale: 0.25, n_ctx_orig: 2048, beta_fast: 16, beta_slow: 2, attn_factor: 1.5, freq_base: 500000 } },
    { dims: [96, 5, 19], layout: 'src0-permuted', params: { n_dims: 32, n_offs: 16 } },
  ],
});
