// The facts each memory states (SPEC §11, facts/supersede.ts decides with them): rows and what the
// memory service may ask. Every read is scoped by user, agent and session; callers own transactions.

/** Facts are compared within one user's memory space and session, like duplicates. */
export interface FactScope {
  /** The user's organization (SPEC §8). */
  org: string;
  userId: string;
  agentId: string;
  sessionId: string;
}

export interface NewFactRow {
  subject: string;
  attribute: string;
  value: string;
  /** The value as compared (facts/fact-claims.ts valueKey). */
  key: string;
  qualifier: string | null;
  negative: boolean;
}

export interface FactRow extends NewFactRow {
  id: number;
  memoryId: string;
  /** A later memory ended it. */
  ended: boolean;
}

export interface FactRepo {
  /** Facts of the scope not ended, about these subjects. */
  live(scope: FactScope, subjects: readonly string[]): Promise<FactRow[]>;
  /** The scope's newest facts not ended, up to n. */
  recent(scope: FactScope, n: number): Promise<FactRow[]>;
  /** Every fact, ended or not, of these memories. */
  ofMemories(memoryIds: readonly string[]): Promise<FactRow[]>;
  insert(memoryId: string, scope: FactScope, facts: readonly NewFactRow[]): Promise<void>;
  /** Marks these facts ended by the memory `by`. */
  end(ids: readonly number[], by: string): Promise<void>;
  /** Removes a memory's own facts (its text changed: they are recognised again). */
  removeOf(memoryId: string): Promise<void>;
}
