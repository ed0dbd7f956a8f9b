// User kernels through the Node runtime (Dawn on SwiftShader here): the lab's three example
// kernels checked and timed, and every refusal the manifest format promises, named.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './project-root';
import { runCli } from './run-cli';

const examples = join(projectRoot(), 'examples', 'kernels');
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** A copy of an example in a temp folder, its manifest and WGSL edited. */
function edited(dir: string, editManifest: (m: any) => void = () => {}, editWgsl: Record<string, (w: string) => string> = {}): string {
  const out = mkdtempSync(join(tmpdir(), 'lab-kernel-'));
  const manifest = JSON.parse(readFileSync(join(examples, dir, 'manifest.json'), 'utf8'));
  for (const k of manifest.kernels) {
    const text = readFileSync(join(examples, dir, k.wgsl), 'utf8');
    writeFileSync(join(out, k.wgsl), (editWgsl[k.wgsl] ?? ((w) => w))(text));
  }
  editManifest(manifest);
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return join(out, 'manifest.json');
}

describe('user kernels (node runtime)', () => {
  it.each([
    ['add', '1000x6', 'broadcast-row', ['add.wgsl']],
    ['rms-norm', '1000x6', 'src0-rows-strided', ['rms_norm.wgsl']],
    ['rms-norm-split', '3000x5', 'src0-permuted', ['sumsq.wgsl', 'scale.wgsl']],
  ])('%s: correct against the oracle, timed, with its manifest and WGSL hashes', (dir, shape, layout, files) => {
    const manifest = join(examples, dir, 'manifest.json');
    const r = runCli(['time', '--kernel', manifest, '--shape', shape, '--layout', layout, '--min-runs', '4', '--json', '-']);
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    const name = JSON.parse(readFileSync(manifest, 'utf8')).name;
    expect(json).toMatchObject({ variant: 'user', layout, correct: true, scheduleKey: null });
    expect(json.correctness.guardViolations).toBe(0);
    expect(json.timing.runs).toBeGreaterThan(0);
    expect(json.timing.medianNs).toBeGreaterThan(0);
    expect(json.userKernel).toEqual({
      name,
      id: `${name}@${sha256(manifest).slice(0, 12)}`,
      manifestSha256: sha256(manifest),
      wgsl: files.map((f) => ({ file: f, sha256: sha256(join(examples, dir, f)) })),
    });
    expect(r.stderr).toMatch(new RegExp(`user ${name}@[0-9a-f]{12}`));
    expect(r.stderr).toMatch(/share link: http/);
  });

  it('spreads a linear dispatch past 65535 workgroups over x and y, and the kernel skips the overhang', () => {
    // One thread per workgroup: 70001 workgroups → 2 rows of 35001, the last one past the end.
    const r = runCli(['time', '--kernel', edited('add', (m) => (m.kernels[0].workgroupSize = [1])), '--shape', '70001', '--min-runs', '2', '--json', '-']);
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.dispatch).toEqual([35001, 2, 1]);
    expect(json).toMatchObject({ correct: true, correctness: { guardViolations: 0 } });
  });

  it('refuses a case outside the claims, a missing feature and a dispatch over the limits, by name (exit 2)', () => {
    const layout = runCli(['time', '--kernel', join(examples, 'add', 'manifest.json'), '--shape', '64x8', '--layout', 'inplace']);
    expect(layout.status).toBe(2);
    expect(layout.stderr).toMatch(/error: unclaimed-layout: lab-add claims layouts contiguous, .*not 'inplace'/);
    const op = runCli(['time', '--kernel', join(examples, 'add', 'manifest.json'), '--op', 'RMS_NORM', '--shape', '64x8']);
    expect(op.stderr).toMatch(/unclaimed-op: lab-add implements ADD, not RMS_NORM/);
    const feature = runCli(['time', '--kernel', edited('add', (m) => (m.features = ['chromium-experimental-subgroup-matrix'])), '--shape', '64x8']);
    expect(feature.status).toBe(2);
    expect(feature.stderr).toMatch(/error: missing-feature: lab-add needs the 'chromium-experimental-subgroup-matrix' feature, which this adapter lacks/);
    const dispatch = runCli(['time', '--kernel', edited('add', (m) => (m.kernels[0].dispatch = ['max_workgroups_per_dim + 1'])), '--shape', '64x8']);
    expect(dispatch.status).toBe(2);
    expect(dispatch.stderr).toMatch(/dispatch-over-limits: user:lab-add\/add: dispatch\[0\] 'max_workgroups_per_dim \+ 1' = 65536 exceeds maxComputeWorkgroupsPerDimension 65535/);
  });

  it('refuses a manifest that does not parse, an unknown role or field, a bad expression, a missing file (exit 2)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-kernel-'));
    writeFileSync(join(dir, 'broken.json'), '{ "manifestVersion": 1,\n  "name": "x" oops }');
    const parse = runCli(['time', '--kernel', join(dir, 'broken.json'), '--shape', '64x8']);
    expect(parse.status).toBe(2);
    expect(parse.stderr).toMatch(/error: manifest: is not valid JSON: .*line 2 column 15/);
    const role = runCli(['time', '--kernel', edited('add', (m) => (m.kernels[0].bindings[2].role = 'out')), '--shape', '64x8']);
    expect(role.status).toBe(2);
    expect(role.stderr).toMatch(/manifest kernels\[0\]\.bindings\[2\]\.role: unknown role 'out' \(roles: src0, src1, src2, dst, params, scratch\)/);
    const field = runCli(['time', '--kernel', edited('add', (m) => (m.kernels[0].uniform = [])), '--shape', '64x8']);
    expect(field.stderr).toMatch(/manifest kernels\[0\]: unknown field 'uniform'/);
    const expr = runCli(['time', '--kernel', edited('add', (m) => (m.kernels[0].dispatch = { workgroups: 'ceil(n / wg_x' })), '--shape', '64x8']);
    expect(expr.status).toBe(2);
    expect(expr.stderr).toMatch(/manifest kernels\[0\]\.dispatch\.workgroups: expression "ceil\(n \/ wg_x" does not parse: expected '\)' but found the end/);
    const evaluate = runCli(['time', '--kernel', edited('add', (m) => (m.kernels[0].uniforms[4].value = 'nb01 / (ne1 - 8)')), '--shape', '64x8']);
    expect(evaluate.stderr).toMatch(/uniforms\[4\]\.value: expression 'nb01 \/ \(ne1 - 8\)' does not evaluate: division by zero/);
    const missing = edited('rms-norm-split');
    writeFileSync(missing, readFileSync(missing, 'utf8').replace('"scale.wgsl"', '"scales.wgsl"'));
    const file = runCli(['time', '--kernel', missing, '--shape', '64x8']);
    expect(file.status).toBe(2);
    expect(file.stderr).toMatch(/manifest kernels\[1\]\.wgsl: cannot read 'scales\.wgsl' .*ENOENT/);
  });

  it('reports a WGSL compile error with line and column', () => {
    const r = runCli(['time', '--kernel', edited('add', () => {}, { 'add.wgsl': (w) => w.replace('let x = a[', 'let x = aa[') }), '--shape', '64x8']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/WgslCompileError: user:lab-add\/add does not compile:\s+error at line 30:11: unresolved value 'aa'/);
  });

  it('catches a write outside dst with the guard bands: wrong, never timed (exit 1)', () => {
    // The first thread also writes one element past dst's end, into the guard band.
    const oob = edited('add', () => {}, { 'add.wgsl': (w) => w.replace('  out[p.offd + i] = x + y;', '  out[p.offd + i] = x + y;\n  if (i == 0u) {\n    out[p.offd + p.n] = 1.0;\n  }') });
    const r = runCli(['time', '--kernel', oob, '--shape', '64x8', '--json', '-']);
    expect(r.status).toBe(1);
    const json = JSON.parse(r.stdout);
    expect(json).toMatchObject({ variant: 'user', correct: false, timing: null });
    expect(json.correctness.outOfBound).toBe(0);
    expect(json.correctness.guardViolations).toBe(4);
    expect(r.stderr).toMatch(/4 byte\(s\) outside the output changed \(out-of-bounds write\)/);
  });

  it('--time-incorrect times a kernel with a part cut out (an ablation), still wrong, exit 1, no share link', () => {
    // The add with src1 cut out: every element wrong, but the kernel runs and is timed on request.
    const cut = edited('add', () => {}, { 'add.wgsl': (w) => w.replace('  out[p.offd + i] = x + y;', '  out[p.offd + i] = x;') });
    const plain = runCli(['time', '--kernel', cut, '--shape', '64x8', '--json', '-']);
    expect(plain.status).toBe(1);
    expect(JSON.parse(plain.stdout)).toMatchObject({ correct: false, timing: null });
    const r = runCli(['time', '--kernel', cut, '--shape', '64x8', '--min-runs', '4', '--time-incorrect']);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^correct {3}NO /m);
    expect(r.stdout).toMatch(/^diagnosis a WRONG kernel timed on request \(--time-incorrect\)/m);
    expect(r.stdout).toMatch(/^timing {4}min .* median .* runs \d+/m);
    expect(r.stdout).not.toMatch(/share|#r=/i);
    const md = runCli(['time', '--kernel', cut, '--shape', '64x8', '--time-incorrect', '--markdown', join(tmpdir(), 'x.md')]);
    expect(md.status).toBe(2);
    expect(md.stderr).toMatch(/--time-incorrect times a kernel that may be wrong, for diagnosis: give it without --markdown/);
  });
});

