// The vector index where SQLite cannot load sqlite-vec (Apple's SQLite on macOS), with the same
// interface, filters and scores as the sqlite-vec index (vector-index.ts). A model's vectors live in
// chunks (portable-chunks.ts) of one owner (an organization's user) and session, found through an index
// on (owner, session), and
// a rowid → slot table; a search scans the user's chunks as typed arrays. Reading a blob per vector
// cost ~1 µs each in bun:sqlite (1,000 vectors: 1.5 ms at 100 dimensions, 5 ms at 384), more than the
// arithmetic: hence chunks. A freed slot is zeroed, and chunks are written so freed pages are zeroed too.
import type { Db } from "./connection";
import type { Logger } from "~/shared/logger";
import { ownerKey } from "~/shared/principal";
import { filterSql } from "./filter-sql";
import { moveLayout, ownerOfRowid } from "./vector-layouts";
import type { MemoryFilter, RankedRow } from "../repos/search-repo";
import type { VectorRow } from "../repos/vector-repo";
import { checkDimensions, modelHash } from "./vector-index";
import {
  cosineDistance,
  decode,
  emptyChunk,
  nearest,
  slotsFor,
  sumOfSquares,
  type Chunk,
  type ChunkRow,
} from "./portable-chunks";

/** As in the sqlite-vec index: "never expires" is stored as this, so one comparison filters expiry. */
const NEVER = Number.MAX_SAFE_INTEGER;
/** sqlite-vec's KNN limit, kept so both indexes answer the same. */
const MAX_K = 4096;
/**
 * `vecs_` + a hash of the model id + the dimension, never text from the id; `_org` when chunks belong to an
 * organization's user (to a user id in the layout before).
 */
const TABLE_NAME = /^vecs_[0-9a-f]{12}_(\d+)(_org)?$/;

type Edits = Map<number, Chunk>;

/** The chunk table forModel gives a model (its rowid map is `<name>_rowids`). */
export const portableTableName = (modelId: string, dimensions: number): string =>
  `vecs_${modelHash(modelId)}_${dimensions}_org`;

