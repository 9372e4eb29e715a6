// The PostgreSQL end of a store copy: one transaction on one connection, scoped to every user and
// organization (row-level security still applies; '*' lets the copy see all). A source is read in one
// REPEATABLE READ snapshot; a target is migrated first, filled and verified in one transaction that
// commits only when the copy compares equal. Writing rows with their own ids (OVERRIDING SYSTEM VALUE)
// and moving the identity counters past them needs the schema owner's role (STORE_MIGRATION_URL's).
import type { Logger } from "~/shared/logger";
import type { VectorColumns } from "../repos/vector-repo";
import { openPool, parsePgUrl, Pg, quoteIdent, storeError, type Client } from "./connection";
import { migratePostgres } from "./migrate";
import { PgVectorRepo } from "./vector-repo";
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

/** Bind parameters per INSERT statement (PostgreSQL allows 65,535). */
const PARAMS_PER_INSERT = 30_000;

class PostgresSide implements TargetSide {
  readonly oneModelPerMemory = false;
  private readonly columnsOf = new Map<string, Map<string, string>>();

  constructor(private readonly pg: Pg) {}

  /** Column → data type of one of our tables (in the store's schema, first on the search path). */
  private async has(table: string): Promise<Map<string, string>> {
    let cols = this.columnsOf.get(table);
    if (!cols) {
      const rows = await this.pg.all<{ column_name: string; data_type: string }>(
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1",
        [table],
      );
      cols = new Map(rows.map((r) => [r.column_name, r.data_type]));
      this.columnsOf.set(table, cols);
    }
    return cols;
  }

  async rows(t: TableSpec, after: unknown[] | null, limit: number): Promise<Row[]> {
    const have = await this.has(t.name);
    const rows = await this.pg.all<Row>(
      pageSql(
        t,
        (c) => have.has(c),
        !!after,
        limit,
        (i) => `$${i}`,
      ),
      after ?? [],
    );
    // The portable row says true/false as SQLite does: 1/0.
    for (const r of rows) for (const c of t.columns) if (typeof r[c] === "boolean") r[c] = r[c] ? 1 : 0;
    return rows;
  }

  models() {
    return this.pg.all<{ model: string; count: number }>(
      "SELECT model, count(*) AS count FROM memory_vectors GROUP BY model ORDER BY count DESC, model",
    );
  }

  async vectors(model: string): Promise<Vectors> {
    const rows = await this.pg.all<{ rowid: number; e: string | null }>(
      "SELECT memory_rowid AS rowid, embedding::text AS e FROM memory_vectors WHERE model = $1",
      [model],
    );
    return new Map(rows.map((r) => [r.rowid, r.e === null ? null : Float32Array.from(JSON.parse(r.e) as number[])]));
  }

  /** The keyword index is a generated column: counts rows whose stored vector is not the text's. */
  async unindexed(): Promise<number> {
    return (await this.pg.one<{ n: number }>(
      "SELECT count(*) AS n FROM memories WHERE fts IS DISTINCT FROM to_tsvector('english', memory)",
    ))!.n;
  }

  async lastMemoryRowid(): Promise<number> {
    const seq = (await this.pg.one<{ s: string }>("SELECT pg_get_serial_sequence('memories', 'rowid') AS s"))!.s;
    const r = await this.pg.one<{ n: number }>(
      `SELECT greatest(CASE WHEN is_called THEN last_value ELSE last_value - 1 END, coalesce((SELECT max(rowid) FROM memories), 0)) AS n FROM ${seq}`,
    );
    return r!.n;
  }

  async reserveMemoryRowids(last: number): Promise<void> {
    await this.pg.run(
      "SELECT setval(pg_get_serial_sequence('memories', 'rowid'), greatest($1::bigint, (SELECT coalesce(max(rowid), 0) FROM memories)) + 1, false)",
      [last],
    );
  }

  async isEmpty(): Promise<boolean> {
    for (const t of [...TABLES.map((x) => x.name), "memory_vectors"])
      if (await this.pg.one(`SELECT 1 FROM ${t} LIMIT 1`)) return false;
    return true;
  }

  async clear(): Promise<void> {
    const tables = [...TABLES.map((x) => x.name), "memory_vectors", "memory_change_versions"];
    await this.pg.run(`TRUNCATE ${tables.join(", ")} RESTART IDENTITY CASCADE`);
  }

  async insert(t: TableSpec, rows: Row[]): Promise<void> {
    const have = await this.has(t.name);
    const cols = t.columns.filter((c) => have.has(c));
    const bools = new Set(cols.filter((c) => have.get(c) === "boolean"));
    const per = Math.max(1, Math.floor(PARAMS_PER_INSERT / cols.length));
    for (let i = 0; i < rows.length; i += per) {
      const batch = rows.slice(i, i + per);
      const params: unknown[] = [];
      const values = batch.map((r) => {
        const slots = cols.map((c) => {
          const v = r[c] ?? null;
          params.push(bools.has(c) && v !== null ? !!v : v);
          return `$${params.length}`;
        });
        return `(${slots.join(", ")})`;
      });
      await this.pg.run(
        `INSERT INTO ${t.name} (${cols.join(", ")}) OVERRIDING SYSTEM VALUE VALUES ${values.join(", ")}`,
        params,
      );
    }
  }

  /** The identity counters (memories.rowid, graph_entities.node, audit_log.id) continue after the copied ids. */
  async finishRows(): Promise<void> {
    const identities = await this.pg.all<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'",
    );
    for (const { table_name: t, column_name: c } of identities)
      await this.pg.run(
        `SELECT setval(pg_get_serial_sequence($1, $2), coalesce((SELECT max(${quoteIdent(c)}) FROM ${quoteIdent(t)}), 0) + 1, false)`,
        [quoteIdent(t), c],
      );
  }

  async putVectors(model: string, _dimensions: number, rows: [number, Float32Array | null][]): Promise<void> {
    const memories = await this.pg.all<VectorColumns>(
      "SELECT rowid, org_id, user_id, agent_id, session_id, expires_at FROM memories WHERE rowid = ANY($1::bigint[])",
      [rows.map((r) => r[0])],
    );
    await new PgVectorRepo(this.pg).upsert({ model, key: model }, vectorRowsOf(memories, rows));
  }
}

const SCOPE_ALL = "SELECT set_config('engram.user', '*', true), set_config('engram.org', '*', true)";

/** `homeOrg`: ENGRAM_ORG_ID, for a migration of a store made before organizations (copied rows keep their own). */
export function postgresEndpoint(url: string, o: { homeOrg: string; logger: Logger }): Endpoint {
  const target = parsePgUrl(url);
  const pool: Client = openPool(target, { max: 1, node: `engram-migrate-store-${process.pid}` });
  const u = new URL(url);
  u.password = "";
  const run = async <T>(mode: string, fn: (side: PostgresSide) => Promise<T>): Promise<T> => {
    try {
      return await pool.begin(mode, async (tx) => {
        const pg = new Pg(tx);
        await pg.run(SCOPE_ALL);
        return fn(new PostgresSide(pg));
      });
    } catch (e) {
      throw storeError(e);
    }
  };
  return {
    kind: "postgres",
    label: u.toString(),
    read: (fn) => run("isolation level repeatable read read only", fn),
    async write(fn) {
      try {
        await migratePostgres(pool, { schema: target.schema, appRole: null, homeOrg: o.homeOrg });
      } catch (e) {
        throw storeError(e);
      }
      return run("read write", fn);
    },
    close: () => pool.close({ timeout: 5 }),
  };
}