describe('user kernels in the lane (node runtime)', () => {
  it('times each kernel beside native and generated, repeatable, with its verdict and hashes; refusals are columns, not failures', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-lane-'));
    const md = join(dir, 'lane.md');
    const r = runCli([
      'lane',
      '--kernel', join(examples, 'add', 'manifest.json'),
      '--kernel', join(examples, 'rms-norm-split', 'manifest.json'),
      '--shape', 'ADD:1000x6',
      '--shape', 'ADD:64x64:inplace',
      '--shape', 'ADD:256x16:src1-transposed',
      '--shape', 'RMS_NORM:3000x5',
      '--repeat', '3',
      '--json', '-',
      '--markdown', md,
    ]);
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    const add = json.pairs.find((p: { op: string }) => p.op === 'ADD');
    const users = add.shapes.map((s: { users: unknown[] }) => s.users[0]);
    // timed beside native and generated: one native ÷ user ratio per pass
    expect(users[0]).toMatchObject({ correct: true, refusal: null });
    expect(users[0].speedups).toHaveLength(3);
    expect(['faster', 'parity', 'within-tolerance', 'slower', 'undecided']).toContain(users[0].verdict);
    expect(users[0].kernel.id).toMatch(/^lab-add@[0-9a-f]{12}$/);
    // outside the kernel's claims: a declared refusal, never run
    expect(users[1]).toMatchObject({ verdict: 'declared-fallback', refusal: { code: 'unclaimed-layout', declared: true }, medianNs: null });
    // generated falls back here, the user kernel is still timed against native alone
    expect(add.shapes[2].verdict).toBe('declared-fallback');
    expect(users[2].speedups).toHaveLength(3);
    const norm = json.pairs.find((p: { op: string }) => p.op === 'RMS_NORM');
    expect(norm.shapes[0].users[0]).toMatchObject({ correct: true, kernel: { name: 'lab-rms-norm-split' } });
    expect(norm.shapes[0].users[0].speedups).toHaveLength(3);
    // user columns never gate: the lane's verdict is native against generated
    expect(json.green).toBe(true);
    expect(r.stderr).toMatch(/user kernels \(speedup = native ÷ user, same alternating passes\)/);
    const markdown = readFileSync(md, 'utf8');
    expect(markdown).toMatch(/\| 64x64 inplace \| `lab-add@[0-9a-f]{12}` \| — \| — \| declared-fallback \(unclaimed-layout\) \|/);
    expect(markdown).toMatch(/- User kernel `lab-rms-norm-split@[0-9a-f]{12}`: manifest sha256 `[0-9a-f]{64}`, sumsq\.wgsl `[0-9a-f]{64}`, scale\.wgsl `[0-9a-f]{64}`/);
  });
});
