// The hostile-input corpus of user-kernel manifests (issue 25): one case per class, each a named
// refusal — never a RangeError, never a long run, never an allocation sized by the input. Each
// case also records how long its refusal took (printed once, for the figures).
import { afterAll, describe, expect, it } from 'vitest';
import { EXAMPLE_KERNELS } from './examples';
import { ManifestError, ManifestRefusal } from './errors';
import { EXPR_CAPS, parseExpr } from './expr';
import { loadUserKernel, resolveUserKernel } from './source';
import { MANIFEST_CAPS, MAX_WGSL_FILE_BYTES } from '../input/caps';
import { opByName } from '../ops/registry';
import { DEFAULT_LIMITS } from '../adapter';

const add = EXAMPLE_KERNELS.find((e) => e.dir === 'add')!;
const adapter = { limits: DEFAULT_LIMITS, features: [] as string[], subgroupMinSize: 4, subgroupMaxSize: 64 };
const addCase = opByName('ADD').makeCase([64, 8], 'contiguous');

function edited(edit: (m: any) => void, files: Record<string, string> = add.files): { manifest: string; files: Record<string, string> } {
  const m = JSON.parse(add.manifest);
  edit(m);
  return { manifest: JSON.stringify(m), files };
}

const timings: { name: string; ms: number }[] = [];

/** Runs `fn`, which must throw a ManifestError or ManifestRefusal whose message matches `message`. */
async function refused(name: string, fn: () => unknown, message: RegExp): Promise<Error> {
  const t0 = performance.now();
  let caught: unknown = null;
  try {
    await fn();
  } catch (e) {
    caught = e;
  }
  timings.push({ name, ms: performance.now() - t0 });
  expect(caught, `${name} was accepted`).not.toBeNull();
  expect(caught instanceof ManifestError || caught instanceof ManifestRefusal, `${name}: ${(caught as Error).name}: ${(caught as Error).message}`).toBe(true);
  expect((caught as Error).message).toMatch(message);
  return caught as Error;
}

const nest = (open: string, inner: string, close: string, n: number) => open.repeat(n) + inner + close.repeat(n);

describe('hostile expressions: depth and size are bounded, by name', () => {
  it.each([
    ['1000 nested (', nest('(', 'n', ')', 1000)],
    ['1000 unary -', `${'-'.repeat(1000)}n`],
    ['1000 unary !', `${'!'.repeat(1000)}n`],
    ['1000 nested max(', nest('max(', 'n', ')', 1000)],
    ['1000 nested ?:', `${'n ? '.repeat(1000)}1${' : 0'.repeat(1000)}`],
  ])('%s', async (name, src) => {
    const e = await refused(name, () => loadUserKernel(edited((m) => (m.kernels[0].dispatch = { workgroups: src }))), new RegExp(`nests deeper than ${EXPR_CAPS.depth} levels|over the cap of ${EXPR_CAPS.chars}`));
    expect(e.message).toMatch(/kernels\[0\]\.dispatch\.workgroups/);
  });

  it('a 10 MB expression is refused by the manifest cap, a 1 MB one by the expression cap, before either is read', async () => {
    const dispatch = (src: string) => () => loadUserKernel(edited((m) => (m.kernels[0].dispatch = { workgroups: src })));
    await refused('10 MB n+0+0…', dispatch(`n${'+0'.repeat(5_000_000)}`), /manifest: is \d+ characters long, over the cap of 2097152/);
    const e = await refused('1 MB n+0+0…', dispatch(`n${'+0'.repeat(500_000)}`), /dispatch\.workgroups: expression "n\+0\+0.*…" \(1000001 characters\) does not parse: the expression is 1000001 characters long, over the cap of 4096/);
    expect(e.message.length).toBeLessThan(300); // the message quotes the start, not the megabyte
    expect(Math.max(...timings.slice(-2).map((t) => t.ms))).toBeLessThan(2000);
  });

  it('a long flat chain is refused by its term count, not the stack', async () => {
    await refused('2000-term chain', () => loadUserKernel(edited((m) => (m.kernels[0].dispatch = { workgroups: `n${'+1'.repeat(2000)}` }))), /more than 1024 terms/);
    expect(() => parseExpr(`n${'+1'.repeat(500)}`)).not.toThrow();
  });

  it('depth just inside the cap still parses and evaluates', () => {
    expect(() => parseExpr(nest('(', 'n', ')', EXPR_CAPS.depth - 2))).not.toThrow();
  });
});

