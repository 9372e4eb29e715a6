// The SQLite end of a store copy. As a source: one read transaction over the store's connection. As a
// target: a fresh store file beside the named one, filled and verified in one transaction, then renamed
// over it — a failed or refused copy leaves the named file as it was.
import { existsSync, renameSync, rmSync } from "node:fs";
import type { Logger } from "~/shared/logger";
import type { Db } from "./connection";
import type { VectorColumns } from "../repos/vector-repo";
import { openSqliteStore, type SqliteStore } from "./sqlite-store";
import { reindexAll } from "./fts-repo";
import { indexOfTable, openVectorIndex } from "./vector-indexes";
import { modelHash } from "./vector-index";
import {
  pageSql,
  vectorRowsOf,
  TABLES,
  type Endpoint,
  type Row,
  type TableSpec,
  type TargetSide,
  type Vectors,
} from "../transfer-tables";

export interface SqliteEndpointOptions {
  nativeCacheDir: string;
  /** ENGRAM_ORG_ID, for a migration of a store made before organizations (copied rows keep their own). */
  homeOrg: string;
  logger: Logger;
}

class SqliteSide implements TargetSide {
  readonly oneModelPerMemory = true;
  private readonly columnsOf = new Map<string, Set<string>>();

  constructor(
    private readonly store: SqliteStore,
    private readonly targetWasEmpty = true,
  ) {}

  private get db(): Db {
    return this.store.db;
  }

  private has(table: string): Set<string> {
    let cols = this.columnsOf.get(table);
    if (!cols) {
      cols = new Set(
        this.db
          .query<{ name: string }, []>(`PRAGMA table_info(${table})`)
          .all()
          .map((c) => c.name),
      );
      this.columnsOf.set(table, cols);
    }
    return cols;
  }

  async rows(t: TableSpec, after: unknown[] | null, limit: number): Promise<Row[]> {
    const have = this.has(t.name);
    return this.db
      .query<Row, any[]>(
        pageSql(
          t,
          (c) => have.has(c),
          !!after,
          limit,
          () => "?",
        ),
      )
      .all(...((after ?? []) as any[]));
  }

  async models() {
    return this.db
      .query<{ model: string; count: number }, []>(
        `SELECT model, count(*) AS count FROM memory_embeddings WHERE memory_rowid IN (SELECT rowid FROM memories)
         GROUP BY model ORDER BY count DESC, model`,
      )
      .all();
  }

  async vectors(model: string): Promise<Vectors> {
    const out: Vectors = new Map();
    const marks = this.db
      .query<{ r: number }, [string]>(
        "SELECT memory_rowid AS r FROM memory_embeddings WHERE model = ? AND memory_rowid IN (SELECT rowid FROM memories)",
      )
      .all(model);
    for (const m of marks) out.set(m.r, null);
    const table = this.tableOf(model);
    if (table)
      for (const v of indexOfTable(this.db, model, table).vectors()) if (out.has(v.rowid)) out.set(v.rowid, v.vector);
    return out;
  }

