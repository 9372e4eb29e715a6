// Focuses the text a query is embedded from: words found in a large share of the user's own memories
// (their names, a recurring "user") cannot tell those memories apart, yet in a static SIF embedding a
// rare name weighs as much as the words that can. LoCoMo dev: semantic R@10 37 → 49 (docs/SEARCH-QUALITY.md).
import type { Db } from "~/store/sqlite";

/** The user's latest memories read to estimate word shares: a bounded cost at any store size. */
export const FOCUS_SAMPLE = 200;
/** Below this many memories a share is too noisy to act on. */
export const FOCUS_MIN_SAMPLE = 20;
/** A query word found in more than this share of the sample is left out of the embedded text (flat from 0.1 to 0.4 on dev). */
export const FOCUS_MAX_SHARE = 0.25;

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Pure: `query` without its words that are common in `sample`; `query` itself when nothing useful would be left. */
export function focusQuery(query: string, sample: readonly string[], maxShare = FOCUS_MAX_SHARE): string {
  if (sample.length < FOCUS_MIN_SAMPLE) return query;
  const common = new Set([...new Set(words(query))].filter((w) => share(w, sample) > maxShare));
  if (!common.size) return query;
  const focused = query.replace(/[\p{L}\p{N}]+/gu, (w) => (common.has(w.toLowerCase()) ? "" : w));
  // "Caroline's?" must not shrink to "'s?": keep the query unless a real word (2+ characters) remains.
  return words(focused).some((w) => w.length > 1) ? focused : query;
}

/** Share of texts holding `word` as a whole word (one regex per word: 5× faster than tokenising the sample). */
function share(word: string, texts: readonly string[]): number {
  // `word` is letters and digits only, so it is safe inside a pattern.
  const re = new RegExp(`(?<![\\p{L}\\p{N}])${word}(?![\\p{L}\\p{N}])`, "iu");
  let n = 0;
  for (const t of texts) if (re.test(t)) n++;
  return n / texts.length;
}

/** The user's latest memory texts (any agent or session: only word shares are wanted). */
export function recentTexts(db: Db, userId: string, n = FOCUS_SAMPLE): string[] {
  return db
    .query<{ memory: string }, [string, number]>("SELECT memory FROM memories WHERE user_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?")
    .all(userId, n)
    .map((r) => r.memory);
}
