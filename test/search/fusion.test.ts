// Score fusion: RRF, the additive graph bonus on top of it, and the final normalised ranking.
import { describe, expect, test } from "bun:test";
import { addBonus, normaliseScores, ranking, rrf, rrfScores } from "~/search/fusion";

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

describe("addBonus (the graph boost)", () => {
  test("lifts a boosted id above an unboosted one just ahead of it, by its share of the bonus", () => {
    const scores = rrfScores([["plain", "mentions", "other"]], [1], 10);
    expect(ranking(scores).map((r) => r.id)).toEqual(["plain", "mentions", "other"]);
    addBonus(scores, new Map([["mentions", 1]]), 0.25 / 11);
    expect(ranking(scores).map((r) => r.id)).toEqual(["mentions", "plain", "other"]);
  });

  test("is small: a boosted id does not jump over a clearly better one", () => {
    const scores = rrfScores([["best", "b", "c", "d", "mentions"]], [1], 10);
    addBonus(scores, new Map([["mentions", 1]]), 0.25 / 11);
    expect(ranking(scores).map((r) => r.id)[0]).toBe("best");
    expect(
      ranking(scores)
        .map((r) => r.id)
        .indexOf("mentions"),
    ).toBeLessThan(4);
  });

  test("a partial share earns part of the bonus; ids not ranked yet join with the bonus alone", () => {
    const scores = new Map([["a", 0.1]]);
    addBonus(
      scores,
      new Map([
        ["a", 0.5],
        ["new", 2],
      ]),
      0.04,
    );
    expect(scores.get("a")).toBeCloseTo(0.12);
    expect(scores.get("new")).toBeCloseTo(0.04); // shares are capped at 1
  });

  test("a zero or negative bonus changes nothing", () => {
    const scores = new Map([["a", 0.1]]);
    addBonus(
      scores,
      new Map([
        ["a", 1],
        ["b", 1],
      ]),
      0,
    );
    expect([...scores]).toEqual([["a", 0.1]]);
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
