// The built-in model's vocabulary as a word list: the whole words of a WordPiece tokenizer.json, folded.
// Read on a thread of its own (src/words-worker.ts, started by known-words.ts): it imports only what the read
// needs, not the model's installer.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fold } from "../query-terms";

/**
 * Whole words of a WordPiece tokenizer.json (no ##pieces, no [SPECIAL] tokens), folded, one a line. Two
 * tokens may fold to one word: the set the server thread builds from the lines keeps it once.
 */
export function readKnownWords(modelDir: string): string {
  const json = JSON.parse(readFileSync(join(modelDir, "tokenizer.json"), "utf8")) as {
    model: { vocab: Record<string, number> };
  };
  return Object.keys(json.model.vocab)
    .filter((token) => /^\p{L}+$/u.test(token))
    .map(fold)
    .join("\n");
}
