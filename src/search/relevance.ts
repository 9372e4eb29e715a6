// Absolute relevance (pure): how much of a query's term weight a memory matches (keyword evidence),
// and the calibrated score in [0, 1] that combines it with the cosine of the two embeddings.
// Constants fitted on the tuning half of the paraphrase set (docs/SEARCH-QUALITY.md, "Scores").

/** BM25's inverse document frequency (Robertson–Spärck Jones, as in FTS5's bm25()) over the user's memories. */
export const idf = (docs: number, df: number): number => Math.log(1 + (Math.max(docs, df) - df + 0.5) / (df + 0.5));

/** One query term as the user's memories hold it: the memories that contain it. */
export interface TermDocs {
  /** Memories of the user that contain the term (its document frequency is their number). */
  rowids: readonly number[];
  /** Share of its weight a match earns (1; less for a term found through a typo correction). */
  weight?: number;
}

/**
 * Each memory's share of the query's term weight (idf) that it matches, in (0, 1]: BM25 with term frequency
 * saturated at once, normalised by what a memory matching every term would get. A term no memory holds
 * still counts in the total: asked about, not found. Memories matching nothing are absent.
 */
export function coverage(terms: readonly TermDocs[], docs: number): Map<number, number> {
  const weights = terms.map((t) => idf(docs, t.rowids.length));
  const total = weights.reduce((a, w) => a + w, 0);
  const matched = new Map<number, number>();
  if (!(total > 0)) return matched;
  // Summed in the total's order and divided once: a memory holding every term gets exactly 1.
  terms.forEach((t, i) => {
    const w = weights[i]! * (t.weight ?? 1);
    for (const rowid of t.rowids) matched.set(rowid, (matched.get(rowid) ?? 0) + w);
  });
  for (const [rowid, w] of matched) matched.set(rowid, w / total);
  return matched;
}

/**
 * The calibrated score: P(relevant) by logistic regression on the tuning half's candidates. Semantic and
 * keyword evidence count alike (cosine + coverage; the ratio was flat from 0.8 to 1.2 on tuning data and
 * LoCoMo dev), so a memory that shares no word with the query still ranks by meaning. Without a query
 * vector (keyword-only server, or no known word in the query) the keyword-only fit applies.
 */
export const CALIBRATION = {
  hybrid: { scale: 6.235, offset: -5.371 },
  keyword: { scale: 4.862, offset: -2.415 },
} as const;

/**
 * The min_score to suggest to callers: on the tuning personas (hybrid, built-in model) it kept 49 % of
 * the answers at 52 % precision and left 78 % of the questions without an answer empty, the best F1
 * of 0.1–0.4. A static model scores a paraphrase that shares no word low, hence so low a threshold.
 */
export const SUGGESTED_MIN_SCORE = 0.15;

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** `cosine` null: no query vector. A memory without a vector of its own (no known word) has cosine 0. */
export function relevance(cosine: number | null, keywordShare: number): number {
  if (cosine === null) return sigmoid(CALIBRATION.keyword.scale * keywordShare + CALIBRATION.keyword.offset);
  return sigmoid(CALIBRATION.hybrid.scale * (cosine + keywordShare) + CALIBRATION.hybrid.offset);
}

/**
 * A question's reply (reply-context.ts) is relevant when it is so on its own or when the question is and the
 * reply answers it (probability `share`): a noisy OR, so the score stays a probability.
 */
export const withReply = (own: number, question: number, share: number): number =>
  1 - (1 - own) * (1 - share * question);
