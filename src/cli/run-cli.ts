// Test helper: runs the CLI as a user does (node scripts/lab.mjs …) and captures the result.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from './project-root';

export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], timeoutMs = 300_000): CliRun {
  const root = projectRoot();
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'lab.mjs'), ...args], { cwd: root, encoding: 'utf8', timeout: timeoutMs });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
