// The embedded graph: entities, relationships and MENTIONS links in the main SQLite file
// (tables from migration 0003), every statement prepared and scoped by user_id.
import type { Db } from "~/store/sqlite";
import { tx } from "~/store/sqlite";
import { GroupCommit } from "~/store/group-commit";
import { systemClock, type Clock } from "~/shared/clock";
import { validationError } from "~/shared/errors";
import { mergeProps, nextEntity, parseProps } from "./graph-rules";
import type {
  Entity,
  EntityInput,
  EntityRef,
  FindEntitiesOptions,
  GraphExportSource,
  GraphReplica,
  GraphSnapshot,
  MemoryMatch,
  Mention,
  Relationship,
  RelationshipInput,
  TraverseOptions,
  TraverseResult,
  UpsertMode,
} from "./graph-store";
import { traverseSqlite } from "./sqlite-traverse";

type Params = Record<string, string | number | null>;
interface EntityRow {
  node: number;
  type: string;
  id: string;
  name: string;
  properties: string;
}

const SQL = {
  entity:
    "SELECT node, type, id, name, properties FROM graph_entities WHERE user_id = $user AND type = $type AND id = $id",
  putEntity: `INSERT INTO graph_entities (user_id, type, id, name, name_key, properties, created_at, updated_at)
    VALUES ($user, $type, $id, $name, $nameKey, $props, $now, $now)
    ON CONFLICT (user_id, type, id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key,
      properties = excluded.properties, updated_at = excluded.updated_at`,
  relProps:
    "SELECT properties FROM graph_relationships WHERE from_node = $from AND type = $type AND to_node = $to AND user_id = $user",
  putRel: `INSERT INTO graph_relationships (from_node, type, to_node, user_id, properties, created_at, updated_at)
    VALUES ($from, $type, $to, $user, $props, $now, $now)
    ON CONFLICT (from_node, type, to_node) DO UPDATE SET properties = excluded.properties, updated_at = excluded.updated_at`,
  find: `SELECT node, type, id, name, properties FROM graph_entities
    WHERE user_id = $user AND ($type IS NULL OR type = $type) AND ($q IS NULL OR instr(name_key, $q) > 0)
    ORDER BY CASE WHEN $q IS NULL OR name_key = $q THEN 0 WHEN substr(name_key, 1, length($q)) = $q THEN 1 ELSE 2 END, name, type, id
    LIMIT $limit`,
  link: "INSERT OR IGNORE INTO graph_mentions (user_id, memory_id, node) VALUES ($user, $memory, $node)",
  unlink: "DELETE FROM graph_mentions WHERE user_id = $user AND memory_id IN (SELECT value FROM json_each($ids))",
  mentioning: `SELECT m.memory_id AS memoryId, count(DISTINCT m.node) AS matches
    FROM json_each($refs) j
    JOIN graph_entities e ON e.user_id = $user AND e.type = json_extract(j.value, '$.type') AND e.id = json_extract(j.value, '$.id')
    JOIN graph_mentions m ON m.node = e.node AND m.user_id = $user
    GROUP BY m.memory_id ORDER BY matches DESC, m.memory_id LIMIT $limit`,
  mentionsOf: `SELECT m.memory_id AS memoryId, e.type AS type, e.id AS id, e.name AS name
    FROM graph_mentions m JOIN graph_entities e ON e.node = m.node
    WHERE m.user_id = $user AND m.memory_id IN (SELECT value FROM json_each($ids))
    ORDER BY m.memory_id, e.type, e.id`,
  countEntities: "SELECT count(*) AS n FROM graph_entities WHERE user_id = $user",
  users: "SELECT DISTINCT user_id AS userId FROM graph_entities ORDER BY user_id",
  allEntities: "SELECT node, type, id, name, properties FROM graph_entities WHERE user_id = $user ORDER BY type, id",
  allRels: `SELECT f.type AS ft, f.id AS fi, r.type AS type, t.type AS tt, t.id AS ti, r.properties AS properties
    FROM graph_relationships r JOIN graph_entities f ON f.node = r.from_node JOIN graph_entities t ON t.node = r.to_node
    WHERE r.user_id = $user ORDER BY f.type, f.id, r.type, t.type, t.id`,
} as const;

