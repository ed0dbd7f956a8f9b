import { describe, expect, it } from 'vitest';
import { blockDecodeWgsl, E2M1_TABLE_BYTES, E2M1_TABLE_ORDER, e2m1TableDecode, e2m1x2Table, hasBlockDecode, hasIntegerBlockDecode } from './block-wgsl';
import { ELEMENTS } from './element';
import { f16Decode } from './half';
import { WEIGHT_FORMATS } from './weights';

/**
 * A generated integer WGSL function run as written: `fn name(param: u32) -> …` whose body is let lines (u32 literals,
 * + - * & | ^ << >> and parentheses; WGSL needs parentheses between mixed bitwise operators, so precedence is * over
 * + - over shifts over the bitwise three, every step mod 2^32) and a return; `ret` picks the return's u32 parts
 * (compiled the same way) out of its text.
 */
function u32Fn(wgsl: string, name: string, ret: (text: string) => string[]): (c: number) => number[] {
  const head = new RegExp(`fn ${name}\\((\\w+): u32\\) -> [^{]+\\{\\n([\\s\\S]*?)\\n\\}`).exec(wgsl)!;
  const param = head[1];
  const body = head[2].split('\n').map((l) => l.trim());
  const ops: Record<string, (a: number, b: number) => number> = {
    '*': (a, b) => Math.imul(a, b) >>> 0,
    '+': (a, b) => (a + b) >>> 0,
    '-': (a, b) => (a - b) >>> 0,
    '<<': (a, b) => (a << (b & 31)) >>> 0,
    '>>': (a, b) => a >>> (b & 31),
    '&': (a, b) => (a & b) >>> 0,
    '|': (a, b) => (a | b) >>> 0,
    '^': (a, b) => (a ^ b) >>> 0,
  };
  const level: Record<string, number> = { '*': 3, '+': 2, '-': 2, '<<': 1, '>>': 1, '&': 0, '|': 0, '^': 0 };
  type Env = Record<string, number>;
  // Parsed once into closures over the environment of let values.
  const compile = (src: string): ((env: Env) => number) => {
    const toks = src.match(/0x[0-9a-f]+u|\d+u|[a-z_]\w*|<<|>>|[-+*&|^()]/gi)!;
    let i = 0;
    const atom = (): ((env: Env) => number) => {
      const t = toks[i++];
      if (t === '(') {
        const v = expr(0);
        expect(toks[i++]).toBe(')');
        return v;
      }
      if (/u$/.test(t)) {
        const k = Number(t.slice(0, -1)) >>> 0;
        return () => k;
      }
      return (env) => {
        if (!(t in env)) throw new Error(`${t} is not defined`);
        return env[t];
      };
    };
    const expr = (min: number): ((env: Env) => number) => {
      let a = atom();
      while (i < toks.length && toks[i] in level && level[toks[i]] >= min) {
        const op = ops[toks[i]];
        const [l, r] = [a, expr(level[toks[i++]] + 1)];
        a = (env) => op(l(env), r(env));
      }
      return a;
    };
    const f = expr(0);
    expect(i).toBe(toks.length);
    return f;
  };
  const lets = body.slice(0, -1).map((line) => {
    const m = /^let (\w+) = (.*);$/.exec(line)!;
    return [m[1], compile(m[2])] as const;
  });
  const parts = ret(/^return (.*);$/.exec(body[body.length - 1])![1]).map(compile);
  return (c) => {
    const env: Env = { [param]: c >>> 0 };
    for (const [n, f] of lets) env[n] = f(env);
    return parts.map((p) => p(env));
  };
}

/** `fn wq_e2m1x2_i8(c: u32) -> vec2<u32>` run as written: its return's two arguments, split at the top-level comma. */
function e2m1x2I8(wgsl: string): (c: number) => [number, number] {
  const run = u32Fn(wgsl, 'wq_e2m1x2_i8', (text) => {
    const ret = /^vec2<u32>\((.*)\)$/.exec(text)![1];
    let depth = 0;
    const at = [...ret].findIndex((ch) => (ch === '(' ? (depth++, false) : ch === ')' ? (depth--, false) : ch === ',' && depth === 0));
    return [ret.slice(0, at), ret.slice(at + 1)];
  });
  return (c) => run(c) as [number, number];
}

