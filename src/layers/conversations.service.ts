// Conversations layer (SPEC §5.1): append-only message logs per user and memory space,
// created by add_memories with messages and by the conversations API.
import type { Db } from "~/store/sqlite";
import { ConversationRepo, type ConversationRow } from "~/store/conversation-repo";
import { iso, isoOrNull, type Clock } from "~/shared/clock";
import { AppError, notFound } from "~/shared/errors";
import { newId } from "~/shared/ids";
import { decodeCursor, encodeCursor } from "~/memory/cursor";
import type { ConversationRecorder } from "~/memory/memory-hooks";
import type {
  AppendMessagesInput,
  ConversationRef,
  CreateConversationInput,
  ListConversationsInput,
} from "./layers.schema";

const DEFAULT_SPACE = "mcp-agent";

export class ConversationsService implements ConversationRecorder {
  private readonly repo: ConversationRepo;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.repo = new ConversationRepo(db);
  }

  /** Used inside add_memories' transaction. */
  record(input: {
    userId: string;
    agentId: string;
    sessionId?: string;
    messages: { role: string; content: string }[];
    now: number;
  }): string {
    const id = newId();
    this.repo.create({
      id,
      userId: input.userId,
      spaceId: input.agentId,
      sessionId: input.sessionId ?? null,
      now: input.now,
    });
    this.repo.append(
      id,
      input.messages.filter((m) => m.content.trim()),
      input.now,
    );
    return id;
  }

  create(input: CreateConversationInput) {
    const now = this.clock.now();
    const id = this.db
      .transaction(() =>
        this.record({
          userId: input.user_id,
          agentId: input.agent_id ?? DEFAULT_SPACE,
          sessionId: input.session_id,
          messages: input.messages ?? [],
          now,
        }),
      )
      .immediate();
    return this.get({ id, user_id: input.user_id });
  }

  append(id: string, input: AppendMessagesInput) {
    this.db
      .transaction(() => {
        const c = this.mustGet({ id, user_id: input.user_id });
        if (c.archived_at !== null)
          throw new AppError("CONFLICT", `conversation '${id}' is archived; archived conversations are read-only`);
        this.repo.append(id, input.messages, this.clock.now());
      })
      .immediate();
    return this.get({ id, user_id: input.user_id });
  }

  get(ref: ConversationRef) {
    const c = this.mustGet(ref);
    return {
      success: true as const,
      ...summary(c),
      messages: this.repo.messages(c.id).map((m) => ({ role: m.role, content: m.content, timestamp: m.timestamp })),
    };
  }

  list(input: ListConversationsInput) {
    const limit = input.limit ?? 50;
    const after = input.cursor !== undefined ? decodeCursor(input.cursor) : undefined;
    const rows = this.repo.page(input.user_id, limit + 1, after);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const hasMore = rows.length > limit;
    return {
      results: page.map(summary),
      total: this.repo.count(input.user_id),
      has_more: hasMore,
      next_cursor: hasMore && last ? encodeCursor(last.created_at, last.id) : null,
    };
  }

  private mustGet(ref: ConversationRef): ConversationRow {
    const c = this.repo.get(ref.user_id, ref.id);
    if (!c) throw notFound("conversation", ref.id);
    return c;
  }
}

function summary(c: ConversationRow) {
  return {
    id: c.id,
    user_id: c.user_id,
    agent_id: c.memory_space_id,
    session_id: c.session_id,
    message_count: c.message_count,
    created_at: iso(c.created_at),
    last_message_at: iso(c.last_message_at),
    archived_at: isoOrNull(c.archived_at),
  };
}
