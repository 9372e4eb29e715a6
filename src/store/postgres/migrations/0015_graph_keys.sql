-- The graph is a user's of one organization (SPEC §8; SQLite migration 24): an entity's identity is
-- (org_id, user_id, type, id), mentions are keyed the same way, and the per-user indexes lead with
-- org_id. Writes set org_id from now on (rows stored before belong to the home organization, the
-- default migration 8 gave them).
ALTER TABLE graph_entities DROP CONSTRAINT graph_entities_user_id_type_id_key;
ALTER TABLE graph_entities ADD CONSTRAINT graph_entities_owner_key UNIQUE (org_id, user_id, type, id);
ALTER TABLE graph_mentions DROP CONSTRAINT graph_mentions_pkey;
ALTER TABLE graph_mentions ADD PRIMARY KEY (org_id, user_id, memory_id, node);
DROP INDEX graph_mentions_by_node;
CREATE INDEX graph_mentions_by_node ON graph_mentions (node, org_id, user_id, memory_id);
DROP INDEX graph_relationships_by_user;
CREATE INDEX graph_relationships_by_user ON graph_relationships (org_id, user_id);
CREATE OR REPLACE FUNCTION engram_memory_mentions_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM graph_mentions g USING changed c
    WHERE g.org_id = c.org_id AND g.user_id = c.user_id AND g.memory_id = c.id;
  RETURN NULL;
END $$;
