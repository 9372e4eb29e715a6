// What reads show of SPEC §11's history: supersedes / superseded_by on shown memories, and a memory's
// versions followed by those of the memories it superseded.
import type { MemoryRow, Owner, Store, VersionRow } from "~/store/store";
import { userScope } from "~/shared/store-scope";
import { iso } from "~/shared/clock";
import type { VersionsResponse } from "./memory.schema";

/** superseded_by may be left unread: a listing without include_superseded shows only memories without one. */
type Shown = { id: string; superseded_by?: string | null; has_facts: number };
type History = { supersedes?: string[]; superseded_by?: string };
const NONE = new Map<string, string[]>();

/**
 * A function adding supersedes / superseded_by to the shown form of each of `rows`, each only when there is
 * something to say, as its last fields. Only a memory with has_facts can have superseded another, so most
 * reads ask the store nothing more (a second read per get halved get throughput). It sets the fields on the
 * item rather than answering an object to spread: a listing builds one object per row, not three.
 */
export async function historyOf(store: Store, owner: Owner, rows: readonly Shown[]) {
  let ids: string[] | undefined;
  for (const m of rows) if (m.has_facts) (ids ??= []).push(m.id);
  const supersedes = ids ? await store.read((r) => r.memories.supersedes(owner, ids), userScope(owner)) : NONE;
  return <T extends object>(item: T, m: Shown): T & History => {
    const older = supersedes.get(m.id);
    if (older) (item as History).supersedes = older;
    if (m.superseded_by) (item as History).superseded_by = m.superseded_by;
    return item;
  };
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
