/**
 * Home page JavaScript budget (120 KB gzip on first load): builds the SPA, serves it with the real server on a
 * throwaway database, loads `/` in Chromium and sums the gzip size of every script the page requested
 * before the chat button's 2 s delay. Exits non-zero over budget.
 *
 *   npm run bench:bundle            (build first)
 *   npm run bench:bundle -- --no-build
 */
import { timings } from '../api/contract/brand';
import { startBuiltSite } from './bench/built-site';
import { firstLoadBudgetKb, measureFirstLoadJs } from './bench/first-load-js';

async function main(): Promise<void> {
  const site = await startBuiltSite('bundle');
  try {
    // The chat widget itself loads after the delay and has its own 30 KB budget.
    const { scripts, totalGzipBytes, afterDelay } = await measureFirstLoadJs(site.origin);
    for (const { path, rawBytes, gzipBytes } of scripts) {
      console.log(`${(gzipBytes / 1024).toFixed(2).padStart(8)} KB gzip  ${(rawBytes / 1024).toFixed(1).padStart(7)} KB raw  ${path}`);
    }
    const totalKb = totalGzipBytes / 1024;
    const verdict = totalKb <= firstLoadBudgetKb ? 'within' : 'OVER';
    console.log(
      `\nHome page first-load JS: ${totalKb.toFixed(2)} KB gzip in ${scripts.length} files; budget ${firstLoadBudgetKb} KB (${verdict}, ${((totalKb / firstLoadBudgetKb) * 100).toFixed(0)}% of budget)`,
    );
    const laterKb = afterDelay.reduce((sum, script) => sum + script.gzipBytes, 0) / 1024;
    console.log(
      `After the ${timings.chatButtonDelayMs / 1000} s delay: ${laterKb.toFixed(2)} KB gzip more (${afterDelay.map((script) => script.path).join(', ') || 'nothing'}); chat budget 30 KB`,
    );
    if (totalKb > firstLoadBudgetKb) process.exitCode = 1;
  } finally {
    await site.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
