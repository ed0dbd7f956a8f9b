// "Your kernel" in the Kernel view: the manifest text and its WGSL files as signals, what they
// mean for the case in the form (the passes it resolves to, or the named error or refusal), the
// examples to start from, dropped files, and the kernels kept for this adapter in IndexedDB.
import { createMemo, createSignal, type Accessor } from 'solid-js';
import type { AdapterDescriptor } from '../../../core/adapter';
import { EXAMPLE_KERNELS } from '../../../core/manifest/examples';
import { MANIFEST_CAPS, MAX_WGSL_FILE_BYTES } from '../../../core/input/caps';
import { parseManifest } from '../../../core/manifest/format';
import { resolveManifest, type UserKernelPlan } from '../../../core/manifest/resolve';
import { loadUserKernel, type UserKernelRef, type UserKernelSource } from '../../../core/manifest/source';
import type { UserKernelRecord } from '../../../storage/db';
import { listUserKernels, saveUserKernel, userKernelRecord } from '../../../storage/user-kernels';
import { errorInfo } from '../../errors';
import { labDb, storeChanged } from '../../run-store';
import type { CaseOrError } from './kernel-form';

export interface WgslFile {
  readonly name: string;
  readonly text: string;
}

export type UserCheck = { readonly ok: UserKernelPlan } | { readonly error: string; readonly name: string };

/** Dropped or picked files: a .json is the manifest, anything else a WGSL file by its name. */
export async function readDropped(files: readonly File[]): Promise<{ manifest: string | null; wgsl: WgslFile[]; refused: string[] }> {
  let manifest: string | null = null;
  const wgsl: WgslFile[] = [];
  const refused: string[] = [];
  for (const f of files) {
    // Sized before it is read: a 50 MB file never reaches a text area (the tab would freeze).
    const cap = /\.json$/i.test(f.name) ? MANIFEST_CAPS.chars : MAX_WGSL_FILE_BYTES;
    if (f.size > cap) {
      refused.push(`${f.name} is ${f.size} bytes, over the cap of ${cap} for a ${/\.json$/i.test(f.name) ? 'manifest' : 'WGSL file'}: not read`);
      continue;
    }
    const text = await f.text();
    if (/\.json$/i.test(f.name)) manifest = text;
    else wgsl.push({ name: f.name, text });
  }
  return { manifest, wgsl, refused };
}

/** The op a manifest names, or null while it does not parse. */
export function manifestOp(text: string): string | null {
  try {
    return parseManifest(text).op;
  } catch {
    return null;
  }
}

export function createUserKernelState(caseOrError: Accessor<CaseOrError>, adapter: Accessor<AdapterDescriptor>, currentOp: Accessor<string>, selectOp: (op: string) => void) {
  const first = EXAMPLE_KERNELS[0];
  const [manifest, setManifest] = createSignal(first.manifest);
  const [files, setFiles] = createSignal<WgslFile[]>(Object.entries(first.files).map(([name, text]) => ({ name, text })));
  const [saved, setSaved] = createSignal<UserKernelRecord[]>([]);
  /** Files the last drop refused (over their caps), until the kernel is edited again. */
  const [dropRefused, setDropRefused] = createSignal<string | null>(null);

  const source = createMemo((): UserKernelSource => ({ manifest: manifest(), files: Object.fromEntries(files().map((f) => [f.name, f.text])) }));

  /** What the kernel resolves to for the form's case, checked here exactly as the worker checks it. */
  const check = createMemo((): UserCheck => {
    const c = caseOrError();
    const refused = dropRefused();
    if (refused) return { error: refused, name: 'ManifestError' };
    try {
      const loaded = loadUserKernel(source());
      if (!('ok' in c)) return { error: c.error, name: 'OpCaseError' };
      return { ok: resolveManifest(loaded, c.ok, adapter()) };
    } catch (e) {
      const info = errorInfo(e);
      return { error: info.message, name: info.name };
    }
  });

  /** Replaces the kernel; the form follows the manifest's op. */
  const use = (manifestText: string, wgsl: readonly WgslFile[]) => {
    setDropRefused(null);
    setManifest(manifestText);
    setFiles([...wgsl]);
    const op = manifestOp(manifestText);
    if (op && op !== currentOp()) {
      try {
        selectOp(op);
      } catch {
        // an op the lab does not know: the check says so
      }
    }
  };

  const loadExample = (dir: string) => {
    const ex = EXAMPLE_KERNELS.find((e) => e.dir === dir);
    if (ex) use(ex.manifest, Object.entries(ex.files).map(([name, text]) => ({ name, text })));
  };

  /** Dropped files add to (or replace, by name) the WGSL files; a .json replaces the manifest. */
  const drop = async (list: readonly File[]) => {
    const { manifest: m, wgsl, refused } = await readDropped(list);
    const byName = new Map(files().map((f) => [f.name, f]));
    for (const w of wgsl) byName.set(w.name, w);
    use(m ?? manifest(), [...byName.values()]);
    setDropRefused(refused.length ? refused.join('; ') : null);
  };

  const setFile = (index: number, next: WgslFile) => {
    setDropRefused(null);
    setFiles(files().map((f, i) => (i === index ? next : f)));
  };
  const removeFile = (index: number) => setFiles(files().filter((_, i) => i !== index));
  const addFile = () => setFiles([...files(), { name: `kernel${files().length}.wgsl`, text: '' }]);

  const refreshSaved = async () => {
    try {
      setSaved(await listUserKernels(await labDb(), adapter()));
    } catch {
      setSaved([]);
    }
  };

  /** Keeps the kernel that just ran for this adapter (never rejects: storage is best effort). */
  const remember = async (ref: UserKernelRef, op: string, src: UserKernelSource) => {
    try {
      await saveUserKernel(await labDb(), userKernelRecord(adapter(), ref, op, src));
      storeChanged();
      await refreshSaved();
    } catch {
      // a refused write (quota, no IndexedDB) loses only the convenience of restoring it
    }
  };

  const restore = (key: string) => {
    const rec = saved().find((r) => r.key === key);
    if (rec) use(rec.manifest, Object.entries(rec.files).map(([name, text]) => ({ name, text })));
  };

  void refreshSaved();

  const editManifest = (text: string) => {
    setDropRefused(null);
    setManifest(text);
  };

  return { manifest, setManifest: editManifest, files, setFile, removeFile, addFile, source, check, loadExample, drop, saved, restore, remember };
}

export type UserKernelState = ReturnType<typeof createUserKernelState>;
