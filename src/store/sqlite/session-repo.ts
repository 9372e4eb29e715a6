// Sessions in SQLite (SPEC §5.8). Reads and writes a client asks for are scoped by organization and
// user_id; the sweeps (expire-idle, cleanup) take an optional organization/user/space scope.
import type { Db } from "./connection";
import type { SessionRepo, SessionRow, SessionScope } from "../repos/session-repo";
import type { Owner } from "../repos/memory-repo";

const LIVE = "state IN ('active', 'idle')";
const IN_SCOPE = "(? IS NULL OR org_id = +?) AND (? IS NULL OR user_id = +?) AND (? IS NULL OR memory_space_id = +?)";
const scopeArgs = (s: SessionScope) => [s.org, s.org, s.userId, s.userId, s.spaceId, s.spaceId] as const;

export class SqliteSessionRepo implements SessionRepo {
  constructor(private readonly db: Db) {}

  async insert(r: SessionRow): Promise<void> {
    this.db
      .query(
        `INSERT INTO sessions (id, org_id, user_id, memory_space_id, device, metadata, state, created_at, last_activity_at, expires_at, ended_at, end_reason, archived_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        r.id,
        r.org_id,
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
      );
  }

  async get(o: Owner, id: string): Promise<SessionRow | null> {
    return this.db
      .query<SessionRow, [string, string, string]>("SELECT * FROM sessions WHERE id = ? AND org_id = ? AND user_id = ?")
      .get(id, o.org, o.userId);
  }

  /** A user's rows stored as active or idle (their effective state may since have moved on). */
  async liveOf(o: Owner, spaceId: string | null): Promise<SessionRow[]> {
    return this.db
      .query<SessionRow, (string | null)[]>(
        `SELECT * FROM sessions WHERE org_id = +? AND user_id = +? AND ${LIVE} AND (? IS NULL OR memory_space_id = +?) ORDER BY created_at DESC, id DESC`,
      )
      .all(o.org, o.userId, spaceId, spaceId);
  }

  /** Rows stored as active or idle within a sweep's scope. */
  async live(scope: SessionScope): Promise<SessionRow[]> {
    return this.db
      .query<SessionRow, (string | null)[]>(
        `SELECT * FROM sessions WHERE ${LIVE} AND ${IN_SCOPE} ORDER BY created_at DESC, id DESC`,
      )
      .all(...scopeArgs(scope));
  }

  /** Newest stored ended/archived rows of a user in the given states. */
  async terminal(o: Owner, spaceId: string | null, states: readonly string[], limit: number): Promise<SessionRow[]> {
    const [a = "", b = a] = states;
    return this.db
      .query<SessionRow, (string | number | null)[]>(
        `SELECT * FROM sessions WHERE org_id = +? AND user_id = +? AND (? IS NULL OR memory_space_id = +?) AND state IN (+?, +?)
         ORDER BY created_at DESC, id DESC LIMIT +?`,
      )
      .all(o.org, o.userId, spaceId, spaceId, a, b, limit);
  }

  async countTerminal(o: Owner, spaceId: string | null, states: readonly string[]): Promise<number> {
    const [a = "", b = a] = states;
    return this.db
      .query<{ n: number }, (string | null)[]>(
        "SELECT count(*) AS n FROM sessions WHERE org_id = ? AND user_id = ? AND (? IS NULL OR memory_space_id = ?) AND state IN (?, ?)",
      )
      .get(o.org, o.userId, spaceId, spaceId, a, b)!.n;
  }

  async touch(o: Owner, id: string, now: number, expiresAt: number): Promise<void> {
    this.db
      .query(
        "UPDATE sessions SET state = 'active', last_activity_at = ?, expires_at = ? WHERE id = ? AND org_id = ? AND user_id = ?",
      )
      .run(now, expiresAt, id, o.org, o.userId);
  }

  async setState(
    o: Owner,
    id: string,
    s: { state: string; ended_at: number | null; end_reason: string | null },
  ): Promise<void> {
    this.db
      .query("UPDATE sessions SET state = ?, ended_at = ?, end_reason = ? WHERE id = ? AND org_id = ? AND user_id = ?")
      .run(s.state, s.ended_at, s.end_reason, id, o.org, o.userId);
  }

  /** Memory spaces that hold ended or archived sessions in scope (each has its own cleanup rules). */
  async terminalSpaces(scope: SessionScope): Promise<{ org: string; space: string }[]> {
    return this.db
      .query<{ org: string; space: string }, (string | null)[]>(
        `SELECT DISTINCT org_id AS org, memory_space_id AS space FROM sessions
         WHERE state IN ('ended', 'archived') AND ${IN_SCOPE}`,
      )
      .all(...scopeArgs(scope));
  }

  /** Ended sessions of one space that ended at or before `endedBy` become archived. */
  async archive(spaceId: string, endedBy: number, now: number, scope: SessionScope): Promise<number> {
    return this.db
      .query(
        `UPDATE sessions SET state = 'archived', archived_at = ? WHERE memory_space_id = ? AND state = 'ended' AND ended_at <= ? AND ${IN_SCOPE}`,
      )
      .run(now, spaceId, endedBy, ...scopeArgs(scope)).changes;
  }

  /** Ended or archived sessions of one space that ended at or before `endedBy` are deleted. */
  async deleteEnded(spaceId: string, endedBy: number, scope: SessionScope): Promise<number> {
    return this.db
      .query(
        `DELETE FROM sessions WHERE memory_space_id = ? AND state IN ('ended', 'archived') AND ended_at <= ? AND ${IN_SCOPE}`,
      )
      .run(spaceId, endedBy, ...scopeArgs(scope)).changes;
  }

  async deleteUser(o: Owner): Promise<number> {
    return this.db.query("DELETE FROM sessions WHERE org_id = ? AND user_id = ?").run(o.org, o.userId).changes;
  }

  async sweepRuns(kind: string, scope: string): Promise<{ runs: number; result: string | null }> {
    const r = this.db
      .query<{ runs: number; result: string }, [string, string]>(
        "SELECT runs, result FROM session_sweeps WHERE kind = ? AND scope = ?",
      )
      .get(kind, scope);
    return { runs: r?.runs ?? 0, result: r?.result ?? null };
  }

  async logSweep(kind: string, scope: string, at: number, result: string): Promise<void> {
    this.db
      .query(
        `INSERT INTO session_sweeps (kind, scope, runs, swept_at, result) VALUES (?, ?, 1, ?, ?)
         ON CONFLICT (kind, scope) DO UPDATE SET runs = runs + 1, swept_at = excluded.swept_at, result = excluded.result`,
      )
      .run(kind, scope, at, result);
  }
}
