-- Rate-limit counters (SPEC §8): hits per bucket (key id, token subject or client address) per fixed
-- window, shared by every process on this store. Old windows are pruned by the limiter.
CREATE TABLE rate_windows (
  bucket TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  hits INTEGER NOT NULL,
  PRIMARY KEY (bucket, window_start)
) STRICT, WITHOUT ROWID;
CREATE INDEX rate_windows_by_start ON rate_windows (window_start);
