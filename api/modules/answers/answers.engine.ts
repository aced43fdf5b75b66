import MiniSearch, { type AsPlainObject, type Options } from 'minisearch';
import { z } from 'zod';
import { refusal } from './answers.guard';
import { type PageInput, type Passage, passagesOfCannedReplies, passagesOfPage, type PublicCannedReply } from './answers.passages';
import { processTerm, termsOf, tokenize } from './answers.text';

/** An automatic answer: a passage of our own content, quoted as it stands, with where it comes from. */
export interface Answer {
  /** Verbatim text of the page (or canned reply), at most ~300 characters, cut at a sentence. */
  passage: string;
  /** The heading it sits under on its page (an FAQ's question). */
  heading: string;
  /** "Pricing"-style name of its page ("Home", "Support Center"), or the canned reply's title. */
  pageTitle: string;
  source: Passage['source'];
  path: string | null;
  anchor: string | null;
  href: string | null;
  /** How much of the question the passage covers, 0 to 1 (see `minimumCoverage`). */
  score: number;
}

/** Bumped whenever the passages' shape or the text processing changes: an older index is rebuilt, never misread. */
const indexFormat = 2;

const passageSchema = z.object({
  source: z.enum(['page', 'canned']),
  pageTitle: z.string(),
  path: z.string().nullable(),
  heading: z.string(),
  context: z.string(),
  anchor: z.string().nullable(),
  href: z.string().nullable(),
  text: z.string(),
}) satisfies z.ZodType<Passage>;

/** What `npm run build` writes (scripts/build-answers.ts) and the server loads: passages and their index. */
const indexFileSchema = z.object({
  format: z.literal(indexFormat),
  passages: z.array(passageSchema),
  // MiniSearch's own serialisation (toJSON), read back by its loadJS, which checks it.
  index: z.custom<AsPlainObject>((value) => typeof value === 'object' && value !== null),
});

export type AnswerIndexFile = z.infer<typeof indexFileSchema>;

interface IndexedPassage {
  id: number;
  heading: string;
  context: string;
  text: string;
  pageTitle: string;
}

/**
 * BM25 (MiniSearch's scoring) over four fields: a passage's heading weighs twice its text; the headings
 * above it ("Simple pricing" above "Starter") as much as its text; the page's name half (it tells the
 * legal pages apart, and little else). Whole terms only: no prefix or fuzzy
 * matching, which would let "oil" find "toil" and make the coverage below mean less.
 */
const indexOptions: Options<IndexedPassage> = {
  fields: ['heading', 'context', 'text', 'pageTitle'],
  tokenize,
  processTerm,
  searchOptions: { boost: { heading: 2, context: 1, text: 1, pageTitle: 0.5 }, combineWith: 'OR', prefix: false, fuzzy: false },
};

/**
 * The confidence rule. A BM25 score has no scale of its own (it grows with the question's length and
 * the corpus), so the answer is judged by its *coverage*: the share of the question's information that
 * the best passage matches, each content term weighed by its inverse document frequency,
 *
 *   coverage = Σ idf(t), t a content term of the question matched by the passage
 *            / Σ idf(t), t every content term of the question
 *
 * where content terms are what is left after stop and chit-chat words (answers.text.ts), after stems
 * and synonyms, and idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5)), BM25's own, over our N passages. A
 * word none of our pages uses (weather, poem, loan) has df 0 and the largest weight: a question about
 * it is not about us, however many of our common words ("car", "website") come with it. At least half
 * of the question must be matched; a question with no content term at all ("hi!", "thanks") is not a
 * question we can answer. And what the passage matches must include a *topic* of ours: a word of some
 * passage's headings, page name or label-like line (a feature's name, "Business Hours"), not only words
 * our pages use in passing ("Can you help me with my taxes?" meets "Fees are exclusive of taxes" in a
 * sentence: taxes are not a subject of our pages, fees are). Refused outright, before any lookup: injection, competitors, comparisons
 * (answers.guard.ts), and messages longer than `maximumQuestionChars`, which are a story for a person.
 */
export const minimumCoverage = 0.5;
export const maximumQuestionChars = 500;
/**
 * A passage under a heading that is itself a question (the support FAQ) was written as an answer to
 * what dealers ask: its BM25 score counts this much more than a passage that only mentions the words.
 */
const answerBoost = 1.5;
/** How many of BM25's best passages are weighed by coverage. */
const candidateCount = 10;

export class AnswerEngine {
  private readonly index: MiniSearch<IndexedPassage>;
  private readonly passages = new Map<number, Passage>();
  /** In how many passages each term occurs: the df of the coverage's idf. */
  private readonly documentFrequency = new Map<string, number>();
  /** In how many passages each term is a topic: in a heading, a page's name or a short line (a feature's name). */
  private readonly topicFrequency = new Map<string, number>();
  private cannedIds: number[] = [];
  private nextId = 0;

  private constructor(index: MiniSearch<IndexedPassage>, passages: readonly Passage[]) {
    this.index = index;
    for (const passage of passages) this.remember(this.nextId++, passage);
  }

  /** An engine over the passages of these pages, indexed now. */
  static fromPages(pages: readonly PageInput[]): AnswerEngine {
    const passages = pages.flatMap(passagesOfPage);
    const engine = new AnswerEngine(new MiniSearch(indexOptions), passages);
    engine.index.addAll(passages.map((passage, id) => toIndexed(id, passage)));
    return engine;
  }

