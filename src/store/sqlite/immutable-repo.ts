// Immutable records in SQLite: every write appends version n+1; history is kept.
import type { Owner } from "../repos/memory-repo";
import type { Db } from "./connection";
import type { ImmutableRepo, ImmutableRow, ImmutableVersionRow, UserVersion } from "../repos/layer-repos";

export class SqliteImmutableRepo implements ImmutableRepo {
  constructor(private readonly db: Db) {}

  async head(orgId: string, type: string, id: string): Promise<ImmutableRow | null> {
    return this.db
      .query<ImmutableRow, [string, string, string]>(
        "SELECT * FROM immutable_records WHERE organization_id = ? AND type = ? AND id = ?",
      )
      .get(orgId, type, id);
  }

  async owner(type: string, id: string): Promise<string | null> {
    return (
      this.db
        .query<{ organization_id: string }, [string, string]>(
          "SELECT organization_id FROM immutable_records WHERE type = ? AND id = ?",
        )
        .get(type, id)?.organization_id ?? null
    );
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
    const head = this.db
      .query<{ current_version: number; organization_id: string }, [string, string]>(
        "SELECT current_version, organization_id FROM immutable_records WHERE type = ? AND id = ?",
      )
      .get(r.type, r.id);
    const version = (head?.current_version ?? 0) + 1;
    if (!head) {
      this.db
        .query(
          "INSERT INTO immutable_records (type, id, organization_id, user_id, current_version, created_at, updated_at, accessed_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?)",
        )
        .run(r.type, r.id, r.orgId, r.userId, r.now, r.now, r.now);
    } else {
      this.db
        .query(
          "UPDATE immutable_records SET current_version = ?, updated_at = ?, accessed_at = ?, user_id = coalesce(?, user_id) WHERE type = ? AND id = ?",
        )
        .run(version, r.now, r.now, r.userId, r.type, r.id);
    }
    this.db
      .query(
        "INSERT INTO immutable_versions (type, id, version, data, metadata, created_at, retain_until, user_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .run(r.type, r.id, version, r.data, r.metadata, r.now, r.retainUntil, r.userId);
    return version;
  }

  async version(type: string, id: string, version: number): Promise<ImmutableVersionRow | null> {
    return this.db
      .query<ImmutableVersionRow, [string, string, number]>(
        "SELECT version, data, metadata, created_at, user_id FROM immutable_versions WHERE type = ? AND id = ? AND version = ?",
      )
      .get(type, id, version);
  }

  async versions(type: string, id: string): Promise<ImmutableVersionRow[]> {
    return this.db
      .query<ImmutableVersionRow, [string, string]>(
        "SELECT version, data, metadata, created_at, user_id FROM immutable_versions WHERE type = ? AND id = ? ORDER BY version DESC",
      )
      .all(type, id);
  }

  async touch(type: string, id: string, now: number): Promise<void> {
    this.db.query("UPDATE immutable_records SET accessed_at = ? WHERE type = ? AND id = ?").run(now, type, id);
  }

  async versionsOfUser(o: Owner): Promise<UserVersion[]> {
    return this.db
      .query<UserVersion, [string, string]>(
        `SELECT v.type, v.id, v.version, r.organization_id AS org, v.created_at AS createdAt, v.retain_until AS retainUntil
         FROM immutable_versions v JOIN immutable_records r ON r.type = v.type AND r.id = v.id
         WHERE v.user_id = ? AND r.organization_id = ?`,
      )
      .all(o.userId, o.org);
  }

  async deleteVersions(items: { type: string; id: string; version: number }[]): Promise<void> {
    const del = this.db.query("DELETE FROM immutable_versions WHERE type = ? AND id = ? AND version = ?");
    for (const i of items) del.run(i.type, i.id, i.version);
  }

  async eraseVersions(items: { type: string; id: string; version: number }[]): Promise<void> {
    await this.deleteVersions(items);
    const rehead = this.db.query(
      `UPDATE immutable_records SET (current_version, user_id, updated_at) = (
         SELECT v.version, v.user_id, v.created_at FROM immutable_versions v
         WHERE v.type = immutable_records.type AND v.id = immutable_records.id ORDER BY v.version DESC LIMIT 1)
       WHERE type = ? AND id = ?`,
    );
    const empty = this.db.query(
      "DELETE FROM immutable_records WHERE type = ? AND id = ? AND NOT EXISTS (SELECT 1 FROM immutable_versions v WHERE v.type = ? AND v.id = ?)",
    );
    for (const { type, id } of uniqueRecords(items)) {
      empty.run(type, id, type, id);
      rehead.run(type, id);
    }
  }

  async delete(items: { type: string; id: string }[]): Promise<void> {
    const del = this.db.query("DELETE FROM immutable_records WHERE type = ? AND id = ?");
    for (const i of items) del.run(i.type, i.id);
  }
}

function uniqueRecords(items: { type: string; id: string }[]): { type: string; id: string }[] {
  return [...new Map(items.map((i) => [JSON.stringify([i.type, i.id]), { type: i.type, id: i.id }])).values()];
}
