// Reading what is still readable of one table of a damaged store, in key order: rows come one at a
// time, so a damaged page costs only its own rows; after an error the reader seeks ever further past
// the last good key until a seek succeeds, and goes on from there.
import type { Db } from "./connection";

export interface TableShape {
  name: string;
  /** The columns to read (those the table has in both stores). */
  columns: string[];
  /** The key the table is ordered by: ["rowid"], or a WITHOUT ROWID table's primary key. */
  key: string[];
  /** Whether the key's first column holds integers (rowid, INTEGER keys) rather than text. */
  integerKey: boolean;
}

export interface SalvageStats {
  read: number;
  /** Stretches of the key order that could not be read (their rows are lost or come from loose pages). */
  skipped: number;
}

type Row = Record<string, unknown>;
const q = (name: string) => `"${name.replaceAll('"', '""')}"`;
const BATCH = 1000;

/** Calls `visit` with every readable row of `t` in key order; the row carries the key under "__k0", "__k1", …. */
export function salvageRows(db: Db, t: TableShape, visit: (row: Row) => void): SalvageStats {
  const sql = statements(t);
  const first = db.query<Row, []>(sql.first);
  const after = db.query<Row, any[]>(sql.after);
  const from = db.query<Row, any[]>(sql.from);
  const stats: SalvageStats = { read: 0, skipped: 0 };
  let last: any[] | null = null;
  let resume: any[] | null = null;
  for (;;) {
    let n = 0;
    try {
      const rows: IterableIterator<Row> = resume
        ? from.iterate(...resume)
        : last
          ? after.iterate(...last)
          : first.iterate();
      resume = null;
      for (const row of rows) {
        visit(row);
        last = t.key.map((_, i) => row[`__k${i}`]);
        n++;
      }
      stats.read += n;
      if (n < BATCH) return stats;
    } catch {
      stats.read += n;
      stats.skipped++;
      resume = seekPast(db, t, sql.probe, last);
      if (!resume) return stats;
    }
  }
}

/** The batch reads: from the start, after a key, from a key on; and the probe that seeks a first key. */
function statements(t: TableShape) {
  const ref = (k: string) => (k === "rowid" ? "rowid" : q(k));
  const keys = t.key.map((k, i) => `${ref(k)} AS __k${i}`).join(", ");
  const order = t.key.map(ref).join(", ");
  const tuple = t.key.length > 1 ? `(${order})` : order;
  const params = t.key.length > 1 ? `(${t.key.map(() => "?").join(", ")})` : "?";
  const select = `SELECT ${t.columns.map(q).join(", ")}, ${keys} FROM ${q(t.name)}`;
  const tail = `ORDER BY ${order} LIMIT ${BATCH}`;
  return {
    first: `${select} ${tail}`,
    after: `${select} WHERE ${tuple} > ${params} ${tail}`,
    from: `${select} WHERE ${tuple} >= ${params} ${tail}`,
    probe: `SELECT ${keys} FROM ${q(t.name)} WHERE ${ref(t.key[0]!)} >= ? ORDER BY ${order} LIMIT 1`,
  };
}

/** The first readable key after `last`, trying ever farther lower bounds; null when none is readable. */
function seekPast(db: Db, t: TableShape, probeSql: string, last: any[] | null): any[] | null {
  const probe = db.query<Row, [any]>(probeSql);
  for (const bound of lowerBounds(t.integerKey, last?.[0])) {
    try {
      const row = probe.get(bound);
      return row ? t.key.map((_, i) => row[`__k${i}`]) : null;
    } catch {}
  }
  return null;
}

/** Candidate lower bounds past a key, nearest first. */
function* lowerBounds(integer: boolean, after: unknown): Generator<unknown> {
  if (integer) {
    const base = typeof after === "number" ? after : 0;
    for (let d = 1; d <= 2 ** 53; d *= 2) yield base + d;
    return;
  }
  const s = typeof after === "string" ? after : "";
  // Past every key that starts like `s`: the same prefix with its last character one higher, shorter each time.
  for (let i = s.length; i > 0; i--) yield s.slice(0, i - 1) + String.fromCodePoint(s.codePointAt(i - 1)! + 1);
  for (const c of "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz\u0080\uffff") if (c > s) yield c;
}
