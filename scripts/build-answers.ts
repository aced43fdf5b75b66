/**
 * The automatic answers' index (issue 36, api/modules/answers): reads the pages the web build
 * prerendered (dist/web/pages, listed by its pages.json) and writes their passages and full-text index
 * to dist/web/pages/answers.json, which the server loads at start. Run by `npm run build` after
 * `vite build`, so the index is rebuilt whenever the content is.
 *
 *   node --import tsx scripts/build-answers.ts [web root, default dist/web]
 */
import { resolve } from 'node:path';
import { writeAnswerIndex } from '../api/modules/answers';

const webRoot = resolve(process.argv[2] ?? 'dist/web');
const { passages, file } = writeAnswerIndex(webRoot);
console.log(`answers: ${passages} passages indexed into ${file}`);
