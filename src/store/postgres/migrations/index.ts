// Every migration of the PostgreSQL store, in order; the SQL files are imported as text so the binary
// carries them. Their numbers are the PostgreSQL store's own (not the SQLite store's).
import m0001 from "./0001_schema.sql" with { type: "text" };
import m0002 from "./0002_row_security.sql" with { type: "text" };
import m0003 from "./0003_api_keys.sql" with { type: "text" };
import m0004 from "./0004_rate_windows.sql" with { type: "text" };
import m0005 from "./0005_memory_facts.sql" with { type: "text" };
import m0006 from "./0006_request_audit.sql" with { type: "text" };
import m0007 from "./0007_erased_user_pseudonyms.sql" with { type: "text" };
import m0008 from "./0008_organizations.sql" with { type: "text" };
import m0009 from "./0009_organization_keys.sql" with { type: "text" };
import m0010 from "./0010_fact_keys.sql" with { type: "text" };
import m0011 from "./0011_layer_keys.sql" with { type: "text" };
import m0012 from "./0012_row_security_org.sql" with { type: "text" };
import m0013 from "./0013_owner_counters.sql" with { type: "text" };
import m0014 from "./0014_shared_spaces.sql" with { type: "text" };
import m0015 from "./0015_graph_keys.sql" with { type: "text" };
import m0016 from "./0016_list_count_index.sql" with { type: "text" };
import m0017 from "./0017_space_registrations_readable.sql" with { type: "text" };
import m0018 from "./0018_session_sweeps.sql" with { type: "text" };
import m0019 from "./0019_row_security_org_rest.sql" with { type: "text" };
import m0020 from "./0020_layer_org_keys.sql" with { type: "text" };
import m0021 from "./0021_governance_org_keys.sql" with { type: "text" };

export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

export const PG_MIGRATIONS: PgMigration[] = [
  { version: 1, name: "schema", sql: m0001 },
  { version: 2, name: "row security", sql: m0002 },
  { version: 3, name: "api keys", sql: m0003 },
  { version: 4, name: "rate windows", sql: m0004 },
  { version: 5, name: "memory facts", sql: m0005 },
  { version: 6, name: "request audit", sql: m0006 },
  { version: 7, name: "erased user pseudonyms", sql: m0007 },
  { version: 8, name: "organizations", sql: m0008 },
  { version: 9, name: "organization keys", sql: m0009 },
  { version: 10, name: "fact keys", sql: m0010 },
  { version: 11, name: "layer keys", sql: m0011 },
  { version: 12, name: "row security by organization", sql: m0012 },
  { version: 13, name: "owner counters", sql: m0013 },
  { version: 14, name: "shared spaces", sql: m0014 },
  { version: 15, name: "graph keys", sql: m0015 },
  { version: 16, name: "list count index", sql: m0016 },
  { version: 17, name: "space registrations readable", sql: m0017 },
  { version: 18, name: "session sweeps", sql: m0018 },
  { version: 19, name: "row security by organization, the rest", sql: m0019 },
  { version: 20, name: "layer organization keys", sql: m0020 },
  { version: 21, name: "governance keys by organization", sql: m0021 },
];
