import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { parseSchedule } from '../schedule/schedule';
import { ADD } from './add';
import { schedulesFor } from './registry';

const f32 = (xs: number[]) => new Float32Array(xs).buffer;
const adapter = { limits: DEFAULT_LIMITS, features: [] as string[] };
const vec4 = parseSchedule({ family: 'elementwise', workgroupSize: 64, elementsPerThread: 2, vectorWidth: 4 });
const scalar = parseSchedule({ family: 'elementwise', workgroupSize: 64, elementsPerThread: 1, vectorWidth: 1 });

describe('ADD (ggml_add)', () => {
  it('adds elementwise', () => {
    const c = ADD.makeCase([3, 2]);
    const r = ADD.oracle(c, [f32([1, 2, 3, 4, 5, 6]), f32([0.5, -2, 10, 1, 1, 1])]);
    expect([...r.ref]).toEqual([1.5, 0, 13, 5, 6, 7]);
    expect(r.terms).toBe(1);
    expect([...r.epsFloor]).toEqual([1.5, 4, 13, 5, 6, 7]);
  });

  it('broadcasts one row over every row (a bias)', () => {
    const c = ADD.makeCase([2, 3], 'broadcast-row');
    expect(c.srcs[1].ne).toEqual([2, 1, 1, 1]);
    const r = ADD.oracle(c, [f32([1, 2, 3, 4, 5, 6]), f32([10, 20])]);
    expect([...r.ref]).toEqual([11, 22, 13, 24, 15, 26]);
  });

  it('broadcasts one value per row', () => {
    const c = ADD.makeCase([2, 3], 'broadcast-col');
    const r = ADD.oracle(c, [f32([1, 2, 3, 4, 5, 6]), f32([100, 200, 300])]);
    expect([...r.ref]).toEqual([101, 102, 203, 204, 305, 306]);
  });

  it('reads views through their strides', () => {
    const strided = ADD.makeCase([2, 2], 'src0-rows-strided');
    // src0 rows are 5 elements apart, starting 1 in: [x,a,b,x,x, x,c,d,x,x]
    const r = ADD.oracle(strided, [f32([9, 1, 2, 9, 9, 9, 3, 4, 9, 9]), f32([0, 0, 0, 0])]);
    expect([...r.ref]).toEqual([1, 2, 3, 4]);
    const transposed = ADD.makeCase([2, 2], 'src1-transposed');
    const t = ADD.oracle(transposed, [f32([0, 0, 0, 0]), f32([1, 2, 3, 4])]);
    expect([...t.ref]).toEqual([1, 3, 2, 4]);
  });

  it('aliases dst to src0 in place', () => {
    const c = ADD.makeCase([8, 2], 'inplace');
    expect(c.inplace).toBe(true);
    expect(c.dst.nb).toEqual(c.srcs[0].nb);
    expect(ADD.native(c).bindings.map((b) => b.role)).toEqual(['dst', 'src1', 'params']);
    expect(ADD.generate(vec4, c).bindings.map((b) => b.role)).toEqual(['dst', 'src1']);
  });

  it('refuses what ggml refuses, naming it', () => {
    expect(() => ADD.makeCase([3, 2], 'diagonal')).toThrow(/ADD has no layout 'diagonal'/);
    expect(() => ADD.makeCase([1, 2, 3, 4, 5])).toThrow(/1 to 4 dims/);
    expect(() => ADD.makeCase([3], 'contiguous', { eps: 1 })).toThrow(/takes no params/);
  });

  it('declares a contract rejection for src1 rows that are not contiguous', () => {
    expect(ADD.require(ADD.makeCase([8, 8], 'src1-transposed'), adapter)?.code).toBe('src1-rows-not-contiguous');
    expect(ADD.require(ADD.makeCase([8, 8], 'src1-permuted'), adapter)).toBeNull();
  });

  it('says why a vec4 schedule cannot take an odd row', () => {
    expect(ADD.fits(vec4, ADD.makeCase([4093, 37]))).toEqual(['vectorWidth 4 needs the element count 151441 to be a multiple of 4']);
    expect(ADD.fits(vec4, ADD.makeCase([4096, 128], 'src0-rows-strided'))).toEqual(["vectorWidth 4 needs a's rows to start on 4-element boundaries"]);
    expect(ADD.fits(scalar, ADD.makeCase([4093, 37]))).toEqual([]);
    expect(() => ADD.generate(vec4, ADD.makeCase([4093, 37]))).toThrow(/cannot take ADD 4093x37/);
  });

  it('picks schedules by the registry rules', () => {
    expect((schedulesFor('ADD', ADD.makeCase([4096, 8]), adapter) as { vectorWidth?: number } | null)?.vectorWidth).toBe(4);
    expect((schedulesFor('ADD', ADD.makeCase([4093, 37]), adapter) as { vectorWidth?: number } | null)?.vectorWidth).toBe(1);
  });

  it('counts bytes that must move and has no flop count (memory-bound)', () => {
    const c = ADD.makeCase([1024, 4], 'broadcast-row');
    expect(ADD.bytes(c)).toEqual({ readBytes: (4096 + 1024) * 4, writeBytes: 4096 * 4 });
    expect(ADD.flops(c)).toBeNull();
    expect(ADD.features(c)).toEqual({ ne0: 1024, rows: 4, n: 4096 });
  });

  it('spreads more than 65535 workgroups over a 2D grid', () => {
    const k = ADD.generate(scalar, ADD.makeCase([4096, 4096]));
    // 16M elements / 64 threads = 262144 workgroups → 5 rows of 52429.
    expect(k.dispatch).toEqual([52429, 5, 1]);
    expect(k.wgsl).toContain('let t = (wid.y * 52429u + wid.x) * 64u + lid;');
    expect(k.wgsl).toContain('if (t >= 16777216u) {');
  });

  it('generates WGSL (snapshots)', () => {
    expect(ADD.generate(vec4, ADD.makeCase([1024, 4])).wgsl).toMatchSnapshot('flat vec4');
    expect(ADD.generate(vec4, ADD.makeCase([1024, 4], 'broadcast-row')).wgsl).toMatchSnapshot('broadcast-row vec4');
    expect(ADD.generate(vec4, ADD.makeCase([64, 3, 2], 'broadcast-col')).wgsl).toMatchSnapshot('broadcast-col splat');
    expect(ADD.generate(scalar, ADD.makeCase([1000, 3], 'src0-rows-strided')).wgsl).toMatchSnapshot('strided scalar');
    expect(ADD.generate(vec4, ADD.makeCase([256, 2], 'inplace')).wgsl).toMatchSnapshot('inplace vec4');
  });
});
