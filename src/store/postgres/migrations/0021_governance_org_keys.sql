-- Governance belongs to organizations (SPEC §8; SQLite migration 29): a memory space id names a space only
-- inside its organization, so a policy is keyed by (organization, kind, scope id) and a space's
-- registration by (organization, space id) — the same space id in two organizations is two spaces, each
-- with its own policy, and registering one never moves the other. Policies kept before this: an
-- organization's belongs to the organization it names; a space's to the organization the space was
-- registered to, else to the one the store served when it migrated ({{home_org}}, as in migration 8).
ALTER TABLE governance_policies ADD COLUMN org_id text COLLATE "C" NOT NULL DEFAULT {{home_org}};
UPDATE governance_policies SET org_id = scope_id WHERE scope_kind = 'organization';
UPDATE governance_policies p SET org_id = s.organization_id FROM memory_spaces s
  WHERE p.scope_kind = 'memorySpace' AND s.id = p.scope_id;
DROP INDEX governance_policies_active;
CREATE INDEX governance_policies_active ON governance_policies (org_id, scope_kind, scope_id, active, created_at DESC);

ALTER TABLE memory_spaces DROP CONSTRAINT memory_spaces_pkey, ADD PRIMARY KEY (organization_id, id);

CREATE INDEX enforcement_log_by_org ON enforcement_log (org_id, enforced_at);
CREATE INDEX deletion_requests_by_org ON deletion_requests (org_id, requested_at);

-- Row-level security (migration 2's by_org, keyed on the transaction's organization): policies and the
-- enforcement log are an organization's own now. Registrations were readable by any transaction (migration
-- 17) because policy resolution looked a space's organization up by its id alone; it names the
-- organization now, so registrations go back to their organization's transactions.
CREATE POLICY by_org ON governance_policies USING (engram_sees_org(org_id));
ALTER TABLE governance_policies ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
CREATE POLICY by_org ON enforcement_log USING (engram_sees_org(org_id));
ALTER TABLE enforcement_log ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
DROP POLICY read_registrations ON memory_spaces;
