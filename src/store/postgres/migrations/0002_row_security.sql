-- Row-level security, the second wall behind the user_id/organization_id in every query: each
-- transaction names its user and organization (set_config('engram.user' / 'engram.org'), see
-- postgres-store.ts; '*' = every one, for organization-wide and scheduled work) and a row outside them
-- is neither seen nor written. FORCE applies it to the tables' owner too; the app's role owns nothing.
-- An unset scope sees nothing.
CREATE FUNCTION engram_sees_user(owner text) RETURNS boolean LANGUAGE sql STABLE
  AS $$ SELECT current_setting('engram.user', true) IN ('*', owner) $$;
CREATE FUNCTION engram_sees_org(org text) RETURNS boolean LANGUAGE sql STABLE
  AS $$ SELECT current_setting('engram.org', true) IN ('*', org) $$;

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['memories', 'memory_versions', 'memory_vectors', 'memory_change_versions', 'conversations',
    'conversation_messages', 'sessions', 'graph_entities', 'graph_relationships', 'graph_mentions', 'deletion_requests']
  LOOP
    EXECUTE format('CREATE POLICY by_user ON %I USING (engram_sees_user(user_id))', t);
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY', t);
  END LOOP;
  FOREACH t IN ARRAY ARRAY['immutable_records', 'immutable_versions', 'mutable_entries', 'memory_spaces', 'audit_log']
  LOOP
    EXECUTE format('CREATE POLICY by_org ON %I USING (engram_sees_org(organization_id))', t);
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY', t);
  END LOOP;
END $$;
-- A search cache asks for a user's change version on every hit, in one statement outside a
-- transaction (no scope set): counters may be read by anyone, written only in the user's scope.
CREATE POLICY read_counters ON memory_change_versions FOR SELECT USING (true);

-- Every change to a user's memories bumps the user's change version and tells the other nodes
-- (LISTEN/NOTIFY on the store's channel, named by the schema): "<node> m <user>"; a policy change
-- says "<node> p". <node> is the writer's application_name (postgres-store.ts), so a node can skip its own.
CREATE FUNCTION engram_channel() RETURNS text LANGUAGE sql STABLE AS $$ SELECT 'engram_' || current_schema() $$;
CREATE FUNCTION engram_notify(what text) RETURNS void LANGUAGE sql AS
  $$ SELECT pg_notify(engram_channel(), current_setting('application_name') || ' ' || what) $$;

CREATE FUNCTION engram_memories_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO memory_change_versions (user_id, version)
    SELECT DISTINCT user_id, 1 FROM changed
    ON CONFLICT (user_id) DO UPDATE SET version = memory_change_versions.version + 1;
  PERFORM engram_notify('m ' || u) FROM (SELECT DISTINCT user_id AS u FROM changed) c;
  RETURN NULL;
END $$;
CREATE TRIGGER memories_inserted AFTER INSERT ON memories REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION engram_memories_changed();
CREATE TRIGGER memories_updated AFTER UPDATE ON memories REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION engram_memories_changed();
CREATE TRIGGER memories_deleted AFTER DELETE ON memories REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION engram_memories_changed();

CREATE FUNCTION engram_policies_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM engram_notify('p');
  RETURN NULL;
END $$;
CREATE TRIGGER policies_changed AFTER INSERT OR UPDATE OR DELETE ON governance_policies
  FOR EACH STATEMENT EXECUTE FUNCTION engram_policies_changed();

-- A memory's graph mentions go with it (SQLite: the graph_mentions_memory_ad trigger).
CREATE FUNCTION engram_memory_mentions_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM graph_mentions g USING changed c WHERE g.user_id = c.user_id AND g.memory_id = c.id;
  RETURN NULL;
END $$;
CREATE TRIGGER memories_mentions_deleted AFTER DELETE ON memories REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION engram_memory_mentions_gone();
