// The memory operations of SPEC §2.3 — add, search, list, get, update, delete, delete_all —
// with isolation, scoping, versions, the search cache and the cascade through other layers.
import type { MemoryRow, Repos, Store } from "~/store/store";
import type { SearchService } from "~/search/search.service";
import { type Clock, iso } from "~/shared/clock";
import type { Logger } from "~/shared/logger";
import { AppError, notFound, validationError } from "~/shared/errors";
import type { UserScope } from "~/shared/principal";
import { newId } from "~/shared/ids";
import { readTraits, type MemoryTraits } from "./metadata";
import type { SearchCache } from "./search-cache";
import type { MemoryCaches } from "./memory-caches";
import type { MemoryPurger } from "./purger";
import type {
  AddMemoriesInput,
  AddResponse,
  DeleteAllInput,
  DeleteResponse,
  ListMemoriesInput,
  ListResponse,
  MemoryRef,
  MemoryResponse,
  SearchMemoryInput,
  SearchResponse,
  UpdateMemoryInput,
  VersionsResponse,
} from "./memory.schema";
import { DEFAULT_AGENT } from "./memory.schema";
import { fromOpenMemory } from "./add-input";
import { decodeCursor, encodeCursor } from "./cursor";
import type { MemoryHooks } from "./memory-hooks";

interface Draft {
  text: string;
  metadata: Record<string, unknown>;
  traits: MemoryTraits;
}

export interface MemoryDeps {
  store: Store;
  search: SearchService;
  clock: Clock;
  logger: Logger;
  caches: MemoryCaches;
  /** Shared with governance's enforcement (memory/purger.ts). */
  purger: MemoryPurger;
  hooks: MemoryHooks;
}

export class MemoryService {
  private readonly store: Store;
  private readonly search: SearchService;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly caches: MemoryCaches;
  private readonly purger: MemoryPurger;
  private readonly hooks: MemoryHooks;

  constructor(deps: MemoryDeps) {
    ({
      store: this.store,
      search: this.search,
      clock: this.clock,
      logger: this.logger,
      caches: this.caches,
      purger: this.purger,
      hooks: this.hooks,
    } = deps);
  }

  /** The search-result cache (its hit rate is on /metrics). */
  get cache(): SearchCache<SearchResponse> {
    return this.caches.results;
  }

  get uniqueUsers(): number {
    return this.caches.uniqueUsers;
  }

  /** What the store holds now, for /metrics: memories (expired ones until cleanup), their users, its size. */
  async inventory(): Promise<{ memories: number; users: number; storeBytes: number }> {
    const counts = await this.store.read(async (r) => ({
      memories: await r.memories.total(),
      users: await r.memories.users(),
    }));
    return { ...counts, storeBytes: await this.store.sizeBytes() };
  }