describe('hostile manifests: text, collections and names', () => {
  it('a manifest over its size cap is refused before JSON.parse', async () => {
    const text = `{"manifestVersion":1,"name":"x","op":"ADD","description":"${'a'.repeat(MANIFEST_CAPS.chars)}","kernels":[]}`;
    await refused('manifest over 2 MiB', () => loadUserKernel({ manifest: text, files: {} }), /characters long, over the cap of 2097152 .*refused before parsing/);
  });

  it('inline WGSL and a supplied WGSL file over 1 MiB are refused by the WGSL cap', async () => {
    const wgsl = add.files['add.wgsl'] + `\n// ${'x'.repeat(MAX_WGSL_FILE_BYTES)}`;
    await refused('inline WGSL over 1 MiB', () => loadUserKernel(edited((m) => (m.kernels[0].wgsl = { text: wgsl, name: 'big.wgsl' }))), /wgsl\.text: is \d+ characters of WGSL, over the cap of 1048576/);
    await refused('WGSL file over 1 MiB', () => loadUserKernel(edited(() => {}, { 'add.wgsl': wgsl })), /the WGSL file 'add\.wgsl' is \d+ characters, over the cap of 1048576/);
  });

  it('collections over their caps', async () => {
    await refused('17 kernels', () => loadUserKernel(edited((m) => (m.kernels = Array.from({ length: 17 }, () => m.kernels[0])))), /kernels: lists 17 entries, over the cap of 16/);
    await refused('300 lets', () => loadUserKernel(edited((m) => (m.let = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`l${i}`, 1]))))), /let: names 300 entries, over the cap of 256/);
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])('claims.params %s is refused by name', async (name) => {
    const text = edited(() => {}).manifest.replace('"claims":{', `"claims":{"params":{"${name}":{"min":0}},`);
    await refused(`claims.params.${name}`, () => loadUserKernel({ manifest: text, files: add.files }), new RegExp(`claims\\.params\\.${name}: '${name}' is a member every JavaScript object inherits`));
  });

  it('a let or buffer named after an inherited member is refused too', async () => {
    await refused('let toString', () => loadUserKernel(edited((m) => (m.let = { toString: 1 }))), /let\.toString: 'toString' is a member every JavaScript object inherits/);
  });
});

describe('hostile values: accepted, then failing late — now refused at load or resolve', () => {
  it('a zero dispatch is a manifest error (exit 2), not a run that writes nothing', async () => {
    await refused('"workgroups":"0"', () => resolveUserKernel(edited((m) => (m.kernels[0].dispatch = { workgroups: '0' })), addCase, adapter), /dispatch\.workgroups: '0' = 0 is not a workgroup count \(an integer ≥ 1/);
    await refused('["0"]', () => resolveUserKernel(edited((m) => (m.kernels[0].dispatch = ['0'])), addCase, adapter), /dispatch\[0\]: '0' = 0 is not a workgroup count/);
  });

  it('a 4 GiB uniform offset is refused against the uniform binding size, before any allocation', async () => {
    await refused('offset 2^32', () => loadUserKernel(edited((m) => (m.kernels[0].uniforms[17].offset = 2 ** 32))), /uniforms\[17\]\.offset: 4294967296 puts the field past 65536 bytes, the uniform binding size/);
  });

  it('WGSL of a million attributes is inspected in bounded time', async () => {
    const wgsl = add.files['add.wgsl'] + '\n' + '@a '.repeat(300_000);
    const t0 = performance.now();
    try {
      loadUserKernel(edited(() => {}, { 'add.wgsl': wgsl }));
    } catch {
      // refused or not: what matters is that inspection ends
    }
    timings.push({ name: '300 000 attributes', ms: performance.now() - t0 });
    expect(performance.now() - t0).toBeLessThan(5000);
  });
});

afterAll(() => {
  const slowest = [...timings].sort((a, b) => b.ms - a.ms)[0];
  if (slowest) process.stderr.write(`manifest hostile corpus: ${timings.length} inputs refused; slowest ${slowest.name} in ${slowest.ms.toFixed(1)} ms\n`);
});
