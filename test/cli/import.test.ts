// `engram import --from openmemory FILE` as a migrating user runs it, on exports in OpenMemory's
// real format (test/fixtures/openmemory/make-export.py builds them as OpenMemory's backup router
// did), into a real store file that a server then reads: users, agents, times and metadata kept.
import { afterEach, describe, expect, test, setDefaultTimeout } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readZip } from "~/shared/zip";
import { buildTestApp, type TestApp } from "../support/app";
import { ROOT, tempDir } from "../support/server-process";
import { docCommand } from "../mcp/support";
import { runCli, CLI_TEST_TIMEOUT_MS } from "../support/cli";

setDefaultTimeout(CLI_TEST_TIMEOUT_MS); // test/support/cli.ts says why

const FIXTURES = join(ROOT, "test/fixtures/openmemory");
const ZIP = join(FIXTURES, "memories_export_alice.zip");
const MEM0 = join(FIXTURES, "mem0-get-all.json");
let dir: string;
let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** The command as a user runs it (XDG_CACHE_HOME passed on: the built-in model is cached there). */
const engram = (...args: string[]) =>
  runCli(args, process.env.XDG_CACHE_HOME ? { XDG_CACHE_HOME: process.env.XDG_CACHE_HOME } : {});
const store = () => `--store-url=sqlite://${join(dir, "engram.db")}`;
const open = async () => (app = await buildTestApp({ options: { storeUrl: `sqlite://${join(dir, "engram.db")}` } }));
/** The export's own files, written out on their own (what a user who unzipped it would pass). */
function member(name: string): string {
  const path = join(dir, name);
  writeFileSync(path, readZip(new Uint8Array(readFileSync(ZIP))).get(name)!);
  return path;
}
const memoriesOf = async (user: string) =>
  (await app!.get(`/list_memories?user_id=${user}`)).body.results as {
    id: string;
    memory: string;
    agent_id: string;
    metadata: Record<string, unknown>;
    created_at: string;
  }[];

const ALICE = [
  {
    memory: "I prefer tabs over spaces",
    agent_id: "cursor",
    created_at: "2025-05-02T17:05:09.000Z",
    metadata: {
      source_app: "openmemory",
      mcp_client: "cursor",
      categories: ["work"],
      openmemory_id: "1f2e3d4c-0000-4000-8000-000000000002",
    },
  },
  {
    memory: "I am allergic to penicillin",
    agent_id: "claude",
    created_at: "2025-03-14T09:26:53.589Z",
    metadata: {
      source_app: "openmemory",
      mcp_client: "claude",
      categories: ["health"],
      openmemory_id: "1f2e3d4c-0000-4000-8000-000000000001",
    },
  },
  {
    memory: "My manager is Ana",
    agent_id: "openmemory",
    created_at: "2025-01-20T12:00:00.000Z",
    metadata: { openmemory_id: "1f2e3d4c-0000-4000-8000-000000000003" },
  },
];
const shape = (ms: Awaited<ReturnType<typeof memoriesOf>>) =>
  ms.map(({ memory, agent_id, created_at, metadata }) => ({ memory, agent_id, created_at, metadata }));

