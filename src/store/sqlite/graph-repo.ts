// The embedded graph's tables in SQLite (migrations 0003, 0024): every statement prepared and scoped by
// organization and user. Traversal's recursive CTEs are in graph-traverse.ts.
import type { Db } from "./connection";
import type { Owner } from "../repos/memory-repo";
import type { EntityRow, GraphRepo, RelationshipRow, WalkDirection, WalkRow } from "../repos/graph-repo";
import { edgesSql, walkSql } from "./graph-traverse";

type Params = Record<string, string | number | null>;

const SQL = {
  entity:
    "SELECT node, type, id, name, properties FROM graph_entities WHERE org_id = $org AND user_id = $user AND type = $type AND id = $id",
  putEntity: `INSERT INTO graph_entities (org_id, user_id, type, id, name, name_key, properties, created_at, updated_at)
    VALUES ($org, $user, $type, $id, $name, $nameKey, $props, $now, $now)
    ON CONFLICT (org_id, user_id, type, id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key,
      properties = excluded.properties, updated_at = excluded.updated_at`,
  relProps:
    "SELECT properties FROM graph_relationships WHERE from_node = $from AND type = $type AND to_node = $to AND org_id = $org AND user_id = $user",
  putRel: `INSERT INTO graph_relationships (from_node, type, to_node, org_id, user_id, properties, created_at, updated_at)
    VALUES ($from, $type, $to, $org, $user, $props, $now, $now)
    ON CONFLICT (from_node, type, to_node) DO UPDATE SET properties = excluded.properties, updated_at = excluded.updated_at`,
  find: `SELECT node, type, id, name, properties FROM graph_entities
    WHERE org_id = +$org AND user_id = +$user AND ($type IS NULL OR type = +$type) AND ($q IS NULL OR instr(name_key, $q) > 0)
    ORDER BY CASE WHEN $q IS NULL OR name_key = +$q THEN 0 WHEN substr(name_key, 1, length($q)) = +$q THEN 1 ELSE 2 END, name, type, id
    LIMIT +$limit`,
  link: "INSERT OR IGNORE INTO graph_mentions (org_id, user_id, memory_id, node) VALUES ($org, $user, $memory, $node)",
  unlink:
    "DELETE FROM graph_mentions WHERE org_id = $org AND user_id = $user AND memory_id IN (SELECT value FROM json_each($ids))",
  mentioning: `SELECT m.memory_id AS memoryId, count(DISTINCT m.node) AS matches
    FROM json_each($refs) j
    JOIN graph_entities e ON e.org_id = +$org AND e.user_id = +$user AND e.type = json_extract(j.value, '$.type') AND e.id = json_extract(j.value, '$.id')
    JOIN graph_mentions m ON m.node = e.node AND m.org_id = +$org AND m.user_id = +$user
    GROUP BY m.memory_id ORDER BY matches DESC, m.memory_id LIMIT +$limit`,
  mentionsOf: `SELECT m.memory_id AS memoryId, e.type AS type, e.id AS id, e.name AS name
    FROM graph_mentions m JOIN graph_entities e ON e.node = m.node
    WHERE m.org_id = +$org AND m.user_id = +$user AND m.memory_id IN (SELECT value FROM json_each($ids))
    ORDER BY m.memory_id, e.type, e.id`,
  linked: "SELECT DISTINCT memory_id AS id FROM graph_mentions WHERE org_id = $org AND user_id = $user",
  countEntities: "SELECT count(*) AS n FROM graph_entities WHERE org_id = $org AND user_id = $user",
  users: "SELECT DISTINCT org_id AS org, user_id AS userId FROM graph_entities ORDER BY org_id, user_id",
  allEntities:
    "SELECT node, type, id, name, properties FROM graph_entities WHERE org_id = +$org AND user_id = +$user ORDER BY type, id",
  allRels: `SELECT f.type AS ft, f.id AS fi, r.type AS type, t.type AS tt, t.id AS ti, r.properties AS properties
    FROM graph_relationships r JOIN graph_entities f ON f.node = r.from_node JOIN graph_entities t ON t.node = r.to_node
    WHERE r.org_id = +$org AND r.user_id = +$user ORDER BY f.type, f.id, r.type, t.type, t.id`,
} as const;

const DELETE_USER = [
  "DELETE FROM graph_mentions WHERE org_id = $org AND user_id = $user",
  "DELETE FROM graph_relationships WHERE org_id = $org AND user_id = $user",
  "DELETE FROM graph_entities WHERE org_id = $org AND user_id = $user",
];

/** The owner as named parameters. */
const who = (o: Owner): Params => ({ org: o.org, user: o.userId });

