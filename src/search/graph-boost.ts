// Graph boost: memories that mention an entity the query names gain a small bonus in hybrid ranking. Reads
// the graph's SQLite tables (the source of truth, mirrored or not); names match through a per-user index held
// in memory, rebuilt when a generation counter (temporary triggers on graph_entities) says they changed.
import type { Db } from "~/store/sqlite";
import { filterSql, type MemoryFilter } from "./memory-filter";
import { isStopword } from "./fts-query";
import { LruCache } from "./lru-cache";

/** Longest entity name matched, in words. */
const MAX_NAME_WORDS = 6;
/** Named entities with more visible mention links than this cannot tell memories apart: no boost then. */
export const MAX_MENTIONS = 1000;

export interface NameIndex {
  /** Name key → the entity nodes with that name (one name may be a person and a place). */
  byKey: Map<string, number[]>;
  maxWords: number;
}

/** An entity as the index reads it: its node and lower-cased name (graph_entities.name_key). */
export type EntityName = [node: number, nameKey: string];

const wordsOf = (text: string): string[] => text.match(/[\p{L}\p{N}]+/gu) ?? [];

/** An entity name as the index keys it: its words in lower case, joined by one space. */
export function nameKey(name: string): string {
  return wordsOf(name).join(" ").toLowerCase();
}

/** Pure: a user's name index, without names no query could mean (one letter, a stopword). */
export function buildNameIndex(entities: readonly EntityName[]): NameIndex {
  const byKey = new Map<string, number[]>();
  let maxWords = 0;
  for (const [node, name] of entities) {
    const key = nameKey(name);
    if (key.length < 2 || isStopword(key)) continue;
    const nodes = byKey.get(key);
    if (nodes) nodes.push(node);
    else byKey.set(key, [node]);
    maxWords = Math.max(maxWords, key.split(" ").length);
  }
  return { byKey, maxWords: Math.min(maxWords, MAX_NAME_WORDS) };
}

/**
 * Pure: the nodes of the entities a query names — a run of its words equal to a name, ignoring case, that
 * starts with a capital letter unless the query is typed all in lower case ("go" is a verb, "Go" a name).
 */
export function namedEntities(query: string, index: NameIndex): number[] {
  const words = wordsOf(query);
  const cased = /\p{Lu}/u.test(query);
  const nodes = new Set<number>();
  for (let i = 0; i < words.length; i++) {
    if (cased && !/^\p{Lu}/u.test(words[i]!)) continue;
    for (let n = 1; n <= index.maxWords && i + n <= words.length; n++) {
      for (const node of index.byKey.get(
        words
          .slice(i, i + n)
          .join(" ")
          .toLowerCase(),
      ) ?? [])
        nodes.add(node);
    }
  }
  return [...nodes];
}

// Connection-local (TEMP) bookkeeping: every entity insert, rename or delete bumps its user's generation.
const GENERATION_DDL = [
  "CREATE TEMP TABLE IF NOT EXISTS graph_name_generation (user_id TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID",
  ...[
    ["ai", "AFTER INSERT", "new"],
    ["au", "AFTER UPDATE OF name", "new"],
    ["ad", "AFTER DELETE", "old"],
  ].map(
    ([suffix, event, row]) =>
      `CREATE TEMP TRIGGER IF NOT EXISTS graph_name_generation_${suffix} ${event} ON main.graph_entities BEGIN
       INSERT INTO graph_name_generation (user_id, n) VALUES (${row}.user_id, 1) ON CONFLICT (user_id) DO UPDATE SET n = n + 1;
     END`,
  ),
];

// From the named entities' links (graph_mentions_by_node) to their memories: CROSS JOIN fixes that order,
// else SQLite walks all the user's memories and probes each one's links.
const MENTIONS_SQL = (where: string) =>
  `SELECT m.rowid AS rowid, g.node AS node FROM graph_mentions g CROSS JOIN memories m ON m.id = g.memory_id
   WHERE g.node IN (SELECT value FROM json_each(?)) AND g.user_id = ? AND ${where} LIMIT ?`;

export class GraphBoost {
  private readonly indexes = new LruCache<string, { generation: number; index: NameIndex }>(1000);
  private tracking = false;

  constructor(private readonly db: Db) {}

  /**
   * Visible memories (rowid) mentioning entities the query names → the share of those entities each one
   * mentions (counting only entities some visible memory mentions: the user's own entity never is).
   */
  mentions(filter: MemoryFilter, query: string): Map<number, number> {
    const nodes = namedEntities(query, this.index(filter.userId));
    if (!nodes.length) return new Map();
    const { where, params } = filterSql(filter);
    const links = this.db
      .query<{ rowid: number; node: number }, any[]>(MENTIONS_SQL(where))
      .all(JSON.stringify(nodes), filter.userId, ...params, MAX_MENTIONS + 1);
    if (links.length > MAX_MENTIONS) return new Map();
    const named = new Set(links.map((l) => l.node)).size;
    const counts = new Map<number, number>();
    for (const l of links) counts.set(l.rowid, (counts.get(l.rowid) ?? 0) + 1);
    return new Map([...counts].map(([rowid, n]) => [rowid, n / named]));
  }

  /** The user's name index, rebuilt when their entities changed since it was built. */
  index(userId: string): NameIndex {
    this.track();
    const generation =
      this.db.query<{ n: number }, [string]>("SELECT n FROM temp.graph_name_generation WHERE user_id = ?").get(userId)
        ?.n ?? 0;
    const cached = this.indexes.get(userId);
    if (cached?.generation === generation) return cached.index;
    const rows = this.db
      .query<EntityName, [string]>("SELECT node, name_key FROM graph_entities WHERE user_id = ?")
      .values(userId) as EntityName[];
    const index = buildNameIndex(rows);
    this.indexes.set(userId, { generation, index });
    return index;
  }

  /** Created on first use, so a server that never boosts pays nothing on graph writes. */
  private track(): void {
    if (this.tracking) return;
    for (const ddl of GENERATION_DDL) this.db.run(ddl);
    this.tracking = true;
  }
}
