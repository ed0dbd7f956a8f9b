// Output files named on the command line (--json FILE, --markdown FILE) are checked before any
// device work: a typo in a directory must not cost a whole run and then exit 1 (the code for a
// wrong kernel) with a raw ENOENT. A bad path is a usage error (exit 2) naming the flag.
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../core/errors';

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
    throw new UsageError(`${flag} ${path}: ${existing ? 'the file' : `the directory ${dir}`} is not writable`);
  }
}
