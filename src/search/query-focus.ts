// Focuses the text a query is embedded from: words found in a large share of the user's own memories
// (their names, a recurring "user") cannot tell those memories apart, yet in a static SIF embedding a
// rare name weighs as much as the words that can. LoCoMo dev: semantic R@10 37 → 49 (docs/SEARCH-QUALITY.md).

/** The user's latest memories read to estimate word shares: a bounded cost at any store size. */
export const FOCUS_SAMPLE = 200;
/** Below this many memories a share is too noisy to act on. */
export const FOCUS_MIN_SAMPLE = 20;
/** A query word found in more than this share of the sample is left out of the embedded text (flat from 0.1 to 0.4 on dev). */
export const FOCUS_MAX_SHARE = 0.25;
/**
 * Writes after which a user's common words are read again: a tenth of the sample they came from, so
 * no share moves by more than 0.1 unseen. Re-reading after every write made each search that followed
 * a write of the same user (an agent's usual turn) cost twice as much (2.7 ms instead of 1.3 ms).
 */
export const refreshAfter = (sampleSize: number) => Math.max(1, Math.ceil(sampleSize / 10));

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Pure: `query` without its words that are common in `sample`; `query` itself when nothing useful would be left. */
export function focusQuery(query: string, sample: readonly string[], maxShare = FOCUS_MAX_SHARE): string {
  return withoutCommon(query, commonWords(sample, maxShare));
}

/** Words found in more than `maxShare` of `sample` (none for a sample too small to judge): computed once per user. */
export function commonWords(sample: readonly string[], maxShare = FOCUS_MAX_SHARE): Set<string> {
  if (sample.length < FOCUS_MIN_SAMPLE) return new Set();
  const counts = new Map<string, number>();
  for (const text of sample) for (const w of new Set(words(text))) counts.set(w, (counts.get(w) ?? 0) + 1);
  return new Set([...counts].filter(([, n]) => n / sample.length > maxShare).map(([w]) => w));
}

/** `query` without the given common words; `query` itself when no real word (2+ characters) would remain. */
export function withoutCommon(query: string, common: ReadonlySet<string>): string {
  if (!common.size || !words(query).some((w) => common.has(w))) return query;
  const focused = query.replace(/[\p{L}\p{N}]+/gu, (w) => (common.has(w.toLowerCase()) ? "" : w));
  // "Caroline's?" must not shrink to "'s?": keep the query unless a real word (2+ characters) remains.
  return words(focused).some((w) => w.length > 1) ? focused : query;
}
