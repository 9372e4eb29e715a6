// `engram migrate-store`: copies a store to another (SQLite ↔ PostgreSQL) — every table of transfer-tables.ts in
// key order, then each model's vectors — and, before the target commits, compares every row and vector
// of both. A target that holds anything is refused unless the caller asked to replace it.
import {
  TABLES,
  type Endpoint,
  type Row,
  type SourceSide,
  type TableSpec,
  type TargetSide,
  type Vectors,
} from "./transfer-tables";

const PAGE = 1000;
const VECTOR_BATCH = 500;
/** Differences listed per table before the rest are only counted. */
const SHOWN = 10;

export class TargetNotEmptyError extends Error {}
export class MismatchError extends Error {
  constructor(readonly problems: string[]) {
    super(`the copy does not compare equal to its source, so nothing was written:\n  ${problems.join("\n  ")}`);
  }
}

export interface TransferReport {
  tables: { table: string; rows: number }[];
  vectors: { model: string; copied: number; skipped: number }[];
}

/** Copies `from` into `to` and verifies the copy; the target commits only if both compare equal. */
export function migrateStore(from: Endpoint, to: Endpoint, o: { replace: boolean }): Promise<TransferReport> {
  return from.read((src) =>
    to.write(async (dst) => {
      if (!(await dst.isEmpty())) {
        if (!o.replace)
          throw new TargetNotEmptyError(
            `${to.label} is not empty; --replace deletes everything in it and copies ${from.label} over`,
          );
        await dst.clear();
      }
      const tables: TransferReport["tables"] = [];
      for (const t of TABLES) tables.push({ table: t.name, rows: await copyTable(src, dst, t) });
      await dst.finishRows();
      await dst.reserveMemoryRowids(await src.lastMemoryRowid());
      const vectors = await copyVectors(src, dst);
      const problems = await compareSides(src, dst, dst.oneModelPerMemory);
      if (problems.length) throw new MismatchError(problems);
      return { tables, vectors };
    }),
  );
}

/** Every difference between two stores' rows, vectors and keyword index (empty: they hold the same). */
export function compareStores(a: Endpoint, b: Endpoint): Promise<string[]> {
  return a.read((sa) => b.read((sb) => compareSides(sa, sb, b.kind === "sqlite")));
}

async function* scan(side: SourceSide, t: TableSpec): AsyncGenerator<Row> {
  for (let after: unknown[] | null = null; ; ) {
    const rows = await side.rows(t, after, PAGE);
    yield* rows;
    if (rows.length < PAGE) return;
    after = t.key.map((k) => rows.at(-1)![k]);
  }
}

async function copyTable(src: SourceSide, dst: TargetSide, t: TableSpec): Promise<number> {
  let n = 0;
  let batch: Row[] = [];
  for await (const row of scan(src, t)) {
    batch.push(row);
    if (batch.length >= PAGE) {
      await dst.insert(t, batch);
      n += batch.length;
      batch = [];
    }
  }
  await dst.insert(t, batch);
  return n + batch.length;
}

/**
 * Which model's vector of each memory the target keeps: all of them, or — a target recording one model
 * per memory (SQLite) — the vector of the model that embedded the most memories among those that embedded it.
 */
async function wanted(src: SourceSide, oneModel: boolean): Promise<Map<string, Vectors>> {
  const out = new Map<string, Vectors>();
  const taken = new Set<number>();
  for (const { model } of await src.models()) {
    const all = await src.vectors(model);
    if (!oneModel) {
      out.set(model, all);
      continue;
    }
    const kept: Vectors = new Map();
    for (const [rowid, v] of all) if (!taken.has(rowid)) kept.set(rowid, v), taken.add(rowid);
    out.set(model, kept);
  }
  return out;
}

async function copyVectors(src: SourceSide, dst: TargetSide): Promise<TransferReport["vectors"]> {
  const report: TransferReport["vectors"] = [];
  const keep = await wanted(src, dst.oneModelPerMemory);
  for (const { model, count } of await src.models()) {
    const rows = [...keep.get(model)!];
    const dims = rows.find(([, v]) => v)?.[1]?.length ?? 1;
    for (let i = 0; i < rows.length; i += VECTOR_BATCH)
      await dst.putVectors(model, dims, rows.slice(i, i + VECTOR_BATCH));
    report.push({ model, copied: rows.length, skipped: count - rows.length });
  }
  return report;
}

