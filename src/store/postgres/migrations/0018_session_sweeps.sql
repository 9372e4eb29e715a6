-- The last run of each session sweep (expire-idle, cleanup) per scope, and how many there were (SQLite
-- migration 27): a sweep that waited for another node's run of the same kind and scope answers with that
-- run's result instead of sweeping again. No row policy: a sweep's scope may be every organization, and
-- the row holds counts, not anyone's data.
CREATE TABLE session_sweeps (
  kind text COLLATE "C" NOT NULL,
  scope text COLLATE "C" NOT NULL,
  runs integer NOT NULL,
  swept_at bigint NOT NULL,
  result text COLLATE "C" NOT NULL,
  PRIMARY KEY (kind, scope)
);