const DELETE_USER = [
  "DELETE FROM graph_mentions WHERE user_id = $user",
  "DELETE FROM graph_relationships WHERE user_id = $user",
  "DELETE FROM graph_entities WHERE user_id = $user",
];

const toEntity = (r: EntityRow): Entity => ({
  type: r.type,
  id: r.id,
  name: r.name,
  properties: parseProps(r.properties),
});

export class SqliteGraph implements GraphReplica, GraphExportSource {
  /**
   * `writes`: the server shares one group commit between memory writes and the graph writes that follow
   * them, so concurrent adds' entities and mention links commit together too.
   */
  constructor(
    private readonly db: Db,
    private readonly clock: Clock = systemClock,
    private readonly writes: GroupCommit = new GroupCommit(db),
  ) {}

  async upsertEntities(userId: string, entities: EntityInput[], mode: UpsertMode = "merge"): Promise<Entity[]> {
    return this.writes.run(() =>
      entities.map((input) => {
        const row = this.row(userId, input);
        const existing = row ? toEntity(row) : undefined;
        const next = nextEntity(existing, input, mode);
        if (next) this.writeEntity(userId, next);
        return next ?? existing!;
      }),
    );
  }

  async putEntities(userId: string, entities: Entity[]): Promise<void> {
    tx(this.db, () => entities.forEach((e) => this.writeEntity(userId, e)));
  }

  async upsertRelationships(userId: string, rels: RelationshipInput[]): Promise<Relationship[]> {
    return this.writes.run(() => {
      const ends = this.resolveEnds(userId, rels);
      return rels.map((r, i) => {
        const key = { from: ends[i]![0], type: r.type, to: ends[i]![1], user: userId };
        const stored = this.db.query<{ properties: string }, Params>(SQL.relProps).get(key);
        const properties = mergeProps(stored ? parseProps(stored.properties) : {}, r.properties);
        this.db
          .query<never, Params>(SQL.putRel)
          .run({ ...key, props: JSON.stringify(properties), now: this.clock.now() });
        return {
          from: { type: r.from.type, id: r.from.id },
          type: r.type,
          to: { type: r.to.type, id: r.to.id },
          properties,
        };
      });
    });
  }

  async putRelationships(userId: string, rels: Relationship[]): Promise<void> {
    tx(this.db, () => {
      const ends = this.resolveEnds(userId, rels);
      rels.forEach((r, i) => {
        const params = {
          from: ends[i]![0],
          type: r.type,
          to: ends[i]![1],
          user: userId,
          props: JSON.stringify(r.properties),
          now: this.clock.now(),
        };
        this.db.query<never, Params>(SQL.putRel).run(params);
      });
    });
  }

  async putMentions(userId: string, mentions: GraphSnapshot["mentions"]): Promise<void> {
    tx(this.db, () => {
      for (const m of mentions) {
        const row = this.row(userId, m.entity);
        if (row) this.db.query<never, Params>(SQL.link).run({ user: userId, memory: m.memoryId, node: row.node });
      }
    });
  }

  async findEntities(userId: string, o: FindEntitiesOptions): Promise<Entity[]> {
    const params = { user: userId, type: o.type ?? null, q: o.q ? o.q.toLowerCase() : null, limit: o.limit };
    return this.db.query<EntityRow, Params>(SQL.find).all(params).map(toEntity);
  }

  async traverse(userId: string, options: TraverseOptions): Promise<TraverseResult> {
    return traverseSqlite(this.db, userId, options);
  }

  async linkMentions(userId: string, memoryId: string, entities: EntityRef[]): Promise<void> {
    await this.writes.run(() => {
      const nodes = entities.map((ref, i) => this.nodeOf(userId, ref, `entities[${i}]`));
      for (const node of nodes) this.db.query<never, Params>(SQL.link).run({ user: userId, memory: memoryId, node });
    });
  }

