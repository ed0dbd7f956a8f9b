// Hostile CLI arguments: each is refused by name with exit 2, before any input is built (and
// most before the device opens); none reads without end, overflows the stack or runs the auto pick.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli';

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

  it('--wgsl /dev/zero and a huge file are capped', () => {
    refused(['time', '--op', 'ADD', '--shape', '64x8', '--native', '--wgsl', '/dev/zero'], /error: --wgsl: \/dev\/zero holds more than 1048576 bytes, the cap on this file/);
    const dir = mkdtempSync(join(tmpdir(), 'lab-hostile-'));
    const big = join(dir, 'big.wgsl');
    writeFileSync(big, Buffer.alloc(2 * 1024 * 1024, 0x20));
    refused(['time', '--op', 'ADD', '--shape', '64x8', '--native', '--wgsl', big], /error: --wgsl: .*big\.wgsl holds more than 1048576 bytes/);
    const proto = join(dir, 'proposal.json');
    writeFileSync(proto, '{"kind":"sweep","schemaVersion":1,"op":"ADD","constructor":{}}');
    refused(['lane', '--op', 'ADD', '--proposal', proto], /error: --proposal .* is not a valid sweep result: .*key 'constructor' names an inherited object member/);
  });

  it('shapes past 32-bit indices or the binding size are contract errors before inputs are built', () => {
    refused(['time', '--op', 'ADD', '--shape', '65536x65536', '--native'], /error: ADD 65536x65536: src0 spans 4294967296 elements, past the 4294967295 a kernel's u32 indices reach/);
    // Just past SwiftShader's 1 GiB binding: refused in seconds, not after building 2 GiB of inputs and the oracle.
    refused(['time', '--op', 'ADD', '--shape', '16384x16384', '--native'], /error: ADD 16384x16384: src0 needs a 1073742336 B buffer \(guards included\), over this adapter's maxStorageBufferBindingSize of 1073741824 B/, 30_000);
  });
});