describe("engram import --from openmemory", () => {
  test("imports OpenMemory's export zip: active memories under their user and app, times and metadata kept", async () => {
    dir = tempDir();
    const r = await engram("import", "--from", "openmemory", ZIP, store());
    expect(r).toEqual({
      stdout:
        `${ZIP}: OpenMemory export zip (memories.json), 3 memories to import; left out: 1 archived, 1 deleted, 1 paused\n` +
        "imported 3 memories\n",
      stderr: "",
      code: 0,
    });
    await open();
    const alice = await memoriesOf("alice");
    expect(shape(alice)).toEqual(ALICE);
    const tabs = (await app!.get(`/get_memory?user_id=alice&memory_id=${alice[0]!.id}`)).body;
    expect([tabs.created_at, tabs.updated_at, tabs.session_id]).toEqual([
      "2025-05-02T17:05:09.000Z",
      "2025-06-10T08:00:00.000Z",
      null,
    ]);
    const found = (await app!.post("/search_memory", { user_id: "alice", query: "penicillin" })).body.results;
    expect(found.map((m: { memory: string }) => m.memory)).toEqual(["I am allergic to penicillin"]);
  });

  test("docs/MCP.md's command works as written, on OpenMemory's memories_export.zip", async () => {
    dir = tempDir();
    const [bin, ...args] = docCommand("engram import").split(" ");
    expect(bin).toBe("engram");
    writeFileSync(join(dir, "memories_export.zip"), readFileSync(ZIP));
    const r = await engram(...args.map((a) => (a === "memories_export.zip" ? join(dir, a) : a)), store());
    expect(r.code).toBe(0);
    expect(r.stdout).toEndWith("imported 3 memories\n");
  });

  test("a second import of the same export adds nothing", async () => {
    dir = tempDir();
    await engram("import", "--from=openmemory", ZIP, store());
    const again = await engram("import", "--from=openmemory", ZIP, store());
    expect(again.code).toBe(0);
    expect(again.stdout.split("\n")[1]).toBe("imported 0 memories; 3 already imported, skipped");
    await open();
    expect(await memoriesOf("alice")).toHaveLength(3);
  });

  test("reads memories.json on its own, and memories.jsonl.gz with --user-id (its records name no user)", async () => {
    dir = tempDir();
    const json = member("memories.json");
    expect((await engram("import", "--from", "openmemory", json, store())).code).toBe(0);
    const lines = member("memories.jsonl.gz");
    const anonymous = await engram("import", "--from", "openmemory", lines, store());
    expect(anonymous).toEqual({
      stdout: "",
      stderr: `engram: ${lines}: record 1 names no user_id: pass --user-id=\n`,
      code: 2,
    });
    const r = await engram("import", "--from", "openmemory", lines, "--user-id=carol", store());
    expect(r.stdout).toBe(
      `${lines}: OpenMemory memories.jsonl.gz, 3 memories to import; left out: 1 archived, 1 deleted, 1 paused\nimported 3 memories\n`,
    );
    await open();
    expect(shape(await memoriesOf("alice"))).toEqual(ALICE);
    expect(shape(await memoriesOf("carol"))).toEqual(ALICE);
  });

  test("imports mem0's get_all export: its user, agent and times, run_id and role kept as metadata", async () => {
    dir = tempDir();
    const r = await engram("import", "--from", "openmemory", MEM0, store());
    expect(r.stdout).toBe(`${MEM0}: mem0 export (get_all results), 2 memories to import\nimported 2 memories\n`);
    await open();
    const bob = await memoriesOf("bob");
    expect(shape(bob)).toEqual([
      {
        memory: "Bob's flight to Oslo is on May 3",
        agent_id: "openmemory",
        created_at: "2024-07-21T16:15:00.000Z",
        metadata: { run_id: "trip-2024", role: "user", openmemory_id: "7d1c2b3a-0000-4000-8000-0000000000b2" },
      },
      {
        memory: "Bob is vegetarian",
        agent_id: "travel-agent",
        created_at: "2024-07-20T17:00:00.123Z",
        metadata: { category: "food", openmemory_id: "7d1c2b3a-0000-4000-8000-0000000000b1" },
      },
    ]);
    // A mem0 run is not an Engram session: the imported memories stay visible to every search.
    const found = (await app!.post("/search_memory", { user_id: "bob", query: "flight Oslo" })).body.results;
    expect(found.map((m: { memory: string }) => m.memory)).toContain("Bob's flight to Oslo is on May 3");
  });

  test("--dry-run reports what it would import, by user and agent, and writes nothing", async () => {
    dir = tempDir();
    const r = await engram("import", "--from", "openmemory", ZIP, "--dry-run", store());
    expect(r.stdout).toBe(
      `${ZIP}: OpenMemory export zip (memories.json), 3 memories to import; left out: 1 archived, 1 deleted, 1 paused\n` +
        "  user alice, agent claude: 1\n  user alice, agent cursor: 1\n  user alice, agent openmemory: 1\n",
    );
    await open();
    expect(await memoriesOf("alice")).toEqual([]);
  });
});

describe("engram import, bad input", () => {
  test("usage mistakes exit 2 with one line and the usage, before touching a store", async () => {
    dir = tempDir();
    const usage = "usage: engram import --from openmemory FILE [--user-id=ID] [--dry-run] [--store-url=…]\n";
    expect(await engram("import", ZIP, store())).toEqual({
      stdout: "",
      stderr: `engram import: --from must be one of: openmemory\n${usage}`,
      code: 2,
    });
    expect((await engram("import", "--from=mem0", ZIP)).code).toBe(2);
    expect((await engram("import", "--from=openmemory")).stderr).toBe(
      `engram import: the export file is missing\n${usage}`,
    );
    expect((await engram("import", "--from=openmemory", ZIP, MEM0)).code).toBe(2);
  });

  test("a missing file, a file that is no export and a damaged zip exit 2 naming the file and the reason", async () => {
    dir = tempDir();
    const missing = join(dir, "nope.zip");
    expect(await engram("import", "--from=openmemory", missing, store())).toEqual({
      stdout: "",
      stderr: `engram: cannot read '${missing}': no such file\n`,
      code: 2,
    });
    const other = join(dir, "other.json");
    writeFileSync(other, JSON.stringify({ hello: "world" }));
    const r = await engram("import", "--from=openmemory", other, store());
    expect(r.code).toBe(2);
    expect(r.stderr).toStartWith(`engram: ${other}: not an OpenMemory or mem0 export`);
    const cut = join(dir, "cut.zip");
    const bytes = readFileSync(ZIP);
    writeFileSync(cut, bytes.subarray(0, bytes.length - 30));
    const damaged = await engram("import", "--from=openmemory", cut, store());
    expect(damaged.code).toBe(2);
    expect(damaged.stderr).toStartWith(`engram: ${cut}: `);
    expect(damaged.stderr).not.toContain("    at ");
  });

  test("a memory the store refuses is reported by its export id, the others are imported, and the exit is 1", async () => {
    dir = tempDir();
    const file = join(dir, "mixed.json");
    const items = [
      { id: "ok-1", memory: "Dana likes jazz", user_id: "dana", created_at: "2025-01-01T00:00:00Z" },
      { id: "bad-1", memory: "Dana's secret", user_id: "dana", metadata: { importance: "very" } },
    ];
    writeFileSync(file, JSON.stringify({ results: items }));
    const r = await engram("import", "--from=openmemory", file, store());
    expect(r.code).toBe(1);
    expect(r.stdout.split("\n")[1]).toBe("imported 1 memory");
    expect(r.stderr).toBe(
      "engram: not imported: bad-1: metadata.importance must be an integer from 0 to 100 (metadata.importance)\n",
    );
  });
});
