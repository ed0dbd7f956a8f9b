// The hand-over from a process whose device a hung kernel took to the fresh one: the notes travel
// in one environment variable, read defensively (it is input like any other).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { sampleLevel1 } from '../../test/fixtures/sample-results';
import { HUNG_AT_ENV, HUNG_KERNELS_ENV, hungKernelNotes, markHung, MAX_RESPAWNS, readResume, reportResumed, respawnWithoutHung, RESUME_ENV } from './watchdog-respawn';
import { projectRoot } from './project-root';

const add = join(projectRoot(), 'examples', 'kernels', 'ggml-style-add');
const source = { manifest: readFileSync(join(add, 'manifest.json'), 'utf8'), files: {} };

describe('hung kernels handed to a fresh process', () => {
  it('reads the notes by kernel name; anything else is no note', () => {
    expect(hungKernelNotes({ [HUNG_KERNELS_ENV]: JSON.stringify({ 'ggml-style-add': 'hung: bound 1500 ms' }) })).toEqual({ 'ggml-style-add': 'hung: bound 1500 ms' });
    for (const bad of ['', 'not json', '[1,2]', 'null', '"x"', 'x'.repeat(70_000)]) expect(hungKernelNotes({ [HUNG_KERNELS_ENV]: bad })).toEqual({});
    // Non-string notes are dropped; an inherited name is only a key like any other, never a member.
    expect(hungKernelNotes({ [HUNG_KERNELS_ENV]: '{"a":1,"__proto__":"p","b":"n"}' })).toEqual(Object.fromEntries([['__proto__', 'p'], ['b', 'n']]));
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 'n']));
    expect(Object.keys(hungKernelNotes({ [HUNG_KERNELS_ENV]: JSON.stringify(many) }))).toHaveLength(MAX_RESPAWNS);
  });

  it('marks the named kernel hung and leaves the others', () => {
    expect(markHung([source], { 'ggml-style-add': 'hung: bound 1500 ms' })).toEqual([{ ...source, hungNote: 'hung: bound 1500 ms' }]);
    expect(markHung([source], { toString: 'x' })).toEqual([source]);
  });

  it('runs again only for a user kernel the watchdog gave up with no device left', () => {
    const lines: string[] = [];
    expect(respawnWithoutHung(new Error('other'), (l) => lines.push(l))).toBeNull();
    // A recovered device (recoveryMs set) or a native kernel: the run's own verdict, no new process.
    expect(respawnWithoutHung({ name: 'WatchdogError', label: 'user:x', recoveryMs: 12, boundMs: 1500 }, (l) => lines.push(l))).toBeNull();
    expect(respawnWithoutHung({ name: 'WatchdogError', label: 'ADD native', recoveryMs: null, boundMs: 1500 }, (l) => lines.push(l))).toBeNull();
    expect(lines).toEqual([]);
  });

  it('the fresh process says how long after the watchdog it resumed', () => {
    const lines: string[] = [];
    reportResumed((l) => lines.push(l), { [HUNG_KERNELS_ENV]: '{"never-ends":"n"}', [HUNG_AT_ENV]: String(Date.now() - 1900) });
    expect(lines[0]).toMatch(/^recovered: a fresh process has a device (19\d\d|20\d\d) ms after the watchdog gave up \(never-ends reported hung\)$/);
    reportResumed((l) => lines.push(l), {});
    expect(lines).toHaveLength(1);
  });

  it('time over several cases resumes from a file of the results so far, read like any input', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-resume-test-'));
    const at = (name: string, text: string) => (writeFileSync(join(dir, name), text), { [RESUME_ENV]: join(dir, name) });
    const one = JSON.parse(JSON.stringify(sampleLevel1()));
    expect(readResume(at('ok.json', JSON.stringify({ from: 1, results: [one] })))).toEqual({ from: 1, results: [one] });
    // Anything else starts from the first case: not JSON, a count that disagrees, a result that does not validate, no file.
    for (const [name, text] of [['a', 'nope'], ['b', JSON.stringify({ from: 2, results: [one] })], ['c', JSON.stringify({ from: 1, results: [{ ...one, kind: 'lane' }] })], ['d', JSON.stringify({ from: 1, results: [{ ...one, verdict: 'too-slow' }] })]])
      expect(readResume(at(name, text))).toBeNull();
    expect(readResume({ [RESUME_ENV]: join(dir, 'missing.json') })).toBeNull();
    expect(readResume({})).toBeNull();
    const lines: string[] = [];
    reportResumed((l) => lines.push(l), { ...at('ok2.json', JSON.stringify({ from: 1, results: [one] })), [HUNG_AT_ENV]: String(Date.now() - 500) });
    expect(lines[0]).toMatch(/^recovered: a fresh process has a device \d+ ms after the watchdog gave up \(resuming at case 2\)$/);
  });
});
