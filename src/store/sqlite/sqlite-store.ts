// The SQLite store: one connection (the server's, or a search worker's read-only one), the
// repositories over it, and the transaction API of store.ts — every body in a turn of its own
// (turns.ts); a write is one IMMEDIATE transaction (the write lock up front, so no upgrade
// deadlocks); a grouped write goes through the group commit.
import { existsSync } from "node:fs";
import type { Logger } from "~/shared/logger";
import type { Body, Repos, Store } from "../store";
import {
  openDb,
  PAGE_CACHE_MB,
  storeError,
  useSqliteLibrary,
  vectorSupport,
  type Db,
  type OpenOptions,
} from "./connection";
import { migrate } from "./migrate";
import { openStoreFile } from "./store-file";
import { BatchTail, GroupCommit } from "./group-commit";
import { ExternalVersion } from "./external-version";
import { Turns } from "./turns";
import { SqliteMemoryRepo } from "./memory-repo";
import { SqliteFactRepo } from "./fact-repo";
import { SqliteSearchRepo } from "./search-repo";
import { SqliteVectorRepo } from "./vector-repo";
import { VectorErasure } from "./vector-erasure";
import { SqliteConversationRepo } from "./conversation-repo";
import { SqliteImmutableRepo } from "./immutable-repo";
import { SqliteMutableRepo } from "./mutable-repo";
import { SqliteSessionRepo } from "./session-repo";
import { SqliteGovernanceRepo } from "./governance-repo";
import { SqliteInventoryRepo, SqliteRetentionRepo } from "./retention-repo";
import { SqliteRateLimitRepo } from "./rate-limit-repo";
import { SqliteSpaceRepo } from "./space-repo";
import { SqliteGraphRepo } from "./graph-repo";
import type { VectorIndexKind } from "./platform";
import { SqliteKeyRepo } from "./key-repo";
import { KEYWORD_UPKEEP, KeywordUpkeep, type KeywordUpkeepOptions } from "./keyword-upkeep";

export { PAGE_CACHE_MB };

/** How often a search worker checkpoints the WAL (SqliteStore.leaveCheckpointsToWorkers). */
export const CHECKPOINT_MS = 1000;
/** WAL pages past which the server's commits checkpoint after all (SQLite's default: 1,000). */
const CHECKPOINT_BACKSTOP = 10_000;

export interface SqliteStoreOptions {
  /** A file path or ":memory:". */
  path: string;
  /** Where sqlite-vec's library is unpacked. */
  nativeCacheDir: string;
  /** ENGRAM_VECTOR_INDEX (default auto: sqlite-vec where it loads, else the portable index). */
  vectorIndex?: OpenOptions["vectorIndex"];
  /** ENGRAM_SQLITE_LIB: macOS, a SQLite library that loads extensions. */
  sqliteLib?: string;
  /** Page cache of this connection (PAGE_CACHE_MB). */
  cacheMb?: number;
  /** A search worker's connection: the store must exist already; never migrated, never written. */
  readOnly?: boolean;
  /** ENGRAM_ORG_ID: where a migration puts rows stored before organizations existed; required unless read-only. */
  homeOrg?: string;
  logger: Logger;
  /** When and how the keyword index is merged (keyword-upkeep.ts); false: never. A read-only connection never is. */
  keywordUpkeep?: KeywordUpkeepOptions | false;
}

export class SqliteStore implements Store {
  readonly kind = "sqlite" as const;
  readonly vectorErasures: VectorErasure;
  private readonly repos: Repos;
  private readonly turns = new Turns();
  private readonly exclusiveRuns = new Map<string, Promise<void>>();
  private readonly commits: GroupCommit;
  /** Which vector index serves: sqlite-vec where this connection loaded it, else the portable one. */
  readonly vectorIndex: VectorIndexKind;
  /** Merges the keyword index once writes go quiet; null on a read-only connection or when turned off. */
  readonly keywordUpkeep: KeywordUpkeep | null;

