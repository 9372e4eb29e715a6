// Rows that a damaged b-tree no longer reaches: when an interior page breaks, the leaf pages under it
// still hold their rows but no seek finds them. This reads the file's pages directly (SQLite's file
// format, https://sqlite.org/fileformat2.html): the table-leaf pages that no b-tree reaches and that are
// not on the free list (free pages may hold deleted rows, which must stay deleted), decoded into records.
import type { Db } from "./connection";

export interface LooseRecord {
  rowid: number;
  values: unknown[];
}

const TABLE_LEAF = 0x0d;

/** The records of every loose table-leaf page of a checkpointed store file (`bytes`: the whole main file). */
export function looseRecords(db: Db, bytes: Uint8Array): LooseRecord[] {
  const pageSize = db.query<{ page_size: number }, []>("PRAGMA page_size").get()!.page_size;
  const reserved = bytes[20] ?? 0;
  const usable = pageSize - reserved;
  const pages = Math.floor(bytes.length / pageSize);
  const taken = new Set([...reachablePages(db), ...freePages(bytes, pageSize, pages)]);
  const lockPage = Math.floor(2 ** 30 / pageSize) + 1;
  const out: LooseRecord[] = [];
  for (let p = 2; p <= pages; p++) {
    if (taken.has(p) || p === lockPage) continue;
    const page = bytes.subarray((p - 1) * pageSize, p * pageSize);
    if (page[0] !== TABLE_LEAF) continue;
    try {
      out.push(...leafRecords(bytes, page, pageSize, usable));
    } catch {
      // A page that does not decode is garbage, not rows.
    }
  }
  return out;
}

/** Pages some b-tree reaches, b-tree by b-tree, so one damaged tree does not hide the others' pages. */
function reachablePages(db: Db): number[] {
  const names = db
    .query<{ name: string }, []>("SELECT name FROM sqlite_schema WHERE rootpage > 0")
    .all()
    .map((r) => r.name);
  const pages: number[] = [1];
  const q = db.query<{ pageno: number }, [string]>("SELECT pageno FROM dbstat WHERE name = ?");
  for (const name of [...names, "sqlite_schema"]) {
    try {
      for (const r of q.iterate(name)) pages.push(r.pageno);
    } catch {}
  }
  return pages;
}

/** The free list: trunk pages (next trunk, count, leaf numbers) from the header's first trunk on. */
function freePages(bytes: Uint8Array, pageSize: number, pages: number): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: number[] = [];
  const seen = new Set<number>();
  for (let trunk = view.getUint32(32); trunk > 0 && trunk <= pages && !seen.has(trunk); ) {
    seen.add(trunk);
    out.push(trunk);
    const at = (trunk - 1) * pageSize;
    const n = Math.min(view.getUint32(at + 4), (pageSize - 8) / 4);
    for (let i = 0; i < n; i++) out.push(view.getUint32(at + 8 + 4 * i));
    trunk = view.getUint32(at);
  }
  return out;
}

function leafRecords(file: Uint8Array, page: Uint8Array, pageSize: number, usable: number): LooseRecord[] {
  const view = new DataView(page.buffer, page.byteOffset, page.byteLength);
  const cells = view.getUint16(3);
  const out: LooseRecord[] = [];
  for (let i = 0; i < cells; i++) {
    let at = view.getUint16(8 + 2 * i);
    const [size, a] = varint(page, at);
    const [rowid, b] = varint(page, a);
    at = b;
    const payload = readPayload(file, page, at, Number(size), pageSize, usable);
    out.push({ rowid: Number(rowid), values: decodeRecord(payload) });
  }
  return out;
}

/** A cell's payload: the part on the page, then the overflow chain (4-byte next pointer, then content). */
function readPayload(file: Uint8Array, page: Uint8Array, at: number, size: number, pageSize: number, usable: number) {
  const maxLocal = usable - 35;
  if (size <= maxLocal) return page.subarray(at, at + size);
  const minLocal = Math.floor(((usable - 12) * 32) / 255) - 23;
  let local = minLocal + ((size - minLocal) % (usable - 4));
  if (local > maxLocal) local = minLocal;
  const out = new Uint8Array(size);
  out.set(page.subarray(at, at + local));
  let filled = local;
  let next = new DataView(page.buffer, page.byteOffset).getUint32(at + local);
  for (let hops = 0; filled < size; hops++) {
    if (next < 1 || (next - 1) * pageSize >= file.length || hops > file.length / pageSize)
      throw new Error("broken overflow chain");
    const ov = file.subarray((next - 1) * pageSize, next * pageSize);
    const n = Math.min(usable - 4, size - filled);
    out.set(ov.subarray(4, 4 + n), filled);
    filled += n;
    next = new DataView(ov.buffer, ov.byteOffset).getUint32(0);
  }
  return out;
}

/** A record: header size, serial types, then the values they describe. */
function decodeRecord(p: Uint8Array): unknown[] {
  const [headerSize, start] = varint(p, 0);
  const types: number[] = [];
  for (let at = start; at < Number(headerSize); ) {
    const [t, next] = varint(p, at);
    types.push(Number(t));
    at = next;
  }
  const view = new DataView(p.buffer, p.byteOffset, p.byteLength);
  const values: unknown[] = [];
  let at = Number(headerSize);
  for (const t of types) {
    const [value, size] = serialValue(p, view, at, t);
    values.push(value);
    at += size;
  }
  if (at !== p.length) throw new Error("record size mismatch");
  return values;
}

const INT_BYTES = [0, 1, 2, 3, 4, 6, 8];

function serialValue(p: Uint8Array, view: DataView, at: number, t: number): [unknown, number] {
  if (t === 0) return [null, 0];
  if (t >= 1 && t <= 6) {
    const n = INT_BYTES[t]!;
    let v = 0n;
    for (let i = 0; i < n; i++) v = (v << 8n) | BigInt(p[at + i]!);
    if (p[at]! & 0x80) v -= 1n << BigInt(8 * n);
    return [Number(v), n];
  }
  if (t === 7) return [view.getFloat64(at), 8];
  if (t === 8 || t === 9) return [t - 8, 0];
  if (t >= 12 && t % 2 === 0) return [p.slice(at, at + (t - 12) / 2), (t - 12) / 2];
  if (t >= 13)
    return [new TextDecoder("utf-8", { fatal: true }).decode(p.subarray(at, at + (t - 13) / 2)), (t - 13) / 2];
  throw new Error(`bad serial type ${t}`);
}

/** SQLite's big-endian varint: 7 bits a byte while the high bit is set, the ninth byte whole. */
function varint(p: Uint8Array, at: number): [bigint, number] {
  let v = 0n;
  for (let i = 0; i < 8; i++) {
    const b = p[at + i];
    if (b === undefined) throw new Error("truncated varint");
    v = (v << 7n) | BigInt(b & 0x7f);
    if (!(b & 0x80)) return [v, at + i + 1];
  }
  return [(v << 8n) | BigInt(p[at + 8]!), at + 9];
}
