// Immutable layer (SPEC §5.1): org-wide records keyed by (type, id); every write is version
// n+1 with the full history kept; reads refresh accessed_at for purgeUnusedAfter.
import type { ImmutableRow, ImmutableVersionRow, Repos, Store } from "~/store/store";
import { type Clock, iso } from "~/shared/clock";
import { AppError, notFound, validationError } from "~/shared/errors";
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
    private readonly orgId: string,
    /** The minimum retention each version earns when written (SPEC §5.4). */
    private readonly floor?: RetentionFloor,
  ) {}

  put(type: string, id: string, input: PutImmutableInput): ImmutablePutResponse {
    if (input.data === undefined) throw validationError("data", "data is required");
    const data = JSON.stringify(input.data);
    if (Buffer.byteLength(data) > MAX_DATA_BYTES)
      throw validationError("data", `data must be at most ${MAX_DATA_BYTES} bytes of JSON`);
    const now = this.clock.now();
    const version = this.store.write((tx) => {
      const owner = tx.immutable.owner(type, id);
      if (owner !== null && owner !== this.orgId)
        throw new AppError("CONFLICT", `record ${type}/${id} belongs to another organization`);
      return tx.immutable.put({
        orgId: this.orgId,
        type,
        id,
        userId: input.user_id ?? null,
        data,
        metadata: JSON.stringify(input.metadata ?? {}),
        now,
        retainUntil: this.floor?.retainUntil({ organizationId: this.orgId }, now) ?? null,
      });
    });
    return { success: true as const, type, id, version, created_at: iso(now) };
  }

  get(type: string, id: string, version?: number): ImmutableRecordResponse {
    const { head, v } = this.store.read((r) => {
      const head = this.mustHead(r, type, id);
      return { head, v: r.immutable.version(type, id, version ?? head.current_version) };
    });
    if (!v) throw notFound("version", `${type}/${id}@${version}`);
    this.touch(type, id);
    return { success: true as const, ...view(head, v) };
  }

  versions(type: string, id: string): ImmutableVersionsResponse {
    this.store.read((r) => this.mustHead(r, type, id));
    // Listing the history is a read too (purgeUnusedAfter counts reads).
    this.touch(type, id);
    return {
      success: true as const,
      versions: this.store
        .read((r) => r.immutable.versions(type, id))
        .map((v) => ({ version: v.version, data: JSON.parse(v.data), created_at: iso(v.created_at) })),
    };
  }

  private touch(type: string, id: string): void {
    const now = this.clock.now();
    this.store.write((tx) => tx.immutable.touch(type, id, now));
  }

  private mustHead(r: Repos, type: string, id: string): ImmutableRow {
    const head = r.immutable.head(this.orgId, type, id);
    if (!head) throw notFound("record", `${type}/${id}`);
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
