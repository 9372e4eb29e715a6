-- Organizations (SPEC §8): a user id means something only inside its organization, so every row that
-- names a user (and the per-user bookkeeping) also names the organization. Rows kept before this belong
-- to the organization the store served when it migrated: the placeholder is ENGRAM_ORG_ID at that moment
-- (migrate.ts puts it in as a quoted literal). Rows under a memory (versions, vectors, keyword entries)
-- or a conversation (messages) belong to their parent's organization.
ALTER TABLE memories ADD COLUMN org_id TEXT NOT NULL DEFAULT {{home_org}};
ALTER TABLE memory_facts ADD COLUMN org_id TEXT NOT NULL DEFAULT {{home_org}};
ALTER TABLE conversations ADD COLUMN org_id TEXT NOT NULL DEFAULT {{home_org}};
ALTER TABLE sessions ADD COLUMN org_id TEXT NOT NULL DEFAULT {{home_org}};
ALTER TABLE graph_entities ADD COLUMN org_id TEXT NOT NULL DEFAULT {{home_org}};
ALTER TABLE graph_relationships ADD COLUMN org_id TEXT NOT NULL DEFAULT {{home_org}};
ALTER TABLE graph_mentions ADD COLUMN org_id TEXT NOT NULL DEFAULT {{home_org}};
ALTER TABLE deletion_requests ADD COLUMN org_id TEXT NOT NULL DEFAULT {{home_org}};
ALTER TABLE enforcement_log ADD COLUMN org_id TEXT NOT NULL DEFAULT {{home_org}};
ALTER TABLE fts_owners ADD COLUMN org_id TEXT NOT NULL DEFAULT {{home_org}};
ALTER TABLE memory_counts ADD COLUMN org_id TEXT NOT NULL DEFAULT {{home_org}};
