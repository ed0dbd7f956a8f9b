// The CLI's file arguments (--wgsl, --proposal) read with a cap: at most maxBytes are read, from
// a regular file, a pipe or a device alike, so `--wgsl /dev/zero` or a huge file is refused by
// name instead of reading until the process aborts.
import { closeSync, openSync, readSync } from 'node:fs';
import { UsageError } from '../core/errors';

export function readCappedText(path: string, maxBytes: number, option: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new UsageError(`${option}: cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    const buf = Buffer.alloc(maxBytes + 1);
    let total = 0;
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buf, total, buf.length - total, null);
      } catch (e) {
        throw new UsageError(`${option}: cannot read ${path}: ${(e as Error).message}`);
      }
      if (n === 0) break;
      total += n;
      if (total > maxBytes) throw new UsageError(`${option}: ${path} holds more than ${maxBytes} bytes, the cap on this file: refused without reading the rest`);
    }
    const text = buf.subarray(0, total).toString('utf8');
    if (text.includes('\u0000')) throw new UsageError(`${option}: ${path} is not a text file (it holds NUL bytes)`);
    return text;
  } finally {
    closeSync(fd);
  }
}
