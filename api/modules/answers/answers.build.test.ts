import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestServer } from '../../../test/support/helper';
import { type RenderedPage, renderPublicPages, rewriteWebRoot, writeWebRoot } from '../../../test/support/rendered-pages';
import { answersIndexFile, loadAnswerEngine, writeAnswerIndex } from './index';

/**
 * The index is a build output: `npm run build` runs scripts/build-answers.ts on the pages `vite build`
 * prerendered, and the server loads what it wrote at start (as `app.answers`).
 */
let pages: RenderedPage[];

beforeAll(async () => {
  pages = await renderPublicPages();
});

const runFile = promisify(execFile);

/** What `npm run build` runs after `vite build`, on this web root. */
async function buildAnswers(webRoot: string): Promise<void> {
  await runFile(process.execPath, ['--import', 'tsx', 'scripts/build-answers.ts', webRoot], { cwd: process.cwd() });
}

/** A page added to the site, as the prerender writes one (the site's layout around a <main>). */
const financingPage: RenderedPage = {
  path: '/financing-partners',
  file: 'pages/financing-partners.html',
  html: `<!doctype html><html lang="en"><head><title>Financing Partners · Lotwise</title></head><body><div id="root">
    <header><nav><a href="/">Home</a></nav></header>
    <main id="main"><section><h1>Financing Partners</h1><p>Your finance forms, connected to the lenders you already use.</p></section>
    <section id="lenders"><h2>Which lenders can receive my credit applications?</h2>
    <p>Credit applications from your finance forms go straight to Westlake Financial, Credit Acceptance and Ally. Each lender gets the application in its own format.</p></section></main>
    <footer><h2>Our crew</h2><p>Our crew of mechanics fixes transmissions on Sundays.</p></footer></div></body></html>`,
};
const lenderQuestion = 'Which lenders get the credit applications from my finance forms?';

const quiet = { info: () => undefined, warn: () => undefined };

async function answersOf(webRoot: string, logLines?: string[]) {
  const logStream = logLines ? { write: (line: string) => void logLines.push(line) } : undefined;
  const { app } = await buildTestServer(logLines ? { LOG_LEVEL: 'info' } : {}, { webRoot, logStream });
  return app.answers;
}

describe('the answers index, built with the pages', () => {
  // It runs the build's script (a Node process compiling TypeScript): minutes of margin on a loaded machine, not a timing.
  it("makes a new page's text answerable once the index is rebuilt from the pages holding it", { timeout: 120_000 }, async () => {
    const webRoot = writeWebRoot(pages);
    await buildAnswers(webRoot);
    expect(existsSync(join(webRoot, answersIndexFile))).toBe(true);
    // The server loads the index the build wrote.
    const before = await answersOf(webRoot);
    expect(before.answerFor(lenderQuestion)).toBeNull();
    expect(before.answerFor('What does it cost?')?.path).toBe('/support');

    // The next build (the script's own function, in this process) with the new page in it.
    rewriteWebRoot(webRoot, [...pages, financingPage]);
    writeAnswerIndex(webRoot);
    const after = loadAnswerEngine(webRoot, quiet);
    expect(after.answerFor(lenderQuestion)).toMatchObject({
      path: '/financing-partners',
      pageTitle: 'Financing Partners',
      heading: 'Which lenders can receive my credit applications?',
      anchor: 'lenders',
      href: '/financing-partners#lenders',
      passage: 'Credit applications from your finance forms go straight to Westlake Financial, Credit Acceptance and Ally. Each lender gets the application in its own format.',
    });
    // The site's header and footer are not content.
    expect(after.answerFor('Does your crew fix transmissions on Sundays?')).toBeNull();

    // And a page taken off the site stops answering once the index is rebuilt without it.
    rewriteWebRoot(webRoot, pages.filter((page) => page.path !== '/about'));
    rmSync(join(webRoot, financingPage.file));
    writeAnswerIndex(webRoot);
    const without = loadAnswerEngine(webRoot, quiet);
    expect(without.answerFor('Who is the CEO of Lotwise?')).toBeNull();
    expect(without.answerFor(lenderQuestion)).toBeNull();
  });

  it('a server started on pages without an index indexes them itself, and says so', async () => {
    const webRoot = writeWebRoot([...pages, financingPage]);
    const lines: string[] = [];
    const answers = await answersOf(webRoot, lines);
    expect(answers.answerFor(lenderQuestion)?.path).toBe('/financing-partners');
    expect(lines.join('\n')).toContain('no index from the build; indexed the prerendered pages at start');
  });

  it('a server with no pages at all (npm run dev, an API-only test) answers nothing, with a warning', async () => {
    const lines: string[] = [];
    const { app } = await buildTestServer({ LOG_LEVEL: 'info' }, { logStream: { write: (line: string) => void lines.push(line) } });
    expect(app.answers.answerFor('What does it cost?')).toBeNull();
    expect(lines.join('\n')).toContain('automatic answers are off');
  });
});