  /**
   * `scope`: the user (and agent, for a key bound to one) the access rule resolved. `at`: the times an
   * imported memory keeps (engram import); a client's write is stored now.
   */
  async add(
    scope: UserScope,
    request: AddMemoriesInput,
    at?: { createdAt?: number; updatedAt?: number },
  ): Promise<AddResponse> {
    const input = fromOpenMemory(request);
    const userId = scope.userId;
    const agentId = scope.agentId ?? input.agent_id ?? DEFAULT_AGENT;
    const drafts = await this.drafts(input);
    for (const d of drafts)
      await this.hooks.gate.checkWrite({
        memorySpaceId: agentId,
        importance: d.traits.importance,
        metadata: d.metadata,
      });
    const vectors = await this.search.embed(drafts.map((d) => d.text));
    const now = at?.createdAt ?? this.clock.now();
    // An imported memory earns its minimum retention from when it was first written, like any other.
    const retainUntil = (await this.hooks.floor.retainUntil({ memorySpaceId: agentId }, now)) ?? null;
    const ids = await this.store.group(async (tx) => {
      const conversationRef = input.messages
        ? ((await this.hooks.conversations.record(tx, {
            userId,
            agentId,
            sessionId: input.session_id,
            messages: input.messages,
            now,
          })) ?? null)
        : null;
      const stored: string[] = [];
      for (const [i, d] of drafts.entries()) {
        const id = newId();
        const rowid = await tx.memories.insert({
          id,
          user_id: userId,
          agent_id: agentId,
          session_id: input.session_id ?? "",
          memory: d.text,
          metadata: JSON.stringify(d.metadata),
          importance: d.traits.importance,
          source_type: d.traits.sourceType,
          expires_at: d.traits.expiresAt,
          conversation_ref: d.traits.conversationRef ?? conversationRef,
          immutable_ref: d.traits.immutableRef,
          created_at: now,
          updated_at: at?.updatedAt,
          retain_until: retainUntil,
        });
        if (vectors)
          await this.search.writeVectors(tx, [
            {
              rowid,
              userId,
              agentId,
              sessionId: input.session_id ?? "",
              expiresAt: d.traits.expiresAt,
              vector: vectors[i] ?? null,
            },
          ]);
        stored.push(id);
      }
      return stored;
    });
    this.caches.touched(userId, ids.length);
    for (const id of ids) this.logger.debug("memory stored", { user: userId, agent: agentId, id });
    await this.hooks.graph.linkMemories(
      userId,
      ids.map((id, i) => ({ id, text: drafts[i]!.text })),
    );
    return { success: true, memory_ids: ids };
  }

  private async drafts(input: AddMemoriesInput): Promise<Draft[]> {
    const base = input.metadata ?? {};
    if (input.memory !== undefined) {
      if (!input.memory.trim()) throw validationError("memory", "memory must not be blank");
      return [{ text: input.memory, metadata: base, traits: readTraits(base, "tool") }];
    }
    const facts = this.hooks.facts;
    if (input.auto_extract_facts ?? facts.auto) {
      // The whole conversation is still kept in the conversations layer; only the facts become memories.
      readTraits(base, "conversation");
      const found = (await facts.extractor.extract(input.messages!)).filter((f) => f.confidence >= facts.minConfidence);
      return found.map((f) => {
        const metadata = { ...base, role: "user", fact_kind: f.kind, fact_confidence: f.confidence };
        return { text: f.text, metadata, traits: readTraits(metadata, "conversation") };
      });
    }
    const drafts = input
      .messages!.filter((m) => m.content.trim())
      .map((m) => {
        const metadata = { ...base, role: m.role };
        return { text: m.content, metadata, traits: readTraits(metadata, "conversation") };
      });
    if (!drafts.length) throw validationError("messages", "messages must contain at least one non-empty content");
    return drafts;
  }

  async searchMemories(scope: UserScope, input: SearchMemoryInput): Promise<SearchResponse> {
    if (!input.query.trim()) throw validationError("query", "query must not be blank");
    const userId = scope.userId;
    const agentId = scope.agentId ?? input.agent_id;
    this.caches.seen(userId);
    const key = JSON.stringify([input.query, input.limit, agentId, input.session_id, input.metadata]);
    const cached = this.caches.results.get(userId, key);
    if (cached) return cached;
    const limit = input.limit ?? 10;
    const filter = {
      userId,
      agentId,
      sessionId: input.session_id ?? "",
      now: this.clock.now(),
      metadata: input.metadata,
    };
    const before = this.caches.results.snapshot(userId);
    const hits = await this.search.rank(filter, input.query, limit);
    const results = hits.map((h) => ({
      id: h.id,
      memory: h.memory,
      score: h.score,
      metadata: JSON.parse(h.metadata),
      created_at: iso(h.created_at),
    }));
    const response = { results };
    this.caches.results.set(
      userId,
      key,
      response,
      Math.min(Infinity, ...hits.map((h) => h.expires_at ?? Infinity)),
      before,
    );
    return response;
  }

