// MUL_MAT's decode and f16 paths on SwiftShader (subgroups of 4, no shader-f16, no subgroup
// matrices): gemv checked against the oracle, f16 past N = 8 a declared rejection, quantized weights
// past N = 8 on the tiled f32 family (their sgmatrix schedules refused by name); the tiled f32
// family's K split inside the workgroup, checked against the oracle.
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli';

const time = (...args: string[]) => {
  const r = runCli(['time', '--op', 'MUL_MAT', '--json', '-', ...args]);
  return { ...r, json: r.status === 0 ? JSON.parse(r.stdout.slice(r.stdout.indexOf('{'), r.stdout.lastIndexOf('}') + 1)) : null };
};

describe('MUL_MAT gemv and f16 on SwiftShader', () => {
  it('runs the gemv rules (subgroup reduction, several columns) and f16 weights, correct', () => {
    const a = time('--shape', '300x3x260');
    expect(a.status, a.stderr).toBe(0);
    expect(a.json).toMatchObject({ variant: 'generated', correct: true });
    expect(a.json.scheduleKey).toBe('gemv{"columnsPerPass":4,"reduction":"subgroup","rowsPerThread":1,"rowsPerWorkgroup":4,"unroll":4,"vectorWidth":4,"workgroupSize":256}');
    const b = time('--shape', '130x5x66', '--layout', 'src0-rows-strided', '--param', 'type0=1', '--schedule', '{"family":"gemv","workgroupSize":64,"rowsPerWorkgroup":16,"columnsPerPass":2,"vectorWidth":1,"unroll":2,"reduction":"shared"}');
    expect(b.status, b.stderr).toBe(0);
    expect(b.json).toMatchObject({ variant: 'generated', correct: true, shape: '130x5x66', layout: 'src0-rows-strided', params: { type0: 1, type1: 0 } });
  });

  it('gemv rowsPerThread: several rows a thread, correct past M and N edges, with batches, a K tail of the unrolled loop, f16 rows through their strides', () => {
    // 16 threads a 2-row group, two loads of each row in flight; K 260 = 65 vec4 = 2·32 + 1 (the tail loop); 300 % 8 and 3 % 2 overhang.
    const a = time('--shape', '300x3x260', '--shape', '96x2x64x4', '--min-runs', '1', '--schedule', '{"family":"gemv","workgroupSize":64,"rowsPerWorkgroup":8,"columnsPerPass":2,"vectorWidth":4,"unroll":2,"reduction":"subgroup","rowsPerThread":2}');
    expect(a.status, a.stderr).toBe(0);
    expect(a.json.results.map((x: { shape: string; correct: boolean }) => [x.shape, x.correct])).toEqual([['300x3x260', true], ['96x2x64x4', true]]);
    const b = time('--shape', '130x5x66', '--layout', 'src0-rows-strided', '--param', 'type0=1', '--min-runs', '1', '--schedule', '{"family":"gemv","workgroupSize":16,"rowsPerWorkgroup":4,"columnsPerPass":4,"vectorWidth":1,"unroll":1,"reduction":"shared","rowsPerThread":4}');
    expect(b.status, b.stderr).toBe(0);
    expect(b.json).toMatchObject({ variant: 'generated', correct: true });
  });

  it('declines f16 past N = 8 by name: auto runs native (correct), a sgmatrix schedule is refused', () => {
    const a = time('--shape', '64x16x32', '--param', 'type0=1,type1=1');
    expect(a.status, a.stderr).toBe(0);
    expect(a.json).toMatchObject({ variant: 'native', correct: true, fallback: { code: 'no-shader-f16' } });
    const s = runCli(['time', '--op', 'MUL_MAT', '--shape', '64x16x32', '--param', 'type0=1,type1=1', '--schedule', '{"family":"sgmatrix","config":"16x8x16","subgroupsM":1,"subgroupsN":1,"matricesM":1,"matricesN":1,"tileK":16}']);
    expect(s.status).toBe(2);
    expect(s.stderr).toMatch(/outside the generated contract: no-shader-f16/);
  });

  it('quantized weights past N = 8: the tiled f32 matmul (correct); sgmatrix schedules refused naming the features; f16 activations a declared fallback', () => {
    const a = time('--shape', '64x16x64', '--param', 'type0=q4_0', '--min-runs', '1');
    expect(a.status, a.stderr).toBe(0);
    expect(a.json).toMatchObject({ variant: 'generated', correct: true, fallback: null });
    expect(a.json.scheduleKey).toMatch(/^matmul\{/);
    const s = runCli(['time', '--op', 'MUL_MAT', '--shape', '64x16x64', '--param', 'type0=q4_0', '--schedule', '{"family":"sgmatrix","config":"16x8x16","subgroupsM":1,"subgroupsN":1,"matricesM":1,"matricesN":1,"tileK":32}']);
    expect(s.status).toBe(2);
    expect(s.stderr).toMatch(/refused: sgmatrix needs the 'chromium-experimental-subgroup-matrix' feature, which this adapter lacks; sgmatrix needs the 'shader-f16' feature, which this adapter lacks/);
    const f16 = time('--shape', '64x16x64', '--param', 'type0=mxfp4,type1=1', '--min-runs', '1');
    expect(f16.status, f16.stderr).toBe(0);
    expect(f16.json).toMatchObject({ variant: 'native', correct: true, fallback: { code: 'no-shader-f16', reason: "mxfp4 weights × f16 activations with N = 16 > 8 run on subgroup matrices, which need 'shader-f16'; this adapter lacks it" } });
  });

  it('splits K inside the workgroup (four slices, reduced in rounds) and stays correct at ragged edges', () => {
    // 64×32 tiles of 8×8: 32 threads a slice, 128 in all; the reduction takes two rounds of four accumulator rows.
    const r = time('--shape', '100x36x40', '--min-runs', '1', '--schedule', '{"family":"matmul","tileM":64,"tileN":32,"tileK":16,"threadM":8,"threadN":8,"vectorWidth":4,"staging":"double","splitK":4}');
    expect(r.status, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ variant: 'generated', correct: true, scheduleKey: 'matmul{"inner":"loop","padding":"none","splitK":4,"staging":"double","stores":"scalar","threadM":8,"threadN":8,"tileK":16,"tileM":64,"tileN":32,"vectorWidth":4}' });
  });

  it('padded staging rows and the written-out inner loop (unrolled, pipelined) stay correct: odd/even K tiles, a K tail, batches, split K, OUT_PROD', () => {
    const rows = (r: ReturnType<typeof time>) => {
      expect(r.status, r.stderr).toBe(0);
      return (r.json.results ?? [r.json]) as { shape: string; correct: boolean; scheduleKey: string }[];
    };
    // 7 K tiles (100 = 6·16 + 4: odd, with a tail; double staging's last tile after its loop), 4 tiles, 3 tiles and 3 batches.
    const d = rows(time('--shape', '130x36x100', '--shape', '128x64x64', '--shape', '64x32x48x3', '--min-runs', '1', '--schedule', '{"family":"matmul","tileM":64,"tileN":32,"tileK":16,"threadM":8,"threadN":8,"vectorWidth":4,"staging":"double","padding":"vec4","inner":"pipelined"}'));
    expect(d.map((x) => [x.shape, x.correct])).toEqual([['130x36x100', true], ['128x64x64', true], ['64x32x48x3', true]]);
    expect(d[0].scheduleKey).toContain('"inner":"pipelined","padding":"vec4"');
    const k = rows(time('--shape', '100x36x40', '--min-runs', '1', '--schedule', '{"family":"matmul","tileM":64,"tileN":32,"tileK":16,"threadM":8,"threadN":8,"vectorWidth":4,"staging":"prefetch","splitK":2,"padding":"vec4","inner":"unrolled"}'));
    expect(k.map((x) => x.correct)).toEqual([true]);
    // OUT_PROD: scalar loads along a strided K (padding in floats), unrolled.
    const o = runCli(['time', '--op', 'OUT_PROD', '--json', '-', '--shape', '130x36x100', '--shape', '64x64x48x2', '--min-runs', '1', '--schedule', '{"family":"matmul","tileM":64,"tileN":64,"tileK":16,"threadM":4,"threadN":4,"vectorWidth":1,"staging":"single","padding":"vec4","inner":"unrolled"}']);
    expect(o.status, o.stderr).toBe(0);
    expect(o.stdout.match(/"correct":\s*true/g)?.length).toBe(2);
    expect(o.stdout).not.toMatch(/"correct":\s*false/);
  });

  it("vec4 staging stores (4×4 blocks transposed in registers) and the 4-k pipelined inner loop stay correct: odd/even K tiles, a K tail, batches, split K, double staging; OUT_PROD refuses vec4 stores by name", () => {
    const rows = (r: ReturnType<typeof time>) => {
      expect(r.status, r.stderr).toBe(0);
      return (r.json.results ?? [r.json]) as { shape: string; correct: boolean; scheduleKey: string }[];
    };
    // 32 threads: src0 64 blocks (two a thread), src1 32 (one). 7 K tiles with a tail (double staging's last after its loop), 4 tiles, 3 tiles × 3 batches.
    const shapes = ['--shape', '130x36x100', '--shape', '128x64x64', '--shape', '64x32x48x3', '--min-runs', '1'];
    const base = '"family":"matmul","tileM":64,"tileN":32,"tileK":16,"threadM":8,"threadN":8,"vectorWidth":4';
    for (const [staging, padding, inner] of [['double', 'vec4', 'pipelined4'], ['prefetch', 'none', 'pipelined'], ['single', 'vec4', 'loop']]) {
      const d = rows(time(...shapes, '--schedule', `{${base},"staging":"${staging}","padding":"${padding}","inner":"${inner}","stores":"vec4"}`));
      expect(d.map((x) => [x.shape, x.correct]), `${staging} ${padding} ${inner}`).toEqual([['130x36x100', true], ['128x64x64', true], ['64x32x48x3', true]]);
      expect(d[0].scheduleKey).toContain(`"inner":"${inner}","padding":"${padding}","splitK":1,"staging":"${staging}","stores":"vec4"`);
    }
    // Split K: 64 threads in two slices, one block an operand a thread.
    const k = rows(time('--shape', '100x36x40', '--shape', '128x64x64', '--min-runs', '1', '--schedule', '{"family":"matmul","tileM":64,"tileN":64,"tileK":16,"threadM":8,"threadN":16,"vectorWidth":4,"staging":"prefetch","splitK":2,"padding":"vec4","inner":"pipelined4","stores":"vec4"}'));
    expect(k.map((x) => x.correct)).toEqual([true, true]);
    // The scalar stores with the 4-k pipelined loop.
    const p = rows(time('--shape', '130x36x100', '--min-runs', '1', '--schedule', `{${base},"staging":"prefetch","padding":"none","inner":"pipelined4"}`));
    expect(p.map((x) => x.correct)).toEqual([true]);
    // OUT_PROD: scalar loads along a strided K, 4-k pipelined, correct; vec4 stores refused naming why.
    const o = runCli(['time', '--op', 'OUT_PROD', '--json', '-', '--shape', '130x36x100', '--shape', '64x64x48x2', '--min-runs', '1', '--schedule', '{"family":"matmul","tileM":64,"tileN":64,"tileK":16,"threadM":4,"threadN":4,"vectorWidth":1,"staging":"single","padding":"vec4","inner":"pipelined4"}']);
    expect(o.status, o.stderr).toBe(0);
    expect(o.stdout.match(/"correct":\s*true/g)?.length).toBe(2);
    expect(o.stdout).not.toMatch(/"correct":\s*false/);
    const ov = runCli(['time', '--op', 'OUT_PROD', '--shape', '128x64x64', '--schedule', '{"family":"matmul","tileM":64,"tileN":32,"tileK":16,"threadM":8,"threadN":8,"vectorWidth":4,"staging":"single","stores":"vec4"}']);
    expect(ov.status).toBe(2);
    expect(ov.stderr).toMatch(/vectorWidth 4 needs K contiguous/);
  });
});
