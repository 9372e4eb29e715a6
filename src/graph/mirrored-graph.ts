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

  async upsertEntities(userId: string, entities: EntityInput[], mode?: UpsertMode): Promise<Entity[]> {
    const stored = await this.primary.upsertEntities(userId, entities, mode);
    await this.replica.putEntities(userId, stored);
    return stored;
  }

  async upsertRelationships(userId: string, relationships: RelationshipInput[]): Promise<Relationship[]> {
    const stored = await this.primary.upsertRelationships(userId, relationships);
    await this.replica.putRelationships(userId, stored);
    return stored;
  }

  findEntities(userId: string, options: FindEntitiesOptions): Promise<Entity[]> {
    return this.replica.findEntities(userId, options);
  }

  traverse(userId: string, options: TraverseOptions): Promise<TraverseResult> {
    return this.replica.traverse(userId, options);
  }

  async linkMentions(userId: string, memoryId: string, entities: EntityRef[]): Promise<void> {
    await this.primary.linkMentions(userId, memoryId, entities);
    await this.replica.linkMentions(userId, memoryId, entities);
  }

  async unlinkMemories(userId: string, memoryIds: string[]): Promise<number> {
    const removed = await this.primary.unlinkMemories(userId, memoryIds);
    await this.replica.unlinkMemories(userId, memoryIds);
    return removed;
  }

  // Mention look-ups are answered locally: the primary holds every link the replica does.
  memoriesMentioning(userId: string, entities: EntityRef[], limit?: number): Promise<MemoryMatch[]> {
    return this.primary.memoriesMentioning(userId, entities, limit);
  }

  entitiesForMemories(userId: string, memoryIds: string[]): Promise<Mention[]> {
    return this.primary.entitiesForMemories(userId, memoryIds);
  }

  async deleteUser(userId: string): Promise<number> {
    const removed = await this.primary.deleteUser(userId);
    await this.replica.deleteUser(userId);
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
  for (const userId of await source.userIds()) {
    const snap = await source.exportUser(userId);
    await replica.putEntities(userId, snap.entities);
    await replica.putRelationships(userId, snap.relationships);
    await replica.putMentions(userId, snap.mentions);
    stats.users++;
    stats.entities += snap.entities.length;
    stats.relationships += snap.relationships.length;
    stats.mentions += snap.mentions.length;
  }
  return stats;
}
