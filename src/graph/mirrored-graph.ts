// SQLite as the source of truth with a replica (Neo4j) kept in step: every write lands in
// SQLite first and its stored result is copied to the replica; traversal runs on the replica.
// rebuildReplica replays SQLite into an emptied replica (`engram reindex --graph`).
import type {
  Entity,
  EntityInput,
  EntityRef,
  FindEntitiesOptions,
  GraphExportSource,
  GraphReplica,
  GraphStore,
  MemoryMatch,
  Mention,
  Relationship,
  RelationshipInput,
  TraverseOptions,
  TraverseResult,
  UpsertMode,
} from "./graph-store";
import type { Owner } from "~/store/repos/memory-repo";

export interface RebuildStats {
  users: number;
  entities: number;
  relationships: number;
  mentions: number;
}

/**
 * If the replica is down, a write still lands in SQLite and then fails with UNAVAILABLE:
 * the caller learns the replica missed it, retrying is safe (upserts are idempotent), and a
 * rebuild brings the replica back in step.
 */
export class MirroredGraph implements GraphStore {
  constructor(
    private readonly primary: GraphStore & GraphExportSource,
    private readonly replica: GraphReplica,
  ) {}

  /** Replays SQLite into the emptied replica (`engram reindex --graph`). */
  rebuild(): Promise<RebuildStats> {
    return rebuildReplica(this.primary, this.replica);
  }

  async upsertEntities(owner: Owner, entities: EntityInput[], mode?: UpsertMode): Promise<Entity[]> {
    const stored = await this.primary.upsertEntities(owner, entities, mode);
    await this.replica.putEntities(owner, stored);
    return stored;
  }

  async upsertRelationships(owner: Owner, relationships: RelationshipInput[]): Promise<Relationship[]> {
    const stored = await this.primary.upsertRelationships(owner, relationships);
    await this.replica.putRelationships(owner, stored);
    return stored;
  }

  findEntities(owner: Owner, options: FindEntitiesOptions): Promise<Entity[]> {
    return this.replica.findEntities(owner, options);
  }

  traverse(owner: Owner, options: TraverseOptions): Promise<TraverseResult> {
    return this.replica.traverse(owner, options);
  }

  async linkMentions(owner: Owner, memoryId: string, entities: EntityRef[]): Promise<void> {
    await this.primary.linkMentions(owner, memoryId, entities);
    await this.replica.linkMentions(owner, memoryId, entities);
  }

  async unlinkMemories(owner: Owner, memoryIds: string[]): Promise<number> {
    const removed = await this.primary.unlinkMemories(owner, memoryIds);
    await this.replica.unlinkMemories(owner, memoryIds);
    return removed;
  }

  /** The primary holds the memories, so its links went with them; the replica's must be removed. */
  async unlinkDeleted(owner: Owner, memoryIds: string[]): Promise<void> {
    await this.primary.unlinkDeleted(owner, memoryIds);
    await this.replica.unlinkMemories(owner, memoryIds);
  }

  // Mention look-ups are answered locally: the primary holds every link the replica does.
  memoriesMentioning(owner: Owner, entities: EntityRef[], limit?: number): Promise<MemoryMatch[]> {
    return this.primary.memoriesMentioning(owner, entities, limit);
  }

  entitiesForMemories(owner: Owner, memoryIds: string[]): Promise<Mention[]> {
    return this.primary.entitiesForMemories(owner, memoryIds);
  }

  async deleteUser(owner: Owner): Promise<number> {
    const removed = await this.primary.deleteUser(owner);
    await this.replica.deleteUser(owner);
    return removed;
  }

  async close(): Promise<void> {
    await this.replica.close();
    await this.primary.close();
  }
}

/** Empties the replica, then copies every user's graph from the source. */
export async function rebuildReplica(source: GraphExportSource, replica: GraphReplica): Promise<RebuildStats> {
  const stats: RebuildStats = { users: 0, entities: 0, relationships: 0, mentions: 0 };
  await replica.wipe();
  for (const owner of await source.owners()) {
    const snap = await source.exportUser(owner);
    await replica.putEntities(owner, snap.entities);
    await replica.putRelationships(owner, snap.relationships);
    await replica.putMentions(owner, snap.mentions);
    stats.users++;
    stats.entities += snap.entities.length;
    stats.relationships += snap.relationships.length;
    stats.mentions += snap.mentions.length;
  }
  return stats;
}
