// Hostile CLI arguments: each is refused by name with exit 2, before any input is built (and
// most before the device opens); none reads without end, overflows the stack or runs the auto pick.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeGgufHeader } from '../core/census/gguf';
import { RUN_CAPS } from '../core/input/caps';
import { runCli } from './run-cli';
import { serveStatic } from './static-server';

function refused(args: string[], message: RegExp, withinMs = 60_000): void {
  const t0 = Date.now();
  const r = runCli(args, withinMs);
  expect([r.status, r.stderr]).toEqual([2, expect.stringMatching(message)]);
  expect(r.stderr).not.toMatch(/RangeError|Maximum call stack|at .*\.js:\d+/);
  expect(Date.now() - t0).toBeLessThan(withinMs);
}

describe('lab CLI: hostile arguments', () => {
  it("--schedule '' is an error, not the auto pick", () => {
    refused(['time', '--op', 'ADD', '--shape', '64x8', '--schedule', ''], /error: schedule is empty/);
  });

  it('a knob nested thousands deep, or an inherited name as a key, is refused by name', () => {
    const deep = `{"family":"elementwise","workgroupSize":${'['.repeat(1500)}1${']'.repeat(1500)},"elementsPerThread":1,"vectorWidth":1}`;
    refused(['time', '--op', 'ADD', '--shape', '64x8', '--schedule', deep], /error: schedule\.workgroupSize\[0\]: nested more than 2 deep/);
    const deepShort = `{"family":"elementwise","workgroupSize":${'['.repeat(900)}1${']'.repeat(900)}}`;
    refused(['time', '--op', 'ADD', '--shape', '64x8', '--schedule', deepShort], /error: schedule\.workgroupSize.*nested more than 2 deep/);
    refused(['time', '--op', 'ADD', '--shape', '64x8', '--schedule', '{"family":"elementwise","workgroupSize":64,"elementsPerThread":1,"vectorWidth":1,"constructor":1}'], /error: schedule: key 'constructor' names an inherited object member/);
    refused(['time', '--op', 'ADD', '--shape', '64x8', '--schedule', '{"family":"__proto__"}'], /error: schedule family "__proto__" is not one of elementwise, norm, matmul/);
  });

  it('bench --only ops --op names an unknown op, or --op without --only ops, by name', () => {
    refused(['bench', '--only', 'ops', '--op', 'ABS,NOPE'], /error: --op: 'NOPE' is not an op; ops: ADD, /);
    refused(['bench', '--op', 'ABS'], /error: --op goes with --only ops/);
  });

  it('--wgsl /dev/zero and a huge file are capped', () => {
    // A device is refused by its type, before it is opened (it was read up to the cap before).
    refused(['time', '--op', 'ADD', '--shape', '64x8', '--native', '--wgsl', '/dev/zero'], /error: --wgsl: \/dev\/zero is a device, not a regular file/);
    const dir = mkdtempSync(join(tmpdir(), 'lab-hostile-'));
    const big = join(dir, 'big.wgsl');
    writeFileSync(big, Buffer.alloc(2 * 1024 * 1024, 0x20));
    refused(['time', '--op', 'ADD', '--shape', '64x8', '--native', '--wgsl', big], /error: --wgsl: .*big\.wgsl holds more than 1048576 bytes/);
    const proto = join(dir, 'proposal.json');
    writeFileSync(proto, '{"kind":"sweep","schemaVersion":1,"op":"ADD","constructor":{}}');
    refused(['lane', '--op', 'ADD', '--proposal', proto], /error: --proposal .* is not a valid sweep result: .*key 'constructor' names an inherited object member/);
  });

  it('shapes past 32-bit indices or the binding size are contract errors before inputs are built', () => {
    refused(['time', '--op', 'ADD', '--shape', '65536x65536', '--native'], /error: ADD 65536x65536 is refused before any GPU work: exceeds-binding-size — a 17179869696 B buffer exceeds maxStorageBufferBindingSize 1073741824 \(src0\)/);
    // Just past SwiftShader's 1 GiB binding: refused in seconds, not after building 2 GiB of inputs and the oracle.
    refused(['time', '--op', 'ADD', '--shape', '16384x16384', '--native'], /error: ADD 16384x16384 is refused before any GPU work: exceeds-binding-size — a 1073742336 B buffer exceeds maxStorageBufferBindingSize 1073741824 \(src0\)/, 30_000);
  });

  it('counts past their caps are refused by name before a device opens (--repeat, --min-runs, --replay, --reps, --seed)', () => {
    for (const n of ['1e9', '1e308', '0x10', '2.5', '0']) refused(['lane', '--op', 'ADD', '--repeat', n], new RegExp(`error: --repeat must be a whole number from 1 to ${RUN_CAPS.repeat}, got '${n.replace('.', '\\.')}'`), 20_000);
    for (const n of ['1000000000', '9007199254740993']) refused(['lane', '--op', 'ADD', '--repeat', n], new RegExp(`error: --repeat is ${n}, above the cap of 1000`), 20_000);
    refused(['time', '--op', 'ADD', '--shape', '64x8', '--min-runs', '9007199254740993'], /error: --min-runs is 9007199254740993, above the cap of 16384/, 20_000);
    refused(['lane', '--op', 'ADD', '--replay', '1000000000'], /error: --replay is 1000000000, above the cap of 100/, 20_000);
    refused(['sweep', '--op', 'ADD', '--reps', '1e308'], /error: --reps must be a whole number from 1 to 1000/, 20_000);
  });

  it("time --shape '' is refused, not the whole default matrix; an inherited --param name is a name like any other", () => {
    refused(['time', '--op', 'ADD', '--shape', ''], /error: shape '' is not of the form AxBxC/, 20_000);
    refused(['time', '--op', 'ADD', '--shape', '64x8', '--shape', ''], /error: shape '' is not of the form AxBxC/, 20_000);
    refused(['time', '--op', 'ADD', ...Array.from({ length: 65 }, () => ['--shape', '8']).flat()], /error: --shape is given 65 times, over the cap of 64 shapes for one time run/, 20_000);
    refused(['time', '--op', 'ADD', '--shape', '8', '--shape', '16', '--markdown', '/tmp/x.md'], /error: --markdown is for one result: give it with one --shape/, 20_000);
    refused(['time', '--op', 'ADD', '--shape', '64x8', '--param', '__proto__=1'], /error: ADD takes no params, got __proto__/, 20_000);
    refused(['time', '--op', 'RMS_NORM', '--shape', '64x8', '--param', 'constructor=1'], /error: RMS_NORM has no param 'constructor' \(params: eps\)/, 20_000);
  });

  it('census: an inherited preset name, absurd sizes, a FIFO, an empty import, a full output', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-hostile-census-'));
    refused(['census', '--preset', '__proto__'], /error: --preset __proto__: unknown preset '__proto__' \(presets: tiny, 1b, 7b, micro\)/, 20_000);
    refused(['census', '--context', '1e9'], /error: --context must be a whole number from 1 to 1048576, got '1e9'/, 20_000);
    refused(['census', '--context', '1000000000'], /error: --context is 1000000000, above the cap of 1048576/, 20_000);
    refused(['census', '--batch', '2147483648'], /error: --batch is 2147483648, above the cap of 4096/, 20_000);
    const model = join(dir, 'huge.gguf');
    const kv = [['general.architecture', 'llama'], ['llama.vocab_size', 512], ['llama.embedding_length', 64], ['llama.attention.head_count', 8], ['llama.block_count', 1_000_000], ['llama.feed_forward_length', 172]];
    writeFileSync(model, writeGgufHeader(kv.map(([key, value]) => ({ key, type: typeof value === 'string' ? 'string' : 'u32', value })) as never));
    refused(['census', '--model', model], /error: --model .*huge\.gguf: llama\.block_count is 1000000, above the cap of 256/, 20_000);
    // A FIFO with no writer: open() for reading would block forever.
    const fifo = join(dir, 'model.fifo');
    execFileSync('mkfifo', [fifo]);
    refused(['census', '--model', fifo], /error: --model: .*model\.fifo is not a regular file/, 20_000);
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '\n\n');
    refused(['census', '--import', empty], /error: --import .*empty\.txt: the text is empty: no op lines/, 20_000);
    // /dev/full: the check passes (a device), the write fails: named, exit 2, not a raw Error exit 1.
    refused(['census', '--json', '/dev/full'], /error: --json \/dev\/full: the result could not be written \(ENOSPC/, 20_000);
    refused(['census', '--export', join(dir, 'no-such-dir', 'x.txt')], /error: --export .*: the directory .* does not exist/, 20_000);
  });

  it("the lab's server reads a 40 KB query (Node's default stopped at 16 KiB) and answers a longer one with its own 431 page", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-hostile-serve-'));
    writeFileSync(join(dir, 'index.html'), '<p>lab</p>');
    const { url, server } = await serveStatic(dir);
    const get = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(url + path, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      expect(await get(`?op=ADD&schedule=${'%7B'.repeat(13_000)}`)).toEqual({ status: 200, body: '<p>lab</p>' });
      const long = await get(`?op=ADD&schedule=${'a'.repeat(70_000)}`);
      expect(long.status).toBe(431);
      expect(long.body).toContain("kernel-lab: this link's query is longer than the 64 KiB of request the lab's server reads");
    } finally {
      server.close();
    }
  });
});

describe("the page's servers", () => {
  it('vite preview and dev read the same request size as the lab server', async () => {
    const { readFileSync } = await import('node:fs');
    const { MAX_REQUEST_HEADER_BYTES } = await import('../core/input/caps');
    const config = readFileSync(new URL('../../vite.config.ts', import.meta.url), 'utf8');
    expect(MAX_REQUEST_HEADER_BYTES).toBe(64 * 1024);
    expect(config).toContain('const MAX_REQUEST_HEADER_BYTES = 64 * 1024;');
  });
});
