-- Keyword search scoped by user inside FTS5: each indexed memory carries its owner as a token
-- ("o" + a per-user number — digits only, so the porter stemmer cannot merge two owners), and
-- queries match `owner:oN AND (terms)`. BM25 then scores only the user's rows instead of every
-- user's matches. The index becomes contentless (the text lives in `memories`).
CREATE TABLE fts_owners (
  id INTEGER PRIMARY KEY,
  user_id TEXT NOT NULL UNIQUE
);
INSERT INTO fts_owners (user_id) SELECT DISTINCT user_id FROM memories ORDER BY user_id;

DROP TRIGGER memories_fts_ai;
DROP TRIGGER memories_fts_ad;
DROP TRIGGER memories_fts_au;
DROP TABLE memories_fts;

CREATE VIRTUAL TABLE memories_fts USING fts5 (
  memory,
  owner,
  content = '',
  contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO memories_fts (rowid, memory, owner)
  SELECT m.rowid, m.memory, 'o' || o.id FROM memories m JOIN fts_owners o ON o.user_id = m.user_id;

CREATE TRIGGER memories_fts_ai AFTER INSERT ON memories BEGIN
  INSERT OR IGNORE INTO fts_owners (user_id) VALUES (new.user_id);
  INSERT INTO memories_fts (rowid, memory, owner)
    VALUES (new.rowid, new.memory, 'o' || (SELECT id FROM fts_owners WHERE user_id = new.user_id));
END;
CREATE TRIGGER memories_fts_ad AFTER DELETE ON memories BEGIN
  DELETE FROM memories_fts WHERE rowid = old.rowid;
END;
CREATE TRIGGER memories_fts_au AFTER UPDATE OF memory ON memories BEGIN
  DELETE FROM memories_fts WHERE rowid = old.rowid;
  INSERT INTO memories_fts (rowid, memory, owner)
    VALUES (new.rowid, new.memory, 'o' || (SELECT id FROM fts_owners WHERE user_id = new.user_id));
END;
