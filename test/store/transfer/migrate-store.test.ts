// `engram migrate-store` on a real PostgreSQL (with pgvector) and real SQLite files: SQLite → PostgreSQL
// through the command line and back through the library, each copy compared row by row, vector by vector,
// and then served (keyword and vector search, new rows numbered after the copied ones); a non-empty
// target refused and left as it was unless --replace; every column of both schemas accounted for.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freshSchema, postgresSkip, testPostgres, type TestSchema } from "../../support/postgres";
import { HOME_ORG, NATIVE_CACHE, openTestStore } from "../../support/store";
import { runCli } from "../../support/cli";
import { openPostgresStore, type PostgresStore } from "~/store/postgres/postgres-store";
import { compareStores, migrateStore, TargetNotEmptyError } from "~/store/transfer";
import { sqliteEndpoint } from "~/store/sqlite/transfer-side";
import { postgresEndpoint } from "~/store/postgres/transfer-side";
import { ENGINE_ONLY, TABLES, DERIVED } from "~/store/transfer-tables";
import { silentLogger } from "~/shared/logger";
import type { Store } from "~/store/store";
import { EVERY_ROW } from "~/shared/store-scope";
import { axis, NOW, seed } from "./seed";
import { newMemory, owner } from "../../support/memory-rows";

const logger = silentLogger();
const lite = (path: string) => sqliteEndpoint(path, { nativeCacheDir: NATIVE_CACHE, homeOrg: HOME_ORG, logger });
const pg = (url: string) => postgresEndpoint(url, { homeOrg: HOME_ORG, logger });
const openPg = (s: TestSchema): Promise<PostgresStore> =>
  openPostgresStore({ url: s.url, migrationUrl: s.migrationUrl, poolSize: 2, homeOrg: HOME_ORG, logger });

async function compared(a: ReturnType<typeof lite>, b: ReturnType<typeof lite>): Promise<string[]> {
  try {
    return await compareStores(a, b);
  } finally {
    await a.close();
    await b.close();
  }
}

/** What a served store answers for alice: keyword hits, nearest vectors, and the rowid a new memory gets. */
async function serves(store: Store) {
  const filter = { org: "default", userId: "alice", sessionId: "", now: NOW + 20 };
  return store.write(async (r) => {
    const keyword = await r.search.rows(
      filter,
      (await r.search.keyword(filter, "cats", 5)).map((h) => h.rowid),
    );
    const space = await r.vectors.open("test/letters", 4);
    const nearest = await r.search.rows(
      filter,
      (await r.vectors.rank(space, filter, axis(1), 1)).map((h) => h.rowid),
    );
    const next = await r.memories.insert(newMemory("new", "written after the copy", { created_at: NOW + 30 }));
    const versions = await r.memories.versions(owner("alice"), "m0");
    return { keyword: keyword.map((h) => h.id), nearest: nearest.map((h) => h.id), next, versions: versions.length };
  }, EVERY_ROW);
}

