// Start-up on a file that is not (or no longer) a sound Engram store: refused with one line and the file
// left as it was; a store whose last process did not stop is checked first, and refused when damaged.
import { afterEach, describe, expect, test, setDefaultTimeout } from "bun:test";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, CLI_TEST_TIMEOUT_MS } from "../support/cli";
import { spawnServer, tempDir } from "../support/server-process";
import { breakInteriorPage, crashedStore, foreignDatabase } from "../support/store-files";

setDefaultTimeout(CLI_TEST_TIMEOUT_MS); // test/support/cli.ts says why

const dirs: string[] = [];
const scratch = () => {
  const dir = tempDir("engram-store-file-");
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Every file of the folder with its bytes' hash: "untouched" means this does not change. */
const snapshot = (dir: string) =>
  Object.fromEntries(readdirSync(dir).map((f) => [f, Bun.hash(readFileSync(join(dir, f))).toString()]));

describe("a file that is not an Engram store", () => {
  for (const journal of ["delete", "wal"] as const)
    test(`another application's SQLite database (${journal} journal) is refused with exit 2 and one line, and left untouched`, async () => {
      const dir = scratch();
      const path = join(dir, "app.db");
      foreignDatabase(path, journal);
      const before = snapshot(dir);
      const r = await runCli(["serve", `--store-url=${path}`, "--port=0"]);
      expect(r).toEqual({
        stdout: "",
        stderr: `engram: STORE_URL: ${path} is a SQLite database of another application (tables: invoices, customers), not an Engram store; it was left untouched (point STORE_URL at an Engram store or a new file)\n`,
        code: 2,
      });
      expect(snapshot(dir)).toEqual(before);
    });

  test("a file that is not SQLite at all is refused with exit 2 and one line, and left untouched", async () => {
    const dir = scratch();
    const path = join(dir, "notes.txt");
    writeFileSync(path, "shopping list: milk, eggs\n".repeat(100));
    const before = snapshot(dir);
    const r = await runCli(["serve", `--store-url=${path}`, "--port=0"]);
    expect(r).toEqual({
      stdout: "",
      stderr: `engram: STORE_URL: ${path} is not a SQLite database, not an Engram store; it was left untouched (point STORE_URL at an Engram store or a new file)\n`,
      code: 2,
    });
    expect(snapshot(dir)).toEqual(before);
  });
});

describe("a store whose last process did not stop cleanly", () => {
  test("is checked at start and refused with exit 3 when a page is damaged, pointing at engram check and repair", async () => {
    const dir = scratch();
    const path = await crashedStore(dir, 400);
    const page = breakInteriorPage(path, "memories");
    const r = await runCli(["serve", `--store-url=${path}`, "--port=0"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`(memories) page ${page}: btreeInitPage() returns error code 11`);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n")).toHaveLength(2);
    expect(r.stderr).toStartWith(
      `engram: the store ${path} is damaged (SQLite's quick_check after an unclean shutdown: `,
    );
    expect(r.stderr).toEndWith(
      `); nothing was started — 'engram check --store-url=${path}' reports every problem, 'engram repair --store-url=${path}' rebuilds the store from what is readable\n`,
    );
  });

  test("starts as usual when the check finds nothing wrong", async () => {
    const dir = scratch();
    const path = await crashedStore(dir, 50);
    const server = await spawnServer([`--store-url=${path}`, "--embedding-model=none"]);
    try {
      const listed: any = await fetch(`${server.url}/list_memories?user_id=user-0&limit=1`).then((r) => r.json());
      expect(listed.total).toBe(8);
    } finally {
      server.proc.kill("SIGTERM");
      await server.proc.exited;
    }
  });
});
