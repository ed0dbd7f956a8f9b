// `serve`: the built page (dist/) over HTTP until interrupted.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../core/errors';
import { projectRoot } from '../project-root';
import { serveStatic } from '../static-server';
import { countOpt, intOption, parse } from './args';

/** `npm start`: serves the built page (dist/) until interrupted. */
export async function cmdServe(argv: string[]): Promise<number> {
  const v = parse(argv, { port: countOpt('port') });
  const port = v.port === undefined ? Number(process.env.PORT ?? 4173) : intOption(v, 'port')!;
  const dist = join(projectRoot(), 'dist');
  if (!existsSync(join(dist, 'index.html'))) throw new UsageError(`${dist}/index.html is missing: run \`npx vite build\` first (npm start does)`);
  const { url } = await serveStatic(dist, port).catch((e: Error) => {
    throw new UsageError(`cannot serve on port ${port}: ${e.message}`);
  });
  process.stdout.write(`kernel-lab: ${url}\n`);
  await new Promise<never>(() => undefined);
  return 0;
}
