// Whether a question shares a content word with a memory, the way keyword search sees words: FTS5's own
// porter + unicode61 tokenizer, without the stopwords the keyword query leaves out. For the eval's
// "no shared word" rows, independent of any matching the product adds (typos, expansions).
import { loadConfig } from "~/config/load-config";
import { openDb } from "~/store/sqlite/connection";
import { isStopword, words } from "~/store/keyword-words";

const config = loadConfig({ options: { storeUrl: "sqlite::memory:" }, env: process.env });
const db = await openDb(":memory:", { nativeCacheDir: config.cacheDir });
db.run("CREATE VIRTUAL TABLE overlap USING fts5 (text, tokenize = 'porter unicode61 remove_diacritics 2')");

export function sharesWord(question: string, memory: string): boolean {
  const terms = words(question).filter((w) => !isStopword(w));
  if (!terms.length) return false;
  db.run("DELETE FROM overlap");
  db.query("INSERT INTO overlap (rowid, text) VALUES (1, ?)").run(memory);
  const match = terms.map((t) => `"${t}"`).join(" OR ");
  return db.query("SELECT rowid FROM overlap WHERE overlap MATCH ?").get(match) !== null;
}
