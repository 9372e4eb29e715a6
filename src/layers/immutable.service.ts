// Immutable layer (SPEC §5.1): org-wide records keyed by (type, id); every write is version
// n+1 with the full history kept; reads refresh accessed_at for purgeUnusedAfter.
import type { Db } from "~/store/sqlite";
import { ImmutableRepo, type ImmutableRow, type ImmutableVersionRow } from "~/store/immutable-repo";
import { type Clock, iso } from "~/shared/clock";
import { AppError, notFound, validationError } from "~/shared/errors";
import type { PutImmutableInput } from "./layers.schema";

const MAX_DATA_BYTES = 1024 * 1024;

export class ImmutableService {
  private readonly repo: ImmutableRepo;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly orgId: string,
  ) {
    this.repo = new ImmutableRepo(db);
  }

  put(type: string, id: string, input: PutImmutableInput) {
    if (input.data === undefined) throw validationError("data", "data is required");
    const data = JSON.stringify(input.data);
    if (Buffer.byteLength(data) > MAX_DATA_BYTES)
      throw validationError("data", `data must be at most ${MAX_DATA_BYTES} bytes of JSON`);
    const now = this.clock.now();
    const version = this.db
      .transaction(() => {
        const other = this.db
          .query<{ organization_id: string }, [string, string]>(
            "SELECT organization_id FROM immutable_records WHERE type = ? AND id = ?",
          )
          .get(type, id);
        if (other && other.organization_id !== this.orgId)
          throw new AppError("CONFLICT", `record ${type}/${id} belongs to another organization`);
        return this.repo.put({
          orgId: this.orgId,
          type,
          id,
          userId: input.user_id ?? null,
          data,
          metadata: JSON.stringify(input.metadata ?? {}),
          now,
        });
      })
      .immediate();
    return { success: true as const, type, id, version, created_at: iso(now) };
  }

  get(type: string, id: string, version?: number) {
    const head = this.mustHead(type, id);
    const v = this.repo.version(type, id, version ?? head.current_version);
    if (!v) throw notFound("version", `${type}/${id}@${version}`);
    this.repo.touch(type, id, this.clock.now());
    return { success: true as const, ...view(head, v) };
  }

  versions(type: string, id: string) {
    this.mustHead(type, id);
    // Listing the history is a read too (purgeUnusedAfter counts reads).
    this.repo.touch(type, id, this.clock.now());
    return {
      success: true as const,
      versions: this.repo
        .versions(type, id)
        .map((v) => ({ version: v.version, data: JSON.parse(v.data), created_at: iso(v.created_at) })),
    };
  }

  private mustHead(type: string, id: string): ImmutableRow {
    const head = this.repo.head(this.orgId, type, id);
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
    user_id: head.user_id,
    created_at: iso(v.created_at),
    updated_at: iso(head.updated_at),
  };
}
