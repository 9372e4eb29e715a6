import type { FactExtractor } from "~/facts/fact-extractor";
import type { FactRecogniser } from "~/facts/fact-recogniser";
import type { Repos, Owner } from "~/store/store";

// The ports through which other layers join memory writes and deletions (conversations,
// graph links, governance's justification gate, cascade erasure) without the memory service
// knowing their implementations.

export interface ConversationRecorder {
  /** Runs inside the add transaction `tx`; returns the conversation id the memories refer to. */
  record(
    tx: Repos,
    input: {
      org: string;
      userId: string;
      agentId: string;
      sessionId?: string;
      messages: { role: string; content: string }[];
      now: number;
    },
  ): Promise<string>;
}

/** Runs after the memory transaction commits; failures are the linker's to log, never the memory's. */
export interface GraphLinker {
  linkMemories(owner: Owner, memories: { id: string; text: string }[], replace?: boolean): Promise<void>;
  /** The links of memories whose rows are deleted (committed). */
  unlinkDeleted(owner: Owner, memoryIds: string[]): Promise<void>;
  deleteUser(owner: Owner): Promise<number>;
}

export interface WriteGate {
  /**
   * Throws AppError VALIDATION_ERROR when policy forbids writing these memories of the space (e.g. a missing
   * justification); else answers what a record written at `now` earns, as RetentionFloor.retainUntil would:
   * one policy resolution for the check and the retention of a whole write.
   */
  admit(
    space: { org: string; memorySpaceId: string },
    memories: readonly { importance: number; metadata: Record<string, unknown> }[],
  ): Promise<(now: number) => number | null>;
}

/**
 * A memory space's records (memories, conversations), or an organization's (immutable, mutable). A space
 * id names a space only inside its organization (SPEC §8), so a space comes with its organization.
 */
export type RetentionScope = { org: string; memorySpaceId: string } | { organizationId: string };

/** The FINRA/HIPAA minimum retention (SPEC §5.4), which every delete route of every layer honours. */
export interface RetentionFloor {
  /**
   * What a record written now earns and keeps whatever policy comes later: now + the minimum, or null.
   * `tx`: the transaction it is asked from, if any (the policy is read through it).
   */
  retainUntil(scope: RetentionScope, now: number, tx?: Repos): Promise<number | null>;
  /**
   * Until when a record last written at `writtenAt`, which earned `retainUntil`, may not be deleted: the
   * later of what it earned and what the policy in force now keeps; null when it may go now.
   */
  heldUntil(
    scope: RetentionScope,
    writtenAt: number,
    retainUntil: number | null,
    now: number,
    tx?: Repos,
  ): Promise<number | null>;
}

export interface DeletionPolicy {
  /**
   * Memories of this space last written after the returned time must be kept
   * (-Infinity keeps all; undefined keeps none). `erasure`: a cascade (right-to-be-forgotten) request.
   * `tx`: the transaction it is asked from (policies are read through it).
   */
  keepSince(space: { org: string; memorySpaceId: string }, erasure: boolean, tx: Repos): Promise<number | undefined>;
}

export interface Erasure {
  /**
   * Runs inside the cascade transaction after the memories: erases the other layers, logs the request, reports
   * what was kept, and the owners (shared spaces) whose memories now name the user by a pseudonym.
   */
  eraseUser(
    tx: Repos,
    owner: Owner,
    memories: { deleted: number; retained: number },
  ): Promise<{ retained: Record<string, number>; renamedIn: Owner[] }>;
  /**
   * After the cascade committed: what a transaction running beside it (an audit-log commit, on PostgreSQL)
   * wrote under the user's id before it learned of the erasure is renamed too.
   */
  committed(owner: Owner): Promise<void>;
}

export interface FactsHook {
  extractor: FactExtractor;
  /** Facts below this confidence are dropped (MCP_FACT_MIN_CONFIDENCE). */
  minConfidence: number;
  /** Extract on every add with messages (MCP_EXTRACT_FACTS and autoExtract); `auto_extract_facts` overrides per request. */
  auto: boolean;
}

/** Every port is required: the composition root wires each one (main.ts), so none is forgotten. */
export interface MemoryHooks {
  facts: FactsHook;
  /** Which facts a new memory states, for supersede decisions (SPEC §11). */
  recogniser: FactRecogniser;
  conversations: ConversationRecorder;
  graph: GraphLinker;
  gate: WriteGate;
  retention: DeletionPolicy;
  floor: RetentionFloor;
  erasure: Erasure;
}
