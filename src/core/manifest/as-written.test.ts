// A kernel as an engine wrote it (issue 23): read_write sources, const-expression bindings and
// workgroup sizes, adapter names in expressions, variants by adapter, declared numerics, every
// manifest/WGSL disagreement reported at once, and the 2-D split hint only where it helps.
import { describe, expect, it } from 'vitest';
import { caught } from '../../../test/fixtures/caught';
import { DEFAULT_LIMITS } from '../adapter';
import { OPS } from '../ops/registry';
import { ManifestError, ManifestRefusal } from './errors';
import { EXAMPLE_KERNELS } from './examples';
import { loadManifest } from './load';
import { chooseVariant, resolveManifest } from './resolve';
import { refForPlan } from './source';
import { inspectWgsl } from './wgsl-check';

const ggml = EXAMPLE_KERNELS.find((e) => e.dir === 'ggml-style-add')!;
const add = EXAMPLE_KERNELS.find((e) => e.dir === 'add')!;
const plain = { limits: DEFAULT_LIMITS, features: [] as string[], subgroupMinSize: 4, subgroupMaxSize: 64 };
const withF16 = { ...plain, features: ['shader-f16'] };
const addCase = (dims: number[]) => OPS.find((o) => o.name === 'ADD')!.makeCase(dims, 'contiguous');
const loadText = (manifest: string, files: Record<string, string>) => loadManifest(manifest, (f) => files[f], OPS);
const edit = (src: { manifest: string }, fn: (m: any) => void) => {
  const m = JSON.parse(src.manifest);
  fn(m);
  return JSON.stringify(m);
};


describe('WGSL as written', () => {
  it('evaluates @binding const-expressions and module consts, and sizes the uniform struct', () => {
    const info = inspectWgsl(ggml.files['binary.wgsl']);
    expect(info.bindings.map((b) => [b.binding, b.name, b.access])).toEqual([
      [0, 'src0', 'read_write'],
      [1, 'src1', 'read_write'],
      [2, 'dst', 'read_write'],
      [3, 'params', ''],
    ]);
    expect(info.uniformSizes.get(3)).toBe(19 * 4);
    expect(info.entryPoints[0]).toMatchObject({ name: 'main', workgroupSize: [null, 1, 1], readsWorkgroupYZ: false });
  });

  it('evaluates a const workgroup size and checks the manifest against it', () => {
    const wgsl = add.files['add.wgsl'].replace('override WG: u32 = 64u;', 'const WG: u32 = 32u * 2u;').replace('@workgroup_size(WG)', '@workgroup_size(WG, 1)');
    expect(inspectWgsl(wgsl).entryPoints[0].workgroupSize).toEqual([64, 1, 1]);
    const m = edit(add, (d) => {
      d.kernels[0].workgroupSize = [128];
      delete d.kernels[0].overrides;
    });
    const e = caught(() => resolveManifest(loadText(m, { 'add.wgsl': wgsl }), addCase([64, 8]), plain));
    expect(e).toBeInstanceOf(ManifestError);
    expect(e.message).toMatch(/workgroupSize: is \[128, 1, 1\] but add\.wgsl declares @workgroup_size\(64, 1, 1\) on main/);
  });

  it('sizes vec and nested struct members by the uniform layout rules', () => {
    const info = inspectWgsl(`struct In { a: vec3<f32>, b: u32 };\nstruct P { x: u32, v: vec4<f32>, i: In, arr: array<vec2<f32>, 2> };\n@group(0) @binding(0) var<uniform> p: P;\n@compute @workgroup_size(1) fn main() {}`);
    // x 0..4, v 16..32, i (align 16) 32..48, arr (stride 16) 48..80
    expect(info.uniformSizes.get(0)).toBe(80);
  });
});