  /** The table holding the model's vectors: the kind recorded for it, else whichever exists. */
  private tableOf(model: string): string | null {
    const hash = modelHash(model);
    const tables = this.db
      .query<{ name: string }, [string, string]>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND (name GLOB ? OR name GLOB ?)",
      )
      .all(`vec_${hash}_*`, `vecs_${hash}_*`)
      .map((r) => r.name)
      .filter((n) => /^vecs?_[0-9a-f]{12}_\d+(_c\d+)?(_org)?$/.test(n));
    const state = this.db.query("SELECT 1 FROM sqlite_master WHERE name = 'vector_index_state'").get()
      ? this.db.query<{ kind: string }, [string]>("SELECT kind FROM vector_index_state WHERE model = ?").get(model)
          ?.kind
      : undefined;
    const portable = (n: string) => n.startsWith("vecs_");
    return tables.find((n) => (state === "portable") === portable(n)) ?? tables[0] ?? null;
  }

  async unindexed(): Promise<number> {
    return this.db
      .query<{ n: number }, []>(
        "SELECT count(*) AS n FROM memories WHERE rowid NOT IN (SELECT rowid FROM memories_fts)",
      )
      .get()!.n;
  }

  async lastMemoryRowid(): Promise<number> {
    return this.db
      .query<{ n: number }, []>(
        "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'memories'), 0), coalesce((SELECT max(rowid) FROM memories), 0)) AS n",
      )
      .get()!.n;
  }

  async reserveMemoryRowids(last: number): Promise<void> {
    this.db.query("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'memories'").run(last);
    this.db.query("INSERT INTO sqlite_sequence (name, seq) SELECT 'memories', ? WHERE changes() = 0").run(last);
  }

  async isEmpty(): Promise<boolean> {
    return this.targetWasEmpty;
  }

  /** Nothing to delete: the copy goes to a fresh file that replaces the named one. */
  async clear(): Promise<void> {}

  async insert(t: TableSpec, rows: Row[]): Promise<void> {
    const have = this.has(t.name);
    const cols = t.columns.filter((c) => have.has(c));
    const ins = this.db.query(`INSERT INTO ${t.name} (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`);
    for (const r of rows) ins.run(...(cols.map((c) => r[c] ?? null) as any[]));
  }

  async finishRows(): Promise<void> {
    reindexAll(this.db);
  }

  async putVectors(model: string, dimensions: number, rows: [number, Float32Array | null][]): Promise<void> {
    const index = openVectorIndex(this.db, this.store.vectorIndex, model, dimensions);
    const memories = this.db
      .query<VectorColumns, []>(
        `SELECT rowid, org_id, user_id, agent_id, session_id, expires_at FROM memories WHERE rowid IN (${rows.map((r) => r[0]).join(",")})`,
      )
      .all();
    index.upsert(vectorRowsOf(memories, rows));
  }
}

async function isEmptyStore(path: string, o: SqliteEndpointOptions): Promise<boolean> {
  if (!existsSync(path)) return true;
  const store = await openSqliteStore({ path, nativeCacheDir: o.nativeCacheDir, homeOrg: o.homeOrg, logger: o.logger });
  try {
    const side = new SqliteSide(store);
    for (const t of TABLES) if ((await side.rows(t, null, 1)).length) return false;
    return !(await side.models()).length;
  } finally {
    await store.close();
  }
}

const removeFiles = (path: string) => {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(path + suffix, { force: true });
};

export function sqliteEndpoint(path: string, o: SqliteEndpointOptions): Endpoint {
  return {
    kind: "sqlite",
    label: `sqlite://${path}`,
    async read(fn) {
      if (!existsSync(path)) throw new Error(`no store at ${path}`);
      const store = await openSqliteStore({
        path,
        nativeCacheDir: o.nativeCacheDir,
        homeOrg: o.homeOrg,
        logger: o.logger,
      });
      try {
        store.db.run("BEGIN");
        try {
          return await fn(new SqliteSide(store));
        } finally {
          store.db.run("COMMIT");
        }
      } finally {
        await store.close();
      }
    },
    async write(fn) {
      const empty = await isEmptyStore(path, o);
      const temp = `${path}.migrating-${process.pid}`;
      removeFiles(temp);
      try {
        const store = await openSqliteStore({
          path: temp,
          nativeCacheDir: o.nativeCacheDir,
          homeOrg: o.homeOrg,
          logger: o.logger,
        });
        let value: Awaited<ReturnType<typeof fn>>;
        try {
          store.db.run("BEGIN IMMEDIATE");
          value = await fn(new SqliteSide(store, empty));
          store.db.run("COMMIT");
        } finally {
          if (store.db.inTransaction) store.db.run("ROLLBACK");
          await store.close();
        }
        // The old file's journal must not be replayed into the new one.
        removeFiles(path);
        renameSync(temp, path);
        return value;
      } finally {
        removeFiles(temp);
      }
    },
    async close() {},
  };
}
