-- Governance belongs to organizations (SPEC §8): a memory space id names a space only inside its
-- organization, so a policy is keyed by (organization, kind, scope id) and a space's registration by
-- (organization, space id) — the same space id in two organizations is two spaces, each with its own
-- policy, and registering one never moves the other. Policies kept before this: an organization's belongs
-- to the organization it names; a space's to the organization the space was registered to, else to the
-- one the store served when it migrated ({{home_org}}, as in migration 19).
ALTER TABLE governance_policies ADD COLUMN org_id TEXT NOT NULL DEFAULT {{home_org}};
UPDATE governance_policies SET org_id = scope_id WHERE scope_kind = 'organization';
UPDATE governance_policies
  SET org_id = COALESCE((SELECT organization_id FROM memory_spaces s WHERE s.id = governance_policies.scope_id), org_id)
  WHERE scope_kind = 'memorySpace';
DROP INDEX governance_policies_active;
CREATE INDEX governance_policies_active ON governance_policies (org_id, scope_kind, scope_id, active, created_at DESC);

CREATE TABLE memory_spaces_by_org (
  organization_id TEXT NOT NULL,
  id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (organization_id, id)
);
INSERT INTO memory_spaces_by_org (organization_id, id, created_at) SELECT organization_id, id, created_at FROM memory_spaces;
DROP TABLE memory_spaces;
ALTER TABLE memory_spaces_by_org RENAME TO memory_spaces;

CREATE INDEX enforcement_log_by_org ON enforcement_log (org_id, enforced_at);
CREATE INDEX deletion_requests_by_org ON deletion_requests (org_id, requested_at);
