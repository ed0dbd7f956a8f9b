// User kernels as engines write them, through the Node runtime (Dawn on SwiftShader): the
// ggml-style example unchanged, a kernel that writes a source failing by name, a kernel that
// never finishes ended by the watchdog in bounded time, and the CLI's hostile files (issue 23/25).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './project-root';
import { runCli } from './run-cli';

const ggml = join(projectRoot(), 'examples', 'kernels', 'ggml-style-add');

/** A copy of the ggml-style example in a temp folder, its manifest and f32 WGSL edited. */
function copy(editManifest: (m: any) => void = () => {}, editWgsl: (w: string) => string = (w) => w): string {
  const out = mkdtempSync(join(tmpdir(), 'lab-as-written-'));
  const m = JSON.parse(readFileSync(join(ggml, 'manifest.json'), 'utf8'));
  writeFileSync(join(out, 'binary.wgsl'), editWgsl(readFileSync(join(ggml, 'binary.wgsl'), 'utf8')));
  writeFileSync(join(out, 'binary_f16.wgsl'), readFileSync(join(ggml, 'binary_f16.wgsl'), 'utf8'));
  editManifest(m);
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(m));
  return join(out, 'manifest.json');
}

/** A loop that never breaks unless `breakWhen` holds: the kernel never finishes where it does not. */
const HANG_LOOP = (breakWhen: string) => `    var k = 0u;\n    loop { if (${breakWhen}) { break; } k = k + 1u; dst[params.offset_dst] = f32(k); }\n`;

