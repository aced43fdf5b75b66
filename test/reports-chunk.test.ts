import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireFreshBuild } from '../scripts/build-freshness';
import { chunkReportFile, type ReportedChunk } from '../scripts/vite/chunk-report';

/**
 * The chart library loads on /admin/reports only (DESIGN.md 11): the production build (`npm run build`,
 * read from dist/, never built here), with the bundler's own account of which modules each chunk holds
 * and which chunks it imports (scripts/vite/chunk-report.ts).
 */
describe('the reports chunk', () => {
  const outDir = 'dist/web';
  let chunks: ReportedChunk[] = [];

  beforeAll(() => {
    requireFreshBuild('web');
    chunks = JSON.parse(readFileSync(chunkReportFile, 'utf8')) as ReportedChunk[];
  });

  const byFile = () => new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  /** A chunk and every chunk it imports statically, all the way down: what loads with it. */
  const loadedWith = (chunk: ReportedChunk): Set<string> => {
    const files = byFile();
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const imported of files.get(file)?.imports ?? []) visit(imported);
    };
    visit(chunk.fileName);
    return seen;
  };
  const chunkOf = (source: string) => {
    const chunk = chunks.find((candidate) => candidate.facadeModuleId?.endsWith(source));
    expect(chunk, source).toBeDefined();
    return chunk!;
  };
  const chartChunks = () => chunks.filter((chunk) => chunk.modules.some((id) => id.includes('/chart.js/'))).map((chunk) => chunk.fileName);

  it('puts Chart.js in the reports route and nowhere the home page or the dashboard loads', () => {
    const charts = chartChunks();
    expect(charts.length).toBeGreaterThan(0);
    expect([...loadedWith(chunkOf('web/features/admin/reports/reports-page.tsx'))]).toEqual(expect.arrayContaining(charts));
    for (const source of ['index.html', 'web/app/routes/home.tsx', 'web/app/routes/admin.tsx']) {
      const loaded = loadedWith(chunkOf(source));
      for (const chart of charts) expect(loaded.has(chart), `${source} loads ${chart}`).toBe(false);
    }
    // The dashboard reaches the reports only by a dynamic import.
    expect(chunkOf('web/app/routes/admin.tsx').dynamicImports).toContain(chunkOf('web/features/admin/reports/reports-page.tsx').fileName);
  });

  it('preloads no chart code in the home page or the dashboard shell', () => {
    for (const page of ['pages/index.html', 'index.html']) {
      const html = readFileSync(join(outDir, page), 'utf8');
      for (const chart of chartChunks()) expect(html, page).not.toContain(chart);
      expect(html, page).not.toContain('reports-page');
    }
  });
});
