// How both stores give retention a current memory's versions with those of the memories it superseded
// (SPEC §11: older versions of one fact), newest first; the SQL that finds them is each store's own.
import type { VersionInfo } from "./repos/retention-repo";

/** One memory in a chain of supersedes, as a store reads it. */
export interface ChainRow {
  root: string;
  rowid: number;
  id: string;
  org: string;
  userId: string;
  version: number;
  updatedAt: number;
  bytes: number;
  retainUntil: number | null;
}

export const newestFirst = (versions: VersionInfo[]) => [...versions].sort((a, b) => b.version - a.version);

/** Each chain row's current text and previous versions, listed under the memory that superseded it. */
export function chainVersions(chain: ChainRow[], previous: Map<string, VersionInfo[]>): Map<string, VersionInfo[]> {
  const out = new Map<string, VersionInfo[]>();
  for (const m of chain) {
    const ref = { memoryId: m.id, rowid: m.rowid, org: m.org, userId: m.userId };
    const list = out.get(m.root) ?? [];
    const current = { version: m.version, createdAt: m.updatedAt, bytes: m.bytes, retainUntil: m.retainUntil };
    list.push({ ...current, of: { ...ref, whole: true } });
    for (const v of newestFirst(previous.get(m.id) ?? [])) list.push({ ...v, of: { ...ref, whole: false } });
    out.set(m.root, list);
  }
  return out;
}

/** A memory's own versions, then the older memories', numbered newest first in `order`. */
export function withOlder(own: VersionInfo[], older: VersionInfo[] | undefined): VersionInfo[] {
  if (!older) return own;
  const all = [...newestFirst(own), ...older];
  return all.map((v, i) => ({ ...v, order: all.length - i }));
}
