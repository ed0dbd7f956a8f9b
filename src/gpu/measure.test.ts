import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../core/adapter';
import type { GpuContext } from './device';
import { FULL_WARMUP_MS, IDLE_RESET_MS, SETTLE_WARMUP_MS, warmupFor } from './measure';

const ctx = (isFallbackAdapter: boolean, lastGpuBusyMs: number) =>
  ({ adapter: { isFallbackAdapter, limits: DEFAULT_LIMITS }, lastGpuBusyMs }) as unknown as GpuContext;

describe('warm-up before timing', () => {
  it('warms an idle GPU up in full, and lets a busy one only settle', () => {
    expect(warmupFor(ctx(false, -Infinity), 0)).toBe(FULL_WARMUP_MS);
    expect(warmupFor(ctx(false, 1000), 1000 + IDLE_RESET_MS + 1)).toBe(FULL_WARMUP_MS);
    expect(warmupFor(ctx(false, 1000), 1000 + IDLE_RESET_MS - 1)).toBe(SETTLE_WARMUP_MS);
  });

  it('never warms up a software adapter (a CPU: no GPU clocks to wake)', () => {
    expect(warmupFor(ctx(true, -Infinity), 0)).toBe(0);
  });
});
