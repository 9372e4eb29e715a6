// Immutable records in PostgreSQL: every write appends version n+1 (numbered by one atomic upsert of
// the head row, so nodes writing the same record at once get n+1 and n+2); history is kept. A record is
// keyed by (organization, type, id): another organization's record of the same name is another record.
import type { Owner } from "../repos/memory-repo";
import type { Pg } from "./connection";
import type { ImmutableRepo, ImmutableRow, ImmutableVersionRow, UserVersion } from "../repos/layer-repos";

const COLUMNS = "type, id, organization_id, user_id, current_version, created_at, updated_at, accessed_at";
const VERSION_COLUMNS = "version, data, metadata, created_at, user_id";

export class PgImmutableRepo implements ImmutableRepo {
  constructor(private readonly pg: Pg) {}

  head(orgId: string, type: string, id: string): Promise<ImmutableRow | null> {
    return this.pg.one<ImmutableRow>(
      `SELECT ${COLUMNS} FROM immutable_records WHERE organization_id = $1 AND type = $2 AND id = $3`,
      [orgId, type, id],
    );
  }

  async put(r: {
    orgId: string;
    type: string;
    id: string;
    userId: string | null;
    data: string;
    metadata: string;
    now: number;
    retainUntil: number | null;
  }): Promise<number> {
    const head = (await this.pg.one<{ current_version: number; organization_id: string }>(
      `INSERT INTO immutable_records AS h (type, id, organization_id, user_id, current_version, created_at, updated_at, accessed_at)
       VALUES ($1, $2, $3, $4, 1, $5, $5, $5)
       ON CONFLICT (organization_id, type, id) DO UPDATE SET current_version = h.current_version + 1, updated_at = excluded.updated_at,
         accessed_at = excluded.accessed_at, user_id = coalesce(excluded.user_id, h.user_id)
       RETURNING current_version, organization_id`,
      [r.type, r.id, r.orgId, r.userId, r.now],
    ))!;
    await this.pg.run(
      `INSERT INTO immutable_versions (type, id, version, organization_id, user_id, data, metadata, created_at, retain_until)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [r.type, r.id, head.current_version, head.organization_id, r.userId, r.data, r.metadata, r.now, r.retainUntil],
    );
    return head.current_version;
  }

  version(orgId: string, type: string, id: string, version: number): Promise<ImmutableVersionRow | null> {
    return this.pg.one<ImmutableVersionRow>(
      `SELECT ${VERSION_COLUMNS} FROM immutable_versions WHERE organization_id = $1 AND type = $2 AND id = $3 AND version = $4`,
      [orgId, type, id, version],
    );
  }

  versions(orgId: string, type: string, id: string): Promise<ImmutableVersionRow[]> {
    return this.pg.all<ImmutableVersionRow>(
      `SELECT ${VERSION_COLUMNS} FROM immutable_versions WHERE organization_id = $1 AND type = $2 AND id = $3 ORDER BY version DESC`,
      [orgId, type, id],
    );
  }

  async touch(orgId: string, type: string, id: string, now: number): Promise<void> {
    await this.pg.run(
      "UPDATE immutable_records SET accessed_at = $1 WHERE organization_id = $2 AND type = $3 AND id = $4",
      [now, orgId, type, id],
    );
  }

  versionsOfUser(o: Owner): Promise<UserVersion[]> {
    return this.pg.all<UserVersion>(
      `SELECT type, id, version, organization_id AS org, created_at AS "createdAt", retain_until AS "retainUntil"
       FROM immutable_versions WHERE organization_id = $1 AND user_id = $2`,
      [o.org, o.userId],
    );
  }

  async deleteVersions(orgId: string, items: { type: string; id: string; version: number }[]): Promise<void> {
    if (!items.length) return;
    await this.pg.run(
      `DELETE FROM immutable_versions v USING unnest($2::text[], $3::text[], $4::int[]) AS d(type, id, version)
       WHERE v.organization_id = $1 AND v.type = d.type AND v.id = d.id AND v.version = d.version`,
      [orgId, items.map((i) => i.type), items.map((i) => i.id), items.map((i) => i.version)],
    );
  }

  /** A record left with no version goes; any other reads as its newest remaining version. */
  async eraseVersions(orgId: string, items: { type: string; id: string; version: number }[]): Promise<void> {
    if (!items.length) return;
    await this.deleteVersions(orgId, items);
    const records = [orgId, items.map((i) => i.type), items.map((i) => i.id)];
    await this.pg.run(
      `DELETE FROM immutable_records r USING unnest($2::text[], $3::text[]) AS d(type, id)
       WHERE r.organization_id = $1 AND r.type = d.type AND r.id = d.id
         AND NOT EXISTS (SELECT 1 FROM immutable_versions v WHERE v.organization_id = $1 AND v.type = r.type AND v.id = r.id)`,
      records,
    );
    await this.pg.run(
      `UPDATE immutable_records r SET (current_version, user_id, updated_at) = (
         SELECT v.version, v.user_id, v.created_at FROM immutable_versions v
         WHERE v.organization_id = $1 AND v.type = r.type AND v.id = r.id ORDER BY v.version DESC LIMIT 1)
       FROM unnest($2::text[], $3::text[]) AS d(type, id) WHERE r.organization_id = $1 AND r.type = d.type AND r.id = d.id`,
      records,
    );
  }

  async delete(orgId: string, items: { type: string; id: string }[]): Promise<void> {
    if (!items.length) return;
    await this.pg.run(
      `DELETE FROM immutable_records r USING unnest($2::text[], $3::text[]) AS d(type, id)
       WHERE r.organization_id = $1 AND r.type = d.type AND r.id = d.id`,
      [orgId, items.map((i) => i.type), items.map((i) => i.id)],
    );
  }
}
