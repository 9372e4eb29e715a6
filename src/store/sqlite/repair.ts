// `engram repair`: rebuilds a damaged store from what is readable. The damaged file is never written:
// a copy of it is checkpointed and read (every table in key order past damaged pages, plus the rows of
// leaf pages a broken interior page cut off), a new store is migrated and filled (rows that refer to lost
// rows are dropped by the foreign keys), its keyword index is rebuilt, it must pass integrity_check, and
// only then does it take the store's place; the damaged files are kept beside it.
import { copyFileSync, existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { openDb, type Db } from "./connection";
import { migrate } from "./migrate";
import { reindexAll } from "./fts-repo";
import { integrityProblems, requireStore } from "./store-file";
import { salvageRows, type TableShape } from "./salvage";
import { looseRecords, type LooseRecord } from "./loose-pages";

/**
 * Derived data, rebuilt rather than copied: the keyword index (and its owner numbers), the vectors, and the
 * per-user memory counts (their triggers count the memories again as they are copied in).
 */
const DERIVED =
  /^(sqlite_|schema_migrations$|memories_fts|fts_owners$|memory_counts$|memory_embeddings$|vector_erasures$|vec_)/;

export interface TableReport {
  table: string;
  kept: number;
  /** Rows read but refused by the new store (they refer to rows that were lost). */
  dropped: number;
  /** Stretches of the table that could not be read through its b-tree. */
  unreadable: number;
  /** Rows found on leaf pages no b-tree reached any more. */
  recovered: number;
}

export type RepairOutcome =
  | { repaired: false; reason: string }
  | { repaired: true; tables: TableReport[]; damagedCopy: string };

export async function repairStore(
  path: string,
  /** homeOrg: ENGRAM_ORG_ID, for rows of a store made before organizations. */
  opts: { nativeCacheDir: string; homeOrg: string; force?: boolean; now?: Date },
): Promise<RepairOutcome> {
  requireStore(path);
  const stamp = (opts.now ?? new Date()).toISOString().replace(/[-:]/g, "").replace(/\..*/, "");
  const work = `${path}.salvage-${stamp}`;
  const target = `${path}.repaired-${stamp}`;
  try {
    for (const suffix of ["", "-wal", "-shm"])
      if (existsSync(path + suffix)) copyFileSync(path + suffix, work + suffix);
    const source = await openDb(work, { nativeCacheDir: opts.nativeCacheDir });
    let tables: TableReport[];
    try {
      source.run("PRAGMA wal_checkpoint(TRUNCATE)");
      const problems = integrityProblems(source, "PRAGMA integrity_check(1)");
      if (!problems.length && !opts.force)
        return { repaired: false, reason: `nothing to repair: ${path} passes SQLite's integrity_check` };
      tables = await rebuild(source, readFileSync(work), target, opts);
    } finally {
      source.close();
    }
    const damagedCopy = `${path}.damaged-${stamp}`;
    for (const suffix of ["", "-wal", "-shm"])
      if (existsSync(path + suffix)) renameSync(path + suffix, damagedCopy + suffix);
    renameSync(target, path);
    return { repaired: true, tables, damagedCopy };
  } finally {
    for (const f of [work, target]) for (const suffix of ["", "-wal", "-shm"]) rmSync(f + suffix, { force: true });
  }
}

async function rebuild(
  source: Db,
  bytes: Uint8Array,
  target: string,
  o: { nativeCacheDir: string; homeOrg: string },
): Promise<TableReport[]> {
  const db = await openDb(target, { nativeCacheDir: o.nativeCacheDir });
  try {
    migrate(db, o.homeOrg);
    const tables = db
      .query<{ name: string }, []>("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY rowid")
      .all()
      .map((r) => r.name)
      .filter((name) => !DERIVED.test(name) && tableColumns(source, name).length);
    const reports = db.transaction(() => tables.map((name) => copyTable(source, db, name))).immediate();
    const damaged = reports.filter((r) => r.unreadable > 0);
    if (damaged.length) db.transaction(() => recoverLoose(source, db, bytes, damaged)).immediate();
    db.transaction(() => reindexAll(db)).immediate();
    const problems = integrityProblems(db, "PRAGMA integrity_check(5)");
    if (problems.length) throw new Error(`the rebuilt store failed integrity_check: ${problems.join("; ")}`);
    return reports;
  } finally {
    db.close();
  }
}

function tableColumns(db: Db, table: string): { name: string; pk: number; type: string }[] {
  return db
    .query<{ name: string; pk: number; type: string }, [string]>("SELECT name, pk, type FROM pragma_table_info(?)")
    .all(table);
}

function shapeOf(source: Db, target: Db, table: string): TableShape {
  const here = tableColumns(source, table);
  const there = new Set(tableColumns(target, table).map((c) => c.name));
  const withoutRowid = /WITHOUT\s+ROWID/i.test(
    source.query<{ sql: string }, [string]>("SELECT sql FROM sqlite_schema WHERE name = ?").get(table)?.sql ?? "",
  );
  const pk = here.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  const key = withoutRowid ? pk.map((c) => c.name) : ["rowid"];
  const integerKey = !withoutRowid || /INT/i.test(pk[0]?.type ?? "");
  return { name: table, columns: here.map((c) => c.name).filter((c) => there.has(c)), key, integerKey };
}

function copyTable(source: Db, target: Db, table: string): TableReport {
  const shape = shapeOf(source, target, table);
  const insert = inserter(target, shape, shape.key[0] === "rowid");
  const report: TableReport = { table, kept: 0, dropped: 0, unreadable: 0, recovered: 0 };
  let seededRowsGone = false;
  const stats = salvageRows(source, shape, (row) => {
    // A table the migrations seed (e.g. the store's pseudonym key) takes the damaged store's rows instead,
    // once there is one to take: the store keeps its identity.
    if (!seededRowsGone) target.run(`DELETE FROM "${table.replaceAll('"', '""')}"`);
    seededRowsGone = true;
    if (insert(row, row.__k0)) report.kept++;
    else report.dropped++;
  });
  report.unreadable = stats.skipped;
  return report;
}

/** An INSERT of the shape's columns (and the rowid) that answers false when the new store refuses the row. */
function inserter(target: Db, shape: TableShape, withRowid: boolean) {
  const cols = shape.columns.map((c) => `"${c.replaceAll('"', '""')}"`);
  const stmt = target.query<unknown, any[]>(
    `INSERT INTO "${shape.name}" (${withRowid ? "rowid, " : ""}${cols.join(", ")}) VALUES (${[...(withRowid ? ["?"] : []), ...cols.map(() => "?")].join(", ")})`,
  );
  return (row: Record<string, unknown>, rowid?: unknown): boolean => {
    try {
      stmt.run(...(withRowid ? [rowid] : []), ...shape.columns.map((c) => row[c] as any));
      return true;
    } catch {
      return false;
    }
  };
}

/**
 * Rows of the damaged rowid tables found on loose leaf pages, matched to a table by their number of
 * columns; a count two damaged tables share is ambiguous and left out. Rows already copied stay as read.
 */
function recoverLoose(source: Db, target: Db, bytes: Uint8Array, damaged: TableReport[]): void {
  const byWidth = new Map<number, TableReport[]>();
  for (const r of damaged) {
    const width = tableColumns(source, r.table).length;
    byWidth.set(width, [...(byWidth.get(width) ?? []), r]);
  }
  const records = looseRecords(source, bytes);
  for (const [width, reports] of byWidth) {
    if (reports.length !== 1) continue;
    const report = reports[0]!;
    const shape = shapeOf(source, target, report.table);
    if (shape.key[0] !== "rowid") continue;
    const exists = target.query<{ n: number }, [number]>(`SELECT 1 AS n FROM "${report.table}" WHERE rowid = ?`);
    const insert = inserter(target, shape, true);
    const columns = tableColumns(source, report.table);
    for (const rec of records.filter((r: LooseRecord) => r.values.length === width)) {
      if (exists.get(rec.rowid)) continue;
      const alias = columns.filter((c) => c.pk > 0).length === 1 ? columns.find(isIntegerKey) : undefined;
      const row = Object.fromEntries(columns.map((c, i) => [c.name, c === alias ? rec.rowid : rec.values[i]]));
      if (insert(row, rec.rowid)) report.recovered++;
      else report.dropped++;
    }
    report.kept += report.recovered;
  }
}

/** A lone INTEGER PRIMARY KEY column is the rowid: its slot in the record holds NULL. */
const isIntegerKey = (c: { pk: number; type: string }) => c.pk === 1 && c.type.toUpperCase() === "INTEGER";
