// The one function that turns user text into a safe FTS5 MATCH expression: only letter/digit
// runs survive, each is quoted, and terms are OR-ed so one missing word never empties a result.

import { words } from "~/shared/fts-tokens";

const STOPWORDS = new Set(
  ("a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its " +
    "me my no not of on or our she so than that the their them then there these they this to too us was we were what when " +
    "where which who whom why will with would you your yours about after all am any because before being both each few " +
    "further here just more most nor now off once only other out over own same should some such through under until up very " +
    "while again against below between down during above").split(" "),
);

const MAX_TERMS = 32;

/** True for the (lower-case) words the keyword query leaves out. */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/**
 * Returns null when the text holds no searchable term. `prefix`: the user's token namespace
 * (shared/fts-tokens.ts), put in front of every term as it was at indexing time.
 */
export function toFtsQuery(text: string, prefix = ""): string | null {
  const unique = [...new Set(words(text))].filter((w) => w.length <= 64);
  const content = unique.filter((w) => !STOPWORDS.has(w));
  // A query of only stopwords ("who is it") still deserves an answer.
  const terms = (content.length ? content : unique).slice(0, MAX_TERMS);
  if (terms.length === 0) return null;
  return terms.map((t) => `"${prefix}${t}"`).join(" OR ");
}
