// Score fusion: RRF, the additive graph bonus on top of it, and the final normalised ranking.
import { describe, expect, test } from "bun:test";
import { normaliseScores, ranking, rrf, rrfScores } from "~/search/fusion";

describe("rrf", () => {
  test("adds weight / (k + rank + 1) per list and ranks best first, normalised to 1", () => {
    const scores = rrfScores(
      [
        ["a", "b"],
        ["b", "c"],
      ],
      [0.5, 1],
      10,
    );
    expect(scores.get("a")).toBeCloseTo(0.5 / 11);
    expect(scores.get("b")).toBeCloseTo(0.5 / 12 + 1 / 11);
    expect(scores.get("c")).toBeCloseTo(1 / 12);
    const ranked = rrf(
      [
        ["a", "b"],
        ["b", "c"],
      ],
      [0.5, 1],
      10,
    );
    expect(ranked.map((r) => r.id)).toEqual(["b", "c", "a"]);
    expect(ranked[0]!.score).toBe(1);
  });

  test("ties keep the order in which ids were first seen", () => {
    expect(rrf([["a"], ["b"]]).map((r) => r.id)).toEqual(["a", "b"]);
  });
});

describe("normaliseScores", () => {
  test("the best becomes 1 and every score stays above 0", () => {
    expect(
      normaliseScores([
        { id: 1, score: 4 },
        { id: 2, score: 0 },
      ]).map((r) => r.score),
    ).toEqual([1, Number.EPSILON]);
    expect(normaliseScores([{ id: 1, score: 0 }]).map((r) => r.score)).toEqual([1]);
  });
});
