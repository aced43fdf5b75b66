import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import { chunkReport } from './scripts/vite/chunk-report.js';
import { prerenderPages } from './scripts/vite/prerender.js';

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 3000}`;

const compressible = /\.(js|css|html|svg|json|txt|xml)$/;

/**
 * Writes `.br` and `.gz` beside each built text file, so the server (@fastify/static `preCompressed` in api/app.ts)
 * sends compressed bytes without compressing on every request. Not the prerendered pages: the server
 * compresses them at start, once its PUBLIC_URL is in them (api/web-pages.ts).
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'lotwise-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const path = join(dir, name);
          return statSync(path).isDirectory() ? walk(path) : [path];
        });
      for (const file of walk(outDir)) {
        if (!compressible.test(file) || file.startsWith(join(outDir, 'pages'))) continue;
        const source = readFileSync(file);
        if (source.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(source, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
      },
    },
  };
}

export default defineConfig({
  root: 'web',
  publicDir: 'public',
  // prerenderPages writes the pages (and preloads each one's route chunks) before precompress compresses them;
  // chunkReport keeps the bundler's account of the chunks beside the build (dist/web-chunks.json) for the tests.
  plugins: [react(), tailwindcss(), chunkReport(), prerenderPages(), precompress()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    // Report what each route costs; the home page budget is checked by `npm run bench:bundle`.
    reportCompressedSize: true,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget },
      '/socket.io': { target: apiTarget, ws: true },
    },
  },
});
