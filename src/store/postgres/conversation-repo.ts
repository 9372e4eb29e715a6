// Conversations and their append-only messages in PostgreSQL; reads a client asks for are scoped by
// user_id. An append locks its conversation first (the UPDATE), so nodes appending at once number
// their messages one after the other.
import type { Owner } from "../repos/memory-repo";
import type { Pg } from "./connection";
import { RAISED } from "./memory-repo";
import type { ConversationRepo, ConversationRow, MessageRow } from "../repos/layer-repos";

const COLUMNS =
  "id, org_id, user_id, memory_space_id, session_id, message_count, bytes, created_at, last_message_at, archived_at, retain_until";

export class PgConversationRepo implements ConversationRepo {
  constructor(private readonly pg: Pg) {}

  async create(c: {
    id: string;
    org: string;
    userId: string;
    spaceId: string;
    sessionId: string | null;
    now: number;
    retainUntil: number | null;
  }): Promise<void> {
    await this.pg.run(
      `INSERT INTO conversations (id, user_id, memory_space_id, session_id, created_at, last_message_at, retain_until, org_id)
       VALUES ($1, $2, $3, $4, $5, $5, $6, $7)`,
      [c.id, c.userId, c.spaceId, c.sessionId, c.now, c.retainUntil, c.org],
    );
  }

  async append(
    id: string,
    messages: { role: string; content: string }[],
    now: number,
    retainUntil: number | null,
  ): Promise<void> {
    const bytes = messages.reduce((n, m) => n + Buffer.byteLength(m.content) + Buffer.byteLength(m.role), 0);
    const owner = await this.pg.one<{ user_id: string; org_id: string }>(
      `UPDATE conversations SET message_count = message_count + $1, bytes = bytes + $2, last_message_at = $3,
         retain_until = ${RAISED("retain_until", "$4::bigint")} WHERE id = $5 RETURNING user_id, org_id`,
      [messages.length, bytes, now, retainUntil, id],
    );
    if (!owner) return;
    await this.pg.run(
      `INSERT INTO conversation_messages (conversation_id, seq, user_id, role, content, timestamp, org_id)
       SELECT $1, coalesce((SELECT max(seq) FROM conversation_messages WHERE conversation_id = $1), 0) + x.i, $2, x.role, x.content, $3, $6
       FROM unnest($4::text[], $5::text[]) WITH ORDINALITY AS x(role, content, i)`,
      [id, owner.user_id, now, messages.map((m) => m.role), messages.map((m) => m.content), owner.org_id],
    );
  }

  get(o: Owner, id: string): Promise<ConversationRow | null> {
    return this.pg.one<ConversationRow>(
      `SELECT ${COLUMNS} FROM conversations WHERE id = $2 AND org_id = $3 AND user_id = $1`,
      [o.userId, id, o.org],
    );
  }

  messages(id: string): Promise<MessageRow[]> {
    return this.pg.all<MessageRow>(
      "SELECT role, content, timestamp FROM conversation_messages WHERE conversation_id = $1 ORDER BY seq",
      [id],
    );
  }

  page(o: Owner, limit: number, after?: [number, string]): Promise<ConversationRow[]> {
    if (!after)
      return this.pg.all<ConversationRow>(
        `SELECT ${COLUMNS} FROM conversations WHERE org_id = $3 AND user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
        [o.userId, limit, o.org],
      );
    return this.pg.all<ConversationRow>(
      `SELECT ${COLUMNS} FROM conversations WHERE org_id = $5 AND user_id = $1 AND (created_at, id) < ($3, $4)
       ORDER BY created_at DESC, id DESC LIMIT $2`,
      [o.userId, limit, after[0], after[1], o.org],
    );
  }

  async count(o: Owner): Promise<number> {
    return (await this.pg.one<{ n: number }>(
      "SELECT count(*) AS n FROM conversations WHERE org_id = $1 AND user_id = $2",
      [o.org, o.userId],
    ))!.n;
  }

  ofUser(o: Owner): Promise<{ id: string; space: string; lastMessageAt: number; retainUntil: number | null }[]> {
    return this.pg.all(
      `SELECT id, memory_space_id AS space, last_message_at AS "lastMessageAt", retain_until AS "retainUntil"
       FROM conversations WHERE org_id = $1 AND user_id = $2`,
      [o.org, o.userId],
    );
  }

  async archive(ids: string[], now: number): Promise<void> {
    await this.pg.run("UPDATE conversations SET archived_at = $1 WHERE id = ANY($2::text[]) AND archived_at IS NULL", [
      now,
      ids,
    ]);
  }

  async delete(ids: string[]): Promise<void> {
    await this.pg.run("DELETE FROM conversations WHERE id = ANY($1::text[])", [ids]);
  }
}
