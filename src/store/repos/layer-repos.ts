// The data layers besides memories (SPEC §5.1): conversations with their append-only messages,
// immutable records with every version, mutable keys. Deleting is here once, for every caller
// (the API, enforcement, a user's erasure). A user's conversations are found by organization and user;
// an immutable record or a mutable key is found by its organization and its key.
import type { Owner } from "./memory-repo";

export interface ConversationRow {
  id: string;
  org_id: string;
  user_id: string;
  memory_space_id: string;
  session_id: string | null;
  message_count: number;
  bytes: number;
  created_at: number;
  last_message_at: number;
  archived_at: number | null;
  /** The minimum retention earned by its messages (SPEC §5.4, sticky); null: none. */
  retain_until: number | null;
}

export interface MessageRow {
  role: string;
  content: string;
  timestamp: number;
}

export interface ConversationRepo {
  create(c: {
    id: string;
    org: string;
    userId: string;
    spaceId: string;
    sessionId: string | null;
    now: number;
    retainUntil: number | null;
  }): Promise<void>;
  /** `retainUntil`: what these messages earn; the conversation keeps the later of it and what it had. */
  append(
    id: string,
    messages: { role: string; content: string }[],
    now: number,
    retainUntil: number | null,
  ): Promise<void>;
  get(owner: Owner, id: string): Promise<ConversationRow | null>;
  messages(id: string): Promise<MessageRow[]>;
  /** Newest first; `after` is the (created_at, id) of the last row of the previous page. */
  page(owner: Owner, limit: number, after?: [number, string]): Promise<ConversationRow[]>;
  count(owner: Owner): Promise<number>;
  /** Every conversation of the user, with its space, last message time and earned retention (erasure). */
  ofUser(owner: Owner): Promise<{ id: string; space: string; lastMessageAt: number; retainUntil: number | null }[]>;
  archive(ids: string[], now: number): Promise<void>;
  delete(ids: string[]): Promise<void>;
}

export interface ImmutableRow {
  type: string;
  id: string;
  organization_id: string;
  user_id: string | null;
  current_version: number;
  created_at: number;
  updated_at: number;
  accessed_at: number;
}

export interface ImmutableVersionRow {
  version: number;
  data: string;
  metadata: string;
  created_at: number;
  /** Who wrote this version (each version has its own author). */
  user_id: string | null;
}

/** A version of a record written by a given user, for erasure. */
export interface UserVersion {
  type: string;
  id: string;
  version: number;
  org: string;
  createdAt: number;
  retainUntil: number | null;
}

/** A mutable key of an organization that carries a user_id, for erasure. */
export interface UserRecord {
  /** (namespace, key). */
  key: [string, string];
  org: string;
  updatedAt: number;
  /** The minimum retention it earned (SPEC §5.4); null: none. */
  retainUntil: number | null;
}

export interface ImmutableRepo {
  head(orgId: string, type: string, id: string): Promise<ImmutableRow | null>;
  /** Appends a version (creating the record on first write) and returns its number. */
  put(r: {
    orgId: string;
    type: string;
    id: string;
    userId: string | null;
    data: string;
    metadata: string;
    now: number;
    /** What this version earns (SPEC §5.4). */
    retainUntil: number | null;
  }): Promise<number>;
  version(orgId: string, type: string, id: string, version: number): Promise<ImmutableVersionRow | null>;
  /** Newest first. */
  versions(orgId: string, type: string, id: string): Promise<ImmutableVersionRow[]>;
  touch(orgId: string, type: string, id: string, now: number): Promise<void>;
  /** Every version the user wrote, in any record (erasure). */
  versionsOfUser(owner: Owner): Promise<UserVersion[]>;
  deleteVersions(orgId: string, items: { type: string; id: string; version: number }[]): Promise<void>;
  /**
   * Erases these versions; a record left with none goes, any other then reads as its newest remaining
   * version (current version, author and update time follow it).
   */
  eraseVersions(orgId: string, items: { type: string; id: string; version: number }[]): Promise<void>;
  /** Records with all their versions. */
  delete(orgId: string, items: { type: string; id: string }[]): Promise<void>;
}

export interface MutableRow {
  namespace: string;
  key: string;
  organization_id: string;
  user_id: string | null;
  value: string;
  created_at: number;
  updated_at: number;
  accessed_at: number;
  expires_at: number | null;
  /** The minimum retention earned by its writes (SPEC §5.4, sticky); null: none. */
  retain_until: number | null;
}

export interface MutableRepo {
  /** Inserts or replaces the value; returns the row as stored. */
  put(r: {
    orgId: string;
    namespace: string;
    key: string;
    userId: string | null;
    value: string;
    expiresAt: number | null;
    now: number;
    /** What this write earns; the key keeps the later of it and what it had. */
    retainUntil: number | null;
  }): Promise<MutableRow>;
  /** A live (unexpired) entry of the organization, or null. */
  get(orgId: string, namespace: string, key: string, now: number): Promise<MutableRow | null>;
  touch(orgId: string, namespace: string, key: string, now: number): Promise<void>;
  /** Deletes a live entry of the organization; false when there is none. */
  deleteLive(orgId: string, namespace: string, key: string, now: number): Promise<boolean>;
  ofUser(owner: Owner): Promise<UserRecord[]>;
  delete(orgId: string, items: { namespace: string; key: string }[]): Promise<void>;
}