  /** `db`: for the store's own tests and diagnostics only; nothing outside store/ sees it. */
  constructor(
    readonly db: Db,
    private readonly logger: Logger,
    upkeep: KeywordUpkeepOptions | false = KEYWORD_UPKEEP,
  ) {
    this.vectorIndex = vectorSupport(db).index;
    const committed = () => this.external.committed();
    const writable = !db.query<{ query_only: number }, []>("PRAGMA query_only").get()!.query_only;
    const keywords = writable && upkeep ? new KeywordUpkeep(db, this.turns, upkeep, logger, committed) : null;
    this.keywordUpkeep = keywords;
    const tail = new BatchTail((entries) => keywords?.batchIndexed(entries));
    this.commits = new GroupCommit(db, this.turns, tail, committed);
    this.vectorErasures = new VectorErasure(db, this.turns, logger, this.vectorIndex, writable);
    this.repos = {
      memories: new SqliteMemoryRepo(db, this.commits.tail, () => keywords?.indexed()),
      facts: new SqliteFactRepo(db),
      search: new SqliteSearchRepo(db),
      vectors: new SqliteVectorRepo(db, this.vectorIndex, this.vectorErasures, logger),
      conversations: new SqliteConversationRepo(db),
      immutable: new SqliteImmutableRepo(db),
      mutable: new SqliteMutableRepo(db),
      sessions: new SqliteSessionRepo(db),
      governance: new SqliteGovernanceRepo(db),
      retention: new SqliteRetentionRepo(db),
      inventory: new SqliteInventoryRepo(db),
      graph: new SqliteGraphRepo(db),
      keys: new SqliteKeyRepo(db),
      rateLimits: new SqliteRateLimitRepo(db),
      spaces: new SqliteSpaceRepo(db),
    };
  }

  read<T>(fn: Body<T>): Promise<T> {
    this.keywordUpkeep?.used();
    return this.turns.run(() =>
      this.external.known() || this.db.inTransaction ? fn(this.repos) : this.readNotingVersion(fn),
    );
  }

  /**
   * The turn's first read: its first statement (what the body runs before its first await) and data_version
   * share one read transaction, so the version the caches ask for next costs no file lock and unlock of its
   * own (2-5 µs of a get). The transaction ends before the body's first await: nothing holds it across turns.
   */
  private readNotingVersion<T>(fn: Body<T>): Promise<T> {
    this.db.query("BEGIN").run();
    try {
      const body = fn(this.repos);
      this.external.remember(this.dataVersion());
      return body;
    } finally {
      this.db.query("COMMIT").run();
    }
  }

  write<T>(fn: Body<T>): Promise<T> {
    this.keywordUpkeep?.used();
    return this.turns.run(async () => {
      this.db.run("BEGIN IMMEDIATE");
      try {
        const value = await fn(this.repos);
        this.db.run("COMMIT");
        this.external.committed();
        return value;
      } catch (e) {
        if (this.db.inTransaction) this.db.run("ROLLBACK");
        throw storeError(e);
      }
    });
  }

  group<T>(fn: Body<T>): Promise<T> {
    this.keywordUpkeep?.used();
    return this.commits.run(() => fn(this.repos));
  }

  /** Searches rank on the workers' connections: the keyword index merge waits for these too. */
  serving(): void {
    this.keywordUpkeep?.used();
  }

  /**
   * The search workers checkpoint (`checkpoint`, every CHECKPOINT_MS): the server's commits no longer do. SQLite
   * checkpoints at the commit that takes the WAL past 1,000 pages, and under searches the WAL rarely starts
   * over (a reader is nearly always in it), so nearly every commit of the server thread copied its pages into
   * the file and waited for two fsyncs: at 100k memories the audit log's flush, four times a second, took
   * ~50 µs of the server thread per search, ~10 µs of it CPU. Past CHECKPOINT_BACKSTOP pages (no worker
   * running, say) the server's commits checkpoint again.
   */
  leaveCheckpointsToWorkers(): void {
    this.db.run(`PRAGMA wal_autocheckpoint = ${CHECKPOINT_BACKSTOP}`);
  }

