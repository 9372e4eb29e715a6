// Mutable key/values in SQLite: value, updated/accessed times and optional expiry. A key is
// (organization, namespace, key): another organization's entry of the same name is another entry.
import type { Owner } from "../repos/memory-repo";
import type { Db } from "./connection";
import { RAISED } from "./memory-repo";
import type { MutableRepo, MutableRow, UserRecord } from "../repos/layer-repos";

export class SqliteMutableRepo implements MutableRepo {
  constructor(private readonly db: Db) {}

  async put(r: {
    orgId: string;
    namespace: string;
    key: string;
    userId: string | null;
    value: string;
    expiresAt: number | null;
    now: number;
    retainUntil: number | null;
  }): Promise<MutableRow> {
    return this.db
      .query<MutableRow, any[]>(
        `INSERT INTO mutable_entries (namespace, key, organization_id, user_id, value, created_at, updated_at, accessed_at, expires_at, retain_until)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (organization_id, namespace, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at,
           accessed_at = excluded.accessed_at, expires_at = excluded.expires_at, user_id = coalesce(excluded.user_id, user_id),
           retain_until = ${RAISED.replace("?", "excluded.retain_until")}
         RETURNING *`,
      )
      .get(r.namespace, r.key, r.orgId, r.userId, r.value, r.now, r.now, r.now, r.expiresAt, r.retainUntil)!;
  }

  /** A live (unexpired) entry of the organization, or null. */
  async get(orgId: string, namespace: string, key: string, now: number): Promise<MutableRow | null> {
    return this.db
      .query<MutableRow, [string, string, string, number]>(
        "SELECT * FROM mutable_entries WHERE organization_id = ? AND namespace = ? AND key = ? AND (expires_at IS NULL OR expires_at > ?)",
      )
      .get(orgId, namespace, key, now);
  }

  async touch(orgId: string, namespace: string, key: string, now: number): Promise<void> {
    this.db
      .query("UPDATE mutable_entries SET accessed_at = ? WHERE organization_id = ? AND namespace = ? AND key = ?")
      .run(now, orgId, namespace, key);
  }

  async deleteLive(orgId: string, namespace: string, key: string, now: number): Promise<boolean> {
    return (
      this.db
        .query(
          "DELETE FROM mutable_entries WHERE organization_id = ? AND namespace = ? AND key = ? AND (expires_at IS NULL OR expires_at > ?)",
        )
        .run(orgId, namespace, key, now).changes > 0
    );
  }

  async ofUser(o: Owner): Promise<UserRecord[]> {
    return this.db
      .query<{ a: string; b: string; org: string; t: number; r: number | null }, [string, string]>(
        "SELECT namespace AS a, key AS b, organization_id AS org, updated_at AS t, retain_until AS r FROM mutable_entries WHERE organization_id = ? AND user_id = ?",
      )
      .all(o.org, o.userId)
      .map((r) => ({ key: [r.a, r.b], org: r.org, updatedAt: r.t, retainUntil: r.r }));
  }

  async delete(orgId: string, items: { namespace: string; key: string }[]): Promise<void> {
    const del = this.db.query("DELETE FROM mutable_entries WHERE organization_id = ? AND namespace = ? AND key = ?");
    for (const i of items) del.run(orgId, i.namespace, i.key);
  }
}
