import { describe, expect, it } from 'vitest';
import { bytesSource, readGgufHeader, writeGgufHeader } from './gguf';
import { configFromGguf, makeConfig, PRESETS, presetByName, withRun } from './model-config';

const llamaKv = (over: Record<string, unknown> = {}) =>
  Object.entries({
    'general.architecture': 'llama',
    'llama.vocab_size': 512,
    'llama.embedding_length': 64,
    'llama.attention.head_count': 8,
    'llama.attention.head_count_kv': 4,
    'llama.block_count': 5,
    'llama.feed_forward_length': 172,
    ...over,
  })
    .filter(([, v]) => v !== undefined)
    .map(([key, value]) => ({ key, type: typeof value === 'string' ? 'string' : 'u32', value })) as never;

const header = async (over: Record<string, unknown> = {}, tensors = [{ name: 'output.weight', ne: [64, 512], type: 0, offset: 0n }]) =>
  readGgufHeader(bytesSource(writeGgufHeader(llamaKv(over), tensors)));

describe('model configs', () => {
  it('presets hold the issue\'s hyperparameters', () => {
    expect(PRESETS.tiny).toMatchObject({ nVocab: 512, nEmbd: 64, nHead: 8, nHeadKv: 4, nLayer: 5, nFf: 172, nCtx: 128, nBatch: 1, tiedOutput: false, nRot: 8 });
    expect(PRESETS['1b']).toMatchObject({ nVocab: 32000, nEmbd: 2048, nHead: 32, nHeadKv: 8, nLayer: 16, nFf: 8192, nCtx: 512, nBatch: 1 });
    expect(PRESETS['7b']).toMatchObject({ nVocab: 32000, nEmbd: 4096, nHead: 32, nHeadKv: 32, nLayer: 32, nFf: 11008 });
    // micro: the graph run's preset for software adapters (one layer)
    expect(PRESETS.micro).toMatchObject({ nVocab: 64, nEmbd: 32, nHead: 4, nHeadKv: 2, nLayer: 1, nFf: 48, nCtx: 16, nBatch: 1 });
    expect(() => presetByName('13b')).toThrow("unknown preset '13b' (presets: tiny, 1b, 7b, micro)");
    expect(withRun(PRESETS.tiny, { nBatch: 2, nCtx: 64 })).toMatchObject({ nBatch: 2, nCtx: 64, nEmbd: 64 });
    expect(withRun(PRESETS.tiny, { nBatch: undefined, nCtx: 32 })).toMatchObject({ nBatch: 1, nCtx: 32 });
  });

  it('reads llama.* hyperparameters from a GGUF header', async () => {
    const c = configFromGguf(await header(), { nCtx: 128, nBatch: 1, name: 'm' });
    expect(c).toMatchObject({ name: 'm', nVocab: 512, nEmbd: 64, nHead: 8, nHeadKv: 4, nLayer: 5, nFf: 172, tiedOutput: false, rmsEps: 1e-5, nRot: 8 });
    const tied = configFromGguf(await header({}, [{ name: 'token_embd.weight', ne: [64, 512], type: 0, offset: 0n }]), { nCtx: 8, nBatch: 1 });
    expect(tied.tiedOutput).toBe(true);
    // no vocab_size key: the token list's length
    const h = await readGgufHeader(bytesSource(writeGgufHeader([...llamaKv({ 'llama.vocab_size': undefined }), { key: 'tokenizer.ggml.tokens', type: 'array', elemType: 'string', value: ['a', 'b', 'c', 'd'] }] as never, [])));
    expect(configFromGguf(h, { nCtx: 8, nBatch: 1 }).nVocab).toBe(4);
  });

  it('refuses hyperparameters that cannot make a model, naming the field', async () => {
    await expect(header({ 'llama.vocab_size': 0 }).then((h) => configFromGguf(h, { nCtx: 8, nBatch: 1 }))).rejects.toThrow('nVocab must be a positive integer, got 0');
    await expect(header({ 'llama.attention.head_count': 7 }).then((h) => configFromGguf(h, { nCtx: 8, nBatch: 1 }))).rejects.toThrow('nHead 7 does not divide nEmbd 64');
    await expect(header({ 'llama.attention.head_count_kv': 3 }).then((h) => configFromGguf(h, { nCtx: 8, nBatch: 1 }))).rejects.toThrow('nHeadKv 3 does not divide nHead 8');
    await expect(header().then((h) => configFromGguf(h, { nCtx: 0, nBatch: 1 }))).rejects.toThrow('nCtx must be a positive integer, got 0');
    await expect(header({ 'llama.block_count': undefined }).then((h) => configFromGguf(h, { nCtx: 8, nBatch: 1 }))).rejects.toThrow('llama.block_count is missing');
    await expect(header({ 'general.architecture': 'mamba' }).then((h) => configFromGguf(h, { nCtx: 8, nBatch: 1 }))).rejects.toThrow("general.architecture 'mamba' is not one the graph builder knows (llama)");
    await expect(header({ 'general.architecture': undefined }).then((h) => configFromGguf(h, { nCtx: 8, nBatch: 1 }))).rejects.toThrow('general.architecture is missing');
    expect(() => makeConfig('x', { ...PRESETS.tiny, nLayer: 1.5 })).toThrow('x: nLayer must be a positive integer, got 1.5');
  });
});
