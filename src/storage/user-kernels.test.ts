import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { sampleAdapter } from '../../test/fixtures/sample-results';
import { openLabDb } from './db';
import { deleteUserKernel, listUserKernels, saveUserKernel, userKernelRecord } from './user-kernels';

const swiftshader = sampleAdapter();
const h200 = sampleAdapter({ vendor: 'nvidia', architecture: 'hopper', device: 'nvidia-h200', description: 'NVIDIA H200', isFallbackAdapter: false, runtime: 'node' });
const ref = (name: string, hash: string) => ({ name, manifestSha256: hash.padEnd(64, '0'), wgsl: [{ file: 'k.wgsl', sha256: 'f'.repeat(64) }], id: `${name}@${hash.padEnd(12, '0')}` });
const source = { manifest: '{"manifestVersion":1}', files: { 'k.wgsl': '@compute @workgroup_size(1) fn main() {}' } };

describe('user kernels in IndexedDB', () => {
  it('keeps each kernel version per adapter, newest first, and deletes by key', async () => {
    const db = await openLabDb({ name: 'user-kernels-1' });
    await saveUserKernel(db, userKernelRecord(swiftshader, ref('a', 'aaa'), 'ADD', source, '2026-12-01T10:00:00.000Z'));
    await saveUserKernel(db, userKernelRecord(swiftshader, ref('b', 'bbb'), 'RMS_NORM', source, '2026-12-01T11:00:00.000Z'));
    await saveUserKernel(db, userKernelRecord(h200, ref('a', 'aaa'), 'ADD', source, '2026-12-01T12:00:00.000Z'));
    // the same version again refreshes its record instead of adding one
    await saveUserKernel(db, userKernelRecord(swiftshader, ref('a', 'aaa'), 'ADD', source, '2026-12-01T13:00:00.000Z'));
    const here = await listUserKernels(db, swiftshader);
    expect(here.map((r) => [r.kernelId, r.op, r.savedAt])).toEqual([
      ['a@aaa000000000', 'ADD', '2026-12-01T13:00:00.000Z'],
      ['b@bbb000000000', 'RMS_NORM', '2026-12-01T11:00:00.000Z'],
    ]);
    expect(here[0].files).toEqual(source.files);
    expect((await listUserKernels(db, h200)).map((r) => r.kernelId)).toEqual(['a@aaa000000000']);
    await deleteUserKernel(db, here[0].key);
    expect((await listUserKernels(db, swiftshader)).map((r) => r.kernelId)).toEqual(['b@bbb000000000']);
    db.close();
  });

  it('a v3 database migrates to v4 with the new store and its runs kept', async () => {
    const v3 = await openLabDb({ name: 'user-kernels-2', version: 3 });
    expect(v3.objectStoreNames.contains('userKernels')).toBe(false);
    v3.close();
    const v4 = await openLabDb({ name: 'user-kernels-2' });
    expect(v4.version).toBe(4);
    expect(v4.objectStoreNames.contains('userKernels')).toBe(true);
    expect(await listUserKernels(v4, swiftshader)).toEqual([]);
    v4.close();
  });
});
