// sqlite-vec storage and KNN for one embedding model: a vec0 table partitioned by user, with
// agent, session and expiry as metadata columns so filters run inside the KNN query.
import type { Db } from "~/store/sqlite";
import { filterSql, type MemoryFilter } from "./memory-filter";
import type { RankedRow } from "./keyword-index";

/** vec0 metadata columns cannot hold NULL: "never expires" is stored as this. */
const NEVER = Number.MAX_SAFE_INTEGER;
/** sqlite-vec's KNN limit. */
const MAX_K = 4096;

export interface VectorRow {
  rowid: number;
  userId: string;
  agentId: string;
  sessionId: string;
  expiresAt: number | null;
  /** null = the model gave no vector (no known word): recorded as embedded, found by keyword only. */
  vector: Float32Array | null;
}

/** The names forModel gives: a hash of the model id and the dimension, never text from the id. */
const TABLE_NAME = /^vec_[0-9a-f]{12}_\d+$/;

export class VectorIndex {
  /** Every model's vec0 table in the store (an earlier model's stays after a model change). */
  static tables(db: Db): string[] {
    return db
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%USING vec0(%'")
      .all()
      .map((r) => r.name)
      .filter((name) => TABLE_NAME.test(name));
  }

  /**
   * The vec0 table of a model (created when missing). The name comes from a hash, never from text:
   * the model id is not trusted SQL.
   */
  static forModel(db: Db, modelId: string, dimensions: number): VectorIndex {
    if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 8192) throw new Error(`bad vector dimension ${dimensions}`);
    const hash = new Bun.CryptoHasher("sha1").update(modelId).digest("hex").slice(0, 12);
    const table = `vec_${hash}_${dimensions}`;
    db.run(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING vec0(` +
        `user_id TEXT PARTITION KEY, embedding FLOAT[${dimensions}] distance_metric=cosine, ` +
        `agent_id TEXT, session_id TEXT, expires_at INTEGER)`,
    );
    // sqlite-vec finds a partition's chunks with `WHERE partition00 = ?` on its _chunks table, which has
    // no index of its own: every KNN read one row (a page) of every user's chunks. At 1k users of 1k
    // memories the scan was ~20 % of a KNN, and it grows with the number of users, not with the user's data.
    db.run(`CREATE INDEX IF NOT EXISTS ${table}_chunks_by_user ON ${table}_chunks (partition00)`);
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
      `INSERT INTO ${this.table} (rowid, user_id, embedding, agent_id, session_id, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    const mark = this.db.query("INSERT OR REPLACE INTO memory_embeddings (memory_rowid, model) VALUES (?, ?)");
    for (const r of rows) {
      this.delete([r.rowid]);
      if (r.vector) ins.run(r.rowid, r.userId, r.vector, r.agentId, r.sessionId, r.expiresAt ?? NEVER);
      mark.run(r.rowid, this.modelId);
    }
  }

  /** sqlite-vec 0.1.9 clears the vector bytes on DELETE (older versions kept them: a test guards this). */
  delete(rowids: number[]): void {
    const del = this.db.query(`DELETE FROM ${this.table} WHERE rowid = ?`);
    for (const id of rowids) del.run(id);
  }

  /** Nearest neighbours inside the filter; metadata filters use an exact scan of the user's matching rows. */
  rank(filter: MemoryFilter, vector: Float32Array, n: number): RankedRow[] {
    if (filter.metadata && Object.keys(filter.metadata).length) return this.scan(filter, vector, n);
    const agent = filter.agentId !== undefined ? " AND agent_id = ?" : "";
    const sql =
      `SELECT rowid, 1 - distance AS score FROM ${this.table} WHERE embedding MATCH ? AND k = ? ` +
      `AND user_id = ? AND session_id = ? AND expires_at > ?${agent} ORDER BY distance`;
    const params: any[] = [vector, Math.min(n, MAX_K), filter.userId, filter.sessionId, filter.now];
    if (filter.agentId !== undefined) params.push(filter.agentId);
    return this.db.query<RankedRow, any[]>(sql).all(...params);
  }

  private scan(filter: MemoryFilter, vector: Float32Array, n: number): RankedRow[] {
    const { where, params } = filterSql(filter);
    const sql =
      `SELECT m.rowid AS rowid, 1 - vec_distance_cosine(v.embedding, ?) AS score FROM memories m ` +
      `JOIN ${this.table} v ON v.rowid = m.rowid WHERE ${where} ORDER BY score DESC LIMIT ?`;
    return this.db.query<RankedRow, any[]>(sql).all(vector, ...params, n);
  }
}
