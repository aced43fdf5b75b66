import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { webPagesManifestFile, webPagesManifestSchema } from '../../contract/web-pages';
import { AnswerEngine } from './answers.engine';
import type { PageInput } from './answers.passages';

/**
 * Where the build writes the index: beside the page map, in the built app's `pages/` folder, which
 * the server never serves as files (api/web-pages.ts). It is built from those very pages.
 */
export const answersIndexFile = 'pages/answers.json';

/** The prerendered public pages of a built web app (`webRoot`, dist/web), as its page map lists them. */
export function readBuiltPages(webRoot: string): PageInput[] {
  const manifest = webPagesManifestSchema.parse(JSON.parse(readFileSync(join(webRoot, webPagesManifestFile), 'utf8')));
  return manifest.pages.map((page) => ({ path: page.path, html: readFileSync(join(webRoot, page.file), 'utf8') }));
}

/** Indexes the built pages and writes the index beside them (`npm run build`: scripts/build-answers.ts). */
export function writeAnswerIndex(webRoot: string): { passages: number; file: string } {
  const engine = AnswerEngine.fromPages(readBuiltPages(webRoot));
  const file = join(webRoot, answersIndexFile);
  // Whole or not at all: a server starting during a build reads the old index or the new one.
  writeFileSync(`${file}.tmp`, JSON.stringify(engine.toFile()));
  renameSync(`${file}.tmp`, file);
  return { passages: engine.passageCount, file };
}

interface Logger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/**
 * The engine a server starts with. The index the build wrote, when there is one; else (a build made
 * with `vite build` alone, as the browser tests' is) the same index made now from the prerendered
 * pages this server serves, which takes a few milliseconds; else (`npm run dev`, where Vite renders the
 * pages, or an API-only test) an engine that answers nothing, with a warning saying why.
 */
export function loadAnswerEngine(webRoot: string, log: Logger): AnswerEngine {
  const indexPath = join(webRoot, answersIndexFile);
  if (existsSync(indexPath)) {
    try {
      const engine = AnswerEngine.fromFile(JSON.parse(readFileSync(indexPath, 'utf8')));
      log.info({ passages: engine.passageCount }, 'answers: index loaded');
      return engine;
    } catch (error) {
      // An index of an older format (code updated, build not run): the pages themselves are still good.
      log.warn({ err: error, file: indexPath }, 'answers: the index cannot be read; indexing the prerendered pages instead');
    }
  }
  if (existsSync(join(webRoot, webPagesManifestFile))) {
    const engine = AnswerEngine.fromPages(readBuiltPages(webRoot));
    log.warn({ passages: engine.passageCount, file: indexPath }, 'answers: no index from the build; indexed the prerendered pages at start');
    return engine;
  }
  log.warn({ webRoot }, 'answers: no prerendered pages (npm run build makes them); automatic answers are off');
  return AnswerEngine.empty();
}
