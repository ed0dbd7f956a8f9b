import { describe, expect, it } from 'vitest';
import { ADAMW_WRITTEN_NOTE, formatCensus, labHas, labOpName, takeCensus, typedBytes } from './census';
import { allLines, formatGraphText, graphLines, parseGraphText } from './ggml-text';
import { buildTrainingGraph } from './graph';
import { PRESETS } from './model-config';

const tiny = () => graphLines(buildTrainingGraph(PRESETS.tiny));

describe('census', () => {
  it('tiny preset: counts, bytes and shapes per op, ranked by bytes', () => {
    const c = takeCensus(tiny());
    expect(c.totalNodes).toBe(630 - 48 - 146); // the lines hold computing nodes only
    const row = (op: string) => c.rows.find((r) => r.op === op)!;
    // 5 layers × (7 weight products) + output: reads weight + activation, writes the product
    expect(row('MUL_MAT').nodes).toBe(46);
    // OPT_STEP_ADAMW reads p, g, m, v (4 × the parameter) + the 7 hyperparameters, writes p, m, v
    const paramElems = 64 * 512 * 2 + 64 * 2 * 5 + 64 + (64 * 64 * 2 + 64 * 32 * 2 + 64 * 172 * 3) * 5;
    expect(row('OPT_STEP_ADAMW')).toMatchObject({ nodes: 48, bytesRead: paramElems * 16 + 48 * 28, bytesWritten: paramElems * 12 });
    // SOFT_MAX: [128,128,8] in and out plus the [128,128] mask, 5 layers
    expect(row('SOFT_MAX')).toMatchObject({ nodes: 5, bytesRead: 5 * (128 * 128 * 8 + 128 * 128) * 4, bytesWritten: 5 * 128 * 128 * 8 * 4, shapes: ['128x128x8'] });
    // ggml_get_rows_back(a, b, c) has two sources (c gives only the shape): gradient [64, 128] + i32 rows [128]
    expect(row('GET_ROWS_BACK')).toMatchObject({ nodes: 3, bytesRead: 3 * (64 * 128 + 128) * 4, bytesWritten: (2 * 64 * 128 + 64 * 512) * 4 });
    expect(row('CROSS_ENTROPY_LOSS')).toMatchObject({ bytesRead: 2 * 512 * 128 * 4, bytesWritten: 4, shapes: ['1'] });
    // q, wo, down: 15 × 64x128; k, v: 10 × 32x128; up, gate: 10 × 172x128; kq, kqv: 5 each; output 1
    expect(row('MUL_MAT').shapes).toEqual(['64x128', '172x128', '32x128', '128x128x8', '8x128x8', '512x128']);
    expect(row('MUL_MAT').distinctShapes).toBe(6);
    for (let i = 1; i < c.rows.length; i++) expect(c.rows[i - 1].bytesRead + c.rows[i - 1].bytesWritten).toBeGreaterThanOrEqual(c.rows[i].bytesRead + c.rows[i].bytesWritten);
    expect(row('ADD').lab).toBe('generated');
    expect(row('RMS_NORM_BACK').lab).toBe('native-only');
    expect(labHas('NO_SUCH_OP')).toBe('none');
    // ggml names GLU nodes by their sub-op (SWIGLU): the lab's GLU op computes it (op=swiglu).
    expect(row('SWIGLU').lab).toBe('generated');
    expect(labOpName('SWIGLU')).toBe('GLU');
    expect(labOpName('SWIGLU_OAI')).toBe('SWIGLU_OAI');
    expect(labHas('SWIGLU_OAI')).toBe('none');
    expect(row('COUNT_EQUAL').bytesWritten).toBe(8); // an i64
  });

  it('views are counted apart and move no bytes; the table names every op', () => {
    const c = takeCensus(allLines(buildTrainingGraph(PRESETS.tiny)));
    expect(c.views).toEqual([
      { op: 'TRANSPOSE', nodes: 56 },
      { op: 'PERMUTE', nodes: 40 },
      { op: 'RESHAPE', nodes: 35 },
      { op: 'VIEW', nodes: 15 },
    ]);
    expect(c.parameterNodes).toBe(48);
    const text = formatCensus(c, 'tiny');
    expect(text.split('\n')[0]).toBe('census: tiny: 630 nodes — 436 compute, 146 views, 48 parameters');
    for (const r of c.rows) expect(text).toContain(`\n${r.op} `);
    expect(text.split('\n').at(-1)).toBe(ADAMW_WRITTEN_NOTE);
  });

  it('quantized types are sized by blocks', () => {
    expect(typedBytes(8, [4096, 4096, 1, 1])).toBe((4096 * 4096 / 32) * 34); // q8_0
    expect(typedBytes(12, [256, 2, 1, 1])).toBe(2 * 144); // q4_K
    expect(() => typedBytes(4, [32])).toThrow('ggml type 4 has no size');
  });
});

describe('ggml test-export-graph-ops text', () => {
  it('round-trips: export → import → export is the same text, and the same census', () => {
    const lines = tiny();
    const text = formatGraphText(lines);
    const back = parseGraphText(text);
    expect(formatGraphText(back)).toBe(text);
    expect(takeCensus(back)).toEqual(takeCensus(lines));
    expect(back.length).toBe(436);
  });

  it('writes ggml enum numbers, float params as their bits, strides, and - for no name', () => {
    const text = formatGraphText(tiny());
    const first = text.split('\n')[0];
    // GET_ROWS (40) f32 [64,128,1,1], no params, 2 sources: token_embd f32 [64,512] and the i32 tokens
    expect(first).toBe('40 0 64 128 1 1 0 2 0 64 512 1 1 4 256 131072 131072 26 128 1 1 1 4 512 512 512 -');
    const rms = text.split('\n').find((l) => l.startsWith('25 '))!;
    expect(rms.split(' ').slice(0, 8)).toEqual(['25', '0', '64', '128', '1', '1', '1', String(new Int32Array(new Float32Array([1e-5]).buffer)[0])]);
    const silu = text.split('\n').find((l) => l.startsWith('91 '))!;
    expect(parseGraphText(silu)[0].desc).toBe('SILU');
  });

  it('refuses a bad line by its number and field', () => {
    expect(() => parseGraphText('40 0 64 128 1 1 0 2 0 64 512 1 1 4 256 131072 131072')).toThrow('line 1: src1 type is missing');
    expect(() => parseGraphText('\n999 0 1 1 1 1 0 0 -')).toThrow('line 2: op is 999, outside 0..100');
    expect(() => parseGraphText('2 4 1 1 1 1 0 0 -')).toThrow('line 1: type 4 is not a ggml type the census knows');
    expect(() => parseGraphText('2 0 1 x 1 1 0 0 -')).toThrow("line 1: ne1 is 'x', not an integer");
    expect(() => parseGraphText('2 0 1 1 1 1 0 0 - extra')).toThrow('line 1: 1 fields after the name');
    expect(() => parseGraphText('2 0 1 1 1 1 17 0 -')).toThrow('line 1: n_params is 17, outside 0..16');
  });
});
