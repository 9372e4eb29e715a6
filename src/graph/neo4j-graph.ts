// The Neo4j graph (the only neo4j-driver import): same GraphStore contract as SQLite, plus the
// exact-copy writes a mirror and `rebuildFrom` use. A down or refusing server → UNAVAILABLE.
import neo4j, { Neo4jError, type Driver, type ManagedTransaction } from "neo4j-driver";
import { systemClock, type Clock } from "~/shared/clock";
import { AppError, unavailable, validationError } from "~/shared/errors";
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
  MemoryMatch,
  Mention,
  Relationship,
  RelationshipInput,
  TraverseOptions,
  TraverseResult,
  TraversedEntity,
  UpsertMode,
} from "./graph-store";
import { CYPHER, SCHEMA, walkCypher } from "./neo4j-cypher";
import { rebuildReplica, type RebuildStats } from "./mirrored-graph";
import type { Owner } from "~/store/repos/memory-repo";
import { ownerKey } from "~/shared/principal";

export interface Neo4jGraphOptions {
  uri: string;
  user: string;
  password: string;
  database?: string;
  /** Fail a connection attempt after this long (default 3000 ms). */
  connectionTimeoutMs?: number;
  /** Retry transient failures for at most this long; the driver's 30 s default would hold a request for a minute when the server is down (default 1000 ms). */
  retryTimeMs?: number;
  clock?: Clock;
}

type Params = Record<string, unknown>;
type Row = Record<string, unknown>;
interface EntityRow {
  type: string;
  id: string;
  name: string;
  props: string;
}
interface EdgeRow {
  ft: string;
  fi: string;
  type: string;
  tt: string;
  ti: string;
}

const BATCH = 1000;
const keysOf = (refs: EntityRef[]) => refs.map((r) => ({ type: r.type, id: r.id }));
const toEntity = (r: EntityRow): Entity => ({ type: r.type, id: r.id, name: r.name, properties: parseProps(r.props) });
const entityRow = (e: Entity) => ({
  type: e.type,
  id: e.id,
  name: e.name,
  nameKey: e.name.toLowerCase(),
  props: JSON.stringify(e.properties),
});
const relRow = (r: { from: EntityRef; type: string; to: EntityRef }) => ({
  ft: r.from.type,
  fi: r.from.id,
  type: r.type,
  tt: r.to.type,
  ti: r.to.id,
});
const relKey = (r: { ft: string; fi: string; type: string; tt: string; ti: string }) =>
  [r.ft, r.fi, r.type, r.tt, r.ti].join("\u0000");

async function rows<T = Row>(tx: ManagedTransaction, query: string, params: Params): Promise<T[]> {
  const result = await tx.run(query, params);
  return result.records.map((r) => r.toObject() as T);
}

/** Driver failures that mean "the dependency is not there" become UNAVAILABLE; the rest are bugs. */
export function toAppError(e: unknown): unknown {
  if (e instanceof AppError || !(e instanceof Error)) return e;
  const code = e instanceof Neo4jError ? e.code : "";
  if (code === "ServiceUnavailable" || code === "SessionExpired" || code.startsWith("Neo.TransientError.")) {
    return unavailable(`Neo4j is unavailable: ${e.message.split(".")[0]}`);
  }
  if (code.startsWith("Neo.ClientError.Security.")) return unavailable("Neo4j refused the configured credentials");
  if (code === "Neo.ClientError.Database.DatabaseNotFound") return unavailable(`Neo4j has no database '${e.message}'`);
  if (/ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH/.test(e.message))
    return unavailable(`Neo4j is unavailable: ${e.message}`);
  return e;
}

export class Neo4jGraph implements GraphReplica {
  private readonly driver: Driver;
  private readonly clock: Clock;
  private schema: Promise<void> | null = null;

  constructor(private readonly opts: Neo4jGraphOptions) {
    this.clock = opts.clock ?? systemClock;
    this.driver = neo4j.driver(opts.uri, neo4j.auth.basic(opts.user, opts.password), {
      connectionTimeout: opts.connectionTimeoutMs ?? 3000,
      connectionAcquisitionTimeout: (opts.connectionTimeoutMs ?? 3000) + 1000,
      maxTransactionRetryTime: opts.retryTimeMs ?? 1000,
      disableLosslessIntegers: true,
    });
  }

  /** Creates constraints and indexes once; a failure is retried on the next call. */
  init(): Promise<void> {
    this.schema ??= this.runSchema().catch((e: unknown) => {
      this.schema = null;
      throw toAppError(e);
    });
    return this.schema;
  }

