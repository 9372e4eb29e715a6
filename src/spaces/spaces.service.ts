// Shared spaces of an organization (SPEC §8): creation, membership, deletion, and the one check of who
// may read or write a space. A space's memories are ordinary memories under the space's reserved owner
// (shared/principal.ts: 'space:<id>', agent_id = the space id), reached only through this check.
import type { Owner, Repos, SpaceMemberRow, SpaceRow, Store } from "~/store/store";
import { type Clock, iso } from "~/shared/clock";
import { AppError, conflict, notFound, validationError } from "~/shared/errors";
import { refuseSpaceOwner, spaceOwnerId, type OrgScope, type UserScope } from "~/shared/principal";
import type { MemoryService } from "~/memory/memory.service";
import type { MemoryCaches } from "~/memory/memory-caches";
import type { GraphLinker, RetentionFloor } from "~/memory/memory-hooks";
import type {
  CreateSpaceInput,
  DeleteSpaceResponse,
  SetMembersInput,
  SpaceListResponse,
  SpaceMember,
  SpaceResponse,
  SpaceView,
} from "./spaces.schema";

export interface SpacesDeps {
  store: Store;
  clock: Clock;
  memory: MemoryService;
  caches: MemoryCaches;
  graph: GraphLinker;
  floor: RetentionFloor;
}

/** A space a request reads or writes: its id and the owner its memories are stored under. */
export interface SpaceAccess {
  id: string;
  owner: UserScope;
}

const forbidden = (message: string) => new AppError("FORBIDDEN", message);
const ownerScope = (org: string, spaceId: string): UserScope => ({
  org,
  userId: spaceOwnerId(spaceId),
  admin: true,
  readOnly: false,
});

export class SpacesService {
  constructor(private readonly d: SpacesDeps) {}

  /** POST /spaces (admin). `by`: the principal that creates it (kept on the row). */
  async create(org: string, input: CreateSpaceInput, by: string | null): Promise<SpaceResponse> {
    const members = checkMembers(input.members);
    const row: SpaceRow = {
      org_id: org,
      id: input.space_id,
      name: input.name,
      created_at: this.d.clock.now(),
      created_by: by,
    };
    const added = await this.d.store.write((tx) => tx.spaces.insert(row, members), { org });
    if (!added) throw conflict(`space '${input.space_id}' already exists`);
    return { success: true, ...view(row, members) };
  }

  /** GET /spaces: an admin sees every space of the organization, anyone else those they belong to. */
  async list(scope: OrgScope): Promise<SpaceListResponse> {
    const spaces = await this.d.store.read(
      async (r) => {
        const rows = await r.spaces.list(scope.org, scope.viewer);
        return Promise.all(rows.map(async (s) => view(s, await r.spaces.members(scope.org, s.id))));
      },
      { org: scope.org },
    );
    return { success: true, spaces };
  }

  /** GET /spaces/:id: its admins and members; anyone else of the organization 403. */
  async get(scope: OrgScope, id: string): Promise<SpaceResponse> {
    return this.d.store.read(
      async (r) => {
        const row = await this.mustGet(r, scope.org, id);
        if (scope.viewer !== undefined && !(await r.spaces.roleOf(scope.org, id, scope.viewer)).role)
          throw forbidden(`user '${scope.viewer}' is not a member of space '${id}'`);
        return { success: true as const, ...view(row, await r.spaces.members(scope.org, id)) };
      },
      { org: scope.org },
    );
  }

  /** PUT /spaces/:id/members (admin): the new member list replaces the old one, effective at the next request. */
  async setMembers(org: string, id: string, input: SetMembersInput): Promise<SpaceResponse> {
    const members = checkMembers(input.members);
    const row = await this.d.store.write(
      async (tx) => {
        const found = await this.mustGet(tx, org, id);
        await tx.spaces.setMembers(org, id, members);
        return found;
      },
      { org },
    );
    return { success: true, ...view(row, members) };
  }

