// The embedded graph's tables in PostgreSQL (0001, 0015): every statement scoped by organization and user. Traversal's
// recursive CTEs are in graph-traverse.ts.
import type { Pg } from "./connection";
import type { Owner } from "../repos/memory-repo";
import type { EntityRow, GraphRepo, RelationshipRow, WalkDirection, WalkRow } from "../repos/graph-repo";
import { edgesSql, walkSql } from "./graph-traverse";

const ENTITY = "node, type, id, name, properties";

const SQL = {
  putEntity: `INSERT INTO graph_entities (org_id, user_id, type, id, name, name_key, properties, created_at, updated_at)
    VALUES ($8, $1, $2, $3, $4, $5, $6, $7, $7)
    ON CONFLICT (org_id, user_id, type, id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key,
      properties = excluded.properties, updated_at = excluded.updated_at`,
  putRel: `INSERT INTO graph_relationships (from_node, type, to_node, org_id, user_id, properties, created_at, updated_at)
    VALUES ($1, $2, $3, $7, $4, $5, $6, $6)
    ON CONFLICT (from_node, type, to_node) DO UPDATE SET properties = excluded.properties, updated_at = excluded.updated_at`,
  find: `SELECT ${ENTITY} FROM graph_entities
    WHERE org_id = $5 AND user_id = $1 AND ($2::text IS NULL OR type = $2) AND ($3::text IS NULL OR strpos(name_key, $3) > 0)
    ORDER BY CASE WHEN $3::text IS NULL OR name_key = $3 THEN 0 WHEN left(name_key, length($3)) = $3 THEN 1 ELSE 2 END,
      name, type, id
    LIMIT $4`,
  mentioning: `SELECT m.memory_id AS "memoryId", count(DISTINCT m.node) AS matches
    FROM unnest($2::text[], $3::text[]) AS r(type, id)
    JOIN graph_entities e ON e.org_id = $5 AND e.user_id = $1 AND e.type = r.type AND e.id = r.id
    JOIN graph_mentions m ON m.node = e.node AND m.org_id = $5 AND m.user_id = $1
    GROUP BY m.memory_id ORDER BY matches DESC, m.memory_id LIMIT $4`,
  mentionsOf: `SELECT m.memory_id AS "memoryId", e.type AS type, e.id AS id, e.name AS name
    FROM graph_mentions m JOIN graph_entities e ON e.node = m.node
    WHERE m.org_id = $3 AND m.user_id = $1 AND m.memory_id = ANY($2::text[])
    ORDER BY m.memory_id, e.type, e.id`,
  allRels: `SELECT f.type AS ft, f.id AS fi, r.type AS type, t.type AS tt, t.id AS ti, r.properties AS properties
    FROM graph_relationships r JOIN graph_entities f ON f.node = r.from_node JOIN graph_entities t ON t.node = r.to_node
    WHERE r.org_id = $2 AND r.user_id = $1 ORDER BY f.type, f.id, r.type, t.type, t.id`,
} as const;

export class PgGraphRepo implements GraphRepo {
  constructor(private readonly pg: Pg) {}

  entity(owner: Owner, type: string, id: string): Promise<EntityRow | null> {
    return this.pg.one<EntityRow>(
      `SELECT ${ENTITY} FROM graph_entities WHERE org_id = $4 AND user_id = $1 AND type = $2 AND id = $3`,
      [owner.userId, type, id, owner.org],
    );
  }

  async putEntity(
    owner: Owner,
    e: { type: string; id: string; name: string; nameKey: string; properties: string },
    now: number,
  ): Promise<void> {
    await this.pg.run(SQL.putEntity, [owner.userId, e.type, e.id, e.name, e.nameKey, e.properties, now, owner.org]);
  }

  async relationshipProperties(owner: Owner, from: number, type: string, to: number): Promise<string | null> {
    const r = await this.pg.one<{ properties: string }>(
      "SELECT properties FROM graph_relationships WHERE from_node = $1 AND type = $2 AND to_node = $3 AND org_id = $5 AND user_id = $4",
      [from, type, to, owner.userId, owner.org],
    );
    return r?.properties ?? null;
  }

