// `device [--calibrate]`: adapter info, limits, features, spec and measured peaks.
import { adapterFingerprint } from '../../core/adapter';
import type { Calibration } from '../../core/metrics/roofline';
import { specFor } from '../../core/metrics/spec-table';
import { formatAdapter, formatPeaks } from '../../core/report/text';
import { loadCalibration } from '../calibration-cache';
import { progressPrinter } from '../progress';
import { cliOf, output, parse, withLab } from './args';

export async function cmdDevice(argv: string[]): Promise<number> {
  const v = parse(argv, { calibrate: { type: 'boolean' } });
  const cli = cliOf(v);
  const out = output(v.json as string | undefined);
  return withLab(cli, async (lab, adapter) => {
    let calibration: Calibration | null = v.runtime === 'node' ? loadCalibration(adapterFingerprint(adapter)) : null;
    if (v.calibrate) {
      const progress = progressPrinter(process.stderr, cli.verbosity);
      calibration = await lab.calibrate(progress.update);
      progress.done();
    }
    out.text(`${formatAdapter(adapter)}\n${formatPeaks(adapter, calibration)}`);
    if (calibration && v.calibrate) out.text(calibration.details.map((d) => `  ${d}`).join('\n'));
    out.json({ kind: 'device', adapter, spec: specFor(adapter), calibration });
    return 0;
  });
}
