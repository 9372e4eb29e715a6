// Identity keys in PostgreSQL (api_keys). Authentication reads one row by primary key per request, so a
// revocation written by any node is seen by every node at its next request.
import type { Pg } from "./connection";
import type { KeyRepo, KeyRow, NewKey } from "../repos/key-repo";

const COLUMNS =
  "id, org_id, role, user_id, agent_id, name, secret_hash, created_at, expires_at, last_used_at, revoked_at";

/** bytea comes back as a Buffer; the repository contract says Uint8Array (a Buffer is one). */
const row = (r: KeyRow | null): KeyRow | null => r && { ...r, secret_hash: new Uint8Array(r.secret_hash) };

export class PgKeyRepo implements KeyRepo {
  constructor(private readonly pg: Pg) {}

  async insert(k: NewKey): Promise<void> {
    await this.pg.run(
      `INSERT INTO api_keys (id, org_id, role, user_id, agent_id, name, secret_hash, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [k.id, k.org_id, k.role, k.user_id, k.agent_id, k.name, Buffer.from(k.secret_hash), k.created_at, k.expires_at],
    );
  }

  async byId(id: string): Promise<KeyRow | null> {
    return row(await this.pg.one<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1`, [id]));
  }

  async list(orgId: string): Promise<KeyRow[]> {
    const rows = await this.pg.all<KeyRow>(
      `SELECT ${COLUMNS} FROM api_keys WHERE org_id = $1 ORDER BY created_at DESC, id`,
      [orgId],
    );
    return rows.map((r) => row(r)!);
  }

  async all(): Promise<KeyRow[]> {
    const rows = await this.pg.all<KeyRow>(`SELECT ${COLUMNS} FROM api_keys ORDER BY org_id, created_at DESC, id`);
    return rows.map((r) => row(r)!);
  }

  async revoke(orgId: string, id: string, now: number): Promise<boolean> {
    const n = await this.pg.run(
      "UPDATE api_keys SET revoked_at = $1 WHERE org_id = $2 AND id = $3 AND revoked_at IS NULL",
      [now, orgId, id],
    );
    return n > 0;
  }

  async touch(uses: { id: string; at: number }[]): Promise<void> {
    for (const u of uses)
      await this.pg.run(
        "UPDATE api_keys SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < $1)",
        [u.at, u.id],
      );
  }

  async usable(now: number): Promise<number> {
    const r = await this.pg.one<{ n: number }>(
      "SELECT count(*) AS n FROM api_keys WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $1)",
      [now],
    );
    return r!.n;
  }
}
