// Several real Engram processes on one PostgreSQL database (SPEC §9): a write on one node is found by a
// search on another whose cache is warm, a node killed with SIGKILL mid-load loses no acknowledged write
// while the others keep serving, and an erasure on one node is complete on every node. Each node is
// `engram serve` as a user runs it, started together on a fresh schema (so they also race to migrate).
// An enforcement or a session sweep asked of two nodes at once runs once, and both answer with its result.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { freshSchema, postgresSkip, testPostgres, type TestSchema } from "../support/postgres";
import { postJson, spawnServer, type ServerProcess } from "../support/server-process";
import { testModelsDir } from "../support/preload";

const add = async (node: ServerProcess, user: string, memory: string): Promise<string> => {
  const r = await postJson(`${node.url}/add_memories`, { user_id: user, memory });
  expect(r.status).toBe(200);
  return r.body.memory_ids[0];
};
const search = async (node: ServerProcess, user: string, query: string): Promise<string[]> => {
  const r = await postJson(`${node.url}/search_memory`, { user_id: user, query });
  expect(r.status).toBe(200);
  return r.body.results.map((m: { memory: string }) => m.memory);
};
const getMemory = (node: ServerProcess, user: string, id: string) =>
  fetch(`${node.url}/get_memory?user_id=${user}&memory_id=${id}`).then((r) => r.status);

async function ready(node: ServerProcess): Promise<void> {
  // /ready answers 503 until the node's model and store are ready; each poll is one request (no timing assertion).
  for (let i = 0; i < 600; i++) {
    if ((await fetch(`${node.url}/ready`)).status === 200) return;
    await Bun.sleep(100);
  }
  throw new Error(`node ${node.url} never became ready`);
}

/**
 * The nodes' answers to `ask`, asked while the test holds the nodes' lock of scheduled work `name`, so every
 * request surely arrives before any run begins (the gate: each is waiting for the lock; one query per poll).
 */
async function askedTogether<T>(schema: string, name: string, ask: () => Promise<T>[]): Promise<T[]> {
  const { admin } = await testPostgres();
  const holder = await admin.reserve();
  const key = `engram:${schema}:${name}`;
  await holder.unsafe("SELECT pg_advisory_lock(hashtext($1))", [key]);
  const asked = ask();
  try {
    for (let waiting = 0; waiting < asked.length; await Bun.sleep(20))
      waiting = Number(
        (
          await admin.unsafe(
            "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
          )
        )[0].n,
      );
  } finally {
    await holder.unsafe("SELECT pg_advisory_unlock(hashtext($1))", [key]);
    holder.release();
  }
  return Promise.all(asked);
}

