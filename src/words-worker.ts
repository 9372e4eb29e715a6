// The entry of the thread that reads the typo word list (search/model/known-words.ts): parsing the model's
// tokenizer.json took ~40 ms of the server thread, and a keyword-only server, which loads no model first,
// answered its first /health after it. Messages: a model folder in, {words} (one a line) or {error} out.
import { readKnownWords } from "./search/model/word-list";

declare const self: Worker;

self.onmessage = (event: MessageEvent<string>) => {
  try {
    self.postMessage({ words: readKnownWords(event.data) });
  } catch (e) {
    self.postMessage({ error: (e as Error).message });
  }
};
