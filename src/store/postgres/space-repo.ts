// Shared spaces and their members in PostgreSQL (shared_spaces, shared_space_members), keyed by
// organization; row-level security keys both tables on the transaction's organization as well.
import type { Pg } from "./connection";
import { spaceOwnerRange } from "~/shared/principal";
import type { SpaceMemberRow, SpaceRepo, SpaceRole, SpaceRow } from "../repos/space-repo";

const COLUMNS = "org_id, id, name, created_at, created_by";

export class PgSpaceRepo implements SpaceRepo {
  constructor(private readonly pg: Pg) {}

  async insert(s: SpaceRow, members: readonly SpaceMemberRow[]): Promise<boolean> {
    const added = await this.pg.run(
      `INSERT INTO shared_spaces (${COLUMNS}) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (org_id, id) DO NOTHING`,
      [s.org_id, s.id, s.name, s.created_at, s.created_by],
    );
    if (!added) return false;
    await this.setMembers(s.org_id, s.id, members);
    return true;
  }

  async get(org: string, id: string): Promise<SpaceRow | null> {
    return this.pg.one<SpaceRow>(`SELECT ${COLUMNS} FROM shared_spaces WHERE org_id = $1 AND id = $2`, [org, id]);
  }

  async list(org: string, member?: string): Promise<SpaceRow[]> {
    if (member === undefined)
      return this.pg.all<SpaceRow>(`SELECT ${COLUMNS} FROM shared_spaces WHERE org_id = $1 ORDER BY id`, [org]);
    return this.pg.all<SpaceRow>(
      `SELECT ${COLUMNS} FROM shared_spaces s WHERE org_id = $1 AND EXISTS (
         SELECT 1 FROM shared_space_members m WHERE m.org_id = s.org_id AND m.space_id = s.id AND m.user_id = $2
       ) ORDER BY id`,
      [org, member],
    );
  }

  async members(org: string, id: string): Promise<SpaceMemberRow[]> {
    return this.pg.all<SpaceMemberRow>(
      "SELECT user_id, role FROM shared_space_members WHERE org_id = $1 AND space_id = $2 ORDER BY user_id",
      [org, id],
    );
  }

  async roleOf(org: string, id: string, userId: string): Promise<{ exists: boolean; role: SpaceRole | null }> {
    const row = await this.pg.one<{ role: SpaceRole | null }>(
      `SELECT m.role FROM shared_spaces s LEFT JOIN shared_space_members m
         ON m.org_id = s.org_id AND m.space_id = s.id AND m.user_id = $1
       WHERE s.org_id = $2 AND s.id = $3`,
      [userId, org, id],
    );
    return { exists: row !== null, role: row?.role ?? null };
  }

  async setMembers(org: string, id: string, members: readonly SpaceMemberRow[]): Promise<void> {
    await this.pg.run("DELETE FROM shared_space_members WHERE org_id = $1 AND space_id = $2", [org, id]);
    for (const m of members)
      await this.pg.run("INSERT INTO shared_space_members (org_id, space_id, user_id, role) VALUES ($1, $2, $3, $4)", [
        org,
        id,
        m.user_id,
        m.role,
      ]);
  }

  async delete(org: string, id: string): Promise<boolean> {
    await this.pg.run("DELETE FROM shared_space_members WHERE org_id = $1 AND space_id = $2", [org, id]);
    return (await this.pg.run("DELETE FROM shared_spaces WHERE org_id = $1 AND id = $2", [org, id])) > 0;
  }

  async renameWriter(org: string, userId: string, pseudonym: string): Promise<string[]> {
    const [from, to] = spaceOwnerRange;
    const writer = "(metadata::jsonb #>> '{provenance,user_id}') = $2";
    const rename = "metadata = jsonb_set(metadata::jsonb, '{provenance,user_id}', to_jsonb($1::text))::text";
    const owners = "org_id = $3 AND user_id >= $4 AND user_id < $5";
    await this.pg.run(`UPDATE memory_versions SET ${rename} WHERE ${owners} AND ${writer}`, [
      pseudonym,
      userId,
      org,
      from,
      to,
    ]);
    const changed = await this.pg.all<{ user_id: string }>(
      `UPDATE memories SET ${rename} WHERE ${owners} AND ${writer} RETURNING user_id`,
      [pseudonym, userId, org, from, to],
    );
    return [...new Set(changed.map((r) => r.user_id))];
  }
}
