// User kernels kept per adapter: the page restores the manifest and WGSL a user dropped, next to
// the results that ran them (those carry the kernel's id and hashes).
import { adapterFingerprint, type AdapterDescriptor } from '../core/adapter';
import type { UserKernelRef, UserKernelSource } from '../core/manifest/source';
import type { LabDb, UserKernelRecord } from './db';
import { storageError } from './runs';

export function userKernelRecord(adapter: AdapterDescriptor, ref: UserKernelRef, op: string, source: UserKernelSource, savedAt = new Date().toISOString()): UserKernelRecord {
  const adapterKey = adapterFingerprint(adapter);
  return { key: `${adapterKey} ${ref.id}`, adapterKey, kernelId: ref.id, name: ref.name, op, manifestSha256: ref.manifestSha256, manifest: source.manifest, files: { ...source.files }, savedAt };
}

/** Stores (or refreshes) a kernel for an adapter. */
export async function saveUserKernel(db: LabDb, rec: UserKernelRecord): Promise<void> {
  try {
    await db.put('userKernels', rec);
  } catch (e) {
    throw storageError(e, `user kernel ${rec.kernelId}`);
  }
}

/** The adapter's kernels, most recently saved first. */
export async function listUserKernels(db: LabDb, adapter: AdapterDescriptor): Promise<UserKernelRecord[]> {
  const all = await db.getAllFromIndex('userKernels', 'by-adapter', adapterFingerprint(adapter));
  return all.sort((a, b) => (a.savedAt < b.savedAt ? 1 : a.savedAt > b.savedAt ? -1 : 0));
}

export async function deleteUserKernel(db: LabDb, key: string): Promise<void> {
  await db.delete('userKernels', key);
}
