import { describe, expect, test } from "bun:test";
import { coverage, idf, relevance, withReply } from "~/search/relevance";

describe("coverage", () => {
  test("is each memory's share of the query's idf weight", () => {
    // 10 memories; "rare" in one, "common" in five: idf 2.35 and 0.69.
    const shares = coverage([{ rowids: [1] }, { rowids: [1, 2, 3, 4, 5] }], 10);
    const [rare, common] = [idf(10, 1), idf(10, 5)];
    expect(shares.get(1)).toBeCloseTo(1, 12);
    expect(shares.get(2)).toBeCloseTo(common / (rare + common), 12);
    expect(shares.has(6)).toBe(false);
  });

  test("counts a term no memory holds in the total", () => {
    const shares = coverage([{ rowids: [7] }, { rowids: [] }], 10);
    expect(shares.get(7)).toBeCloseTo(idf(10, 1) / (idf(10, 1) + idf(10, 0)), 12);
  });

  test("gives a corrected term its weight's share only", () => {
    expect(coverage([{ rowids: [1], weight: 0.5 }], 3).get(1)).toBeCloseTo(0.5, 12);
  });

  test("is empty without terms", () => expect(coverage([], 5).size).toBe(0));
});

describe("relevance", () => {
  test("is a probability that grows with either kind of evidence", () => {
    const weak = relevance(0.1, 0);
    expect(weak).toBeGreaterThan(0);
    expect(weak).toBeLessThan(0.05);
    expect(relevance(0.5, 0)).toBeGreaterThan(weak);
    expect(relevance(0.1, 0.5)).toBeGreaterThan(weak);
    expect(relevance(0.7, 1)).toBeGreaterThan(0.95);
    expect(relevance(null, 1)).toBeGreaterThan(relevance(null, 0.3));
  });

  test("a reply earns its question's score at the reply share, as a noisy OR", () => {
    expect(withReply(0, 0.8, 0.5)).toBeCloseTo(0.4, 12);
    expect(withReply(0.5, 0.8, 0.5)).toBeCloseTo(0.7, 12);
    expect(withReply(1, 1, 1)).toBe(1);
  });
});
