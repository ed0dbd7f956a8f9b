// The Node runtime end to end: the CLI bundle on Dawn (SwiftShader here), as a user runs it.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli';

describe('lab CLI (node runtime)', () => {
  it('prints help, and exits 2 on an unknown command', () => {
    const help = runCli(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/usage: npm run lab -- <command>/);
    const bad = runCli(['frobnicate']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/unknown command 'frobnicate'/);
  });

  it('describes the adapter', () => {
    const r = runCli(['device', '--json', '-']);
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.adapter.runtime).toBe('node');
    expect(json.adapter.features).toContain('timestamp-query');
    expect(json.adapter.limits.maxComputeInvocationsPerWorkgroup).toBeGreaterThanOrEqual(256);
    expect(r.stderr).toMatch(/maxStorageBufferBindingSize/);
  });

  it('times a generated kernel after checking it, and writes the JSON the issue names', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-'));
    const file = join(dir, 'r.json');
    const r = runCli(['time', '--op', 'add', '--shape', '1000x6', '--layout', 'broadcast-row', '--json', file]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/correct {3}yes/);
    expect(r.stdout).toMatch(/resolution \d+ ns/);
    const json = JSON.parse(readFileSync(file, 'utf8'));
    expect(json).toMatchObject({ op: 'ADD', shape: '1000x6', layout: 'broadcast-row', variant: 'generated', correct: true });
    expect(json.scheduleKey).toBe('elementwise{"elementsPerThread":4,"vectorWidth":4,"workgroupSize":256}');
    expect(json.maxErr).toBeLessThanOrEqual(json.bound);
    for (const k of ['runs', 'minNs', 'medianNs', 'maxNs', 'resolutionNs', 'method']) expect(json.timing).toHaveProperty(k);
    expect(json.timing.minNs).toBeLessThanOrEqual(json.timing.medianNs);
    expect(json.adapter.runtime).toBe('node');
  });

  it('runs the native kernel in place', () => {
    const r = runCli(['time', '--op', 'ADD', '--shape', '257x3', '--layout', 'inplace', '--native', '--json', '-']);
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json).toMatchObject({ variant: 'native', scheduleKey: null, correct: true });
    expect(json.correctness.guardViolations).toBe(0);
  });

  it('falls back to native on a declared contract rejection, and says so', () => {
    const r = runCli(['time', '--op', 'ADD', '--shape', '64x64', '--layout', 'src1-transposed', '--json', '-']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).fallback.code).toBe('src1-rows-not-contiguous');
    expect(r.stderr).toMatch(/fallback {2}native: src1-rows-not-contiguous/);
  });

  it('exits 2 naming a bad op, a bad shape, a bad layout and a bad schedule', () => {
    const op = runCli(['time', '--op', 'SOFTMAX', '--shape', '4x4']);
    expect([op.status, op.stderr]).toEqual([2, expect.stringMatching(/unknown op 'SOFTMAX'/)]);
    const shape = runCli(['time', '--op', 'ADD', '--shape', '4096xx2']);
    expect([shape.status, shape.stderr]).toEqual([2, expect.stringMatching(/shape '4096xx2' is not of the form/)]);
    const layout = runCli(['time', '--op', 'ADD', '--shape', '8x8', '--layout', 'diagonal']);
    expect([layout.status, layout.stderr]).toEqual([2, expect.stringMatching(/ADD has no layout 'diagonal'/)]);
    const json = runCli(['time', '--op', 'ADD', '--shape', '8x8', '--schedule', '{"family":"elementwise"']);
    expect([json.status, json.stderr]).toEqual([2, expect.stringMatching(/schedule is not valid JSON/)]);
    const opt = runCli(['time', '--op', 'ADD', '--shape', '8x8', '--fast']);
    expect([opt.status, opt.stderr]).toEqual([2, expect.stringMatching(/Unknown option '--fast'/)]);
  });

  it('refuses a schedule outside the adapter limits, naming the knob and the limit', () => {
    const r = runCli(['time', '--op', 'ADD', '--shape', '64x4', '--schedule', '{"family":"elementwise","workgroupSize":1024,"elementsPerThread":1,"vectorWidth":4}']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/workgroupSize 1024 exceeds maxComputeInvocationsPerWorkgroup 256/);
  });

  it("reports a WGSL compile error with the compiler's line", () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-'));
    const wgsl = join(dir, 'broken.wgsl');
    writeFileSync(wgsl, readFileSync('kernels/binary/binary.wgsl', 'utf8').replace('let a = src0', 'let a = srcZ'));
    const r = runCli(['time', '--op', 'ADD', '--shape', '64x4', '--native', '--wgsl', wgsl]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/WgslCompileError: native:ADD \(binary\/binary\.wgsl\) \(edited\) does not compile:/);
    expect(r.stderr).toMatch(/error at line \d+:\d+: unresolved value 'srcZ'/);
    expect(r.stderr).toMatch(/let a = srcZ\[/);
  });

  it('runs a wrong kernel to a verdict without timing it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-'));
    const wgsl = join(dir, 'wrong.wgsl');
    writeFileSync(wgsl, readFileSync('kernels/binary/binary.wgsl', 'utf8').replace('dst[d] = op(a, b);', 'dst[d] = op(a, -b);'));
    const r = runCli(['time', '--op', 'ADD', '--shape', '64x4', '--native', '--wgsl', wgsl, '--json', '-']);
    expect(r.status).toBe(1);
    const json = JSON.parse(r.stdout);
    expect(json.correct).toBe(false);
    expect(json.timing).toBeNull();
    expect(json.correctness.outOfBound).toBeGreaterThan(0);
    expect(r.stderr).toMatch(/timing {4}not read: a wrong kernel is never timed/);
  });

  it('falls back to the wall clock when asked (what runs without timestamp-query), and says so', () => {
    const r = runCli(['time', '--op', 'ADD', '--shape', '256x4', '--timer', 'wallclock', '--json', '-']);
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.timing.method).toBe('wallclock');
    expect(json.timing.note).toMatch(/wall clock around onSubmittedWorkDone/);
    expect(json.timing.minNs).toBeGreaterThan(0);
    expect(runCli(['time', '--op', 'ADD', '--shape', '8x8', '--timer', 'sundial']).stderr).toMatch(/--timer must be gpu or wallclock/);
  });

  it('runs the same request in headless Chromium (the built page\'s worker)', () => {
    const r = runCli(['time', '--op', 'MUL_MAT', '--shape', '64x32x48', '--layout', 'src1-permuted', '--runtime', 'browser', '--json', '-']);
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json).toMatchObject({ op: 'MUL_MAT', layout: 'src1-permuted', variant: 'generated', correct: true });
    expect(json.adapter.runtime).toBe('browser');
    expect(json.adapter.isFallbackAdapter).toBe(true);
  });
});
