// The graph API of SPEC §6 over one GraphStore (SQLite, or SQLite mirrored into Neo4j), and
// the hooks that keep it in step with memories: extraction on write, unlinking on delete.
import type { Logger } from "~/shared/logger";
import type { GraphStore } from "./graph-store";
import type { EntityExtractor } from "./extract";
import { ingestMemory } from "./ingest";
import { MirroredGraph } from "./mirrored-graph";
import { AppError } from "~/shared/errors";
import type { UserScope } from "~/shared/principal";
import {
  DEFAULT_FIND_LIMIT,
  DEFAULT_TRAVERSE_DEPTH,
  DEFAULT_TRAVERSE_LIMIT,
  type FindEntitiesQuery,
  type FindEntitiesResponse,
  type TraverseBody,
  type TraverseResponse,
  type UpsertEntitiesBody,
  type UpsertEntitiesResponse,
  type UpsertRelationshipsBody,
  type UpsertRelationshipsResponse,
} from "./graph.schema";
import type { Owner } from "~/store/repos/memory-repo";

export class GraphService {
  constructor(
    readonly store: GraphStore,
    private readonly extractor: EntityExtractor,
    private readonly logger: Logger,
  ) {}

  async upsertEntities(scope: UserScope, body: UpsertEntitiesBody): Promise<UpsertEntitiesResponse> {
    return { success: true as const, entities: await this.store.upsertEntities(scope, body.entities) };
  }

  async upsertRelationships(scope: UserScope, body: UpsertRelationshipsBody): Promise<UpsertRelationshipsResponse> {
    return {
      success: true as const,
      relationships: await this.store.upsertRelationships(scope, body.relationships),
    };
  }

  async findEntities(scope: UserScope, q: FindEntitiesQuery): Promise<FindEntitiesResponse> {
    const limit = q.limit ?? DEFAULT_FIND_LIMIT;
    return {
      success: true as const,
      results: await this.store.findEntities(scope, { q: q.q, type: q.type, limit }),
    };
  }

  async traverse(scope: UserScope, body: TraverseBody): Promise<TraverseResponse> {
    const r = await this.store.traverse(scope, {
      start: body.start,
      relationships: body.relationships,
      maxDepth: body.max_depth ?? DEFAULT_TRAVERSE_DEPTH,
      direction: body.direction ?? "both",
      limit: body.limit ?? DEFAULT_TRAVERSE_LIMIT,
    });
    return { success: true as const, ...r };
  }

  /**
   * Extracts entities from stored memories and links them. Called after the memory transaction
   * committed: a graph failure (e.g. Neo4j down) never loses the memory; it is logged, and
   * `engram reindex --graph` brings the mirror back in step.
   */
  async linkMemories(owner: Owner, memories: { id: string; text: string }[], replace = false): Promise<void> {
    for (const m of memories) {
      try {
        await ingestMemory(this.store, this.extractor, owner, m, { replace });
      } catch (e) {
        this.logger.warn("graph extraction failed; the memory is stored", {
          org: owner.org,
          user: owner.userId,
          memory: m.id,
          error: (e as Error).message,
        });
      }
    }
  }

  /** After the memories' rows are deleted (GraphStore.unlinkDeleted). */
  async unlinkDeleted(owner: Owner, ids: string[]): Promise<void> {
    if (!ids.length) return;
    try {
      await this.store.unlinkDeleted(owner, ids);
    } catch (e) {
      this.logger.warn("graph unlink failed; run engram reindex --graph", {
        org: owner.org,
        user: owner.userId,
        error: (e as Error).message,
      });
    }
  }

  /** Rebuilds the Neo4j mirror from SQLite, the source of truth. */
  async rebuildMirror() {
    if (!(this.store instanceof MirroredGraph))
      throw new AppError(
        "VALIDATION_ERROR",
        "no graph mirror is configured: set GRAPH_DB_ENABLED=true and GRAPH_DB_URI",
        "GRAPH_DB_ENABLED",
      );
    return this.store.rebuild();
  }

  deleteUser(owner: Owner): Promise<number> {
    return this.store.deleteUser(owner);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
