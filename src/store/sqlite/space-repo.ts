// Shared spaces and their members in SQLite (shared_spaces, shared_space_members), keyed by organization.
import type { Db } from "./connection";
import { spaceOwnerRange } from "~/shared/principal";
import type { SpaceMemberRow, SpaceRepo, SpaceRole, SpaceRow } from "../repos/space-repo";

const COLUMNS = "org_id, id, name, created_at, created_by";

export class SqliteSpaceRepo implements SpaceRepo {
  constructor(private readonly db: Db) {}

  async insert(s: SpaceRow, members: readonly SpaceMemberRow[]): Promise<boolean> {
    const added = this.db
      .query(`INSERT INTO shared_spaces (${COLUMNS}) VALUES (?, ?, ?, ?, ?) ON CONFLICT (org_id, id) DO NOTHING`)
      .run(s.org_id, s.id, s.name, s.created_at, s.created_by).changes;
    if (!added) return false;
    await this.setMembers(s.org_id, s.id, members);
    return true;
  }

  async get(org: string, id: string): Promise<SpaceRow | null> {
    return this.db
      .query<SpaceRow, [string, string]>(`SELECT ${COLUMNS} FROM shared_spaces WHERE org_id = ? AND id = ?`)
      .get(org, id);
  }

  async list(org: string, member?: string): Promise<SpaceRow[]> {
    if (member === undefined)
      return this.db
        .query<SpaceRow, [string]>(`SELECT ${COLUMNS} FROM shared_spaces WHERE org_id = +? ORDER BY id`)
        .all(org);
    return this.db
      .query<SpaceRow, [string, string]>(
        `SELECT ${COLUMNS} FROM shared_spaces s WHERE org_id = +? AND EXISTS (
           SELECT 1 FROM shared_space_members m WHERE m.org_id = s.org_id AND m.space_id = s.id AND m.user_id = +?
         ) ORDER BY id`,
      )
      .all(org, member);
  }

  async members(org: string, id: string): Promise<SpaceMemberRow[]> {
    return this.db
      .query<SpaceMemberRow, [string, string]>(
        "SELECT user_id, role FROM shared_space_members WHERE org_id = +? AND space_id = +? ORDER BY user_id",
      )
      .all(org, id);
  }

  async roleOf(org: string, id: string, userId: string): Promise<{ exists: boolean; role: SpaceRole | null }> {
    const row = this.db
      .query<{ role: SpaceRole | null }, [string, string, string]>(
        `SELECT m.role FROM shared_spaces s LEFT JOIN shared_space_members m
           ON m.org_id = s.org_id AND m.space_id = s.id AND m.user_id = ?
         WHERE s.org_id = ? AND s.id = ?`,
      )
      .get(userId, org, id);
    return { exists: row !== null, role: row?.role ?? null };
  }

  async setMembers(org: string, id: string, members: readonly SpaceMemberRow[]): Promise<void> {
    this.db.query("DELETE FROM shared_space_members WHERE org_id = ? AND space_id = ?").run(org, id);
    const add = this.db.query("INSERT INTO shared_space_members (org_id, space_id, user_id, role) VALUES (?, ?, ?, ?)");
    for (const m of members) add.run(org, id, m.user_id, m.role);
  }

  async delete(org: string, id: string): Promise<boolean> {
    this.db.query("DELETE FROM shared_space_members WHERE org_id = ? AND space_id = ?").run(org, id);
    return this.db.query("DELETE FROM shared_spaces WHERE org_id = ? AND id = ?").run(org, id).changes > 0;
  }

  async renameWriter(org: string, userId: string, pseudonym: string): Promise<string[]> {
    const [from, to] = spaceOwnerRange;
    const writer = "json_extract(metadata, '$.provenance.user_id') = ?";
    const rename = "metadata = json_set(metadata, '$.provenance.user_id', ?)";
    this.db
      .query(
        `UPDATE memory_versions SET ${rename} WHERE ${writer} AND memory_id IN (
           SELECT id FROM memories WHERE org_id = ? AND user_id >= ? AND user_id < ?)`,
      )
      .run(pseudonym, userId, org, from, to);
    const changed = this.db
      .query<{ user_id: string }, [string, string, string, string, string]>(
        `UPDATE memories SET ${rename} WHERE org_id = ? AND user_id >= ? AND user_id < ? AND ${writer}
         RETURNING user_id`,
      )
      .all(pseudonym, org, from, to, userId);
    return [...new Set(changed.map((r) => r.user_id))];
  }
}
