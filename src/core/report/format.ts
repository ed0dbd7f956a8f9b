// Number formatting shared by the page, the CLI and the markdown: units always printed.

/** 1234 → "1.23 µs", 65536 → "65.5 µs", 2.5e6 → "2.50 ms". */
export function fmtNs(ns: number | null | undefined): string {
  if (ns === null || ns === undefined || !Number.isFinite(ns)) return '—';
  if (ns < 1e3) return `${ns.toFixed(0)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toPrecision(3)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toPrecision(3)} ms`;
  return `${(ns / 1e9).toPrecision(3)} s`;
}

/** µs with fixed decimals for tables: 123.4 */
export function fmtUs(ns: number | null | undefined, digits = 1): string {
  if (ns === null || ns === undefined || !Number.isFinite(ns)) return '—';
  return (ns / 1e3).toFixed(digits);
}

export function fmtBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toPrecision(3)} ${units[i]}`;
}

export function fmtRatio(x: number | null | undefined, digits = 2): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  return x.toFixed(digits);
}

export function fmtExp(x: number | null | undefined): string {
  if (x === null || x === undefined || Number.isNaN(x)) return '—';
  return x === 0 ? '0' : x.toExponential(2);
}

/** A plain-text table with right-aligned numeric columns. */
export function textTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((r) => /^[-+0-9.,—×x%µ\s\[\]–]*$/.test(r[i] ?? '')));
  const line = (cells: readonly string[]) => cells.map((c, i) => (numeric[i] ? (c ?? '').padStart(widths[i]) : (c ?? '').padEnd(widths[i]))).join('  ').trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** GB/s → "4.21 TB/s" or "512.3 GB/s" or "0.52 GB/s". */
export function fmtGBps(gbps: number | null | undefined): string {
  if (gbps === null || gbps === undefined || !Number.isFinite(gbps)) return '—';
  if (gbps >= 1000) return `${(gbps / 1000).toFixed(2)} TB/s`;
  return `${gbps >= 10 ? gbps.toFixed(1) : gbps.toPrecision(2)} GB/s`;
}

/** GFLOP/s → "27.49 TFLOP/s" or "812.0 GFLOP/s" or "2.4 GFLOP/s". */
export function fmtGflops(gflops: number | null | undefined): string {
  if (gflops === null || gflops === undefined || !Number.isFinite(gflops)) return '—';
  if (gflops >= 1000) return `${(gflops / 1000).toFixed(2)} TFLOP/s`;
  return `${gflops >= 10 ? gflops.toFixed(1) : gflops.toPrecision(2)} GFLOP/s`;
}

/**
 * A percentage of a peak. Past 100% the measured rate beat the ceiling it is judged against, so
 * the ceiling (a spec or a calibration) is what is wrong: the text says so instead of a bare 132%.
 */
export function fmtPctOfPeak(pct: number | null | undefined): string {
  if (pct === null || pct === undefined || !Number.isFinite(pct)) return '—';
  const text = `${pct.toFixed(pct < 10 ? 1 : 0)}%`;
  return pct > 100 ? `${text} (over the peak: the peak is unreliable)` : text;
}
