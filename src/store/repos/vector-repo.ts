// Vector storage and nearest-neighbour search, one vector space per embedding model. The interface is
// the engine's, not sqlite-vec's: another index (a portable one, pgvector) implements the same.
import type { MemoryFilter, RankedRow } from "./search-repo";

/** One model's vectors: plain data, so a search worker can be told which space to search. */
export interface VectorSpace {
  model: string;
  /** The engine's name for it (a sqlite-vec table); never text from the model id. */
  key: string;
}

export interface VectorRow {
  rowid: number;
  /** The memory's organization: with userId, the partition a nearest-neighbour search stays in (SPEC §8). */
  org: string;
  userId: string;
  agentId: string;
  sessionId: string;
  expiresAt: number | null;
  /** null = the model gave no vector (no known word): recorded as embedded, found by keyword only. */
  vector: Float32Array | null;
  /**
   * The memory row was inserted in this transaction: its rowid never held a vector (rowids are not reused),
   * so there is none to replace and the index skips looking for one.
   */
  fresh?: boolean;
}

/** A memory's columns its vector is stored and filtered with (the owner, agent, session and expiry). */
export interface VectorColumns {
  rowid: number;
  org_id: string;
  user_id: string;
  agent_id: string;
  session_id: string;
  expires_at: number | null;
}

export interface VectorRepo {
  /** The model's space, created when missing (a write: call inside `Store.write`). */
  open(modelId: string, dimensions: number): Promise<VectorSpace>;
  /** Writes (or replaces) the vectors and records which model embedded each memory. */
  upsert(space: VectorSpace, rows: VectorRow[]): Promise<void>;
  /** Nearest neighbours inside the filter, best first (score = cosine similarity). */
  rank(space: VectorSpace, filter: MemoryFilter, vector: Float32Array, n: number): Promise<RankedRow[]>;
  /** Erases these deleted memories' vectors from every model's space (call in the deleting transaction). */
  erase(rowids: number[]): Promise<void>;
  /** How many memories this model has embedded. */
  embeddedCount(model: string): Promise<number>;
  /** Memories without a vector of this model (e.g. after a model change), up to `limit`. */
  unembedded(model: string, limit: number): Promise<(VectorColumns & { memory: string })[]>;
}
