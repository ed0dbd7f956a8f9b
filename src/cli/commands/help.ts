// The CLI's help text (`npm run lab -- help`).
import { OPS } from '../../core/ops/registry';
import { CENSUS_HELP } from '../census';
import { FORMATS_HELP } from '../formats';
import { REPORT_HELP } from '../report';
import { DEFAULT_SHARE_BASE, SHARE_BASE_ENV } from '../share-output';

export const HELP = `kernel-lab — decides, with evidence, when a generated WebGPU kernel may replace a native one

usage: npm run lab -- <command> [options]

commands:
  serve [--port 4173]         serve the built page (npm start builds it first)
  device [--calibrate]        adapter info, limits, features, spec and measured peaks;
                              --calibrate measures copy bandwidth, FMA throughput and the
                              empty-dispatch floor (kept per adapter for later metrics)
  time --op OP --shape SHAPE  Level 1: check one kernel against the oracle, then time it alone
       [--layout NAME] [--param NAME=VALUE]... [--native [--wgsl FILE] | --schedule JSON]
       [--seed N] [--min-runs N] [--markdown FILE] [--share-base URL]
                              --wgsl FILE runs your edit of the native kernel (same bindings);
                              --param sets an op parameter (e.g. --param eps=1e-5), repeatable;
                              --shape repeated (up to 64) times one kernel over several shapes:
                              each result, then one table (--json: kind level1-table)
  time --op all|OP[,OP…] [--filter REGEX] [--native]
                              without --shape: one table over each op's default matrix
                              (like test-backend-ops -m perf); exit 1 if any kernel is wrong or too-slow
  time --kernel MANIFEST.json --shape SHAPE [--layout NAME] [--param NAME=VALUE]...
                              your own kernel: a manifest and its WGSL (docs/kernel-manifest.md);
                              the op is the manifest's; refusals are named (exit 2)
       [--time-incorrect]     diagnosis: time it even when its check fails (an ablation:
                              the kernel with one part cut out); printed as a WRONG kernel's
                              timing, exit 1, no share link

  lane [--op OP]... [--shape OP:DIMS[:LAYOUT][:k=v,…]]... [--repeat N|auto] [--tolerance T]
       [--device NAME] [--markdown FILE] [--proposal SWEEP.json] [--share-base URL]
       [--prefer OP]... [--control aa|slow|stall|wrong|slow:F] [--undeclare CODE]...
       [--replay N] [--sensitivity [--factors F,F…]] [--allow-undecided]
       [--repeat-target W] [--repeat-max N]
       [--kernel MANIFEST.json]...  your kernels as further columns: checked, then timed in
                              the same alternating passes; speedup = native ÷ yours (they never
                              gate the lane); without --op/--shape the lane runs their ops
                              the promotion lane: native vs generated over each pair's shape
                              matrix; exit 0 green, 1 when a prefer gate fails, 2 on usage
                              errors or a missing adapter. --prefer gates an observe pair for
                              this run; --control plants a statistics control; --shape
                              replaces the matrices (e.g. shapes from a census); --proposal
                              tries a sweep's proposed rules first, for this run only;
                              --control slow:F plants an F× slowdown (1 < F ≤ 3) inside the
                              kernel's own dispatch, measured F within ±1 point before the passes
                              (else the shape is refused as a control, with the smallest factor
                              plantable there); --replay N runs the lane N times in one session
                              and reports per shape the verdict counts, flip rate and native
                              stability; --sensitivity replays A/A and planted 1.02/1.05/1.10/
                              1.20× (--factors picks others; default 10 replays each) and reports
                              detection and slower rates by kernel duration; a shape whose noise
                              is above the tolerance is 'undecided', which fails a prefer gate
                              unless --allow-undecided; --repeat auto adds passes until the
                              median's 95% interval is within --repeat-target (default 0.02) of
                              it, at most --repeat-max (default 30) passes
  sweep --op OP [--reps 9] [--shapes DIMS[:LAYOUT][:k=v;…],...] [--param NAME=VALUE]...
        [--space JSON]
                              offline schedule search: every valid candidate of the op's
                              space, checked then timed; refusals with reasons; a proposal
                              of schedulesFor rules to review (nothing is written).
                              --space restricts knobs, e.g. '{"workgroupSize":[64,256]}';
                              --param sets a param on every shape (the matrix's if no --shapes)
  diff A.json B.json [--threshold 5]
                              a lane run B against baseline A, shape by shape: exit 1 when a
                              speedup fell by more than the threshold (%), 0 when none did,
                              2 when they cannot be compared (other adapters, the native
                              column moved, not lane results)
  ${REPORT_HELP}
${CENSUS_HELP}${FORMATS_HELP}  bench [--size full|small] [--only ID[,ID…]|agreement|ops [--op NAME[,NAME…]]] [--peer tfjs]
                              the engine's performance targets as a table (small shapes on
                              a software adapter; targets are judged on hardware only)

options for every command:
  --runtime node|browser      node: Dawn (the 'webgpu' package); browser: headless Chromium
                              through Playwright running the built page's worker (default node)
  --json FILE|-               write the result as JSON (- for stdout; the text then goes to stderr)
  --timer gpu|wallclock       GPU timestamps (default), or the wall clock around
                              onSubmittedWorkDone (what runs without timestamp-query)
  --filter REGEX              time (many ops), lane, sweep: run only the cases whose
                              'OP DIMS LAYOUT [PARAMS]' matches, e.g. --filter 'inplace'
  --watchdog-ms N             time, lane: the wall bound on one GPU wait (default 30000); past
                              it the kernel is ended as hung: its verdict is too-slow, naming the
                              bound (time prints its row, exit 1; a lane column or shape), the
                              device is given up and a new one opened; where none works in the
                              process (SwiftShader) the rest of the run goes on in a fresh one
  -v, -vv                     more detail: -v every progress step and the adapter first;
                              -vv also the WGSL run (time) and stack traces of errors

exit codes: 0 done (lane green, no regression), 1 a wrong kernel, a kernel the watchdog ended
(too-slow: its row is printed, a measured outcome, not a crash), a failed prefer gate or a
regression (diff), 2 a usage error: a bad option, op, shape or output path, a case outside the
contract or the adapter's limits (refused before any GPU work), a missing adapter, results that
cannot be compared

time and lane print a share link that opens the result read-only in the page, and with
--markdown FILE write the GitHub markdown of the result (with that link) for a pull request.
  --share-base URL            where the page is served (default $${SHARE_BASE_ENV}, else
                              package.json's homepage, ${DEFAULT_SHARE_BASE})

ops: ${OPS.map((o) => `${o.name} (${o.shapeSyntax})`).join(', ')}
`;
