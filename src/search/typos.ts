// Typo tolerance (pure): which of a user's index terms a query word not in their vocabulary may have
// meant — within one edit (insertion, deletion, substitution, or two neighbours swapped) of the word as
// typed or without a common suffix, since index terms are Porter stems ("hargrove" is indexed as
// "hargrov": "hargrve" is two edits from it, "hargrv" one). Only words of TYPO_MIN_LENGTH+ characters
// that are not known words are tried.
import { fold } from "./query-terms";

/** Shorter words have too many neighbours ("car", "cat", "can") to guess from. */
export const TYPO_MIN_LENGTH = 4;

/** True when `a` and `b` differ by at most one insertion, deletion, substitution or adjacent swap. */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (long.length - short.length > 1) return false;
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  if (short.length === long.length) {
    if (short.slice(i + 1) === long.slice(i + 1)) return true; // substitution
    return short[i] === long[i + 1] && short[i + 1] === long[i] && short.slice(i + 2) === long.slice(i + 2);
  }
  return short.slice(i) === long.slice(i + 1); // insertion
}

/** Whether `word` (as typed, lower case) is worth a typo lookup; `known` says whether it is a real word. */
export function mayBeTypo(word: string, known: (word: string) => boolean): boolean {
  const folded = fold(word);
  return folded.length >= TYPO_MIN_LENGTH && !/\p{N}/u.test(folded) && !known(folded);
}

/** Endings the Porter stemmer removes or rewrites most often; a typed word is compared with and without them. */
const SUFFIXES: [string, string][] = [
  ["e", ""],
  ["s", ""],
  ["es", ""],
  ["ed", ""],
  ["ing", ""],
  ["ly", ""],
  ["ion", ""],
  ["ions", ""],
  ["y", "i"],
];

/** The word and its forms without a common ending (what its index term may look like). */
function forms(word: string): string[] {
  const folded = fold(word);
  const endings = SUFFIXES.filter(([s]) => folded.length - s.length >= 3 && folded.endsWith(s));
  return [folded, ...endings.map(([s, r]) => folded.slice(0, -s.length) + r)];
}

/** The index terms of `vocabulary` within one edit of `word` or of one of its forms without an ending. */
export function corrections(word: string, vocabulary: Iterable<string>): string[] {
  const candidates = forms(word);
  const out: string[] = [];
  for (const term of vocabulary) if (term.length >= 3 && candidates.some((c) => oneEditApart(c, term))) out.push(term);
  return out;
}
