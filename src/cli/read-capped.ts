// The CLI's one reader of file arguments (--wgsl, --proposal, --import, --kernel, lab report's
// result files): a regular file only, sized by stat before it is opened (a FIFO would block
// open(), /dev/zero never ends: both refused by type), refused over its cap before a byte is
// read, and read into a buffer of the file's own size — a thousand small files cost what they
// hold, not a cap-sized buffer each.
import { closeSync, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { UsageError } from '../core/errors';

/** What the path is when it is not a regular file ('a FIFO', 'a device'…), or null when it is one. */
export function notRegularFile(st: Stats): string | null {
  if (st.isFile()) return null;
  return st.isFIFO() ? 'a FIFO' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : st.isDirectory() ? 'a directory' : st.isSocket() ? 'a socket' : 'not a file';
}

function checkStat(st: Stats, path: string, maxBytes: number, option: string): void {
  const what = notRegularFile(st);
  if (what) throw new UsageError(`${option}: ${path} is ${what}, not a regular file`);
  if (st.size > maxBytes) throw new UsageError(`${option}: ${path} holds more than ${maxBytes} bytes, the cap on this file (it holds ${st.size}): refused before reading`);
}

/** A file argument's bytes, at most `maxBytes`; a UsageError naming `option`, the path and the rule otherwise. */
export function readCappedBytes(path: string, maxBytes: number, option: string): Buffer {
  const cannot = (e: unknown) => new UsageError(`${option}: cannot read ${path}: ${(e as Error).message}`);
  let st: Stats;
  try {
    st = statSync(path); // follows links: a link to /dev/zero is a device
  } catch (e) {
    throw cannot(e);
  }
  checkStat(st, path, maxBytes, option);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw cannot(e);
  }
  try {
    // The file opened may not be the one stat saw (replaced in between): its own size rules.
    const opened = fstatSync(fd);
    checkStat(opened, path, maxBytes, option);
    const size = opened.size;
    // One byte more than its size: a file that grows while it is read is refused, not cut.
    const buf = Buffer.alloc(size + 1);
    let total = 0;
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buf, total, buf.length - total, null);
      } catch (e) {
        throw cannot(e);
      }
      if (n === 0) break;
      total += n;
      if (total > size) throw new UsageError(`${option}: ${path} grew while it was read (past the ${size} bytes it held): refused`);
    }
    return buf.subarray(0, total);
  } finally {
    closeSync(fd);
  }
}

/** A file argument's text (see readCappedBytes); text with NUL bytes is refused. */
export function readCappedText(path: string, maxBytes: number, option: string): string {
  const text = readCappedBytes(path, maxBytes, option).toString('utf8');
  if (text.includes('\u0000')) throw new UsageError(`${option}: ${path} is not a text file (it holds NUL bytes)`);
  return text;
}
