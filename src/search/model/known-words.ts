// The built-in model's vocabulary as a word list (75k words of GloVe's most frequent, names included):
// the real words that typo tolerance never takes for a typo (search/typos.ts). ~4 MB of heap, read once
// in the background at start (~0.2 s).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fold } from "../query-terms";

/** Whole words of a WordPiece tokenizer.json (no ##pieces, no [SPECIAL] tokens), folded. */
export function readKnownWords(modelDir: string): Set<string> {
  const json = JSON.parse(readFileSync(join(modelDir, "tokenizer.json"), "utf8")) as {
    model: { vocab: Record<string, number> };
  };
  const words = new Set<string>();
  for (const token of Object.keys(json.model.vocab)) if (/^\p{L}+$/u.test(token)) words.add(fold(token));
  return words;
}
