// Plain-text renderings for the CLI.
import { adapterName, type AdapterDescriptor } from '../adapter';
import type { UserKernelRef } from '../manifest/source';
import type { Level1Result } from '../results';
import type { Calibration, Metrics } from '../metrics/roofline';
import { specFor } from '../metrics/spec-table';
import { NOISY_SPREAD } from '../stats/timing';
import { fmtExp, fmtGBps, fmtGflops, fmtNs, fmtPctOfPeak } from './format';

/** "4.21 TB/s (88% BW) · — GFLOP/s · memory-bound [spec]" */
export function metricsLine(m: Metrics | null): string {
  if (!m) return '—';
  const bw = fmtGBps(m.gbps);
  const fl = m.gflops === null ? '' : `  ${fmtGflops(m.gflops)}`;
  const pBw = m.pctPeakBw === null ? '' : ` (${fmtPctOfPeak(m.pctPeakBw)} of peak BW)`;
  const pFl = m.pctPeakFlops === null ? '' : ` (${fmtPctOfPeak(m.pctPeakFlops)} of peak FLOP)`;
  const ai = m.arithmeticIntensity === null ? '' : `  AI ${m.arithmeticIntensity.toFixed(2)} flop/B`;
  return `${bw}${pBw}${fl}${pFl}${ai}  ${m.bottleneck ?? 'bottleneck: — (no peaks for this adapter)'}${m.peakSource ? ` [peaks: ${m.peakSource}]` : ''}`;
}

/** One cell: the rate that matters for the op (GFLOP/s where it has flops), its %-of-peak, the verdict. */
export function compactMetrics(m: Metrics | null): string {
  if (!m) return '—';
  const rate = m.gflops !== null ? fmtGflops(m.gflops) : fmtGBps(m.gbps);
  const pct = m.gflops !== null ? m.pctPeakFlops : m.pctPeakBw;
  return `${rate}${pct === null ? '' : ` ${fmtPctOfPeak(pct)}`}${m.bottleneck ? ` ${m.bottleneck}` : ''}`;
}

export function formatPeaks(a: AdapterDescriptor, c: Calibration | null): string {
  const spec = specFor(a);
  const lines = [
    spec
      ? `spec peaks   ${spec.name}: ${spec.bandwidthGBps} GB/s, f32 ${(spec.f32Gflops / 1000).toFixed(1)} TFLOP/s${spec.f16Gflops ? `, f16 ${(spec.f16Gflops / 1000).toFixed(1)} TFLOP/s` : ''} (${spec.source})`
      : `spec peaks   — (${a.isFallbackAdapter ? 'software adapter' : 'adapter not in the spec table'})`,
    c
      ? `measured     copy ${fmtGBps(c.copyGBps)}${c.copySpread !== undefined ? ` (spread ${(100 * c.copySpread).toFixed(1)}%${c.copySpread > 0.03 ? ', unreliable' : ''})` : ''}, f32 FMA ${fmtGflops(c.f32Gflops)}${c.f16Gflops ? `, f16 FMA ${fmtGflops(c.f16Gflops)}` : ''}${c.int8Gops ? `, int8 dot ${(c.int8Gops / 1000).toFixed(1)} TOPS` : ''}, empty dispatch ${fmtNs(c.emptyDispatchNs)} (${c.measuredAt})`
      : 'measured     — (run `npm run lab -- device --calibrate`)',
  ];
  if (spec && c) lines.push(`             measured/spec: copy ${fmtPctOfPeak((100 * c.copyGBps) / spec.bandwidthGBps)}, f32 FMA ${fmtPctOfPeak((100 * c.f32Gflops) / spec.f32Gflops)}${c.f16Gflops && spec.f16Gflops ? `, f16 FMA ${fmtPctOfPeak((100 * c.f16Gflops) / spec.f16Gflops)}` : ''}`);
  return lines.join('\n');
}