  async unlinkMemories(userId: string, memoryIds: string[]): Promise<number> {
    if (memoryIds.length === 0) return 0;
    return this.db.query<never, Params>(SQL.unlink).run({ user: userId, ids: JSON.stringify(memoryIds) }).changes;
  }

  async memoriesMentioning(userId: string, entities: EntityRef[], limit = 1000): Promise<MemoryMatch[]> {
    if (entities.length === 0) return [];
    const refs = JSON.stringify(entities.map((e) => ({ type: e.type, id: e.id })));
    return this.db.query<MemoryMatch, Params>(SQL.mentioning).all({ user: userId, refs, limit });
  }

  async entitiesForMemories(userId: string, memoryIds: string[]): Promise<Mention[]> {
    if (memoryIds.length === 0) return [];
    const rows = this.db
      .query<{ memoryId: string; type: string; id: string; name: string }, Params>(SQL.mentionsOf)
      .all({ user: userId, ids: JSON.stringify(memoryIds) });
    return rows.map((r) => ({ memoryId: r.memoryId, entity: { type: r.type, id: r.id, name: r.name } }));
  }

  async deleteUser(userId: string): Promise<number> {
    return tx(this.db, () => {
      const n = this.db.query<{ n: number }, Params>(SQL.countEntities).get({ user: userId })?.n ?? 0;
      for (const sql of DELETE_USER) this.db.query<never, Params>(sql).run({ user: userId });
      return n;
    });
  }

  async wipe(): Promise<void> {
    tx(this.db, () => {
      for (const t of ["graph_mentions", "graph_relationships", "graph_entities"]) this.db.run(`DELETE FROM ${t}`);
    });
  }

  async userIds(): Promise<string[]> {
    return this.db
      .query<{ userId: string }, []>(SQL.users)
      .all()
      .map((r) => r.userId);
  }

  async exportUser(userId: string): Promise<GraphSnapshot> {
    const entities = this.db.query<EntityRow, Params>(SQL.allEntities).all({ user: userId }).map(toEntity);
    type RelRow = { ft: string; fi: string; type: string; tt: string; ti: string; properties: string };
    const relationships = this.db
      .query<RelRow, Params>(SQL.allRels)
      .all({ user: userId })
      .map((r) => ({
        from: { type: r.ft, id: r.fi },
        type: r.type,
        to: { type: r.tt, id: r.ti },
        properties: parseProps(r.properties),
      }));
    const ids = this.db
      .query<{ id: string }, Params>("SELECT DISTINCT memory_id AS id FROM graph_mentions WHERE user_id = $user")
      .all({ user: userId });
    const mentions = (
      await this.entitiesForMemories(
        userId,
        ids.map((r) => r.id),
      )
    ).map((m) => ({
      memoryId: m.memoryId,
      entity: { type: m.entity.type, id: m.entity.id },
    }));
    return { entities, relationships, mentions };
  }

  async close(): Promise<void> {
    // The database belongs to the composition root, which closes it after every user of it.
  }

  private row(userId: string, ref: EntityRef): EntityRow | null {
    return this.db.query<EntityRow, Params>(SQL.entity).get({ user: userId, type: ref.type, id: ref.id });
  }

  private nodeOf(userId: string, ref: EntityRef, field: string): number {
    const row = this.row(userId, ref);
    if (!row) throw validationError(field, `entity '${ref.type}/${ref.id}' does not exist`);
    return row.node;
  }

  /** Both ends of every relationship, checked before anything is written. */
  private resolveEnds(userId: string, rels: RelationshipInput[]): [number, number][] {
    return rels.map((r, i) => [
      this.nodeOf(userId, r.from, `relationships[${i}].from`),
      this.nodeOf(userId, r.to, `relationships[${i}].to`),
    ]);
  }

  private writeEntity(userId: string, e: Entity): void {
    const params = {
      user: userId,
      type: e.type,
      id: e.id,
      name: e.name,
      nameKey: e.name.toLowerCase(),
      props: JSON.stringify(e.properties),
      now: this.clock.now(),
    };
    this.db.query<never, Params>(SQL.putEntity).run(params);
  }
}