describe('everything a manifest claims is checked against its WGSL, all at once', () => {
  it('a uniform shorter than the struct, a wrong role and a missing binding: three problems in one error', () => {
    const m = edit(add, (d) => {
      d.kernels[0].uniforms.splice(16, 2); // off1, offd: 64 of the struct's 72 bytes
      d.kernels[0].bindings[2].binding = 5; // dst at a binding the WGSL does not declare
    });
    const wgsl = add.files['add.wgsl'].replace('var<storage, read> b: array<f32>', 'var<uniform> b: vec4<f32>');
    const e = caught(() => loadText(m, { 'add.wgsl': wgsl })) as ManifestError;
    expect(e).toBeInstanceOf(ManifestError);
    expect(e.problems.map((p) => p.path)).toEqual(['kernels[0].bindings[1]', 'kernels[0].bindings[2]', 'kernels[0].bindings', 'kernels[0].uniforms']);
    expect(e.message).toMatch(/^manifest: 4 problems:\n {2}1\. manifest kernels\[0\]\.bindings\[1\]: role src1 needs var<storage, read> or var<storage, read_write>/);
    expect(e.message).toMatch(/kernels\[0\]\.uniforms: fill 64 bytes, but add\.wgsl's uniform at @binding\(3\) is 72 bytes/);
    expect(e.path).toBe('kernels[0].bindings[1]');
  });

  it('a binding that is not a const-expression the lab can evaluate is named', () => {
    const wgsl = add.files['add.wgsl'].replace('@binding(3)', '@binding(u32(3))');
    expect(caught(() => loadText(add.manifest, { 'add.wgsl': wgsl })).message).toMatch(/'p' has a @binding that is not an integer const-expression the lab can evaluate/);
  });
});

describe('adapter names, variants and declared numerics', () => {
  it('a workgroup sized by max_invocations_per_workgroup follows the adapter', () => {
    const loaded = loadText(ggml.manifest, ggml.files);
    expect(resolveManifest(loaded, addCase([1000, 6]), plain).passes[0].workgroupSize).toEqual([256, 1, 1]);
    const big = { ...plain, limits: { ...DEFAULT_LIMITS, maxComputeInvocationsPerWorkgroup: 1024, maxComputeWorkgroupSizeX: 1024 } };
    const p = resolveManifest(loaded, addCase([1000, 6]), big).passes[0];
    expect(p.workgroupSize).toEqual([1024, 1, 1]);
    expect(p.constants).toEqual({ WG_SIZE: 1024 });
    expect(p.dispatch).toEqual([6, 1, 1]);
  });

  it('the f16 variant where the adapter has shader-f16, judged by f16 and labelled so; the f32 one elsewhere', () => {
    const loaded = loadText(ggml.manifest, ggml.files);
    const f16 = resolveManifest(loaded, addCase([64, 8]), withF16);
    expect(f16).toMatchObject({ variant: 'f16', compute: 'f16-staged', inputRounding: 'f16', features: ['shader-f16'] });
    expect(f16.passes[0].wgslFile).toBe('binary_f16.wgsl');
    const f32 = resolveManifest(loaded, addCase([64, 8]), plain);
    expect(f32).toMatchObject({ variant: 'f32', compute: 'f32' });
    expect(f32.inputRounding).toBeUndefined();
    const ref = { name: 'ggml-style-add', manifestSha256: 'a'.repeat(64), wgsl: [], id: '' };
    expect(refForPlan(ref, f16)).toMatchObject({ id: `ggml-style-add@${'a'.repeat(12)} (f16-staged)`, variant: 'f16', compute: 'f16-staged', numerics: expect.stringMatching(/judged by f16's bound .* not by f32 semantics/) });
    expect(refForPlan(ref, f32)).toEqual({ ...ref, id: `ggml-style-add@${'a'.repeat(12)}`, variant: 'f32' });
  });

  it('no variant that runs is a refusal naming each reason', () => {
    const m = edit(ggml, (d) => d.variants.pop());
    const e = caught(() => chooseVariant(loadText(m, ggml.files), plain));
    expect(e).toBeInstanceOf(ManifestRefusal);
    expect(e.message).toMatch(/missing-feature: ggml-style-add: no variant runs on this adapter \(f16: 'has_f16' is 0 here\)/);
  });

  it('a variant condition reads only adapter names; kernels and variants are exclusive; compute is one of the known', () => {
    expect(caught(() => loadText(edit(ggml, (d) => (d.variants[0].when = 'ne0 > 4')), ggml.files)).message).toMatch(/variants\[0\]\.when: expression 'ne0 > 4' reads unknown name 'ne0' \(names here: has_f16/);
    expect(caught(() => loadText(edit(ggml, (d) => (d.kernels = d.variants[1].kernels)), ggml.files)).message).toMatch(/give either kernels or variants/);
    expect(caught(() => loadText(edit(ggml, (d) => (d.variants[0].compute = 'bf16')), ggml.files)).message).toMatch(/variants\[0\]\.compute: unknown numerics 'bf16' \(compute: f32, f16-staged, f16-accumulate\)/);
  });
});

describe('dispatch-over-limits says what helps', () => {
  it('no 2-D split for a kernel that reads only gid.x; the split for one that linearizes with wid.y', () => {
    const small = { ...plain, limits: { ...DEFAULT_LIMITS, maxComputeWorkgroupsPerDimension: 16 } };
    const r = caught(() => resolveManifest(loadText(ggml.manifest, ggml.files), addCase([4096, 2]), small));
    expect(r).toBeInstanceOf(ManifestRefusal);
    expect(r.message).toMatch(/reads only the x of its workgroup and invocation ids, so a 2-D split would repeat work/);
    expect(r.message).not.toMatch(/use \{ "workgroups"/);
    const linear = edit(ggml, (d) => d.variants.forEach((v: any) => (v.kernels[0].dispatch = { workgroups: 'ceil(n / wg_x)' })));
    expect(caught(() => resolveManifest(loadText(linear, ggml.files), addCase([4096, 2]), small)).message).toMatch(/a 2-D split would run each x workgroup 2 times: binary\.wgsl reads only the x/);
    const grid = edit(add, (d) => (d.kernels[0].dispatch = ['ceil(n / 256)']));
    expect(caught(() => resolveManifest(loadText(grid, add.files), addCase([4096, 2]), small)).message).toMatch(/use \{ "workgroups": … \} for a 2-D split/);
  });
});
