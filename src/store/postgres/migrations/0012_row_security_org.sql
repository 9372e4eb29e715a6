-- Row-level security keyed on organization and user together: a transaction scoped to a user of one
-- organization must not see a user of the same id in another (SPEC §8, §9). The by_user policies of
-- migration 2 stay; this one is RESTRICTIVE, so a row must pass both. Tables whose org_id a write does not
-- set yet (memory_vectors, the graph, memory_change_versions: their org_id is the migration default)
-- keep the user policy alone.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['memories', 'memory_versions', 'memory_facts', 'conversations', 'conversation_messages',
    'sessions']
  LOOP
    EXECUTE format('CREATE POLICY by_org ON %I AS RESTRICTIVE USING (engram_sees_org(org_id))', t);
  END LOOP;
END $$;
