// The embedded graph's tables in PostgreSQL (0001): every statement scoped by user_id. Traversal's
// recursive CTEs are in graph-traverse.ts.
import type { Pg } from "./connection";
import type { EntityRow, GraphRepo, RelationshipRow, WalkDirection, WalkRow } from "../repos/graph-repo";
import { edgesSql, walkSql } from "./graph-traverse";

const ENTITY = "node, type, id, name, properties";

const SQL = {
  putEntity: `INSERT INTO graph_entities (user_id, type, id, name, name_key, properties, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
    ON CONFLICT (user_id, type, id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key,
      properties = excluded.properties, updated_at = excluded.updated_at`,
  putRel: `INSERT INTO graph_relationships (from_node, type, to_node, user_id, properties, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $6)
    ON CONFLICT (from_node, type, to_node) DO UPDATE SET properties = excluded.properties, updated_at = excluded.updated_at`,
  find: `SELECT ${ENTITY} FROM graph_entities
    WHERE user_id = $1 AND ($2::text IS NULL OR type = $2) AND ($3::text IS NULL OR strpos(name_key, $3) > 0)
    ORDER BY CASE WHEN $3::text IS NULL OR name_key = $3 THEN 0 WHEN left(name_key, length($3)) = $3 THEN 1 ELSE 2 END,
      name, type, id
    LIMIT $4`,
  mentioning: `SELECT m.memory_id AS "memoryId", count(DISTINCT m.node) AS matches
    FROM unnest($2::text[], $3::text[]) AS r(type, id)
    JOIN graph_entities e ON e.user_id = $1 AND e.type = r.type AND e.id = r.id
    JOIN graph_mentions m ON m.node = e.node AND m.user_id = $1
    GROUP BY m.memory_id ORDER BY matches DESC, m.memory_id LIMIT $4`,
  mentionsOf: `SELECT m.memory_id AS "memoryId", e.type AS type, e.id AS id, e.name AS name
    FROM graph_mentions m JOIN graph_entities e ON e.node = m.node
    WHERE m.user_id = $1 AND m.memory_id = ANY($2::text[])
    ORDER BY m.memory_id, e.type, e.id`,
  allRels: `SELECT f.type AS ft, f.id AS fi, r.type AS type, t.type AS tt, t.id AS ti, r.properties AS properties
    FROM graph_relationships r JOIN graph_entities f ON f.node = r.from_node JOIN graph_entities t ON t.node = r.to_node
    WHERE r.user_id = $1 ORDER BY f.type, f.id, r.type, t.type, t.id`,
} as const;

export class PgGraphRepo implements GraphRepo {
  constructor(private readonly pg: Pg) {}

  entity(userId: string, type: string, id: string): Promise<EntityRow | null> {
    return this.pg.one<EntityRow>(`SELECT ${ENTITY} FROM graph_entities WHERE user_id = $1 AND type = $2 AND id = $3`, [
      userId,
      type,
      id,
    ]);
  }

  async putEntity(
    userId: string,
    e: { type: string; id: string; name: string; nameKey: string; properties: string },
    now: number,
  ): Promise<void> {
    await this.pg.run(SQL.putEntity, [userId, e.type, e.id, e.name, e.nameKey, e.properties, now]);
  }

  async relationshipProperties(userId: string, from: number, type: string, to: number): Promise<string | null> {
    const r = await this.pg.one<{ properties: string }>(
      "SELECT properties FROM graph_relationships WHERE from_node = $1 AND type = $2 AND to_node = $3 AND user_id = $4",
      [from, type, to, userId],
    );
    return r?.properties ?? null;
  }

  async putRelationship(
    userId: string,
    from: number,
    type: string,
    to: number,
    properties: string,
    now: number,
  ): Promise<void> {
    await this.pg.run(SQL.putRel, [from, type, to, userId, properties, now]);
  }

  find(userId: string, o: { type: string | null; q: string | null; limit: number }): Promise<EntityRow[]> {
    return this.pg.all<EntityRow>(SQL.find, [userId, o.type, o.q, o.limit]);
  }

  async link(userId: string, memoryId: string, node: number): Promise<void> {
    await this.pg.run(
      "INSERT INTO graph_mentions (user_id, memory_id, node) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
      [userId, memoryId, node],
    );
  }

  unlink(userId: string, memoryIds: string[]): Promise<number> {
    return this.pg.run("DELETE FROM graph_mentions WHERE user_id = $1 AND memory_id = ANY($2::text[])", [
      userId,
      memoryIds,
    ]);
  }

  memoriesMentioning(userId: string, refs: { type: string; id: string }[], limit: number) {
    return this.pg.all<{ memoryId: string; matches: number }>(SQL.mentioning, [
      userId,
      refs.map((r) => r.type),
      refs.map((r) => r.id),
      limit,
    ]);
  }

  entitiesOfMemories(userId: string, memoryIds: string[]) {
    return this.pg.all<{ memoryId: string; type: string; id: string; name: string }>(SQL.mentionsOf, [
      userId,
      memoryIds,
    ]);
  }

  async linkedMemories(userId: string): Promise<string[]> {
    const rows = await this.pg.all<{ id: string }>(
      "SELECT DISTINCT memory_id AS id FROM graph_mentions WHERE user_id = $1",
      [userId],
    );
    return rows.map((r) => r.id);
  }

  async deleteUser(userId: string): Promise<number> {
    await this.pg.run("DELETE FROM graph_mentions WHERE user_id = $1", [userId]);
    await this.pg.run("DELETE FROM graph_relationships WHERE user_id = $1", [userId]);
    return this.pg.run("DELETE FROM graph_entities WHERE user_id = $1", [userId]);
  }

  async wipe(): Promise<void> {
    for (const t of ["graph_mentions", "graph_relationships", "graph_entities"]) await this.pg.run(`DELETE FROM ${t}`);
  }

  async users(): Promise<string[]> {
    const rows = await this.pg.all<{ userId: string }>(
      'SELECT DISTINCT user_id AS "userId" FROM graph_entities ORDER BY 1',
    );
    return rows.map((r) => r.userId);
  }

  entities(userId: string): Promise<EntityRow[]> {
    return this.pg.all<EntityRow>(`SELECT ${ENTITY} FROM graph_entities WHERE user_id = $1 ORDER BY type, id`, [
      userId,
    ]);
  }

  async relationships(userId: string): Promise<RelationshipRow[]> {
    type RelRow = { ft: string; fi: string; type: string; tt: string; ti: string; properties: string };
    const rows = await this.pg.all<RelRow>(SQL.allRels, [userId]);
    return rows.map((r) => ({
      from: { type: r.ft, id: r.fi },
      type: r.type,
      to: { type: r.tt, id: r.ti },
      properties: r.properties,
    }));
  }

  walk(
    userId: string,
    o: { start: number; direction: WalkDirection; types: string[] | null; maxDepth: number; limit: number },
  ): Promise<WalkRow[]> {
    const params: unknown[] = [o.start, userId, o.maxDepth, o.limit];
    if (o.types) params.push(o.types);
    return this.pg.all<WalkRow>(walkSql(o.direction, o.types !== null), params);
  }

  edgesFrom(userId: string, nodes: number[]) {
    return this.pg.all<{ fromNode: number; type: string; toNode: number }>(edgesSql, [nodes, userId]);
  }
}