describe.skipIf(!!postgresSkip)(
  `several nodes on one PostgreSQL${postgresSkip ? ` (skipped: ${postgresSkip})` : ""}`,
  () => {
    let schema: TestSchema;
    let nodes: ServerProcess[] = [];
    beforeAll(async () => {
      schema = await freshSchema("nodes");
      const env = { STORE_URL: schema.url, STORE_MIGRATION_URL: schema.migrationUrl, ENGRAM_MODELS_DIR: testModelsDir };
      nodes = await Promise.all([0, 1, 2].map(() => spawnServer([], { env, timeoutMs: 120_000 })));
      await Promise.all(nodes.map(ready));
    }, 180_000);
    afterAll(async () => {
      for (const n of nodes) n.proc.kill();
      await Promise.all(nodes.map((n) => n.proc.exited));
      await schema?.drop();
    });

    test("a write on node A is found at once by a search on node B whose cache holds the earlier answer", async () => {
      const [a, b] = nodes as [ServerProcess, ServerProcess];
      const animals = ["penguins", "otters", "falcons", "lynxes", "walruses", "herons", "bison", "geckos"];
      for (const [i, animal] of animals.entries()) {
        const user = `warm-${i}`;
        await add(a, user, "Dana owns a red bicycle");
        // B answers the query once (now cached on B), then A writes what the query looks for.
        expect(await search(b, user, `who keeps ${animal}?`)).not.toContain(`Carol keeps ${animal} in Oslo`);
        await add(a, user, `Carol keeps ${animal} in Oslo`);
        expect(await search(b, user, `who keeps ${animal}?`)).toContain(`Carol keeps ${animal} in Oslo`);
      }
    }, 120_000);

    test("an enforcement asked of two nodes at once runs once, and both nodes answer with that run's result", async () => {
      const [a, b] = nodes as [ServerProcess, ServerProcess];
      const { admin } = await testPostgres();
      const logged = async () =>
        Number((await admin.unsafe(`SELECT count(*)::int AS n FROM ${schema.schema}.enforcement_log`))[0].n);
      const before = await logged();
      const options = { scope: { organizationId: "default" }, layers: ["vector", "mutable"] };
      const [ra, rb] = await askedTogether(schema.schema, "enforcement", () =>
        [a, b].map((n) => postJson(`${n.url}/governance/enforce`, options)),
      );
      expect(ra!.status).toBe(200);
      expect(rb).toEqual(ra!);
      expect(ra!.body.affectedLayers).toEqual(["vector", "mutable"]);
      expect(await logged()).toBe(before + 1);
    }, 60_000);

    test("an expire-idle asked of two nodes at once sweeps once, and both nodes answer with its counts", async () => {
      const [a, b] = nodes as [ServerProcess, ServerProcess];
      const { admin } = await testPostgres();
      const hourAgo = Date.now() - 3_600_000;
      // A session quiet for an hour (past the default policy's idle timeout: the sweep ends it), written as a node would.
      await admin.unsafe(
        `INSERT INTO ${schema.schema}.sessions (id, org_id, user_id, memory_space_id, state, created_at, last_activity_at, expires_at)
         VALUES ('quiet-1', 'default', 'sweeper', 'mcp-agent', 'active', $1, $1, $2)`,
        [hourAgo, hourAgo + 86_400_000],
      );
      const [ra, rb] = await askedTogether(schema.schema, "session-sweeps", () =>
        [a, b].map((n) => postJson(`${n.url}/sessions/expire-idle`, {})),
      );
      expect(ra).toEqual({ status: 200, body: { success: true, idled: 0, ended: 1 } });
      expect(rb).toEqual(ra!);
      const runs = await admin.unsafe(`SELECT kind, runs FROM ${schema.schema}.session_sweeps`);
      expect([...runs]).toEqual([{ kind: "expire-idle", runs: 1 }]);
    }, 60_000);

    test("a node killed with SIGKILL mid-load loses no acknowledged write, and the other nodes keep serving", async () => {
      const [a, b, c] = nodes as [ServerProcess, ServerProcess, ServerProcess];
      const acknowledged: string[] = [];
      let killed!: () => void;
      const afterTwenty = new Promise<void>((resolve) => (killed = resolve));
      // Four writers on node C until it dies; C is killed once it has acknowledged 20 writes.
      const writer = async (w: number) => {
        for (let i = 0; ; i++) {
          try {
            acknowledged.push(await add(c, "load", `load note ${w}-${i} about the harbour`));
          } catch {
            return; // C is gone: this write was never acknowledged.
          }
          if (acknowledged.length === 20) killed();
        }
      };
      const writers = [0, 1, 2, 3].map(writer);
      await afterTwenty;
      c.proc.kill("SIGKILL");
      await c.proc.exited;
      await Promise.all(writers);
      expect(acknowledged.length).toBeGreaterThanOrEqual(20);
      // Every acknowledged write is there, on both remaining nodes, and both still take writes.
      for (const id of acknowledged) {
        expect(await getMemory(a, "load", id)).toBe(200);
        expect(await getMemory(b, "load", id)).toBe(200);
      }
      const after = await add(a, "load", "written after the kill");
      expect(await getMemory(b, "load", after)).toBe(200);
      expect(await search(b, "load", "written after the kill")).toContain("written after the kill");
    }, 120_000);

    test("an erasure on node A is complete on node B: no memory found, listed or fetched", async () => {
      const [a, b] = nodes as [ServerProcess, ServerProcess];
      const ids = [await add(a, "erin", "Erin's passport number is X123"), await add(b, "erin", "Erin lives in Leeds")];
      expect(await search(b, "erin", "where does Erin live?")).toContain("Erin lives in Leeds");
      const erased = await postJson(`${a.url}/delete_all_memories`, { user_id: "erin", cascade: true });
      expect(erased).toEqual({ status: 200, body: { success: true, deleted_count: 2, retained: {} } });
      expect(await search(b, "erin", "where does Erin live?")).toEqual([]);
      const listed = await fetch(`${b.url}/list_memories?user_id=erin`).then((r) => r.json());
      expect(listed).toEqual({ results: [], total: 0, has_more: false, next_cursor: null });
      for (const id of ids) expect(await getMemory(b, "erin", id)).toBe(404);
    }, 60_000);
  },
);
