// Shared spaces of an organization (SPEC §8 "Org-wide shared memory") and their members. Every query
// names the organization: a space id means something only inside its organization.

export type SpaceRole = "writer" | "reader";

export interface SpaceRow {
  org_id: string;
  id: string;
  name: string;
  created_at: number;
  /** Who created it: the principal's user, or null for an admin key bound to no user. */
  created_by: string | null;
}

export interface SpaceMemberRow {
  user_id: string;
  role: SpaceRole;
}

export interface SpaceRepo {
  /** Stores a new space and its members; false (nothing written) when the organization has one of that id. */
  insert(space: SpaceRow, members: readonly SpaceMemberRow[]): Promise<boolean>;
  get(org: string, id: string): Promise<SpaceRow | null>;
  /** The organization's spaces by id; with `member`, only those that user belongs to. */
  list(org: string, member?: string): Promise<SpaceRow[]>;
  /** A space's members, by user id. */
  members(org: string, id: string): Promise<SpaceMemberRow[]>;
  /** Whether the space exists, and the user's role in it (null: not a member). */
  roleOf(org: string, id: string, userId: string): Promise<{ exists: boolean; role: SpaceRole | null }>;
  /** Replaces a space's members. */
  setMembers(org: string, id: string, members: readonly SpaceMemberRow[]): Promise<void>;
  /** Removes the space and its members; false when there was none. */
  delete(org: string, id: string): Promise<boolean>;
  /**
   * After a user's erasure: the memories of the organization's spaces (and their previous versions) that
   * name the user as their writer (metadata.provenance.user_id) name `pseudonym` instead. Answers the space
   * owners whose memories changed.
   */
  renameWriter(org: string, userId: string, pseudonym: string): Promise<string[]>;
}
