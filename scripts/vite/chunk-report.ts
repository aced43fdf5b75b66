import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { Plugin } from 'vite';

/** One chunk of the client build as the bundler made it: what it holds and what it loads. */
export interface ReportedChunk {
  fileName: string;
  /** The module the chunk stands for (an entry or a dynamic import), relative to the repository; null for a shared chunk. */
  facadeModuleId: string | null;
  imports: string[];
  dynamicImports: string[];
  /** The modules bundled into it, relative to the repository (`node_modules/chart.js/...`). */
  modules: string[];
}

/** Where the client build's chunk report goes: beside dist/web, not in it, so the server never serves it. */
export const chunkReportFile = 'dist/web-chunks.json';

const repositoryRoot = resolve(import.meta.dirname, '../..');

/**
 * Keeps the bundler's own account of the client build's chunks in dist/web-chunks.json, for the tests that
 * check what loads where (test/reports-chunk.test.ts) to read from the one build rather than building again.
 */
export function chunkReport(): Plugin {
  let skip = false;
  return {
    name: 'lotwise-chunk-report',
    apply: 'build',
    configResolved(config) {
      skip = Boolean(config.build.ssr);
    },
    generateBundle(_options, bundle) {
      if (skip) return;
      const chunks = Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [file] : []));
      // The client build only: the prerender's own build has no index.html entry.
      if (!chunks.some((chunk) => chunk.facadeModuleId?.endsWith('index.html'))) return;
      const local = (id: string) => relative(repositoryRoot, id).replaceAll('\\', '/');
      const report: ReportedChunk[] = chunks.map((chunk) => ({
        fileName: chunk.fileName,
        facadeModuleId: chunk.facadeModuleId ? local(chunk.facadeModuleId) : null,
        imports: chunk.imports,
        dynamicImports: chunk.dynamicImports,
        modules: Object.keys(chunk.modules).map(local),
      }));
      const file = resolve(repositoryRoot, chunkReportFile);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${JSON.stringify(report, null, 1)}\n`);
    },
  };
}
