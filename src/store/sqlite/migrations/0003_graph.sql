-- The embedded graph (SPEC §6): per-user entities, directed named relationships between
-- them and memory → entity MENTIONS links. Entities get an integer surrogate key (`node`) so
-- traversal joins compare integers; (user_id, type, id) stays the public identity.
CREATE TABLE graph_entities (
  node INTEGER PRIMARY KEY,
  user_id TEXT NOT NULL,
  type TEXT NOT NULL,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  -- lower-cased name computed in JS (String#toLowerCase, like Cypher toLower) so name
  -- search behaves the same on SQLite and Neo4j, non-ASCII letters included
  name_key TEXT NOT NULL,
  properties TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (user_id, type, id)
);

-- Both endpoints belong to the same user (resolved by (user_id, type, id) on insert).
-- The primary key serves outgoing walks, graph_relationships_in incoming ones; both
-- start with the node so the foreign-key cascades from graph_entities stay index lookups.
CREATE TABLE graph_relationships (
  from_node INTEGER NOT NULL REFERENCES graph_entities (node) ON DELETE CASCADE,
  type TEXT NOT NULL,
  to_node INTEGER NOT NULL REFERENCES graph_entities (node) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  properties TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (from_node, type, to_node)
) WITHOUT ROWID;
CREATE INDEX graph_relationships_in ON graph_relationships (to_node, type, from_node, user_id);
CREATE INDEX graph_relationships_by_user ON graph_relationships (user_id);

-- memory_id is not a foreign key: links may be written for memories of any layer, and the
-- contract suite runs without a memories table row. The trigger below keeps the links of
-- the vector layer's memories in step with deletions made anywhere (services, cleanup).
CREATE TABLE graph_mentions (
  user_id TEXT NOT NULL,
  memory_id TEXT NOT NULL,
  node INTEGER NOT NULL REFERENCES graph_entities (node) ON DELETE CASCADE,
  PRIMARY KEY (user_id, memory_id, node)
) WITHOUT ROWID;
CREATE INDEX graph_mentions_by_node ON graph_mentions (node, user_id, memory_id);

CREATE TRIGGER graph_mentions_memory_ad AFTER DELETE ON memories BEGIN
  DELETE FROM graph_mentions WHERE user_id = old.user_id AND memory_id = old.id;
END;
