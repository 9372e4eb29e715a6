// The embedded graph: entities, relationships and MENTIONS links kept in the main store (GraphRepo),
// every read and write scoped by user_id; the merge rules and traversal limits of graph-rules.ts.
import type { EntityRow, Repos, Store } from "~/store/store";
import { EVERY_ROW, userScope } from "~/shared/store-scope";
import { systemClock, type Clock } from "~/shared/clock";
import { validationError } from "~/shared/errors";
import {
  checkTraverse,
  deepen,
  entityKey,
  mergeProps,
  nextEntity,
  parseProps,
  selectEdges,
  startNotFound,
} from "./graph-rules";
import type {
  Edge,
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
  TraversedEntity,
  UpsertMode,
} from "./graph-store";
import type { Owner } from "~/store/repos/memory-repo";

const toEntity = (r: EntityRow): Entity => ({
  type: r.type,
  id: r.id,
  name: r.name,
  properties: parseProps(r.properties),
});

export class EmbeddedGraph implements GraphReplica, GraphExportSource {
  /**
   * Writes that follow an add go through the store's grouped write (Store.group), so concurrent adds'
   * entities and mention links commit together too.
   */
  constructor(
    private readonly store: Store,
    private readonly clock: Clock = systemClock,
  ) {}

  async upsertEntities(owner: Owner, entities: EntityInput[], mode: UpsertMode = "merge"): Promise<Entity[]> {
    return this.store.group(async (tx) => {
      const stored: Entity[] = [];
      for (const input of entities) {
        const row = await tx.graph.entity(owner, input.type, input.id);
        const existing = row ? toEntity(row) : undefined;
        const next = nextEntity(existing, input, mode);
        if (next) await this.writeEntity(tx, owner, next);
        stored.push(next ?? existing!);
      }
      return stored;
    }, userScope(owner));
  }

  async putEntities(owner: Owner, entities: Entity[]): Promise<void> {
    await this.store.write(async (tx) => {
      for (const e of entities) await this.writeEntity(tx, owner, e);
    }, userScope(owner));
  }

  async upsertRelationships(owner: Owner, rels: RelationshipInput[]): Promise<Relationship[]> {
    return this.store.group(async (tx) => {
      const ends = await resolveEnds(tx, owner, rels);
      const stored: Relationship[] = [];
      for (const [i, r] of rels.entries()) {
        const [from, to] = ends[i]!;
        const previous = await tx.graph.relationshipProperties(owner, from, r.type, to);
        const properties = mergeProps(previous !== null ? parseProps(previous) : {}, r.properties);
        await tx.graph.putRelationship(owner, from, r.type, to, JSON.stringify(properties), this.clock.now());
        stored.push({
          from: { type: r.from.type, id: r.from.id },
          type: r.type,
          to: { type: r.to.type, id: r.to.id },
          properties,
        });
      }
      return stored;
    }, userScope(owner));
  }

  async putRelationships(owner: Owner, rels: Relationship[]): Promise<void> {
    await this.store.write(async (tx) => {
      const ends = await resolveEnds(tx, owner, rels);
      for (const [i, r] of rels.entries()) {
        const [from, to] = ends[i]!;
        await tx.graph.putRelationship(owner, from, r.type, to, JSON.stringify(r.properties), this.clock.now());
      }
    }, userScope(owner));
  }

  async putMentions(owner: Owner, mentions: GraphSnapshot["mentions"]): Promise<void> {
    await this.store.write(async (tx) => {
      for (const m of mentions) {
        const row = await tx.graph.entity(owner, m.entity.type, m.entity.id);
        if (row) await tx.graph.link(owner, m.memoryId, row.node);
      }
    }, userScope(owner));
  }

  async findEntities(owner: Owner, o: FindEntitiesOptions): Promise<Entity[]> {
    const q = { type: o.type ?? null, q: o.q ? o.q.toLowerCase() : null, limit: o.limit };
    return (await this.store.read((r) => r.graph.find(owner, q), userScope(owner))).map(toEntity);
  }

  async traverse(owner: Owner, o: TraverseOptions): Promise<TraverseResult> {
    const { maxDepth, limit, types } = checkTraverse(o);
    const start = await this.store.read((r) => r.graph.entity(owner, o.start.type, o.start.id), userScope(owner));
    if (!start) throw startNotFound(o.start);
    const walk = { start: start.node, direction: o.direction, types: types ?? null, limit };
    const rows = await deepen(maxDepth, limit, (depth) =>
      this.store.read((r) => r.graph.walk(owner, { ...walk, maxDepth: depth }), userScope(owner)),
    );
    const entities: TraversedEntity[] = rows.map((r) => ({
      type: r.type,
      id: r.id,
      name: r.name,
      properties: parseProps(r.properties),
      depth: r.depth,
    }));
    const byNode = new Map(rows.map((r) => [r.node, r]));
    const depths = new Map(rows.map((r) => [entityKey(r), r.depth]));
    const edges = await this.edgesAmong(owner, byNode);
    return { entities, relationships: selectEdges(depths, edges, o.direction, maxDepth, types) };
  }

