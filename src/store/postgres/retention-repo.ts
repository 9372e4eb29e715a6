// What enforcement and compliance reports read in PostgreSQL: bounded batches per layer, paged by key,
// and inventory counts. (Deleting is the layers' repositories'.) Sizes count like the SQLite store's:
// the text's bytes, the JSON's characters, plus a fixed overhead per row.
import type { Pg } from "./connection";
import { type ChainRow, chainVersions, withOlder } from "../superseded-versions";
import type {
  ConversationInfo,
  ExpiredMemory,
  ImmutableInfo,
  InventoryRepo,
  MemoryInfo,
  MutableInfo,
  RetentionRepo,
  VersionInfo,
} from "../repos/retention-repo";

/** Row overhead counted on top of text bytes, so storageFreed is not zero for tiny records. */
const ROW_OVERHEAD = 64;
const SIZE = (text: string, json: string) => `(octet_length(${text}) + char_length(${json}) + ${ROW_OVERHEAD})`;

type MemoryBatchRow = Omit<MemoryInfo, "versions"> & {
  version: number;
  updatedAt: number;
  bytes: number;
  retainUntil: number | null;
};

export class PgRetentionRepo implements RetentionRepo {
  constructor(private readonly pg: Pg) {}

  conversations(org: string, spaceId: string, afterId: string, limit: number): Promise<ConversationInfo[]> {
    return this.pg.all(
      `SELECT id, created_at AS "createdAt", last_message_at AS "lastMessageAt", archived_at AS "archivedAt",
         bytes + ${ROW_OVERHEAD} AS bytes, retain_until AS "retainUntil"
       FROM conversations WHERE org_id = $4 AND memory_space_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
      [spaceId, afterId, limit, org],
    );
  }

  /** immutableRef is "type/id", split at the first "/" (types cannot contain one). */
  async memories(org: string, spaceId: string, afterRowid: number, limit: number): Promise<MemoryInfo[]> {
    const rows = await this.pg.all<MemoryBatchRow>(
      `SELECT m.rowid, m.id, m.org_id AS org, m.user_id AS "userId", m.importance, m.source_type AS "sourceType", m.created_at AS "createdAt",
         m.conversation_ref AS "conversationRef", m.immutable_ref AS "immutableRef", m.expires_at AS "expiresAt", m.version,
         m.updated_at AS "updatedAt", m.retain_until AS "retainUntil", ${SIZE("m.memory", "m.metadata")} AS bytes,
         (m.conversation_ref IS NOT NULL AND EXISTS (SELECT 1 FROM conversations c WHERE c.id = m.conversation_ref AND c.org_id = m.org_id))
           AS "conversationRefExists",
         (m.immutable_ref IS NOT NULL AND EXISTS (SELECT 1 FROM immutable_records r
           WHERE r.organization_id = m.org_id AND r.type = split_part(m.immutable_ref, '/', 1) AND r.type || '/' || r.id = m.immutable_ref))
           AS "immutableRefExists"
       FROM memories m WHERE m.org_id = $4 AND m.agent_id = $1 AND m.rowid > $2 AND m.superseded_by IS NULL
       ORDER BY m.rowid LIMIT $3`,
      [spaceId, afterRowid, limit, org],
    );
    const old = await this.versionsOf(
      `SELECT memory_id AS owner, version, created_at AS "createdAt", ${SIZE("memory", "metadata")} AS bytes,
         retain_until AS "retainUntil" FROM memory_versions WHERE memory_id = ANY($1::text[])`,
      [rows.map((r) => r.id)],
    );
    const older = await this.supersededVersions(rows.map((r) => r.id));
    return rows.map(({ version, updatedAt, bytes, retainUntil, ...r }) => ({
      ...r,
      versions: withOlder(
        [{ version, createdAt: updatedAt, bytes, retainUntil }, ...(old.get(r.id) ?? [])],
        older.get(r.id),
      ),
    }));
  }

  /** For each memory, the versions of the memories it superseded (directly or through others), newest first. */
  private async supersededVersions(ids: string[]): Promise<Map<string, VersionInfo[]>> {
    if (!ids.length) return new Map();
    const chain = await this.pg.all<ChainRow>(
      `WITH RECURSIVE chain(root, id, depth) AS (
         SELECT m.superseded_by, m.id, 1 FROM memories m WHERE m.superseded_by = ANY($1::text[])
         UNION ALL SELECT c.root, m.id, c.depth + 1 FROM chain c JOIN memories m ON m.superseded_by = c.id WHERE c.depth < 1000
       )
       SELECT c.root, m.rowid, m.id, m.org_id AS org, m.user_id AS "userId", m.version, m.updated_at AS "updatedAt",
         m.retain_until AS "retainUntil", ${SIZE("m.memory", "m.metadata")} AS bytes
       FROM chain c JOIN memories m ON m.id = c.id ORDER BY c.root, c.depth, m.created_at DESC, m.rowid DESC`,
      [ids],
    );
    if (!chain.length) return new Map();
    const previous = await this.versionsOf(
      `SELECT memory_id AS owner, version, created_at AS "createdAt", ${SIZE("memory", "metadata")} AS bytes,
         retain_until AS "retainUntil" FROM memory_versions WHERE memory_id = ANY($1::text[])`,
      [chain.map((m) => m.id)],
    );
    return chainVersions(chain, previous);
  }

  expiredMemories(
    org: string,
    spaceId: string,
    now: number,
    afterRowid: number,
    limit: number,
  ): Promise<ExpiredMemory[]> {
    return this.pg.all(
      `SELECT rowid, id, org_id AS org, user_id AS "userId", updated_at AS "updatedAt", expires_at AS "expiresAt", retain_until AS "retainUntil",
         ${SIZE("memory", "metadata")} + coalesce((SELECT sum(${SIZE("v.memory", "v.metadata")})
           FROM memory_versions v WHERE v.memory_id = m.id), 0) AS bytes
       FROM memories m WHERE org_id = $5 AND agent_id = $1 AND expires_at IS NOT NULL AND expires_at <= $2 AND rowid > $3
       ORDER BY rowid LIMIT $4`,
      [spaceId, now, afterRowid, limit, org],
    );
  }

  async immutable(orgId: string, after: [string, string], limit: number): Promise<ImmutableInfo[]> {
    const rows = await this.pg.all<Omit<ImmutableInfo, "versions">>(
      `SELECT type, id, created_at AS "createdAt", accessed_at AS "lastUsedAt" FROM immutable_records
       WHERE organization_id = $1 AND (type, id) > ($2, $3) ORDER BY type, id LIMIT $4`,
      [orgId, after[0], after[1], limit],
    );
    const versions = await this.versionsOf(
      `SELECT v.type || '/' || v.id AS owner, v.version, v.created_at AS "createdAt", ${SIZE("v.data", "v.metadata")} AS bytes,
         v.retain_until AS "retainUntil"
       FROM unnest($1::text[], $2::text[]) AS d(type, id)
         JOIN immutable_versions v ON v.organization_id = $3 AND v.type = d.type AND v.id = d.id`,
      [rows.map((r) => r.type), rows.map((r) => r.id), orgId],
    );
    return rows.map((r) => ({ ...r, versions: versions.get(`${r.type}/${r.id}`) ?? [] }));
  }

  mutable(orgId: string, after: [string, string], limit: number): Promise<MutableInfo[]> {
    return this.pg.all(
      `SELECT namespace, key, created_at AS "createdAt", updated_at AS "updatedAt", accessed_at AS "accessedAt",
         expires_at AS "expiresAt", retain_until AS "retainUntil", octet_length(value) + ${ROW_OVERHEAD} AS bytes
       FROM mutable_entries WHERE organization_id = $1 AND (namespace, key) > ($2, $3) ORDER BY namespace, key LIMIT $4`,
      [orgId, after[0], after[1], limit],
    );
  }

  private async versionsOf(sql: string, params: unknown[]): Promise<Map<string, VersionInfo[]>> {
    const out = new Map<string, VersionInfo[]>();
    if (!(params[0] as unknown[]).length) return out;
    for (const v of await this.pg.all<VersionInfo & { owner: string }>(sql, params)) {
      const list = out.get(v.owner) ?? [];
      list.push({ version: v.version, createdAt: v.createdAt, bytes: v.bytes, retainUntil: v.retainUntil });
      out.set(v.owner, list);
    }
    return out;
  }
}

/** Counts and oldest timestamps for compliance reports, over a set of spaces and one organization. */
export class PgInventoryRepo implements InventoryRepo {
  constructor(private readonly pg: Pg) {}

  private async n(sql: string, params: unknown[]): Promise<number> {
    return (await this.pg.one<{ n: number }>(sql, params))!.n;
  }

  conversations(org: string, spaceIds: string[]): Promise<number> {
    return this.n("SELECT count(*) AS n FROM conversations WHERE org_id = $2 AND memory_space_id = ANY($1::text[])", [
      spaceIds,
      org,
    ]);
  }

  memories(org: string, spaceIds: string[]): Promise<number> {
    return this.n("SELECT count(*) AS n FROM memories WHERE org_id = $2 AND agent_id = ANY($1::text[])", [
      spaceIds,
      org,
    ]);
  }

  async immutable(orgId: string): Promise<{ entities: number; versions: number }> {
    return (await this.pg.one<{ entities: number; versions: number }>(
      `SELECT (SELECT count(*) FROM immutable_records WHERE organization_id = $1) AS entities,
         (SELECT count(*) FROM immutable_versions WHERE organization_id = $1) AS versions`,
      [orgId],
    ))!;
  }

  mutable(orgId: string): Promise<number> {
    return this.n("SELECT count(*) AS n FROM mutable_entries WHERE organization_id = $1", [orgId]);
  }

  async oldest(org: string, spaceIds: string[], orgRecords: boolean): Promise<number | null> {
    const r = await this.pg.one<{ t: number | null }>(
      `SELECT min(t) AS t FROM (
         SELECT min(created_at) AS t FROM conversations WHERE org_id = $3 AND memory_space_id = ANY($1::text[])
         UNION ALL SELECT min(created_at) FROM memories WHERE org_id = $3 AND agent_id = ANY($1::text[])
         UNION ALL SELECT min(created_at) FROM immutable_records WHERE organization_id = $2
         UNION ALL SELECT min(created_at) FROM mutable_entries WHERE organization_id = $2) x`,
      [spaceIds, orgRecords ? org : null, org],
    );
    return r?.t ?? null;
  }

  async organizations(): Promise<string[]> {
    const rows = await this.pg.all<{ o: string }>(
      `SELECT organization_id AS o FROM immutable_records UNION SELECT organization_id FROM mutable_entries
       UNION SELECT organization_id FROM memory_spaces UNION SELECT org_id FROM memories
       UNION SELECT org_id FROM conversations`,
    );
    return rows.map((r) => r.o);
  }
}
