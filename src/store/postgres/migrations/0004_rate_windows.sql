-- Rate-limit counters (SPEC §8), as in the SQLite store's rate_windows: hits per bucket per fixed
-- window, shared by every node on this database. No row-level policy: a limit is checked before (or
-- without) an organization being known — failed authentications are counted per client address.
CREATE TABLE rate_windows (
  bucket text COLLATE "C" NOT NULL,
  window_start bigint NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
CREATE INDEX rate_windows_by_start ON rate_windows (window_start);
