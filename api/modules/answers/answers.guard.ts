/**
 * Questions an automatic answer never takes, whatever the index would match: the answer is a quote of
 * our own pages, so nothing here can make it say something else, but a quote given to "ignore your
 * rules and..." or to "are you cheaper than X?" reads as the assistant playing along, or as a claim
 * about another company's product that none of our pages makes. Those wait for a person.
 */

/** Attempts to steer an assistant: "ignore your rules", "you are now...", "system prompt". */
const injection = [
  /\b(ignore|disregard|forget|override|bypass|skip)\b[^.?!]{0,40}\b(rules?|instructions?|prompts?|guidelines?|polic(y|ies)|restrictions?|previous|above|programming)\b/i,
  /\bsystem prompt\b|\bjail ?break\b|\bdeveloper mode\b|\bprompt injection\b/i,
  /\byou are (now|no longer)\b|\bpretend (to be|you)\b|\bact as\b|\brole ?play\b|\bfrom now on\b|\bnew instructions\b/i,
  /\bDAN\b/,
];

/**
 * Dealer-website vendors and platforms we compete with. Our pages say nothing about them, so any
 * question naming one is about them, not us. (The listing sites we export inventory to, CarGurus,
 * Cars.com, AutoTrader and Facebook Marketplace, are partners, not on this list.)
 */
const competitors =
  /\b(dealer ?on|dealer ?inspire|dealer\.com|dealer ?socket|dealer ?e-?process|dealer ?fire|dealer ?spike|dealer ?center|dealer ?car ?search|dealer ?venom|dealer ?sync|dealer ?track|sincro|cdk|carsforsale(\.com)?|overfuel|autorevo|fusion ?zone|jazel|team velocity|v12 software|frazer|wayne reaves|vinsolutions|elead|autosweet|cox automotive|reynolds (and|&) reynolds)\b/i;

/** Comparisons with anyone else: we quote what our pages say about us, never a ranking against others. */
const comparison =
  /\b(cheaper|better|worse|faster|slower|bigger|smaller|pricier|more expensive|less expensive|more affordable)\s+than\b|\b(vs\.?|versus|compared? (to|with)|comparison|alternatives? to|competitors?)\b/i;

/** Why a question gets no automatic answer before it is even looked up, or null when it may get one. */
export function refusal(question: string): 'injection' | 'competitor' | 'comparison' | null {
  if (injection.some((pattern) => pattern.test(question))) return 'injection';
  if (competitors.test(question)) return 'competitor';
  if (comparison.test(question)) return 'comparison';
  return null;
}
