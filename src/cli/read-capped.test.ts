import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCappedBytes, readCappedText } from './read-capped';

describe('the CLI file reader', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-read-capped-'));

  it('reads a regular file under its cap into a buffer of its own size', () => {
    const path = join(dir, 'small.wgsl');
    writeFileSync(path, 'fn main() {}\n');
    expect(readCappedText(path, 1024, '--wgsl')).toBe('fn main() {}\n');
    const bytes = readCappedBytes(path, 64 * 1024 * 1024, '--wgsl');
    expect(bytes.length).toBe(13);
    // Its memory is the file's size (+1 to see growth), not the 64 MiB cap.
    expect(bytes.buffer.byteLength).toBeLessThan(8192);
  });

  it('refuses a file over its cap before reading, naming the option, the cap and the size', () => {
    const path = join(dir, 'big.json');
    writeFileSync(path, Buffer.alloc(5000, 0x20));
    expect(() => readCappedText(path, 4096, '--proposal')).toThrow(`--proposal: ${path} holds more than 4096 bytes, the cap on this file (it holds 5000): refused before reading`);
  });

  it('refuses a FIFO and a device by type, before opening (a FIFO with no writer would block open())', () => {
    const fifo = join(dir, 'pipe.wgsl');
    execFileSync('mkfifo', [fifo]);
    expect(() => readCappedText(fifo, 1024, '--wgsl')).toThrow(`--wgsl: ${fifo} is a FIFO, not a regular file`);
    expect(() => readCappedText('/dev/zero', 1024, '--wgsl')).toThrow('--wgsl: /dev/zero is a device, not a regular file');
    const link = join(dir, 'zero.wgsl');
    symlinkSync('/dev/zero', link);
    expect(() => readCappedText(link, 1024, '--wgsl')).toThrow(`--wgsl: ${link} is a device, not a regular file`);
    expect(() => readCappedText(dir, 1024, '--import')).toThrow(`--import: ${dir} is a directory, not a regular file`);
  });

  it('names a missing file and refuses NUL bytes', () => {
    expect(() => readCappedText(join(dir, 'none.wgsl'), 1024, '--wgsl')).toThrow(/--wgsl: cannot read .*none\.wgsl: ENOENT/);
    const nul = join(dir, 'nul.wgsl');
    writeFileSync(nul, 'a\u0000b');
    expect(() => readCappedText(nul, 1024, '--wgsl')).toThrow(`--wgsl: ${nul} is not a text file (it holds NUL bytes)`);
  });
});
