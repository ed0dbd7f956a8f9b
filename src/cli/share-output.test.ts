// The CLI's share link and PR markdown: the same markdown the page's "Copy for PR" makes, with a
// link that decodes to the --json result.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resultMarkdown } from '../core/report/markdown';
import { sampleLevel1 } from '../../test/fixtures/sample-results';
import { decodeShare, sharePayloadFromHash } from '../core/report/share';
import { runCli } from './run-cli';
import { DEFAULT_SHARE_BASE, shareBase, writeShareOutputs } from './share-output';

describe('share base', () => {
  it('is the flag, else $KERNEL_LAB_SHARE_BASE, else package.json’s homepage (the hosted page); http(s) only', () => {
    const { homepage } = JSON.parse(readFileSync('package.json', 'utf8')) as { homepage: string };
    expect(shareBase(undefined, {})).toBe(DEFAULT_SHARE_BASE);
    expect(DEFAULT_SHARE_BASE).toBe(homepage);
    expect(homepage).toMatch(/^https:\/\//);
    expect(shareBase(undefined, { KERNEL_LAB_SHARE_BASE: 'https://lab.example.org/k/' })).toBe('https://lab.example.org/k/');
    expect(shareBase('https://a.example/', { KERNEL_LAB_SHARE_BASE: 'https://b.example/' })).toBe('https://a.example/');
    expect(() => shareBase('not a url', {})).toThrow(/is not a URL/);
    expect(() => shareBase('javascript:alert(1)', {})).toThrow(/must be an http\(s\) URL/);
  });

  it('prints the link and writes the markdown with it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-md-'));
    const file = join(dir, 'pr.md');
    const lines: string[] = [];
    const result = sampleLevel1();
    await writeShareOutputs(result, { markdown: file, base: 'https://lab.example.org/' }, (l) => lines.push(l));
    expect(lines).toHaveLength(1);
    const link = lines[0].replace(/^share link: /, '');
    expect(link).toMatch(/^https:\/\/lab\.example\.org\/#r=2\./);
    expect(await decodeShare(sharePayloadFromHash(new URL(link).hash)!)).toEqual(result);
    expect(readFileSync(file, 'utf8')).toBe(resultMarkdown(result, link));
  });
});

describe('lab time --markdown (node runtime)', () => {
  it('writes the markdown of the --json result and prints its link', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-md-'));
    const md = join(dir, 'pr.md');
    const json = join(dir, 'r.json');
    const r = runCli(['time', '--op', 'ADD', '--shape', '64x4', '--native', '--json', json, '--markdown', md, '--share-base', 'https://lab.example.org/']);
    expect(r.status, r.stderr).toBe(0);
    const link = /share link: (\S+)/.exec(r.stdout)?.[1];
    expect(link).toMatch(/^https:\/\/lab\.example\.org\/#r=2\./);
    const result = JSON.parse(readFileSync(json, 'utf8'));
    expect(await decodeShare(sharePayloadFromHash(new URL(link!).hash)!)).toEqual(result);
    expect(readFileSync(md, 'utf8')).toBe(resultMarkdown(result, link));
  });
});
