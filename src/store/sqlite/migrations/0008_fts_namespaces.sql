-- Per-user token namespaces in FTS5 (store/sqlite/fts-tokens.ts): instead of an owner column ANDed
-- with the terms — which still reads every user's postings of each term — each word is indexed
-- with its owner's prefix, so a search reads only the user's postings. Rows are indexed from
-- code (store/sqlite/fts-repo.ts); this migration's code step re-indexes existing memories.
DROP TRIGGER memories_fts_ai;
DROP TRIGGER memories_fts_au;
DROP TRIGGER memories_fts_ad;
DROP TABLE memories_fts;
CREATE VIRTUAL TABLE memories_fts USING fts5 (
  memory,
  content = '',
  contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER memories_fts_ad AFTER DELETE ON memories BEGIN
  DELETE FROM memories_fts WHERE rowid = old.rowid;
END;