/** Orders keys as both engines do: numbers by value, text by its UTF-8 bytes. */
function compareKeys(a: unknown[], b: unknown[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    const c =
      typeof x === "number" && typeof y === "number"
        ? x - y
        : Buffer.compare(Buffer.from(String(x)), Buffer.from(String(y)));
    if (c) return c;
  }
  return 0;
}

async function compareTable(a: SourceSide, b: SourceSide, t: TableSpec): Promise<string[]> {
  const problems: string[] = [];
  const ia = scan(a, t);
  const ib = scan(b, t);
  let ra = await ia.next();
  let rb = await ib.next();
  const keyOf = (r: Row) => t.key.map((k) => r[k]);
  while (!ra.done || !rb.done) {
    const c = ra.done ? 1 : rb.done ? -1 : compareKeys(keyOf(ra.value), keyOf(rb.value));
    if (c < 0) problems.push(`${t.name} ${JSON.stringify(keyOf(ra.value as Row))}: missing from the copy`);
    else if (c > 0) problems.push(`${t.name} ${JSON.stringify(keyOf(rb.value as Row))}: only in the copy`);
    else {
      const differ = t.columns.filter((col) => !sameValue((ra.value as Row)[col], (rb.value as Row)[col]));
      if (differ.length)
        problems.push(
          `${t.name} ${JSON.stringify(keyOf(ra.value as Row))}: ${differ.join(", ")} ${differ.length === 1 ? "differs" : "differ"}`,
        );
    }
    if (c <= 0) ra = await ia.next();
    if (c >= 0) rb = await ib.next();
  }
  return problems;
}

/** Equal values of a portable row: the same number, text or null, or the same bytes (a key digest). */
function sameValue(x: unknown, y: unknown): boolean {
  if (x instanceof Uint8Array && y instanceof Uint8Array) return Buffer.compare(x, y) === 0;
  return Object.is(x ?? null, y ?? null);
}

const sameVector = (x: Float32Array | null, y: Float32Array | null) =>
  x === null || y === null
    ? x === y
    : Buffer.compare(
        Buffer.from(x.buffer, x.byteOffset, x.byteLength),
        Buffer.from(y.buffer, y.byteOffset, y.byteLength),
      ) === 0;

async function compareVectors(a: SourceSide, b: SourceSide, oneModel: boolean): Promise<string[]> {
  const problems: string[] = [];
  const expected = await wanted(a, oneModel);
  const models = new Set([...expected.keys(), ...(await b.models()).map((m) => m.model)]);
  for (const model of models) {
    const want = expected.get(model) ?? new Map();
    const got = await b.vectors(model);
    for (const [rowid, v] of want)
      if (!got.has(rowid)) problems.push(`vector of memory ${rowid} (${model}): missing from the copy`);
      else if (!sameVector(v, got.get(rowid)!)) problems.push(`vector of memory ${rowid} (${model}): differs`);
    for (const rowid of got.keys())
      if (!want.has(rowid)) problems.push(`vector of memory ${rowid} (${model}): only in the copy`);
  }
  return problems;
}

async function compareSides(a: SourceSide, b: SourceSide, oneModel: boolean): Promise<string[]> {
  const problems: string[] = [];
  const cap = (list: string[], what: string) =>
    list.length > SHOWN ? [...list.slice(0, SHOWN), `… and ${list.length - SHOWN} more differences in ${what}`] : list;
  for (const t of TABLES) problems.push(...cap(await compareTable(a, b, t), t.name));
  problems.push(...cap(await compareVectors(a, b, oneModel), "vectors"));
  const [lastA, lastB] = [await a.lastMemoryRowid(), await b.lastMemoryRowid()];
  if (lastA !== lastB) problems.push(`memory rowids: the source has given up to ${lastA}, the copy up to ${lastB}`);
  const unindexed = await b.unindexed();
  if (unindexed) problems.push(`keyword index: ${unindexed} memories of the copy have no keyword row`);
  return problems;
}
