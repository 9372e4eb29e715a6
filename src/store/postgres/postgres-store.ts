// The PostgreSQL store: a pool of Bun SQL connections (size by setting), the repositories over each
// transaction, and the transaction API of store.ts. Every transaction names its scope first — the user
// and organization row-level security lets it see ('*' = all) — and a write that meets a serialization
// failure or deadlock is run again. Other nodes' changes arrive by LISTEN/NOTIFY (changes.ts).
import type { Owner } from "../repos/memory-repo";
import type { Logger } from "~/shared/logger";
import { openPool, parsePgUrl, Pg, RETRYABLE, storeError, type Client, type PgTarget } from "./connection";
import { migratePostgres } from "./migrate";
import { ChangeFeed } from "./changes";
import { reposOf } from "./repos";
import type { Repos, Store, StoreScope, VectorErasures } from "../store";

export interface PostgresStoreOptions {
  /** STORE_URL: the role the app runs as (it should own nothing: row security then binds it). */
  url: string;
  /** The role that owns the schema and runs migrations; default: `url`'s. */
  migrationUrl?: string;
  /** Connections in the pool. */
  poolSize: number;
  /** This node's name in change notifications (application_name). */
  node?: string;
  /** ENGRAM_ORG_ID: where a migration puts rows stored before organizations existed. */
  homeOrg: string;
  logger: Logger;
}

const WRITE_ATTEMPTS = 4;

/** Deleting a memory deletes its vectors in the same statement (ON DELETE CASCADE): nothing waits. */
const NOTHING_PENDING: VectorErasures = { pending: 0, settled: async () => {} };

export class PostgresStore implements Store {
  readonly kind = "postgres" as const;
  readonly vectorIndex = "pgvector";
  readonly vectorErasures = NOTHING_PENDING;
  readonly changes: ChangeFeed;

  constructor(
    private readonly pool: Client,
    readonly target: PgTarget,
    readonly node: string,
    private readonly logger: Logger,
  ) {
    this.changes = new ChangeFeed(pool, target.schema, node, logger);
  }

  read<T>(fn: (r: Repos) => Promise<T>, scope: StoreScope = {}): Promise<T> {
    return this.transaction("read only", false, fn, scope);
  }

  async write<T>(fn: (tx: Repos) => Promise<T>, scope: StoreScope = {}): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.transaction("read write", true, fn, scope);
      } catch (e) {
        const errno = (e as { errno?: string }).errno;
        if (attempt >= WRITE_ATTEMPTS || !errno || !RETRYABLE.has(errno)) throw e;
        this.logger.debug("write transaction retried", { errno, attempt });
      }
    }
  }

  /** PostgreSQL commits concurrent transactions together by itself (its WAL): a grouped write is a write. */
  group<T>(fn: (tx: Repos) => Promise<T>, scope: StoreScope = {}): Promise<T> {
    return this.write(fn, scope);
  }

  /** The end of this node's queue of exclusive runs (every name): see exclusive. */
  private exclusiveTail: Promise<unknown> = Promise.resolve();

  /**
   * A session advisory lock on a connection of its own, named by schema and `name`, held while `fn` runs on
   * the rest of the pool: another node's run of the same name waits for it. A node that dies mid-run
   * loses its connection, and with it the lock. This node's runs (of any name) queue in the process first,
   * so at most one pooled connection waits on or holds a lock: however many callers wait, the run that
   * holds the lock always has a connection left to work with (the pool has at least two).
   */
  exclusive<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const run = this.exclusiveTail.then(() => this.locked(name, fn));
    this.exclusiveTail = run.catch(() => {});
    return run;
  }

  private async locked<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const key = `engram:${this.target.schema}:${name}`;
    const conn = await this.pool.reserve().catch((e) => Promise.reject(storeError(e)));
    try {
      await conn.unsafe("SELECT pg_advisory_lock(hashtext($1))", [key]);
    } catch (e) {
      conn.release();
      throw storeError(e);
    }
    try {
      return await fn();
    } finally {
      await conn.unsafe("SELECT pg_advisory_unlock(hashtext($1))", [key]).catch(() => {});
      conn.release();
    }
  }

  /** The user's memory change version (bumped by every change to their memories, on any node). */
  userChangeVersion(owner: Owner): Promise<number> {
    return this.changeVersion(owner);
  }

  async changeVersion(owner: Owner): Promise<number> {
    const r = await new Pg(this.pool).one<{ version: number }>(
      "SELECT version FROM memory_change_versions WHERE org_id = $1 AND user_id = $2",
      [owner.org, owner.userId],
    );
    return r?.version ?? 0;
  }

  /** Changes when another node changed something, or the notification connection was lost. */
  externalVersion(): number {
    return this.changes.version;
  }

  /** The database's size (pg_database_size): every table, index and TOAST of it. */
  async sizeBytes(): Promise<number> {
    return (await new Pg(this.pool).one<{ n: number }>("SELECT pg_database_size(current_database()) AS n"))!.n;
  }

  /** Its keyword index is a tsvector column of each row: no segments to merge, no upkeep to hold back. */
  serving(): void {}

  /** Search workers run on SQLite only (main.ts): the server never hands its checkpoints to any here. */
  leaveCheckpointsToWorkers(): void {}

  /**
   * Nothing to do in the transaction's wake: the erasure's rows are gone for every reader once it commits.
   * Their bytes stay in dead tuples until (auto)VACUUM reuses the space, and in the WAL and its archives as
   * long as the operator keeps them (docs/GOVERNANCE.md, "Erasure").
   */
  async scrub(_o: { keywordIndex: boolean }): Promise<void> {}

  /** Whether the database answers now. */
  async reachable(): Promise<boolean> {
    try {
      await new Pg(this.pool).run("SELECT 1");
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.changes.close();
    await this.pool.close({ timeout: 5 });
  }

  private async transaction<T>(
    mode: "read only" | "read write",
    writing: boolean,
    fn: (r: Repos) => Promise<T>,
    scope: StoreScope,
  ): Promise<T> {
    try {
      return await this.pool.begin(mode, async (tx) => {
        const pg = new Pg(tx);
        await pg.run("SELECT set_config('engram.org', $1, true), set_config('engram.user', $2, true)", [
          scope.org ?? "*",
          scope.user ?? "*",
        ]);
        return fn(reposOf(pg, writing));
      });
    } catch (e) {
      throw storeError(e);
    }
  }
}

