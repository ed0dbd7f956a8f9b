// The watchdog's last resort on a software adapter (SwiftShader under Dawn in Node): a hung user
// kernel leaves a CPU worker of SwiftShader's process-wide scheduler spinning, and work queued to
// that worker — from any device, even one of a fresh Dawn instance — never runs (measured on the
// 2-core CI box: a new device opens in 28–134 ms and compiles, but a 64-workgroup probe does not
// finish in 5 s). So the lane goes on in a fresh process: the same command, run again with the
// kernels given up so far marked hung (never run there), its exit code and output the command's;
// `time` of several cases resumes after the hung one with the results so far.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LEVEL1_CAPS, MAX_JSON_FILE_BYTES } from '../core/input/caps';
import type { Level1Json } from '../core/report/json';
import { validateResult } from '../core/report/validate';
import { readCappedText } from './read-capped';
import { parseManifest } from '../core/manifest/format';
import type { UserKernelSource } from '../core/manifest/source';
import { STDOUT_FD_ENV } from './native-stdout';

/** Kernel name → the watchdog's note, as JSON, from the process that gave the kernel up. */
export const HUNG_KERNELS_ENV = 'KERNEL_LAB_HUNG_KERNELS';
/** When (Date.now()) the last kernel was given up: the fresh process reports how long recovery took. */
export const HUNG_AT_ENV = 'KERNEL_LAB_HUNG_AT';
/** A command is run again at most this many times (one per kernel given up). */
export const MAX_RESPAWNS = 8;
const MAX_ENV_CHARS = 64 * 1024;

/** The hung kernels' notes a parent process passed on; {} when none (or not a valid record). */
export function hungKernelNotes(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const text = env[HUNG_KERNELS_ENV];
  if (!text || text.length > MAX_ENV_CHARS) return {};
  try {
    const v: unknown = JSON.parse(text);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string').slice(0, MAX_RESPAWNS));
  } catch {
    return {};
  }
}

/** The --kernel sources with the notes of those an earlier process gave up. */
export function markHung(sources: readonly UserKernelSource[], notes = hungKernelNotes()): UserKernelSource[] {
  return sources.map((s) => {
    const note = Object.hasOwn(notes, parseManifest(s.manifest).name) ? notes[parseManifest(s.manifest).name] : undefined;
    return note ? { ...s, hungNote: note } : s;
  });
}

/**
 * When `e` is the watchdog giving up a user kernel with no working device left in this process,
 * runs the command again in a fresh process with that kernel marked hung and returns its exit
 * code; null for any other error (the caller rethrows it).
 */
export function respawnWithoutHung(e: unknown, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): number | null {
  const err = e as { name?: string; label?: unknown; recoveryMs?: unknown; boundMs?: unknown; message?: string };
  if (err?.name !== 'WatchdogError' || err.recoveryMs !== null || typeof err.label !== 'string' || !err.label.startsWith('user:')) return null;
  const notes = hungKernelNotes();
  const name = err.label.slice('user:'.length);
  if (Object.hasOwn(notes, name) || Object.keys(notes).length >= MAX_RESPAWNS) return null;
  const next = { ...notes, [name]: `hung: ${err.label} gave no answer within the watchdog's wall bound of ${err.boundMs} ms; a software adapter cannot run work past a hung kernel in one process, so the lane went on in a fresh one without it` };
  log(`${err.message}\nthe watchdog gave up ${err.label}: the rest of the run goes on in a fresh process (the kernel is reported hung there)`);
  return runAgain({ [HUNG_KERNELS_ENV]: JSON.stringify(next) }, log);
}

/** The same command in a fresh process with `env` added; its exit code. */
function runAgain(env: Record<string, string>, log: (line: string) => void): number {
  const t0 = performance.now();
  // Under the CLI's stdout child (native-stdout.ts) the lab's stdout is fd 3: hand it on as fd 3.
  const stdoutFd = Number(process.env[STDOUT_FD_ENV]);
  const stdio: ('inherit' | number)[] = ['inherit', 'inherit', 'inherit', ...(Number.isInteger(stdoutFd) && stdoutFd > 2 ? [stdoutFd] : [])];
  const r = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio, env: { ...process.env, ...env, [HUNG_AT_ENV]: String(Date.now()) } });
  log(`fresh process ended in ${((performance.now() - t0) / 1000).toFixed(1)} s (exit ${r.status ?? r.signal})`);
  return r.status ?? 1;
}

/** In the fresh process, once its device is open: how long after the watchdog gave up the run resumed. */
export function reportResumed(log: (line: string) => void = (l) => process.stderr.write(`${l}\n`), env: NodeJS.ProcessEnv = process.env): void {
  const at = Number(env[HUNG_AT_ENV]);
  if (!Number.isFinite(at)) return;
  const what = env[HUNG_KERNELS_ENV] ? `${Object.keys(hungKernelNotes(env)).join(', ')} reported hung` : env[RESUME_ENV] ? `resuming at case ${(readResume(env)?.from ?? 0) + 1}` : null;
  if (what) log(`recovered: a fresh process has a device ${Date.now() - at} ms after the watchdog gave up (${what})`);
}

/**
 * `time` of several cases: the results so far (the hung one last), handed to a fresh process in a
 * file that it reads like any other input — capped, each result validated — and resumes after.
 */
export const RESUME_ENV = 'KERNEL_LAB_RESUME';
export interface Resume {
  /** The first case the fresh process runs. */
  readonly from: number;
  readonly results: readonly Level1Json[];
}

/** The resume state a parent process handed on; null when none (or not a valid one: then the command runs from the start). */
export function readResume(env: NodeJS.ProcessEnv = process.env): Resume | null {
  const path = env[RESUME_ENV];
  if (!path) return null;
  try {
    const v = JSON.parse(readCappedText(path, MAX_JSON_FILE_BYTES, RESUME_ENV)) as { from?: unknown; results?: unknown };
    if (!Number.isSafeInteger(v.from) || !Array.isArray(v.results) || v.results.length !== v.from || v.results.length > LEVEL1_CAPS.shapes) return null;
    return { from: v.from as number, results: v.results.map((r) => validateResult(r) as Level1Json) };
  } catch {
    return null;
  }
}

/**
 * When the watchdog gave up a kernel with no working device left in this process and cases are
 * left, runs the command again in a fresh process from the next case, and returns its exit code.
 */
export function respawnToResume(state: Resume, what: string, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): number {
  const dir = mkdtempSync(join(tmpdir(), 'kernel-lab-resume-'));
  const file = join(dir, 'resume.json');
  writeFileSync(file, JSON.stringify(state));
  log(`${what}: no working device is left in this process; the rest of the run (from case ${state.from + 1}) goes on in a fresh one`);
  try {
    return runAgain({ [RESUME_ENV]: file }, log);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
