// The ports through which other layers join memory writes and deletions (conversations,
// graph links, governance's justification gate, cascade erasure) without the memory service
// knowing their implementations.

export interface ConversationRecorder {
  /** Runs inside the add transaction; returns the conversation id the memories refer to. */
  record(input: { userId: string; agentId: string; sessionId?: string; messages: { role: string; content: string }[]; now: number }): string;
}

export interface GraphLinker {
  linkMemory(userId: string, memoryId: string, text: string): void;
  unlinkMemories(userId: string, memoryIds: string[]): void;
}

export interface WriteGate {
  /** Throws AppError VALIDATION_ERROR when policy forbids the write (e.g. missing justification). */
  checkWrite(input: { memorySpaceId: string; importance: number; metadata: Record<string, unknown> }): void;
}

export interface UserEraser {
  /** Runs inside the delete_all transaction; reports what policy kept, per layer. */
  eraseUser(userId: string): { deleted: Record<string, number>; retained: Record<string, number> };
}

export interface MemoryHooks {
  conversations?: ConversationRecorder;
  graph?: GraphLinker;
  gate?: WriteGate;
  erasers?: UserEraser[];
}
