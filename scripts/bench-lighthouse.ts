/**
 * Lighthouse (mobile emulation, simulated throttling) performance and accessibility of `/`
 * (the target: 95 or more on both), against Debian's Chromium and the real server on a
 * throwaway database. Runs several times and reports the median of each score.
 *
 *   npm run bench:lighthouse                   (build first; 3 runs)
 *   npm run bench:lighthouse -- --no-build --runs 5 --path /about
 *
 * Lighthouse itself is fetched by `npx lighthouse@12` (its newer majors need Node 22); set
 * LIGHTHOUSE_BIN to use another install. CHROME_PATH defaults to /usr/bin/chromium.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startBuiltSite } from './bench/built-site';
import { median } from './bench/stats';

const target = 95;

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}

interface LighthouseReport {
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number; displayValue?: string; score: number | null; title: string }>;
}

async function main(): Promise<void> {
  const runs = Number(option('--runs', '3'));
  const path = option('--path', '/');
  const site = await startBuiltSite('lh');
  const { dir } = site;
  const url = `${site.origin}${path}`;

  const performance: number[] = [];
  const accessibility: number[] = [];
  const metrics: Record<string, number[]> = {};
  let lastReport: LighthouseReport | undefined;
  try {
    for (let run = 1; run <= runs; run += 1) {
      const output = join(dir, `report-${run}.json`);
      const [command, ...prefix] = process.env.LIGHTHOUSE_BIN ? [process.env.LIGHTHOUSE_BIN] : ['npx', '-y', 'lighthouse@12'];
      // Asynchronous: the server answering Lighthouse runs in this same process.
      const runLighthouse = () =>
        promisify(execFile)(
          command,
          [
            ...prefix,
            url,
            '--quiet',
            '--only-categories=performance,accessibility',
            '--form-factor=mobile',
            '--output=json',
            `--output-path=${output}`,
            '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
          ],
          { env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' }, maxBuffer: 64 * 1024 * 1024 },
        );
      // Lighthouse sometimes fails to record a trace on a busy machine (NO_NAVSTART): up to 3 tries, else the run is skipped.
      let recorded = false;
      for (let attempt = 1; attempt <= 3 && !recorded; attempt += 1) {
        try {
          await runLighthouse();
          recorded = true;
        } catch (error) {
          const reason = error instanceof Error ? (error.message.split('\n').find((line) => line.includes('Runtime error')) ?? 'failed') : 'failed';
          console.log(`run ${run}, try ${attempt}: ${reason}`);
        }
      }
      if (!recorded) continue;
      const report = JSON.parse(readFileSync(output, 'utf8')) as LighthouseReport;
      lastReport = report;
      performance.push(Math.round((report.categories.performance?.score ?? 0) * 100));
      accessibility.push(Math.round((report.categories.accessibility?.score ?? 0) * 100));
      for (const id of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index']) {
        (metrics[id] ??= []).push(report.audits[id]?.numericValue ?? Number.NaN);
      }
      console.log(`run ${run}: performance ${performance.at(-1)}, accessibility ${accessibility.at(-1)}`);
    }

    if (performance.length === 0) throw new Error('Lighthouse recorded no run');
    console.log(`\nLighthouse mobile on ${path}, median of ${performance.length} recorded runs (of ${runs}):`);
    console.log(`  performance   ${median(performance)} (runs: ${performance.join(', ')}; target ${target})`);
    console.log(`  accessibility ${median(accessibility)} (runs: ${accessibility.join(', ')}; target ${target})`);
    for (const [id, values] of Object.entries(metrics)) {
      const value = median(values);
      console.log(`  ${id.padEnd(26)} ${id === 'cumulative-layout-shift' ? value.toFixed(3) : `${Math.round(value)} ms`}`);
    }
    if (lastReport) {
      const failing = Object.values(lastReport.audits).filter((audit) => audit.score !== null && audit.score < 0.9 && audit.title);
      if (failing.length > 0) console.log(`\nAudits below 0.9 in the last run:\n${failing.map((audit) => `  - ${audit.title} ${audit.displayValue ?? ''}`).join('\n')}`);
    }
    if (median(performance) < target || median(accessibility) < target) process.exitCode = 1;
  } finally {
    // The report and exit code are settled before closing: they must not depend on a clean shutdown.
    await site.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
