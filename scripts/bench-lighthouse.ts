/**
 * Lighthouse (mobile emulation, simulated throttling) on every public page of the route list and the 404
 * page, against Debian's Chromium and the real server on a throwaway database: the median of several runs
 * of each category (targets: performance and accessibility 95 or more, best practices and SEO 100) and of
 * the simulated metrics, then the home page's first-load JavaScript (gzip; budget 120 KB). Exits non-zero
 * when a median misses its target or the JavaScript is over budget.
 *
 *   npm run bench:lighthouse                                  (build first; 3 runs of each page)
 *   npm run bench:lighthouse -- --no-build --runs 5 --path /about
 *
 * Runs are interleaved (every page once, then again) so a burst of load elsewhere on the machine spreads
 * over the pages instead of sinking one. Lighthouse itself is fetched by `npx lighthouse@12` (its newer
 * majors need Node 22); set LIGHTHOUSE_BIN to use another install. CHROME_PATH defaults to /usr/bin/chromium.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { siteRoutes } from '../web/features/marketing/routes';
import { startBuiltSite } from './bench/built-site';
import { firstLoadBudgetKb, measureFirstLoadJs } from './bench/first-load-js';
import { median } from './bench/stats';

const categories = [
  { id: 'performance', label: 'perf', target: 95 },
  { id: 'accessibility', label: 'a11y', target: 95 },
  { id: 'best-practices', label: 'best', target: 100 },
  { id: 'seo', label: 'seo', target: 100 },
] as const;

const metricIds = ['largest-contentful-paint', 'first-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'] as const;

/** Any path outside the route list: the server answers it 404 with the 404 page. */
const notFoundPath = '/no-such-page';

/**
 * Lighthouse refuses to audit a page answered 404 unless told to. Three audits fail on a 404 page by
 * design, so its scores are of the rest: SEO's "successful status code" and "indexable" (the page is
 * noindex), and best practices' console errors (Chrome logs the document's own 404 there).
 */
const notFoundFlags = ['--ignore-status-code', '--skip-audits=http-status-code,is-crawlable,errors-in-console'];

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

interface LighthouseReport {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<
    string,
    { numericValue?: number; displayValue?: string; score: number | null; scoreDisplayMode: string; title: string; details?: { items?: unknown[] } }
  >;
  runtimeError?: { code: string; message: string };
}

interface PageResults {
  scores: Record<string, number[]>;
  metrics: Record<string, number[]>;
  /** Audits that failed in some run, with the category they count in: title -> detail. */
  failing: Map<string, string>;
}