  async putRelationship(
    owner: Owner,
    from: number,
    type: string,
    to: number,
    properties: string,
    now: number,
  ): Promise<void> {
    await this.pg.run(SQL.putRel, [from, type, to, owner.userId, properties, now, owner.org]);
  }

  find(owner: Owner, o: { type: string | null; q: string | null; limit: number }): Promise<EntityRow[]> {
    return this.pg.all<EntityRow>(SQL.find, [owner.userId, o.type, o.q, o.limit, owner.org]);
  }

  async link(owner: Owner, memoryId: string, node: number): Promise<void> {
    await this.pg.run(
      "INSERT INTO graph_mentions (org_id, user_id, memory_id, node) VALUES ($4, $1, $2, $3) ON CONFLICT DO NOTHING",
      [owner.userId, memoryId, node, owner.org],
    );
  }

  unlink(owner: Owner, memoryIds: string[]): Promise<number> {
    return this.pg.run(
      "DELETE FROM graph_mentions WHERE org_id = $3 AND user_id = $1 AND memory_id = ANY($2::text[])",
      [owner.userId, memoryIds, owner.org],
    );
  }

  memoriesMentioning(owner: Owner, refs: { type: string; id: string }[], limit: number) {
    return this.pg.all<{ memoryId: string; matches: number }>(SQL.mentioning, [
      owner.userId,
      refs.map((r) => r.type),
      refs.map((r) => r.id),
      limit,
      owner.org,
    ]);
  }

  entitiesOfMemories(owner: Owner, memoryIds: string[]) {
    return this.pg.all<{ memoryId: string; type: string; id: string; name: string }>(SQL.mentionsOf, [
      owner.userId,
      memoryIds,
      owner.org,
    ]);
  }

  async linkedMemories(owner: Owner): Promise<string[]> {
    const rows = await this.pg.all<{ id: string }>(
      "SELECT DISTINCT memory_id AS id FROM graph_mentions WHERE org_id = $2 AND user_id = $1",
      [owner.userId, owner.org],
    );
    return rows.map((r) => r.id);
  }

  async deleteUser(owner: Owner): Promise<number> {
    const params = [owner.userId, owner.org];
    await this.pg.run("DELETE FROM graph_mentions WHERE org_id = $2 AND user_id = $1", params);
    await this.pg.run("DELETE FROM graph_relationships WHERE org_id = $2 AND user_id = $1", params);
    return this.pg.run("DELETE FROM graph_entities WHERE org_id = $2 AND user_id = $1", params);
  }

  async wipe(): Promise<void> {
    for (const t of ["graph_mentions", "graph_relationships", "graph_entities"]) await this.pg.run(`DELETE FROM ${t}`);
  }

  users(): Promise<Owner[]> {
    return this.pg.all<Owner>('SELECT DISTINCT org_id AS org, user_id AS "userId" FROM graph_entities ORDER BY 1, 2');
  }

  entities(owner: Owner): Promise<EntityRow[]> {
    return this.pg.all<EntityRow>(
      `SELECT ${ENTITY} FROM graph_entities WHERE org_id = $2 AND user_id = $1 ORDER BY type, id`,
      [owner.userId, owner.org],
    );
  }

  async relationships(owner: Owner): Promise<RelationshipRow[]> {
    type RelRow = { ft: string; fi: string; type: string; tt: string; ti: string; properties: string };
    const rows = await this.pg.all<RelRow>(SQL.allRels, [owner.userId, owner.org]);
    return rows.map((r) => ({
      from: { type: r.ft, id: r.fi },
      type: r.type,
      to: { type: r.tt, id: r.ti },
      properties: r.properties,
    }));
  }

  walk(
    owner: Owner,
    o: { start: number; direction: WalkDirection; types: string[] | null; maxDepth: number; limit: number },
  ): Promise<WalkRow[]> {
    const params: unknown[] = [o.start, owner.userId, o.maxDepth, o.limit, owner.org];
    if (o.types) params.push(o.types);
    return this.pg.all<WalkRow>(walkSql(o.direction, o.types !== null), params);
  }

  edgesFrom(owner: Owner, nodes: number[]) {
    return this.pg.all<{ fromNode: number; type: string; toNode: number }>(edgesSql, [nodes, owner.userId, owner.org]);
  }
}
