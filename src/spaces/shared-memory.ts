// The memory operations with shared spaces (SPEC §8): add with space_id, search and list with spaces /
// include_shared, get with space_id, promote. Each runs the memory service's own scoped operation once
// per owner (the user, each space) and merges: search by score (scores are absolute, SPEC §2.3, so one
// owner's 0.6 outranks another's 0.5 for the same query), lists by their keyset (created_at, rowid —
// rowids are unique across owners, so one cursor pages the merged order). Without these parameters every
// call is exactly the memory service's.
import type { UserScope } from "~/shared/principal";
import type { MemoryService } from "~/memory/memory.service";
import { decodeCursor, encodeCursor } from "~/memory/cursor";
import { rowCursor } from "~/memory/memory-rows";
import {
  DEFAULT_AGENT,
  type AddMemoriesInput,
  type AddResponse,
  type DeleteResponse,
  type SpaceMemoryRef,
  type ListMemoriesInput,
  type ListResponse,
  type MemoryResponse,
  type PromoteResponse,
  type SearchMemoryInput,
  type SearchResponse,
  type UpdateMemoryInput,
} from "~/memory/memory.schema";
import type { SpaceAccess, SpacesService } from "./spaces.service";
import type { PromoteBody } from "./spaces.schema";

export class SharedMemory {
  constructor(
    private readonly memory: MemoryService,
    private readonly spaces: SpacesService,
  ) {}

  /** With space_id: into the space (writers), agent_id = the space id, the writer kept in metadata.provenance. */
  async add(who: UserScope, input: AddMemoriesInput): Promise<AddResponse> {
    const { space_id, ...own } = input;
    if (space_id === undefined) return this.memory.add(who, own);
    const space = await this.spaces.access(who, space_id, true);
    const provenance = { user_id: who.userId, agent_id: who.agentId ?? input.agent_id ?? DEFAULT_AGENT };
    const out = await this.memory.add(space.owner, {
      ...own,
      agent_id: space_id,
      metadata: { ...input.metadata, provenance },
    });
    return { ...out, space_id };
  }

  async search(who: UserScope, input: SearchMemoryInput): Promise<SearchResponse> {
    const { spaces: _, include_shared: __, ...own } = input;
    const spaces = await this.spacesOf(who, input);
    if (!spaces) return this.memory.searchMemories(who, own);
    // The agent filter is the user's own: a space's memories all carry the space's id as their agent.
    const { agent_id: ___, ...shared } = own;
    const answers = await Promise.all([
      this.memory.searchMemories(who, own).then((a) => a.results.map((r) => ({ ...r, space_id: null }))),
      ...spaces.map((s) =>
        this.memory.searchMemories(s.owner, shared).then((a) => a.results.map((r) => ({ ...r, space_id: s.id }))),
      ),
    ]);
    const results = answers.flat().sort((a, b) => b.score - a.score);
    return { results: results.slice(0, input.limit ?? 10) };
  }

  async list(who: UserScope, input: ListMemoriesInput): Promise<ListResponse> {
    const spaces = await this.spacesOf(who, input);
    // The memory service reads the paging fields only: spaces / include_shared may go along uncopied.
    if (!spaces) return this.memory.list(who, input);
    const limit = input.limit ?? 50;
    const after = input.cursor !== undefined ? rowCursor(decodeCursor(input.cursor)) : undefined;
    const q = { limit, after, includeSuperseded: input.include_superseded };
    const pages = await Promise.all([
      this.memory.listKeyed(who, { ...q, agentId: who.agentId ?? input.agent_id }).then((p) => tagged(p, null)),
      ...spaces.map((s) => this.memory.listKeyed(s.owner, q).then((p) => tagged(p, s.id))),
    ]);
    const merged = pages
      .flatMap((p) => p.items.map((item, i) => ({ item, key: p.keys[i]! })))
      .sort((a, b) => b.key[0] - a.key[0] || b.key[1] - a.key[1]);
    const page = merged.slice(0, limit);
    const last = page.at(-1);
    const hasMore = merged.length > limit;
    return {
      results: page.map((m) => m.item),
      total: pages.reduce((n, p) => n + p.total, 0),
      has_more: hasMore,
      next_cursor: hasMore && last ? encodeCursor(...last.key) : null,
    };
  }

  async get(who: UserScope, input: SpaceMemoryRef): Promise<MemoryResponse> {
    // The memory service reads memory_id only: the input goes as it is (an object rest copy was 3% of a get).
    const { space_id } = input;
    if (space_id === undefined) return this.memory.get(who, input);
    const space = await this.spaces.access(who, space_id, false);
    return { ...(await this.memory.get(space.owner, input)), space_id };
  }

  /**
   * With space_id: a writer changes a space's memory. Its provenance stays that of its first writer (a patch
   * cannot change it); the previous text stays as a version, as for any update.
   */
  async update(who: UserScope, input: UpdateMemoryInput): Promise<MemoryResponse> {
    const { space_id, ...own } = input;
    if (space_id === undefined) return this.memory.update(who, own);
    const space = await this.spaces.access(who, space_id, true);
    const { provenance: _, ...patch } = input.metadata ?? {};
    const change = input.metadata ? { ...own, metadata: patch } : own;
    return { ...(await this.memory.update(space.owner, change)), space_id };
  }

  /** With space_id: a writer deletes a space's memory (minimum retention holds it as any memory: 409). */
  async delete(who: UserScope, input: SpaceMemoryRef): Promise<DeleteResponse> {
    const { space_id, ...ref } = input;
    if (space_id === undefined) return this.memory.delete(who, ref);
    const space = await this.spaces.access(who, space_id, true);
    return this.memory.delete(space.owner, ref);
  }

  /**
   * POST /memories/:id/promote: copies one of the user's memories into a space (writers only). The copy's
   * metadata.provenance names the user, the agent that wrote the original and the original's id.
   */
  async promote(who: UserScope, memoryId: string, body: Pick<PromoteBody, "space_id">): Promise<PromoteResponse> {
    const space = await this.spaces.access(who, body.space_id, true);
    const source = await this.memory.get(who, { memory_id: memoryId });
    const { provenance: _, ...metadata } = source.metadata;
    const provenance = { user_id: who.userId, agent_id: source.agent_id, memory_id: source.id };
    const out = await this.memory.add(space.owner, {
      memory: source.memory,
      agent_id: space.id,
      metadata: { ...metadata, provenance },
    });
    const copy = await this.memory.get(space.owner, { memory_id: out.memory_ids[0]! });
    return {
      ...copy,
      space_id: space.id,
      promoted_from: source.id,
      ...(out.deduplicated?.length ? { deduplicated: true } : {}),
    };
  }

  /** The spaces a search or listing also covers; null when it names none (the user's own memories only). */
  private async spacesOf(
    who: UserScope,
    input: { spaces?: string[]; include_shared?: boolean },
  ): Promise<SpaceAccess[] | null> {
    if (!input.spaces && input.include_shared !== true) return null;
    const named = await Promise.all([...new Set(input.spaces ?? [])].map((id) => this.spaces.access(who, id, false)));
    const member = input.include_shared ? await this.spaces.memberOf(who) : [];
    const byId = new Map([...named, ...member].map((s) => [s.id, s]));
    return [...byId.values()];
  }
}

function tagged<T, K>(page: { items: T[]; keys: K[]; total: number }, spaceId: string | null) {
  return { ...page, items: page.items.map((i) => ({ ...i, space_id: spaceId })) };
}
