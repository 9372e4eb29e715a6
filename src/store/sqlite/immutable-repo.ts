// Immutable records in SQLite: every write appends version n+1; history is kept.
import type { Db } from "./connection";
import type { ImmutableRepo, ImmutableRow, ImmutableVersionRow, UserRecord } from "../repos/layer-repos";

export class SqliteImmutableRepo implements ImmutableRepo {
  constructor(private readonly db: Db) {}

  head(orgId: string, type: string, id: string): ImmutableRow | null {
    return this.db
      .query<ImmutableRow, [string, string, string]>(
        "SELECT * FROM immutable_records WHERE organization_id = ? AND type = ? AND id = ?",
      )
      .get(orgId, type, id);
  }

  owner(type: string, id: string): string | null {
    return (
      this.db
        .query<{ organization_id: string }, [string, string]>(
          "SELECT organization_id FROM immutable_records WHERE type = ? AND id = ?",
        )
        .get(type, id)?.organization_id ?? null
    );
  }

  /** Appends a version (creating the record on first write) and returns its number. */
  put(r: {
    orgId: string;
    type: string;
    id: string;
    userId: string | null;
    data: string;
    metadata: string;
    now: number;
    retainUntil: number | null;
  }): number {
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
        "INSERT INTO immutable_versions (type, id, version, data, metadata, created_at, retain_until) VALUES (?, ?, ?, ?, ?, ?, ?)",
      )
      .run(r.type, r.id, version, r.data, r.metadata, r.now, r.retainUntil);
    return version;
  }

  version(type: string, id: string, version: number): ImmutableVersionRow | null {
    return this.db
      .query<ImmutableVersionRow, [string, string, number]>(
        "SELECT version, data, metadata, created_at FROM immutable_versions WHERE type = ? AND id = ? AND version = ?",
      )
      .get(type, id, version);
  }

  versions(type: string, id: string): ImmutableVersionRow[] {
    return this.db
      .query<ImmutableVersionRow, [string, string]>(
        "SELECT version, data, metadata, created_at FROM immutable_versions WHERE type = ? AND id = ? ORDER BY version DESC",
      )
      .all(type, id);
  }

  touch(type: string, id: string, now: number): void {
    this.db.query("UPDATE immutable_records SET accessed_at = ? WHERE type = ? AND id = ?").run(now, type, id);
  }

  ofUser(userId: string): UserRecord[] {
    return this.db
      .query<{ a: string; b: string; org: string; t: number; r: number | null }, [string]>(
        `SELECT r.type AS a, r.id AS b, r.organization_id AS org, r.updated_at AS t,
           (SELECT max(v.retain_until) FROM immutable_versions v WHERE v.type = r.type AND v.id = r.id) AS r
         FROM immutable_records r WHERE r.user_id = ?`,
      )
      .all(userId)
      .map((r) => ({ key: [r.a, r.b], org: r.org, updatedAt: r.t, retainUntil: r.r }));
  }

  deleteVersions(items: { type: string; id: string; version: number }[]): void {
    const del = this.db.query("DELETE FROM immutable_versions WHERE type = ? AND id = ? AND version = ?");
    for (const i of items) del.run(i.type, i.id, i.version);
  }

  delete(items: { type: string; id: string }[]): void {
    const del = this.db.query("DELETE FROM immutable_records WHERE type = ? AND id = ?");
    for (const i of items) del.run(i.type, i.id);
  }
}
