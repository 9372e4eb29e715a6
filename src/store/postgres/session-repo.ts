// Sessions in PostgreSQL (SPEC §5.8). Reads and writes a client asks for are scoped by user_id; the
// sweeps (expire-idle, cleanup) take an optional user/space scope.
import type { Pg } from "./connection";
import type { SessionRepo, SessionRow, SessionScope } from "../repos/session-repo";

const COLUMNS =
  "id, user_id, memory_space_id, device, metadata, state, created_at, last_activity_at, expires_at, ended_at, end_reason, archived_at";
const LIVE = "state IN ('active', 'idle')";
/** The scope's two parameters, from `at` on: null = every user / every space. */
const inScope = (at: number) =>
  `($${at}::text IS NULL OR user_id = $${at}) AND ($${at + 1}::text IS NULL OR memory_space_id = $${at + 1})`;
const scopeArgs = (s: SessionScope) => [s.userId, s.spaceId];
const NEWEST = "ORDER BY created_at DESC, id DESC";

export class PgSessionRepo implements SessionRepo {
  constructor(
    private readonly pg: Pg,
    private readonly writing: boolean,
  ) {}

  async insert(r: SessionRow): Promise<void> {
    await this.pg.run(`INSERT INTO sessions (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`, [
      r.id,
      r.user_id,
      r.memory_space_id,
      r.device,
      r.metadata,
      r.state,
      r.created_at,
      r.last_activity_at,
      r.expires_at,
      r.ended_at,
      r.end_reason,
      r.archived_at,
    ]);
  }

  get(userId: string, id: string): Promise<SessionRow | null> {
    return this.pg.one<SessionRow>(
      `SELECT ${COLUMNS} FROM sessions WHERE user_id = $1 AND id = $2${this.writing ? " FOR UPDATE" : ""}`,
      [userId, id],
    );
  }

  liveOf(userId: string, spaceId: string | null): Promise<SessionRow[]> {
    return this.pg.all<SessionRow>(
      `SELECT ${COLUMNS} FROM sessions WHERE user_id = $1 AND ${LIVE} AND ($2::text IS NULL OR memory_space_id = $2) ${NEWEST}`,
      [userId, spaceId],
    );
  }

  live(scope: SessionScope): Promise<SessionRow[]> {
    return this.pg.all<SessionRow>(`SELECT ${COLUMNS} FROM sessions WHERE ${LIVE} AND ${inScope(1)} ${NEWEST}`, [
      ...scopeArgs(scope),
    ]);
  }

  terminal(userId: string, spaceId: string | null, states: readonly string[], limit: number): Promise<SessionRow[]> {
    return this.pg.all<SessionRow>(
      `SELECT ${COLUMNS} FROM sessions WHERE user_id = $1 AND ($2::text IS NULL OR memory_space_id = $2)
         AND state = ANY($3::text[]) ${NEWEST} LIMIT $4`,
      [userId, spaceId, [...states], limit],
    );
  }

  async countTerminal(userId: string, spaceId: string | null, states: readonly string[]): Promise<number> {
    const r = await this.pg.one<{ n: number }>(
      `SELECT count(*) AS n FROM sessions WHERE user_id = $1 AND ($2::text IS NULL OR memory_space_id = $2)
         AND state = ANY($3::text[])`,
      [userId, spaceId, [...states]],
    );
    return r!.n;
  }

  async touch(userId: string, id: string, now: number, expiresAt: number): Promise<void> {
    await this.pg.run(
      "UPDATE sessions SET state = 'active', last_activity_at = $1, expires_at = $2 WHERE user_id = $3 AND id = $4",
      [now, expiresAt, userId, id],
    );
  }

  async setState(
    userId: string,
    id: string,
    s: { state: string; ended_at: number | null; end_reason: string | null },
  ): Promise<void> {
    await this.pg.run("UPDATE sessions SET state = $1, ended_at = $2, end_reason = $3 WHERE user_id = $4 AND id = $5", [
      s.state,
      s.ended_at,
      s.end_reason,
      userId,
      id,
    ]);
  }

  async terminalSpaces(scope: SessionScope): Promise<string[]> {
    const rows = await this.pg.all<{ s: string }>(
      `SELECT DISTINCT memory_space_id AS s FROM sessions WHERE state IN ('ended', 'archived') AND ${inScope(1)}`,
      scopeArgs(scope),
    );
    return rows.map((r) => r.s);
  }

  archive(spaceId: string, endedBy: number, now: number, scope: SessionScope): Promise<number> {
    return this.pg.run(
      `UPDATE sessions SET state = 'archived', archived_at = $3 WHERE memory_space_id = $4 AND state = 'ended'
         AND ended_at <= $5 AND ${inScope(1)}`,
      [...scopeArgs(scope), now, spaceId, endedBy],
    );
  }

  deleteEnded(spaceId: string, endedBy: number, scope: SessionScope): Promise<number> {
    return this.pg.run(
      `DELETE FROM sessions WHERE memory_space_id = $3 AND state IN ('ended', 'archived') AND ended_at <= $4
         AND ${inScope(1)}`,
      [...scopeArgs(scope), spaceId, endedBy],
    );
  }

  deleteUser(userId: string): Promise<number> {
    return this.pg.run("DELETE FROM sessions WHERE user_id = $1", [userId]);
  }
}
