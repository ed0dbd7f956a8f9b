import { describe, expect, it } from 'vitest';
import { caught } from '../../../test/fixtures/caught';
import { type AdapterDescriptor, DEFAULT_LIMITS } from '../adapter';
import { f32Bits } from '../kernel';
import { OPS } from '../ops/registry';
import { ManifestError, ManifestRefusal } from './errors';
import { EXAMPLE_KERNELS } from './examples';
import { type LoadedManifest, loadManifest } from './load';
import { resolveManifest, type UserKernelPlan } from './resolve';

const adapter: Pick<AdapterDescriptor, 'limits' | 'features' | 'subgroupMinSize' | 'subgroupMaxSize'> = { limits: DEFAULT_LIMITS, features: [], subgroupMinSize: 0, subgroupMaxSize: 0 };

const example = (dir: string) => EXAMPLE_KERNELS.find((e) => e.dir === dir)!;
const load = (dir: string, edit?: (m: any) => void, files?: Record<string, string>): LoadedManifest => {
  const ex = example(dir);
  const doc = JSON.parse(ex.manifest);
  edit?.(doc);
  const text = edit ? JSON.stringify(doc) : ex.manifest;
  const all = { ...ex.files, ...files };
  return loadManifest(text, (f) => all[f], OPS);
};
const opCase = (op: string, dims: number[], layout?: string, params?: Record<string, number>) => OPS.find((o) => o.name === op)!.makeCase(dims, layout, params);
const resolve = (m: LoadedManifest, op: string, dims: number[], layout?: string, params?: Record<string, number>, a = adapter): UserKernelPlan => resolveManifest(m, opCase(op, dims, layout, params), a);

const thrown = (fn: () => unknown): Error => caught(fn);
const manifestError = (fn: () => unknown) => {
  const e = thrown(fn);
  expect(e).toBeInstanceOf(ManifestError);
  return e as ManifestError;
};
const refusal = (fn: () => unknown) => {
  const e = thrown(fn);
  expect(e).toBeInstanceOf(ManifestRefusal);
  return e as ManifestRefusal;
};

describe('the example kernels resolve', () => {
  it('ADD 4093x37: 18 u32 fields padded to 80 B, 592 workgroups, WG from wg_x', () => {
    const plan = resolve(load('add'), 'ADD', [4093, 37]);
    expect(plan.passes).toHaveLength(1);
    const [p] = plan.passes;
    expect(p.label).toBe('user:lab-add/add');
    expect(p.entryPoint).toBe('main');
    expect(p.workgroupSize).toEqual([256, 1, 1]);
    expect(p.dispatch).toEqual([592, 1, 1]); // ceil(4093·37 / 256) = ceil(151441 / 256)
    expect(p.constants).toEqual({ WG: 256 });
    expect(p.bindings).toEqual([
      { binding: 0, role: 'src0', access: 'read' },
      { binding: 1, role: 'src1', access: 'read' },
      { binding: 2, role: 'dst', access: 'read_write' },
      { binding: 3, role: 'params', access: 'uniform' },
    ]);
    // 256 B guard band = 64 f32 before every tensor
    expect([...p.uniforms!]).toEqual([4093, 37, 1, 151441, 4093, 151441, 151441, 64, 4093, 37, 1, 1, 1, 4093, 151441, 151441, 64, 64, 0, 0]);
    expect(plan.scratch).toEqual([]);
  });

  it('ADD with a transposed src1: element strides from nb / 4', () => {
    const [p] = resolve(load('add'), 'ADD', [256, 256], 'src1-transposed').passes;
    expect([...p.uniforms!.slice(12, 16)]).toEqual([256, 1, 65536, 65536]); // s10..s13
  });

  it('ADD past 65535 workgroups: the linear dispatch splits over x and y', () => {
    // 65536·1024 / 256 = 262144 workgroups → 5 rows of 52429
    const [p] = resolve(load('add'), 'ADD', [65536, 1024]).passes;
    expect(p.dispatch).toEqual([52429, 5, 1]);
  });

  it('RMS_NORM with strided rows: row stride 4099, offset 64 + 1, eps as f32 bits', () => {
    const [p] = resolve(load('rms-norm'), 'RMS_NORM', [4096, 16], 'src0-rows-strided', { eps: 1e-5 }).passes;
    expect(p.entryPoint).toBe('rms_norm');
    expect(p.dispatch).toEqual([16, 1, 1]);
    expect([...p.uniforms!]).toEqual([4096, 16, 1, 16, 4099, 4099 * 16, 4099 * 16, 65, 4096, 4096 * 16, 4096 * 16, 64, f32Bits(1e-5), 0, 0, 0]);
  });

  it('the two-pass RMS_NORM: chunks = 4, a 592 B scratch, passes in order', () => {
    const plan = resolve(load('rms-norm-split'), 'RMS_NORM', [4093, 37]);
    expect(plan.scratch).toEqual([{ name: 'partials', sizeBytes: 37 * 4 * 4 }]);
    expect(plan.passes.map((p) => p.kernelName)).toEqual(['sumsq', 'scale']);
    const [sumsq, scale] = plan.passes;
    expect(sumsq.dispatch).toEqual([148, 1, 1]); // 37 rows × 4 chunks
    expect(sumsq.bindings[1]).toEqual({ binding: 1, role: 'scratch', buffer: 'partials', access: 'read_write' });
    expect(scale.bindings[1]).toEqual({ binding: 1, role: 'scratch', buffer: 'partials', access: 'read' });
    expect([...sumsq.uniforms!]).toEqual([4093, 37, 1, 4, 4093, 151441, 151441, 64, 148, 0, 0, 0]);
    expect(scale.dispatch).toEqual([592, 1, 1]);
    expect(scale.uniforms![12]).toBe(151441);
    expect(scale.uniforms![13]).toBe(f32Bits(1e-6)); // RMS_NORM's default eps
  });
});

