// Identity keys in SQLite (api_keys). Authentication reads one row by primary key per request, so a
// revocation written by any process on the store is seen by every process at its next request.
import type { Db } from "./connection";
import type { KeyRepo, KeyRow, NewKey } from "../repos/key-repo";

const COLUMNS =
  "id, org_id, role, user_id, agent_id, name, secret_hash, created_at, expires_at, last_used_at, revoked_at";

export class SqliteKeyRepo implements KeyRepo {
  constructor(private readonly db: Db) {}

  async insert(k: NewKey): Promise<void> {
    this.db
      .query(
        `INSERT INTO api_keys (id, org_id, role, user_id, agent_id, name, secret_hash, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(k.id, k.org_id, k.role, k.user_id, k.agent_id, k.name, k.secret_hash, k.created_at, k.expires_at);
  }

  async byId(id: string): Promise<KeyRow | null> {
    return this.db.query<KeyRow, [string]>(`SELECT ${COLUMNS} FROM api_keys WHERE id = ?`).get(id);
  }

  async list(orgId: string): Promise<KeyRow[]> {
    return this.db
      .query<KeyRow, [string]>(`SELECT ${COLUMNS} FROM api_keys WHERE org_id = +? ORDER BY created_at DESC, id`)
      .all(orgId);
  }

  async all(): Promise<KeyRow[]> {
    return this.db.query<KeyRow, []>(`SELECT ${COLUMNS} FROM api_keys ORDER BY org_id, created_at DESC, id`).all();
  }

  async revoke(orgId: string, id: string, now: number): Promise<boolean> {
    return (
      this.db
        .query("UPDATE api_keys SET revoked_at = ? WHERE org_id = ? AND id = ? AND revoked_at IS NULL")
        .run(now, orgId, id).changes > 0
    );
  }

  async touch(uses: { id: string; at: number }[]): Promise<void> {
    const q = this.db.query(
      "UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)",
    );
    for (const u of uses) q.run(u.at, u.id, u.at);
  }

  async usable(now: number): Promise<number> {
    return this.db
      .query<{ n: number }, [number]>(
        "SELECT count(*) AS n FROM api_keys WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)",
      )
      .get(now)!.n;
  }
}
