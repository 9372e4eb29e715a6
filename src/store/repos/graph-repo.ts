// The embedded graph's tables (SPEC §6): per-user entities with an integer node key, directed named
// relationships and memory → entity MENTIONS links. Rows only: the merge rules, traversal limits
// and edge selection live in graph/, the same for every engine.

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
  entity(userId: string, type: string, id: string): Promise<EntityRow | null>;
  /** Inserts or replaces (name, properties) of the entity. `nameKey`: the name as searches compare it. */
  putEntity(
    userId: string,
    e: { type: string; id: string; name: string; nameKey: string; properties: string },
    now: number,
  ): Promise<void>;
  relationshipProperties(userId: string, from: number, type: string, to: number): Promise<string | null>;
  putRelationship(
    userId: string,
    from: number,
    type: string,
    to: number,
    properties: string,
    now: number,
  ): Promise<void>;
  /** Entities by optional type and name substring (lower-cased `q`): exact, then prefix, then the rest; by name. */
  find(userId: string, o: { type: string | null; q: string | null; limit: number }): Promise<EntityRow[]>;
  /** Adds a MENTIONS link (idempotent). */
  link(userId: string, memoryId: string, node: number): Promise<void>;
  /** Removes every link of these memories; returns how many went. */
  unlink(userId: string, memoryIds: string[]): Promise<number>;
  memoriesMentioning(
    userId: string,
    refs: { type: string; id: string }[],
    limit: number,
  ): Promise<{ memoryId: string; matches: number }[]>;
  entitiesOfMemories(
    userId: string,
    memoryIds: string[],
  ): Promise<{ memoryId: string; type: string; id: string; name: string }[]>;
  /** Memories of the user with at least one link. */
  linkedMemories(userId: string): Promise<string[]>;
  /** Removes the user's whole graph; returns how many entities went. */
  deleteUser(userId: string): Promise<number>;
  /** Removes every user's graph. */
  wipe(): Promise<void>;
  users(): Promise<string[]>;
  entities(userId: string): Promise<EntityRow[]>;
  relationships(userId: string): Promise<RelationshipRow[]>;
  /**
   * Entities reachable from `start` in at most `maxDepth` steps along `direction` (following only
   * `types` when given), each once at its smallest depth, by depth, type, id; at most `limit`.
   */
  walk(
    userId: string,
    o: { start: number; direction: WalkDirection; types: string[] | null; maxDepth: number; limit: number },
  ): Promise<WalkRow[]>;
  /** Every relationship of the user leaving one of these nodes. */
  edgesFrom(userId: string, nodes: number[]): Promise<{ fromNode: number; type: string; toNode: number }[]>;
}
