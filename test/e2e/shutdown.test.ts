// Graceful shutdown: stop() (and SIGTERM, which calls it) answers every request a client has already
// sent, stops taking new connections, gives up on what is still running after a bound, then closes.
import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { loadConfig } from "~/config/load-config";
import { startServer, type RunningServer } from "~/main";
import { silentLogger } from "~/shared/logger";
import { jsonPost, openConnection, statusOf } from "../support/raw-http";
import { spawnServer, tempDir } from "../support/server-process";
import { HoldingEmbedder } from "../support/embedders";

let server: RunningServer | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await server?.stop();
  server = null;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const start = async (embedder: HoldingEmbedder | null = null) => {
  const config = loadConfig({ options: { storeUrl: "sqlite::memory:", port: 0 } });
  server = await startServer(config, { logger: silentLogger(), embedder });
  return server;
};

describe("stop()", () => {
  test("answers requests already written on open connections before closing them", async () => {
    const s = await start();
    const conns = await Promise.all(Array.from({ length: 48 }, () => openConnection(s.port)));
    // Written and stopped in the same turn: the server has not read one of these requests yet.
    conns.forEach((c, i) => c.socket.write(jsonPost(s.port, "/add_memories", { user_id: "u", memory: `m${i}` })));
    const stopped = s.stop();
    const statuses = await Promise.all(conns.map(async (c) => statusOf(await c.response)));
    expect(statuses).toEqual(Array(48).fill(200));
    await stopped;
  });

  test("takes no new connection once it has begun", async () => {
    const s = await start();
    await s.stop();
    expect(openConnection(s.port)).rejects.toThrow();
  });

  test("waits for a request still running, then answers it", async () => {
    const embedder = new HoldingEmbedder();
    const s = await start(embedder);
    const c = await openConnection(s.port);
    c.socket.write(jsonPost(s.port, "/add_memories", { user_id: "u", memory: "held" }));
    await embedder.entered;
    const stopped = s.stop();
    embedder.release();
    expect(statusOf(await c.response)).toBe(200);
    await stopped;
  });

  test("gives up on a request still running after the bound, and still closes", async () => {
    const embedder = new HoldingEmbedder();
    const s = await start(embedder);
    const c = await openConnection(s.port);
    c.socket.write(jsonPost(s.port, "/add_memories", { user_id: "u", memory: "held forever" }));
    await embedder.entered;
    try {
      await s.stop({ drainMs: 50 });
      expect(statusOf(await c.response)).toBe(0);
    } finally {
      embedder.release();
    }
  });
});

describe("SIGTERM", () => {
  test("a server process answers the requests in flight, then exits 0", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const p = await spawnServer([`--store-url=${dir}/e.db`, "--embedding-model=none"]);
    const port = Number(new URL(p.url).port);
    // Stopped, the process cannot read anything: the connections and requests queue in its kernel.
    p.proc.kill("SIGSTOP");
    const conns = await Promise.all(Array.from({ length: 48 }, () => openConnection(port)));
    conns.forEach((c, i) => c.socket.write(jsonPost(port, "/add_memories", { user_id: "u", memory: `m${i}` })));
    p.proc.kill("SIGTERM");
    p.proc.kill("SIGCONT");
    const statuses = await Promise.all(conns.map(async (c) => statusOf(await c.response)));
    expect(statuses).toEqual(Array(48).fill(200));
    expect(await p.proc.exited).toBe(0);
  });
});
