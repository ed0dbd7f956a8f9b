// Dawn's native warnings are written to fd 1 by its C code; the CLI keeps them off its stdout by
// running the command in a child whose fd 1 is stderr (native-stdout.ts). A preload stands in for
// Dawn here: in the process that runs the command it writes a warning to fd 1 with write(2), as
// Dawn's printf does — on SwiftShader the only known trigger, a zero dispatch, is refused earlier.
// Needs the CLI bundle (npm run build:cli).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELP } from './commands/help';
import { NATIVE_STDOUT_ENV, STDOUT_FD_ENV } from './native-stdout';
import { projectRoot } from './project-root';

const WARNING = 'warning:\nCalling [ComputePassEncoder (unlabeled)].DispatchWorkgroups with a workgroup count of 0 is unusual.';
const preload = join(mkdtempSync(join(tmpdir(), 'lab-native-stdout-')), 'dawn-like.mjs');
// Only where the command runs (the child, or the one process with the opt-out), like Dawn.
writeFileSync(preload, `import { writeSync } from 'node:fs';\nif (process.env.${STDOUT_FD_ENV} || process.env.${NATIVE_STDOUT_ENV} === 'keep') writeSync(1, ${JSON.stringify(WARNING + '\n')});\n`);

function lab(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--import', preload, join(projectRoot(), 'dist-cli', 'lab.mjs'), ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("Dawn's native output stays off stdout", () => {
  it('stdout holds exactly what the lab writes; the native warning goes to stderr', () => {
    const r = lab(['device', '--json', '-']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).adapter.vendor).toBeTruthy();
    expect(r.stderr).toContain(WARNING);
    // A command that never opens Dawn runs in one process: nothing to keep apart.
    expect(lab(['help'])).toMatchObject({ status: 0, stdout: HELP });
  }, 60_000);

  it('a Level 1 result on stdout (--json -) parses, with Dawn running in the child', () => {
    const r = lab(['time', '--op', 'ADD', '--shape', '64x8', '--min-runs', '2', '--json', '-']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).kind).toBe('level1');
    expect(r.stderr).toContain(WARNING);
  }, 60_000);

  it('the exit code and the error are the command’s', () => {
    const r = lab(['no-such-command']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/unknown command 'no-such-command'/);
  });

  it('with the opt-out the warning lands in stdout, as it did before (what the child prevents)', { timeout: 60_000 }, () => {
    const r = lab(['device', '--json', '-'], { [NATIVE_STDOUT_ENV]: 'keep' });
    expect(r.stdout.startsWith(WARNING)).toBe(true);
  });
});