export class PortableVectorIndex {
  /** Every model's chunk table in the store. */
  static tables(db: Db): string[] {
    return db
      .query<{ name: string }, []>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'vecs\\_%' ESCAPE '\\'",
      )
      .all()
      .map((r) => r.name)
      .filter((name) => TABLE_NAME.test(name));
  }

  /** The tables of a model (created when missing). */
  static forModel(db: Db, modelId: string, dimensions: number, logger?: Logger): PortableVectorIndex {
    checkDimensions(dimensions);
    const t = portableTableName(modelId, dimensions);
    db.transaction(() => {
      db.run(
        `CREATE TABLE IF NOT EXISTS ${t} (chunk_id INTEGER PRIMARY KEY, owner TEXT NOT NULL, session_id TEXT NOT NULL, ` +
          "used INTEGER NOT NULL, rowids BLOB NOT NULL, expires BLOB NOT NULL, agents TEXT NOT NULL, mags BLOB NOT NULL, " +
          "vectors BLOB NOT NULL)",
      );
      db.run(`CREATE INDEX IF NOT EXISTS ${t}_by_owner ON ${t} (owner, session_id)`);
      db.run(
        `CREATE TABLE IF NOT EXISTS ${t}_rowids (memory_rowid INTEGER PRIMARY KEY, chunk_id INTEGER NOT NULL, slot INTEGER NOT NULL)`,
      );
      // The layout before organizations: chunks of a user id.
      const earlier = t.replace(/_org$/, "");
      if (PortableVectorIndex.tables(db).includes(earlier)) {
        const [from, to] = [new PortableVectorIndex(db, modelId, earlier), new PortableVectorIndex(db, modelId, t)];
        moveLayout(db, modelId, from, to, { extra: [`${earlier}_rowids`], logger });
      }
    }).immediate();
    return new PortableVectorIndex(db, modelId, t);
  }

  private readonly dims: number;
  private readonly slots: number;

  constructor(
    private readonly db: Db,
    readonly modelId: string,
    readonly table: string,
  ) {
    if (!TABLE_NAME.test(table)) throw new Error(`not a portable vector table name: ${table}`);
    this.dims = Number(TABLE_NAME.exec(table)![1]);
    this.slots = slotsFor(this.dims);
  }

  /** Must run inside the caller's write transaction. */
  upsert(rows: VectorRow[]): void {
    if (!rows.length) return;
    const mark = this.db.query("INSERT OR REPLACE INTO memory_embeddings (memory_rowid, model) VALUES (?, ?)");
    const edits: Edits = new Map();
    for (const r of rows) {
      if (!r.fresh) this.free(edits, r.rowid);
      if (r.vector) this.place(edits, r, r.vector);
      mark.run(r.rowid, this.modelId);
    }
    this.flush(edits);
  }

  /** Must run inside the caller's write transaction. */
  delete(rowids: number[]): void {
    const edits: Edits = new Map();
    for (const rowid of rowids) this.free(edits, rowid);
    this.flush(edits);
  }

  /** Nearest neighbours inside the filter, best first: an exact scan of the user's chunks. */
  rank(filter: MemoryFilter, vector: Float32Array, n: number): RankedRow[] {
    if (vector.length !== this.dims) throw new Error(`query has ${vector.length} dimensions, the index ${this.dims}`);
    // sqlite-vec's KNN stops at MAX_K; its scan for metadata filters has no such limit.
    const allowed = filter.metadata && Object.keys(filter.metadata).length ? this.matching(filter) : null;
    const chunks = this.db
      .query<ChunkRow, [string, string]>(`SELECT * FROM ${this.table} WHERE owner = ? AND session_id = ?`)
      .all(ownerKey(filter), filter.sessionId);
    const qMag = sumOfSquares(vector);
    const d: number[] = [];
    const ids: number[] = [];
    for (const row of chunks) {
      const c = decode(row, filter.agentId !== undefined);
      for (let s = 0; s < c.rowids.length; s++) {
        const rowid = c.rowids[s]!;
        if (rowid === 0 || c.expires[s]! <= filter.now) continue;
        if ((filter.agentId !== undefined && c.agents[s] !== filter.agentId) || (allowed && !allowed.has(rowid)))
          continue;
        d.push(cosineDistance(c.vectors, s * this.dims, c.mags[s]!, vector, qMag));
        ids.push(rowid);
      }
    }
    return nearest(d, ids, allowed ? n : Math.min(n, MAX_K)).map((i) => ({ rowid: ids[i]!, score: 1 - d[i]! }));
  }

  /** Every rowid this table holds a vector for, a deleted memory's included. */
  rowids(): number[] {
    return this.db
      .query<{ r: number }, []>(`SELECT memory_rowid AS r FROM ${this.table}_rowids`)
      .all()
      .map((x) => x.r);
  }

  /**
   * Every live memory's vector, with its filter columns (to hand them to another index or layout); the
   * owner is its memory's, so this reads a table of either layout.
   */
  vectors(): VectorRow[] {
    const out: VectorRow[] = [];
    const owner = ownerOfRowid(this.db);
    const rows = this.db.query<ChunkRow & { session_id: string }, []>(`SELECT * FROM ${this.table}`).all();
    for (const row of rows) {
      const c = decode(row);
      c.rowids.forEach((rowid, s) => {
        const o = rowid === 0 ? null : owner(rowid);
        if (!o) return;
        const expires = c.expires[s]!;
        out.push({
          rowid,
          org: o.org_id,
          userId: o.user_id,
          sessionId: row.session_id,
          agentId: c.agents[s]!,
          expiresAt: expires === NEVER ? null : expires,
          vector: c.vectors.slice(s * this.dims, (s + 1) * this.dims),
        });
      });
    }
    return out;
  }

  /** Rowids passing a metadata filter: the same visibility SQL as every other read. */
  private matching(filter: MemoryFilter): Set<number> {
    const { where, params } = filterSql(filter);
    const rows = this.db
      .query<{ rowid: number }, any[]>(`SELECT m.rowid AS rowid FROM memories m WHERE ${where}`)
      .all(...params);
    return new Set(rows.map((r) => r.rowid));
  }

  /** Empties the slot holding `rowid`'s vector, if any: zero vector, no rowid, no agent. */
  private free(edits: Edits, rowid: number): void {
    const at = this.db
      .query<{ chunk_id: number; slot: number }, [number]>(
        `SELECT chunk_id, slot FROM ${this.table}_rowids WHERE memory_rowid = ?`,
      )
      .get(rowid);
    if (!at) return;
    const c = this.load(edits, at.chunk_id);
    c.rowids[at.slot] = 0;
    c.expires[at.slot] = 0;
    c.agents[at.slot] = "";
    c.mags[at.slot] = 0;
    c.vectors.fill(0, at.slot * this.dims, (at.slot + 1) * this.dims);
    c.used--;
    this.db.query(`DELETE FROM ${this.table}_rowids WHERE memory_rowid = ?`).run(rowid);
  }

  /** Puts a vector in the first free slot of the user's session's chunks, or in a new chunk. */
  private place(edits: Edits, r: VectorRow, vector: Float32Array): void {
    const candidates = this.db
      .query<{ chunk_id: number; used: number }, [string, string]>(
        `SELECT chunk_id, used FROM ${this.table} WHERE owner = +? AND session_id = +? ORDER BY chunk_id`,
      )
      .all(ownerKey(r), r.sessionId);
    const id = candidates.find((k) => (edits.get(k.chunk_id)?.used ?? k.used) < this.slots)?.chunk_id;
    const c = id !== undefined ? this.load(edits, id) : this.create(edits, ownerKey(r), r.sessionId);
    const slot = c.rowids.indexOf(0);
    c.rowids[slot] = r.rowid;
    c.expires[slot] = r.expiresAt ?? NEVER;
    c.agents[slot] = r.agentId;
    c.mags[slot] = sumOfSquares(vector);
    c.vectors.set(vector, slot * this.dims);
    c.used++;
    this.db
      .query(`INSERT INTO ${this.table}_rowids (memory_rowid, chunk_id, slot) VALUES (?, ?, ?)`)
      .run(r.rowid, c.id, slot);
  }

  private load(edits: Edits, id: number): Chunk {
    let c = edits.get(id);
    if (!c) {
      c = decode(this.db.query<ChunkRow, [number]>(`SELECT * FROM ${this.table} WHERE chunk_id = ?`).get(id)!);
      // Decoded views share SQLite's buffers for this row only: copies, since they are written back.
      c = {
        ...c,
        rowids: c.rowids.slice(),
        expires: c.expires.slice(),
        mags: c.mags.slice(),
        vectors: c.vectors.slice(),
      };
      edits.set(id, c);
    }
    return c;
  }

  private create(edits: Edits, owner: string, sessionId: string): Chunk {
    const e = emptyChunk(this.slots, this.dims);
    const { lastInsertRowid } = this.db
      .query(
        `INSERT INTO ${this.table} (owner, session_id, used, rowids, expires, agents, mags, vectors) VALUES (?, ?, 0, ?, ?, ?, ?, ?)`,
      )
      .run(owner, sessionId, e.rowids, e.expires, JSON.stringify(e.agents), e.mags, e.vectors);
    const c = { ...e, id: Number(lastInsertRowid) };
    edits.set(c.id, c);
    return c;
  }

  /** Writes each changed chunk once; an emptied one is zeroed in place first, then dropped. */
  private flush(edits: Edits): void {
    const write = this.db.query(
      `UPDATE ${this.table} SET used = ?, rowids = ?, expires = ?, agents = ?, mags = ?, vectors = ? WHERE chunk_id = ?`,
    );
    const drop = this.db.query(`DELETE FROM ${this.table} WHERE chunk_id = ?`);
    // A chunk spans overflow pages, and SQLite writes an updated row to new ones: the old pages, freed,
    // still hold the vectors. The connection runs with secure_delete = ON (connection.ts), which zeroes
    // every freed page (about one chunk's size more written per update).
    for (const c of edits.values()) {
      write.run(c.used, c.rowids, c.expires, JSON.stringify(c.agents), c.mags, c.vectors, c.id);
      if (c.used === 0) drop.run(c.id);
    }
  }
}
