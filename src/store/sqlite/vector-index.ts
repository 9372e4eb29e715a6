// sqlite-vec storage and KNN for one embedding model: a vec0 table partitioned by owner (organization
// and user), with agent, session and expiry as metadata columns so filters run inside the KNN query.
import type { Db } from "./connection";
import type { Logger } from "~/shared/logger";
import { ownerKey } from "~/shared/principal";
import { filterSql } from "./filter-sql";
import { moveLayout, ownerOfRowid } from "./vector-layouts";
import type { MemoryFilter, RankedRow } from "../repos/search-repo";
import type { VectorRow } from "../repos/vector-repo";

/** vec0 metadata columns cannot hold NULL: "never expires" is stored as this. */
const NEVER = Number.MAX_SAFE_INTEGER;
/** sqlite-vec's KNN limit. */
const MAX_K = 4096;

/**
 * Slots per chunk. sqlite-vec keeps each user's vectors in chunks of their own, and a KNN costs per slot,
 * empty or not: with its default of 1,024 a user with 10 memories paid what one with 1,000 paid (~170 µs)
 * and held 450 KB on disk. With 256 (KNN k = 20, in process): 10 memories 179 → 70 µs and 451 → 118 KB,
 * 100 memories 166 → 58 µs, 1,000 memories 181 → 191 µs, 3,000 memories 527 → 606 µs. 128 was faster
 * still for small users but 38 % slower at 1,000.
 */
export const CHUNK_SLOTS = 256;

/**
 * The names forModel gives: a hash of the model id, the dimension, the chunk size (`_c256`; none in the
 * layout before it) and `_org` (partitions of one organization's user; of a user id before), never text
 * from the id.
 */
const TABLE_NAME = /^vec_[0-9a-f]{12}_\d+(_c\d+)?(_org)?$/;

/** The hash that names a model's tables (a model id is not trusted SQL). */
export const modelHash = (modelId: string): string =>
  new Bun.CryptoHasher("sha1").update(modelId).digest("hex").slice(0, 12);

/** A model's dimension becomes part of table names and SQL: a positive integer up to 8,192, or an error. */
export function checkDimensions(dimensions: number): void {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 8192)
    throw new Error(`bad vector dimension ${dimensions}`);
}

/** The vec0 table forModel gives a model. */
export const vecTableName = (modelId: string, dimensions: number): string =>
  `vec_${modelHash(modelId)}_${dimensions}_c${CHUNK_SLOTS}_org`;

/** The partition a memory's vector is in: its organization's user (the same user id in two is two users). */
const partitionOf = (o: { org: string; userId: string }): string => ownerKey(o);

export class VectorIndex {
  /** Every model's vec0 table in the store (an earlier model's stays after a model change). */
  static tables(db: Db): string[] {
    return db
      .query<{ name: string }, []>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%USING vec0(%'",
      )
      .all()
      .map((r) => r.name)
      .filter((name) => TABLE_NAME.test(name));
  }

  /**
   * The vec0 table of a model (created when missing). The name comes from a hash, never from text:
   * the model id is not trusted SQL. A table of an earlier layout (1,024-slot chunks, or partitions by
   * user id) is moved over, once: the newer first, so the one an older Engram wrote last wins (a newer
   * one drops the earlier tables when it opens them).
   */
  static forModel(db: Db, modelId: string, dimensions: number, logger?: Logger): VectorIndex {
    checkDimensions(dimensions);
    const base = `vec_${modelHash(modelId)}_${dimensions}`;
    const table = vecTableName(modelId, dimensions);
    db.transaction(() => {
      db.run(
        `CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING vec0(` +
          `owner TEXT PARTITION KEY, embedding FLOAT[${dimensions}] distance_metric=cosine, ` +
          `agent_id TEXT, session_id TEXT, expires_at INTEGER, chunk_size=${CHUNK_SLOTS})`,
      );
      // sqlite-vec finds a partition's chunks with `WHERE partition00 = ?` on its _chunks table, which has
      // no index of its own: every KNN read one row (a page) of every user's chunks. At 1k users of 1k
      // memories the scan was ~20 % of a KNN, and it grows with the number of users, not with the user's data.
      db.run(`CREATE INDEX IF NOT EXISTS ${table}_chunks_by_user ON ${table}_chunks (partition00)`);
      const present = VectorIndex.tables(db);
      const to = new VectorIndex(db, modelId, table);
      for (const earlier of [`${base}_c${CHUNK_SLOTS}`, base])
        if (present.includes(earlier)) moveLayout(db, modelId, new VectorIndex(db, modelId, earlier), to, { logger });
    }).immediate();
    return new VectorIndex(db, modelId, table);
  }

