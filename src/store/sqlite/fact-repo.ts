// The memory_facts table (migration 15): the facts each memory states and which memory ended them;
// a scope's reads and writes name its organization with the user (SPEC §8).
import type { Db } from "./connection";
import type { FactRepo, FactRow, FactScope, NewFactRow } from "../repos/fact-repo";

const COLUMNS =
  "id, memory_id AS memoryId, subject, attribute, value, value_key AS key, qualifier, negative, ended_by IS NOT NULL AS ended";
type Raw = Omit<FactRow, "negative" | "ended"> & { negative: number; ended: number };
const row = (r: Raw): FactRow => ({ ...r, negative: r.negative === 1, ended: r.ended === 1 });

export class SqliteFactRepo implements FactRepo {
  constructor(private readonly db: Db) {}

  async live(scope: FactScope, subjects: readonly string[]): Promise<FactRow[]> {
    if (!subjects.length) return [];
    return this.db
      .query<Raw, [string, string, string, string, string]>(
        `SELECT ${COLUMNS} FROM memory_facts WHERE org_id = +? AND user_id = +? AND agent_id = +? AND session_id = +?
           AND subject IN (SELECT value FROM json_each(?)) AND ended_by IS NULL ORDER BY id`,
      )
      .all(scope.org, scope.userId, scope.agentId, scope.sessionId, JSON.stringify(subjects))
      .map(row);
  }

  async recent(scope: FactScope, n: number): Promise<FactRow[]> {
    return this.db
      .query<Raw, [string, string, string, string, number]>(
        `SELECT ${COLUMNS} FROM memory_facts WHERE org_id = +? AND user_id = +? AND agent_id = +? AND session_id = +?
           AND ended_by IS NULL ORDER BY id DESC LIMIT +?`,
      )
      .all(scope.org, scope.userId, scope.agentId, scope.sessionId, n)
      .map(row);
  }

  async ofMemories(memoryIds: readonly string[]): Promise<FactRow[]> {
    if (!memoryIds.length) return [];
    return this.db
      .query<Raw, [string]>(
        `SELECT ${COLUMNS} FROM memory_facts WHERE memory_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
      )
      .all(JSON.stringify(memoryIds))
      .map(row);
  }

  async insert(memoryId: string, scope: FactScope, facts: readonly NewFactRow[]): Promise<void> {
    const ins = this.db.query(
      `INSERT INTO memory_facts (memory_id, org_id, user_id, agent_id, session_id, subject, attribute, value, value_key, qualifier, negative)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const f of facts)
      ins.run(
        memoryId,
        scope.org,
        scope.userId,
        scope.agentId,
        scope.sessionId,
        f.subject,
        f.attribute,
        f.value,
        f.key,
        f.qualifier,
        f.negative ? 1 : 0,
      );
  }

  async end(ids: readonly number[], by: string): Promise<void> {
    if (!ids.length) return;
    this.db
      .query("UPDATE memory_facts SET ended_by = ? WHERE id IN (SELECT value FROM json_each(?)) AND ended_by IS NULL")
      .run(by, JSON.stringify(ids));
  }

  async removeOf(memoryId: string): Promise<void> {
    this.db.query("DELETE FROM memory_facts WHERE memory_id = ?").run(memoryId);
  }
}
