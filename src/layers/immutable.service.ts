// Immutable layer (SPEC §5.1): org-wide records keyed by (type, id) within the organization; every write is version
// n+1 with the full history kept; reads refresh accessed_at for purgeUnusedAfter.
import type { ImmutableRow, ImmutableVersionRow, Repos, Store } from "~/store/store";
import { orgWide } from "~/shared/store-scope";
import { type Clock, iso } from "~/shared/clock";
import { notFound, validationError } from "~/shared/errors";
import type { OrgScope } from "~/shared/principal";
import type { RetentionFloor } from "~/memory/memory-hooks";
import type {
  PutImmutableInput,
  ImmutablePutResponse,
  ImmutableRecordResponse,
  ImmutableVersionsResponse,
} from "./layers.schema";

const MAX_DATA_BYTES = 1024 * 1024;

export class ImmutableService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    /** The minimum retention each version earns when written (SPEC §5.4). */
    private readonly floor: RetentionFloor,
  ) {}

  async put(scope: OrgScope, type: string, id: string, input: PutImmutableInput): Promise<ImmutablePutResponse> {
    if (input.data === undefined) throw validationError("data", "data is required");
    const data = JSON.stringify(input.data);
    if (Buffer.byteLength(data) > MAX_DATA_BYTES)
      throw validationError("data", `data must be at most ${MAX_DATA_BYTES} bytes of JSON`);
    const now = this.clock.now();
    const version = await this.store.write(async (tx) => {
      return tx.immutable.put({
        orgId: scope.org,
        type,
        id,
        userId: input.user_id ?? null,
        data,
        metadata: JSON.stringify(input.metadata ?? {}),
        now,
        retainUntil: (await this.floor.retainUntil({ organizationId: scope.org }, now, tx)) ?? null,
      });
    }, orgWide(scope.org));
    return { success: true as const, type, id, version, created_at: iso(now) };
  }

  async get(scope: OrgScope, type: string, id: string, version?: number): Promise<ImmutableRecordResponse> {
    const { head, v } = await this.store.read(async (r) => {
      const head = await this.mustHead(r, scope, type, id);
      return { head, v: await r.immutable.version(scope.org, type, id, version ?? head.current_version) };
    }, orgWide(scope.org));
    if (!v) throw notFound("version", `${type}/${id}@${version}`);
    await this.touch(scope.org, type, id);
    return { success: true as const, ...view(head, v) };
  }

  async versions(scope: OrgScope, type: string, id: string): Promise<ImmutableVersionsResponse> {
    await this.store.read((r) => this.mustHead(r, scope, type, id), orgWide(scope.org));
    // Listing the history is a read too (purgeUnusedAfter counts reads).
    await this.touch(scope.org, type, id);
    return {
      success: true as const,
      versions: (await this.store.read((r) => r.immutable.versions(scope.org, type, id), orgWide(scope.org))).map(
        (v) => ({
          version: v.version,
          data: JSON.parse(v.data),
          created_at: iso(v.created_at),
        }),
      ),
    };
  }

  private async touch(org: string, type: string, id: string): Promise<void> {
    const now = this.clock.now();
    await this.store.write((tx) => tx.immutable.touch(org, type, id, now), orgWide(org));
  }

  /** The organization's record; one of another user is missing for a member or reader key (SPEC §8). */
  private async mustHead(r: Repos, scope: OrgScope, type: string, id: string): Promise<ImmutableRow> {
    const head = await r.immutable.head(scope.org, type, id);
    if (!head || (scope.viewer !== undefined && head.user_id !== null && head.user_id !== scope.viewer))
      throw notFound("record", `${type}/${id}`);
    return head;
  }
}

function view(head: ImmutableRow, v: ImmutableVersionRow) {
  return {
    type: head.type,
    id: head.id,
    version: v.version,
    current_version: head.current_version,
    data: JSON.parse(v.data),
    metadata: JSON.parse(v.metadata),
    user_id: v.user_id,
    created_at: iso(v.created_at),
    updated_at: iso(head.updated_at),
  };
}
