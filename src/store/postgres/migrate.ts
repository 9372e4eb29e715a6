// Applies the PostgreSQL store's migrations: every pending one in one transaction, under an advisory
// lock of the schema so that nodes starting together migrate once (the others wait, then find nothing
// to do). Runs as the role that owns the schema; the app's role (when another) is granted the rows only.
import { Pg, quoteIdent, type Client } from "./connection";
import { PG_MIGRATIONS } from "./migrations";
import { withHomeOrg } from "../home-org";

export class MissingExtensionError extends Error {}

/**
 * Returns how many migrations were applied. `appRole`: the role STORE_URL logs in as, when not the owner;
 * `homeOrg`: ENGRAM_ORG_ID, the organization rows stored before organizations existed go to.
 */
export async function migratePostgres(
  owner: Client,
  o: { schema: string; appRole: string | null; homeOrg: string },
): Promise<number> {
  const schema = quoteIdent(o.schema);
  return await owner.begin(async (tx) => {
    const pg = new Pg(tx);
    await pg.run("SELECT pg_advisory_xact_lock(hashtext('engram.migrate.' || $1::text))", [o.schema]);
    await ensureVector(pg);
    if (!(await pg.one("SELECT 1 FROM pg_namespace WHERE nspname = $1", [o.schema])))
      await pg.run(`CREATE SCHEMA ${schema}`);
    await pg.run(`SET LOCAL search_path = ${schema}, public`);
    await pg.run("SELECT set_config('engram.user', '*', true), set_config('engram.org', '*', true)");
    await pg.run(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)",
    );
    const done = new Set(
      (await pg.all<{ version: number }>("SELECT version FROM schema_migrations")).map((r) => r.version),
    );
    let applied = 0;
    for (const m of PG_MIGRATIONS) {
      if (done.has(m.version)) continue;
      await tx.unsafe(withHomeOrg(m.sql, o.homeOrg)).simple();
      await pg.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)", [
        m.version,
        m.name,
        Date.now(),
      ]);
      applied++;
    }
    if (o.appRole) await grant(pg, schema, quoteIdent(o.appRole));
    return applied;
  });
}

async function ensureVector(pg: Pg): Promise<void> {
  if (await pg.one("SELECT 1 FROM pg_extension WHERE extname = 'vector'")) return;
  try {
    await pg.run("SAVEPOINT vector");
    await pg.run("CREATE EXTENSION vector");
    await pg.run("RELEASE SAVEPOINT vector");
  } catch (e) {
    throw new MissingExtensionError(
      `the PostgreSQL extension 'vector' (pgvector) is not installed in this database and this role cannot create it (${(e as Error).message}); ` +
        "as a superuser: CREATE EXTENSION vector",
    );
  }
}

/** The app's role reads and writes rows (row security still applies); it owns nothing and changes no table. */
async function grant(pg: Pg, schema: string, role: string): Promise<void> {
  await pg.run(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
  await pg.run(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${role}`);
  await pg.run(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${schema} TO ${role}`);
  await pg.run(`REVOKE INSERT, UPDATE, DELETE ON schema_migrations, store_secrets FROM ${role}`);
}
