import { execFileSync } from 'node:child_process';
let s = 24681357;
const rnd = () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s / 2 ** 32; };
const out = {};
for (const t of ['q4_k', 'q5_k', 'q6_k']) {
  const x = new Float32Array(256 * 3);
  for (let i = 0; i < x.length; i++) {
    const b = i >> 8;
    // super-block 0: uniform; 1: skewed positive with an outlier; 2: tiny scale
    x[i] = b === 0 ? rnd() * 2 - 1 : b === 1 ? (i % 97 === 0 ? -9 : rnd() * 3 + 0.5) : (rnd() - 0.5) * 2 ** -12;
  }
  const bits = Array.from(new Uint32Array(x.buffer), (u) => u.toString(16));
  const [bytes, deq] = execFileSync('./harness-k', [t, String(x.length)], { input: bits.join(' ') }).toString().trim().split('\n');
  out[t] = { bytes, dequant: deq.trim() };
}
process.stdout.write(JSON.stringify(out, null, 1) + '\n');
