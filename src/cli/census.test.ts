// The census CLI as a user runs it (the built bundle): presets, a GGUF file the test writes,
// bad input named with exit 2, and ggml's text format out and back in. No device needed.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeGgufHeader } from '../core/census/gguf';
import { runCli } from './run-cli';

const dir = mkdtempSync(join(tmpdir(), 'census-cli-'));
const u32 = (key: string, value: number) => ({ key, type: 'u32' as const, value });

describe('lab census', () => {
  it('tiny preset by default: the table, views and parameters apart; JSON', () => {
    const r = runCli(['census', '--json', join(dir, 'tiny.json')]);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('census: tiny (vocab 512, embd 64, heads 8/4 KV, 5 layers, FFN 172, context 128, batch 1): 630 nodes — 436 compute, 146 views, 48 parameters');
    expect(r.stdout).toMatch(/\nMUL_MAT +46 /);
    expect(r.stdout).toContain('views (no bytes moved): TRANSPOSE 56, PERMUTE 40, RESHAPE 35, VIEW 15');
    const json = JSON.parse(readFileSync(join(dir, 'tiny.json'), 'utf8'));
    expect(json.kind).toBe('census');
    expect(json.rows.find((r: { op: string }) => r.op === 'OPT_STEP_ADAMW').nodes).toBe(48);
  });

  it('--model reads a GGUF header; --context and --batch shape the step', () => {
    const file = join(dir, 'm.gguf');
    const header = writeGgufHeader(
      [
        { key: 'general.architecture', type: 'string', value: 'llama' },
        { key: 'general.name', type: 'string', value: 'test-model' },
        u32('llama.vocab_size', 512),
        u32('llama.embedding_length', 64),
        u32('llama.attention.head_count', 8),
        u32('llama.attention.head_count_kv', 8),
        u32('llama.block_count', 2),
        u32('llama.feed_forward_length', 128),
      ],
      [{ name: 'output.weight', ne: [64, 512], type: 0, offset: 0n }],
    );
    writeFileSync(file, header);
    const r = runCli(['census', '--model', file, '--context', '32', '--batch', '2']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^census: test-model \(vocab 512, embd 64, heads 8\/8 KV, 2 layers, FFN 128, context 32, batch 2\): /);
    expect(r.stdout).toMatch(/\nSOFT_MAX +2 .* 64x64x8\n/);
  });

  it('bad input: exit 2 naming what was wrong', () => {
    const notGguf = join(dir, 'x.gguf');
    writeFileSync(notGguf, 'hello world, not a model');
    const cases: [string[], RegExp][] = [
      [['census', '--model', notGguf], /not a GGUF file: magic at offset 0/],
      [['census', '--model', join(dir, 'missing.gguf')], /--model: cannot read/],
      [['census', '--preset', '13b'], /unknown preset '13b'/],
      [['census', '--preset', 'tiny', '--context', '0'], /--context must be a whole number from 1 to 1048576, got '0'/],
      [['census', '--preset', 'tiny', '--model', notGguf], /give one of --preset, --model, --import/],
    ];
    for (const [args, message] of cases) {
      const r = runCli(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  it('--export writes ggml text that --import reads back to the same census', () => {
    const file = join(dir, 'tiny.txt');
    const out = runCli(['census', '--preset', 'tiny', '--export', file]);
    expect(out.status).toBe(0);
    expect(readFileSync(file, 'utf8').trim().split('\n').length).toBe(436);
    const back = runCli(['census', '--import', file]);
    expect(back.status).toBe(0);
    // rows only: an imported graph has no views, and the notes under the table differ
    const table = (s: string) => s.split('\n').slice(1).filter((l) => l && !/^(views|note:|OPT_STEP_ADAMW written)/.test(l)).join('\n');
    expect(table(back.stdout)).toBe(table(out.stdout));
    writeFileSync(join(dir, 'bad.txt'), '40 0 64 128 1 1 0 2\n');
    const bad = runCli(['census', '--import', join(dir, 'bad.txt')]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('line 1: src0 type is missing');
  });
});
