// The words of a query that carry meaning, for keyword evidence: no stopwords, no clitics of
// contractions ("what's", "can't", "hasn't"), no single letters; each word once.
import { isStopword } from "~/shared/stopwords";

/** Letters (with combining marks) and digits: the runs the index's unicode61 tokenizer keeps (store/sqlite/fts-tokens.ts). */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** Lower case without diacritics ("Café" → "cafe"), as the index's tokenizer folds words. */
export const fold = (word: string): string =>
  word
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();

/** Words longer than this are never looked up. */
const MAX_WORD = 64;
/** Terms looked up per query: longer queries are cut, in query order. */
export const MAX_TERMS = 32;

export { isStopword };

/**
 * `n't` takes its verb along ("can't", "hasn't", "don't": an auxiliary and a negation), the other clitics
 * leave their word ("Dana's" → "Dana", "we're" → "we"): a bare `s` or `t` once matched every possessive.
 */
export function withoutClitics(text: string): string {
  return text.replace(/\p{L}*n['’]t(?![\p{L}\p{N}])/giu, " ").replace(/['’](?:s|d|ll|re|ve|m)(?![\p{L}\p{N}])/giu, "");
}

/** The meaningful words of `text`, folded, each once, in query order, at most MAX_TERMS. */
export function queryTerms(text: string): string[] {
  const out = new Set<string>();
  for (const word of withoutClitics(text).match(WORD) ?? []) {
    const folded = fold(word);
    if (folded.length > MAX_WORD || isStopword(folded) || (folded.length === 1 && /\p{L}/u.test(folded))) continue;
    out.add(folded);
    if (out.size === MAX_TERMS) break;
  }
  return [...out];
}