describe.skipIf(!!postgresSkip)(`engram migrate-store${postgresSkip ? ` (skipped: ${postgresSkip})` : ""}`, () => {
  let dir: string;
  let source: string;
  let schema: TestSchema;
  let back: TestSchema;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "engram-migrate-"));
    source = join(dir, "source.db");
    const store = await openTestStore(source);
    await seed(store);
    await store.close();
    [schema, back] = await Promise.all([freshSchema("migrate"), freshSchema("migrate_back")]);
  }, 120_000);
  afterAll(async () => {
    await schema?.drop();
    await back?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("SQLite → PostgreSQL from the command line: every row, vector and keyword row compares equal, and the copy serves", async () => {
    const run = await runCli(["migrate-store", `--from=sqlite://${source}`, "--to", schema.migrationUrl]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("  memories: 4 rows\n");
    expect(run.stdout).toContain("  vectors of test/letters: 4\n");
    expect(run.stdout).toMatch(
      /copied sqlite:\/\/.*source\.db → postgres:\/\/engram_owner@.*: \d+ rows and 4 vectors, every one compared equal/,
    );
    expect(run.stdout).not.toContain(":" + new URL(schema.migrationUrl).password + "@");
    // The first server start grants the app's role its rows; compared again from outside as that role
    // (row-level security in force).
    const store = await openPg(schema);
    try {
      expect(await compared(lite(source), pg(schema.url))).toEqual([]);
      const served = await serves(store);
      // The identity counter was moved past the copied rowids and the deleted memory's.
      expect(served).toEqual({ keyword: ["m0"], nearest: ["m1"], next: 6, versions: 1 });
    } finally {
      await store.close();
    }
  }, 120_000);

  test("a non-empty PostgreSQL target is refused (exit 2) and left as it was; --replace copies over it", async () => {
    const before = await compared(lite(source), pg(schema.url));
    expect(before).toContain("memories [6]: only in the copy");
    const refused = await runCli(["migrate-store", `--from=${source}`, `--to=${schema.migrationUrl}`]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("is not empty; --replace deletes everything in it");
    expect(await compared(lite(source), pg(schema.url))).toEqual(before);
    const replaced = await runCli(["migrate-store", `--from=${source}`, `--to=${schema.migrationUrl}`, "--replace"]);
    expect(replaced.code).toBe(0);
    expect(await compared(lite(source), pg(schema.url))).toEqual([]);
  }, 120_000);

  test("PostgreSQL → a new SQLite file: equal, served, and only the most common model's vector kept per memory", async () => {
    const store = await openPg(back);
    await seed(store);
    await store.close();
    const target = join(dir, "back.db");
    const from = pg(back.migrationUrl);
    const report = await migrateStore(from, lite(target), { replace: false }).finally(() => from.close());
    expect(report.vectors).toEqual([
      { model: "test/letters", copied: 4, skipped: 0 },
      { model: "test/old", copied: 0, skipped: 1 },
    ]);
    expect(report.tables.find((t) => t.table === "audit_log")).toEqual({ table: "audit_log", rows: 2 });
    expect(await compared(pg(back.url), lite(target))).toEqual([]);
    // SQLite and PostgreSQL stores filled by the same writes hold the same rows.
    expect(await compared(lite(source), lite(target))).toEqual([]);
    expect(existsSync(`${target}.migrating-${process.pid}`)).toBe(false);
    const copy = await openTestStore(target);
    try {
      expect(await serves(copy)).toEqual({ keyword: ["m0"], nearest: ["m1"], next: 6, versions: 1 });
    } finally {
      await copy.close();
    }
  }, 120_000);

  test("the comparison names every difference: a changed text, a changed vector, a key digest", async () => {
    const { admin } = await testPostgres();
    // The triggers of the store's tables name them unqualified: the store's search path is needed.
    await admin.begin(async (tx) => {
      await tx.unsafe(`SET LOCAL search_path = ${back.schema}, public`);
      await tx.unsafe("UPDATE memories SET memory = 'changed' WHERE id = 'm1'");
      await tx.unsafe(
        "UPDATE memory_vectors SET embedding = '[1,0,0,0]' WHERE model = 'test/letters' AND memory_rowid = 3",
      );
      await tx.unsafe("UPDATE api_keys SET secret_hash = '\\x00010200' WHERE id = 'k1'");
    });
    expect(await compared(pg(back.url), lite(join(dir, "back.db")))).toEqual([
      "memories [2]: memory differs",
      // Written into the SQLite copy when it served (above).
      "memories [6]: only in the copy",
      'api_keys ["k1"]: secret_hash differs',
      "vector of memory 3 (test/letters): differs",
      "memory rowids: the source has given up to 5, the copy up to 6",
    ]);
  });

  test("a non-empty SQLite target is refused and untouched", async () => {
    const target = join(dir, "back.db");
    const from = pg(back.url);
    const err = await migrateStore(from, lite(target), { replace: false })
      .catch((e) => e)
      .finally(() => from.close());
    expect(err).toBeInstanceOf(TargetNotEmptyError);
    expect(await compared(lite(target), lite(target))).toEqual([]);
    const copy = await openTestStore(target);
    expect(await copy.read((r) => r.memories.total())).toBe(5);
    await copy.close();
  }, 60_000);

  test("every column of both schemas is copied, derived from its parent, or named as one engine's own", async () => {
    const sqlite = await openTestStore();
    const listed = new Map(TABLES.map((t) => [t.name, new Set(t.columns)]));
    const left: string[] = [];
    const tables = sqlite.db
      .query<{ name: string }, []>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'memories_fts%'",
      )
      .all();
    for (const { name } of tables) {
      if (ENGINE_ONLY.sqlite.includes(name)) continue;
      for (const c of sqlite.db.query<{ name: string }, []>(`PRAGMA table_info(${name})`).all())
        if (!listed.get(name)?.has(c.name)) left.push(`sqlite ${name}.${c.name}`);
    }
    await sqlite.close();
    const { admin } = await testPostgres();
    const cols: { table_name: string; column_name: string }[] = await admin.unsafe(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = $1",
      [schema.schema],
    );
    for (const { table_name: t, column_name: c } of cols)
      if (!ENGINE_ONLY.postgres.includes(t) && !ENGINE_ONLY.columns.postgres[t]?.includes(c) && !listed.get(t)?.has(c))
        left.push(`postgres ${t}.${c}`);
    expect(left).toEqual([]);
    expect(Object.keys(DERIVED).every((t) => listed.has(t))).toBe(true);
  });
});
