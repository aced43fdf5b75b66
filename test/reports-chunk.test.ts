import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, type Rolldown } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The chart library loads on /admin/reports only (DESIGN.md 11): the production build, with a plugin
 * that keeps the bundler's own account of which modules each chunk holds and which chunks it imports.
 */
describe('the reports chunk', { timeout: 240_000 }, () => {
  let outDir: string;
  let chunks: Rolldown.OutputChunk[] = [];

  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'lotwise-reports-build-'));
    await build({
      configFile: resolve('vite.config.ts'),
      logLevel: 'error',
      build: { outDir, emptyOutDir: true },
      plugins: [
        {
          name: 'keep-bundle',
          apply: 'build',
          generateBundle(_options, bundle) {
            // The client build only: the prerender's own build has no index.html entry.
            const found = Object.values(bundle).filter((file): file is Rolldown.OutputChunk => file.type === 'chunk');
            if (found.some((chunk) => chunk.facadeModuleId?.endsWith('index.html'))) chunks = found;
          },
        },
      ],
    });
  }, 240_000);

  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  const byFile = () => new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  /** A chunk and every chunk it imports statically, all the way down: what loads with it. */
  const loadedWith = (chunk: Rolldown.OutputChunk): Set<string> => {
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
    const chunk = chunks.find((candidate) => candidate.facadeModuleId?.replaceAll('\\', '/').endsWith(source));
    expect(chunk, source).toBeDefined();
    return chunk!;
  };
  const chartChunks = () => chunks.filter((chunk) => Object.keys(chunk.modules).some((id) => id.replaceAll('\\', '/').includes('/chart.js/'))).map((chunk) => chunk.fileName);

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
