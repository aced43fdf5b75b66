/**
 * `npm test`: the build (only when dist/ is missing or older than the source: `npm ci` has just built it
 * through `prepare`), the type check, the linter, the Vitest projects and the browser tests, in that
 * order, stopping at the first that fails; then a look for anything the run started and left running.
 * Every test that needs the build reads that one dist/ (scripts/build-freshness.ts), none builds its own.
 *
 * Every process a test starts (a throwaway PostgreSQL, Redis or nginx, an app node) inherits the
 * run's mark, `LOTWISE_TEST_RUN`, in its environment: one still running at the end is a test whose
 * cleanup was dropped. The run fails naming it, and stops it, so the next run finds a clean machine.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { staleBuild } from './build-freshness';

const mark = `LOTWISE_TEST_RUN=${randomBytes(8).toString('hex')}`;
const env = { ...process.env, LOTWISE_TEST_RUN: mark.split('=')[1] };

const stale = staleBuild('web') ?? staleBuild('server');
if (stale) console.log(`Building: ${stale}.`);
else console.log('dist/ is as new as the source: no build.');

type Command = [string, string[]];
const npmRun = (script: string): Command => ['npm', ['run', '--silent', script]];
/**
 * The steps in order; the commands of one step run at once. The type check and the linter each keep one
 * core busy for about a minute and share nothing, so on 2 cores they run side by side (each one's output
 * printed whole when it ends, not interleaved).
 */
const steps: Command[][] = [
  ...(stale ? [[npmRun('build')]] : []),
  [npmRun('typecheck'), npmRun('lint')],
  [npmRun('test:unit')],
  [npmRun('test:e2e')],
];

/** The processes (pid, command line) whose environment carries this run's mark, this one's own line excepted. */
function leftBehind(): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(mark)) continue;
      found.push({ pid, command: readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim() });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** Runs one command, its output to ours as it comes, or (`whole`) kept and printed at its end; answers its exit status. */
function run([command, args]: Command, whole: boolean): Promise<number> {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: whole ? ['ignore', 'pipe', 'pipe'] : 'inherit', env });
    const output: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code) => {
      const status = code ?? 1;
      process.stdout.write(Buffer.concat(output));
      console.log(`--- ${[command, ...args].join(' ')}: ${status === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
      done(status);
    });
  });
}

let status = 0;
for (const step of steps) {
  const statuses = await Promise.all(step.map((command) => run(command, step.length > 1)));
  status = statuses.find((each) => each !== 0) ?? 0;
  if (status !== 0) break;
}

// A process ends a moment after its stop was asked for: look again for a few seconds before judging.
let left = leftBehind();
for (let tries = 0; left.length > 0 && tries < 50; tries += 1) {
  spawnSync('sleep', ['0.1']);
  left = leftBehind();
}
if (left.length > 0) {
  console.error(`\nThe tests left ${left.length} process(es) running (a cleanup was dropped): stopping them.`);
  for (const { pid, command } of left) {
    console.error(`  ${pid} ${command}`);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Ended meanwhile.
    }
  }
  if (status === 0) status = 1;
}
process.exit(status);
