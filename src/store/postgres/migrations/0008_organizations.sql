-- Organizations (SPEC §8; SQLite migration 19): a user id means something only inside its organization,
-- so every row that names a user also names the organization (children too: row-level security reads
-- the row itself). Rows kept before this belong to the organization the store served when it migrated:
-- the placeholder is ENGRAM_ORG_ID at that moment (migrate.ts puts it in as a quoted literal). A constant
-- default rewrites no table.
ALTER TABLE memories ADD COLUMN org_id text COLLATE "C" NOT NULL DEFAULT {{home_org}};
ALTER TABLE memory_versions ADD COLUMN org_id text COLLATE "C" NOT NULL DEFAULT {{home_org}};
ALTER TABLE memory_vectors ADD COLUMN org_id text COLLATE "C" NOT NULL DEFAULT {{home_org}};
ALTER TABLE memory_change_versions ADD COLUMN org_id text COLLATE "C" NOT NULL DEFAULT {{home_org}};
ALTER TABLE memory_facts ADD COLUMN org_id text COLLATE "C" NOT NULL DEFAULT {{home_org}};
ALTER TABLE conversations ADD COLUMN org_id text COLLATE "C" NOT NULL DEFAULT {{home_org}};
ALTER TABLE conversation_messages ADD COLUMN org_id text COLLATE "C" NOT NULL DEFAULT {{home_org}};
ALTER TABLE sessions ADD COLUMN org_id text COLLATE "C" NOT NULL DEFAULT {{home_org}};
ALTER TABLE graph_entities ADD COLUMN org_id text COLLATE "C" NOT NULL DEFAULT {{home_org}};
ALTER TABLE graph_relationships ADD COLUMN org_id text COLLATE "C" NOT NULL DEFAULT {{home_org}};
ALTER TABLE graph_mentions ADD COLUMN org_id text COLLATE "C" NOT NULL DEFAULT {{home_org}};
ALTER TABLE deletion_requests ADD COLUMN org_id text COLLATE "C" NOT NULL DEFAULT {{home_org}};
ALTER TABLE enforcement_log ADD COLUMN org_id text COLLATE "C" NOT NULL DEFAULT {{home_org}};
