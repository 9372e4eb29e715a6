// The one function that turns user text into safe FTS5 MATCH expressions: only letter/digit runs
// survive, each is quoted, and terms are OR-ed so one missing word never empties a result; a query
// of stopwords alone is first tried as a phrase.

import { isStopword, MAX_TERMS, words } from "../keyword-words";

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
  const content = unique.filter((w) => !isStopword(w));
  const quote = (t: string) => `"${prefix}${t}"`;
  const anyOf = (terms: string[]) => terms.slice(0, MAX_TERMS).map(quote).join(" OR ");
  if (content.length) return [anyOf(content)];
  if (!all.length) return [];
  // A word left out for its length would make neighbours of the words around it.
  if (all.length < 2 || all.length < found.length) return [anyOf(unique)];
  return [all.slice(0, MAX_TERMS).map(quote).join(" + "), anyOf(unique)];
}
