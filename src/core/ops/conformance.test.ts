// The conformance suite: every op in the registry, checked the same way (like the WebGPU CTS,
// cases are built from the data, with stable IDs `OP/check[/detail]`). A new op is picked up
// from OPS with no edit here.
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, LIMIT_NAMES, limitsToRequest } from '../adapter';
import { SPACES, limitsNeeded, parseSchedule, scheduleKey, validateSchedule } from '../schedule/schedule';
import { OPS, REGISTRY, registryEntry, schedulesFor } from './registry';
import { opFamilies, type MatrixEntry, type OpDef } from './types';

const ADAPTER = { limits: DEFAULT_LIMITS, features: [] as string[] };
/** Rule schedules that need a feature (subgroups, subgroup matrices, WGSL's dot4I8Packed) are checked where it exists; their rules are skipped elsewhere. */
const FEATURED = { limits: DEFAULT_LIMITS, features: ['subgroups', 'shader-f16', 'chromium-experimental-subgroup-matrix'], wgslFeatures: ['packed_4x8_integer_dot_product'] };
const caseOf = (op: OpDef, e: MatrixEntry) => op.makeCase(e.dims, e.layout, e.params);
const entryId = (e: MatrixEntry) => `${e.dims.join('x')}:${e.layout}${e.params ? `:${Object.entries(e.params).map(([k, v]) => `${k}=${v}`).join(',')}` : ''}`;

describe('the registry covers exactly the ops', () => {
  it('registry/ops-have-entries', () => {
    expect(REGISTRY.map((e) => e.op).sort()).toEqual(OPS.map((o) => o.name).sort());
  });
});

describe.each(OPS.map((op) => [op.name, op] as const))('%s', (name, op) => {
  const entry = registryEntry(name);

  it(`${name}/registry-entry`, () => {
    expect(entry.states.default, 'every entry says what an unknown adapter gets').toBeDefined();
    for (const [cls, st] of Object.entries(entry.states)) {
      expect(cls === 'default' || /^[\w*-]+\/[\w*-]+$/.test(cls), `adapter class '${cls}' is vendor/architecture`).toBe(true);
      expect(st.evidence.length, `${cls} carries evidence`).toBeGreaterThan(20);
    }
    // An op that declares no generated path has no rules; every other op has some.
    if (op.noGeneratedPath) expect(entry.rules).toEqual([]);
    else expect(entry.rules.length).toBeGreaterThan(0);
  });

  it(`${name}/last-rule-takes-anything`, () => {
    if (op.noGeneratedPath) expect(op.noGeneratedPath.length, 'the declared reason says why').toBeGreaterThan(20);
    else expect(entry.rules[entry.rules.length - 1].when).toEqual([]);
  });

  it(`${name}/matrix-covers-every-layout`, () => {
    const covered = new Set(op.matrix.map((e) => e.layout));
    expect(op.layouts.map((l) => l.name).filter((l) => !covered.has(l))).toEqual([]);
  });

  it.each(op.params.map((p) => [p.name, p] as const))(`${name}/matrix-covers-param/%s`, (_, p) => {
    const values = op.matrix.map((e) => e.params?.[p.name] ?? p.default);
    expect(values, 'the default').toContain(p.default);
    expect(values.some((v) => v !== p.default), 'and at least one other value').toBe(true);
  });

  it.each(op.matrix.map((e) => [entryId(e), e] as const))(`${name}/require-accepts/%s`, (_, e) => {
    const c = caseOf(op, e);
    const rejection = op.require(c, ADAPTER);
    if (rejection) expect(entry.declaredRejections, `${rejection.code}: ${rejection.reason}`).toContain(rejection.code);
  });

  it.each(entry.rules.map((r, i) => [`${i}:${scheduleKey(r.schedule)}`, r] as const))(`${name}/rule-schedule/%s`, (_, rule) => {
    const s = rule.schedule;
    expect(opFamilies(op)).toContain(s.family);
    expect(parseSchedule(JSON.stringify(s), opFamilies(op))).toEqual(s);
    // Checked against the limits the rule declares, each one a limit the device is opened with and
    // one the schedule needs (at WebGPU's default it is refused, naming the numbers).
    // Exactly the limits it needs above the defaults: none missing, none extra.
    expect(rule.limits ?? {}).toEqual(limitsNeeded(s));
    const declared = { ...DEFAULT_LIMITS, ...rule.limits };
    expect(validateSchedule(s, { ...FEATURED, limits: declared })).toEqual([]);
    for (const [k, v] of Object.entries(rule.limits ?? {})) {
      expect(LIMIT_NAMES).toContain(k);
      expect(limitsToRequest(declared)).toHaveProperty(k, v);
      const atDefault = validateSchedule(s, { ...FEATURED, limits: { ...declared, [k]: DEFAULT_LIMITS[k as keyof typeof DEFAULT_LIMITS] } });
      expect(atDefault.join('; '), `${k} ${v} is needed`).toMatch(new RegExp(`exceeds ${k} ${DEFAULT_LIMITS[k as keyof typeof DEFAULT_LIMITS]}`));
    }
    const space = SPACES[s.family];
    for (const [knob, v] of Object.entries(s)) {
      if (knob === 'family') continue;
      expect(space[knob].values, `${knob} ${v} lies in the ${s.family} space`).toContain(v);
    }
  });

  // One WGSL snapshot per (op, layout): the first matrix case of each layout, the kernel auto
  // picks on a default adapter (the native one where the contract declines it).
  it.each(op.layouts.map((l) => [l.name, op.matrix.find((e) => e.layout === l.name)] as const))(`${name}/wgsl-snapshot/%s`, (_, e) => {
    expect(e).toBeDefined();
    const c = caseOf(op, e!);
    const s = op.require(c, ADAPTER) ? null : schedulesFor(name, c, ADAPTER);
    const k = s ? op.generate(s, c) : op.native(c);
    expect(k.wgsl).not.toMatch(/\{\{|^\s*#(if|else|endif)/m);
    expect(`${k.label}\n${k.wgsl}`).toMatchSnapshot();
  });

  it(`${name}/bench-case`, () => {
    // The case bench --only ops times is a valid case of the op (no silent fallback to matrix[0]).
    expect(() => op.makeCase(op.bench.dims, op.bench.layout, op.bench.params)).not.toThrow();
  });

  it(`${name}/params-declared`, () => {
    for (const p of op.params) {
      expect(() => op.makeCase(op.matrix[0].dims, op.matrix[0].layout, { [p.name]: p.default })).not.toThrow();
      expect(p.doc.length).toBeGreaterThan(5);
    }
    expect(() => op.makeCase(op.matrix[0].dims, op.matrix[0].layout, { no_such_param: 1 })).toThrow(/no_such_param/);
  });
});