  async linkMentions(owner: Owner, memoryId: string, entities: EntityRef[]): Promise<void> {
    await this.store.group(async (tx) => {
      const nodes: number[] = [];
      for (const [i, ref] of entities.entries()) nodes.push(await nodeOf(tx, owner, ref, `entities[${i}]`));
      for (const node of nodes) await tx.graph.link(owner, memoryId, node);
    }, userScope(owner));
  }

  async unlinkMemories(owner: Owner, memoryIds: string[]): Promise<number> {
    if (memoryIds.length === 0) return 0;
    return this.store.write((tx) => tx.graph.unlink(owner, memoryIds), userScope(owner));
  }

  /** Nothing left to do: the memories' rows took their links with them (a 10k delete_all spent ~5 ms asking). */
  async unlinkDeleted(): Promise<void> {}

  async memoriesMentioning(owner: Owner, entities: EntityRef[], limit = 1000): Promise<MemoryMatch[]> {
    if (entities.length === 0) return [];
    return this.store.read((r) => r.graph.memoriesMentioning(owner, entities, limit), userScope(owner));
  }

  async entitiesForMemories(owner: Owner, memoryIds: string[]): Promise<Mention[]> {
    if (memoryIds.length === 0) return [];
    const rows = await this.store.read((r) => r.graph.entitiesOfMemories(owner, memoryIds), userScope(owner));
    return rows.map((r) => ({ memoryId: r.memoryId, entity: { type: r.type, id: r.id, name: r.name } }));
  }

  async deleteUser(owner: Owner): Promise<number> {
    return this.store.write((tx) => tx.graph.deleteUser(owner), userScope(owner));
  }

  async wipe(): Promise<void> {
    await this.store.write((tx) => tx.graph.wipe(), EVERY_ROW);
  }

  async owners(): Promise<Owner[]> {
    return this.store.read((r) => r.graph.users(), EVERY_ROW);
  }

  async exportUser(owner: Owner): Promise<GraphSnapshot> {
    const { entities, relationships, ids } = await this.store.read(
      async (r) => ({
        entities: (await r.graph.entities(owner)).map(toEntity),
        relationships: (await r.graph.relationships(owner)).map((x) => ({
          from: x.from,
          type: x.type,
          to: x.to,
          properties: parseProps(x.properties),
        })),
        ids: await r.graph.linkedMemories(owner),
      }),
      userScope(owner),
    );
    const mentions = (await this.entitiesForMemories(owner, ids)).map((m) => ({
      memoryId: m.memoryId,
      entity: { type: m.entity.type, id: m.entity.id },
    }));
    return { entities, relationships, mentions };
  }

  async close(): Promise<void> {
    // The store belongs to the composition root, which closes it after every user of it.
  }

  private async edgesAmong(owner: Owner, byNode: Map<number, EntityRow>): Promise<Edge[]> {
    const rows = await this.store.read((r) => r.graph.edgesFrom(owner, [...byNode.keys()]), userScope(owner));
    const out: Edge[] = [];
    for (const r of rows) {
      const from = byNode.get(r.fromNode);
      const to = byNode.get(r.toNode);
      if (from && to)
        out.push({ from: { type: from.type, id: from.id }, type: r.type, to: { type: to.type, id: to.id } });
    }
    return out;
  }

  private writeEntity(tx: Repos, owner: Owner, e: Entity): Promise<void> {
    const entity = {
      type: e.type,
      id: e.id,
      name: e.name,
      nameKey: e.name.toLowerCase(),
      properties: JSON.stringify(e.properties),
    };
    return tx.graph.putEntity(owner, entity, this.clock.now());
  }
}

async function nodeOf(tx: Repos, owner: Owner, ref: EntityRef, field: string): Promise<number> {
  const row = await tx.graph.entity(owner, ref.type, ref.id);
  if (!row) throw validationError(field, `entity '${ref.type}/${ref.id}' does not exist`);
  return row.node;
}

/** Both ends of every relationship, checked before anything is written. */
async function resolveEnds(tx: Repos, owner: Owner, rels: RelationshipInput[]): Promise<[number, number][]> {
  const ends: [number, number][] = [];
  for (const [i, r] of rels.entries())
    ends.push([
      await nodeOf(tx, owner, r.from, `relationships[${i}].from`),
      await nodeOf(tx, owner, r.to, `relationships[${i}].to`),
    ]);
  return ends;
}
