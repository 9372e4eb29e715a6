// Conversations layer (SPEC §5.1): append-only message logs per user and memory space,
// created by add_memories with messages and by the conversations API.
import type { ConversationRow, Repos, Store } from "~/store/store";
import { userScope } from "~/shared/store-scope";
import { iso, isoOrNull, type Clock } from "~/shared/clock";
import { AppError, notFound } from "~/shared/errors";
import { newId } from "~/shared/ids";
import type { UserScope } from "~/shared/principal";
import { decodeCursor, encodeCursor } from "~/memory/cursor";
import type { ConversationRecorder, RetentionFloor } from "~/memory/memory-hooks";
import type {
  AppendMessagesInput,
  CreateConversationInput,
  ListConversationsInput,
  ConversationResponse,
  ConversationListResponse,
} from "./layers.schema";

const DEFAULT_SPACE = "mcp-agent";

export class ConversationsService implements ConversationRecorder {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    /** The minimum retention messages earn when written (SPEC §5.4). */
    private readonly floor: RetentionFloor,
  ) {}

  /** Used inside add_memories' transaction `tx`. */
  async record(
    tx: Repos,
    input: {
      org: string;
      userId: string;
      agentId: string;
      sessionId?: string;
      messages: { role: string; content: string }[];
      now: number;
    },
  ): Promise<string> {
    const id = newId();
    const retainUntil = await this.earned(input.org, input.agentId, input.now, tx);
    await tx.conversations.create({
      id,
      org: input.org,
      userId: input.userId,
      spaceId: input.agentId,
      sessionId: input.sessionId ?? null,
      now: input.now,
      retainUntil,
    });
    await tx.conversations.append(
      id,
      input.messages.filter((m) => m.content.trim()),
      input.now,
      retainUntil,
    );
    return id;
  }

  async create(scope: UserScope, input: CreateConversationInput): Promise<ConversationResponse> {
    const now = this.clock.now();
    const id = await this.store.write(
      (tx) =>
        this.record(tx, {
          org: scope.org,
          userId: scope.userId,
          agentId: scope.agentId ?? input.agent_id ?? DEFAULT_SPACE,
          sessionId: input.session_id,
          messages: input.messages ?? [],
          now,
        }),
      userScope(scope),
    );
    return this.get(scope, id);
  }

  async append(scope: UserScope, id: string, input: AppendMessagesInput): Promise<ConversationResponse> {
    await this.store.write(async (tx) => {
      const c = await this.mustGet(scope, id, tx);
      if (c.archived_at !== null)
        throw new AppError("CONFLICT", `conversation '${id}' is archived; archived conversations are read-only`);
      const now = this.clock.now();
      await tx.conversations.append(id, input.messages, now, await this.earned(c.org_id, c.memory_space_id, now, tx));
    }, userScope(scope));
    return this.get(scope, id);
  }

  private async earned(org: string, space: string, now: number, tx: Repos): Promise<number | null> {
    return (await this.floor.retainUntil({ org, memorySpaceId: space }, now, tx)) ?? null;
  }

  get(scope: UserScope, id: string): Promise<ConversationResponse> {
    return this.store.read(async (r) => {
      const c = await this.mustGet(scope, id, r);
      const messages = await r.conversations.messages(c.id);
      return {
        success: true as const,
        ...summary(c),
        messages: messages.map((m) => ({ role: m.role, content: m.content, timestamp: m.timestamp })),
      };
    }, userScope(scope));
  }

  async list(scope: UserScope, input: ListConversationsInput): Promise<ConversationListResponse> {
    const limit = input.limit ?? 50;
    const after = input.cursor !== undefined ? decodeCursor(input.cursor) : undefined;
    const { rows, total } = await this.store.read(
      async (r) => ({
        rows: await r.conversations.page(scope, limit + 1, after),
        total: await r.conversations.count(scope),
      }),
      userScope(scope),
    );
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const hasMore = rows.length > limit;
    return {
      results: page.map(summary),
      total,
      has_more: hasMore,
      next_cursor: hasMore && last ? encodeCursor(last.created_at, last.id) : null,
    };
  }

  /** The user's conversation; one of another agent's space is missing for a key bound to an agent. */
  private async mustGet(scope: UserScope, id: string, r: Repos): Promise<ConversationRow> {
    const c = await r.conversations.get(scope, id);
    if (!c || (scope.agentId !== undefined && c.memory_space_id !== scope.agentId)) throw notFound("conversation", id);
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
