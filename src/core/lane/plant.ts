// Planted slowdowns that are what they say: the native kernel with a calibrated chain of
// dependent ALU work run inside its own dispatch (no second dispatch: that cannot be smaller than
// one dispatch's fixed cost, ≈ 9.5 µs on the H200, and a fraction of a row or matmul grid is not
// that fraction of its time — 1.02× plants measured 1.19–1.94× there). The output is untouched:
// the chain only ever writes a sink no oracle reads, and only when an xorshift reaches 0, which it
// never does from a nonzero seed (the compiler cannot know, so the chain is not optimised away).
// The search for the chain's length is pure; the GPU layer measures (src/gpu/plant.ts).
import type { KernelSpec } from '../kernel';
import type { KernelProgram } from '../program';

/** A planted factor F must measure within F ± this (one percentage point of the kernel's time). */
export const PLANT_BAND = 0.01;
/** Measurements before a plant is refused. */
export const PLANT_MAX_ATTEMPTS = 8;
/**
 * The plant's size is counted in units of 1/PLANT_UNITS_PER_ROUND of one xorshift round per
 * invocation: at or above one round every workgroup runs round(units / 256) rounds; below it one
 * round runs in every (256 / units)-th workgroup only. One whole round was too coarse where an
 * invocation does little (one round cost ADD 30% on SwiftShader).
 */
export const PLANT_UNITS_PER_ROUND = 256;
/** The first size tried when nothing is known about the kernel: a quarter round. */
export const PLANT_FIRST_ITERATIONS = 64;
/** The largest plant (2¹⁶ rounds per invocation): past it a factor is out of reach. */
export const PLANT_MAX_ITERATIONS = PLANT_UNITS_PER_ROUND << 16;

/** '12 ALU rounds', or '1 ALU round in every 4th workgroup'. */
export function plantSizeText(units: number): string {
  const { rounds, everyNthWorkgroup } = plantShape(units);
  return `${rounds} ALU round${rounds === 1 ? '' : 's'}${everyNthWorkgroup > 1 ? ` in every ${everyNthWorkgroup}th workgroup` : ''}`;
}

/** Rounds per planted workgroup and the workgroup stride of a plant of `units`. */
export function plantShape(units: number): { rounds: number; everyNthWorkgroup: number } {
  if (units >= PLANT_UNITS_PER_ROUND) return { rounds: Math.round(units / PLANT_UNITS_PER_ROUND), everyNthWorkgroup: 1 };
  return { rounds: 1, everyNthWorkgroup: Math.max(1, Math.round(PLANT_UNITS_PER_ROUND / units)) };
}
/** Below this measured excess a plant is not yet visible: the chain grows 8× instead of by ratio. */
const PLANT_VISIBLE = 0.002;

const SINK = 'kl_plant_sink';
const ITERS = 'KL_PLANT_ITERS';

/** Where the entry point's body opens: the first `{` after its parameter list. */
function bodyStart(wgsl: string, entryPoint: string): number {
  const m = new RegExp(`\\bfn\\s+${entryPoint}\\s*\\(`).exec(wgsl);
  if (!m) throw new Error(`entry point '${entryPoint}' not found in the kernel's WGSL`);
  let depth = 1;
  let i = m.index + m[0].length;
  for (; i < wgsl.length && depth > 0; i++) {
    if (wgsl[i] === '(') depth++;
    else if (wgsl[i] === ')') depth--;
  }
  const brace = wgsl.indexOf('{', i);
  if (brace < 0) throw new Error(`entry point '${entryPoint}' has no body`);
  return brace + 1;
}

/**
 * The entry point's workgroup id: the name it already gives `@builtin(workgroup_id)`, or a
 * parameter added for it (a builtin may be declared once).
 */
function workgroupId(wgsl: string, entryPoint: string): { wgsl: string; name: string } {
  const end = bodyStart(wgsl, entryPoint);
  const m = new RegExp(`\\bfn\\s+${entryPoint}\\s*\\(`).exec(wgsl)!;
  const declared = /@builtin\s*\(\s*workgroup_id\s*\)\s*(\w+)\s*:/.exec(wgsl.slice(m.index, end));
  if (declared) return { wgsl, name: declared[1] };
  const at = m.index + m[0].length;
  const empty = /^\s*\)/.test(wgsl.slice(at));
  return { wgsl: `${wgsl.slice(0, at)}@builtin(workgroup_id) kl_wid: vec3<u32>${empty ? '' : ', '}${wgsl.slice(at)}`, name: 'kl_wid' };
}

