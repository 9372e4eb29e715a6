// The memories table family (memories and their previous versions): rows and what services may ask
// of it. Every read a client asks for is scoped by user_id; callers own transactions.

/**
 * Whose rows a statement reads or writes: a user inside an organization (SPEC §8: org A's "alice" is not
 * org B's). A service's UserScope is one.
 */
export interface Owner {
  org: string;
  userId: string;
}

export const ownerOf = (row: { org_id: string; user_id: string }): Owner => ({ org: row.org_id, userId: row.user_id });

export interface MemoryRow {
  rowid: number;
  id: string;
  org_id: string;
  user_id: string;
  agent_id: string;
  session_id: string;
  memory: string;
  metadata: string;
  importance: number;
  source_type: string;
  expires_at: number | null;
  conversation_ref: string | null;
  immutable_ref: string | null;
  version: number;
  created_at: number;
  updated_at: number;
  /** The minimum retention this memory earned when written (SPEC §5.4, sticky); null: none. */
  retain_until: number | null;
  /** shared/text-key.ts of the text: finds exact duplicates. */
  text_key: number | null;
  /** Id of the newer memory that superseded this one (SPEC §11). */
  superseded_by: string | null;
  /** 1 when the memory states facts or superseded another (a delete then hands them on). */
  has_facts: number;
}

/** superseded_by may be left out when the page has only current memories (it is null in all of them). */
export type ListedRow = Pick<
  MemoryRow,
  "rowid" | "id" | "memory" | "metadata" | "agent_id" | "session_id" | "created_at" | "has_facts"
> &
  Partial<Pick<MemoryRow, "superseded_by">>;

/** `updated_at` defaults to `created_at` (an imported memory keeps both of its times). */
/** `text_key` and `has_facts` default to none (a memory stored without the duplicate check and facts). */
export type NewMemory = Omit<
  MemoryRow,
  "rowid" | "version" | "updated_at" | "superseded_by" | "text_key" | "has_facts"
> & {
  updated_at?: number;
  text_key?: number | null;
  has_facts?: number;
};

/**
 * A new memory's values for every engine's INSERT, in its column order: id, user_id, agent_id, session_id,
 * memory, metadata, importance, source_type, expires_at, conversation_ref, immutable_ref, created_at,
 * updated_at, retain_until, text_key, has_facts, org_id (version is always 1), with NewMemory's defaults applied.
 */
export const insertValues = (m: NewMemory) => [
  m.id,
  m.user_id,
  m.agent_id,
  m.session_id,
  m.memory,
  m.metadata,
  m.importance,
  m.source_type,
  m.expires_at,
  m.conversation_ref,
  m.immutable_ref,
  m.created_at,
  m.updated_at ?? m.created_at,
  m.retain_until,
  m.text_key ?? null,
  m.has_facts ?? 0,
  m.org_id,
];

/** A memory that another one superseded (directly or through others), with its previous versions. */
export interface Predecessor extends MemoryRow {
  /** Its previous versions, newest first. */
  versions: VersionRow[];
}

export interface VersionRow {
  version: number;
  memory: string;
  metadata: string;
  created_at: number;
}

export interface MemoryRepo {
  /** Stores the memory and indexes its text for keyword search; returns its rowid (never reused). */
  insert(m: NewMemory): Promise<number>;
  /** A visible (unexpired) memory of the user (of that agent, when given), or null. */
  get(owner: Owner, id: string, now: number, agentId?: string): Promise<MemoryRow | null>;
  /** Newest first; `after` is the (created_at, rowid) of the last row of the previous page. Superseded ones only when asked. */
  page(q: {
    org: string;
    userId: string;
    agentId?: string;
    now: number;
    limit: number;
    after?: [number, number];
    includeSuperseded?: boolean;
  }): Promise<ListedRow[]>;
  /** Visible memories, and the earliest expiry among them (when the count next changes without a write). */
  count(
    owner: Owner,
    now: number,
    agentId?: string,
    includeSuperseded?: boolean,
  ): Promise<{ n: number; nextExpiry: number | null }>;
  /** Current (visible, not superseded) memories of one user, agent and session with this text key. */
  sameText(q: {
    org: string;
    userId: string;
    agentId: string;
    sessionId: string;
    key: number;
    now: number;
  }): Promise<{ rowid: number; id: string; memory: string }[]>;
  /** Marks these memories of the user superseded by `by`, unless they already are; answers the ids marked. */
  supersede(owner: Owner, ids: readonly string[], by: string): Promise<string[]>;
  /** Marks a memory as stating facts or superseding others. */
  markFacts(rowid: number): Promise<void>;
  /** Sets a memory's text key (after its text changed). */
  setTextKey(rowid: number, key: number): Promise<void>;
  /** For each of these memories, the ids of the memories it superseded (only those that superseded some). */
  supersedes(owner: Owner, ids: readonly string[]): Promise<Map<string, string[]>>;
  /** The memories `id` superseded, directly or through others, with their versions; newest first. */
  predecessors(owner: Owner, id: string): Promise<Predecessor[]>;
  /** Keeps the current text as a previous version, then writes the new one. */
  /** `next.retain_until` is what this write earns; the memory keeps the later of it and what it had. */
  update(
    row: MemoryRow,
    next: {
      memory: string;
      metadata: string;
      importance: number;
      source_type: string;
      expires_at: number | null;
      retain_until: number | null;
    },
    now: number,
  ): Promise<void>;
  /** Previous versions, newest first. */
  versions(owner: Owner, id: string): Promise<VersionRow[]>;
  /** The memory spaces (agents) the user has memories in. */
  spacesOfUser(owner: Owner): Promise<string[]>;
  /**
   * Deletes the user's memories in one space (expired ones too) last written before `before` whose earned
   * retention is over at `now`; returns them.
   */
  deleteForUser(owner: Owner, agentId: string, before: number, now: number): Promise<{ rowid: number; id: string }[]>;
  /** Every memory of the user (of that agent, when given), expired ones included. */
  countForUser(owner: Owner, agentId?: string): Promise<number>;
  deleteByRowids(rowids: number[]): Promise<void>;
  /** Previous versions (enforcement's version limits). */
  deleteVersions(items: { memoryId: string; version: number }[]): Promise<void>;
  /**
   * After the user's erasure: forgets what the keyword index keeps of them (their owner number, once none
   * of their memories remain). True when their text was ever indexed (see Store.scrub).
   */
  forgetUser(owner: Owner): Promise<boolean>;
  /** The user's latest memory texts, any agent or session. */
  recentTexts(owner: Owner, n: number): Promise<string[]>;
  /** Every memory of every user. */
  total(): Promise<number>;
  /** Users with at least one memory. */
  users(): Promise<number>;
}