export function formatAdapter(a: AdapterDescriptor): string {
  const lines = [
    `adapter      ${adapterName(a)}`,
    `vendor       ${a.vendor || '—'}`,
    `architecture ${a.architecture || '—'}`,
    `device       ${a.device || '—'}`,
    `description  ${a.description || '—'}`,
    `fallback     ${a.isFallbackAdapter ? 'yes (software: never read its timings as GPU numbers)' : 'no'}`,
    `subgroups    ${a.subgroupMinSize ? `${a.subgroupMinSize}–${a.subgroupMaxSize}` : '—'}`,
    `features     ${a.features.join(', ')}`,
    'limits',
    ...Object.entries(a.limits).map(([k, v]) => `  ${k.padEnd(36)} ${v}`),
  ];
  return lines.join('\n');
}

/** "manifest sha256 3f2a…; add.wgsl sha256 9c01…": which files, exactly, were run. */
export function userKernelHashes(k: UserKernelRef): string {
  return [...(k.variant ? [`variant ${k.variant}`] : []), ...(k.numerics ? [k.numerics] : []), `manifest sha256 ${k.manifestSha256}`, ...k.wgsl.map((w) => `${w.file} sha256 ${w.sha256}`)].join('; ');
}

export function formatLevel1(r: Level1Result): string {
  const head = `${r.op} ${r.label}  ${r.variant}${r.scheduleKey ? ` ${r.scheduleKey}` : ''}${r.userKernel ? ` ${r.userKernel.id}` : ''}`;
  const lines = [head, `adapter   ${adapterName(r.adapter)}`];
  if (r.userKernel) lines.push(`kernel    ${userKernelHashes(r.userKernel)}`);
  if (r.fallback) lines.push(`fallback  native: ${r.fallback.code} (${r.fallback.reason})`);
  const c = r.correctness;
  if (r.watchdog) lines.push(`verdict   too-slow  ${r.watchdog.note}`);
  if (c.worstRatio === null) {
    // The watchdog ended the check's own run: nothing was compared, nothing timed.
    lines.push(`correct   not decided: the check's run did not finish`, 'timing    not read');
    return lines.join('\n');
  }
  lines.push(
    `correct   ${r.correct ? 'yes' : 'NO'}  maxErr ${fmtExp(r.maxErr)}  bound ${fmtExp(r.bound)}  worst err/bound ${c.worstRatio.toFixed(3)}  (${c.checked === c.elements ? `${c.elements} elements` : `${c.checked} sampled of ${c.elements} elements; all checked for NaN/Inf`})`,
  );
  if (!r.correct) {
    lines.push(`          out of bound ${c.outOfBound}, non-finite ${c.nonFinite}, guard bytes changed ${c.guardViolations}`);
    c.failures.forEach((f) => lines.push(`          ${f}`));
    // A wrong kernel is timed only on request (--time-incorrect: an ablation's cost), and says so first.
    if (!r.timing) lines.push('timing    not read: a wrong kernel is never timed');
    else lines.push('diagnosis a WRONG kernel timed on request (--time-incorrect): what it costs, never a verdict', ...timingLines(r));
  } else if (r.watchdog) {
    lines.push('timing    not read: the watchdog ended the timed runs');
  } else if (r.timing) {
    lines.push(...timingLines(r));
  }
  return lines.join('\n');
}

/** The timing and metrics lines of a timed result. */
function timingLines(r: Level1Result): string[] {
  const t = r.timing!;
  return [
    `timing    min ${fmtNs(t.minNs)}${t.p20Ns !== undefined ? `  p20 ${fmtNs(t.p20Ns)}` : ''}  median ${fmtNs(t.medianNs)}${t.p80Ns !== undefined ? `  p80 ${fmtNs(t.p80Ns)}` : ''}  max ${fmtNs(t.maxNs)}  runs ${t.runs}  resolution ${fmtNs(t.resolutionNs)}  method ${t.method}${t.spanShort ? '  (span < 100× resolution: run cap reached)' : ''}${t.noisy ? `  NOISY: (p80 − p20) / median over ${100 * NOISY_SPREAD}%` : ''}`,
    `          ${t.note}`,
    `metrics   ${metricsLine(r.metrics)}`,
  ];
}
