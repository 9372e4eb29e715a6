// Deterministic synthetic memory texts (5–40 words) for benchmarks: a seeded PRNG drawing
// words with Zipf's law from the 20k most frequent words of the built-in model's vocabulary,
// so term frequencies look like English (a few very common words, a long tail).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "~/config/load-config";
import { installBuiltinModel } from "~/search/model/builtin-model";

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Vocabulary {
  words: string[];
  /** Cumulative Zipf weights, for sampling by binary search. */
  cumulative: Float64Array;
}

export async function loadVocabulary(size = 20_000): Promise<Vocabulary> {
  const dir = await installBuiltinModel(loadConfig({ argv: [] }).modelsDir);
  const vocab = (
    JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8")) as { model: { vocab: Record<string, number> } }
  ).model.vocab;
  const words = Object.entries(vocab)
    .filter(([w]) => /^[a-z]{2,}$/.test(w))
    .sort((a, b) => a[1] - b[1])
    .slice(0, size)
    .map(([w]) => w);
  const cumulative = new Float64Array(words.length);
  let sum = 0;
  words.forEach((_, i) => (cumulative[i] = sum += 1 / Math.pow(i + 1, 1.07)));
  return { words, cumulative };
}

function pick(v: Vocabulary, rnd: () => number): string {
  const target = rnd() * v.cumulative[v.cumulative.length - 1]!;
  let lo = 0;
  let hi = v.cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (v.cumulative[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return v.words[lo]!;
}

export function makeText(v: Vocabulary, rnd: () => number, min = 5, max = 40): string {
  const n = min + Math.floor(rnd() * (max - min + 1));
  return Array.from({ length: n }, () => pick(v, rnd)).join(" ");
}