  async list(scope: UserScope, input: ListMemoriesInput): Promise<ListResponse> {
    const userId = scope.userId;
    const agentId = scope.agentId ?? input.agent_id;
    this.caches.seen(userId);
    const limit = input.limit ?? 50;
    const now = this.clock.now();
    const after = input.cursor !== undefined ? rowCursor(decodeCursor(input.cursor)) : undefined;
    const rows = await this.store.read((r) => r.memories.page({ userId, agentId, now, limit: limit + 1, after }));
    const page = rows.slice(0, limit);
    const hasMore = rows.length > limit;
    const last = page.at(-1);
    return {
      results: page.map((r) => ({
        id: r.id,
        memory: r.memory,
        metadata: JSON.parse(r.metadata),
        agent_id: r.agent_id,
        session_id: r.session_id || null,
        created_at: iso(r.created_at),
      })),
      total: await this.total(userId, now, agentId),
      has_more: hasMore,
      next_cursor: hasMore && last ? encodeCursor(last.created_at, last.rowid) : null,
    };
  }

  async get(scope: UserScope, ref: Pick<MemoryRef, "memory_id">): Promise<MemoryResponse> {
    this.caches.seen(scope.userId);
    return toResponse(await this.mustGet(scope, ref.memory_id));
  }

  async update(scope: UserScope, input: UpdateMemoryInput): Promise<MemoryResponse> {
    if (input.memory === undefined && input.metadata === undefined)
      throw validationError("memory", "provide memory or metadata to update");
    if (input.memory !== undefined && !input.memory.trim()) throw validationError("memory", "memory must not be blank");
    const row = await this.mustGet(scope, input.memory_id);
    const metadata = mergeMetadata(JSON.parse(row.metadata), input.metadata);
    const traits = readTraits(metadata, row.source_type);
    await this.hooks.gate.checkWrite({ memorySpaceId: row.agent_id, importance: traits.importance, metadata });
    const text = input.memory ?? row.memory;
    const vectors = input.memory !== undefined ? await this.search.embed([text]) : null;
    const now = this.clock.now();
    const retainUntil = (await this.hooks.floor.retainUntil({ memorySpaceId: row.agent_id }, now)) ?? null;
    await this.store.write(async (tx) => {
      const current = await this.mustGet(scope, input.memory_id, tx);
      if (current.version !== row.version)
        throw new AppError("CONFLICT", "the memory changed while it was being updated; retry");
      await tx.memories.update(
        row,
        {
          memory: text,
          metadata: JSON.stringify(metadata),
          importance: traits.importance,
          source_type: traits.sourceType,
          expires_at: traits.expiresAt,
          retain_until: retainUntil,
        },
        now,
      );
      if (vectors)
        await this.search.writeVectors(tx, [
          {
            rowid: row.rowid,
            userId: row.user_id,
            agentId: row.agent_id,
            sessionId: row.session_id,
            expiresAt: traits.expiresAt,
            vector: vectors[0] ?? null,
          },
        ]);
    });
    this.caches.touched(scope.userId, 1);
    if (input.memory !== undefined) await this.hooks.graph.linkMemories(row.user_id, [{ id: row.id, text }], true);
    return this.get(scope, input);
  }

  async versions(scope: UserScope, ref: Pick<MemoryRef, "memory_id">): Promise<VersionsResponse> {
    const row = await this.mustGet(scope, ref.memory_id);
    const previous = (await this.store.read((r) => r.memories.versions(scope.userId, ref.memory_id))).map((v) => ({
      version: v.version,
      memory: v.memory,
      created_at: iso(v.created_at),
    }));
    return {
      success: true,
      versions: [{ version: row.version, memory: row.memory, created_at: iso(row.updated_at) }, ...previous],
    };
  }

  async delete(scope: UserScope, ref: Pick<MemoryRef, "memory_id">): Promise<DeleteResponse> {
    await this.store.write(async (tx) => {
      const row = await this.mustGet(scope, ref.memory_id, tx);
      const space = { memorySpaceId: row.agent_id };
      const held = await this.hooks.floor.heldUntil(space, row.updated_at, row.retain_until, this.clock.now(), tx);
      if (held != null)
        throw new AppError("CONFLICT", `memory '${ref.memory_id}' is under minimum retention until ${iso(held)}`);
      await this.purger.purgeMemories(tx, [{ rowid: row.rowid, id: row.id, userId: row.user_id }]);
    });
    return { success: true, deleted_count: 1 };
  }

