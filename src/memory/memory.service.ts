// The memory operations of SPEC §2.3 — add, search, list, get, update, delete, delete_all —
// with isolation, scoping, versions, the search cache and the cascade through other layers; and
// SPEC §11's duplicates and supersedes (memory-facts.ts).
import type { FactScope, MemoryRow, Owner, Repos, Store, VectorSpace } from "~/store/store";
import { EVERY_ROW, orgWide, userScope } from "~/shared/store-scope";
import type { Claim } from "~/facts/fact-claims";
import { normaliseText, textKey } from "~/shared/text-key";
import type { SearchService } from "~/search/search.service";
import { type Clock, iso } from "~/shared/clock";
import type { Logger } from "~/shared/logger";
import { AppError, notFound, validationError } from "~/shared/errors";
import type { UserScope } from "~/shared/principal";
import { newId } from "~/shared/ids";
import { readTraits } from "./metadata";
import type { SearchCache } from "./search-cache";
import type { MemoryCaches } from "./memory-caches";
import type { MemoryPurger } from "./purger";
import type {
  AddMemoriesInput,
  AddResponse,
  DeleteAllInput,
  DeleteResponse,
  ListItem,
  ListMemoriesInput,
  ListResponse,
  MemoryRef,
  MemoryResponse,
  SearchMemoryInput,
  SearchResponse,
  SupersedeBody,
  SupersedeResponse,
  UpdateMemoryInput,
  VersionsResponse,
} from "./memory.schema";
import { DEFAULT_AGENT } from "./memory.schema";
import { fromOpenMemory } from "./add-input";
import { decodeCursor, encodeCursor } from "./cursor";
import type { MemoryHooks } from "./memory-hooks";
import { MemoryFacts, statesFacts } from "./memory-facts";
import { draftsOf, type Draft } from "./memory-drafts";
import { historyOf, versionsOf } from "./memory-history";
import { alreadySuperseded, mergeMetadata, rowCursor, shownFields, toResponse } from "./memory-rows";

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

/** A transaction of one user's memories: on PostgreSQL row-level security hides every other user's rows from it. */

