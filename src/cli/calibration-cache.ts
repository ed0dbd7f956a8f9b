// The Node CLI's calibrations, one JSON file per adapter under the user's cache directory
// ($XDG_CACHE_HOME/kernel-lab or ~/.cache/kernel-lab), so later runs report measured peaks.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Calibration } from '../core/metrics/roofline';

export function cacheDir(): string {
  return process.env.KERNEL_LAB_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'kernel-lab');
}

function fileFor(fingerprint: string): string {
  return join(cacheDir(), `calibration-${createHash('sha256').update(fingerprint).digest('hex').slice(0, 16)}.json`);
}

export function loadCalibration(fingerprint: string): Calibration | null {
  try {
    const c = JSON.parse(readFileSync(fileFor(fingerprint), 'utf8')) as Calibration;
    return c.kind === 'calibration' && c.adapterFingerprint === fingerprint ? c : null;
  } catch {
    return null;
  }
}

export function saveCalibration(c: Calibration): string {
  const file = fileFor(c.adapterFingerprint);
  mkdirSync(cacheDir(), { recursive: true });
  writeFileSync(file, JSON.stringify(c, null, 2) + '\n');
  return file;
}
