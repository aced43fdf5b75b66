import { stemmer } from 'stemmer';

/**
 * How text becomes index terms, the same for our pages (at build) and for a visitor's question (at
 * answer time): lower case, the trade's phrases rewritten to one word ("go live" -> launch), split into
 * words, stop and chit-chat words dropped, English stems (Porter, the `stemmer` package), and each stem
 * of a synonym group turned into the group's one word ("price", "fees", "cheapest" -> cost). Because
 * both sides go through the same steps, a synonym on either side finds the other.
 */

/** Phrases first (longest and most specific first): they protect senses a single word would lose. */
const phrases: readonly (readonly [RegExp, string])[] = [
  // "live chat" is a feature, not a launch; "a lot of" is not a car lot.
  [/\blive[ -]chats?\b/g, ' livechat '],
  [/\b(a lot|lots) of\b/g, ' many '],
  [/\bpre[ -]?owned\b|\bsecond[ -]hand\b/g, ' preowned '],
  [/\bused (?=(cars?|vehicles?|autos?|trucks?|suvs?|inventory|lots?|dealers?|dealerships?)\b)/g, ' preowned '],
  [/\bhow much\b|\bwhat do you charge\b/g, ' cost '],
  // "How long until...", "how soon": a question of speed; "how long do you keep" stays a question of keeping.
  [/\bhow (long|many days|many weeks) (until|till|before|to|does it take|will it take|would it take)\b|\bhow soon\b/g, ' fast '],
  [/\bphone numbers?\b|\btelephone numbers?\b/g, ' phone '],
  [/\be-?mail address(es)?\b/g, ' email '],
  // Who is "in charge of" something is not about a charge.
  [/\bin charge of\b/g, ' responsible for '],
  [/\b(go|goes|going|went|gone|get|be|is|are|were) live\b|\blive (in|within)\b|\bup and running\b/g, ' launch '],
  [/\bsign[ -]?up\b|\benrol+\b|\bregister\b/g, ' apply '],
  [/\b(get|back|opt) out of\b/g, ' cancel '],
  [/\bmoney back\b/g, ' refund '],
  [/\b(business|opening|office|working) hours\b|\bopening times\b|\bwhat time\b|\b(open|opened) (on|at)\b/g, ' openhours '],
  [/\bon (my|a|your|their) (cell ?)?phones?\b|\bon phones\b|\bsmart ?phones?\b|\bcell ?phones?\b|\biphones?\b|\bandroid\b|\btablets?\b/g, ' mobile '],
  [/\b(started|founded|created|began) (the|this|your) (company|business)\b/g, ' founder '],
  [/\bchief executive\b/g, ' ceo '],
  // A compound is one idea: "third parties" must not weigh as two words.
  [/\bthird[ -]part(y|ies)\b/g, ' thirdparty '],
  [/\bchat ?bots?\b/g, ' chat assistant '],
  [/\bweb ?(site|page)s?\b/g, ' website '],
  [/\be-mail/g, 'email'],
  [/\btext messages?\b|\btexting\b/g, ' text '],
];

/**
 * Synonym groups: every word of a group (each form listed: the match is on the word, not its stem, so
 * "customers" never meets "custom") is indexed and searched as the group's first word.
 */
const synonymGroups: readonly (readonly string[])[] = [
  ['cost', 'costs', 'price', 'prices', 'pricing', 'priced', 'fee', 'fees', 'charge', 'charges', 'charged', 'expensive', 'cheap', 'cheaper', 'cheapest', 'afford', 'affordable'],
  ['launch', 'launches', 'launched', 'launching', 'live', 'ready'],
  ['dealership', 'dealerships', 'dealer', 'dealers', 'lot', 'lots', 'dealerfront'],
  ['website', 'websites', 'site', 'sites', 'webpage'],
  ['vehicle', 'vehicles', 'car', 'cars', 'auto', 'autos', 'automobile', 'automobiles', 'truck', 'trucks', 'suv', 'suvs'],
  ['customer', 'customers', 'shopper', 'shoppers', 'buyer', 'buyers', 'consumer', 'consumers'],
  ['cancel', 'cancels', 'cancelled', 'canceled', 'cancelling', 'canceling', 'cancellation', 'quit', 'quitting', 'terminate', 'termination'],
  ['refund', 'refunds', 'refunded', 'refundable', 'reimburse', 'reimbursed'],
  ['information', 'info', 'data'],
  ['plan', 'plans', 'package', 'packages', 'tier', 'tiers', 'subscription', 'subscriptions'],
  ['apply', 'applies', 'applied', 'applying', 'application', 'applications', 'signup'],
  ['phone', 'phones', 'telephone', 'call', 'calls', 'calling', 'ring'],
  ['fast', 'faster', 'fastest', 'quick', 'quickly', 'quicker', 'soon', 'sooner', 'speed', 'rapid', 'rapidly'],
  ['month', 'months', 'monthly'],
  ['mistake', 'mistakes', 'error', 'errors', 'wrong', 'inaccurate'],
  ['own', 'owns', 'owned', 'ownership', 'owner', 'owners'],
  ['keep', 'keeps', 'kept', 'retain', 'retained', 'retention', 'store', 'stored'],
  ['export', 'exports', 'exported', 'push', 'syndicate', 'syndication'],
  ['contract', 'contracts', 'agreement', 'agreements', 'commitment'],
  ['text', 'texts', 'sms'],
  ['mobile', 'responsive'],
  ['founder', 'founders', 'founded', 'founding'],
  ['tax', 'taxes', 'vat'],
  ['security', 'secure', 'safe', 'safety'],
  ['schedule', 'schedules', 'scheduled', 'scheduling', 'book', 'books', 'booked', 'booking', 'bookings', 'appointment', 'appointments', 'calendar', 'calendars'],
];