describe('declared refusals: cases outside the claims', () => {
  it('a layout not claimed', () => {
    const r = refusal(() => resolve(load('add'), 'ADD', [64, 8], 'inplace'));
    expect(r.code).toBe('unclaimed-layout');
    expect(r.declared).toBe(true);
    expect(r.message).toMatch(/lab-add claims layouts contiguous, broadcast-row.*not 'inplace'/);
  });

  it('only the default layout when claims.layouts is absent', () => {
    const m = load('add', (d) => delete d.claims.layouts);
    expect(resolve(m, 'ADD', [64, 8]).passes).toHaveLength(1);
    expect(refusal(() => resolve(m, 'ADD', [64, 8], 'broadcast-row')).code).toBe('unclaimed-layout');
  });

  it('another op', () => {
    expect(refusal(() => resolve(load('add'), 'RMS_NORM', [64, 8])).code).toBe('unclaimed-op');
  });

  it('a param out of its claimed range', () => {
    const m = load('rms-norm', (d) => (d.claims.params.eps = { min: 0, max: 1e-4 }));
    const r = refusal(() => resolve(m, 'RMS_NORM', [64, 8], 'contiguous', { eps: 0.01 }));
    expect(r.code).toBe('unclaimed-param');
    expect(r.message).toMatch(/claims eps ≥ 0 and ≤ 0.0001, got 0.01/);
  });

  it('a shape a require condition excludes', () => {
    const m = load('add', (d) => d.claims.require.push('ne0 % 4 == 0'));
    const r = refusal(() => resolve(m, 'ADD', [4093, 37]));
    expect(r.code).toBe('unclaimed-shape');
    expect(r.message).toMatch(/requires 'ne0 % 4 == 0', which ADD 4093x37 does not meet/);
    expect(resolve(m, 'ADD', [4096, 37]).passes).toHaveLength(1);
  });

  it('an element type not claimed', () => {
    const m = load('add', (d) => (d.claims.types = { src0: 'f16' }));
    expect(refusal(() => resolve(m, 'ADD', [64, 8])).message).toMatch(/claims src0 f16, but this case's src0 is f32/);
  });
});

describe('device refusals: limits and features', () => {
  it('a grid dispatch over maxComputeWorkgroupsPerDimension', () => {
    const m = load('add', (d) => (d.kernels[0].dispatch = ['ceil(n / 256)']));
    const r = refusal(() => resolve(m, 'ADD', [65536, 1024]));
    expect(r.code).toBe('dispatch-over-limits');
    expect(r.declared).toBe(false);
    expect(r.message).toMatch(/dispatch\[0\] 'ceil\(n \/ 256\)' = 262144 exceeds maxComputeWorkgroupsPerDimension 65535/);
  });

  it('a linear dispatch past the limit squared', () => {
    const small = { ...adapter, limits: { ...DEFAULT_LIMITS, maxComputeWorkgroupsPerDimension: 16 } };
    const r = refusal(() => resolve(load('add'), 'ADD', [4096, 32], undefined, undefined, small));
    expect(r.message).toMatch(/512 workgroups \('ceil\(n \/ wg_x\)'\) do not fit a 16×16 grid/);
  });

  it('a missing feature', () => {
    const m = load('add', (d) => (d.features = ['shader-f16']));
    const r = refusal(() => resolve(m, 'ADD', [64, 8]));
    expect(r.code).toBe('missing-feature');
    expect(r.message).toMatch(/needs the 'shader-f16' feature, which this adapter lacks \(it has: none\)/);
    expect(resolve(m, 'ADD', [64, 8], undefined, undefined, { ...adapter, features: ['shader-f16'] }).features).toEqual(['shader-f16']);
  });

  it('a workgroup over maxComputeInvocationsPerWorkgroup', () => {
    const m = load('add', (d) => (d.kernels[0].workgroupSize = [512]));
    const r = refusal(() => resolve(m, 'ADD', [64, 8]));
    expect(r.code).toBe('workgroup-over-limits');
    expect(r.message).toMatch(/workgroupSize\[0\] = 512 exceeds this adapter's 256/);
  });

  it('a scratch buffer over maxStorageBufferBindingSize', () => {
    const m = load('rms-norm-split', (d) => (d.buffers.partials.sizeBytes = 'n * 1024'));
    expect(refusal(() => resolve(m, 'RMS_NORM', [4096, 64])).code).toBe('buffer-over-limits');
  });
});

describe('manifest errors at resolve: expressions that do not evaluate for the case', () => {
  it('a division by zero names the field', () => {
    const m = load('add', (d) => (d.kernels[0].uniforms[0].value = 'ne0 / (ne1 - 37)'));
    const e = manifestError(() => resolve(m, 'ADD', [4093, 37]));
    expect(e.path).toBe('kernels[0].uniforms[0].value');
    expect(e.message).toMatch(/'ne0 \/ \(ne1 - 37\)' does not evaluate: division by zero at column 5/);
  });

  it('a u32 field that is not an integer', () => {
    const m = load('add', (d) => (d.kernels[0].uniforms[4].value = 'nb01 / 3'));
    const e = manifestError(() => resolve(m, 'ADD', [4093, 37]));
    expect(e.message).toMatch(/uniforms\[4\]\.value: 'nb01 \/ 3' = 5457\.33\d* is not a u32/);
  });

  it('a negative u32, and an i32 that takes it', () => {
    const m = load('add', (d) => (d.kernels[0].uniforms[0].value = '-1'));
    expect(manifestError(() => resolve(m, 'ADD', [8])).message).toMatch(/'-1' = -1 is not a u32/);
    const i = load('add', (d) => (d.kernels[0].uniforms[0] = { name: 'ne0', type: 'i32', value: '-1' }));
    expect(resolve(i, 'ADD', [8]).passes[0].uniforms![0]).toBe(0xffffffff);
  });

  it('a workgroup count that is not an integer', () => {
    const m = load('add', (d) => (d.kernels[0].dispatch = { workgroups: 'n / 256' }));
    expect(manifestError(() => resolve(m, 'ADD', [4093, 37])).message).toMatch(/dispatch\.workgroups: 'n \/ 256' = 591\.56\d* is not a workgroup count/);
  });

  it('explicit offsets place fields and may not overlap', () => {
    const m = load('add', (d) => (d.kernels[0].uniforms[17].offset = 96));
    const p = resolve(m, 'ADD', [8]).passes[0];
    expect(p.uniforms!.length).toBe(28); // 100 B → 112
    expect(p.uniforms![24]).toBe(64);
    const bad = load('add', (d) => (d.kernels[0].uniforms[17].offset = 0));
    expect(manifestError(() => resolve(bad, 'ADD', [8])).message).toMatch(/uniforms\[17\]\.offset: byte 0 is already 'ne0'/);
  });

  it('an inplace claim that binds src0 and dst at once', () => {
    const m = load('rms-norm', (d) => d.claims.layouts.push('inplace'));
    expect(manifestError(() => resolve(m, 'RMS_NORM', [64, 8], 'inplace')).message).toMatch(/binds src0 and dst, which are one buffer in an inplace case/);
  });

  it('a manifest workgroupSize that disagrees with the WGSL literal', () => {
    const m = load('rms-norm', (d) => (d.kernels[0].workgroupSize = [128]));
    expect(manifestError(() => resolve(m, 'RMS_NORM', [64, 8])).message).toMatch(/workgroupSize: is \[128, 1, 1\] but rms_norm\.wgsl declares @workgroup_size\(256, 1, 1\) on rms_norm/);
  });
});
