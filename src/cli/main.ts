// `npm run lab -- <command>`: the lab headless. Exit 0 on success, 1 when a gate fails, 2 on
// usage errors (unknown op, malformed shape or schedule, missing adapter). One module per command
// under commands/; this file only dispatches and turns errors into exit codes.
import { USAGE_ERROR_NAMES } from '../core/errors';
import { cmdCensus } from './census';
import { cliOf, output, parse, verbosityOf } from './commands/args';
import { cmdFormats } from './formats';
import { cmdBench } from './commands/bench';
import { cmdDevice } from './commands/device';
import { cmdDiff } from './commands/diff';
import { HELP } from './commands/help';
import { cmdLane } from './commands/lane';
import { cmdServe } from './commands/serve';
import { cmdReport } from './report';
import { cmdSweep } from './commands/sweep';
import { cmdTime } from './commands/time';

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  serve: cmdServe,
  device: cmdDevice,
  time: cmdTime,
  bench: cmdBench,
  lane: cmdLane,
  sweep: cmdSweep,
  diff: cmdDiff,
  census: cmdCensus,
  report: cmdReport,
  formats: (argv) => cmdFormats(argv, { parse: (a, o) => parse(a, o), openRuntime: (runtime) => cliOf({ runtime }).open(), output }),
};

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(HELP);
    return command ? 0 : 2;
  }
  const run = COMMANDS[command];
  if (!run) {
    process.stderr.write(`unknown command '${command}'\n\n${HELP}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  try {
    return await run(rest);
  } catch (e) {
    const err = e as Error;
    const usage = USAGE_ERROR_NAMES.includes(err.name);
    process.stderr.write(`${usage ? 'error' : err.name}: ${err.message}\n`);
    if ((!usage && process.env.KERNEL_LAB_DEBUG) || verbosityOf(rest) >= 2) process.stderr.write(`${err.stack}\n`);
    return usage ? 2 : 1;
  }
}
