// What enforcement and compliance reports read in SQLite: bounded batches per layer, paged by key,
// and inventory counts. (Deleting is the layers' repositories'.)
import type { Db } from "./connection";
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
const each = (xs: unknown[]) => JSON.stringify(xs);

export class SqliteRetentionRepo implements RetentionRepo {
  constructor(private readonly db: Db) {}

  async conversations(org: string, spaceId: string, afterId: string, limit: number): Promise<ConversationInfo[]> {
    return this.db
      .query<ConversationInfo, [number, string, string, string, number]>(
        `SELECT id, created_at AS createdAt, last_message_at AS lastMessageAt, archived_at AS archivedAt, bytes + ? AS bytes,
           retain_until AS retainUntil
         FROM conversations WHERE org_id = +? AND memory_space_id = +? AND id > ? ORDER BY id LIMIT +?`,
      )
      .all(ROW_OVERHEAD, org, spaceId, afterId, limit);
  }

  /** immutableRef is "type/id", split at the first "/" (types cannot contain one) so the lookup uses the primary key. */
  async memories(org: string, spaceId: string, afterRowid: number, limit: number): Promise<MemoryInfo[]> {
    const rows = this.db
      .query<
        Omit<MemoryInfo, "versions" | "conversationRefExists" | "immutableRefExists"> & {
          conversationRefExists: number;
          immutableRefExists: number;
          version: number;
          updatedAt: number;
          bytes: number;
          retainUntil: number | null;
        },
        [number, string, string, number, number]
      >(
        `SELECT m.rowid, m.id, m.org_id AS org, m.user_id AS userId, m.importance, m.source_type AS sourceType, m.created_at AS createdAt,
           m.conversation_ref AS conversationRef, m.immutable_ref AS immutableRef, m.expires_at AS expiresAt, m.version, m.updated_at AS updatedAt,
           m.retain_until AS retainUntil,
           length(CAST(m.memory AS BLOB)) + length(m.metadata) + ? AS bytes,
           m.conversation_ref IS NOT NULL AND EXISTS (SELECT 1 FROM conversations c WHERE c.id = m.conversation_ref AND c.org_id = m.org_id) AS conversationRefExists,
           m.immutable_ref IS NOT NULL AND EXISTS (SELECT 1 FROM immutable_records r
             WHERE r.organization_id = m.org_id AND r.type = substr(m.immutable_ref, 1, instr(m.immutable_ref, '/') - 1) AND r.id = substr(m.immutable_ref, instr(m.immutable_ref, '/') + 1)) AS immutableRefExists
         FROM memories m WHERE m.org_id = +? AND m.agent_id = +? AND m.rowid > ? AND m.superseded_by IS NULL ORDER BY m.rowid LIMIT +?`,
      )
      .all(ROW_OVERHEAD, org, spaceId, afterRowid, limit);
    const old = this.versionsOf(
      "SELECT memory_id AS owner, version, created_at AS createdAt, length(CAST(memory AS BLOB)) + length(metadata) + ? AS bytes, retain_until AS retainUntil FROM memory_versions WHERE memory_id IN (SELECT value FROM json_each(?))",
      rows.map((r) => r.id),
    );
    const older = this.supersededVersions(rows.map((r) => r.id));
    return rows.map(({ version, updatedAt, bytes, retainUntil, ...r }) => ({
      ...r,
      conversationRefExists: !!r.conversationRefExists,
      immutableRefExists: !!r.immutableRefExists,
      versions: withOlder(
        [{ version, createdAt: updatedAt, bytes, retainUntil }, ...(old.get(r.id) ?? [])],
        older.get(r.id),
      ),
    }));
  }

