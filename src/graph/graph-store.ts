// The one GraphStore interface that the SQLite graph, the Neo4j graph and the mirror of
// both implement; the contract suite in test/graph/ pins down its behaviour.
import type {
  Direction,
  Edge,
  Entity,
  EntityInput,
  EntityRef,
  Relationship,
  RelationshipInput,
  TraversedEntity,
} from "./graph.schema";
import type { Owner } from "~/store/repos/memory-repo";

export type { Direction, Edge, Entity, EntityInput, EntityRef, Relationship, RelationshipInput, TraversedEntity };

/**
 * How an upsert treats an entity that already exists:
 * - merge (default): a given name replaces the stored one; given properties are merged
 *   into the stored ones as a JSON merge patch (null removes a key).
 * - ifMissing: existing entities are left untouched (used by extraction, so an extracted
 *   "Google" never overwrites the name a user set to "Google LLC").
 */
export type UpsertMode = "merge" | "ifMissing";

export interface FindEntitiesOptions {
  /** Case-insensitive substring of the name. */
  q?: string;
  type?: string;
  limit: number;
}

export interface TraverseOptions {
  start: EntityRef;
  /** Relationship names to follow; absent or empty = all. */
  relationships?: string[];
  /** 1–10; anything else is a VALIDATION_ERROR on `max_depth`. */
  maxDepth: number;
  direction: Direction;
  /** 1–1000 entities, the start included; default 100. */
  limit?: number;
}

export interface TraverseResult {
  /** The start at depth 0 and every reached entity once, at its smallest depth; ordered by depth, type, id. */
  entities: TraversedEntity[];
  /** Followed relationships between returned entities that lie on a walk of ≤ maxDepth steps. */
  relationships: Edge[];
}

export interface MemoryMatch {
  memoryId: string;
  /** How many of the asked-for entities this memory mentions. */
  matches: number;
}

export interface Mention {
  memoryId: string;
  entity: EntityRef & { name: string };
}

export interface GraphStore {
  /** Creates or updates entities in one transaction; returns the stored state in input order. */
  upsertEntities(owner: Owner, entities: EntityInput[], mode?: UpsertMode): Promise<Entity[]>;
  /**
   * Creates or updates relationships (key: from, type, to) in one transaction. A missing end
   * rejects the whole batch with VALIDATION_ERROR on `relationships[i].from` / `.to`.
   */
  upsertRelationships(owner: Owner, relationships: RelationshipInput[]): Promise<Relationship[]>;
  findEntities(owner: Owner, options: FindEntitiesOptions): Promise<Entity[]>;
  /** Unknown start (for this user) → NOT_FOUND. */
  traverse(owner: Owner, options: TraverseOptions): Promise<TraverseResult>;
  /** Adds MENTIONS links (idempotent). A missing entity → VALIDATION_ERROR on `entities[i]`. */
  linkMentions(owner: Owner, memoryId: string, entities: EntityRef[]): Promise<void>;
  /** Removes every MENTIONS link of these memories; returns how many links went. */
  unlinkMemories(owner: Owner, memoryIds: string[]): Promise<number>;
  /**
   * The same, for memories the store has just deleted: the store's own trigger (SQLite and PostgreSQL) dropped
   * their links with the rows, so only a graph kept apart from the memories (Neo4j) has anything to remove.
   */
  unlinkDeleted(owner: Owner, memoryIds: string[]): Promise<void>;
  /** Memories mentioning any of these entities, most matches first, then by id. */
  memoriesMentioning(owner: Owner, entities: EntityRef[], limit?: number): Promise<MemoryMatch[]>;
  /** The entities each of these memories mentions, ordered by memory id, type, id. */
  entitiesForMemories(owner: Owner, memoryIds: string[]): Promise<Mention[]>;
  /** Removes the user's whole graph; returns how many entities went (their links go with them). */
  deleteUser(owner: Owner): Promise<number>;
  close(): Promise<void>;
}

/** One user's graph as plain data: what a rebuild replays into a replica. */
export interface GraphSnapshot {
  entities: Entity[];
  relationships: Relationship[];
  mentions: { memoryId: string; entity: EntityRef }[];
}

/** The source of truth a replica is rebuilt from (the SQLite graph). */
export interface GraphExportSource {
  owners(): Promise<Owner[]>;
  exportUser(owner: Owner): Promise<GraphSnapshot>;
}

/** A store that can take exact copies of stored state (no merging): what a mirror writes to. */
export interface GraphReplica extends GraphStore {
  putEntities(owner: Owner, entities: Entity[]): Promise<void>;
  putRelationships(owner: Owner, relationships: Relationship[]): Promise<void>;
  /** Bulk MENTIONS links (entities assumed present, as in a snapshot). */
  putMentions(owner: Owner, mentions: GraphSnapshot["mentions"]): Promise<void>;
  /** Removes every user's graph (before a full rebuild). */
  wipe(): Promise<void>;
}
