// The built-in model's vocabulary as a word list (75k words of GloVe's most frequent, names included):
// the real words that typo tolerance never takes for a typo (search/typos.ts). ~4 MB of heap, read once per
// models folder and process, after the model has loaded or at the first search (search.service.ts), on a
// thread of its own (src/words-worker.ts, word-list.ts): the server thread only builds the set.
import { installBuiltinModel } from "./builtin-model";

const loaded = new Map<string, Promise<ReadonlySet<string>>>();

/**
 * The built-in model's words (the model installed first if need be), read once per models folder: every
 * engine of a process shares them (a test suite builds hundreds, and checking and parsing the model each
 * time cost ~0.5 s of CPU per engine). A failure is forgotten, so the next engine tries again.
 * `workerUrl`: the reading thread's entry, given by the composition root.
 */
export function builtinKnownWords(modelsDir: string, workerUrl: string): Promise<ReadonlySet<string>> {
  let words = loaded.get(modelsDir);
  if (!words) {
    words = installBuiltinModel(modelsDir).then((dir) => readKnownWordsOffThread(workerUrl, dir));
    words.catch(() => loaded.delete(modelsDir));
    loaded.set(modelsDir, words);
  }
  return words;
}

/** The words of the model in `modelDir`, read by a worker that ends with its answer (it never holds the process open). */
export function readKnownWordsOffThread(workerUrl: string, modelDir: string): Promise<ReadonlySet<string>> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl, { smol: true, ref: false });
    worker.onmessage = (event: MessageEvent<{ words?: string; error?: string }>) => {
      worker.terminate();
      const { words, error } = event.data;
      if (words === undefined) reject(new Error(error ?? "the word list worker answered nothing"));
      else resolve(new Set(words.split("\n")));
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(`the word list worker failed: ${event.message}`));
    };
    worker.postMessage(modelDir);
  });
}
