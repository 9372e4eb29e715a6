import { describe, expect, test } from "bun:test";
import {
  applySifWeights,
  harmonic,
  quantiseRows,
  removeComponents,
  topEigenvectors,
  zipfProbabilities,
} from "~/search/model/sif.ts";

describe("SIF weighting", () => {
  test("the harmonic number normalises Zipf probabilities", () => {
    expect(harmonic(4)).toBeCloseTo(1 + 1 / 2 + 1 / 3 + 1 / 4, 12);
    const p = zipfProbabilities(Int32Array.of(1, 2, 3, 4), 4);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(p[0]! / p[1]!).toBeCloseTo(2, 12);
  });

  test("a row is scaled by a / (a + p)", () => {
    const v = Float32Array.of(1, 2, 1, 2);
    applySifWeights(v, 2, Float64Array.of(0.001, 0.003), 0.001);
    expect([...v]).toEqual([0.5, 1, 0.25, 0.5]);
  });
});

describe("common component removal", () => {
  test("the top eigenvector of a diagonal matrix is its largest axis", () => {
    const [u, w] = topEigenvectors(Float64Array.of(1, 0, 0, 0, 5, 0, 0, 0, 2), 3, 2);
    expect([...u!].map((x) => Math.round(Math.abs(x) * 1e6) / 1e6)).toEqual([0, 1, 0]);
    expect([...w!].map((x) => Math.round(Math.abs(x) * 1e6) / 1e6)).toEqual([0, 0, 1]);
  });

  test("removing a component leaves rows orthogonal to it", () => {
    const v = Float32Array.of(3, 4, 1, 1);
    removeComponents(v, 2, [Float64Array.of(1, 0)]);
    expect([...v]).toEqual([0, 4, 0, 1]);
  });
});

describe("int8 quantisation", () => {
  test("each row keeps its largest magnitude at ±127 with a per-row scale", () => {
    const { rows, scales } = quantiseRows(Float32Array.of(0.5, -1, 0.25, 0, 0, 0), 3);
    expect([...rows]).toEqual([64, -127, 32, 0, 0, 0]);
    expect(scales[0]).toBeCloseTo(1 / 127, 9);
    expect(scales[1]).toBe(0);
  });
});