  /** Copies what the WAL holds beyond the oldest reader's view into the file (never waits for readers or a writer). */
  checkpoint(): Promise<{ frames: number; copied: number }> {
    return this.turns.run(() => {
      const r = this.db.query<{ log: number; checkpointed: number }, []>("PRAGMA wal_checkpoint(PASSIVE)").get()!;
      // -1 and -1: no WAL (a memory database).
      return { frames: Math.max(0, r.log), copied: Math.max(0, r.checkpointed) };
    });
  }

  private readonly dataVersion = () =>
    this.db.query<{ data_version: number }, []>("PRAGMA data_version").get()!.data_version;
  private readonly external = new ExternalVersion(this.dataVersion);

  /** One process writes a SQLite file at a time in practice (the server): a queue per name in this process. */
  exclusive<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const run = (this.exclusiveRuns.get(name) ?? Promise.resolve()).then(fn, fn);
    this.exclusiveRuns.set(name, run.then(noop, noop));
    return run;
  }

  async sizeBytes(): Promise<number> {
    const page = (p: "page_count" | "page_size") => (this.db.query(`PRAGMA ${p}`).get() as Record<string, number>)[p]!;
    return page("page_count") * page("page_size");
  }

  async scrub(o: { keywordIndex: boolean }): Promise<void> {
    await this.vectorErasures.settled();
    // A contentless_delete FTS5 index only marks deleted rows (tombstones); their terms stay in the
    // segments until a merge rewrites them. 'optimize' merges every segment into one, dropping them;
    // secure_delete zeroes the pages it frees. It costs a rewrite of the whole index (docs/ARCHITECTURE.md).
    if (o.keywordIndex)
      await this.write(async () => {
        this.db.run("INSERT INTO memories_fts (memories_fts) VALUES ('optimize')");
      });
    // In a turn of its own: no transaction of this connection is open across it.
    await this.turns.run(() => this.emptyWal());
  }

  /**
   * Checkpoints every WAL frame into the database and truncates the WAL to nothing, so no earlier image
   * of a page is left in it. A reader of another connection (a search worker) delays it by at most
   * busy_timeout per try; each try that cannot finish is retried.
   */
  private emptyWal(): void {
    for (let attempt = 1; ; attempt++) {
      const r = this.db.query<{ busy: number }, []>("PRAGMA wal_checkpoint(TRUNCATE)").get();
      if (!r?.busy) return;
      if (attempt === 5) {
        this.logger.warn("the WAL could not be emptied after an erasure: a reader held it", { attempts: attempt });
        return;
      }
    }
  }

  /** SQLite's data_version: changes when another connection commits to the same file (external-version.ts). */
  externalVersion(): number {
    return this.external.get();
  }

  /** The file is open in this process: it answers whenever this process does. */
  async reachable(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    await this.keywordUpkeep?.close();
    await this.vectorErasures.finish();
    await this.turns.run(() => this.db.close());
  }
}

/** Opens (creating and migrating, unless read-only) the store at `o.path`. */
export async function openSqliteStore(o: SqliteStoreOptions): Promise<SqliteStore> {
  // A worker never makes a store: the server created and migrated it.
  if (o.readOnly && !existsSync(o.path)) throw new Error(`no store at ${o.path}`);
  // Before the file is looked at (store-file.ts peeks with a connection of its own).
  useSqliteLibrary(o.sqliteLib);
  const opts = {
    nativeCacheDir: o.nativeCacheDir,
    cacheMb: o.cacheMb,
    vectorIndex: o.vectorIndex,
    sqliteLib: o.sqliteLib,
  };
  // The server's connection checks the file first (store-file.ts); a worker's opens what the server checked.
  const db = o.readOnly ? await openDb(o.path, opts) : await openStoreFile(o.path, opts);
  if (o.readOnly) {
    // Belt and braces: ranking never writes, and this connection never could.
    db.run("PRAGMA query_only = ON");
  } else {
    if (o.homeOrg === undefined)
      throw new Error("a store opened for writing needs its home organization (ENGRAM_ORG_ID)");
    migrate(db, o.homeOrg);
  }
  return new SqliteStore(db, o.logger, o.keywordUpkeep);
}

const noop = () => {};
