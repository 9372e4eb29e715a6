// Sessions (SPEC §5.8). Reads and writes a client asks for are scoped by organization and user_id; the
// sweeps (expire-idle, cleanup) take an optional organization/user/space scope.
import type { Owner } from "./memory-repo";

export interface SessionRow {
  id: string;
  org_id: string;
  user_id: string;
  memory_space_id: string;
  device: string | null;
  metadata: string;
  state: string;
  created_at: number;
  last_activity_at: number;
  expires_at: number;
  ended_at: number | null;
  end_reason: string | null;
  archived_at: number | null;
}

/** Optional narrowing of a sweep or list; null = every user / every space. */
export interface SessionScope {
  /** null: every organization (the scheduled sweep); a caller's sweep names its own. */
  org: string | null;
  /** A user of `org` (set only with it). */
  userId: string | null;
  spaceId: string | null;
}

export interface SessionRepo {
  insert(r: SessionRow): Promise<void>;
  get(owner: Owner, id: string): Promise<SessionRow | null>;
  /** A user's rows stored as active or idle (their effective state may since have moved on), newest first. */
  liveOf(owner: Owner, spaceId: string | null): Promise<SessionRow[]>;
  /** Rows stored as active or idle within a sweep's scope, newest first. */
  live(scope: SessionScope): Promise<SessionRow[]>;
  /** Newest stored rows of a user in the given terminal states (ended, archived). */
  terminal(owner: Owner, spaceId: string | null, states: readonly string[], limit: number): Promise<SessionRow[]>;
  countTerminal(owner: Owner, spaceId: string | null, states: readonly string[]): Promise<number>;
  touch(owner: Owner, id: string, now: number, expiresAt: number): Promise<void>;
  setState(
    owner: Owner,
    id: string,
    s: { state: string; ended_at: number | null; end_reason: string | null },
  ): Promise<void>;
  /** Memory spaces that hold ended or archived sessions in scope. */
  terminalSpaces(scope: SessionScope): Promise<{ org: string; space: string }[]>;
  /** Ended sessions of one space that ended at or before `endedBy` become archived; returns how many. */
  archive(spaceId: string, endedBy: number, now: number, scope: SessionScope): Promise<number>;
  /** Ended or archived sessions of one space that ended at or before `endedBy` are deleted; returns how many. */
  deleteEnded(spaceId: string, endedBy: number, scope: SessionScope): Promise<number>;
  deleteUser(owner: Owner): Promise<number>;
  /** How many sweeps of this kind and scope key ran, and the last one's result (JSON); none yet: 0 and null. */
  sweepRuns(kind: string, scope: string): Promise<{ runs: number; result: string | null }>;
  /** Records a sweep of this kind and scope key: one run more, this result. */
  logSweep(kind: string, scope: string, at: number, result: string): Promise<void>;
}
