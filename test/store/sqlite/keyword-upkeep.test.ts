// The keyword index's upkeep (store/sqlite/keyword-upkeep.ts): once text was indexed and the store then served
// nothing for a while, the server's connection merges FTS5 segments in steps; a write or a search between steps
// stops the merge (the write is kept), closing the store stops it after the step under way, and every memory is
// found by its words throughout.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger, type Logger } from "~/shared/logger";
import { openSqliteStore, type SqliteStore } from "~/store/sqlite/sqlite-store";
import type { KeywordUpkeepOptions } from "~/store/sqlite/keyword-upkeep";
import { newMemory, owner } from "../../support/memory-rows";
import { HOME_ORG, NATIVE_CACHE } from "../../support/store";
import { buildTestApp } from "../../support/app";

const dir = mkdtempSync(join(tmpdir(), "engram-keyword-upkeep-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Never on a timer (quietMs Infinity): each test starts the merge itself. */
const manual = (o: Partial<KeywordUpkeepOptions> = {}): KeywordUpkeepOptions => ({
  quietMs: Number.POSITIVE_INFINITY,
  maxSegments: 1,
  stepPages: 1,
  ...o,
});

const open = (name: string, keywordUpkeep: KeywordUpkeepOptions | false, logger: Logger = silentLogger()) =>
  openSqliteStore({ path: join(dir, name), nativeCacheDir: NATIVE_CACHE, homeOrg: HOME_ORG, logger, keywordUpkeep });

/**
 * `n` memories, each in a write of its own (a commit, so a segment), all holding "bees"; 400 words of their
 * own each, so a segment spans several pages and a merge takes more than one step of a page.
 */
async function fill(store: SqliteStore, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const words = Array.from({ length: 400 }, (_, j) => `w${i}x${j}`).join(" ");
    await store.write((r) => r.memories.insert(newMemory(`m${i}`, `bees ${words}`)));
  }
}

const bees = (store: SqliteStore) => store.read((r) => r.search.termDocs(owner("alice"), ["bees"]));
const integrity = (store: SqliteStore) =>
  store.db.run("INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 0)");

/** A gate for the pause between steps: `reached` resolves at the first pause, which waits for `release`. */
function gate() {
  let reach!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((r) => (reach = r));
  const released = new Promise<void>((r) => (release = r));
  return { reached, release, pause: () => (reach(), released) };
}

/** A store of 30 memories whose merge run met `between` at its first pause between two steps, and then ended. */
async function interrupted(name: string, between: (store: SqliteStore) => unknown): Promise<SqliteStore> {
  const g = gate();
  const store = await open(name, manual({ pause: g.pause }));
  await fill(store, 30);
  const run = store.keywordUpkeep!.run();
  await g.reached;
  await between(store);
  g.release();
  await run;
  return store;
}

test("a merge run leaves a keyword index of 40 commits in one segment, and every memory is found by its words as before", async () => {
  const store = await open("merge.db", manual({ stepPages: 64 }));
  try {
    await fill(store, 40);
    const before = await bees(store);
    expect(await store.keywordUpkeep!.segments()).toBeGreaterThan(3);
    await store.keywordUpkeep!.run();
    expect(await store.keywordUpkeep!.segments()).toBe(1);
    expect(await bees(store)).toEqual(before);
    expect(before.rowids[0]!.length).toBe(40);
    integrity(store);
  } finally {
    await store.close();
  }
});

/** 60 group commits of 32 adds each (all 32 are ready in the same turn, so they share one commit and one flush). */
async function fillInGroups(store: SqliteStore): Promise<void> {
  let n = 0;
  for (let batch = 0; batch < 60; batch++)
    await Promise.all(
      Array.from({ length: 32 }, () => {
        const i = n++;
        const words = Array.from({ length: 20 }, (_, j) => `t${(i * 7 + j) % 500}`).join(" ");
        return store.group((r) => r.memories.insert(newMemory(`g${i}`, `bees g${i} ${words}`)));
      }),
    );
}

const segmentsOf = (s: SqliteStore) =>
  s.db.query<{ n: number }, []>("SELECT count(DISTINCT segid) AS n FROM memories_fts_idx").get()!.n;

test("group commits that index many memories in one flush merge a page for each while the index holds more than 6 segments: 1,920 adds leave 5, not 15", async () => {
  const merged = await open("groups.db", manual());
  const unmerged = await open("groups-off.db", false);
  try {
    await fillInGroups(merged);
    await fillInGroups(unmerged);
    // No idle-time merge ran (quietMs Infinity): the batches merged as they committed.
    expect(merged.keywordUpkeep!.steps).toBe(0);
    expect(segmentsOf(merged)).toBe(5);
    expect(segmentsOf(unmerged)).toBe(15);
    expect((await bees(merged)).rowids[0]!.length).toBe(1920);
    expect(await bees(merged)).toEqual(await bees(unmerged));
    integrity(merged);
  } finally {
    await merged.close();
    await unmerged.close();
  }
});

/** 32 adds in one group commit. */
const lateBatch = (store: SqliteStore, name: string) =>
  Promise.all(
    Array.from({ length: 32 }, (_, i) =>
      store.group((r) => r.memories.insert(newMemory(`${name}${i}`, `bees ${name}${i} t1 t2 t3`))),
    ),
  );

test("a group commit whose merge fails commits its writes all the same, the index stays whole, and the next batch merges", async () => {
  // 15 segments, written without upkeep; opened again with it.
  const loaded = await open("merge-fails.db", false);
  await fillInGroups(loaded);
  await loaded.close();
  const warnings: string[] = [];
  const store = await open("merge-fails.db", manual(), {
    ...silentLogger(),
    warn: (message: string) => void warnings.push(message),
  });
  try {
    expect(segmentsOf(store)).toBe(15);
    // The merge runs, then fails (as one that hit an I/O error halfway would): what it merged must be undone.
    const run = store.db.run.bind(store.db);
    store.db.run = ((sql: string, ...bindings: any[]) => {
      const changes = run(sql, ...bindings);
      if (sql.includes("'merge'")) throw new Error("injected after the merge");
      return changes;
    }) as typeof store.db.run;
    await lateBatch(store, "failed");
    expect(warnings).toEqual(["keyword index merge skipped"]);
    expect(segmentsOf(store)).toBe(16);
    expect((await bees(store)).rowids[0]!.length).toBe(1952);
    integrity(store);
    store.db.run = run;
    await lateBatch(store, "merged");
    expect(segmentsOf(store)).toBeLessThan(16);
    integrity(store);
  } finally {
    await store.close();
  }
});

test("each run after adds writes at most twice the pages they added: the large segment is rewritten over later runs", async () => {
  const store = await open("bounded.db", manual({ maxSegments: 1 }));
  const upkeep = store.keywordUpkeep!;
  try {
    await fill(store, 40);
    await upkeep.run();
    const runs: { added: number; steps: number }[] = [];
    let late = 0;
    // Runs after 1 to 19 adds: unbounded, two of these runs rewrote the large segment (19-20 steps after 6-12 pages).
    for (let i = 0; i < 40; i++) {
      for (let j = 0; j < 1 + (i % 7) * 3; j++)
        await store.write((r) => r.memories.insert(newMemory(`late${late++}`, `bees late ${"word ".repeat(50)}`)));
      const pages = store.db
        .query<[number], []>("SELECT count(*) FROM memories_fts_idx GROUP BY segid")
        .values()
        .map((r) => r[0] as number);
      const before = upkeep.steps;
      await upkeep.run();
      runs.push({ added: pages.reduce((a, b) => a + b, 0) - Math.max(...pages), steps: upkeep.steps - before });
    }
    expect(runs.filter((r) => r.steps > 2 * r.added)).toEqual([]);
    expect(runs.some((r) => r.steps > 0)).toBe(true);
    expect((await bees(store)).rowids[0]!.length).toBe(40 + late);
    integrity(store);
  } finally {
    await store.close();
  }
});

test("an index with no more segments than allowed is not merged: the run commits nothing", async () => {
  const store = await open("few.db", manual({ maxSegments: 100 }));
  try {
    await fill(store, 5);
    const changes = store.db.query<{ n: number }, []>("SELECT total_changes() AS n").get()!.n;
    await store.keywordUpkeep!.run();
    expect(store.keywordUpkeep!.steps).toBe(0);
    expect(store.db.query<{ n: number }, []>("SELECT total_changes() AS n").get()!.n).toBe(changes);
  } finally {
    await store.close();
  }
});

test("a memory written between two merge steps is kept and found, and the merge stops until it is quiet again", async () => {
  const store = await interrupted("write.db", (s) =>
    s.write((r) => r.memories.insert(newMemory("late", "bees arrived late"))),
  );
  try {
    expect(store.keywordUpkeep!.steps).toBe(1);
    expect((await bees(store)).rowids[0]!.length).toBe(31);
    integrity(store);
    // The next run (writes are quiet now) merges to the end: the late memory's segment stays on a level of its own.
    await store.keywordUpkeep!.run();
    expect(store.keywordUpkeep!.steps).toBeGreaterThan(1);
    expect(await store.keywordUpkeep!.segments()).toBe(2);
    expect((await bees(store)).rowids[0]!.length).toBe(31);
  } finally {
    await store.close();
  }
});

test("a search served between two merge steps stops the merge, and the next quiet run goes on with the budget left", async () => {
  const store = await interrupted("search.db", (s) => s.serving());
  try {
    expect(store.keywordUpkeep!.steps).toBe(1);
    await store.keywordUpkeep!.run();
    expect(store.keywordUpkeep!.steps).toBeGreaterThan(2);
    expect(await store.keywordUpkeep!.segments()).toBe(1);
  } finally {
    await store.close();
  }
});

test("a search over HTTP tells the store it is serving (searches rank on workers' connections, which the store does not see)", async () => {
  const t = await buildTestApp();
  try {
    const store = t.services.store;
    let told = 0;
    const serving = store.serving.bind(store);
    store.serving = () => (told++, serving());
    const res = await t.post("/search_memory", { user_id: "alice", query: "bees" });
    expect(res.status).toBe(200);
    expect(told).toBe(1);
  } finally {
    await t.close();
  }
});

test("closing the store during a merge commits the step under way and starts no other; opened again, the store is whole and the merge ends", async () => {
  const path = "close.db";
  let closed: Promise<void> | undefined;
  // Not awaited in between: closing waits for the step under way, which waits for the gate.
  const store = await interrupted(path, (s) => void (closed = s.close()));
  await closed;
  expect(store.keywordUpkeep!.steps).toBe(1);
  const again = await open(path, manual());
  try {
    integrity(again);
    expect((await bees(again)).rowids[0]!.length).toBe(30);
    expect(await again.keywordUpkeep!.segments()).toBeGreaterThan(1);
    await again.keywordUpkeep!.run();
    expect(await again.keywordUpkeep!.segments()).toBe(1);
    integrity(again);
    expect((await bees(again)).rowids[0]!.length).toBe(30);
  } finally {
    await again.close();
  }
});

test("a store merges by itself once no text was indexed for the quiet time", async () => {
  const g = gate();
  const store = await open("timer.db", { quietMs: 0, maxSegments: 1, stepPages: 1, pause: g.pause });
  try {
    await fill(store, 30);
    await g.reached;
    expect(store.keywordUpkeep!.steps).toBe(1);
    g.release();
  } finally {
    await store.close();
  }
});

test("a read-only connection (a search worker's) never merges, nor does a store opened without upkeep", async () => {
  const writer = await open("readonly.db", false);
  await fill(writer, 3);
  expect(writer.keywordUpkeep).toBeNull();
  await writer.close();
  const reader = await openSqliteStore({
    path: join(dir, "readonly.db"),
    nativeCacheDir: NATIVE_CACHE,
    readOnly: true,
    logger: silentLogger(),
  });
  try {
    expect(reader.keywordUpkeep).toBeNull();
  } finally {
    await reader.close();
  }
});
