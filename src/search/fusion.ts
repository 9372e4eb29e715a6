// Score fusion (pure): reciprocal rank fusion of ranked id lists, additive bonuses on top of it,
// and the final best-first ranking with scores in (0, 1].

/** k = 60 is the constant of Cormack et al. (2009): it damps the head so one list cannot dominate. */
export const RRF_K = 60;

export interface Ranked<T> {
  id: T;
  score: number;
}

/** Raw RRF scores: each list is best-first; list i adds weights[i] / (k + rank + 1) to each of its ids. */
export function rrfScores<T>(lists: T[][], weights: number[] = [], k = RRF_K): Map<T, number> {
  const scores = new Map<T, number>();
  lists.forEach((list, li) => {
    const w = weights[li] ?? 1;
    list.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + w / (k + rank + 1)));
  });
  return scores;
}

/** Each input list is best-first. Output is best-first with scores normalised so the best is 1. */
export function rrf<T>(lists: T[][], weights: number[] = [], k = RRF_K): Ranked<T>[] {
  return ranking(rrfScores(lists, weights, k));
}

/** Best-first, normalised (ties keep insertion order, so the earlier list wins). */
export function ranking<T>(scores: ReadonlyMap<T, number>): Ranked<T>[] {
  return normaliseScores([...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score));
}

/** Scales best-first scores so the best is 1 and all stay in (0, 1]. */
export function normaliseScores<T>(ranked: Ranked<T>[]): Ranked<T>[] {
  const top = ranked[0]?.score;
  if (!top || !(top > 0)) return ranked.map((r) => ({ ...r, score: 1 }));
  return ranked.map((r) => ({ id: r.id, score: Math.max(r.score / top, Number.EPSILON) }));
}
