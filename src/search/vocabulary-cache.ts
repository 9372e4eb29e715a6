// The typo vocabulary of a user's memories (their index terms by first letter, keyword-evidence.ts), kept
// between searches while the user's change counter stands still. On PostgreSQL reading it scans the
// user's tsvectors (about 10 ms at 1k memories) on every search with a word they never wrote; the counter
// (Store.userChangeVersion, the one the search-result cache checks) moves with every change to the user's
// memories on any node, so a term written anywhere is a correction at the next search.
import { ownerKey } from "~/shared/principal";
import { LruCache } from "./lru-cache";
import type { Owner } from "~/store/store";

/** Vocabularies kept (user × first letter); the least recently used goes first. Each holds up to VOCABULARY_SCAN terms. */
const MAX_ENTRIES = 512;

export class VocabularyCache {
  private readonly entries = new LruCache<string, { version: number; terms: string[] }>(MAX_ENTRIES);
  /** Answers from memory since start (for tests and /metrics-style checks). */
  hits = 0;

  /** `version`: the user's change counter now, asked before any read it could vouch for. */
  constructor(private readonly version: (owner: Owner) => Promise<number>) {}

  /**
   * The user's terms starting with `prefix`: from memory while the counter has not moved since they were
   * read, else `read()`. The counter is read before the terms, so terms cached under it are never older
   * than it says (a write between the two reads only makes them newer, and the next search reads again).
   */
  async terms(owner: Owner, prefix: string, read: () => Promise<string[]>): Promise<string[]> {
    const key = `${ownerKey(owner)}:${prefix}`;
    const version = await this.version(owner);
    const cached = this.entries.get(key);
    if (cached && cached.version === version) {
      this.hits++;
      return cached.terms;
    }
    const terms = await read();
    this.entries.set(key, { version, terms });
    return terms;
  }
}
