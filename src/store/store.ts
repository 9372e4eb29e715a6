// The narrow interface services use: repositories, and one way to run them — read, write, or a
// grouped write for the add path. Engines implement it under store/<engine>/ (store/sqlite/ now);
// no driver type, connection or SQL leaves store/. Every repository call returns a Promise, so an
// engine with an asynchronous driver (PostgreSQL through Bun.sql) implements the same interface.
// Decisions: docs/ARCHITECTURE.md "The store".
import type { MemoryRepo, Owner } from "./repos/memory-repo";
import type { FactRepo } from "./repos/fact-repo";
import type { SearchRepo } from "./repos/search-repo";
import type { VectorRepo } from "./repos/vector-repo";
import type { ConversationRepo, ImmutableRepo, MutableRepo } from "./repos/layer-repos";
import type { SessionRepo } from "./repos/session-repo";
import type { GovernanceRepo } from "./repos/governance-repo";
import type { InventoryRepo, RetentionRepo } from "./repos/retention-repo";
import type { GraphRepo } from "./repos/graph-repo";
import type { KeyRepo } from "./repos/key-repo";
import type { RateLimitRepo } from "./repos/rate-limit-repo";
import type { SpaceRepo } from "./repos/space-repo";
import type { StoreScope } from "~/shared/store-scope";

export interface Repos {
  memories: MemoryRepo;
  facts: FactRepo;
  search: SearchRepo;
  vectors: VectorRepo;
  conversations: ConversationRepo;
  immutable: ImmutableRepo;
  mutable: MutableRepo;
  sessions: SessionRepo;
  governance: GovernanceRepo;
  retention: RetentionRepo;
  inventory: InventoryRepo;
  graph: GraphRepo;
  keys: KeyRepo;
  rateLimits: RateLimitRepo;
  spaces: SpaceRepo;
}

/** The background erasure of deleted memories' vectors (an engine may erase some after the commit). */
export interface VectorErasures {
  /** Vectors still to be erased. */
  readonly pending: number;
  /** Resolves once nothing is left to erase. */
  settled(): Promise<void>;
}

/**
 * A body run by the store. Inside it, use only the `Repos` it is given: a nested read or write of the
 * same store waits for this one to end (SQLite: one connection, one transaction at a time), so it
 * would never start.
 */
export type Body<T> = (r: Repos) => Promise<T>;

export interface Store {
  /** The engine: "sqlite" (embedded) or "postgres" (SPEC §9). */
  readonly kind: "sqlite" | "postgres";
  /** Whether the store answers now (SQLite, in this process: always; PostgreSQL: a round trip). */
  reachable(): Promise<boolean>;
  /** Runs reads; they see every write committed before the read began, and nothing uncommitted. */
  read<T>(fn: Body<T>, scope: StoreScope): Promise<T>;
  /** Runs `fn` in one write transaction: all of it commits, or (it throws) none of it. */
  write<T>(fn: Body<T>, scope: StoreScope): Promise<T>;
  /**
   * Like write, but `fn` may share its transaction with other grouped writes ready at the same time:
   * one that throws rolls back alone (unless its error ends the whole transaction, and then every write
   * of the group fails), and each caller is answered after the shared commit.
   */
  group<T>(fn: Body<T>, scope: StoreScope): Promise<T>;
  /**
   * Runs `fn` (which uses the store as usual) while no other run of the same `name` is under way on this
   * store, in any process sharing it: scheduled work (enforcement, session sweeps) runs on one node at a
   * time. A second caller waits, then runs (enforcement first checks whether a run it waited for already
   * did its work). SQLite: within this process. PostgreSQL: this node's runs of any name queue first.
   */
  exclusive<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /**
   * A request is being served that the store's own calls do not show (a search ranked on a worker's
   * connection): background upkeep waits until the store has served nothing for a while (SQLite: merging
   * the keyword index, store/sqlite/keyword-upkeep.ts). PostgreSQL has no such upkeep: nothing.
   */
  serving(): void;
  /** Bytes the store takes (SQLite: the main file's pages, free ones included, not the WAL; PostgreSQL: the database). */
  sizeBytes(): Promise<number>;
  /**
   * After a user's erasure, before it is answered: makes what it deleted unreadable in the store's files —
   * waits for the queued vector erasures, rewrites the keyword index without deleted entries when
   * `keywordIndex` (the user's text was indexed), and empties the WAL of earlier page images.
   */
  scrub(o: { keywordIndex: boolean }): Promise<void>;
  /**
   * Changes when another process commits to the same store: this process's caches drop everything
   * then. Synchronous: an engine keeps it current (SQLite reads its data_version counter).
   */
  externalVersion(): number;
  /**
   * The user's change counter, where another process's commit is not seen synchronously (PostgreSQL: the
   * notification of another node's write arrives after its commit). A cache asks it before answering
   * from memory, so a write acknowledged on any node is seen at once. Absent: externalVersion is exact.
   */
  userChangeVersion?(owner: Owner): Promise<number>;
  /**
   * The search workers copy the store's write-ahead log back into its file from now on (SQLite: each worker's
   * connection, rank-worker.ts): the server's commits stop doing it. PostgreSQL runs no search workers: nothing.
   */
  leaveCheckpointsToWorkers(): void;
  readonly vectorErasures: VectorErasures;
  /** The vector index serving semantic search (SQLite: "sqlite-vec", or "portable" where it cannot load). */
  readonly vectorIndex: string;
  /** Finishes pending erasures, then closes. */
  close(): Promise<void>;
}

export type { StoreScope } from "~/shared/store-scope";
export type { MemoryRow, ListedRow, NewMemory, Owner, VersionRow, Predecessor } from "./repos/memory-repo";
export type { FactRow, FactScope, NewFactRow } from "./repos/fact-repo";
export type { MemoryFilter, RankedRow, HitRow, SearchRepo } from "./repos/search-repo";
export type { VectorRow, VectorSpace } from "./repos/vector-repo";
export type {
  ConversationRow,
  MessageRow,
  ImmutableRow,
  ImmutableVersionRow,
  MutableRow,
  UserRecord,
  UserVersion,
} from "./repos/layer-repos";
export type { SessionRow, SessionScope } from "./repos/session-repo";
export type {
  ScopeKind,
  EnforcementLogRow,
  DeletionRequestRow,
  AuditRow,
  AuditPageQuery,
  StoredAuditRow,
} from "./repos/governance-repo";
export type {
  VersionInfo,
  ConversationInfo,
  MemoryInfo,
  ExpiredMemory,
  ImmutableInfo,
  MutableInfo,
} from "./repos/retention-repo";
export type { KeyRow, NewKey } from "./repos/key-repo";
export type { EntityRow, RelationshipRow, WalkRow, WalkDirection } from "./repos/graph-repo";
export type { RateLimitRepo, WindowCounts } from "./repos/rate-limit-repo";
export type { SpaceRepo, SpaceRow, SpaceMemberRow, SpaceRole } from "./repos/space-repo";
