// Dawn's native code (the `webgpu` package) prints its warnings — "Calling DispatchWorkgroups with
// a workgroup count of 0 is unusual", and whatever else it logs — with the C library straight to
// file descriptor 1, in the middle of the lab's own stdout (`--json -`, help, reports). Node has
// no dup2, and the package no logging option, so the CLI runs itself as a child whose fd 1 is the
// parent's stderr and whose own stdout output goes to fd 3, the parent's stdout: stdout carries
// only what the lab writes. The parent does nothing else and exits with the child's code.
import { spawn } from 'node:child_process';
import { writeSync } from 'node:fs';

/** Set in the child: the fd its stdout output goes to. */
export const STDOUT_FD_ENV = 'KERNEL_LAB_STDOUT_FD';
/** `KERNEL_LAB_NATIVE_STDOUT=keep`: no child process (native output then shares stdout). */
export const NATIVE_STDOUT_ENV = 'KERNEL_LAB_NATIVE_STDOUT';

/** Writes all of `bytes` to `fd`, waiting out a non-blocking pipe that is full. */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let off = 0; off < bytes.length; ) {
    try {
      off += writeSync(fd, bytes, off);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}

/** In the child: process.stdout's writes go to `fd`, synchronously (nothing is lost at exit). */
function stdoutTo(fd: number): void {
  const write = (chunk: string | Uint8Array, encoding?: BufferEncoding | ((e?: Error | null) => void), cb?: (e?: Error | null) => void): boolean => {
    const done = typeof encoding === 'function' ? encoding : cb;
    writeAll(fd, typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : chunk);
    if (done) queueMicrotask(() => done(null));
    return true;
  };
  process.stdout.write = write as typeof process.stdout.write;
}

/** Commands that never open Dawn run in one process (serve stays one process a signal can stop). */
const WITHOUT_DAWN = new Set(['serve', 'help', '--help', '-h', 'diff', 'report']);

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Call first thing in the CLI's entry. In the parent: runs the same command as a child with fd 1 →
 * this process's stderr and fd 3 → its stdout, passes signals on, and resolves to the child's exit
 * code. In the child (or with the opt-out, or for a command without Dawn): sets up stdout and
 * returns null — run the command here.
 */
export function keepNativeOffStdout(argv: readonly string[] = process.argv.slice(2)): Promise<number> | null {
  const fd = Number(process.env[STDOUT_FD_ENV]);
  if (Number.isInteger(fd) && fd > 2) {
    stdoutTo(fd);
    return null;
  }
  if (process.env[NATIVE_STDOUT_ENV] === 'keep' || argv.length === 0 || WITHOUT_DAWN.has(argv[0])) return null;
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: ['inherit', 2, 'inherit', 1], env: { ...process.env, [STDOUT_FD_ENV]: '3' } });
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  for (const sig of SIGNALS) process.on(sig, forward);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      for (const sig of SIGNALS) process.off(sig, forward);
      // A child ended by a signal: the shell's convention, 128 + its number.
      resolve(code ?? 128 + (signal ? (({ SIGINT: 2, SIGKILL: 9, SIGTERM: 15, SIGHUP: 1 }) as Record<string, number>)[signal] ?? 1 : 1));
    });
  });
}
