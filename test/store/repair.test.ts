// `engram check` and `engram repair`, run as a user runs them, on stores broken the way disks break them.
import { afterEach, describe, expect, test, setDefaultTimeout } from "bun:test";
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { runCli, CLI_TEST_TIMEOUT_MS } from "../support/cli";
import { peekDb } from "~/store/sqlite/connection";
import { postJson, spawnServer, tempDir } from "../support/server-process";
import { breakInteriorPage, breakLeafPage, crashedStore, foreignDatabase, rootPage } from "../support/store-files";
import { buildTestApp } from "../support/app";
import { LetterEmbedder } from "../support/embedders";
import { openTestStore, dbOf } from "../support/store";

setDefaultTimeout(CLI_TEST_TIMEOUT_MS); // test/support/cli.ts says why

const dirs: string[] = [];
const scratch = () => {
  const dir = tempDir("engram-repair-");
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const hash = (path: string) => Bun.hash(readFileSync(path)).toString();
const lines = (s: string) => s.trimEnd().split("\n");

describe("engram check", () => {
  test("says ok and exits 0 for a sound store", async () => {
    const path = await crashedStore(scratch(), 30);
    expect(await runCli(["check", `--store-url=${path}`])).toEqual({
      stdout: `ok: ${path} (30 memories of 7 users) passes integrity_check, foreign_key_check and the keyword index check\n`,
      stderr: "",
      code: 0,
    });
  });

  test("lists every problem of a damaged store, names the b-tree, and exits 3 pointing at repair", async () => {
    const path = await crashedStore(scratch(), 400);
    const tree = rootPage(path, "memories");
    const page = breakInteriorPage(path, "memories");
    const r = await runCli(["check", `--store-url=${path}`]);
    expect(r.code).toBe(3);
    const out = lines(r.stdout);
    expect(out[0]).toBe(`Tree ${tree} (memories) page ${page}: btreeInitPage() returns error code 11`);
    expect(out).toContain("wrong # of entries in index memories_by_user");
    expect(out.at(-1)).toBe(
      `damaged: ${path} (400 memories of 7 users): ${out.length - 1} problems; 'engram repair --store-url=${path}' rebuilds the store from what is readable (stop its servers first)`,
    );
  });

  test("refuses a file that is not an Engram store with exit 2 and one line, leaving it untouched", async () => {
    const path = join(scratch(), "app.db");
    foreignDatabase(path, "delete");
    const before = hash(path);
    for (const command of ["check", "repair"])
      expect(await runCli([command, `--store-url=${path}`])).toEqual({
        stdout: "",
        stderr: `engram: STORE_URL: ${path} is a SQLite database of another application (tables: invoices, customers), not an Engram store; it was left untouched (point STORE_URL at an Engram store or a new file)\n`,
        code: 2,
      });
    expect(hash(path)).toBe(before);
    expect(readdirSync(join(path, ".."))).toEqual(["app.db"]);
  });
});

describe("engram repair", () => {
  test("brings back every memory cut off by a broken interior page; the store checks ok and serves them", async () => {
    const dir = scratch();
    const path = await crashedStore(dir, 400);
    breakInteriorPage(path, "memories");
    const broken = hash(path);
    const r = await runCli(["repair", `--store-url=${path}`]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const damagedCopy = /kept as (\S+);/.exec(r.stdout)![1]!;
    // Every table of the schema is copied; how many there are is the migrations' business.
    const tables = /rows in (\d+) tables/.exec(r.stdout)![1]!;
    expect(lines(r.stdout)).toEqual([
      "memories: 400 rows kept (400 of them from pages the damaged index no longer reached), 1 unreadable stretch skipped, 0 rows dropped that refer to lost rows",
      `repaired ${path}: 401 rows in ${tables} tables; the damaged store is kept as ${damagedCopy}; the keyword index was rebuilt and vectors are re-embedded at the next start`,
    ]);
    expect(Number(tables)).toBeGreaterThan(15);
    expect(damagedCopy).toStartWith(`${path}.damaged-`);
    expect(hash(damagedCopy)).toBe(broken);
    expect((await runCli(["check", `--store-url=${path}`])).code).toBe(0);
    const server = await spawnServer([`--store-url=${path}`, "--embedding-model=none"]);
    try {
      const found = await postJson(`${server.url}/search_memory`, { user_id: "user-0", query: "room 42 Tuesdays" });
      expect(found.body.results[0].memory).toBe("Memory 42: the team meets in room 42 on Tuesdays");
      const listed: any = await fetch(`${server.url}/list_memories?user_id=user-0&limit=1`).then((x) => x.json());
      expect(listed.total).toBe(58);
    } finally {
      server.proc.kill("SIGTERM");
      await server.proc.exited;
    }
  });

  test("skips a broken leaf page, keeps every other row, and leaves a store that checks ok", async () => {
    const path = await crashedStore(scratch(), 400);
    breakLeafPage(path, "memories");
    const r = await runCli(["repair", `--store-url=${path}`]);
    expect(r.code).toBe(0);
    const kept = Number(/^memories: (\d+) rows kept/.exec(r.stdout)![1]);
    expect(kept).toBeGreaterThan(360);
    expect(kept).toBeLessThan(400);
    expect((await runCli(["check", `--store-url=${path}`])).stdout).toStartWith(
      `ok: ${path} (${kept} memories of 7 users)`,
    );
  });

  test("leaves a sound store alone unless --force", async () => {
    const path = await crashedStore(scratch(), 30);
    const r = await runCli(["repair", `--store-url=${path}`]);
    expect(r).toEqual({
      stdout: `nothing to repair: ${path} passes SQLite's integrity_check (--force rebuilds it anyway)\n`,
      stderr: "",
      code: 0,
    });
    expect(readdirSync(join(path, "..")).filter((f) => f.includes(".damaged-") || f.includes(".salvage-"))).toEqual([]);
    const key = () => {
      const db = peekDb(path, { wal: true });
      const k = db.query<{ value: Uint8Array }, []>("SELECT value FROM store_secrets").get()!.value;
      db.close();
      return Buffer.from(k).toString("hex");
    };
    const before = key();
    const forced = await runCli(["repair", "--force", `--store-url=${path}`]);
    expect(forced.code).toBe(0);
    // The rebuilt store keeps the store's own key: erased users keep their pseudonyms.
    expect(key()).toBe(before);
    expect(lines(forced.stdout).at(-1)).toMatch(new RegExp(`^repaired ${path}: 31 rows in \\d+ tables;`));
  });
});

test("repair rebuilds the portable vector index's tables instead of copying them, like sqlite-vec's", async () => {
  const path = join(scratch(), "portable.db");
  const options = { storeUrl: `sqlite://${path}`, searchWorkers: 0, vectorIndex: "portable" as const };
  const t = await buildTestApp({ options, embedder: new LetterEmbedder() });
  await t.post("/add_memories", { user_id: "u", memory: "a memory with a vector in the portable index" });
  await t.close();
  expect((await runCli(["repair", "--force", `--store-url=${path}`])).code).toBe(0);
  const store = await openTestStore(path);
  try {
    const tables = dbOf({ store })
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'vec%'")
      .all()
      .map((r) => r.name);
    expect(tables).toEqual(["vector_erasures"]);
  } finally {
    store.close();
  }
});

test("a missing store is not created by check", async () => {
  const path = join(scratch(), "nothing-here.db");
  expect(await runCli(["check", `--store-url=${path}`])).toEqual({
    stdout: "",
    stderr: `engram: STORE_URL: there is no Engram store at ${path}\n`,
    code: 2,
  });
  expect(existsSync(path)).toBe(false);
});
