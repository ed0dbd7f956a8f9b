// Entry of the CLI bundle (dist-cli/lab.mjs): runs the command line and sets the exit code.
import { main } from './main';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`${(e as Error).stack ?? e}\n`);
    process.exitCode = 1;
  },
);
