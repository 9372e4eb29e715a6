// Every migration, in order; the SQL files are imported as text so the binary carries them.
import m0001 from "./0001_memories.sql" with { type: "text" };
import m0002 from "./0002_layers.sql" with { type: "text" };
import m0003 from "./0003_graph.sql" with { type: "text" };
import m0004 from "./0004_governance.sql" with { type: "text" };
import m0005 from "./0005_sessions.sql" with { type: "text" };
import m0006 from "./0006_fts_owner.sql" with { type: "text" };
import m0007 from "./0007_count_index.sql" with { type: "text" };
import m0008 from "./0008_fts_namespaces.sql" with { type: "text" };
import m0009 from "./0009_vector_erasures.sql" with { type: "text" };
import m0010 from "./0010_retain_until.sql" with { type: "text" };
import m0011 from "./0011_immutable_version_authors.sql" with { type: "text" };
import m0012 from "./0012_api_keys.sql" with { type: "text" };
import m0013 from "./0013_memory_rowids.sql" with { type: "text" };
import m0014 from "./0014_rate_windows.sql" with { type: "text" };
import m0017 from "./0017_erased_user_pseudonyms.sql" with { type: "text" };
import { reindexByUser } from "./fts-namespaces";
import { rebuildMemoriesWithAutoincrement } from "./memory-rowids";
import m0015 from "./0015_memory_facts.sql" with { type: "text" };
import m0016 from "./0016_request_audit.sql" with { type: "text" };
import m0018 from "./0018_term_evidence.sql" with { type: "text" };
import m0019 from "./0019_organizations.sql" with { type: "text" };
import m0020 from "./0020_organization_keys.sql" with { type: "text" };
import m0021 from "./0021_fact_keys.sql" with { type: "text" };
import m0022 from "./0022_layer_keys.sql" with { type: "text" };
import m0023 from "./0023_shared_spaces.sql" with { type: "text" };
import m0024 from "./0024_graph_keys.sql" with { type: "text" };
import m0025 from "./0025_list_count_index.sql" with { type: "text" };
import m0026 from "./0026_memory_scope_index.sql" with { type: "text" };
import m0027 from "./0027_session_sweeps.sql" with { type: "text" };
import m0028 from "./0028_layer_org_keys.sql" with { type: "text" };
import m0029 from "./0029_governance_org_keys.sql" with { type: "text" };
import { fillTextKeys } from "../memory-repo";
import type { Db } from "../connection";

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** A step in code after the SQL, in the same transaction (e.g. re-indexing rows). */
  run?: (db: Db) => void;
  /** Rebuilds a table others reference: runs with foreign keys off, checked before the commit. */
  foreignKeysOff?: true;
}

export const MIGRATIONS: Migration[] = [
  { version: 1, name: "memories", sql: m0001 },
  { version: 2, name: "layers", sql: m0002 },
  { version: 3, name: "graph", sql: m0003 },
  { version: 4, name: "governance", sql: m0004 },
  { version: 5, name: "sessions", sql: m0005 },
  { version: 6, name: "fts owner", sql: m0006 },
  { version: 7, name: "count index", sql: m0007 },
  { version: 8, name: "fts namespaces", sql: m0008, run: reindexByUser },
  { version: 9, name: "vector erasures", sql: m0009 },
  { version: 10, name: "retain until", sql: m0010 },
  { version: 11, name: "immutable version authors", sql: m0011 },
  { version: 12, name: "api keys", sql: m0012 },
  {
    version: 13,
    name: "memory rowids never reused",
    sql: m0013,
    run: rebuildMemoriesWithAutoincrement,
    foreignKeysOff: true,
  },
  { version: 14, name: "rate windows", sql: m0014 },
  { version: 15, name: "memory facts", sql: m0015, run: fillTextKeys },
  { version: 16, name: "request audit", sql: m0016 },
  { version: 17, name: "erased user pseudonyms", sql: m0017 },
  { version: 18, name: "term evidence", sql: m0018 },
  { version: 19, name: "organizations", sql: m0019 },
  { version: 20, name: "organization keys", sql: m0020 },
  { version: 21, name: "fact keys", sql: m0021 },
  { version: 22, name: "layer keys", sql: m0022 },
  { version: 23, name: "shared spaces", sql: m0023 },
  { version: 24, name: "graph keys", sql: m0024, foreignKeysOff: true },
  { version: 25, name: "list count index", sql: m0025 },
  { version: 26, name: "memory scope index", sql: m0026 },
  { version: 27, name: "session sweeps", sql: m0027 },
  { version: 28, name: "layer organization keys", sql: m0028, foreignKeysOff: true },
  { version: 29, name: "governance keys by organization", sql: m0029 },
];