  /** An engine over an index the build wrote (`toFile`, parsed JSON); throws on another format. */
  static fromFile(json: unknown): AnswerEngine {
    const file = indexFileSchema.parse(json);
    return new AnswerEngine(MiniSearch.loadJS(file.index, indexOptions), file.passages);
  }

  /** An engine that answers nothing (no pages were built). */
  static empty(): AnswerEngine {
    return new AnswerEngine(new MiniSearch(indexOptions), []);
  }

  /** The page passages and their index, for the build to write (canned replies are never in it). */
  toFile(): AnswerIndexFile {
    if (this.cannedIds.length) throw new Error('answers: an index with canned replies is not a build output');
    return { format: indexFormat, passages: [...this.passages.values()], index: this.index.toJSON() };
  }

  get passageCount(): number {
    return this.passages.size;
  }

  /**
   * Puts the canned replies an admin marked public in place of the ones before (the chat module calls
   * this at start and whenever that list changes).
   */
  setPublicCannedReplies(replies: readonly PublicCannedReply[]): void {
    for (const id of this.cannedIds) this.forget(id);
    this.index.discardAll(this.cannedIds);
    this.cannedIds = [];
    for (const passage of passagesOfCannedReplies(replies)) {
      const id = this.nextId++;
      this.remember(id, passage);
      this.index.add(toIndexed(id, passage));
      this.cannedIds.push(id);
    }
  }

  /** The passage that answers `question`, quoted verbatim, or null below the confidence rule or off our subject. */
  answerFor(question: string): Answer | null {
    if (question.length > maximumQuestionChars || refusal(question)) return null;
    const content = [...new Set(termsOf(question))];
    if (content.length === 0 || this.passages.size === 0) return null;
    const total = content.reduce((sum, term) => sum + this.idf(term), 0);
    // BM25 ranks; of its first few, the passage covering most of the question wins; on a tie, BM25's
    // order, except that of two parts of one section the earlier wins (a card's price before its list).
    let best: Candidate | null = null;
    const boostDocument = (id: number) => (this.passages.get(id)?.heading.endsWith('?') ? answerBoost : 1);
    for (const result of this.index.search(question, { boostDocument }).slice(0, candidateCount)) {
      const id = result.id as number;
      const matched = content.filter((term) => result.queryTerms.includes(term));
      if (!matched.some((term) => (this.topicFrequency.get(term) ?? 0) > 0)) continue;
      const weigh = (terms: string[]) => (total === 0 ? 0 : terms.reduce((sum, term) => sum + this.idf(term), 0) / total);
      const candidate: Candidate = { id, coverage: weigh(matched) };
      if (!best || this.better(candidate, best)) best = candidate;
    }
    const passage = best ? this.passages.get(best.id) : undefined;
    if (!best || !passage || best.coverage < minimumCoverage) return null;
    const coverage = best.coverage;
    return {
      passage: passage.text,
      heading: passage.heading,
      pageTitle: passage.pageTitle,
      source: passage.source,
      path: passage.path,
      anchor: passage.anchor,
      href: passage.href,
      score: Math.round(coverage * 100) / 100,
    };
  }

  private better(candidate: Candidate, than: Candidate): boolean {
    const epsilon = 1e-9;
    if (Math.abs(candidate.coverage - than.coverage) > epsilon) return candidate.coverage > than.coverage;
    const [mine, theirs] = [this.passages.get(candidate.id), this.passages.get(than.id)];
    // Ids follow the pages' order: the lower of one section's parts comes first on its page.
    return mine?.path === theirs?.path && mine?.heading === theirs?.heading && candidate.id < than.id;
  }

  private idf(term: string): number {
    const count = this.passages.size;
    const df = this.documentFrequency.get(term) ?? 0;
    return Math.log(1 + (count - df + 0.5) / (df + 0.5));
  }

  private remember(id: number, passage: Passage): void {
    this.passages.set(id, passage);
    count(this.documentFrequency, distinctTerms(passage), 1);
    count(this.topicFrequency, topicTerms(passage), 1);
  }

  private forget(id: number): void {
    const passage = this.passages.get(id);
    if (!passage) return;
    this.passages.delete(id);
    count(this.documentFrequency, distinctTerms(passage), -1);
    count(this.topicFrequency, topicTerms(passage), -1);
  }
}

interface Candidate {
  id: number;
  /** The idf-weighted share of the question's content terms the passage matches. */
  coverage: number;
}

function toIndexed(id: number, passage: Passage): IndexedPassage {
  return { id, heading: passage.heading, context: passage.context, text: passage.text, pageTitle: passage.pageTitle };
}

function count(counts: Map<string, number>, terms: Set<string>, by: 1 | -1): void {
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + by);
}

/** A line this short, with no full stop, is a label (a feature's name, "Business Hours"), not a sentence. */
const topicLineChars = 60;
const isLabel = (line: string) => line.length <= topicLineChars && !/[.!?]$/.test(line);

/** What a passage is about: the words of its headings, its page's name and its label-like lines. */
function topicTerms(passage: Passage): Set<string> {
  const labels = passage.text.split('\n').filter(isLabel);
  return new Set(termsOf([passage.heading, passage.context, passage.pageTitle, ...labels].join('\n')));
}

function distinctTerms(passage: Passage): Set<string> {
  return new Set(termsOf(`${passage.heading}\n${passage.context}\n${passage.text}\n${passage.pageTitle}`));
}
