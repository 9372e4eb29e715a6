// The one function that turns user text into safe FTS5 MATCH expressions: only letter/digit runs
// survive, each is quoted, and terms are OR-ed so one missing word never empties a result; a query
// of stopwords alone is first tried as a phrase.

import { words } from "./fts-tokens";

const STOPWORDS = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its " +
    "me my no not of on or our she so than that the their them then there these they this to too us was we were what when " +
    "where which who whom why will with would you your yours about after all am any because before being both each few " +
    "further here just more most nor now off once only other out over own same should some such through under until up very " +
    "while again against below between down during above"
  ).split(" "),
);

const MAX_TERMS = 32;

/** True for the (lower-case) words the keyword query leaves out. */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/**
 * The MATCH expressions to try, in order: the first that finds a visible memory answers (none for text
 * without a searchable term). `prefix`: the user's token namespace (fts-tokens.ts), put in front of
 * every term as it was at indexing time.
 *
 * A query of only stopwords ("who is it") still deserves an answer. Its words in that order, a phrase, come
 * first, then the same words OR-ed: OR-ed alone they matched nearly every memory of the user and BM25 scored
 * each one (660 µs a query at 1,000 memories a user, growing with the user; the phrase costs 97 µs).
 */
export function toFtsQueries(text: string, prefix = ""): string[] {
  const found = words(text);
  const all = found.filter((w) => w.length <= 64);
  const unique = [...new Set(all)];
  const content = unique.filter((w) => !STOPWORDS.has(w));
  const quote = (t: string) => `"${prefix}${t}"`;
  const anyOf = (terms: string[]) => terms.slice(0, MAX_TERMS).map(quote).join(" OR ");
  if (content.length) return [anyOf(content)];
  if (!all.length) return [];
  // A word left out for its length would make neighbours of the words around it.
  if (all.length < 2 || all.length < found.length) return [anyOf(unique)];
  return [all.slice(0, MAX_TERMS).map(quote).join(" + "), anyOf(unique)];
}