describe('block-at-a-time decode WGSL', () => {
  it('covers every format where K % 32 == 0 (Track-1 rows with a ragged end are one weight a call); the integer form ggml\'s 32-weight types and Track-1 E2M1, int4 and int8', () => {
    expect(WEIGHT_FORMATS.filter((f) => !hasBlockDecode(f.id))).toEqual([]);
    expect(WEIGHT_FORMATS.filter((f) => hasIntegerBlockDecode(f.id)).map((f) => f.name)).toEqual(['q4_0', 'q4_1', 'q5_0', 'q5_1', 'q8_0', 'mxfp4', 'nvfp4', 'mxfp4_t1', 'fp4', 'int4', 'int8', 'mxint4', 'mxint8', 'fp4_f16', 'int4_f16', 'int8_f16']);
    expect(hasBlockDecode('int5', 70)).toBe(false);
    expect(hasBlockDecode('int5', 96)).toBe(true);
    expect(hasBlockDecode('q4_k', 512)).toBe(true);
    expect(() => blockDecodeWgsl('nvfp4', 0)).toThrow(/nvfp4: a Track-1 block decode needs the matrix shape/);
    expect(() => blockDecodeWgsl('int5', 0, 'src0', { rows: 2, cols: 70 })).toThrow(/int5: no block decode at K = 70 \(K must be a multiple of 32\)/);
  });

  it('turns quants into floats without an int → float conversion (2^23 + q from the bits, minus 2^23 + bias)', () => {
    expect(blockDecodeWgsl('q4_0', 0).wgsl).toContain('(bitcast<vec4<f32>>(((vec4<u32>(r.qs[0]) >> vec4<u32>(0u, 8u, 16u, 24u)) & vec4<u32>(15u)) | vec4<u32>(0x4b000000u)) - vec4<f32>(8388616.0))');
    // int4: (c ^ 8) − 8.
    expect(blockDecodeWgsl('int4', 0, 'src0', { rows: 1, cols: 64 }).wgsl).toContain('(bitcast<vec4<f32>>((c ^ vec4<u32>(8u)) | vec4<u32>(0x4b000000u)) - vec4<f32>(8388616.0))');
    // No vector conversion left in any format's decode (vec4<f32>(…) only of constants).
    for (const f of WEIGHT_FORMATS) expect(blockDecodeWgsl(f.id, 0, 'src0', { rows: 2, cols: 256 }).wgsl, f.name).not.toMatch(/vec4<f32>\((?![\d.]+\))/);
  });

  it('Track-1: one generator over the codec tables — b words of b-bit codes, the chunk\'s scale(s), vector element decode', () => {
    // nvfp4: 32 E2M1 codes in 4 words, two 16-weight E4M3 scales folded into q, the global as d.
    const nv = blockDecodeWgsl('nvfp4', 64, 'src0', { rows: 4, cols: 64 });
    // 4 code words in wq_block, 4 again in wq_block_c8.
    expect(nv.wgsl.match(/let W\d+ = wq_w\(w0/g)).toHaveLength(8);
    expect(nv.wgsl).toContain('b.q[0] = wq_el4(((vec4<u32>(W0) >> vec4<u32>(0u, 4u, 8u, 12u)) & vec4<u32>(15u))) * s0;');
    expect(nv.wgsl).toContain('b.q[7] = wq_el4(((vec4<u32>(W3) >> vec4<u32>(16u, 20u, 24u, 28u)) & vec4<u32>(15u))) * s1;');
    // The global is the word after 32 code words (256 × 4 bits) and 4·4 E4M3 scale bytes (4 words).
    expect(nv.wgsl).toContain('b.d = bitcast<f32>(wq_w(36u));');
    expect(nv).toMatchObject({ hasMin: false, integer: true, halves: true, dot4Order: 'nib', bias: 0 });
    // wq_block_c8: each code word's even then odd nibbles as ×2 E2M1 i8; the two scales halved, the global in both.
    expect(nv.wgsl).toContain('let p3 = wq_e2m1x2_i8(W3);\n  b.q[6] = p3.x;\n  b.q[7] = p3.y;');
    // Both E4M3 scales from one word as an f16 pair (E4M3 × 2^-8), the 2^8 and E2M1's ½ folded into the global.
    expect(nv.wgsl).toContain('let sw = wq_w(32u + (si >> 2u)) >> ((si & 3u) * 8u);');
    expect(nv.wgsl).toContain('let sc = wq_e4m3x2_f16(sw) * (bitcast<f32>(wq_w(36u)) * 128.0);');
    expect(nv.wgsl).toContain('fn wq_e4m3x2_f16(w: u32) -> vec2<f32> {');
    // The float forms too: wq_block's two scales from one word, wq_part's one (× 2^8, exact).
    expect(nv.wgsl).toContain('let sp = wq_e4m3x2_f16(wq_w(32u + (si >> 2u)) >> ((si & 3u) * 8u)) * 256.0;');
    expect(nv.wgsl).toContain('let s0 = (wq_e4m3x2_f16(wq_w(32u + (sk >> 2u)) >> ((sk & 3u) * 8u)) * 256.0).x;');
    expect(nv.wgsl).not.toContain('array<i32, 16>');
    // int4: the unsigned code c ^ 8 by nibbles (bias 8, one scale per chunk of its 64-weight block); int8: the words themselves, in k order.
    const i4 = blockDecodeWgsl('int4', 0, 'src0', { rows: 2, cols: 64 });
    expect(i4).toMatchObject({ integer: true, halves: false, dot4Order: 'nib', bias: 8 });
    expect(i4.wgsl).toContain('let c1 = W1 ^ 0x88888888u;\n  b.q[2] = c1 & 0x0f0f0f0fu;\n  b.q[3] = (c1 >> 4u) & 0x0f0f0f0fu;');
    expect(blockDecodeWgsl('int8', 0, 'src0', { rows: 2, cols: 64 })).toMatchObject({ integer: true, dot4Order: 'k', bias: 0 });
    expect(blockDecodeWgsl('int5', 0, 'src0', { rows: 2, cols: 64 })).toMatchObject({ integer: false });
    // int3: 3 words, codes straddling words joined; block 64 at K = 96 leaves a ragged last block: scales row by row.
    const i3 = blockDecodeWgsl('int3', 0, 'src0', { rows: 2, cols: 96 });
    expect(i3.wgsl.match(/let W\d+ = wq_w\(w0/g)).toHaveLength(3);
    expect(i3.wgsl).toContain('((W0 >> 30u) | (W1 << 2u))');
    expect(i3.wgsl).toContain('let si = (blk / 3u) * 2u + (blk % 3u) / 2u;');
    expect(i3.wgsl).toContain('b.d = wq_scale(si);');
    // Part s (8 weights): nvfp4's one word and block s/2's scale; int3's 24 bits at byte 12·blk + 3s, funnelled.
    expect(nv.wgsl).toContain('fn wq_part(blk: u32, s: u32) -> WqPart {');
    expect(nv.wgsl).toContain('let Ww = (blk * 16u + s * 4u) >> 2u;');
    expect(nv.wgsl).toContain('let sk = si + (s >> 1u);');
    expect(i3.wgsl).toContain('let Wa = blk * 12u + s * 3u;');
    expect(i3.wgsl).toContain('let W0 = wq_funnel(Wr0, Wr1, Ws);');
    // mxint8 (E8M0 scale, one per chunk): 8 words, one scale byte.
    const mx8 = blockDecodeWgsl('mxint8', 0, 'src0', { rows: 2, cols: 64 });
    expect(mx8.wgsl.match(/let W\d+ = wq_w\(w0/g)).toHaveLength(16);
    expect(mx8.wgsl).toContain('b.q[7] = W7;');
    expect(mx8.wgsl).toContain('let si = blk;');
  });

  it('wq_e2m1x2_i8, run as generated: every code in every nibble beside every code in every other, any sign, −0 as 0', () => {
    const kv = [0, 1, 2, 3, 4, 6, 8, 12];
    const want = (n: number) => (n & 8 ? -kv[n & 7] : kv[n & 7]);
    const dec = e2m1x2I8(blockDecodeWgsl('mxfp4', 0).wgsl);
    // Track-1's E2M1 formats share the function.
    expect(blockDecodeWgsl('nvfp4', 0, 'src0', { rows: 2, cols: 64 }).wgsl).toContain(/fn wq_e2m1x2_i8[\s\S]*?\n\}/.exec(blockDecodeWgsl('mxfp4', 0).wgsl)![0]);
    const bad: string[] = [];
    const check = (c: number) => {
      const [lo, hi] = dec(c);
      for (let k = 0; k < 4; k++) {
        const got = [((lo >>> (8 * k)) << 24) >> 24, ((hi >>> (8 * k)) << 24) >> 24];
        const exp = [want((c >>> (8 * k)) & 15), want((c >>> (8 * k + 4)) & 15)];
        if (got[0] !== exp[0] || got[1] !== exp[1]) bad.push(`${(c >>> 0).toString(16)} byte ${k}: ${got} ≠ ${exp}`);
      }
    };
    // Nibbles p and q set to every pair of codes over backgrounds of +0, −0, all −12, all +12, mixed.
    for (const bg of [0, 0x88888888, 0xffffffff, 0x77777777, 0x9e3779b9])
      for (let p = 0; p < 8; p++)
        for (let q = p + 1; q < 8; q++)
          for (let a = 0; a < 16; a++) for (let b = 0; b < 16; b++) check(((bg & ~(15 << (4 * p)) & ~(15 << (4 * q))) | (a << (4 * p)) | (b << (4 * q))) >>> 0);
    // And a fixed pseudo-random sample of whole words.
    for (let i = 0, x = 12345; i < 20000; i++) check((x = (Math.imul(x, 1103515245) + 12345) >>> 0) ^ (x >>> 13));
    expect(bad.slice(0, 5)).toEqual([]);
  });

  it("wq_e4m3x2_f16, run as generated: every pair of E4M3 codes (any bits above them) is the codec's decode × 2^-8, both halves; 0x7f / 0xff ±480 as before", () => {
    const run = u32Fn(blockDecodeWgsl('nvfp4', 0, 'src0', { rows: 2, cols: 64 }).wgsl, 'wq_e4m3x2_f16', (text) => [/^unpack2x16float\((.*)\)$/.exec(text)![1]]);
    // The codec's E4M3 (NaN at 0x7f / 0xff, which the encoder never writes: the bitwise decode this replaces gave ±480 there).
    const want = (c: number) => ((c & 0x7f) === 0x7f ? (c & 0x80 ? -480 : 480) : ELEMENTS.e4m3.decode(c));
    const bad: string[] = [];
    for (const above of [0, 0xffff, 0x9e37])
      for (let a = 0; a < 256; a++)
        for (let b = 0; b < 256; b++) {
          const [f] = run(((above << 16) | (b << 8) | a) >>> 0);
          const got = [f16Decode(f & 0xffff) * 256, f16Decode(f >>> 16) * 256];
          if (!Object.is(got[0], want(a)) || !Object.is(got[1], want(b))) bad.push(`${a.toString(16)},${b.toString(16)} above ${above.toString(16)}: ${got} ≠ ${want(a)},${want(b)}`);
        }
    expect(bad.slice(0, 5)).toEqual([]);
    // The 256 values cover E4M3: ±0, the subnormals m·2^-9, 448.
    expect([0x00, 0x80, 0x01, 0x07, 0x08, 0x7e, 0xfe].map((c) => f16Decode(run(c)[0] & 0xffff) * 256)).toEqual([0, -0, 2 ** -9, 7 * 2 ** -9, 2 ** -6, 448, -448]);
  });

  it('K-quants: a 32-weight eighth of a super-block per call, whole words; Q4_K/Q5_K with a min, Q6_K with its two scales in q', () => {
    const q4k = blockDecodeWgsl('q4_k', 0);
    // 8 quant words in wq_block, 2 in wq_part (bytes 8s… of the sub-block's 32).
    expect(q4k.wgsl.match(/let Q\d = wq_w\(Qw/g)).toHaveLength(10);
    expect(q4k.wgsl).toContain('let Qw = (o + 16u + 32u * (c >> 1u) + s * 8u) >> 2u;');
    expect(q4k.wgsl).toContain("b.m = -(wq_f16_at(o + 2u) * f32(sm.y));");
    expect(q4k.hasMin).toBe(true);
    expect(blockDecodeWgsl('q5_k', 0).wgsl.match(/let H\d = wq_w\(Hw/g)).toHaveLength(10);
    // Q6_K's 210-byte super-blocks sit at even offsets: 9 words funnelled into 8, for ql and qh.
    const q6k = blockDecodeWgsl('q6_k', 0);
    expect(q6k.wgsl).toContain('let L7 = wq_funnel(Lr7, Lr8, Ls);');
    expect(q6k.wgsl).toContain('let H7 = wq_funnel(Hr7, Hr8, Hs);');
    expect(q6k.wgsl).toContain('let ds0 = d * f32(bitcast<i32>(wq_byte(sc + (s >> 1u)) << 24u) >> 24u);');
    expect(q6k).toMatchObject({ hasMin: false, integer: false });
  });

  it('reads a block as whole words: the span of its quants once, joined by a funnel shift where blocks are 2-byte aligned', () => {
    const q4 = blockDecodeWgsl('q4_0', 64);
    // ggml mxfp4 (17 B): the block's 17 bytes from word o/4, its E8M0 byte from the first word, the codes past it (5 loads, no funnel select).
    const mx = blockDecodeWgsl('mxfp4', 0).wgsl;
    expect(mx.match(/let W\d+ = wq_w\(w0/g)).toHaveLength(5);
    expect(mx).toContain('r.d = wq_e8m0_half((W0 >> sh) & 0xffu);');
    expect(mx).toContain('r.qs[3] = ((W3 >> 8u) >> sh) | (W4 << (24u - sh));');
    // Four mxfp4 blocks (68 B, from a multiple of 4) as 17 words: block h's scale byte h of word 4h, its codes from
    // byte 17h + 1 by constant shifts (block 3's at word 13, whole); only where blocks are odd bytes (the others pair).
    const quad = blockDecodeWgsl('mxfp4', 64).quadC8!;
    expect(quad.match(/let W\d+ = wq_w\(w0/g)).toHaveLength(17);
    expect(quad).toContain('let w0 = (blk >> 2u) * 17u;');
    expect(quad).toContain('o.b0.d = wq_e8m0_half(W0 & 0xffu);');
    expect(quad).toContain('o.b2.d = wq_e8m0_half((W8 >> 16u) & 0xffu);');
    expect(quad).toContain('o.b3.d = wq_e8m0_half(W12 >> 24u);');
    expect(quad).toContain('let p00 = wq_e2m1x2_i8((W0 >> 8u) | (W1 << 24u));\n  o.b0.q[0] = p00.x;\n  o.b0.q[4] = p00.y;');
    expect(quad).toContain('let p13 = wq_e2m1x2_i8((W7 >> 16u) | (W8 << 16u));');
    expect(quad).toContain('let p33 = wq_e2m1x2_i8(W16);');
    expect(quad).not.toMatch(/select|sh\b/);
    expect(blockDecodeWgsl('mxfp4', 0).wgsl).not.toContain('wq_quad_c8');
    expect(['q4_0', 'q8_0', 'q4_1'].map((f) => blockDecodeWgsl(f, 0).quadC8)).toEqual([undefined, undefined, undefined]);
    expect(blockDecodeWgsl('nvfp4', 0, 'src0', { rows: 2, cols: 64 }).quadC8).toBeUndefined();
    // 18-byte blocks: the scale and the 16 quant bytes at any even offset span 5 words (the scale's first), joined into 4
    // from byte 2 of the scale's word, or the next 4 words whole.
    const wqRaw = (w: string) => w.slice(w.indexOf('fn wq_raw'), w.indexOf('\n}', w.indexOf('fn wq_raw')));
    expect(wqRaw(q4.wgsl).match(/let W\d+ = wq_w\(w0/g)).toHaveLength(5);
    expect(q4.wgsl).toContain('r.d = unpack2x16float(select(W0, W0 >> 16u, h)).x;');
    expect(q4.wgsl).toContain('r.qs[3] = select((W3 >> 16u) | (W4 << 16u), W4, h);');
    expect(q4.wgsl).toContain('bitcast<u32>(src0[64u + w])');
    expect(q4).toMatchObject({ hasMin: false, integer: true });
    // 20-byte blocks are word-aligned: no funnel; the min makes kernels add m·Σx.
    const q41 = blockDecodeWgsl('q4_1', 0);
    expect(q41.wgsl).toContain('r.qs[0] = W0;');
    expect(q41.hasMin).toBe(true);
    // q8_0: the scale and 32 quant bytes over 9 words; the i8 form is the words themselves.
    const q8 = blockDecodeWgsl('q8_0', 0);
    expect(wqRaw(q8.wgsl).match(/let W\d+ = wq_w\(w0/g)).toHaveLength(9);
    expect(q8.wgsl).toContain('b.q[7] = r.qs[7];');
    // Pairs from an even block (4-aligned: 36 / 68 B): 9 / 17 words, block a's quants funnelled by 16 bits, block b's whole.
    const pairOf = (w: string | undefined) => w!.slice(w!.indexOf('fn wq_pair_c8'));
    expect(pairOf(q4.pairC8).match(/let W\d+ = wq_w\(w0/g)).toHaveLength(9);
    expect(pairOf(q4.pairC8)).toContain('p.b.d = unpack2x16float(W4 >> 16u).x;');
    expect(pairOf(q4.pairC8)).toContain('p.b.q[4] = ((bs0 >> 4u) & 0x0f0f0f0fu);');
    expect(pairOf(q8.pairC8).match(/let W\d+ = wq_w\(w0/g)).toHaveLength(17);
    expect(pairOf(q8.pairC8)).toContain('let as7 = (W7 >> 16u) | (W8 << 16u);');
    expect(pairOf(q8.pairC8)).toContain('p.b.q[7] = bs7;');
    expect([q4.pairC8, q8.pairC8].map((w) => w?.includes('fn wq_pair_c8'))).toEqual([true, true]);
    expect(q41.pairC8).toBeUndefined();
    // Kernels that take single blocks do not carry it.
    expect(q4.wgsl).not.toContain('wq_pair_c8');
    // q5_0: bit 4 of each quant from qh, the −16 taken per byte without borrows.
    expect(blockDecodeWgsl('q5_0', 0).wgsl).toContain('| 0x80808080u) - 269488144u) ^ 0x80808080u');
    // Part s of a nibble block: quant words 2(s & 1) and +1, high nibbles for s ≥ 2; q8_0's words 2s, 2s + 1.
    expect(q4.wgsl).toContain('let Wa = o + 2u + (s & 1u) * 8u;');
    expect(q4.wgsl).toContain('let ns = (s >> 1u) * 4u;');
    expect(q8.wgsl).toContain('let Wa = o + 2u + s * 8u;');
    // mxfp4's integer form: wq_block_c8 only (its codes are signed E2M1 ×2, no bias form to keep), quants 4t… from the low nibbles, 16 + 4t… from the high.
    expect(blockDecodeWgsl('mxfp4', 0)).toMatchObject({ integer: true, bias: 0, dot4Order: 'k', halves: false });
    expect(blockDecodeWgsl('mxfp4', 0).wgsl).not.toContain('wq_block_i8');
    expect(blockDecodeWgsl('mxfp4', 0).wgsl).toContain('let p2 = wq_e2m1x2_i8(r.qs[2]);\n  b.q[2] = p2.x;\n  b.q[6] = p2.y;');
    // mxfp4's E2M1 values computed, not a dynamically indexed const table (a per-thread local copy on some compilers).
    expect(blockDecodeWgsl('mxfp4', 0).wgsl).not.toContain('array<f32, 16>');
    expect(blockDecodeWgsl('mxfp4', 0).wgsl).toContain('b.q[0] = wq_e2m1x2(((vec4<u32>(r.qs[0]) >> vec4<u32>(0u, 8u, 16u, 24u)) & vec4<u32>(15u)));');
  });
});

describe("E2M1 through a workgroup table (mmvq's e2m1Decode 'table')", () => {
  it('holds 2·E2M1 of both nibbles of every byte as i8 in bytes 0 and 2: the codec for all 256 bytes, and the bit decode', () => {
    const t = e2m1x2Table();
    expect(t).toHaveLength(256);
    const i8 = (x: number) => (x << 24) >> 24;
    const bits = e2m1x2I8(blockDecodeWgsl('mxfp4', 0).wgsl);
    for (let b = 0; b < 256; b++) {
      const [lo, hi] = [2 * ELEMENTS.e2m1.decode(b & 15), 2 * ELEMENTS.e2m1.decode(b >> 4)];
      expect([i8(t[b] & 0xff), i8((t[b] >>> 16) & 0xff), t[b] & 0xff00ff00], `byte ${b}`).toEqual([lo === 0 ? 0 : lo, hi === 0 ? 0 : hi, 0]);
      // wq_e2m1x2_i8 of the byte alone: its low nibble in .x's byte 0, its high nibble in .y's byte 0.
      const [x, y] = bits(b);
      expect(t[b], `byte ${b}`).toBe(((x & 0xff) | ((y & 0xff) << 16)) >>> 0);
    }
    expect(E2M1_TABLE_BYTES).toBe(32768);
    expect(E2M1_TABLE_ORDER).toEqual({ k: 'k-lut', nib: 'nib-lut' });
  });

  it("the decode's calls become lookups (a shift and an and-or per byte, 32 lane copies), the fill computes the entries from the codec's constants; refused without E2M1 codes", () => {
    const nv = blockDecodeWgsl('nvfp4', 0, 'src0', { rows: 2, cols: 64 });
    expect(nv.e2m1).toBe(true);
    const { wgsl, fill } = e2m1TableDecode(nv.wgsl, 256);
    expect(wgsl).toContain('let p0 = wq_e2m1x2_lut(W0);');
    expect(wgsl).not.toMatch(/= wq_e2m1x2_i8\(/);
    // The bit decode stays defined (unused); the table and lane at module scope.
    expect(wgsl).toContain('fn wq_e2m1x2_i8(c: u32) -> vec2<u32> {');
    expect(wgsl).toContain('var<workgroup> wq_lut: array<u32, 8192>;');
    expect(wgsl).toContain('var<private> wq_lane: u32;');
    const lut = /fn wq_e2m1x2_lut\(c: u32\) -> vec2<u32> \{\n([\s\S]*?)\n\}/.exec(wgsl)![1];
    expect(lut).toBe(
      [
        '  let p0 = wq_lut[((c << 5u) & 0x1fe0u) | wq_lane];',
        '  let p1 = wq_lut[((c >> 3u) & 0x1fe0u) | wq_lane];',
        '  let p2 = wq_lut[((c >> 11u) & 0x1fe0u) | wq_lane];',
        '  let p3 = wq_lut[((c >> 19u) & 0x1fe0u) | wq_lane];',
        '  return vec2<u32>(p0 | (p1 << 8u), p2 | (p3 << 8u));',
      ].join('\n'),
    );
    expect(fill).toEqual([
      'wq_lane = lid & 31u;',
      'for (var b = lid; b < 256u; b = b + 256u) {',
      '  let e = wq_e2m1x2_nib(b & 15u) | (wq_e2m1x2_nib(b >> 4u) << 16u);',
      '  for (var j = 0u; j < 32u; j = j + 1u) {',
      '    wq_lut[(b << 5u) | ((j + lid) & 31u)] = e;',
      '  }',
      '}',
      'workgroupBarrier();',
    ]);
    // The fill as written, from its four constants, is the table; a lookup as written (any lane) gives X01, X23 = the bit
    // decode's even/odd bytes interleaved: [x0, x1, y0, y1], [x2, x3, y2, y3].
    const m = /select\(select\((\d+)u, (\d+)u, n >= 4u\), select\((\d+)u, (\d+)u, n >= 12u\), n >= 8u\)/.exec(wgsl)!;
    const k = m.slice(1, 5).map(Number);
    const nib = (n: number) => (k[n >> 2] >>> ((n & 3) * 8)) & 0xff;
    // The fill as written, by 64 threads: every word written once, with its entry.
    const table = new Array<number>(8192).fill(-1);
    for (let lid = 0; lid < 64; lid++)
      for (let b = lid; b < 256; b += 64)
        for (let j = 0; j < 32; j++) {
          const i = (b << 5) | ((j + lid) & 31);
          expect(table[i]).toBe(-1);
          table[i] = (nib(b & 15) | (nib(b >> 4) << 16)) >>> 0;
        }
    expect(table.filter((_, i) => i % 32 === 7)).toEqual(e2m1x2Table());
    const bits = e2m1x2I8(nv.wgsl);
    const byte = (w: number, j: number) => (w >>> (8 * j)) & 0xff;
    for (let i = 0, x = 777; i < 4000; i++) {
      const c = ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) ^ (x >>> 11)) >>> 0;
      const lane = i % 32;
      const p = [(c << 5) & 0x1fe0, (c >>> 3) & 0x1fe0, (c >>> 11) & 0x1fe0, (c >>> 19) & 0x1fe0].map((a) => table[a | lane]);
      const [x01, x23] = [(p[0] | (p[1] << 8)) >>> 0, (p[2] | (p[3] << 8)) >>> 0];
      const [ex, ey] = bits(c);
      expect([0, 1, 2, 3].map((j) => byte(x01, j)), c.toString(16)).toEqual([byte(ex, 0), byte(ex, 1), byte(ey, 0), byte(ey, 1)]);
      expect([0, 1, 2, 3].map((j) => byte(x23, j)), c.toString(16)).toEqual([byte(ex, 2), byte(ex, 3), byte(ey, 2), byte(ey, 3)]);
    }
    // ggml mxfp4 (its code words as r.qs[t]) and the vec4 form too; no E2M1 words, no table.
    expect(e2m1TableDecode(blockDecodeWgsl('mxfp4', 0).wgsl, 64).wgsl).toContain('let p0 = wq_e2m1x2_lut(r.qs[0]);');
    expect(e2m1TableDecode(blockDecodeWgsl('mxfp4_t1', 64, 'src0', { rows: 2, cols: 64 }).c8Vec4!, 64).wgsl).toContain('let p3 = wq_e2m1x2_lut(W3);');
    expect(blockDecodeWgsl('q4_0', 0).e2m1).toBe(false);
    expect(blockDecodeWgsl('int4', 0, 'src0', { rows: 2, cols: 64 }).e2m1).toBe(false);
    expect(() => e2m1TableDecode(blockDecodeWgsl('q4_0', 0).wgsl, 64)).toThrow('e2m1TableDecode: this block decode has no E2M1 code words');
  });
});
