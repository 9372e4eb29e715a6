// The memory_facts table in PostgreSQL (its migration 5): the facts each memory states and which
// memory ended them. Reads that a supersede decision rests on first take the user's fact lock.
import type { Pg } from "./connection";
import type { FactRepo, FactRow, FactScope, NewFactRow } from "../repos/fact-repo";
import type { Owner } from "../repos/memory-repo";
import { ownerKey } from "~/shared/principal";

const COLUMNS =
  'id, memory_id AS "memoryId", subject, attribute, value, value_key AS key, qualifier, negative <> 0 AS negative, ended_by IS NOT NULL AS ended';

/**
 * Serialises the duplicate checks and supersede decisions of one user's concurrent writes (until the
 * transaction ends): under READ COMMITTED two transactions would otherwise decide on the same state.
 */
export const lockUserFacts = (pg: Pg, owner: Owner) =>
  pg.run("SELECT pg_advisory_xact_lock(hashtextextended('engram.facts/' || $1, 0))", [ownerKey(owner)]);

export class PgFactRepo implements FactRepo {
  constructor(private readonly pg: Pg) {}

  async live(scope: FactScope, subjects: readonly string[]): Promise<FactRow[]> {
    if (!subjects.length) return [];
    await lockUserFacts(this.pg, scope);
    return this.pg.all<FactRow>(
      `SELECT ${COLUMNS} FROM memory_facts WHERE org_id = $5 AND user_id = $1 AND agent_id = $2 AND session_id = $3
         AND subject = ANY($4::text[]) AND ended_by IS NULL ORDER BY id`,
      [scope.userId, scope.agentId, scope.sessionId, subjects, scope.org],
    );
  }

  async recent(scope: FactScope, n: number): Promise<FactRow[]> {
    await lockUserFacts(this.pg, scope);
    return this.pg.all<FactRow>(
      `SELECT ${COLUMNS} FROM memory_facts WHERE org_id = $5 AND user_id = $1 AND agent_id = $2 AND session_id = $3
         AND ended_by IS NULL ORDER BY id DESC LIMIT $4`,
      [scope.userId, scope.agentId, scope.sessionId, n, scope.org],
    );
  }

  ofMemories(memoryIds: readonly string[]): Promise<FactRow[]> {
    if (!memoryIds.length) return Promise.resolve([]);
    return this.pg.all<FactRow>(`SELECT ${COLUMNS} FROM memory_facts WHERE memory_id = ANY($1::text[]) ORDER BY id`, [
      memoryIds,
    ]);
  }

  async insert(memoryId: string, scope: FactScope, facts: readonly NewFactRow[]): Promise<void> {
    if (!facts.length) return;
    await this.pg.run(
      `INSERT INTO memory_facts (memory_id, user_id, agent_id, session_id, subject, attribute, value, value_key, qualifier, negative, org_id)
       SELECT $1, $2, $3, $4, f.subject, f.attribute, f.value, f.value_key, f.qualifier, f.negative, $11
       FROM unnest($5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::int[])
         WITH ORDINALITY AS f(subject, attribute, value, value_key, qualifier, negative, n) ORDER BY n`,
      [
        memoryId,
        scope.userId,
        scope.agentId,
        scope.sessionId,
        facts.map((f) => f.subject),
        facts.map((f) => f.attribute),
        facts.map((f) => f.value),
        facts.map((f) => f.key),
        facts.map((f) => f.qualifier),
        facts.map((f) => (f.negative ? 1 : 0)),
        scope.org,
      ],
    );
  }

  async end(ids: readonly number[], by: string): Promise<void> {
    if (!ids.length) return;
    await this.pg.run("UPDATE memory_facts SET ended_by = $1 WHERE id = ANY($2::bigint[]) AND ended_by IS NULL", [
      by,
      ids,
    ]);
  }

  async removeOf(memoryId: string): Promise<void> {
    await this.pg.run("DELETE FROM memory_facts WHERE memory_id = $1", [memoryId]);
  }
}
