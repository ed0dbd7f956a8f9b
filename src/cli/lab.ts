// Entry of the CLI bundle (dist-cli/lab.mjs): runs the command line and sets the exit code.
import { main } from './main';
import { abandonedDevices } from '../gpu/watchdog';
import { keepNativeOffStdout } from './native-stdout';

/**
 * exitCode, not exit(), as a rule: exiting under Dawn's live threads can abort the process. But a
 * device the watchdog gave up still spins on its hung kernel and would keep the process alive
 * for ever: then the CLI exits explicitly, once its output is flushed.
 */
function finish(code: number): void {
  process.exitCode = code;
  if (abandonedDevices() > 0) process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

// Dawn's native warnings go to fd 1: the command runs in a child whose fd 1 is stderr (native-stdout.ts).
const child = keepNativeOffStdout();
if (child !== null)
  child.then(
    (code) => (process.exitCode = code),
    (e) => {
      process.stderr.write(`${(e as Error).stack ?? e}\n`);
      process.exitCode = 1;
    },
  );
else
  main(process.argv.slice(2)).then(finish, (e) => {
    process.stderr.write(`${(e as Error).stack ?? e}\n`);
    finish(1);
  });
