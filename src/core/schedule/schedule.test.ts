import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../adapter';
import { enumerateSpace, limitsNeeded, parseSchedule, parseSpace, scheduleKey, spaceText, SPACES, validateSchedule, workgroupStorageBytes } from './schedule';
import { allHold, describeConditions } from './shape-rules';
import { stableJson } from './stable-json';

const adapter = { limits: DEFAULT_LIMITS, features: [] as string[] };

describe('schedules', () => {
  it('ask for the threads along x a 1-D workgroup past 256 needs, and are refused without them by name', () => {
    const s = parseSchedule({ family: 'gemv', workgroupSize: 512, rowsPerWorkgroup: 1, columnsPerPass: 1, vectorWidth: 4, unroll: 4, reduction: 'shared', rowsPerThread: 1 });
    expect(limitsNeeded(s)).toEqual({ maxComputeInvocationsPerWorkgroup: 512, maxComputeWorkgroupSizeX: 512 });
    expect(validateSchedule(s, { ...adapter, limits: { ...DEFAULT_LIMITS, maxComputeInvocationsPerWorkgroup: 1024 } })).toEqual(['workgroupSize 512 exceeds maxComputeWorkgroupSizeX 256']);
    expect(validateSchedule(s, { ...adapter, limits: { ...DEFAULT_LIMITS, maxComputeInvocationsPerWorkgroup: 1024, maxComputeWorkgroupSizeX: 1024 } })).toEqual([]);
  });

  it('derive a stable key from the data, whatever the field order', () => {
    const a = parseSchedule({ family: 'elementwise', workgroupSize: 256, elementsPerThread: 4, vectorWidth: 4 });
    const b = parseSchedule('{"vectorWidth":4,"elementsPerThread":4,"family":"elementwise","workgroupSize":256}');
    expect(scheduleKey(a)).toBe('elementwise{"elementsPerThread":4,"vectorWidth":4,"workgroupSize":256}');
    expect(scheduleKey(b)).toBe(scheduleKey(a));
    expect(Object.isFrozen(a)).toBe(true);
    expect(stableJson({ b: [1, { d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[1,{"c":2,"d":1}]}');
  });

  it('refuse malformed schedules naming what is wrong', () => {
    expect(() => parseSchedule('{nope')).toThrow(/not valid JSON/);
    expect(() => parseSchedule({ family: 'tiles' })).toThrow(/family "tiles" is not one of elementwise, norm, matmul/);
    expect(() => parseSchedule({ family: 'elementwise', workgroupSize: 64, vectorWidth: 4 })).toThrow(/missing 'elementsPerThread'/);
    expect(() => parseSchedule({ family: 'elementwise', workgroupSize: 64.5, vectorWidth: 4, elementsPerThread: 1 })).toThrow(/'workgroupSize' must be a positive integer, got 64.5/);
    expect(() => parseSchedule({ family: 'elementwise', workgroupSize: 64, vectorWidth: 4, elementsPerThread: 1, colour: 2 })).toThrow(/unknown knob 'colour'/);
    expect(() => parseSchedule({ family: 'norm', workgroupSize: 64, vectorWidth: 4, reduction: 'atomic', unroll: 1 })).toThrow(/'reduction' must be one of "shared", "subgroup"/);
    expect(() => parseSchedule({ family: 'norm', workgroupSize: 64, vectorWidth: 4, reduction: 'shared', unroll: 1 }, 'matmul')).toThrow(/takes a 'matmul' schedule/);
  });

  it('validate against the adapter, naming the knob and the limit', () => {
    const big = parseSchedule({ family: 'elementwise', workgroupSize: 1024, elementsPerThread: 1, vectorWidth: 4 });
    expect(validateSchedule(big, adapter)).toContain('workgroupSize 1024 exceeds maxComputeInvocationsPerWorkgroup 256');
    const sg = parseSchedule({ family: 'norm', workgroupSize: 96, vectorWidth: 3, reduction: 'subgroup', unroll: 1 });
    const reasons = validateSchedule(sg, adapter);
    expect(reasons).toContain("reduction 'subgroup' needs the 'subgroups' feature, which this adapter lacks");
    expect(reasons).toContain('workgroupSize 96 is not a power of two (the tree reduction halves it)');
    expect(reasons).toContain('vectorWidth 3 is not 1, 2 or 4 (WGSL vectors)');
    expect(validateSchedule(sg, { ...adapter, features: ['subgroups'] })).not.toContain("reduction 'subgroup' needs the 'subgroups' feature, which this adapter lacks");
  });

  it('enumerate every combination of a family space', () => {
    const all = enumerateSpace('elementwise');
    const sizes = Object.values(SPACES.elementwise).map((k) => k.values.length);
    expect(all).toHaveLength(sizes.reduce((a, b) => a * b, 1));
    expect(new Set(all.map(scheduleKey)).size).toBe(all.length);
    const valid = all.filter((s) => validateSchedule(s, adapter).length === 0);
    expect(valid.length).toBe(all.length - all.filter((s) => s.family === 'elementwise' && s.workgroupSize > 256).length);
  });

  it('count workgroup memory per family', () => {
    expect(workgroupStorageBytes(parseSchedule({ family: 'norm', workgroupSize: 256, vectorWidth: 4, reduction: 'shared', unroll: 1 }))).toBe(2048);
  });
});

describe('shape rules', () => {
  it('hold when every condition holds', () => {
    const when = [{ feature: 'ne0', min: 1024, multipleOf: 4 }, { feature: 'rows', max: 64 }];
    expect(allHold(when, { ne0: 4096, rows: 64 })).toBe(true);
    expect(allHold(when, { ne0: 4094, rows: 64 })).toBe(false);
    expect(allHold(when, { ne0: 4096, rows: 65 })).toBe(false);
    expect(allHold(when, { ne0: 512, rows: 1 })).toBe(false);
    expect(allHold([], {})).toBe(true);
    expect(allHold([{ feature: 'K', min: 1 }], { ne0: 1 })).toBe(false);
    expect(describeConditions(when)).toBe('ne0 ≥ 1024, ne0 % 4 == 0, rows ≤ 64');
  });
});

describe('space restrictions (the sweep\'s --space)', () => {
  it("prefills the family's whole space, which enumerates exactly the family's candidates", () => {
    for (const family of ['elementwise', 'norm', 'matmul'] as const) {
      const space = parseSpace(spaceText(family), family);
      expect(Object.keys(space)).toEqual(Object.keys(SPACES[family]));
      expect(enumerateSpace(family, space)).toHaveLength(enumerateSpace(family).length);
    }
  });

  it("enumerates a knob's sweep subset unless asked: values measured to lose stay parseable and sweepable on request", () => {
    // matmul: 3 tiles M × 3 N × 3 K × 2 threadM × 3 threadN × 2 widths × 3 stagings, split K at 1 only.
    expect(enumerateSpace('matmul')).toHaveLength(972);
    expect(enumerateSpace('matmul', { splitK: [1, 2, 4] })).toHaveLength(3 * 972);
    // sgmatrix: direct staging and rotated stores (slower on the H200) only on request.
    expect(enumerateSpace('sgmatrix')).toHaveLength(3 ** 6 * 3);
    expect(enumerateSpace('sgmatrix', parseSpace('{"staging": ["direct"], "storeOrder": ["plain", "rotated"]}', 'sgmatrix'))).toHaveLength(3 ** 6 * 2);
    expect(parseSchedule({ family: 'matmul', tileM: 64, tileN: 64, tileK: 16, threadM: 4, threadN: 4, vectorWidth: 4, splitK: 4 })).toMatchObject({ splitK: 4, staging: 'single' });
  });

  it('restricts knob by knob; knobs left out keep every value', () => {
    const c = enumerateSpace('elementwise', parseSpace('{"workgroupSize": [64, 2048], "vectorWidth": [4]}', 'elementwise'));
    expect(c).toHaveLength(2 * SPACES.elementwise.elementsPerThread.values.length);
    expect(c.filter((s) => validateSchedule(s, { limits: DEFAULT_LIMITS, features: [] }).length === 0)).toHaveLength(4);
  });

  it('names the knob or value that is wrong', () => {
    expect(() => parseSpace('{"tile": [4]}', 'elementwise')).toThrow("unknown knob 'tile' for family elementwise");
    expect(() => parseSpace('{"workgroupSize": []}', 'elementwise')).toThrow('space.workgroupSize must be a non-empty list');
    expect(() => parseSpace('{"staging": ["triple"]}', 'matmul')).toThrow('space.staging: "triple" is not one of');
    expect(() => parseSpace('{"workgroupSize": [0]}', 'elementwise')).toThrow('is not a positive integer');
    expect(() => parseSpace('[1]', 'elementwise')).toThrow('space is a JSON object');
    expect(() => parseSpace('{', 'elementwise')).toThrow('space is not valid JSON');
  });

  it('refuse hostile schedules by name: inherited names, deep nesting, empty or huge text', () => {
    const ok = { family: 'elementwise', workgroupSize: 256, elementsPerThread: 4, vectorWidth: 4 };
    for (const family of ['constructor', '__proto__', 'hasOwnProperty', 'toString']) expect(() => parseSchedule({ ...ok, family })).toThrow(/schedule family "[^"]+" is not one of elementwise, norm, matmul/);
    for (const key of ['constructor', '__proto__', 'hasOwnProperty', 'valueOf']) {
      expect(() => parseSchedule(`{"family":"elementwise","workgroupSize":256,"elementsPerThread":4,"vectorWidth":4,"${key}":1}`)).toThrow(new RegExp(`key '${key}' names an inherited object member`));
      expect(() => parseSpace(`{"${key}":[1]}`, 'elementwise')).toThrow(/names an inherited object member/);
    }
    // A knob nested 100 000 deep is refused by the bounds check, before anything recurses into it.
    const deep = `{"family":"elementwise","workgroupSize":${'['.repeat(100_000)}1${']'.repeat(100_000)}}`;
    expect(() => parseSchedule(JSON.parse(deep))).toThrow(/nested more than 2 deep/);
    expect(() => parseSchedule(deep)).toThrow(/over the 4096-character cap/);
    expect(() => parseSchedule('')).toThrow(/schedule is empty/);
    expect(() => parseSchedule('   ')).toThrow(/schedule is empty/);
    expect(() => parseSpace('', 'elementwise')).toThrow(/space is empty/);
    expect(() => parseSchedule({ ...ok, workgroupSize: 'x'.repeat(100) })).toThrow(/a string of 100 characters, over the 64-character cap/);
    expect(() => parseSchedule(Object.assign(Object.create({ workgroupSize: 64 }), { family: 'elementwise', elementsPerThread: 4, vectorWidth: 4 }))).toThrow(/not a plain JSON object/);
    expect(scheduleKey(parseSchedule(ok))).toBe('elementwise{"elementsPerThread":4,"vectorWidth":4,"workgroupSize":256}');
  });
});