/**
 * Words that carry no subject: English function words, the verbs that go with any subject ("use",
 * "work", "make"), and the chit-chat of a chat box ("hi, can you tell me please..."). Dropped from
 * pages and questions alike. The brand is here too: it is on every
 * page, so it tells no passage from another, and a question about "Lotwise" alone has no subject yet.
 */
const stopWords = new Set(
  `a about above after again against all also am an and any anyone anything are aren as at be because been before being
  below between both but by can cannot could couldn did didn do does doesn doing don down during each else even ever every
  few for from further many get gets getting got had hadn has hasn have haven having he her here hers herself him himself his how
  i if in into is isn it its itself just let lets like ll may me might more most much must mustn my myself need needs no nor
  not now of off on once only or other our ours ourselves out over re really s same shall she should shouldn so some
  someone somebody something such t than that the their theirs them themselves then there these they this those through to
  too under until up us ve very was wasn we were weren what whats when where which while who whom whose why will with won
  would wouldn y you your yours yourself yourselves per via within without across along around among upon onto toward
  towards whether etc
  use uses used using work works worked working make makes made making go goes going went take takes took come comes came
  give gives gave put puts say says said see seem seems look looks find finds
  hi hello hey hiya please pls thanks thank thx ok okay yes yeah yep nope sure guys folks wondering question questions tell
  know want wanted wants wondered curious lol anyway also actually just maybe possible
  lotwise`.split(/\s+/),
);

const canonical = new Map<string, string>();
for (const group of synonymGroups) {
  const [head] = group;
  if (!head) continue;
  for (const word of group) canonical.set(word, head);
}

/** The text with curly quotes, contractions and the trade's phrases normalised, in lower case. */
function normalise(text: string): string {
  let normalised = ` ${text.toLowerCase().replace(/[\u2018\u2019\u02bc]/g, "'")} `
    // what's -> what, we're -> we, state's -> state: the clitic is never the subject.
    .replace(/'(s|re|ve|ll|d|t|m)\b/g, '');
  for (const [pattern, replacement] of phrases) normalised = normalised.replace(pattern, replacement);
  return normalised;
}

/** MiniSearch's `tokenize`: the normalised text split into words. */
export function tokenize(text: string): string[] {
  return normalise(text).split(/[^a-z0-9]+/).filter((word) => word.length > 0);
}

/**
 * Stems already worked out: the Porter stemmer is most of the cost of indexing and of a question, and
 * the same words come back. Bounded, since visitors can send any words: emptied when full.
 */
const stems = new Map<string, string>();
const stemCacheSize = 20_000;

/** MiniSearch's `processTerm`: null drops a stop word; otherwise the stem, or its synonym group's word. */
export function processTerm(word: string): string | null {
  if (stopWords.has(word)) return null;
  if (word.length === 1 && !/[0-9]/.test(word)) return null;
  const synonym = canonical.get(word);
  if (synonym) return synonym;
  let stem = stems.get(word);
  if (stem === undefined) {
    if (stems.size >= stemCacheSize) stems.clear();
    stem = stemmer(word);
    stems.set(word, stem);
  }
  return stem;
}

/** The terms of a text, in order, as the index sees them. */
export function termsOf(text: string): string[] {
  const terms: string[] = [];
  for (const word of tokenize(text)) {
    const term = processTerm(word);
    if (term) terms.push(term);
  }
  return terms;
}