/** The WGSL of a kernel with a plant of `units` (see PLANT_UNITS_PER_ROUND) run first in its entry point. */
export function plantedWgsl(wgsl: string, entryPoint: string, sinkBinding: number, units: number): string {
  if (!Number.isInteger(units) || units < 1 || units > PLANT_MAX_ITERATIONS) throw new Error(`a plant's size must be an integer in [1, ${PLANT_MAX_ITERATIONS}], got ${units}`);
  const { rounds, everyNthWorkgroup } = plantShape(units);
  const wid = workgroupId(wgsl, entryPoint);
  const at = bodyStart(wid.wgsl, entryPoint);
  const decl = [
    '',
    `// kernel-lab planted slowdown: ${rounds} rounds of dependent ALU work per invocation, in every ${everyNthWorkgroup === 1 ? '' : `${everyNthWorkgroup}th `}workgroup.`,
    `@group(0) @binding(${sinkBinding}) var<storage, read_write> ${SINK}: array<u32>;`,
    `const ${ITERS}: u32 = ${rounds}u;`,
    'fn kl_plant(wid: vec3<u32>) {',
    // Workgroup-uniform: the kernel's own barriers stay in uniform control flow.
    `  if ((wid.x + wid.y + wid.z) % ${everyNthWorkgroup}u != 0u) { return; }`,
    // Seeded from a buffer zeroed at run time: the compiler cannot fold the chain.
    `  var x = ${SINK}[0] ^ 0x9e3779b9u;`,
    `  for (var i = 0u; i < ${ITERS}; i++) {`,
    '    x ^= x << 13u;',
    '    x ^= x >> 17u;',
    '    x ^= x << 5u;',
    '  }',
    // xorshift never reaches 0 from a nonzero seed: never written, but the chain stays live.
    `  if (x == 0u) { ${SINK}[1] = x; }`,
    '}',
    '',
  ].join('\n');
  return `${wid.wgsl.slice(0, at)}\n  kl_plant(${wid.name});${wid.wgsl.slice(at)}${decl}`;
}

/** The binding numbers a WGSL source declares (the sink takes the next free one). */
function nextBinding(kernel: KernelSpec): number {
  const declared = [...kernel.wgsl.matchAll(/@binding\s*\(\s*(\d+)\s*\)/g)].map((m) => Number(m[1]));
  return Math.max(-1, ...declared, ...kernel.bindings.map((b) => b.binding)) + 1;
}

/** The native kernel with the planted chain, as a program of one pass with its sink as scratch. */
export function plantedProgram(native: KernelSpec, factor: number, iterations: number): KernelProgram {
  const sink = nextBinding(native);
  const label = `${native.label} (planted ${factor}× slowdown control, ${plantSizeText(iterations)} of its own dispatch)`;
  return {
    label,
    passes: [
      {
        label,
        wgsl: plantedWgsl(native.wgsl, native.entryPoint, sink, iterations),
        entryPoint: native.entryPoint,
        bindings: [...native.bindings, { binding: sink, role: 'scratch', buffer: 'plant', access: 'read_write' }],
        dispatch: native.dispatch,
        ...(native.uniforms ? { uniforms: native.uniforms } : {}),
        ...(native.features ? { features: native.features } : {}),
      },
    ],
    scratch: [{ name: 'plant', sizeBytes: 16 }],
    explicitLayout: false,
  };
}

export interface PlantAttempt {
  readonly iterations: number;
  /** planted ÷ native, Level 1 medians measured alternately. */
  readonly ratio: number;
}

/** Whether a measured ratio is the planted factor, within the band. */
export const inBand = (ratio: number, factor: number) => Math.abs(ratio - factor) <= PLANT_BAND + 1e-12;

