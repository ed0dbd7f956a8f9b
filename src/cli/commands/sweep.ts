// `sweep --op OP`: the offline schedule search; prints a proposal, writes nothing.
import { UsageError } from '../../core/errors';
import { opByName } from '../../core/ops/registry';
import { parseShapeList } from '../../core/ops/shape-specs';
import { defaultSweepShapes, opFamilies } from '../../core/ops/types';
import { sweepJson } from '../../core/report/json';
import { formatSweep } from '../../core/report/sweep-text';
import { parseOpSpace } from '../../core/schedule/schedule';
import { keepMatching, parseFilter } from '../filter';
import { progressPrinter } from '../progress';
import { cliOf, countOpt, intOption, output, paramOptions, parse } from './args';

export async function cmdSweep(argv: string[]): Promise<number> {
  const v = parse(argv, {
    op: { type: 'string' },
    reps: countOpt('reps'),
    shapes: { type: 'string' },
    param: { type: 'string', multiple: true },
    space: { type: 'string' },
    seed: countOpt('seed'),
    filter: { type: 'string' },
  });
  const cli = cliOf(v);
  if (!v.op) throw new UsageError('sweep needs --op');
  const op = opByName(v.op as string);
  const filter = parseFilter(v.filter as string | undefined);
  const listedAll = v.shapes ? parseShapeList(String(v.shapes), op) : filter ? defaultSweepShapes(op).map((e) => ({ dims: [...e.dims], layout: e.layout, ...(e.params ? { params: { ...e.params } } : {}) })) : undefined;
  const listed = listedAll && keepMatching(op, listedAll, filter);
  if (listed && !listed.length) throw new UsageError(`--filter '${v.filter}' matches no shape of ${op.name}`);
  const params = paramOptions(v);
  // --param overrides each shape's own params (the matrix's shapes when --shapes is absent).
  const shapes = params
    ? (listed ?? defaultSweepShapes(op).map((e) => ({ dims: [...e.dims], layout: e.layout, ...(e.params ? { params: { ...e.params } } : {}) }))).map((e) => {
        const merged = { ...e.params, ...params };
        op.makeCase(e.dims, e.layout ?? op.layouts[0].name, merged);
        return { ...e, params: merged };
      })
    : listed;
  const space = v.space ? parseOpSpace(v.space as string, opFamilies(op)).restrict : undefined;
  const out = output(v.json as string | undefined);
  const lab = await cli.open();
  const progress = progressPrinter(process.stderr, cli.verbosity);
  try {
    const result = await lab.sweep({ op: op.name, reps: intOption(v, 'reps'), shapes, space, seed: intOption(v, 'seed') }, progress.update);
    progress.done();
    out.text(formatSweep(result));
    out.json(sweepJson(result));
    return 0;
  } finally {
    progress.done();
    await lab.close();
  }
}