export class MemoryService {
  private readonly store: Store;
  private readonly search: SearchService;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly caches: MemoryCaches;
  private readonly purger: MemoryPurger;
  private readonly hooks: MemoryHooks;
  private readonly facts: MemoryFacts;

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
    this.facts = new MemoryFacts(deps.hooks.recogniser, deps.store);
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
    const counts = await this.store.read(
      async (r) => ({
        memories: await r.memories.total(),
        users: await r.memories.users(),
      }),
      EVERY_ROW,
    );
    return { ...counts, storeBytes: await this.store.sizeBytes() };
  }

  /**
   * `scope`: the user (and agent, for a key bound to one) the access rule resolved. `at`: the times an
   * imported memory keeps (engram import); a client's write is stored now.
   */
  async add(
    who: UserScope,
    request: AddMemoriesInput,
    at?: { createdAt?: number; updatedAt?: number },
  ): Promise<AddResponse> {
    const input = fromOpenMemory(request);
    const scope = {
      org: who.org,
      userId: who.userId,
      agentId: who.agentId ?? input.agent_id ?? DEFAULT_AGENT,
      sessionId: input.session_id ?? "",
    };
    const drafts = await draftsOf(input, this.hooks.facts);
    const retention = await this.hooks.gate.admit(
      { org: scope.org, memorySpaceId: scope.agentId },
      drafts.map((d) => ({ importance: d.traits.importance, metadata: d.metadata })),
    );
    const [claims, vectors] = await Promise.all([
      this.facts.claims(scope, drafts),
      this.search.embed(drafts.map((d) => d.text)),
    ]);
    const now = at?.createdAt ?? this.clock.now();
    // An imported memory earns its minimum retention from when it was first written, like any other.
    const retainUntil = retention(now);
    const stored = await this.store.group(async (tx) => {
      const conversationRef = input.messages
        ? ((await this.hooks.conversations.record(tx, {
            org: scope.org,
            userId: scope.userId,
            agentId: scope.agentId,
            sessionId: input.session_id,
            messages: input.messages,
            now,
          })) ?? null)
        : null;
      const row = { now, updatedAt: at?.updatedAt, retainUntil, conversationRef };
      const out: Stored[] = [];
      for (const [i, d] of drafts.entries()) {
        const vector = vectors ? { space: vectors.space, vector: vectors.vectors[i] ?? null } : undefined;
        out.push(await this.storeDraft(tx, scope, { ...d, claims: claims[i]!, vector }, row));
      }
      return out;
    }, userScope(scope));
    this.search.written(vectors);
    const created = stored.filter((m) => !m.duplicate);
    this.caches.touched(scope, created.length);
    for (const m of created) this.logger.debug("memory stored", { user: scope.userId, agent: scope.agentId, id: m.id });
    await this.hooks.graph.linkMemories(
      scope,
      created.map((m) => ({ id: m.id, text: m.text })),
    );
    const deduplicated = stored.filter((m) => m.duplicate).map((m) => m.id);
    const superseded = stored.flatMap((m) => m.superseded);
    return {
      success: true,
      memory_ids: stored.map((m) => m.id),
      ...(deduplicated.length ? { deduplicated } : {}),
      ...(superseded.length ? { superseded } : {}),
    };
  }

  /** One memory of an add, inside its transaction: the existing one when it is a duplicate, else stored with its facts. */
  private async storeDraft(
    tx: Repos,
    scope: FactScope,
    /** vector: undefined when the model is not ready (the memory is embedded later). */
    d: Draft & { claims: Claim[]; vector: DraftVector | undefined; explicit?: string[] },
    at: { now: number; updatedAt?: number; retainUntil: number | null; conversationRef: string | null },
  ): Promise<Stored> {
    const same = await this.facts.duplicate(tx, scope, d.text, at.now);
    if (same.id && !d.explicit) return { id: same.id, text: d.text, duplicate: true, superseded: [] };
    const plan = await this.facts.plan(tx, scope, d.claims);
    const id = newId();
    const rowid = await tx.memories.insert({
      id,
      org_id: scope.org,
      user_id: scope.userId,
      agent_id: scope.agentId,
      session_id: scope.sessionId,
      memory: d.text,
      metadata: JSON.stringify(d.metadata),
      importance: d.traits.importance,
      source_type: d.traits.sourceType,
      expires_at: d.traits.expiresAt,
      conversation_ref: d.traits.conversationRef ?? at.conversationRef,
      immutable_ref: d.traits.immutableRef,
      created_at: at.now,
      updated_at: at.updatedAt,
      retain_until: at.retainUntil,
      text_key: same.key,
      has_facts: statesFacts(plan, d.explicit?.length),
    });
    if (d.vector)
      await this.search.writeVectors(tx, d.vector.space, [
        { rowid, ...scope, expiresAt: d.traits.expiresAt, vector: d.vector.vector, fresh: true },
      ]);
    return { id, text: d.text, duplicate: false, superseded: await this.facts.commit(tx, scope, id, plan, d.explicit) };
  }

  async searchMemories(scope: UserScope, input: SearchMemoryInput): Promise<SearchResponse> {
    if (!input.query.trim()) throw validationError("query", "query must not be blank");
    const userId = scope.userId;
    const agentId = scope.agentId ?? input.agent_id;
    this.caches.seen(scope);
    const key = JSON.stringify([
      input.query,
      input.limit,
      agentId,
      input.session_id,
      input.metadata,
      input.include_superseded,
      input.min_score,
      input.explain,
    ]);
    await this.caches.sync(scope);
    const cached = this.caches.results.get(scope, key);
    if (cached) return cached;
    const limit = input.limit ?? 10;
    const filter = {
      org: scope.org,
      userId,
      agentId,
      sessionId: input.session_id ?? "",
      now: this.clock.now(),
      metadata: input.metadata,
      includeSuperseded: input.include_superseded === true,
    };
    const before = this.caches.results.snapshot(scope);
    const hits = (await this.search.rank(filter, input.query, limit)).filter((h) => h.score >= (input.min_score ?? 0));
    const history = await historyOf(this.store, scope, hits);
    const results = hits.map((h) => {
      const shown = history(
        { id: h.id, memory: h.memory, score: h.score, metadata: JSON.parse(h.metadata), created_at: iso(h.created_at) },
        h,
      );
      return input.explain ? { ...shown, score_details: { semantic: h.semantic, keyword: h.keyword } } : shown;
    });
    const response = { results };
    this.caches.results.set(
      scope,
      key,
      response,
      Math.min(Infinity, ...hits.map((h) => h.expires_at ?? Infinity)),
      before,
    );
    return response;
  }

  async list(scope: UserScope, input: ListMemoriesInput): Promise<ListResponse> {
    const limit = input.limit ?? 50;
    const after = input.cursor !== undefined ? rowCursor(decodeCursor(input.cursor)) : undefined;
    const q = { limit, after, agentId: scope.agentId ?? input.agent_id, includeSuperseded: input.include_superseded };
    const { items, keys, total } = await this.listKeyed(scope, q);
    const hasMore = items.length > limit;
    if (hasMore) items.length = limit;
    return {
      results: items,
      total,
      has_more: hasMore,
      next_cursor: hasMore && limit > 0 ? encodeCursor(...keys[limit - 1]!) : null,
    };
  }

  /**
   * Up to `limit + 1` of the owner's memories after `after` (a listing's keyset: created_at, rowid), newest
   * first, `keys[i]` the key of `items[i]`, and the owner's total. A listing across shared spaces merges
   * these by key. The keys are apart from the items so that a plain listing answers its items as they are.
   */
  async listKeyed(
    scope: UserScope,
    q: { limit: number; after?: [number, number]; agentId?: string; includeSuperseded?: boolean },
  ): Promise<{ items: ListItem[]; keys: [number, number][]; total: number }> {
    this.caches.seen(scope);
    const now = this.clock.now();
    const includeSuperseded = q.includeSuperseded === true;
    const page = await this.store.read(
      (r) =>
        r.memories.page({
          org: scope.org,
          userId: scope.userId,
          agentId: q.agentId,
          now,
          limit: q.limit + 1,
          after: q.after,
          includeSuperseded,
        }),
      userScope(scope),
    );
    const history = await historyOf(this.store, scope, page);
    return {
      items: page.map((r) => history(shownFields(r), r)),
      keys: page.map((r): [number, number] => [r.created_at, r.rowid]),
      total: await this.total(scope, now, q.agentId, includeSuperseded),
    };
  }

  async get(scope: UserScope, ref: Pick<MemoryRef, "memory_id">): Promise<MemoryResponse> {
    this.caches.seen(scope);
    const row = await this.mustGet(scope, ref.memory_id);
    return (await historyOf(this.store, scope, [row]))(toResponse(row), row);
  }

  async update(scope: UserScope, input: UpdateMemoryInput): Promise<MemoryResponse> {
    if (input.memory === undefined && input.metadata === undefined)
      throw validationError("memory", "provide memory or metadata to update");
    if (input.memory !== undefined && !input.memory.trim()) throw validationError("memory", "memory must not be blank");
    const row = await this.mustGet(scope, input.memory_id);
    const metadata = mergeMetadata(JSON.parse(row.metadata), input.metadata);
    const traits = readTraits(metadata, row.source_type);
    const retention = await this.hooks.gate.admit({ org: row.org_id, memorySpaceId: row.agent_id }, [
      { importance: traits.importance, metadata },
    ]);
    const text = input.memory ?? row.memory;
    const space = { org: row.org_id, userId: row.user_id, agentId: row.agent_id, sessionId: row.session_id };
    const [[claims], vectors] =
      input.memory !== undefined
        ? await Promise.all([this.facts.claims(space, [{ text, own: true }]), this.search.embed([text])])
        : [[undefined], null];
    const now = this.clock.now();
    const retainUntil = retention(now);
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
        await this.search.writeVectors(tx, vectors.space, [
          {
            rowid: row.rowid,
            org: row.org_id,
            userId: row.user_id,
            agentId: row.agent_id,
            sessionId: row.session_id,
            expiresAt: traits.expiresAt,
            vector: vectors.vectors[0] ?? null,
          },
        ]);
      if (claims) await this.restate(tx, space, row, text, claims);
    }, userScope(space));
    this.search.written(vectors);
    this.caches.touched(scope, 1);
    if (input.memory !== undefined)
      await this.hooks.graph.linkMemories({ org: row.org_id, userId: row.user_id }, [{ id: row.id, text }], true);
    return this.get(scope, input);
  }

  /** A memory's text changed: its text key and facts are those of the new text, which may supersede others. */
  private async restate(tx: Repos, scope: FactScope, row: MemoryRow, text: string, claims: Claim[]): Promise<void> {
    await tx.memories.setTextKey(row.rowid, textKey(normaliseText(text)));
    await tx.facts.removeOf(row.id);
    const plan = await this.facts.plan(tx, scope, claims);
    if (statesFacts(plan)) await tx.memories.markFacts(row.rowid);
    await this.facts.commit(tx, scope, row.id, plan);
  }

  /** The memory's own versions, then those of the memories it superseded (SPEC §11), newest first. */
  async versions(scope: UserScope, ref: Pick<MemoryRef, "memory_id">): Promise<VersionsResponse> {
    return versionsOf(this.store, await this.mustGet(scope, ref.memory_id));
  }

  /**
   * POST /memories/:id/supersede: stores the fact as it is now and marks the old memory superseded by it,
   * in one transaction. The new memory keeps the old one's agent and session; its own claims decide as on add.
   */
  async supersede(
    who: UserScope,
    ref: Pick<MemoryRef, "memory_id">,
    body: Omit<SupersedeBody, "user_id">,
  ): Promise<SupersedeResponse> {
    if (!body.memory.trim()) throw validationError("memory", "memory must not be blank");
    const old = await this.mustGet(who, ref.memory_id);
    if (old.superseded_by) throw alreadySuperseded(old);
    if (normaliseText(body.memory) === normaliseText(old.memory))
      throw validationError("memory", "memory states the same as the memory it would supersede");
    const metadata = body.metadata ?? JSON.parse(old.metadata);
    const traits = readTraits(metadata, old.source_type);
    const retention = await this.hooks.gate.admit({ org: old.org_id, memorySpaceId: old.agent_id }, [
      { importance: traits.importance, metadata },
    ]);
    const scope = { org: old.org_id, userId: old.user_id, agentId: old.agent_id, sessionId: old.session_id };
    const draft = { text: body.memory, metadata, traits, own: true };
    const [[claims], vectors] = await Promise.all([
      this.facts.claims(scope, [draft]),
      this.search.embed([body.memory]),
    ]);
    const now = this.clock.now();
    const retainUntil = retention(now);
    const out = await this.store.group(async (tx) => {
      const current = await this.mustGet(who, ref.memory_id, tx);
      if (current.superseded_by) throw alreadySuperseded(current);
      const same = await this.facts.duplicate(tx, scope, body.memory, now);
      if (same.id) {
        await tx.memories.markFacts(same.rowid!);
        const plan = await this.facts.plan(tx, scope, []);
        return {
          id: same.id,
          duplicate: true,
          superseded: await this.facts.commit(tx, scope, same.id, plan, [old.id]),
        };
      }
      const vector = vectors ? { space: vectors.space, vector: vectors.vectors[0] ?? null } : undefined;
      const at = { now, retainUntil, conversationRef: old.conversation_ref };
      return this.storeDraft(tx, scope, { ...draft, claims: claims!, vector, explicit: [old.id] }, at);
    }, userScope(scope));
    this.search.written(vectors);
    this.caches.touched(who, out.duplicate ? 1 : 2);
    if (!out.duplicate) await this.hooks.graph.linkMemories(who, [{ id: out.id, text: body.memory }]);
    return {
      ...(await this.get(who, { memory_id: out.id })),
      ...(out.duplicate ? { deduplicated: true } : {}),
    };
  }

  async delete(scope: UserScope, ref: Pick<MemoryRef, "memory_id">): Promise<DeleteResponse> {
    await this.store.write(async (tx) => {
      const row = await this.mustGet(scope, ref.memory_id, tx);
      const space = { org: row.org_id, memorySpaceId: row.agent_id };
      const held = await this.hooks.floor.heldUntil(space, row.updated_at, row.retain_until, this.clock.now(), tx);
      if (held != null)
        throw new AppError("CONFLICT", `memory '${ref.memory_id}' is under minimum retention until ${iso(held)}`);
      await this.purger.purgeMemories(tx, [{ rowid: row.rowid, id: row.id, org: row.org_id, userId: row.user_id }]);
    }, userScope(scope));
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
    const result = await this.store.write(
      async (tx) => {
        const removed = await this.deleteOwned(tx, scope, cascade);
        removedIds.push(...removed);
        const deleted = removed.length;
        const kept = await tx.memories.countForUser(scope, scope.agentId);
        const erased = cascade ? await this.hooks.erasure.eraseUser(tx, scope, { deleted, retained: kept }) : null;
        const retained = erased ? erased.retained : kept ? { vector: kept } : {};
        const indexed = cascade && (await tx.memories.forgetUser(scope));
        return { deleted, retained, indexed, renamedIn: erased?.renamedIn ?? [] };
        // A cascade rewrites the user's id in the logs (and in shared spaces' provenance) to a pseudonym
        // (erasure.ts), rows the user's own scope could not write: it runs in the organization's.
      },
      cascade ? orgWide(scope.org) : userScope(scope),
    );
    if (cascade) await this.hooks.erasure.committed(scope);
    for (const owner of [scope, ...result.renamedIn]) this.caches.touched(owner, "all");
    // SQLite drops the mention links with the rows (trigger); this keeps a Neo4j mirror in step.
    if (cascade) await this.hooks.graph.deleteUser(scope);
    else await this.hooks.graph.unlinkDeleted(scope, removedIds);
    // An erasure answers once nothing of what it deleted is readable in the store's files (SPEC §2.3).
    if (cascade) await this.store.scrub({ keywordIndex: result.indexed });
    const out: DeleteResponse = { success: true, deleted_count: result.deleted };
    if (cascade || Object.keys(result.retained).length) out.retained = result.retained;
    return out;
  }

  /**
   * Inside `tx`: deletes the owner's memories (of the scope's agent, for a key bound to one) that policy lets
   * go — all but what minimum retention holds, and for an erasure (`cascade`) what purgeOnUserRequest false
   * keeps — with their vectors; answers their ids. Shared by delete_all and the deletion of a shared space.
   */
  async deleteOwned(tx: Repos, scope: Owner & { agentId?: string }, cascade: boolean): Promise<string[]> {
    const ids: string[] = [];
    const spaces = await tx.memories.spacesOfUser(scope);
    for (const space of scope.agentId === undefined ? spaces : spaces.filter((a) => a === scope.agentId)) {
      const keep = await this.hooks.retention.keepSince({ org: scope.org, memorySpaceId: space }, cascade, tx);
      if (keep === -Infinity) continue;
      const before = keep === undefined ? Infinity : keep + 1;
      const removed = await tx.memories.deleteForUser(scope, space, before, this.clock.now());
      await this.search.deleteVectors(
        tx,
        removed.map((r) => r.rowid),
      );
      ids.push(...removed.map((r) => r.id));
    }
    return ids;
  }

  /** The visible memory of the scope's user (and agent, for a key bound to one); 404 otherwise. */
  private async mustGet(scope: UserScope, memoryId: string, r?: Repos): Promise<MemoryRow> {
    const get = (x: Repos) => x.memories.get(scope, memoryId, this.clock.now(), scope.agentId);
    const row = await (r ? get(r) : this.store.read(get, userScope(scope)));
    if (!row) throw notFound("memory", memoryId);
    return row;
  }

  /**
   * list_memories' `total`, cached like search results until the user writes, another process writes, a
   * counted memory expires, or 60 s pass: counting a user's 1k memories cost 54 µs, more than the page.
   */
  private async total(owner: Owner, now: number, agentId: string | undefined, includeSuperseded: boolean) {
    const key =
      agentId === undefined ? TOTAL_KEYS[includeSuperseded ? 1 : 0] : JSON.stringify([agentId, includeSuperseded]);
    await this.caches.sync(owner);
    const cached = this.caches.totals.get(owner, key);
    if (cached !== undefined) return cached;
    const { n, nextExpiry } = await this.store.read(
      (r) => r.memories.count(owner, now, agentId, includeSuperseded),
      userScope(owner),
    );
    this.caches.totals.set(owner, key, n, nextExpiry ?? Infinity);
    return n;
  }
}

/** total()'s cache keys of a listing across all the user's agents, made once: [null, includeSuperseded]. */
const TOTAL_KEYS = [JSON.stringify([null, false]), JSON.stringify([null, true])] as const;

/** A draft's vector and the model's space it belongs in (a model switch may come between embedding and storing). */
interface DraftVector {
  space: VectorSpace;
  vector: Float32Array | null;
}

/** What storing one draft did. */
interface Stored {
  id: string;
  text: string;
  duplicate: boolean;
  superseded: string[];
}
