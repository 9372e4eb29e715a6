// Immutable records in PostgreSQL: every write appends version n+1 (numbered by one atomic upsert of
// the head row, so nodes writing the same record at once get n+1 and n+2); history is kept.
import type { Pg } from "./connection";
import type { Async } from "./pg-repos";
import type { ImmutableRepo, ImmutableRow, ImmutableVersionRow, UserRecord } from "../repos/layer-repos";

const COLUMNS = "type, id, organization_id, user_id, current_version, created_at, updated_at, accessed_at";
const VERSION_COLUMNS = "version, data, metadata, created_at";

export class PgImmutableRepo implements Async<ImmutableRepo> {
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
      `INSERT INTO immutable_versions (type, id, version, organization_id, data, metadata, created_at, retain_until)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [r.type, r.id, head.current_version, head.organization_id, r.data, r.metadata, r.now, r.retainUntil],
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

  async ofUser(userId: string): Promise<UserRecord[]> {
    const rows = await this.pg.all<{ a: string; b: string; org: string; t: number; r: number | null }>(
      `SELECT r.type AS a, r.id AS b, r.organization_id AS org, r.updated_at AS t,
         (SELECT max(v.retain_until) FROM immutable_versions v WHERE v.type = r.type AND v.id = r.id) AS r
       FROM immutable_records r WHERE r.user_id = $1`,
      [userId],
    );
    return rows.map((r) => ({ key: [r.a, r.b], org: r.org, updatedAt: r.t, retainUntil: r.r }));
  }

  async deleteVersions(items: { type: string; id: string; version: number }[]): Promise<void> {
    if (!items.length) return;
    await this.pg.run(
      `DELETE FROM immutable_versions v USING unnest($1::text[], $2::text[], $3::int[]) AS d(type, id, version)
       WHERE v.type = d.type AND v.id = d.id AND v.version = d.version`,
      [items.map((i) => i.type), items.map((i) => i.id), items.map((i) => i.version)],
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