  /**
   * DELETE /spaces/:id (admin): the space, its members and everything stored under it (memories with their
   * vectors, versions and facts; conversations; sessions), in one transaction, then its graph. A delete route honours the
   * minimum retention (SPEC §5.4): when any of it is held, nothing is deleted (409) — never a space gone
   * with memories left behind that no one could reach.
   */
  async delete(org: string, id: string): Promise<DeleteSpaceResponse> {
    const owner: Owner = { org, userId: spaceOwnerId(id) };
    const removed = await this.d.store.write(
      async (tx) => {
        await this.mustGet(tx, org, id);
        const ids = await this.d.memory.deleteOwned(tx, owner, false);
        const held = await tx.memories.countForUser(owner);
        if (held) throw conflict(`space '${id}' holds ${held} memories under minimum retention; nothing was deleted`);
        await this.deleteConversations(tx, owner, id);
        await tx.sessions.deleteUser(owner);
        await tx.spaces.delete(org, id);
        return ids;
      },
      { org },
    );
    this.d.caches.touched(owner, "all");
    // The space's graph holds only what its memories named (no route writes a space owner's graph): all of it goes.
    await this.d.graph.deleteUser(owner);
    return { success: true, space_id: id, deleted_count: removed.length };
  }

  /**
   * The owner a request reads (`write` false) or writes a space's memories as. Unknown space: 404; not a
   * member: 403; a reader (of the space, or a reader key) writing: 403. An admin is a writer of every space.
   */
  async access(who: UserScope, spaceId: string, write: boolean): Promise<SpaceAccess> {
    const { exists, role } = await this.d.store.read((r) => r.spaces.roleOf(who.org, spaceId, who.userId), {
      org: who.org,
    });
    if (!exists) throw notFound("space", spaceId);
    if (!role && !who.admin) throw forbidden(`user '${who.userId}' is not a member of space '${spaceId}'`);
    if (write && (who.readOnly || (!who.admin && role !== "writer")))
      throw forbidden(`user '${who.userId}' may read space '${spaceId}' but not write to it`);
    return { id: spaceId, owner: ownerScope(who.org, spaceId) };
  }

  /** The spaces the user belongs to (include_shared). */
  async memberOf(who: UserScope): Promise<SpaceAccess[]> {
    const rows = await this.d.store.read((r) => r.spaces.list(who.org, who.userId), { org: who.org });
    return rows.map((s) => ({ id: s.id, owner: ownerScope(who.org, s.id) }));
  }

  private async mustGet(r: Repos, org: string, id: string): Promise<SpaceRow> {
    const row = await r.spaces.get(org, id);
    if (!row) throw notFound("space", id);
    return row;
  }

  private async deleteConversations(tx: Repos, owner: Owner, id: string): Promise<void> {
    const now = this.d.clock.now();
    const conversations = await tx.conversations.ofUser(owner);
    for (const c of conversations)
      if (
        (await this.d.floor.heldUntil(
          { org: owner.org, memorySpaceId: c.space },
          c.lastMessageAt,
          c.retainUntil,
          now,
          tx,
        )) != null
      )
        throw conflict(`space '${id}' holds conversations under minimum retention; nothing was deleted`);
    await tx.conversations.delete(conversations.map((c) => c.id));
  }
}

function checkMembers(members: readonly SpaceMember[]): SpaceMemberRow[] {
  const seen = new Set<string>();
  for (const [i, m] of members.entries()) {
    refuseSpaceOwner(m.user_id, `members[${i}].user_id`);
    if (seen.has(m.user_id)) throw validationError(`members[${i}].user_id`, `user '${m.user_id}' is listed twice`);
    seen.add(m.user_id);
  }
  return [...members].sort((a, b) => (a.user_id < b.user_id ? -1 : a.user_id > b.user_id ? 1 : 0));
}

const view = (s: SpaceRow, members: readonly SpaceMemberRow[]): SpaceView => ({
  space_id: s.id,
  name: s.name,
  created_at: iso(s.created_at),
  members: members.map((m) => ({ user_id: m.user_id, role: m.role })),
});