async function runLighthouse(url: string, output: string, flags: readonly string[]): Promise<void> {
  const [command, ...prefix] = process.env.LIGHTHOUSE_BIN ? [process.env.LIGHTHOUSE_BIN] : ['npx', '-y', 'lighthouse@12'];
  // Asynchronous: the server answering Lighthouse runs in this same process.
  await promisify(execFile)(
    command,
    [
      ...prefix,
      url,
      '--quiet',
      `--only-categories=${categories.map((category) => category.id).join(',')}`,
      '--form-factor=mobile',
      '--output=json',
      `--output-path=${output}`,
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
      ...flags,
    ],
    { env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' }, maxBuffer: 64 * 1024 * 1024 },
  );
}

/** Opportunities that do not weigh in the performance score but name what to fix. */
const performanceHints = ['unused-javascript', 'render-blocking-resources', 'uses-responsive-images', 'unminified-javascript'];

/**
 * The audits that cost the page points: a weighed audit of accessibility, best practices or SEO that
 * did not pass, a performance metric under 0.9, and the performance hints above under 0.9.
 */
function failingAudits(report: LighthouseReport): [string, string][] {
  const weighed = Object.entries(report.categories).flatMap(([category, { auditRefs }]) =>
    auditRefs.filter((ref) => ref.weight > 0).map((ref) => ({ id: ref.id, threshold: category === 'performance' ? 0.9 : 1 })),
  );
  const checks = [...weighed, ...performanceHints.map((id) => ({ id, threshold: 0.9 }))];
  return checks
    .map(({ id, threshold }) => ({ audit: report.audits[id], threshold }))
    .filter(({ audit, threshold }) => audit && audit.score !== null && audit.score < threshold)
    .map(({ audit }) => audit!)
    .map((audit) => {
      const items = audit.details?.items ?? [];
      const detail = items
        .slice(0, 3)
        .map((item) => JSON.stringify(item).slice(0, 160))
        .join(' | ');
      return [audit.title, `${audit.displayValue ?? ''} ${detail}`.trim()];
    });
}

async function main(): Promise<void> {
  const runs = Number(option('--runs') ?? '3');
  const onlyPath = option('--path');
  const paths = onlyPath ? [onlyPath] : [...siteRoutes.filter((route) => route.kind === 'public').map((route) => route.path), notFoundPath];
  const site = await startBuiltSite('lh');
  const results = new Map<string, PageResults>(paths.map((path) => [path, { scores: {}, metrics: {}, failing: new Map() }]));
  let failed = false;

  try {
    for (let run = 1; run <= runs; run += 1) {
      for (const path of paths) {
        const output = join(site.dir, `report-${run}-${path.replace(/\W+/g, '_')}.json`);
        // Lighthouse sometimes fails to record a trace on a busy machine (NO_NAVSTART): up to 3 tries, else the run is skipped.
        let report: LighthouseReport | undefined;
        for (let attempt = 1; attempt <= 3 && !report; attempt += 1) {
          try {
            await runLighthouse(`${site.origin}${path}`, output, path === notFoundPath ? notFoundFlags : []);
            report = JSON.parse(readFileSync(output, 'utf8')) as LighthouseReport;
          } catch (error) {
            const reason = error instanceof Error ? (error.message.split('\n').find((line) => line.includes('Runtime error')) ?? 'failed') : 'failed';
            console.log(`${path} run ${run}, try ${attempt}: ${reason}`);
          }
        }
        if (!report) continue;
        if (report.runtimeError) console.log(`${path} run ${run}: ${report.runtimeError.code} ${report.runtimeError.message}`);
        const page = results.get(path)!;
        for (const category of categories) {
          (page.scores[category.id] ??= []).push(Math.round((report.categories[category.id]?.score ?? 0) * 100));
        }
        for (const id of metricIds) (page.metrics[id] ??= []).push(report.audits[id]?.numericValue ?? Number.NaN);
        for (const [title, detail] of failingAudits(report)) page.failing.set(title, detail);
        console.log(`${path} run ${run}: ${categories.map((category) => `${category.label} ${page.scores[category.id]!.at(-1)}`).join(', ')}`);
      }
    }

    console.log(`\nLighthouse 12 mobile (simulated throttling), median of ${runs} runs per page:\n`);
    console.log('| page | perf | a11y | best | seo | LCP | FCP | TBT | CLS | SI |');
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const [path, page] of results) {
      if (!page.scores.performance) {
        console.log(`| ${path} | no run recorded |`);
        failed = true;
        continue;
      }
      const scores = categories.map((category) => {
        const value = median(page.scores[category.id]!);
        if (value < category.target) failed = true;
        return value < category.target ? `**${value}**` : String(value);
      });
      const metrics = metricIds.map((id) => {
        const value = median(page.metrics[id]!);
        return id === 'cumulative-layout-shift' ? value.toFixed(3) : `${Math.round(value)} ms`;
      });
      console.log(`| ${path} | ${scores.join(' | ')} | ${metrics.join(' | ')} |`);
    }
    for (const [path, page] of results) {
      if (page.failing.size === 0) continue;
      console.log(`\n${path}: audits that cost points in some run:`);
      for (const [title, detail] of page.failing) console.log(`  - ${title}: ${detail}`);
    }

    if (!onlyPath || onlyPath === '/') {
      const { scripts, totalGzipBytes } = await measureFirstLoadJs(site.origin);
      const totalKb = totalGzipBytes / 1024;
      if (totalKb > firstLoadBudgetKb) failed = true;
      console.log(`\nHome page first-load JS: ${totalKb.toFixed(2)} KB gzip in ${scripts.length} files (budget ${firstLoadBudgetKb} KB)`);
    }
    console.log(`Targets: performance and accessibility ${categories[0].target}+, best practices and SEO ${categories[2].target}.`);
    if (failed) process.exitCode = 1;
  } finally {
    // The report and exit code are settled before closing: they must not depend on a clean shutdown.
    await site.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
