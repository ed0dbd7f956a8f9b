// Dropped files on the page's "your kernel" editor: one over its cap is never read (a 50 MB WGSL
// once left the tab without an answer for 35 s), and the editor names it.
import { describe, expect, it } from 'vitest';
import { MANIFEST_CAPS, MAX_WGSL_FILE_BYTES } from '../../../core/input/caps';
import { readDropped } from './user-kernel-state';

/** A File whose text() must not be called: the refusal comes from its size. */
function unreadable(name: string, size: number): File {
  const f = new File(['x'], name);
  Object.defineProperty(f, 'size', { value: size });
  f.text = () => Promise.reject(new Error(`${name} was read`));
  return f;
}

describe('readDropped', () => {
  it('reads files within their caps and names the ones over, without reading them', async () => {
    const r = await readDropped([new File(['{"a":1}'], 'manifest.json'), new File(['fn main() {}'], 'k.wgsl'), unreadable('huge.wgsl', 50 * 1024 * 1024), unreadable('huge.json', MANIFEST_CAPS.chars + 1)]);
    expect(r.manifest).toBe('{"a":1}');
    expect(r.wgsl).toEqual([{ name: 'k.wgsl', text: 'fn main() {}' }]);
    expect(r.refused).toEqual([
      `huge.wgsl is 52428800 bytes, over the cap of ${MAX_WGSL_FILE_BYTES} for a WGSL file: not read`,
      `huge.json is ${MANIFEST_CAPS.chars + 1} bytes, over the cap of ${MANIFEST_CAPS.chars} for a manifest: not read`,
    ]);
  });
});