describe('a kernel as an engine wrote it (node runtime)', () => {
  it('loads unchanged and runs: read_write sources, @binding(2 + 1), a limit-sized workgroup; the f32 variant on an adapter without shader-f16', () => {
    const r = runCli(['time', '--kernel', join(ggml, 'manifest.json'), '--shape', '1000x6', '--layout', 'broadcast-row', '--min-runs', '2', '--json', '-']);
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    const features: string[] = json.adapter.features;
    const f16 = features.includes('shader-f16');
    expect(json).toMatchObject({ correct: true, variant: 'user', workgroupSize: [json.adapter.limits.maxComputeInvocationsPerWorkgroup, 1, 1], correctness: { guardViolations: 0 } });
    expect(json.userKernel.variant).toBe(f16 ? 'f16' : 'f32');
    expect(json.userKernel.id).toMatch(f16 ? / \(f16-staged\)$/ : /^ggml-style-add@[0-9a-f]{12}$/);
    expect(json.dispatch).toEqual([Math.ceil(6000 / json.workgroupSize[0]), 1, 1]);
    expect(r.stderr).toMatch(f16 ? /variant f16; declared f16-staged/ : /variant f32; manifest sha256/);
  });

  it('declared numerics on SwiftShader: a sum staged through f16 (pack2x16float, no shader-f16 needed) is wrong by f32 semantics and correct as declared f16-staged, labelled so', () => {
    const stage = (w: string) =>
      w.replace(
        'dst[params.offset_dst + gid.x] = src0[params.offset_src0 + at_src0(c)] + src1[params.offset_src1 + at_src1(c)];',
        'dst[params.offset_dst + gid.x] = unpack2x16float(pack2x16float(vec2<f32>(src0[params.offset_src0 + at_src0(c)] + src1[params.offset_src1 + at_src1(c)], 0.0))).x;',
      );
    const f32Only = (m: any) => (m.variants = m.variants.filter((v: { name: string }) => v.name === 'f32'));
    const asF32 = runCli(['time', '--kernel', copy(f32Only, stage), '--shape', '256x4', '--min-runs', '2', '--json', '-']);
    expect(asF32.status, asF32.stderr).toBe(1);
    expect(JSON.parse(asF32.stdout).correct).toBe(false);
    const declared = copy((m) => {
      f32Only(m);
      m.variants[0].compute = 'f16-staged';
    }, stage);
    const r = runCli(['time', '--kernel', declared, '--shape', '256x4', '--min-runs', '2', '--json', '-']);
    expect(r.status, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.correct).toBe(true);
    expect(json.userKernel.id).toMatch(/ \(f16-staged\)$/);
    expect(r.stderr).toMatch(/declared f16-staged/);
  });

  it('a kernel that writes a source fails by name, never timed (exit 1)', () => {
    const writes = copy(undefined, (w) => w.replace('    let c = coords(gid.x);', '    let c = coords(gid.x);\n    src1[params.offset_src1] = 0.0;'));
    const r = runCli(['time', '--kernel', writes, '--shape', '64x4', '--json', '-']);
    expect(r.status, r.stderr).toBe(1);
    const json = JSON.parse(r.stdout);
    expect(json.correct).toBe(false);
    expect(json.timing).toBeNull();
    expect(json.correctness.failures[0]).toMatch(/^source-written: the kernel wrote to src1 \(bound read_write as its WGSL declares it\): \d+ bytes changed, the first at byte 256/);
  });

  it('a kernel that never finishes is ended by the watchdog within its bound: a too-slow row naming the bound, exit 1; the next run works', () => {
    const hang = copy(
      (m) => (m.name = 'never-ends'),
      (w) => w.replace('    let c = coords(gid.x);', `${HANG_LOOP('params.ne == 0u')}    let c = coords(gid.x);`),
    );
    const t0 = performance.now();
    const r = runCli(['time', '--kernel', hang, '--shape', '64x4', '--watchdog-ms', '1500', '--json', '-'], 60_000);
    const wallMs = performance.now() - t0;
    // A hung kernel is a measured outcome, not a crash: its row, exit 1 (as a wrong kernel).
    expect(r.status, r.stderr).toBe(1);
    const json = JSON.parse(r.stdout);
    expect(json).toMatchObject({ kind: 'level1', shape: '64x4', verdict: 'too-slow', correct: false, timing: null, maxErr: null, watchdog: { boundMs: 1500 } });
    expect(json.watchdog.note).toMatch(/^hung: user:never-ends gave no answer within the watchdog's wall bound of 1500 ms \(1 run\)/);
    expect(r.stderr).toMatch(/^verdict {3}too-slow {2}hung: user:never-ends gave no answer within the watchdog's wall bound of 1500 ms/m);
    expect(wallMs).toBeLessThan(30_000); // start-up and compile included; killed at 60 s otherwise
    process.stderr.write(`watchdog: bound 1500 ms, CLI exited after ${(wallMs / 1000).toFixed(1)} s\n`);
    const next = runCli(['time', '--kernel', join(ggml, 'manifest.json'), '--shape', '64x4', '--min-runs', '2', '--json', '-']);
    expect(next.status, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout).correct).toBe(true);
    const bad = runCli(['time', '--kernel', hang, '--shape', '64x4', '--watchdog-ms', '5']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/the watchdog's bound must be an integer from 100 to 600000 ms, got 5/);
  });

  it('an edit of the native kernel (--wgsl) that never finishes: the same too-slow row', () => {
    const shown = runCli(['time', '--op', 'ADD', '--native', '--shape', '64x4', '--min-runs', '2', '-vv']);
    expect(shown.status, shown.stderr).toBe(0);
    const wgsl = /(?:^|\n)wgsl \(dispatch [^)]*\):\n([\s\S]*)$/.exec(shown.stderr)![1];
    const edited = join(mkdtempSync(join(tmpdir(), 'lab-hang-wgsl-')), 'add.wgsl');
    writeFileSync(edited, wgsl.replace('  let c = tensor_coords(p.dst.ne, i);', '  var k = 0u;\n  loop { if (p.dst.n == 0u) { break; } k = k + 1u; dst[0] = f32(k); }\n  let c = tensor_coords(p.dst.ne, i);'));
    expect(readFileSync(edited, 'utf8')).toContain('loop {');
    const t0 = performance.now();
    const r = runCli(['time', '--op', 'ADD', '--native', '--wgsl', edited, '--shape', '64x4', '--watchdog-ms', '1500', '--json', '-'], 60_000);
    expect(r.status, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ variant: 'native', verdict: 'too-slow', timing: null, watchdog: { boundMs: 1500 } });
    expect(r.stderr).toMatch(/^verdict {3}too-slow {2}hung: native:ADD .*\(edited\) gave no answer within the watchdog's wall bound of 1500 ms/m);
    expect(performance.now() - t0).toBeLessThan(30_000);
  });

  it('time over several shapes: the shape that hangs is too-slow, the shapes after it are measured in a fresh process, one table', () => {
    // Hangs only where the case has 1024 elements (256x4).
    const hang = copy(
      (m) => (m.name = 'hangs-at-1024'),
      (w) => w.replace('    let c = coords(gid.x);', `${HANG_LOOP('params.ne != 1024u')}    let c = coords(gid.x);`),
    );
    const t0 = performance.now();
    const r = runCli(['time', '--kernel', hang, '--shape', '64x4', '--shape', '256x4', '--shape', '512x4', '--min-runs', '2', '--watchdog-ms', '1500', '--json', '-'], 90_000);
    const wallMs = performance.now() - t0;
    expect(r.status, r.stderr).toBe(1);
    const json = JSON.parse(r.stdout);
    expect(json.kind).toBe('level1-table');
    expect(json.results.map((x: { shape: string; correct: boolean; verdict?: string }) => [x.shape, x.correct, x.verdict ?? null])).toEqual([
      ['64x4', true, null],
      ['256x4', false, 'too-slow'],
      ['512x4', true, null],
    ]);
    expect(json.results[0].timing.medianNs).toBeGreaterThan(0);
    expect(json.results[2].timing.medianNs).toBeGreaterThan(0);
    expect(json.results[1].watchdog.note).toMatch(/wall bound of 1500 ms/);
    expect(r.stderr).toMatch(/ADD +256x4 +hangs-at-1024@[0-9a-f]{12} +too-slow/);
    expect(r.stderr).toMatch(/1 of 3 kernels are too-slow \(ended by the watchdog\)/);
    const recovered = /recovered: a fresh process has a device (\d+) ms after the watchdog gave up \(resuming at case 3\)/.exec(r.stderr);
    expect(recovered, r.stderr).not.toBeNull();
    expect(wallMs).toBeLessThan(60_000);
    process.stderr.write(`watchdog in time over 3 shapes: bound 1500 ms, recovered in ${recovered![1]} ms, CLI exited after ${(wallMs / 1000).toFixed(1)} s\n`);
  }, 100_000);

  it('a lane with a hung kernel among others reports it hung, naming the bound, and measures the rest in a fresh process', () => {
    const hang = copy(
      (m) => (m.name = 'never-ends'),
      (w) => w.replace('    let c = coords(gid.x);', `${HANG_LOOP('params.ne == 0u')}    let c = coords(gid.x);`),
    );
    const t0 = performance.now();
    const r = runCli(['lane', '--kernel', hang, '--kernel', join(ggml, 'manifest.json'), '--shape', 'ADD:64x4', '--shape', 'ADD:256x4', '--repeat', '2', '--watchdog-ms', '1500', '--allow-undecided', '--json', '-'], 120_000);
    const wallMs = performance.now() - t0;
    // ADD is a prefer pair: on a loaded CPU its native/generated gate may fail (exit 1); user kernels never gate.
    expect([0, 1], r.stderr).toContain(r.status);
    const json = JSON.parse(r.stdout);
    const columns = json.pairs[0].shapes.flatMap((s: { shape: string; users: { kernel: { id: string }; verdict: string; note: string | null; medianNs: number | null }[] }) => s.users.map((u) => ({ shape: s.shape, ...u })));
    expect(columns).toHaveLength(4);
    for (const c of columns.filter((c: { kernel: { id: string } }) => c.kernel.id.startsWith('never-ends@'))) {
      expect(c.verdict).toBe('too-slow');
      expect(c.note).toMatch(/^hung: user:never-ends gave no answer within the watchdog's wall bound of 1500 ms; .* went on in a fresh one without it/);
    }
    const others = columns.filter((c: { kernel: { id: string } }) => c.kernel.id.startsWith('ggml-style-add@'));
    expect(others.map((c: { shape: string }) => c.shape)).toEqual(['64x4', '256x4']);
    for (const c of others) expect(c.medianNs).toBeGreaterThan(0);
    const recovered = /recovered: a fresh process has a device (\d+) ms after the watchdog gave up \(never-ends reported hung\)/.exec(r.stderr);
    expect(recovered, r.stderr).not.toBeNull();
    process.stderr.write(`watchdog in a lane: bound 1500 ms, recovered in ${recovered![1]} ms, CLI exited after ${(wallMs / 1000).toFixed(1)} s\n`);
  }, 150_000);
});

describe('hostile files named by --kernel', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-hostile-kernel-'));

  it('a FIFO and a link to /dev/zero are refused before they are opened (exit 2)', () => {
    execFileSync('mkfifo', [join(dir, 'fifo.json')]);
    const fifo = runCli(['time', '--kernel', join(dir, 'fifo.json'), '--shape', '8'], 30_000);
    expect(fifo.status).toBe(2);
    expect(fifo.stderr).toMatch(/--kernel .*fifo\.json: it is a FIFO, not a regular file/);
    symlinkSync('/dev/zero', join(dir, 'zero.json'));
    const zero = runCli(['time', '--kernel', join(dir, 'zero.json'), '--shape', '8'], 30_000);
    expect(zero.status).toBe(2);
    expect(zero.stderr).toMatch(/zero\.json: it is a device, not a regular file/);
    const dev = runCli(['time', '--kernel', '/dev/zero', '--shape', '8'], 30_000);
    expect(dev.status).toBe(2);
  });

  it('WGSL named by a manifest: a link to /dev/zero, a file outside the folder, a file over 1 MiB', () => {
    const linked = copy();
    const folder = join(linked, '..');
    symlinkSync('/dev/zero', join(folder, 'zero.wgsl'));
    const m = JSON.parse(readFileSync(linked, 'utf8'));
    m.variants[1].kernels[0].wgsl = 'zero.wgsl';
    writeFileSync(linked, JSON.stringify(m));
    const zero = runCli(['time', '--kernel', linked, '--shape', '8'], 30_000);
    expect(zero.status).toBe(2);
    // The link resolves to /dev/zero: outside the folder, refused before it is looked at.
    expect(zero.stderr).toMatch(/variants\[1\]\.kernels\[0\]\.wgsl: 'zero\.wgsl' is outside the manifest's folder/);
    execFileSync('mkfifo', [join(folder, 'pipe.wgsl')]);
    m.variants[1].kernels[0].wgsl = 'pipe.wgsl';
    writeFileSync(linked, JSON.stringify(m));
    const fifo = runCli(['time', '--kernel', linked, '--shape', '8'], 30_000);
    expect(fifo.status).toBe(2);
    expect(fifo.stderr).toMatch(/cannot read 'pipe\.wgsl' .*: it is a FIFO, not a regular file/);

    mkdirSync(join(folder, 'sub'));
    writeFileSync(join(folder, 'sub', 'manifest.json'), JSON.stringify({ ...m, variants: [{ ...m.variants[1], kernels: [{ ...m.variants[1].kernels[0], wgsl: '../binary.wgsl' }] }] }));
    const outside = runCli(['time', '--kernel', join(folder, 'sub', 'manifest.json'), '--shape', '8'], 30_000);
    expect(outside.status).toBe(2);
    expect(outside.stderr).toMatch(/'\.\.\/binary\.wgsl' is outside the manifest's folder/);

    writeFileSync(join(folder, 'big.wgsl'), `// ${'x'.repeat(1024 * 1024)}\n`);
    writeFileSync(linked, JSON.stringify({ ...m, variants: [{ ...m.variants[1], kernels: [{ ...m.variants[1].kernels[0], wgsl: 'big.wgsl' }] }] }));
    const big = runCli(['time', '--kernel', linked, '--shape', '8'], 30_000);
    expect(big.status).toBe(2);
    expect(big.stderr).toMatch(/cannot read 'big\.wgsl' .*: it is 1048580 bytes, over the cap of 1048576/);
  });

  it('a zero dispatch is refused by the manifest (exit 2), and nothing of Dawn reaches stdout', () => {
    const zero = copy((m) => m.variants.forEach((v: any) => (v.kernels[0].dispatch = ['0'])));
    const r = runCli(['time', '--kernel', zero, '--shape', '64x4', '--json', '-'], 60_000);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/dispatch\[0\]: '0' = 0 is not a workgroup count/);
  });
});
