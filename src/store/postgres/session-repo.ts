// Sessions in PostgreSQL (SPEC §5.8). Reads and writes a client asks for are scoped by organization and
// user_id; the sweeps (expire-idle, cleanup) take an optional organization/user/space scope.
import type { Pg } from "./connection";
import type { SessionRepo, SessionRow, SessionScope } from "../repos/session-repo";
import type { Owner } from "../repos/memory-repo";

const COLUMNS =
  "id, user_id, memory_space_id, device, metadata, state, created_at, last_activity_at, expires_at, ended_at, end_reason, archived_at, org_id";
const LIVE = "state IN ('active', 'idle')";
/** The scope's three parameters, from `at` on: null = every organization / user / space. */
const inScope = (at: number) =>
  `($${at}::text IS NULL OR user_id = $${at}) AND ($${at + 1}::text IS NULL OR memory_space_id = $${at + 1})` +
  ` AND ($${at + 2}::text IS NULL OR org_id = $${at + 2})`;
const scopeArgs = (s: SessionScope) => [s.userId, s.spaceId, s.org];
const NEWEST = "ORDER BY created_at DESC, id DESC";

export class PgSessionRepo implements SessionRepo {
  constructor(
    private readonly pg: Pg,
    private readonly writing: boolean,
  ) {}

  async insert(r: SessionRow): Promise<void> {
    await this.pg.run(
      `INSERT INTO sessions (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
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
        r.org_id,
      ],
    );
  }

  get(o: Owner, id: string): Promise<SessionRow | null> {
    return this.pg.one<SessionRow>(
      `SELECT ${COLUMNS} FROM sessions WHERE id = $2 AND org_id = $3 AND user_id = $1${this.writing ? " FOR UPDATE" : ""}`,
      [o.userId, id, o.org],
    );
  }

  liveOf(o: Owner, spaceId: string | null): Promise<SessionRow[]> {
    return this.pg.all<SessionRow>(
      `SELECT ${COLUMNS} FROM sessions WHERE org_id = $3 AND user_id = $1 AND ${LIVE}
         AND ($2::text IS NULL OR memory_space_id = $2) ${NEWEST}`,
      [o.userId, spaceId, o.org],
    );
  }

  live(scope: SessionScope): Promise<SessionRow[]> {
    return this.pg.all<SessionRow>(`SELECT ${COLUMNS} FROM sessions WHERE ${LIVE} AND ${inScope(1)} ${NEWEST}`, [
      ...scopeArgs(scope),
    ]);
  }

  terminal(o: Owner, spaceId: string | null, states: readonly string[], limit: number): Promise<SessionRow[]> {
    return this.pg.all<SessionRow>(
      `SELECT ${COLUMNS} FROM sessions WHERE org_id = $5 AND user_id = $1 AND ($2::text IS NULL OR memory_space_id = $2)
         AND state = ANY($3::text[]) ${NEWEST} LIMIT $4`,
      [o.userId, spaceId, [...states], limit, o.org],
    );
  }

  async countTerminal(o: Owner, spaceId: string | null, states: readonly string[]): Promise<number> {
    const r = await this.pg.one<{ n: number }>(
      `SELECT count(*) AS n FROM sessions WHERE org_id = $4 AND user_id = $1 AND ($2::text IS NULL OR memory_space_id = $2)
         AND state = ANY($3::text[])`,
      [o.userId, spaceId, [...states], o.org],
    );
    return r!.n;
  }

  async touch(o: Owner, id: string, now: number, expiresAt: number): Promise<void> {
    await this.pg.run(
      "UPDATE sessions SET state = 'active', last_activity_at = $1, expires_at = $2 WHERE id = $4 AND org_id = $5 AND user_id = $3",
      [now, expiresAt, o.userId, id, o.org],
    );
  }

  async setState(
    o: Owner,
    id: string,
    s: { state: string; ended_at: number | null; end_reason: string | null },
  ): Promise<void> {
    await this.pg.run(
      "UPDATE sessions SET state = $1, ended_at = $2, end_reason = $3 WHERE id = $5 AND org_id = $6 AND user_id = $4",
      [s.state, s.ended_at, s.end_reason, o.userId, id, o.org],
    );
  }

  terminalSpaces(scope: SessionScope): Promise<{ org: string; space: string }[]> {
    return this.pg.all(
      `SELECT DISTINCT org_id AS org, memory_space_id AS space FROM sessions
       WHERE state IN ('ended', 'archived') AND ${inScope(1)}`,
      scopeArgs(scope),
    );
  }

  archive(spaceId: string, endedBy: number, now: number, scope: SessionScope): Promise<number> {
    return this.pg.run(
      `UPDATE sessions SET state = 'archived', archived_at = $4 WHERE memory_space_id = $5 AND state = 'ended'
         AND ended_at <= $6 AND ${inScope(1)}`,
      [...scopeArgs(scope), now, spaceId, endedBy],
    );
  }

  deleteEnded(spaceId: string, endedBy: number, scope: SessionScope): Promise<number> {
    return this.pg.run(
      `DELETE FROM sessions WHERE memory_space_id = $4 AND state IN ('ended', 'archived') AND ended_at <= $5
         AND ${inScope(1)}`,
      [...scopeArgs(scope), spaceId, endedBy],
    );
  }

  deleteUser(o: Owner): Promise<number> {
    return this.pg.run("DELETE FROM sessions WHERE org_id = $1 AND user_id = $2", [o.org, o.userId]);
  }

  async sweepRuns(kind: string, scope: string): Promise<{ runs: number; result: string | null }> {
    const r = await this.pg.one<{ runs: number; result: string }>(
      "SELECT runs, result FROM session_sweeps WHERE kind = $1 AND scope = $2",
      [kind, scope],
    );
    return { runs: r?.runs ?? 0, result: r?.result ?? null };
  }

  async logSweep(kind: string, scope: string, at: number, result: string): Promise<void> {
    await this.pg.run(
      `INSERT INTO session_sweeps (kind, scope, runs, swept_at, result) VALUES ($1, $2, 1, $3, $4)
       ON CONFLICT (kind, scope) DO UPDATE SET runs = session_sweeps.runs + 1, swept_at = excluded.swept_at,
         result = excluded.result`,
      [kind, scope, at, result],
    );
  }
}
