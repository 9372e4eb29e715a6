// What reads show of SPEC §11's history: supersedes / superseded_by on shown memories, and a memory's
// versions followed by those of the memories it superseded.
import type { MemoryRow, Owner, Store, VersionRow } from "~/store/store";
import { userScope } from "~/shared/store-scope";
import { iso } from "~/shared/clock";
import type { VersionsResponse } from "./memory.schema";

type Shown = { id: string; superseded_by: string | null; has_facts: number };
const NONE = new Map<string, string[]>();

/**
 * A function adding supersedes / superseded_by to each of `rows`, each only when there is something to say.
 * Only a memory with has_facts can have superseded another, so most reads ask the store nothing more
 * (a second read per get halved get throughput).
 */
export async function historyOf(store: Store, owner: Owner, rows: readonly Shown[]) {
  const ids = rows.filter((m) => m.has_facts).map((m) => m.id);
  const supersedes = ids.length ? await store.read((r) => r.memories.supersedes(owner, ids), userScope(owner)) : NONE;
  return (m: Shown) => ({
    ...(supersedes.has(m.id) ? { supersedes: supersedes.get(m.id)! } : {}),
    ...(m.superseded_by ? { superseded_by: m.superseded_by } : {}),
  });
}

/** The memory's own versions, newest first, then each older memory it superseded with its versions. */
export async function versionsOf(store: Store, row: MemoryRow): Promise<VersionsResponse> {
  const owner = { org: row.org_id, userId: row.user_id };
  const [own, older] = await store.read(
    async (r) => [await r.memories.versions(owner, row.id), await r.memories.predecessors(owner, row.id)] as const,
    userScope(owner),
  );
  const entries = (m: MemoryRow, previous: VersionRow[], whose: object) => [
    { version: m.version, memory: m.memory, created_at: iso(m.updated_at), ...whose },
    ...previous.map((v) => ({ version: v.version, memory: v.memory, created_at: iso(v.created_at), ...whose })),
  ];
  return {
    success: true,
    versions: [
      ...entries(row, own, {}),
      ...older.flatMap((m) => entries(m, m.versions, { memory_id: m.id, superseded_by: m.superseded_by! })),
    ],
  };
}
