// Real processes on real ports: startup, shutdown, crash durability and two processes on one file.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ROOT, postJson, spawnServer, tempDir, type ServerProcess } from "../support/server-process";

const running: ServerProcess[] = [];
afterEach(() => {
  for (const s of running.splice(0)) s.proc.kill(9);
});
const start = async (args: string[], env?: Record<string, string>) => {
  const s = await spawnServer(args, { env });
  running.push(s);
  return s;
};

describe("engram serve as a process", () => {
  test("prints one startup line, serves, and exits 0 on SIGTERM", async () => {
    const dir = tempDir();
    const s = await start([`--store-url=sqlite://${dir}/e.db`, "--embedding-model=none"]);
    expect(s.startupLine).toMatch(
      new RegExp(`^engram 0\\.1\\.0 listening on http://127\\.0\\.0\\.1:\\d+ store=${dir}/e\\.db search=keyword$`),
    );
    expect((await fetch(`${s.url}/health`)).status).toBe(200);
    const add = await postJson(`${s.url}/add_memories`, { user_id: "u", memory: "process memory" });
    expect(add.status).toBe(200);
    s.proc.kill("SIGTERM");
    expect(await s.proc.exited).toBe(0);
  });

  test("uses the XDG data folder when no store is given", async () => {
    const data = tempDir();
    const s = await start(["--embedding-model=none"], { XDG_DATA_HOME: data });
    expect(s.startupLine).toContain(`store=${data}/engram/engram.db`);
  });

  test("exits 2 with one clear line on a bad setting", async () => {
    const proc = Bun.spawn(["bun", join(ROOT, "src/cli/index.ts"), "serve", "--log-level=loud"], {
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await proc.exited).toBe(2);
    expect((await new Response(proc.stderr).text()).trim()).toBe(
      "engram: --log-level: invalid value 'loud'; expected debug, info, warn, error",
    );
  });

  test("logs one line per request at debug level", async () => {
    const dir = tempDir();
    const s = await start([`--store-url=${dir}/d.db`, "--embedding-model=none", "--log-level=debug"]);
    await postJson(`${s.url}/add_memories`, { user_id: "dbg", memory: "logged" });
    await postJson(`${s.url}/search_memory`, { user_id: "dbg", query: "logged" });
    s.proc.kill("SIGTERM");
    await s.proc.exited;
    const log = await s.stderr();
    expect(log).toMatch(/DEBUG request method="POST" path="\/add_memories" user="dbg" status=200 ms=[\d.]+/);
    expect(log).toMatch(/DEBUG memory stored user="dbg" agent="mcp-agent" id="[0-9a-f-]+"/);
    expect(log).toMatch(/DEBUG search user="dbg" query="logged" results=1 ms=[\d.]+/);
  });
});

describe("durability", () => {
  test("every acknowledged write survives kill -9 in the middle of writing", async () => {
    const db = `${tempDir()}/crash.db`;
    const s = await start([`--store-url=${db}`, "--embedding-model=none"]);
    const acked: string[] = [];
    let stop = false;
    // Gate: kill once 21 writes are acknowledged, with the four writers still sending more.
    let enoughAcked!: () => void;
    const enough = new Promise<void>((resolve) => (enoughAcked = resolve));
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; !stop; i++) {
        try {
          const r = await postJson(`${s.url}/add_memories`, { user_id: "crash", memory: `writer ${w} item ${i}` });
          if (r.status === 200 && acked.push(r.body.memory_ids[0]) === 21) enoughAcked();
        } catch {
          return;
        }
      }
    });
    await enough;
    s.proc.kill(9);
    stop = true;
    await Promise.all(writers);
    await s.proc.exited;
    const again = await start([`--store-url=${db}`, "--embedding-model=none"]);
    const stored = new Set<string>();
    for (let cursor = ""; ; ) {
      const page = (await fetch(`${again.url}/list_memories?user_id=crash&limit=1000${cursor}`).then((r) =>
        r.json(),
      )) as any;
      for (const r of page.results) stored.add(r.id);
      if (!page.next_cursor) break;
      cursor = `&cursor=${page.next_cursor}`;
    }
    expect(acked.filter((id) => !stored.has(id))).toEqual([]);
  });
});

describe("two processes on one file", () => {
  test("see each other's writes, including through the search cache", async () => {
    const db = `${tempDir()}/shared.db`;
    const a = await start([`--store-url=${db}`, "--embedding-model=none"]);
    const b = await start([`--store-url=${db}`, "--embedding-model=none"]);
    await postJson(`${a.url}/add_memories`, { user_id: "u", memory: "written by A about sailing" });
    expect((await postJson(`${b.url}/search_memory`, { user_id: "u", query: "sailing" })).body.results).toHaveLength(1);
    await postJson(`${a.url}/add_memories`, { user_id: "u", memory: "more sailing from A" });
    expect((await postJson(`${b.url}/search_memory`, { user_id: "u", query: "sailing" })).body.results).toHaveLength(2);
    const writes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        postJson(`${i % 2 ? a.url : b.url}/add_memories`, { user_id: "c", memory: `concurrent ${i}` }),
      ),
    );
    expect(writes.every((w) => w.status === 200)).toBe(true);
    const list = (await fetch(`${a.url}/list_memories?user_id=c&limit=100`).then((r) => r.json())) as any;
    expect(list.total).toBe(40);
  });
});
