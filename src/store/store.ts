// The narrow interface services use: repositories, and one way to run them — read, write, or a
// grouped write for the add path. Engines implement it under store/<engine>/ (store/sqlite/ now);
// no driver type, connection or SQL leaves store/. Decisions: docs/ARCHITECTURE.md "The store".
import type { MemoryRepo } from "./repos/memory-repo";
import type { SearchRepo } from "./repos/search-repo";
import type { VectorRepo } from "./repos/vector-repo";
import type { ConversationRepo, ImmutableRepo, MutableRepo } from "./repos/layer-repos";
import type { SessionRepo } from "./repos/session-repo";
import type { GovernanceRepo } from "./repos/governance-repo";
import type { InventoryRepo, RetentionRepo } from "./repos/retention-repo";
import type { GraphRepo } from "./repos/graph-repo";

export interface Repos {
  memories: MemoryRepo;
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
}

/** The background erasure of deleted memories' vectors (an engine may erase some after the commit). */
export interface VectorErasures {
  /** Vectors still to be erased. */
  readonly pending: number;
  /** Resolves once nothing is left to erase. */
  settled(): Promise<void>;
  /** The current model is known (or known to be none): erasing may begin. */
  start(): void;
}

export interface Store {
  /** Runs reads; each sees every write committed before it. */
  read<T>(fn: (r: Repos) => T): T;
  /** Runs `fn` in one write transaction: all of it commits, or (it throws) none of it. */
  write<T>(fn: (tx: Repos) => T): T;
  /**
   * Like write, but `fn` may share its transaction with other grouped writes ready at the same time:
   * one that throws rolls back alone (unless its error ends the whole transaction, and then every write
   * of the group fails), and each caller is answered after the shared commit.
   */
  group<T>(fn: (tx: Repos) => T): Promise<T>;
  /** Bytes the store takes (SQLite: the main file's pages, free ones included; not the WAL). */
  sizeBytes(): number;
  /** Changes when another process commits to the same store: this process's caches drop everything then. */
  externalVersion(): number;
  readonly vectorErasures: VectorErasures;
  /** The vector index serving semantic search (SQLite: "sqlite-vec", or "portable" where it cannot load). */
  readonly vectorIndex: string;
  /** Finishes pending erasures, then closes. */
  close(): void;
}

export type { MemoryRow, ListedRow, NewMemory, VersionRow } from "./repos/memory-repo";
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
export type { ScopeKind, EnforcementLogRow, DeletionRequestRow, AuditRow } from "./repos/governance-repo";
export type {
  VersionInfo,
  ConversationInfo,
  MemoryInfo,
  ExpiredMemory,
  ImmutableInfo,
  MutableInfo,
} from "./repos/retention-repo";
export type { EntityRow, RelationshipRow, WalkRow, WalkDirection } from "./repos/graph-repo";