  /** For each memory, the versions of the memories it superseded (directly or through others), newest first. */
  private supersededVersions(ids: string[]): Map<string, VersionInfo[]> {
    const chain = this.db
      .query<ChainRow, [string, number]>(
        `WITH RECURSIVE chain(root, id, depth) AS (
           SELECT j.value, m.id, 1 FROM json_each(?) j JOIN memories m ON m.superseded_by = j.value
           UNION ALL SELECT c.root, m.id, c.depth + 1 FROM chain c JOIN memories m ON m.superseded_by = c.id WHERE c.depth < 1000
         )
         SELECT c.root, m.rowid, m.id, m.org_id AS org, m.user_id AS userId, m.version, m.updated_at AS updatedAt, m.retain_until AS retainUntil,
           length(CAST(m.memory AS BLOB)) + length(m.metadata) + ? AS bytes
         FROM chain c JOIN memories m ON m.id = c.id ORDER BY c.root, c.depth, m.created_at DESC, m.rowid DESC`,
      )
      .all(each(ids), ROW_OVERHEAD);
    if (!chain.length) return new Map();
    const previous = this.versionsOf(
      "SELECT memory_id AS owner, version, created_at AS createdAt, length(CAST(memory AS BLOB)) + length(metadata) + ? AS bytes, retain_until AS retainUntil FROM memory_versions WHERE memory_id IN (SELECT value FROM json_each(?))",
      chain.map((m) => m.id),
    );
    return chainVersions(chain, previous);
  }

  async expiredMemories(
    org: string,
    spaceId: string,
    now: number,
    afterRowid: number,
    limit: number,
  ): Promise<ExpiredMemory[]> {
    return this.db
      .query<ExpiredMemory, [number, number, string, string, number, number, number]>(
        `SELECT rowid, id, org_id AS org, user_id AS userId, updated_at AS updatedAt, expires_at AS expiresAt, retain_until AS retainUntil,
           length(CAST(memory AS BLOB)) + length(metadata) + ? + coalesce((SELECT sum(length(CAST(v.memory AS BLOB)) + length(v.metadata) + ?)
             FROM memory_versions v WHERE v.memory_id = m.id), 0) AS bytes
         FROM memories m WHERE org_id = +? AND agent_id = +? AND expires_at IS NOT NULL AND expires_at <= ? AND rowid > ? ORDER BY rowid LIMIT +?`,
      )
      .all(ROW_OVERHEAD, ROW_OVERHEAD, org, spaceId, now, afterRowid, limit);
  }

  async immutable(orgId: string, after: [string, string], limit: number): Promise<ImmutableInfo[]> {
    const rows = this.db
      .query<Omit<ImmutableInfo, "versions">, [string, string, string, string, number]>(
        `SELECT type, id, created_at AS createdAt, accessed_at AS lastUsedAt FROM immutable_records
         WHERE organization_id = +? AND (type > ? OR (type = +? AND id > ?)) ORDER BY type, id LIMIT +?`,
      )
      .all(orgId, after[0], after[0], after[1], limit);
    // Join through json_each so each (organization, type, id) uses the primary key instead of a scan.
    const versions = this.versionsOf(
      `SELECT v.type || '/' || v.id AS owner, v.version, v.created_at AS createdAt, length(CAST(v.data AS BLOB)) + length(v.metadata) + ? AS bytes,
         v.retain_until AS retainUntil
       FROM json_each(?) j JOIN immutable_versions v ON v.organization_id = json_extract(j.value, '$[0]')
         AND v.type = json_extract(j.value, '$[1]') AND v.id = json_extract(j.value, '$[2]')`,
      rows.map((r) => [orgId, r.type, r.id]),
    );
    return rows.map((r) => ({ ...r, versions: versions.get(`${r.type}/${r.id}`) ?? [] }));
  }

