import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AnswerEngine } from './answers.engine';
import { loadAnswerEngine } from './answers.files';

/**
 * Automatic answers (DESIGN.md 19): a visitor's question answered with a passage quoted verbatim from
 * our own public pages (the support FAQ is one of them) and the canned replies an admin marks public,
 * or with nothing. The index is a build output (`npm run build` runs scripts/build-answers.ts after
 * the web build); the server loads it at start as `app.answers`.
 */
export { AnswerEngine, type Answer, type AnswerIndexFile, maximumQuestionChars, minimumCoverage } from './answers.engine';
export { answersIndexFile, loadAnswerEngine, readBuiltPages, writeAnswerIndex } from './answers.files';
export { type PageInput, type Passage, passageMaxChars, passagesOfPage, type PublicCannedReply } from './answers.passages';

declare module 'fastify' {
  interface FastifyInstance {
    /** Answers a visitor's question from our own content, or returns null (api/modules/answers). */
    answers: AnswerEngine;
  }
}

export default fp(
  async (app: FastifyInstance, options: { webRoot: string }) => {
    app.decorate('answers', loadAnswerEngine(options.webRoot, app.log));
  },
  { name: 'answers' },
);
