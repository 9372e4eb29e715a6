// Calibration figures of the evals (pure): ROC AUC of two score samples, and what a fixed score
// threshold keeps — the precision of what it keeps, the answers it keeps, the non-answers it drops.

/** One returned result, judged: `relevant` = it is a gold memory of its question. */
export interface Judged {
  key: string;
  score: number;
  relevant: boolean;
}

/** P(a random positive outscores a random negative), ties counting half (Mann–Whitney U / (m·n)). */
export function aucOf(positives: readonly number[], negatives: readonly number[]): number {
  if (!positives.length || !negatives.length) return Number.NaN;
  const all = [...positives.map((s) => ({ s, pos: true })), ...negatives.map((s) => ({ s, pos: false }))].sort(
    (a, b) => a.s - b.s,
  );
  let rankSum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j]!.s === all[i]!.s) j++;
    const midRank = (i + 1 + j) / 2; // 1-based mean rank of the tie group
    for (let k = i; k < j; k++) if (all[k]!.pos) rankSum += midRank;
    i = j;
  }
  const m = positives.length;
  return (rankSum - (m * (m + 1)) / 2) / (m * negatives.length);
}

/**
 * At `threshold`: precision = gold share of the results kept over all questions; recall = share of answerable
 * questions whose gold result is kept; emptyUnanswerable = share of unanswerable questions with nothing kept.
 */
export function atThreshold(answerable: readonly Judged[][], unanswerable: readonly Judged[][], threshold: number) {
  const kept = (rs: readonly Judged[]) => rs.filter((r) => r.score >= threshold);
  const all = [...answerable, ...unanswerable].flatMap(kept);
  const share = (n: number, d: number) => (d ? n / d : 0);
  return {
    precision: share(all.filter((r) => r.relevant).length, all.length),
    recall: share(answerable.filter((rs) => kept(rs).some((r) => r.relevant)).length, answerable.length),
    emptyUnanswerable: share(unanswerable.filter((rs) => !kept(rs).length).length, unanswerable.length),
  };
}
