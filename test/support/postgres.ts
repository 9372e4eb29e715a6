// PostgreSQL for tests: one throwaway server per `bun test` run (scripts/postgres-server.ts; started on
// first use, stopped and removed by its watchdog when the run's process ends), one database in it, and a
// schema of its own for every store a test opens. Where PostgreSQL or pgvector is not installed,
// `postgresSkip` says why and the suites that need it skip with that reason.
import { SQL } from "bun";
import { postgresUnavailable, startPostgres, type PgDatabase, type PgServer } from "../../scripts/postgres-server";
import { PG_MIGRATIONS } from "~/store/postgres/migrations";
import { withHomeOrg } from "~/store/home-org";
import { HOME_ORG } from "./store";
import { openPostgresStore, type PostgresStore } from "~/store/postgres/postgres-store";
import { silentLogger } from "~/shared/logger";

/** Why PostgreSQL tests cannot run here, or null. */
export const postgresSkip: string | null = postgresUnavailable();

let started: Promise<{ server: PgServer; db: PgDatabase; admin: SQL }> | null = null;
let schemas = 0;

/** The run's server and database, started on first call. */
export function testPostgres(): Promise<{ server: PgServer; db: PgDatabase; admin: SQL }> {
  if (postgresSkip) throw new Error(`PostgreSQL tests cannot run: ${postgresSkip}`);
  started ??= (async () => {
    const server = await startPostgres();
    const db = await server.createDatabase("engram_test");
    const admin = new SQL(server.adminUrl.replace(/\/postgres$/, `/${db.name}`), { max: 2 });
    return { server, db, admin };
  })();
  return started;
}

export interface TestSchema {
  /** STORE_URL: the app's role, which owns nothing (row-level security binds it). */
  url: string;
  /** The owner's URL: runs the migrations. */
  migrationUrl: string;
  schema: string;
  drop(): Promise<void>;
}

/** A schema no other store uses (empty: the store's migrations create its tables). */
export async function freshSchema(tag = "t"): Promise<TestSchema> {
  const { db, admin } = await testPostgres();
  const schema = `${tag.replace(/[^a-z0-9_]/g, "_")}_${process.pid}_${++schemas}`;
  return {
    url: `${db.url}?schema=${schema}`,
    migrationUrl: `${db.ownerUrl}?schema=${schema}`,
    schema,
    drop: () => admin.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).then(() => {}),
  };
}

/**
 * Makes `s` the schema as the release before migration `version` left it (every migration before it, in
 * order), then runs `rows` in it (statements, or a statement and its parameters) with every organization
 * and user visible: a store to migrate in a test.
 */
export async function schemaBefore(s: TestSchema, version: number, rows: (string | [string, unknown[]])[]) {
  const { db } = await testPostgres();
  const owner = new SQL(db.ownerUrl, { max: 1 });
  try {
    await owner.begin(async (tx) => {
      await tx.unsafe(`CREATE SCHEMA ${s.schema}`);
      await tx.unsafe(`SET LOCAL search_path = ${s.schema}, public`);
      await tx.unsafe("SELECT set_config('engram.user', '*', true), set_config('engram.org', '*', true)");
      await tx.unsafe(
        "CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)",
      );
      for (const m of PG_MIGRATIONS.filter((m) => m.version < version)) {
        await tx.unsafe(withHomeOrg(m.sql, HOME_ORG)).simple();
        await tx.unsafe("INSERT INTO schema_migrations VALUES ($1, $2, 0)", [m.version, m.name]);
      }
      for (const row of rows) await (typeof row === "string" ? tx.unsafe(row) : tx.unsafe(row[0], row[1]));
    });
  } finally {
    await owner.close();
  }
}

/** The store on `schema` (opening it runs the migrations not applied there yet). */
function storeOn(schema: TestSchema, o: { homeOrg?: string; poolSize?: number } = {}): Promise<PostgresStore> {
  return openPostgresStore({
    url: schema.url,
    migrationUrl: schema.migrationUrl,
    poolSize: o.poolSize ?? 2,
    homeOrg: o.homeOrg ?? HOME_ORG,
    logger: silentLogger(),
  });
}

/** A store in a fresh schema of its own; `close` closes it and drops the schema. */
export async function freshStore(
  tag: string,
  poolSize = 2,
): Promise<{ schema: TestSchema; store: PostgresStore; close(): Promise<void> }> {
  const schema = await freshSchema(tag);
  const store = await storeOn(schema, { poolSize });
  return { schema, store, close: async () => (await store.close(), await schema.drop()) };
}

export interface MigratedStore {
  schema: TestSchema;
  /** The store opened on it, which ran the migrations from `version` on. */
  store: PostgresStore;
  /** `sql` as the app's role, in a transaction scoped to `org` and `user` ('*': every one). */
  scoped(org: string, user: string, sql: string): Promise<any[]>;
  close(): Promise<void>;
}

/**
 * A store the release before migration `version` left holding `rows`, opened (and so migrated) now, with
 * `homeOrg` as its ENGRAM_ORG_ID.
 */
export async function migratedFrom(
  tag: string,
  version: number,
  rows: (string | [string, unknown[]])[],
  homeOrg = HOME_ORG,
): Promise<MigratedStore> {
  const schema = await freshSchema(tag);
  await schemaBefore(schema, version, rows);
  const store = await storeOn(schema, { homeOrg });
  const app = new SQL(schema.url.replace(/\?schema=.*/, ""), { max: 1 });
  return {
    schema,
    store,
    scoped: (org, user, sql) =>
      app.begin(async (tx) => {
        await tx.unsafe(`SET LOCAL search_path = ${schema.schema}, public`);
        await tx.unsafe("SELECT set_config('engram.org', $1, true), set_config('engram.user', $2, true)", [org, user]);
        return tx.unsafe(sql);
      }),
    close: async () => {
      await app.close();
      await store.close();
      await schema.drop();
    },
  };
}