  async upsertEntities(owner: Owner, entities: EntityInput[], mode: UpsertMode = "merge"): Promise<Entity[]> {
    if (entities.length === 0) return [];
    return this.write(async (tx) => {
      const stored = new Map(
        (await rows<EntityRow>(tx, CYPHER.readEntities, { user: ownerKey(owner), keys: keysOf(entities) })).map((r) => [
          entityKey(r),
          toEntity(r),
        ]),
      );
      const changed = new Map<string, Entity>();
      const out = entities.map((input) => {
        const existing = stored.get(entityKey(input));
        const next = nextEntity(existing, input, mode);
        if (!next) return existing!;
        stored.set(entityKey(next), next);
        changed.set(entityKey(next), next);
        return next;
      });
      if (changed.size)
        await tx.run(CYPHER.putEntities, {
          user: ownerKey(owner),
          rows: [...changed.values()].map(entityRow),
          now: this.now(),
        });
      return out;
    });
  }

  async upsertRelationships(owner: Owner, rels: RelationshipInput[]): Promise<Relationship[]> {
    if (rels.length === 0) return [];
    return this.write(async (tx) => {
      await this.requireEntities(
        tx,
        owner,
        rels.flatMap(
          (r, i) =>
            [
              [r.from, `relationships[${i}].from`],
              [r.to, `relationships[${i}].to`],
            ] as [EntityRef, string][],
        ),
      );
      const storedRows = await rows<EdgeRow & { props: string }>(tx, CYPHER.readRels, {
        user: ownerKey(owner),
        rows: rels.map(relRow),
      });
      const stored = new Map(storedRows.map((r) => [relKey(r), parseProps(r.props)]));
      const out = rels.map((r) => {
        const key = relKey(relRow(r));
        const properties = mergeProps(stored.get(key) ?? {}, r.properties);
        stored.set(key, properties);
        return {
          from: { type: r.from.type, id: r.from.id },
          type: r.type,
          to: { type: r.to.type, id: r.to.id },
          properties,
        };
      });
      await this.putRels(tx, owner, out);
      return out;
    });
  }

  async putEntities(owner: Owner, entities: Entity[]): Promise<void> {
    for (let i = 0; i < entities.length; i += BATCH) {
      const rowsBatch = entities.slice(i, i + BATCH).map(entityRow);
      await this.write((tx) => tx.run(CYPHER.putEntities, { user: ownerKey(owner), rows: rowsBatch, now: this.now() }));
    }
  }

  async putRelationships(owner: Owner, rels: Relationship[]): Promise<void> {
    for (let i = 0; i < rels.length; i += BATCH)
      await this.write((tx) => this.putRels(tx, owner, rels.slice(i, i + BATCH)));
  }

  async putMentions(owner: Owner, mentions: { memoryId: string; entity: EntityRef }[]): Promise<void> {
    for (let i = 0; i < mentions.length; i += BATCH) {
      const batch = mentions
        .slice(i, i + BATCH)
        .map((m) => ({ memoryId: m.memoryId, type: m.entity.type, id: m.entity.id }));
      await this.write((tx) => tx.run(CYPHER.putMentions, { user: ownerKey(owner), rows: batch }));
    }
  }

  async findEntities(owner: Owner, o: FindEntitiesOptions): Promise<Entity[]> {
    const params = {
      user: ownerKey(owner),
      type: o.type ?? null,
      q: o.q ? o.q.toLowerCase() : null,
      limit: neo4j.int(o.limit),
    };
    return (await this.read((tx) => rows<EntityRow>(tx, CYPHER.find, params))).map(toEntity);
  }

  async traverse(owner: Owner, o: TraverseOptions): Promise<TraverseResult> {
    const { maxDepth, limit, types } = checkTraverse(o);
    return this.read(async (tx) => {
      const [start] = await rows<EntityRow>(tx, CYPHER.readEntities, {
        user: ownerKey(owner),
        keys: keysOf([o.start]),
      });
      if (!start) throw startNotFound(o.start);
      const params = { user: ownerKey(owner), type: start.type, id: start.id, types, limit: neo4j.int(limit - 1) };
      const walk = async (depth: number) =>
        limit === 1
          ? []
          : (await rows<EntityRow & { depth: number }>(tx, walkCypher(o.direction, depth), params)).map((r) => ({
              ...toEntity(r),
              depth: r.depth,
            }));
      const reached = await deepen(maxDepth, limit - 1, walk);
      const entities: TraversedEntity[] = [{ ...toEntity(start), depth: 0 }, ...reached];
      const depths = new Map(entities.map((e) => [entityKey(e), e.depth]));
      const candidates = (
        await rows<EdgeRow>(tx, CYPHER.edgesFrom, { user: ownerKey(owner), keys: keysOf(entities) })
      ).map(toEdge);
      return { entities, relationships: selectEdges(depths, candidates, o.direction, maxDepth, types) };
    });
  }

  async linkMentions(owner: Owner, memoryId: string, entities: EntityRef[]): Promise<void> {
    if (entities.length === 0) return;
    await this.write(async (tx) => {
      await this.requireEntities(
        tx,
        owner,
        entities.map((e, i) => [e, `entities[${i}]`] as [EntityRef, string]),
      );
      await tx.run(CYPHER.putMentions, {
        user: ownerKey(owner),
        rows: entities.map((e) => ({ memoryId, type: e.type, id: e.id })),
      });
    });
  }

