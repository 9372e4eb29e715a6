// Mutable key/values in PostgreSQL: value, updated/accessed times and optional expiry. A key is
// (organization, namespace, key): another organization's entry of the same name is another entry.
import type { Owner } from "../repos/memory-repo";
import type { Pg } from "./connection";
import { RAISED } from "./memory-repo";
import type { MutableRepo, MutableRow, UserRecord } from "../repos/layer-repos";

const COLUMNS =
  "namespace, key, organization_id, user_id, value, created_at, updated_at, accessed_at, expires_at, retain_until";
const LIVE = (p: string) => `(expires_at IS NULL OR expires_at > ${p})`;

export class PgMutableRepo implements MutableRepo {
  constructor(private readonly pg: Pg) {}

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
    return (await this.pg.one<MutableRow>(
      `INSERT INTO mutable_entries AS e (namespace, key, organization_id, user_id, value, created_at, updated_at, accessed_at, expires_at, retain_until)
       VALUES ($1, $2, $3, $4, $5, $6, $6, $6, $7, $8)
       ON CONFLICT (organization_id, namespace, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at,
         accessed_at = excluded.accessed_at, expires_at = excluded.expires_at, user_id = coalesce(excluded.user_id, e.user_id),
         retain_until = ${RAISED("e.retain_until", "excluded.retain_until")}
       RETURNING ${COLUMNS}`,
      [r.namespace, r.key, r.orgId, r.userId, r.value, r.now, r.expiresAt, r.retainUntil],
    ))!;
  }

  get(orgId: string, namespace: string, key: string, now: number): Promise<MutableRow | null> {
    return this.pg.one<MutableRow>(
      `SELECT ${COLUMNS} FROM mutable_entries WHERE organization_id = $1 AND namespace = $2 AND key = $3 AND ${LIVE("$4")}`,
      [orgId, namespace, key, now],
    );
  }

  async touch(orgId: string, namespace: string, key: string, now: number): Promise<void> {
    await this.pg.run(
      "UPDATE mutable_entries SET accessed_at = $1 WHERE organization_id = $2 AND namespace = $3 AND key = $4",
      [now, orgId, namespace, key],
    );
  }

  async deleteLive(orgId: string, namespace: string, key: string, now: number): Promise<boolean> {
    const n = await this.pg.run(
      `DELETE FROM mutable_entries WHERE organization_id = $1 AND namespace = $2 AND key = $3 AND ${LIVE("$4")}`,
      [orgId, namespace, key, now],
    );
    return n > 0;
  }

  async ofUser(o: Owner): Promise<UserRecord[]> {
    const rows = await this.pg.all<{ a: string; b: string; org: string; t: number; r: number | null }>(
      `SELECT namespace AS a, key AS b, organization_id AS org, updated_at AS t, retain_until AS r
       FROM mutable_entries WHERE organization_id = $1 AND user_id = $2`,
      [o.org, o.userId],
    );
    return rows.map((r) => ({ key: [r.a, r.b], org: r.org, updatedAt: r.t, retainUntil: r.r }));
  }

  async delete(orgId: string, items: { namespace: string; key: string }[]): Promise<void> {
    if (!items.length) return;
    await this.pg.run(
      `DELETE FROM mutable_entries e USING unnest($2::text[], $3::text[]) AS d(namespace, key)
       WHERE e.organization_id = $1 AND e.namespace = d.namespace AND e.key = d.key`,
      [orgId, items.map((i) => i.namespace), items.map((i) => i.key)],
    );
  }
}
