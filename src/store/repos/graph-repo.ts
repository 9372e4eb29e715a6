// The embedded graph's tables (SPEC §6): per-user (of one organization: Owner) entities with an integer node key, directed named
// relationships and memory → entity MENTIONS links. Rows only: the merge rules, traversal limits
// and edge selection live in graph/, the same for every engine.

import type { Owner } from "./memory-repo";

export interface EntityRow {
  node: number;
  type: string;
  id: string;
  name: string;
  /** JSON text. */
  properties: string;
}

export interface RelationshipRow {
  from: { type: string; id: string };
  type: string;
  to: { type: string; id: string };
  /** JSON text. */
  properties: string;
}

/** One reached entity at its smallest depth. */
export interface WalkRow extends EntityRow {
  depth: number;
}

export type WalkDirection = "out" | "in" | "both";

export interface GraphRepo {
  entity(owner: Owner, type: string, id: string): Promise<EntityRow | null>;
  /** Inserts or replaces (name, properties) of the entity. `nameKey`: the name as searches compare it. */
  putEntity(
    owner: Owner,
    e: { type: string; id: string; name: string; nameKey: string; properties: string },
    now: number,
  ): Promise<void>;
  relationshipProperties(owner: Owner, from: number, type: string, to: number): Promise<string | null>;
  putRelationship(owner: Owner, from: number, type: string, to: number, properties: string, now: number): Promise<void>;
  /** Entities by optional type and name substring (lower-cased `q`): exact, then prefix, then the rest; by name. */
  find(owner: Owner, o: { type: string | null; q: string | null; limit: number }): Promise<EntityRow[]>;
  /** Adds a MENTIONS link (idempotent). */
  link(owner: Owner, memoryId: string, node: number): Promise<void>;
  /** Removes every link of these memories; returns how many went. */
  unlink(owner: Owner, memoryIds: string[]): Promise<number>;
  memoriesMentioning(
    owner: Owner,
    refs: { type: string; id: string }[],
    limit: number,
  ): Promise<{ memoryId: string; matches: number }[]>;
  entitiesOfMemories(
    owner: Owner,
    memoryIds: string[],
  ): Promise<{ memoryId: string; type: string; id: string; name: string }[]>;
  /** Memories of the user with at least one link. */
  linkedMemories(owner: Owner): Promise<string[]>;
  /** Removes the user's whole graph; returns how many entities went. */
  deleteUser(owner: Owner): Promise<number>;
  /** Removes every user's graph. */
  wipe(): Promise<void>;
  users(): Promise<Owner[]>;
  entities(owner: Owner): Promise<EntityRow[]>;
  relationships(owner: Owner): Promise<RelationshipRow[]>;
  /**
   * Entities reachable from `start` in at most `maxDepth` steps along `direction` (following only
   * `types` when given), each once at its smallest depth, by depth, type, id; at most `limit`.
   */
  walk(
    owner: Owner,
    o: { start: number; direction: WalkDirection; types: string[] | null; maxDepth: number; limit: number },
  ): Promise<WalkRow[]>;
  /** Every relationship of the user leaving one of these nodes. */
  edgesFrom(owner: Owner, nodes: number[]): Promise<{ fromNode: number; type: string; toNode: number }[]>;
}