  /**
   * Without cascade: the user's memories. With cascade: every layer. Either way, what policy must
   * keep (FINRA/HIPAA minimum retention; purgeOnUserRequest false for cascades) stays and is reported.
   */
  async deleteAll(scope: UserScope, input: DeleteAllInput): Promise<DeleteResponse> {
    const cascade = input.cascade === true;
    const userId = scope.userId;
    if (cascade && scope.agentId !== undefined)
      throw new AppError("FORBIDDEN", `a key bound to agent '${scope.agentId}' cannot erase the user's other data`);
    const removedIds: string[] = [];
    const result = await this.store.write(async (tx) => {
      let deleted = 0;
      const spaces = await tx.memories.spacesOfUser(userId);
      for (const space of scope.agentId === undefined ? spaces : spaces.filter((a) => a === scope.agentId)) {
        const keep = await this.hooks.retention.keepSince(space, cascade, tx);
        if (keep === -Infinity) continue;
        const before = keep === undefined ? Infinity : keep + 1;
        const removed = await tx.memories.deleteForUser(userId, space, before, this.clock.now());
        await this.search.deleteVectors(
          tx,
          removed.map((r) => r.rowid),
        );
        removedIds.push(...removed.map((r) => r.id));
        deleted += removed.length;
      }
      const kept = await tx.memories.countForUser(userId, scope.agentId);
      const retained = cascade
        ? (await this.hooks.erasure.eraseUser(tx, userId, { deleted, retained: kept })).retained
        : kept
          ? { vector: kept }
          : {};
      return { deleted, retained };
    });
    this.caches.touched(userId, "all");
    // SQLite drops the mention links with the rows (trigger); this keeps a Neo4j mirror in step.
    if (cascade) await this.hooks.graph.deleteUser(userId);
    else await this.hooks.graph.unlinkMemories(userId, removedIds);
    const out: DeleteResponse = { success: true, deleted_count: result.deleted };
    if (cascade || Object.keys(result.retained).length) out.retained = result.retained;
    return out;
  }

  /** The visible memory of the scope's user (and agent, for a key bound to one); 404 otherwise. */
  private async mustGet(scope: UserScope, memoryId: string, r?: Repos): Promise<MemoryRow> {
    const get = (x: Repos) => x.memories.get(scope.userId, memoryId, this.clock.now(), scope.agentId);
    const row = await (r ? get(r) : this.store.read(get));
    if (!row) throw notFound("memory", memoryId);
    return row;
  }

  /**
   * list_memories' `total`, cached like search results until the user writes, another process writes, a
   * counted memory expires, or 60 s pass: counting a user's 1k memories cost 54 µs, more than the page.
   */
  private async total(userId: string, now: number, agentId?: string): Promise<number> {
    const key = agentId === undefined ? "*" : `=${agentId}`;
    const cached = this.caches.totals.get(userId, key);
    if (cached !== undefined) return cached;
    const { n, nextExpiry } = await this.store.read((r) => r.memories.count(userId, now, agentId));
    this.caches.totals.set(userId, key, n, nextExpiry ?? Infinity);
    return n;
  }
}

function rowCursor([createdAt, rowid]: [number, string]): [number, number] {
  if (!/^\d{1,16}$/.test(rowid))
    throw validationError("cursor", "cursor is not a next_cursor returned by this listing");
  return [createdAt, Number(rowid)];
}

function toResponse(r: MemoryRow): MemoryResponse {
  return {
    success: true,
    id: r.id,
    memory: r.memory,
    metadata: JSON.parse(r.metadata),
    agent_id: r.agent_id,
    session_id: r.session_id || null,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    version: r.version,
  };
}

/** Shallow merge; a key set to null is removed. */
function mergeMetadata(current: Record<string, unknown>, patch?: Record<string, unknown>): Record<string, unknown> {
  if (!patch) return current;
  const out = { ...current, ...patch };
  for (const [k, v] of Object.entries(patch)) if (v === null) delete out[k];
  return out;
}
