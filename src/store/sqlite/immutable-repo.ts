// Immutable records in SQLite: every write appends version n+1; history is kept. A record is keyed by
// (organization, type, id): another organization's record of the same type and id is another record.
import type { Owner } from "../repos/memory-repo";
import type { Db } from "./connection";
import type { ImmutableRepo, ImmutableRow, ImmutableVersionRow, UserVersion } from "../repos/layer-repos";

type Key = { type: string; id: string };

export class SqliteImmutableRepo implements ImmutableRepo {
  constructor(private readonly db: Db) {}

  async head(orgId: string, type: string, id: string): Promise<ImmutableRow | null> {
    return this.db
      .query<ImmutableRow, [string, string, string]>(
        "SELECT * FROM immutable_records WHERE organization_id = ? AND type = ? AND id = ?",
      )
      .get(orgId, type, id);
  }

  /** Appends a version (creating the record on first write) and returns its number. */
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
    const { current_version: version } = this.db
      .query<{ current_version: number }, any[]>(
        `INSERT INTO immutable_records (organization_id, type, id, user_id, current_version, created_at, updated_at, accessed_at)
         VALUES (?, ?, ?, ?, 1, ?, ?, ?)
         ON CONFLICT (organization_id, type, id) DO UPDATE SET current_version = current_version + 1,
           updated_at = excluded.updated_at, accessed_at = excluded.accessed_at, user_id = coalesce(excluded.user_id, user_id)
         RETURNING current_version`,
      )
      .get(r.orgId, r.type, r.id, r.userId, r.now, r.now, r.now)!;
    this.db
      .query(
        "INSERT INTO immutable_versions (organization_id, type, id, version, data, metadata, created_at, retain_until, user_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .run(r.orgId, r.type, r.id, version, r.data, r.metadata, r.now, r.retainUntil, r.userId);
    return version;
  }

  async version(orgId: string, type: string, id: string, version: number): Promise<ImmutableVersionRow | null> {
    return this.db
      .query<ImmutableVersionRow, [string, string, string, number]>(
        "SELECT version, data, metadata, created_at, user_id FROM immutable_versions WHERE organization_id = ? AND type = ? AND id = ? AND version = ?",
      )
      .get(orgId, type, id, version);
  }

  async versions(orgId: string, type: string, id: string): Promise<ImmutableVersionRow[]> {
    return this.db
      .query<ImmutableVersionRow, [string, string, string]>(
        "SELECT version, data, metadata, created_at, user_id FROM immutable_versions WHERE organization_id = +? AND type = +? AND id = +? ORDER BY version DESC",
      )
      .all(orgId, type, id);
  }

  async touch(orgId: string, type: string, id: string, now: number): Promise<void> {
    this.db
      .query("UPDATE immutable_records SET accessed_at = ? WHERE organization_id = ? AND type = ? AND id = ?")
      .run(now, orgId, type, id);
  }

  async versionsOfUser(o: Owner): Promise<UserVersion[]> {
    return this.db
      .query<UserVersion, [string, string]>(
        `SELECT type, id, version, organization_id AS org, created_at AS createdAt, retain_until AS retainUntil
         FROM immutable_versions WHERE organization_id = ? AND user_id = ?`,
      )
      .all(o.org, o.userId);
  }

  async deleteVersions(orgId: string, items: (Key & { version: number })[]): Promise<void> {
    const del = this.db.query(
      "DELETE FROM immutable_versions WHERE organization_id = ? AND type = ? AND id = ? AND version = ?",
    );
    for (const i of items) del.run(orgId, i.type, i.id, i.version);
  }

  async eraseVersions(orgId: string, items: (Key & { version: number })[]): Promise<void> {
    await this.deleteVersions(orgId, items);
    const rehead = this.db.query(
      `UPDATE immutable_records SET (current_version, user_id, updated_at) = (
         SELECT v.version, v.user_id, v.created_at FROM immutable_versions v
         WHERE v.organization_id = immutable_records.organization_id AND v.type = immutable_records.type AND v.id = immutable_records.id
         ORDER BY v.version DESC LIMIT 1)
       WHERE organization_id = +? AND type = +? AND id = +?`,
    );
    const empty = this.db.query(
      `DELETE FROM immutable_records WHERE organization_id = ?1 AND type = ?2 AND id = ?3
         AND NOT EXISTS (SELECT 1 FROM immutable_versions v WHERE v.organization_id = ?1 AND v.type = ?2 AND v.id = ?3)`,
    );
    for (const { type, id } of uniqueRecords(items)) {
      empty.run(orgId, type, id);
      rehead.run(orgId, type, id);
    }
  }

  async delete(orgId: string, items: Key[]): Promise<void> {
    const del = this.db.query("DELETE FROM immutable_records WHERE organization_id = ? AND type = ? AND id = ?");
    for (const i of items) del.run(orgId, i.type, i.id);
  }
}

function uniqueRecords(items: Key[]): Key[] {
  return [...new Map(items.map((i) => [JSON.stringify([i.type, i.id]), { type: i.type, id: i.id }])).values()];
}