  async unlinkMemories(owner: Owner, memoryIds: string[]): Promise<number> {
    if (memoryIds.length === 0) return 0;
    const [r] = await this.write((tx) =>
      rows<{ removed: number | null }>(tx, CYPHER.unlink, { user: ownerKey(owner), ids: memoryIds }),
    );
    return r?.removed ?? 0;
  }

  /** Neo4j holds no memories: their links are removed here like any others. */
  async unlinkDeleted(owner: Owner, memoryIds: string[]): Promise<void> {
    await this.unlinkMemories(owner, memoryIds);
  }

  async memoriesMentioning(owner: Owner, entities: EntityRef[], limit = 1000): Promise<MemoryMatch[]> {
    if (entities.length === 0) return [];
    return this.read((tx) =>
      rows<MemoryMatch>(tx, CYPHER.mentioning, {
        user: ownerKey(owner),
        keys: keysOf(entities),
        limit: neo4j.int(limit),
      }),
    );
  }

  async entitiesForMemories(owner: Owner, memoryIds: string[]): Promise<Mention[]> {
    if (memoryIds.length === 0) return [];
    const found = await this.read((tx) =>
      rows<{ memoryId: string; type: string; id: string; name: string }>(tx, CYPHER.mentionsOf, {
        user: ownerKey(owner),
        ids: memoryIds,
      }),
    );
    return found.map((r) => ({ memoryId: r.memoryId, entity: { type: r.type, id: r.id, name: r.name } }));
  }

  async deleteUser(owner: Owner): Promise<number> {
    const [count] = await this.read((tx) => rows<{ n: number }>(tx, CYPHER.countEntities, { user: ownerKey(owner) }));
    await this.drain(CYPHER.deleteUserMemoriesBatch, { user: ownerKey(owner) });
    await this.drain(CYPHER.deleteUserBatch, { user: ownerKey(owner) });
    return count?.n ?? 0;
  }

  async wipe(): Promise<void> {
    await this.drain(CYPHER.wipeMemoriesBatch, {});
    await this.drain(CYPHER.wipeBatch, {});
  }

  /** Replaces everything in Neo4j with the source's graph (SQLite is the source of truth). */
  rebuildFrom(source: GraphExportSource): Promise<RebuildStats> {
    return rebuildReplica(source, this);
  }

  async close(): Promise<void> {
    await this.driver.close();
  }

  private now() {
    return neo4j.int(this.clock.now());
  }

  private async runSchema(): Promise<void> {
    const session = this.driver.session({ database: this.opts.database });
    try {
      for (const statement of SCHEMA) {
        // Two servers starting together may race to create the same rule; the loser is fine.
        await session.run(statement).catch((e: unknown) => {
          if (!(e instanceof Neo4jError && /AlreadyExists/.test(e.code))) throw e;
        });
      }
    } finally {
      await session.close();
    }
  }

  private async requireEntities(tx: ManagedTransaction, owner: Owner, refs: [EntityRef, string][]): Promise<void> {
    const found = await rows<EntityRow>(tx, CYPHER.readEntities, {
      user: ownerKey(owner),
      keys: keysOf(refs.map(([r]) => r)),
    });
    const keys = new Set(found.map(entityKey));
    const missing = refs.find(([r]) => !keys.has(entityKey(r)));
    if (missing) throw validationError(missing[1], `entity '${missing[0].type}/${missing[0].id}' does not exist`);
  }

  private async putRels(tx: ManagedTransaction, owner: Owner, rels: Relationship[]): Promise<void> {
    const rowsBatch = rels.map((r) => ({ ...relRow(r), props: JSON.stringify(r.properties) }));
    await tx.run(CYPHER.putRels, { user: ownerKey(owner), rows: rowsBatch, now: this.now() });
  }

  /** Runs a batched delete until it deletes nothing. */
  private async drain(query: string, params: Params): Promise<void> {
    for (;;) {
      const [r] = await this.write((tx) =>
        rows<{ deleted: number }>(tx, query, { ...params, batch: neo4j.int(BATCH * 10) }),
      );
      if (!r || r.deleted === 0) return;
    }
  }

  private read<T>(work: (tx: ManagedTransaction) => Promise<T>): Promise<T> {
    return this.session((s) => s.executeRead(work));
  }

  private write<T>(work: (tx: ManagedTransaction) => Promise<T>): Promise<T> {
    return this.session((s) => s.executeWrite(work));
  }

  private async session<T>(fn: (s: ReturnType<Driver["session"]>) => Promise<T>): Promise<T> {
    await this.init();
    const session = this.driver.session({ database: this.opts.database });
    try {
      return await fn(session);
    } catch (e) {
      throw toAppError(e);
    } finally {
      await session.close().catch(() => {});
    }
  }
}

const toEdge = (r: EdgeRow): Edge => ({ from: { type: r.ft, id: r.fi }, type: r.type, to: { type: r.tt, id: r.ti } });