  /** `table` must come from forModel (a search worker gets it from there, over its own connection). */
  constructor(
    private readonly db: Db,
    readonly modelId: string,
    readonly table: string,
  ) {
    if (!TABLE_NAME.test(table)) throw new Error(`not a vector table name: ${table}`);
  }

  /** Must run inside the caller's write transaction. */
  upsert(rows: VectorRow[]): void {
    if (!rows.length) return;
    const ins = this.db.query(
      `INSERT INTO ${this.table} (rowid, owner, embedding, agent_id, session_id, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    const mark = this.db.query("INSERT OR REPLACE INTO memory_embeddings (memory_rowid, model) VALUES (?, ?)");
    for (const r of rows) {
      if (!r.fresh) this.delete([r.rowid]);
      if (r.vector) ins.run(r.rowid, partitionOf(r), r.vector, r.agentId, r.sessionId, r.expiresAt ?? NEVER);
      mark.run(r.rowid, this.modelId);
    }
  }

  /** Every rowid this table holds a vector for, a deleted memory's included. */
  rowids(): number[] {
    return this.db
      .query<{ r: number }, []>(`SELECT rowid AS r FROM ${this.table}`)
      .all()
      .map((x) => x.r);
  }

  /**
   * Every stored vector of a live memory, with its filter columns (to hand them to another index or
   * layout); the owner is its memory's, so this reads a table of any layout.
   */
  vectors(): VectorRow[] {
    const owner = ownerOfRowid(this.db);
    return this.db
      .query<{ rowid: number; agent_id: string; session_id: string; expires_at: number; embedding: Uint8Array }, []>(
        `SELECT rowid, agent_id, session_id, expires_at, embedding FROM ${this.table}`,
      )
      .all()
      .flatMap((r) => {
        const o = owner(r.rowid);
        return o ? [{ ...r, org: o.org_id, userId: o.user_id }] : [];
      })
      .map((r) => ({
        rowid: r.rowid,
        org: r.org,
        userId: r.userId,
        agentId: r.agent_id,
        sessionId: r.session_id,
        expiresAt: r.expires_at === NEVER ? null : r.expires_at,
        vector: new Float32Array(r.embedding.slice().buffer),
      }));
  }

  /** sqlite-vec 0.1.9 clears the vector bytes on DELETE (older versions kept them: a test guards this). */
  delete(rowids: number[]): void {
    const del = this.db.query(`DELETE FROM ${this.table} WHERE rowid = ?`);
    for (const id of rowids) del.run(id);
  }

  /** Nearest neighbours inside the filter; metadata filters use an exact scan of the user's matching rows. */
  rank(filter: MemoryFilter, vector: Float32Array, n: number): RankedRow[] {
    if (filter.metadata && Object.keys(filter.metadata).length) return this.scan(filter, vector, n);
    const agent = filter.agentId !== undefined ? " AND agent_id = +?" : "";
    const sql =
      `SELECT rowid, 1 - distance AS score FROM ${this.table} WHERE embedding MATCH ? AND k = +? ` +
      `AND owner = +? AND session_id = +? AND expires_at > ?${agent} ORDER BY distance`;
    const params: any[] = [vector, Math.min(n, MAX_K), partitionOf(filter), filter.sessionId, filter.now];
    if (filter.agentId !== undefined) params.push(filter.agentId);
    return this.db.query<RankedRow, any[]>(sql).all(...params);
  }

  private scan(filter: MemoryFilter, vector: Float32Array, n: number): RankedRow[] {
    const { where, params } = filterSql(filter);
    const sql =
      `SELECT m.rowid AS rowid, 1 - vec_distance_cosine(v.embedding, ?) AS score FROM memories m ` +
      `JOIN ${this.table} v ON v.rowid = m.rowid WHERE ${where} ORDER BY score DESC LIMIT +?`;
    return this.db.query<RankedRow, any[]>(sql).all(vector, ...params, n);
  }
}
