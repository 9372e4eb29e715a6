-- Each immutable version belongs to whoever wrote it (issue 15: an erasure missed a user's earlier
-- versions once someone else wrote a later one, and showed them as the later writer's). Versions
-- written before this migration take the record's user_id, the only author known for them.
ALTER TABLE immutable_versions ADD COLUMN user_id TEXT;
UPDATE immutable_versions SET user_id = (
  SELECT r.user_id FROM immutable_records r WHERE r.type = immutable_versions.type AND r.id = immutable_versions.id
);
CREATE INDEX immutable_versions_by_user ON immutable_versions (user_id) WHERE user_id IS NOT NULL;
