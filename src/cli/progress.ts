// Progress on stderr: one rewritten line on a terminal, a line every few seconds otherwise; at
// -v (verbosity ≥ 1) a line for every step.
import type { Progress } from '../worker/api';

export function progressPrinter(stream: NodeJS.WriteStream = process.stderr, verbosity = 0): { update: (p: Progress) => void; done: () => void } {
  let lastPrint = 0;
  let lastLabel = '';
  let wrote = false;
  const fmt = (p: Progress) => `[${(p.fraction * 100).toFixed(0).padStart(3)}%] ${p.label}${p.etaMs !== null && p.fraction < 1 ? `  ~${Math.ceil(p.etaMs / 1000)} s left` : ''}`;
  return {
    update: (p) => {
      const now = Date.now();
      if (verbosity >= 1) {
        if (p.label !== lastLabel) stream.write(`${fmt(p)}\n`);
        lastLabel = p.label;
      } else if (stream.isTTY) {
        stream.write(`\r\x1b[2K${fmt(p)}`);
        wrote = true;
      } else if (now - lastPrint > 5000 || p.fraction >= 1) {
        stream.write(`${fmt(p)}\n`);
        lastPrint = now;
      }
    },
    done: () => {
      if (wrote) stream.write('\r\x1b[2K');
    },
  };
}
