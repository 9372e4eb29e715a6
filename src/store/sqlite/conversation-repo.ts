// Conversations and their append-only messages in SQLite; reads a client asks for are scoped by
// organization and user_id.
import type { Owner } from "../repos/memory-repo";
import type { Db } from "./connection";
import { RAISED } from "./memory-repo";
import type { ConversationRepo, ConversationRow, MessageRow } from "../repos/layer-repos";

const each = (xs: unknown[]) => JSON.stringify(xs);

export class SqliteConversationRepo implements ConversationRepo {
  constructor(private readonly db: Db) {}

  async create(c: {
    id: string;
    org: string;
    userId: string;
    spaceId: string;
    sessionId: string | null;
    now: number;
    retainUntil: number | null;
  }): Promise<void> {
    this.db
      .query(
        "INSERT INTO conversations (id, org_id, user_id, memory_space_id, session_id, created_at, last_message_at, retain_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .run(c.id, c.org, c.userId, c.spaceId, c.sessionId, c.now, c.now, c.retainUntil);
  }

  async append(
    id: string,
    messages: { role: string; content: string }[],
    now: number,
    retainUntil: number | null,
  ): Promise<void> {
    const next = this.db
      .query<{ n: number }, [string]>(
        "SELECT coalesce(max(seq), 0) AS n FROM conversation_messages WHERE conversation_id = ?",
      )
      .get(id)!.n;
    const ins = this.db.query(
      "INSERT INTO conversation_messages (conversation_id, seq, role, content, timestamp) VALUES (?, ?, ?, ?, ?)",
    );
    let bytes = 0;
    messages.forEach((m, i) => {
      ins.run(id, next + i + 1, m.role, m.content, now);
      bytes += Buffer.byteLength(m.content) + Buffer.byteLength(m.role);
    });
    this.db
      .query(
        `UPDATE conversations SET message_count = message_count + ?, bytes = bytes + ?, last_message_at = ?,
           retain_until = ${RAISED} WHERE id = ?`,
      )
      .run(messages.length, bytes, now, retainUntil, id);
  }

  async get(o: Owner, id: string): Promise<ConversationRow | null> {
    return this.db
      .query<ConversationRow, [string, string, string]>(
        "SELECT * FROM conversations WHERE id = ? AND org_id = ? AND user_id = ?",
      )
      .get(id, o.org, o.userId);
  }

  async messages(id: string): Promise<MessageRow[]> {
    return this.db
      .query<MessageRow, [string]>(
        "SELECT role, content, timestamp FROM conversation_messages WHERE conversation_id = +? ORDER BY seq",
      )
      .all(id);
  }

  async page(o: Owner, limit: number, after?: [number, string]): Promise<ConversationRow[]> {
    if (!after)
      return this.db
        .query<ConversationRow, [string, string, number]>(
          "SELECT * FROM conversations WHERE org_id = +? AND user_id = +? ORDER BY created_at DESC, id DESC LIMIT +?",
        )
        .all(o.org, o.userId, limit);
    return this.db
      .query<ConversationRow, [string, string, number, number, string, number]>(
        "SELECT * FROM conversations WHERE org_id = +? AND user_id = +? AND (created_at < ? OR (created_at = +? AND id < ?)) ORDER BY created_at DESC, id DESC LIMIT +?",
      )
      .all(o.org, o.userId, after[0], after[0], after[1], limit);
  }

  async count(o: Owner): Promise<number> {
    return this.db
      .query<{ n: number }, [string, string]>(
        "SELECT count(*) AS n FROM conversations WHERE org_id = ? AND user_id = ?",
      )
      .get(o.org, o.userId)!.n;
  }

  async ofUser(o: Owner): Promise<{ id: string; space: string; lastMessageAt: number; retainUntil: number | null }[]> {
    return this.db
      .query<{ id: string; space: string; lastMessageAt: number; retainUntil: number | null }, [string, string]>(
        `SELECT id, memory_space_id AS space, last_message_at AS lastMessageAt, retain_until AS retainUntil
         FROM conversations WHERE org_id = ? AND user_id = ?`,
      )
      .all(o.org, o.userId);
  }

  async archive(ids: string[], now: number): Promise<void> {
    this.db
      .query(
        "UPDATE conversations SET archived_at = ? WHERE id IN (SELECT value FROM json_each(?)) AND archived_at IS NULL",
      )
      .run(now, each(ids));
  }

  async delete(ids: string[]): Promise<void> {
    this.db.query("DELETE FROM conversations WHERE id IN (SELECT value FROM json_each(?))").run(each(ids));
  }
}
