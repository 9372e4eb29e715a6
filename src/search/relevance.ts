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
  const shares = new Map<number, number>();
  if (!(total > 0)) return shares;
  terms.forEach((t, i) => {
    const share = (weights[i]! * (t.weight ?? 1)) / total;
    for (const rowid of t.rowids) shares.set(rowid, (shares.get(rowid) ?? 0) + share);
  });
  return shares;
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