export class SqliteGraphRepo implements GraphRepo {
  constructor(private readonly db: Db) {}

  async entity(owner: Owner, type: string, id: string): Promise<EntityRow | null> {
    return this.db.query<EntityRow, Params>(SQL.entity).get({ ...who(owner), type, id });
  }

  async putEntity(
    owner: Owner,
    e: { type: string; id: string; name: string; nameKey: string; properties: string },
    now: number,
  ): Promise<void> {
    this.db
      .query<never, Params>(SQL.putEntity)
      .run({ ...who(owner), type: e.type, id: e.id, name: e.name, nameKey: e.nameKey, props: e.properties, now });
  }

  async relationshipProperties(owner: Owner, from: number, type: string, to: number): Promise<string | null> {
    return (
      this.db.query<{ properties: string }, Params>(SQL.relProps).get({ from, type, to, ...who(owner) })?.properties ??
      null
    );
  }

  async putRelationship(
    owner: Owner,
    from: number,
    type: string,
    to: number,
    properties: string,
    now: number,
  ): Promise<void> {
    this.db.query<never, Params>(SQL.putRel).run({ from, type, to, ...who(owner), props: properties, now });
  }

  async find(owner: Owner, o: { type: string | null; q: string | null; limit: number }): Promise<EntityRow[]> {
    return this.db.query<EntityRow, Params>(SQL.find).all({ ...who(owner), type: o.type, q: o.q, limit: o.limit });
  }

  async link(owner: Owner, memoryId: string, node: number): Promise<void> {
    this.db.query<never, Params>(SQL.link).run({ ...who(owner), memory: memoryId, node });
  }

  async unlink(owner: Owner, memoryIds: string[]): Promise<number> {
    return this.db.query<never, Params>(SQL.unlink).run({ ...who(owner), ids: JSON.stringify(memoryIds) }).changes;
  }

  async memoriesMentioning(owner: Owner, refs: { type: string; id: string }[], limit: number) {
    const json = JSON.stringify(refs.map((e) => ({ type: e.type, id: e.id })));
    return this.db
      .query<{ memoryId: string; matches: number }, Params>(SQL.mentioning)
      .all({ ...who(owner), refs: json, limit });
  }

  async entitiesOfMemories(owner: Owner, memoryIds: string[]) {
    return this.db
      .query<{ memoryId: string; type: string; id: string; name: string }, Params>(SQL.mentionsOf)
      .all({ ...who(owner), ids: JSON.stringify(memoryIds) });
  }

  async linkedMemories(owner: Owner): Promise<string[]> {
    return this.db
      .query<{ id: string }, Params>(SQL.linked)
      .all(who(owner))
      .map((r) => r.id);
  }

  async deleteUser(owner: Owner): Promise<number> {
    const n = this.db.query<{ n: number }, Params>(SQL.countEntities).get(who(owner))?.n ?? 0;
    for (const sql of DELETE_USER) this.db.query<never, Params>(sql).run(who(owner));
    return n;
  }

  async wipe(): Promise<void> {
    for (const t of ["graph_mentions", "graph_relationships", "graph_entities"]) this.db.run(`DELETE FROM ${t}`);
  }

  async users(): Promise<Owner[]> {
    return this.db.query<Owner, []>(SQL.users).all();
  }

  async entities(owner: Owner): Promise<EntityRow[]> {
    return this.db.query<EntityRow, Params>(SQL.allEntities).all(who(owner));
  }

  async relationships(owner: Owner): Promise<RelationshipRow[]> {
    type RelRow = { ft: string; fi: string; type: string; tt: string; ti: string; properties: string };
    return this.db
      .query<RelRow, Params>(SQL.allRels)
      .all(who(owner))
      .map((r) => ({
        from: { type: r.ft, id: r.fi },
        type: r.type,
        to: { type: r.tt, id: r.ti },
        properties: r.properties,
      }));
  }

  async walk(
    owner: Owner,
    o: { start: number; direction: WalkDirection; types: string[] | null; maxDepth: number; limit: number },
  ): Promise<WalkRow[]> {
    const params: Params = { start: o.start, ...who(owner), limit: o.limit, maxDepth: o.maxDepth };
    if (o.types) params.types = JSON.stringify(o.types);
    return this.db.query<WalkRow, Params>(walkSql(o.direction, o.types !== null)).all(params);
  }

  async edgesFrom(owner: Owner, nodes: number[]) {
    return this.db
      .query<{ fromNode: number; type: string; toNode: number }, Params>(edgesSql)
      .all({ nodes: JSON.stringify(nodes), ...who(owner) });
  }
}
