// The words of a query that carry meaning, for keyword evidence: no stopwords, no clitics of
// contractions ("what's", "can't", "hasn't"), no single letters; one entry per index term.
import { words } from "~/shared/fts-tokens";
import { stem } from "./stem";

const STOPWORDS = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its " +
    "me my no not of on or our she so than that the their them then there these they this to too us was we were what when " +
    "where which who whom why will with would you your yours about after all am any because before being both each few " +
    "further here just more most nor now off once only other out over own same should some such through under until up very " +
    "while again against below between down during above"
  ).split(" "),
);

/** Index terms longer than this are never looked up (FTS5 does not stem them either). */
const MAX_WORD = 64;
/** Terms looked up per query: longer queries are cut, in query order. */
export const MAX_TERMS = 32;

/** True for the (lower-case) words a keyword query leaves out. */
export const isStopword = (word: string): boolean => STOPWORDS.has(word);

/**
 * `n't` takes its verb along ("can't", "hasn't", "don't": an auxiliary and a negation), the other clitics
 * leave their word ("Dana's" → "Dana", "we're" → "we"): a bare `s` or `t` once matched every possessive.
 */
export function withoutClitics(text: string): string {
  return text.replace(/\p{L}*n['’]t(?![\p{L}\p{N}])/giu, " ").replace(/['’](?:s|d|ll|re|ve|m)(?![\p{L}\p{N}])/giu, "");
}

export interface QueryTerm {
  /** The word as typed (lower case), for typo lookups. */
  word: string;
  /** Its index term. */
  term: string;
}

/** The meaningful words of `text`, first occurrence of each index term, at most MAX_TERMS. */
export function queryTerms(text: string): QueryTerm[] {
  const seen = new Set<string>();
  const out: QueryTerm[] = [];
  for (const word of words(withoutClitics(text))) {
    if (word.length > MAX_WORD || isStopword(word) || (word.length === 1 && /\p{L}/u.test(word))) continue;
    const term = stem(word);
    if (seen.has(term)) continue;
    seen.add(term);
    out.push({ word, term });
    if (out.length === MAX_TERMS) break;
  }
  return out;
}
