import { describe, expect, it } from 'vitest';
import { opByName } from '../ops/registry';
import { caseOf } from '../resolve-kernel';
import { inBand, nextIterations, PLANT_MAX_ITERATIONS, plantedProgram, plantedWgsl, plantShape, plantSizeText, refusal } from './plant';

describe('a planted slowdown inside the kernel', () => {
  it('runs the chain first in the entry point and declares its sink at the next free binding', () => {
    const add = opByName('ADD');
    const native = add.native(caseOf(add, { dims: [1024, 64], layout: 'contiguous' }));
    const p = plantedProgram(native, 1.05, 300 * 256);
    const pass = p.passes[0];
    expect(pass.dispatch).toEqual(native.dispatch);
    expect(p.scratch).toEqual([{ name: 'plant', sizeBytes: 16 }]);
    const sink = Math.max(...native.bindings.map((b) => b.binding)) + 1;
    expect(pass.bindings.at(-1)).toEqual({ binding: sink, role: 'scratch', buffer: 'plant', access: 'read_write' });
    expect(pass.wgsl).toContain(`@group(0) @binding(${sink}) var<storage, read_write> kl_plant_sink: array<u32>;`);
    expect(pass.wgsl).toContain('const KL_PLANT_ITERS: u32 = 300u;');
    expect(pass.wgsl).toContain('if ((wid.x + wid.y + wid.z) % 1u != 0u) { return; }');
    // The call is the body's first statement, with the workgroup id the kernel already names.
    expect(pass.wgsl).toMatch(/fn main\([^{]*@builtin\(workgroup_id\) wid[^{]*\)\s*\{\n {2}kl_plant\(wid\);/);
    // Everything else is the native source, unchanged.
    expect(pass.wgsl.replace(/\n {2}kl_plant\(wid\);/, '').startsWith(native.wgsl)).toBe(true);
    expect(p.label).toBe(`${native.label} (planted 1.05× slowdown control, 300 ALU rounds of its own dispatch)`);
  });

  it('plants less than a round in every Nth workgroup, and adds the workgroup id where the kernel has none', () => {
    expect(plantShape(256 * 7 + 100)).toEqual({ rounds: 7, everyNthWorkgroup: 1 });
    expect(plantShape(64)).toEqual({ rounds: 1, everyNthWorkgroup: 4 });
    expect(plantShape(1)).toEqual({ rounds: 1, everyNthWorkgroup: 256 });
    expect(plantSizeText(3)).toBe('1 ALU round in every 85th workgroup');
    const wgsl = '@compute @workgroup_size(1)\nfn main(@builtin(local_invocation_index) lid: u32) { }';
    expect(plantedWgsl(wgsl, 'main', 2, 64)).toMatch(/fn main\(@builtin\(workgroup_id\) kl_wid: vec3<u32>, @builtin\(local_invocation_index\) lid: u32\) \{\n {2}kl_plant\(kl_wid\);/);
    expect(plantedWgsl('fn main() {}', 'main', 0, 64)).toMatch(/fn main\(@builtin\(workgroup_id\) kl_wid: vec3<u32>\) \{/);
  });

  it('finds the body past nested parentheses and a return type, and refuses a missing entry point', () => {
    const wgsl = '@compute @workgroup_size(64)\nfn go(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) n: vec3<u32>) { let x = (1u + (2u)); }';
    expect(plantedWgsl(wgsl, 'go', 3, 5)).toMatch(/vec3<u32>\) \{\n {2}kl_plant\(kl_wid\); let x = \(1u \+ \(2u\)\);/);
    expect(() => plantedWgsl(wgsl, 'main', 3, 5)).toThrow(/entry point 'main' not found/);
    expect(() => plantedWgsl(wgsl, 'go', 3, 1.5)).toThrow(/integer in \[1, /);
  });
});

describe('sizing the plant from measurements', () => {
  it('accepts a ratio within ±1 point of the factor', () => {
    expect(inBand(1.029, 1.02)).toBe(true);
    expect(inBand(1.01, 1.02)).toBe(true);
    expect(inBand(1.031, 1.02)).toBe(false);
    expect(inBand(1.0, 1.02)).toBe(false);
  });

  it('grows the chain 8× while the plant is invisible, then scales it by the measured excess', () => {
    expect(nextIterations([{ iterations: 64, ratio: 1.001 }], 1.05)).toBe(512);
    // 512 rounds gave 1.10 for a 1.05 target: half the excess, half the rounds.
    expect(nextIterations([{ iterations: 64, ratio: 1.001 }, { iterations: 512, ratio: 1.1 }], 1.05)).toBe(256);
    expect(nextIterations([{ iterations: 100, ratio: 1.01 }], 1.02)).toBe(200);
  });

  it('bisects inside the bracket when the scaling leaves it (ALU hidden under memory stalls)', () => {
    // 100 → 1.01 (below), 400 → 1.04 (above); scaling 400 by 0.5 gives 200, inside (100, 400).
    expect(nextIterations([{ iterations: 100, ratio: 1.01 }, { iterations: 400, ratio: 1.04 }], 1.02)).toBe(200);
    // A knee: 100 → 1.003 (below), 800 → 1.5 (above): scaling gives 32, outside; geometric middle 283.
    expect(nextIterations([{ iterations: 100, ratio: 1.003 }, { iterations: 800, ratio: 1.5 }], 1.02)).toBe(283);
  });

  it('bisects when the scaled size rounds onto one already tried (SwiftShader, 2026-12-02)', () => {
    const seen = [{ iterations: 64, ratio: 1.457 }, { iterations: 28, ratio: 1.892 }, { iterations: 6, ratio: 1.071 }, { iterations: 17, ratio: 1.546 }];
    // 17 · 0.2 / 0.546 = 6.2 rounds onto 6: the middle of (6, 17) instead.
    expect(nextIterations(seen, 1.2)).toBe(10);
  });

  it('gives up when nothing new is left to try, and never passes the longest chain', () => {
    expect(nextIterations([{ iterations: 1, ratio: 1.08 }], 1.02)).toBeNull();
    expect(nextIterations([{ iterations: 2, ratio: 1.01 }, { iterations: 3, ratio: 1.04 }], 1.02)).toBeNull();
    expect(nextIterations([{ iterations: PLANT_MAX_ITERATIONS / 4, ratio: 1.0 }], 1.5)).toBe(PLANT_MAX_ITERATIONS);
  });

  it('refuses with the smallest plantable factor when one round already overshoots', () => {
    const r = refusal([{ iterations: 64, ratio: 1.9 }, { iterations: 1, ratio: 1.034 }], 1.02);
    expect(r.smallestFactor).toBe(1.04);
    expect(r.refused).toMatch(/the smallest plant \(one ALU round in every 256th workgroup\) already measures 1\.034×; the smallest factor plantable here is 1\.04×/);
  });

  it('refuses without a factor when the measurement scatters past the band', () => {
    const r = refusal([{ iterations: 100, ratio: 1.0 }, { iterations: 120, ratio: 1.06 }, { iterations: 110, ratio: 1.0 }], 1.02);
    expect(r.smallestFactor).toBeNull();
    expect(r.refused).toMatch(/did not measure within ±1 point in 3 measurements \(plant size → ratio: 100 → 1\.000×, 120 → 1\.060×, 110 → 1\.000×\)/);
  });
});
