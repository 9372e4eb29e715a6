// What ranking reads: keyword candidates, the rows a result shows, and reply pairs, each inside the
// visibility rules of SPEC §2.3 (user, agent, session, expiry, metadata), which the engine applies in
// its own query language (never by filtering afterwards).

import type { Owner } from "./memory-repo";

export interface MemoryFilter {
  /** The user's organization: a user id names a user only inside it (SPEC §8). */
  org: string;
  userId: string;
  agentId?: string;
  /** "" = session-less memories only (a search without session_id). */
  sessionId: string;
  now: number;
  metadata?: Record<string, unknown>;
  /** Also memories a newer one superseded (SPEC §11); default: current memories only. */
  includeSuperseded?: boolean;
}

export interface RankedRow {
  rowid: number;
  /** Higher is better. */
  score: number;
}

/** What a search result shows of a memory. */
export interface HitRow {
  rowid: number;
  id: string;
  memory: string;
  /** JSON text. */
  metadata: string;
  created_at: number;
  expires_at: number | null;
  superseded_by: string | null;
  /** 1 when the memory states facts or superseded another: only then can it have superseded anything. */
  has_facts: number;
}

/** Per query word, the user's memories that contain it, and how many memories the user has. */
export interface TermDocs {
  docs: number;
  /** rowids[i]: the memories (visible or not) whose text contains words[i], as the index matches words. */
  rowids: number[][];
}

export interface SearchRepo {
  /** Looks each (folded) word up in the user's keyword index; the engine applies its own stemming. */
  termDocs(owner: Owner, words: readonly string[]): Promise<TermDocs>;
  /**
   * The user's index terms (engine form: Porter stems, lower case, no diacritics) that start with
   * `prefix`, at most `limit`: the vocabulary a typo is corrected from.
   */
  vocabulary(owner: Owner, prefix: string, limit: number): Promise<string[]>;
  /** Per index term from `vocabulary`, the user's memories that contain it. */
  indexTermDocs(owner: Owner, terms: readonly string[]): Promise<number[][]>;
  /** The first `n` of `rowids` (in their order) that the filter lets through. */
  visible(filter: MemoryFilter, rowids: readonly number[], n: number): Promise<number[]>;
  /**
   * For the superseded memories among these candidates, the current memory that replaced each (through a
   * chain of supersedes): rowid → its successor's rowid, or 0 when that one is not visible in the filter.
   */
  successors(filter: MemoryFilter, rowids: readonly number[]): Promise<Map<number, number>>;
  /**
   * The best `n` visible memories by keyword relevance (BM25), best first. A bad metadata filter is a
   * VALIDATION_ERROR even when nothing matches.
   */
  keyword(filter: MemoryFilter, query: string, n: number): Promise<RankedRow[]>;
  /** The visible rows among these rowids (any order). */
  rows(filter: MemoryFilter, rowids: readonly number[]): Promise<HitRow[]>;
  /**
   * For each anchor that contains a "?": the next memory of the same user, agent and session stored
   * within `windowMs` after it, when that one is visible. `text` is the anchor's.
   */
  replies(
    filter: MemoryFilter,
    anchors: readonly number[],
    windowMs: number,
  ): Promise<{ question: number; text: string; reply: number }[]>;
}