/** Connects, migrates (as the migration role when given) and starts listening for other nodes' changes. */
export async function openPostgresStore(o: PostgresStoreOptions): Promise<PostgresStore> {
  const target = parsePgUrl(o.url);
  const node = o.node ?? `engram-${process.pid}-${crypto.randomUUID().slice(0, 8)}`;
  const owner = o.migrationUrl ? parsePgUrl(o.migrationUrl) : target;
  const ownerPool = o.migrationUrl ? openPool(owner, { max: 1, node }) : null;
  const pool = openPool(target, { max: o.poolSize, node });
  try {
    await refuseSuperuser(new Pg(pool));
    await migratePostgres(ownerPool ?? pool, {
      schema: target.schema,
      appRole: owner.user !== target.user ? target.user : null,
      homeOrg: o.homeOrg,
    });
    const store = new PostgresStore(pool, target, node, o.logger);
    await store.changes.start();
    return store;
  } catch (e) {
    await pool.close({ timeout: 0 });
    throw storeError(e);
  } finally {
    await ownerPool?.close({ timeout: 0 });
  }
}

/** Row-level security binds neither a superuser nor a BYPASSRLS role: Engram refuses to run as one. */
async function refuseSuperuser(pg: Pg): Promise<void> {
  const r = await pg.one<{ rolsuper: boolean; rolbypassrls: boolean; rolname: string }>(
    "SELECT rolname, rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user",
  );
  if (r && (r.rolsuper || r.rolbypassrls))
    throw new SuperuserError(
      `STORE_URL: the role '${r.rolname}' is a ${r.rolsuper ? "superuser" : "BYPASSRLS role"}, which row-level security does not bind; ` +
        "connect as a role that owns nothing (see docs/DEPLOY.md)",
    );
}

export class SuperuserError extends Error {}

/** What `engram doctor` says about a PostgreSQL store, found by connecting once (nothing is written). */
export async function probePostgres(url: string): Promise<{ writable: boolean; detail: string }> {
  const pool = openPool(parsePgUrl(url), { max: 1, node: "engram-doctor" });
  try {
    const pg = new Pg(pool);
    await refuseSuperuser(pg);
    const r = await pg.one<{ v: string; vector: string | null }>(
      "SELECT current_setting('server_version') AS v, (SELECT default_version FROM pg_available_extensions WHERE name = 'vector') AS vector",
    );
    if (!r?.vector)
      return { writable: false, detail: `PostgreSQL ${r?.v}: the vector extension (pgvector) is not installed` };
    return { writable: true, detail: `PostgreSQL ${r.v}, pgvector ${r.vector} available` };
  } catch (e) {
    return { writable: false, detail: (storeError(e) as Error).message };
  } finally {
    await pool.close({ timeout: 0 });
  }
}
