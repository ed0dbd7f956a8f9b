// Output files named on the command line (--json FILE, --markdown FILE) are checked before any
// device work: a typo in a directory must not cost a whole run and then exit 1 (the code for a
// wrong kernel) with a raw ENOENT. A bad path is a usage error (exit 2) naming the flag.
import { accessSync, constants, statSync, statfsSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { OutputWriteError, UsageError } from '../core/errors';

export function checkOutputPath(flag: string, path: string | undefined): void {
  if (path === undefined || (flag === '--json' && path === '-')) return;
  if (!path) throw new UsageError(`${flag} needs a file name`);
  const full = resolve(path);
  const dir = dirname(full);
  let dirStat;
  try {
    dirStat = statSync(dir);
  } catch {
    throw new UsageError(`${flag} ${path}: the directory ${dir} does not exist`);
  }
  if (!dirStat.isDirectory()) throw new UsageError(`${flag} ${path}: ${dir} is not a directory`);
  let existing;
  try {
    existing = statSync(full);
  } catch {
    existing = null;
  }
  if (existing?.isDirectory()) throw new UsageError(`${flag} ${path} is a directory, not a file`);
  try {
    accessSync(existing ? full : dir, constants.W_OK);
  } catch {
    throw new UsageError(`${flag} ${path}: ${existing ? 'the file' : `the directory ${dir}`} is not writable (EACCES)`);
  }
  // A full file system is named now, not after the run (a device such as /dev/full is only
  // found out by the write itself: writeOutput names that).
  if (!existing || existing.isFile()) {
    let free: number | null = null;
    try {
      const fs = statfsSync(dir);
      free = fs.bavail * fs.bsize;
    } catch {
      free = null; // statfs unsupported here: the write will say
    }
    if (free === 0) throw new UsageError(`${flag} ${path}: the file system holding ${dir} has no space left (ENOSPC)`);
  }
}

/**
 * Writes an output file named by `flag`; a write that fails after the run (a disk that filled
 * meanwhile, /dev/full, a permission changed) is an OutputWriteError naming the flag, the path
 * and the system's code (exit 2), not a raw Error (exit 1).
 */
export function writeOutput(flag: string, path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new OutputWriteError(`${flag} ${path}: the result could not be written (${err.code ?? err.name}: ${err.message}); the run's output above is complete, the file is not`);
  }
}
