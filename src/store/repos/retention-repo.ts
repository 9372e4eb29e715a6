// What retention enforcement and compliance reports read: bounded batches per layer, paged by key so
// memory stays bounded whatever a layer's size, and the counts of an inventory. Sizes in bytes count
// a fixed overhead per row on top of the text, so storageFreed is not zero for tiny records.

export interface VersionInfo {
  version: number;
  createdAt: number;
  bytes: number;
  /** The minimum retention it earned when written (SPEC §5.4); null: none. */
  retainUntil: number | null;
  /** Newest first across a fact's memories (set when the memory superseded others): higher is newer. */
  order?: number;
  /** A version of an older memory the item superseded (SPEC §11); `whole`: that memory's current text. */
  of?: SupersededRef;
}

/** A superseded memory, as retention deletes it. */
export interface SupersededRef {
  memoryId: string;
  rowid: number;
  /** The memory's organization and user (SPEC §8). */
  org: string;
  userId: string;
  whole: boolean;
}

export interface ConversationInfo {
  id: string;
  createdAt: number;
  lastMessageAt: number;
  archivedAt: number | null;
  bytes: number;
  retainUntil: number | null;
}

export interface MemoryInfo {
  rowid: number;
  id: string;
  org: string;
  userId: string;
  importance: number;
  sourceType: string;
  createdAt: number;
  conversationRef: string | null;
  conversationRefExists: boolean;
  immutableRef: string | null;
  immutableRefExists: boolean;
  /** Temporary memories only: when they stop being visible. */
  expiresAt: number | null;
  versions: VersionInfo[];
}

export interface ExpiredMemory {
  rowid: number;
  id: string;
  org: string;
  userId: string;
  updatedAt: number;
  expiresAt: number;
  /** The memory and all its versions. */
  bytes: number;
  retainUntil: number | null;
}

export interface ImmutableInfo {
  type: string;
  id: string;
  createdAt: number;
  lastUsedAt: number;
  versions: VersionInfo[];
}

export interface MutableInfo {
  namespace: string;
  key: string;
  createdAt: number;
  updatedAt: number;
  accessedAt: number;
  expiresAt: number | null;
  bytes: number;
  retainUntil: number | null;
}

export interface RetentionRepo {
  conversations(org: string, spaceId: string, afterId: string, limit: number): Promise<ConversationInfo[]>;
  /**
   * A space's current memories in rowid order, with their previous versions (and those of the memories they
   * superseded, which count as older versions of the same fact) and whether their references exist.
   */
  memories(org: string, spaceId: string, afterRowid: number, limit: number): Promise<MemoryInfo[]>;
  /** Temporary memories of the space past their expiry, in rowid order. */
  expiredMemories(
    org: string,
    spaceId: string,
    now: number,
    afterRowid: number,
    limit: number,
  ): Promise<ExpiredMemory[]>;
  immutable(orgId: string, after: [string, string], limit: number): Promise<ImmutableInfo[]>;
  mutable(orgId: string, after: [string, string], limit: number): Promise<MutableInfo[]>;
}

/** Counts and oldest timestamps for compliance reports, over a set of spaces and one organization. */
export interface InventoryRepo {
  conversations(org: string, spaceIds: string[]): Promise<number>;
  memories(org: string, spaceIds: string[]): Promise<number>;
  immutable(orgId: string): Promise<{ entities: number; versions: number }>;
  mutable(orgId: string): Promise<number>;
  oldest(org: string, spaceIds: string[], orgRecords: boolean): Promise<number | null>;
  /** Organizations that hold data: memories, conversations, immutable or mutable records, registered spaces. */
  organizations(): Promise<string[]>;
}
