// Reciprocal rank fusion (pure): merges ranked id lists into one ranking with scores in (0, 1].

/** k = 60 is the constant of Cormack et al. (2009): it damps the head so one list cannot dominate. */
export const RRF_K = 60;

export interface Ranked<T> {
  id: T;
  score: number;
}

/** Each input list is best-first. Output is best-first with scores normalised so the best is 1. */
export function rrf<T>(lists: T[][], weights: number[] = [], k = RRF_K): Ranked<T>[] {
  const scores = new Map<T, number>();
  lists.forEach((list, li) => {
    const w = weights[li] ?? 1;
    list.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + w / (k + rank + 1)));
  });
  return normaliseScores([...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score));
}

/** Scales best-first scores so the best is 1 and all stay in (0, 1]. */
export function normaliseScores<T>(ranked: Ranked<T>[]): Ranked<T>[] {
  const top = ranked[0]?.score;
  if (!top || !(top > 0)) return ranked.map((r) => ({ ...r, score: 1 }));
  return ranked.map((r) => ({ id: r.id, score: Math.max(r.score / top, Number.EPSILON) }));
}
