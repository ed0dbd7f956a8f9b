// The bench's peer: TensorFlow.js's WebGPU backend (4.22.0, an optional dependency) through its
// public API, on the lab's own Dawn GPU object. Bundled on its own (dist-cli/peer-tfjs.mjs) and
// loaded by dynamic import after navigator.gpu is set, since the backend registers itself only
// when navigator.gpu exists at import time. Timing: tf.time()'s kernelMs — the GPU timestamps
// the backend writes around each of its compute passes (timestamp-query), summed over the
// kernels one matMul runs — per call, after warm-up; min/median/max over the calls.
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-webgpu';
import { prng } from '../core/hostdata';

export interface PeerTiming {
  readonly peer: string;
  readonly medianNs: number;
  readonly minNs: number;
  readonly maxNs: number;
  readonly runs: number;
  readonly method: string;
  /** Largest |out − ref| / Σ|a·b| over the sampled outputs (ref in f64 from the same inputs). */
  readonly maxRelErr: number;
  readonly checked: number;
}

let ready: Promise<void> | null = null;

async function backend(): Promise<void> {
  ready ??= (async () => {
    if (!(await tf.setBackend('webgpu'))) throw new Error('TensorFlow.js could not start its webgpu backend on this GPU');
    await tf.ready();
  })();
  return ready;
}

/** dst[n][m] = Σ_k src0[m][k]·src1[n][k] (MUL_MAT's layout): tf.matMul(src1, src0, false, true). */
export async function tfjsMatmul(M: number, N: number, K: number, runs = 50): Promise<PeerTiming> {
  await backend();
  const rand = prng(7);
  const a = new Float32Array(M * K).map(() => rand() * 2 - 1);
  const b = new Float32Array(N * K).map(() => rand() * 2 - 1);
  const ta = tf.tensor2d(a, [M, K]);
  const tb = tf.tensor2d(b, [N, K]);
  try {
    // Warm-up: uploads, shader compiles, clocks.
    for (let i = 0; i < 5; i++) {
      const c = tf.matMul(tb, ta, false, true);
      await c.data();
      c.dispose();
    }
    const samplesNs: number[] = [];
    for (let i = 0; i < runs; i++) {
      let c: tf.Tensor | null = null;
      const info = await tf.time(() => {
        c = tf.matMul(tb, ta, false, true);
      });
      (c as tf.Tensor | null)?.dispose();
      if (typeof info.kernelMs !== 'number' || !(info.kernelMs > 0)) throw new Error(`tf.time gave no kernel time (${JSON.stringify(info.kernelMs)}): the backend has no timestamp-query here`);
      samplesNs.push(info.kernelMs * 1e6);
    }
    const c = tf.matMul(tb, ta, false, true);
    const out = (await c.data()) as Float32Array;
    c.dispose();
    let maxRelErr = 0;
    const checked = Math.min(64, M * N);
    for (let s = 0; s < checked; s++) {
      const e = Math.floor((s * 2654435761) % (M * N));
      const n = Math.floor(e / M);
      const m = e % M;
      let ref = 0;
      let mag = 0;
      for (let k = 0; k < K; k++) {
        const p = a[m * K + k] * b[n * K + k];
        ref += p;
        mag += Math.abs(p);
      }
      maxRelErr = Math.max(maxRelErr, Math.abs(out[n * M + m] - ref) / (mag || 1));
    }
    const sorted = [...samplesNs].sort((x, y) => x - y);
    return {
      peer: `TensorFlow.js ${tf.version_core} webgpu`,
      medianNs: sorted[Math.floor(sorted.length / 2)],
      minNs: sorted[0],
      maxNs: sorted[sorted.length - 1],
      runs,
      method: 'tf.time kernelMs (GPU timestamps per compute pass, summed per matMul)',
      maxRelErr,
      checked,
    };
  } finally {
    ta.dispose();
    tb.dispose();
  }
}
