// The built-in model's vocabulary as a word list (75k words of GloVe's most frequent, names included):
// the real words that typo tolerance never takes for a typo (search/typos.ts). ~4 MB of heap, ~60 ms to
// read, once per models folder and process: after the model has loaded or at the first search (search.service.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fold } from "../query-terms";
import { installBuiltinModel } from "./builtin-model";

/** Whole words of a WordPiece tokenizer.json (no ##pieces, no [SPECIAL] tokens), folded. */
export function readKnownWords(modelDir: string): Set<string> {
  const json = JSON.parse(readFileSync(join(modelDir, "tokenizer.json"), "utf8")) as {
    model: { vocab: Record<string, number> };
  };
  const words = new Set<string>();
  for (const token of Object.keys(json.model.vocab)) if (/^\p{L}+$/u.test(token)) words.add(fold(token));
  return words;
}

const loaded = new Map<string, Promise<ReadonlySet<string>>>();

/**
 * The built-in model's words (the model installed first if need be), read once per models folder: every
 * engine of a process shares them (a test suite builds hundreds, and checking and parsing the model each
 * time cost ~0.5 s of CPU per engine). A failure is forgotten, so the next engine tries again.
 */
export function builtinKnownWords(modelsDir: string): Promise<ReadonlySet<string>> {
  let words = loaded.get(modelsDir);
  if (!words) {
    words = installBuiltinModel(modelsDir).then(readKnownWords);
    words.catch(() => loaded.delete(modelsDir));
    loaded.set(modelsDir, words);
  }
  return words;
}
