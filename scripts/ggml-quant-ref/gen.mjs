import { execFileSync } from 'node:child_process';
const types = ['q4_0','q4_1','q5_0','q5_1','q8_0','mxfp4'];
let s = 987654321;
const rnd = () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s / 2 ** 32; };
const out = {};
for (const t of types) {
  const x = new Float32Array(32 * 12);
  for (let b = 0; b < 12; b++) for (let j = 0; j < 32; j++) {
    const i = b * 32 + j;
    const kind = b % 4;
    // 0: uniform; 1: quarter-steps (ties for RNE vs roundf vs trunc); 2: one outlier; 3: tiny/huge scales
    x[i] = kind === 0 ? rnd() * 2 - 1 : kind === 1 ? Math.round((rnd() * 2 - 1) * 32) / 4 : kind === 2 ? (j === 7 ? -50 : rnd() - 0.5) : (rnd() - 0.5) * 2 ** (b * 6 - 40);
  }
  const bits = Array.from(new Uint32Array(x.buffer), (u) => u.toString(16));
  const [bytes, deq] = execFileSync('./harness', [t, String(x.length)], { input: bits.join(' ') }).toString().trim().split('\n');
  out[t] = { input: bits.join(' '), bytes, dequant: deq.trim() };
}
process.stdout.write(JSON.stringify(out, null, 1) + '\n');