  async mutable(orgId: string, after: [string, string], limit: number): Promise<MutableInfo[]> {
    return this.db
      .query<MutableInfo, [number, string, string, string, string, number]>(
        `SELECT namespace, key, created_at AS createdAt, updated_at AS updatedAt, accessed_at AS accessedAt, expires_at AS expiresAt,
           retain_until AS retainUntil,
           length(CAST(value AS BLOB)) + ? AS bytes
         FROM mutable_entries WHERE organization_id = +? AND (namespace > ? OR (namespace = +? AND key > ?)) ORDER BY namespace, key LIMIT +?`,
      )
      .all(ROW_OVERHEAD, orgId, after[0], after[0], after[1], limit);
  }

  private versionsOf(sql: string, owners: unknown[]): Map<string, VersionInfo[]> {
    const out = new Map<string, VersionInfo[]>();
    if (!owners.length) return out;
    for (const v of this.db
      .query<VersionInfo & { owner: string }, [number, string]>(sql)
      .all(ROW_OVERHEAD, each(owners))) {
      const list = out.get(v.owner) ?? [];
      list.push({ version: v.version, createdAt: v.createdAt, bytes: v.bytes, retainUntil: v.retainUntil });
      out.set(v.owner, list);
    }
    return out;
  }
}

/** Counts and oldest timestamps for compliance reports, over a set of spaces and one organization. */
export class SqliteInventoryRepo implements InventoryRepo {
  constructor(private readonly db: Db) {}

  async conversations(org: string, spaceIds: string[]): Promise<number> {
    return this.db
      .query<{ n: number }, [string, string]>(
        "SELECT count(*) AS n FROM conversations WHERE org_id = ? AND memory_space_id IN (SELECT value FROM json_each(?))",
      )
      .get(org, each(spaceIds))!.n;
  }

  async memories(org: string, spaceIds: string[]): Promise<number> {
    return this.db
      .query<{ n: number }, [string, string]>(
        "SELECT count(*) AS n FROM memories WHERE org_id = ? AND agent_id IN (SELECT value FROM json_each(?))",
      )
      .get(org, each(spaceIds))!.n;
  }

  async immutable(orgId: string): Promise<{ entities: number; versions: number }> {
    return this.db
      .query<{ entities: number; versions: number }, [string]>(
        `SELECT count(*) AS entities, (SELECT count(*) FROM immutable_versions WHERE organization_id = ?1) AS versions
         FROM immutable_records r WHERE r.organization_id = ?1`,
      )
      .get(orgId)!;
  }

  async mutable(orgId: string): Promise<number> {
    return this.db
      .query<{ n: number }, [string]>("SELECT count(*) AS n FROM mutable_entries WHERE organization_id = ?")
      .get(orgId)!.n;
  }

  async oldest(org: string, spaceIds: string[], orgRecords: boolean): Promise<number | null> {
    const spaces = each(spaceIds);
    const records = orgRecords ? org : null;
    return (
      this.db
        .query<{ t: number | null }, [string, string, string, string, string | null, string | null]>(
          `SELECT min(t) AS t FROM (
           SELECT min(created_at) AS t FROM conversations WHERE org_id = ? AND memory_space_id IN (SELECT value FROM json_each(?))
           UNION ALL SELECT min(created_at) FROM memories WHERE org_id = ? AND agent_id IN (SELECT value FROM json_each(?))
           UNION ALL SELECT min(created_at) FROM immutable_records WHERE organization_id = ?
           UNION ALL SELECT min(created_at) FROM mutable_entries WHERE organization_id = ?)`,
        )
        .get(org, spaces, org, spaces, records, records)?.t ?? null
    );
  }

  /** Organizations that hold data: memories, conversations, immutable or mutable records, registered spaces. */
  async organizations(): Promise<string[]> {
    return this.db
      .query<{ o: string }, []>(
        `SELECT organization_id AS o FROM immutable_records UNION SELECT organization_id FROM mutable_entries
         UNION SELECT organization_id FROM memory_spaces UNION SELECT org_id FROM memories
         UNION SELECT org_id FROM conversations`,
      )
      .all()
      .map((r) => r.o);
  }
}
