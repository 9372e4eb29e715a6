// Immutable records in PostgreSQL: every write appends version n+1 (numbered by one atomic upsert of
// the head row, so nodes writing the same record at once get n+1 and n+2); history is kept.
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

  async owner(type: string, id: string): Promise<string | null> {
    const r = await this.pg.one<{ organization_id: string }>(
      "SELECT organization_id FROM immutable_records WHERE type = $1 AND id = $2",
      [type, id],
    );
    return r?.organization_id ?? null;
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
       ON CONFLICT (type, id) DO UPDATE SET current_version = h.current_version + 1, updated_at = excluded.updated_at,
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

  version(type: string, id: string, version: number): Promise<ImmutableVersionRow | null> {
    return this.pg.one<ImmutableVersionRow>(
      `SELECT ${VERSION_COLUMNS} FROM immutable_versions WHERE type = $1 AND id = $2 AND version = $3`,
      [type, id, version],
    );
  }

  versions(type: string, id: string): Promise<ImmutableVersionRow[]> {
    return this.pg.all<ImmutableVersionRow>(
      `SELECT ${VERSION_COLUMNS} FROM immutable_versions WHERE type = $1 AND id = $2 ORDER BY version DESC`,
      [type, id],
    );
  }

  async touch(type: string, id: string, now: number): Promise<void> {
    await this.pg.run("UPDATE immutable_records SET accessed_at = $1 WHERE type = $2 AND id = $3", [now, type, id]);
  }

  versionsOfUser(o: Owner): Promise<UserVersion[]> {
    return this.pg.all<UserVersion>(
      `SELECT v.type, v.id, v.version, r.organization_id AS org, v.created_at AS "createdAt", v.retain_until AS "retainUntil"
       FROM immutable_versions v JOIN immutable_records r ON r.type = v.type AND r.id = v.id
       WHERE v.user_id = $1 AND r.organization_id = $2`,
      [o.userId, o.org],
    );
  }

  async deleteVersions(items: { type: string; id: string; version: number }[]): Promise<void> {
    if (!items.length) return;
    await this.pg.run(
      `DELETE FROM immutable_versions v USING unnest($1::text[], $2::text[], $3::int[]) AS d(type, id, version)
       WHERE v.type = d.type AND v.id = d.id AND v.version = d.version`,
      [items.map((i) => i.type), items.map((i) => i.id), items.map((i) => i.version)],
    );
  }

  /** A record left with no version goes; any other reads as its newest remaining version. */
  async eraseVersions(items: { type: string; id: string; version: number }[]): Promise<void> {
    if (!items.length) return;
    await this.deleteVersions(items);
    const records = [items.map((i) => i.type), items.map((i) => i.id)];
    await this.pg.run(
      `DELETE FROM immutable_records r USING unnest($1::text[], $2::text[]) AS d(type, id)
       WHERE r.type = d.type AND r.id = d.id
         AND NOT EXISTS (SELECT 1 FROM immutable_versions v WHERE v.type = r.type AND v.id = r.id)`,
      records,
    );
    await this.pg.run(
      `UPDATE immutable_records r SET (current_version, user_id, updated_at) = (
         SELECT v.version, v.user_id, v.created_at FROM immutable_versions v
         WHERE v.type = r.type AND v.id = r.id ORDER BY v.version DESC LIMIT 1)
       FROM unnest($1::text[], $2::text[]) AS d(type, id) WHERE r.type = d.type AND r.id = d.id`,
      records,
    );
  }

  async delete(items: { type: string; id: string }[]): Promise<void> {
    if (!items.length) return;
    await this.pg.run(
      `DELETE FROM immutable_records r USING unnest($1::text[], $2::text[]) AS d(type, id)
       WHERE r.type = d.type AND r.id = d.id`,
      [items.map((i) => i.type), items.map((i) => i.id)],
    );
  }
}
