-- The organization policy (migration 12) for the tables whose writes now set org_id (migrations 13 and
-- 15): memory vectors, the graph, deletion requests — RESTRICTIVE, so a row must pass its by_user policy
-- and this one. A change counter may still be read by any transaction (read_counters: a cache reads it
-- outside one), so its organization policy binds writes only. API keys take a policy of their own: an
-- organization's transaction sees only its keys (authentication, which finds a key by id before it knows
-- the organization, and the operator's CLI run with every organization in scope).
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['memory_vectors', 'graph_entities', 'graph_relationships', 'graph_mentions', 'deletion_requests']
  LOOP
    EXECUTE format('CREATE POLICY by_org ON %I AS RESTRICTIVE USING (engram_sees_org(org_id))', t);
  END LOOP;
END $$;
CREATE POLICY by_org_insert ON memory_change_versions AS RESTRICTIVE FOR INSERT WITH CHECK (engram_sees_org(org_id));
CREATE POLICY by_org_update ON memory_change_versions AS RESTRICTIVE FOR UPDATE USING (engram_sees_org(org_id));
CREATE POLICY by_org_delete ON memory_change_versions AS RESTRICTIVE FOR DELETE USING (engram_sees_org(org_id));
CREATE POLICY by_org ON api_keys USING (engram_sees_org(org_id));
ALTER TABLE api_keys ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
