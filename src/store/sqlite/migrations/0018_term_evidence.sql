-- Keyword relevance (search/relevance.ts) weighs each query term by its idf over the user's own memories:
-- memory_counts holds each user's number of memories, kept by triggers so that every path that inserts
-- or deletes a memory keeps it right (a row goes with the user's last memory); a search reads one row.
-- The fts5vocab tables list the index's terms, for typo corrections from the user's own vocabulary.
CREATE TABLE memory_counts (
  user_id TEXT PRIMARY KEY,
  n INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO memory_counts (user_id, n) SELECT user_id, count(*) FROM memories GROUP BY user_id;
CREATE TRIGGER memory_counts_ai AFTER INSERT ON memories BEGIN
  INSERT INTO memory_counts (user_id, n) VALUES (new.user_id, 1) ON CONFLICT (user_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER memory_counts_ad AFTER DELETE ON memories BEGIN
  UPDATE memory_counts SET n = n - 1 WHERE user_id = old.user_id;
  DELETE FROM memory_counts WHERE user_id = old.user_id AND n <= 0;
END;
CREATE VIRTUAL TABLE memories_fts_terms USING fts5vocab (memories_fts, 'row');
CREATE VIRTUAL TABLE memories_fts_instances USING fts5vocab (memories_fts, 'instance');