/**
 * The next chain length after these attempts (null: give up): grow 8× while the plant is not yet
 * visible, else scale the last length by how far it fell from F, kept strictly inside the bracket
 * of lengths known to land below and above F (bisected geometrically when the scaling leaves it:
 * ALU work hides under a memory-bound kernel's stalls until it does not, so time is not linear).
 */
export function nextIterations(attempts: readonly PlantAttempt[], factor: number): number | null {
  const last = attempts[attempts.length - 1];
  const below = attempts.filter((a) => a.ratio < factor).map((a) => a.iterations);
  const above = attempts.filter((a) => a.ratio > factor).map((a) => a.iterations);
  const lo = below.length ? Math.max(...below) : 0;
  const hi = above.length ? Math.min(...above) : Infinity;
  const tried = (n: number) => attempts.some((a) => a.iterations === n);
  const size = (x: number) => Math.min(PLANT_MAX_ITERATIONS, Math.max(1, Math.round(x)));
  const inside = (n: number) => n > lo && n < hi && !tried(n);
  const scaled = size(last.ratio - 1 <= PLANT_VISIBLE ? last.iterations * 8 : (last.iterations * (factor - 1)) / (last.ratio - 1));
  if (inside(scaled) || (!Number.isFinite(hi) && !tried(scaled) && scaled > lo)) return scaled;
  if (!Number.isFinite(hi)) return tried(size(lo * 2)) ? null : size(lo * 2);
  // Rounded onto a size tried, or out of the bracket: its geometric middle.
  const middle = size(Math.sqrt(Math.max(lo, 1) * hi));
  // Nothing left between the sizes tried: another measurement would repeat one.
  return inside(middle) || (lo === 0 && middle === 1 && !tried(1)) ? middle : null;
}

/** What a planted control came to on one shape: asked, measured (verified), or refused. */
export interface PlantRecord {
  readonly askedFactor: number;
  /** The verifying measurement's ratio (null when refused). */
  readonly measuredFactor: number | null;
  /** The plant's size in units of 1/PLANT_UNITS_PER_ROUND round per invocation (null when refused). */
  readonly iterations: number | null;
  readonly attempts: number;
  /** Why the shape is refused as a control (null when planted). */
  readonly refused: string | null;
  /** The smallest factor this shape can take within the band, when that is what refused it. */
  readonly smallestFactor: number | null;
}

/**
 * Why F could not be planted from these attempts, and the smallest factor that could: when the
 * shortest chain tried already overshoots F by more than the band (a kernel too short for F),
 * that chain's ratio, rounded up to the hundredth; when lengths landed on both sides of F without
 * one inside the band, the measurement itself scatters by more than the band: no factor is
 * verifiable there (null).
 */
export function refusal(attempts: readonly PlantAttempt[], factor: number): { refused: string; smallestFactor: number | null } {
  const fmt = (x: number) => `${x.toFixed(3)}×`;
  const shortest = attempts.reduce((a, b) => (b.iterations < a.iterations ? b : a));
  if (shortest.ratio > factor + PLANT_BAND && shortest.iterations <= 1) {
    const smallest = Math.ceil(shortest.ratio * 100) / 100;
    return { refused: `a planted ${factor}× cannot be placed within ±${100 * PLANT_BAND} point: the smallest plant (one ALU round in every ${PLANT_UNITS_PER_ROUND}th workgroup) already measures ${fmt(shortest.ratio)}; the smallest factor plantable here is ${smallest}×`, smallestFactor: smallest };
  }
  const seen = attempts.map((a) => `${a.iterations} → ${fmt(a.ratio)}`).join(', ');
  const longest = attempts.reduce((a, b) => (b.iterations > a.iterations ? b : a));
  if (longest.ratio < factor - PLANT_BAND && longest.iterations >= PLANT_MAX_ITERATIONS) return { refused: `a planted ${factor}× is out of reach: the longest chain measures ${fmt(longest.ratio)} (${seen})`, smallestFactor: null };
  return { refused: `a planted ${factor}× did not measure within ±${100 * PLANT_BAND} point in ${attempts.length} measurements (plant size → ratio: ${seen}): the measurement scatters by more than the band here`, smallestFactor: null };
}
