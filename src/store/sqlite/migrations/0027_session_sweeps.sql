-- The last run of each session sweep (expire-idle, cleanup) per scope, and how many there were: a sweep
-- that waited for another run of the same kind and scope (Store.exclusive) answers with that run's result
-- instead of sweeping again (sessions.service.ts). One row per kind and scope, so it never grows with runs.
CREATE TABLE session_sweeps (
  kind TEXT NOT NULL,
  scope TEXT NOT NULL,
  runs INTEGER NOT NULL,
  swept_at INTEGER NOT NULL,
  result TEXT NOT NULL,
  PRIMARY KEY (kind, scope)
) WITHOUT ROWID;
