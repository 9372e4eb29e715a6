// SPEC §9 on a running Engram over PostgreSQL: the database down → 503 UNAVAILABLE and recovery without a
// restart (a real server on a real port), and two nodes of one schema in this process — a node's caches
// drop what another node changed, and scheduled work runs on one node at a time.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { freshSchema, postgresSkip, testPostgres, type TestSchema } from "../../support/postgres";
import { loadConfig } from "~/config/load-config";
import { buildServices, startServer, type Engine, type RunningServer } from "~/main";
import { silentLogger } from "~/shared/logger";
import { userScopeOf } from "~/shared/principal";
import { getTemplate } from "~/governance/templates";
import type { PostgresStore } from "~/store/postgres/postgres-store";
import type { Change } from "~/store/postgres/changes";

const configOf = (s: TestSchema) =>
  loadConfig({
    options: { storeUrl: s.url, storeMigrationUrl: s.migrationUrl, storePoolSize: 3, port: 0 },
    env: { HOME: process.env.HOME, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME },
  });

/** Resolves with the next change `node` hears from another node that matches `wanted`. */
const heard = (node: Engine, wanted: (c: Change) => boolean) =>
  new Promise<Change>((resolve) => {
    const off = (node.store as PostgresStore).changes.on((c) => {
      if (!wanted(c)) return;
      off();
      resolve(c);
    });
  });

describe.skipIf(!!postgresSkip)(`Engram on PostgreSQL${postgresSkip ? ` (skipped: ${postgresSkip})` : ""}`, () => {
  test("while PostgreSQL is down requests that need it answer 503 UNAVAILABLE, /health and /ready say so; once it is back the same server answers", async () => {
    const schema = await freshSchema("down");
    const engram: RunningServer = await startServer(configOf(schema), { logger: silentLogger(), embedder: null });
    const post = (path: string, body: unknown) =>
      fetch(`${engram.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const { server } = await testPostgres();
    try {
      expect((await post("/add_memories", { user_id: "u", memory: "kept across the outage" })).status).toBe(200);
      await server.pause();
      try {
        for (const r of [
          await post("/add_memories", { user_id: "u", memory: "not written" }),
          await post("/search_memory", { user_id: "u", query: "outage" }),
          await fetch(`${engram.url}/list_memories?user_id=u`),
        ]) {
          const body = (await r.json()) as Record<string, unknown>;
          expect([r.status, body.success, body.code]).toEqual([503, false, "UNAVAILABLE"]);
          expect(body.error).toStartWith("the store (PostgreSQL) is unreachable");
        }
        const health = await fetch(`${engram.url}/health`);
        expect([health.status, ((await health.json()) as any).store]).toEqual([
          200,
          { kind: "postgres", reachable: false },
        ]);
        const ready = await fetch(`${engram.url}/ready`);
        expect([ready.status, await ready.json()]).toEqual([
          503,
          { success: false, error: "the store does not answer", code: "UNAVAILABLE" },
        ]);
      } finally {
        await server.start();
      }
      expect((await fetch(`${engram.url}/ready`)).status).toBe(200);
      const search = await post("/search_memory", { user_id: "u", query: "outage" });
      expect(((await search.json()) as any).results.map((m: any) => m.memory)).toEqual(["kept across the outage"]);
      expect((await post("/add_memories", { user_id: "u", memory: "written after" })).status).toBe(200);
    } finally {
      await engram.stop();
      await schema.drop();
    }
  }, 60_000);

  describe("two nodes on one schema", () => {
    let schema: TestSchema;
    let a: Engine;
    let b: Engine;
    const alice = userScopeOf("default", "alice");
    beforeAll(async () => {
      schema = await freshSchema("nodes");
      const o = { logger: silentLogger(), embedder: null };
      [a, b] = await Promise.all([buildServices(configOf(schema), o), buildServices(configOf(schema), o)]);
    }, 60_000);
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await schema?.drop();
    });

    test("a search cached on node A finds a memory node B wrote once A has heard of it", async () => {
      await a.memory.add(alice, { memory: "Alice likes green tea" });
      const search = () => a.memory.searchMemories(alice, { query: "tea" });
      expect((await search()).results.map((m) => m.memory)).toEqual(["Alice likes green tea"]);
      expect((await search()).results).toHaveLength(1);
      const told = heard(a, (c) => c.kind === "memories" && c.user === "alice");
      await b.memory.add(alice, { memory: "Alice drinks black tea at work" });
      await told;
      expect((await search()).results.map((m) => m.memory).sort()).toEqual([
        "Alice drinks black tea at work",
        "Alice likes green tea",
      ]);
    });

    test("a policy node B sets binds node A's next write once A has heard of it", async () => {
      const scope = userScopeOf("default", "bob");
      await a.memory.add(scope, { memory: "a plain note before any policy" });
      const told = heard(a, (c) => c.kind === "policies");
      await b.governance.policies.setPolicy({ ...getTemplate("FINRA"), organizationId: "default" }, "default");
      await told;
      const err = await a.memory.add(scope, { memory: "a plain note under FINRA" }).catch((e) => e);
      expect(err).toMatchObject({ code: "VALIDATION_ERROR", field: "metadata.justification" });
    });

    test("an enforcement started on node B while node A runs one waits for A's to end", async () => {
      const gate = Promise.withResolvers<void>();
      const holding = Promise.withResolvers<void>();
      const first = a.store.exclusive("enforcement", async () => {
        holding.resolve();
        await gate.promise;
        return "a";
      });
      await holding.promise;
      let second = "pending";
      const run = b.governance
        .enforce({ scope: { organizationId: "default" } }, "default")
        .then(() => (second = "done"));
      const { admin } = await testPostgres();
      // B's connection is seen waiting on the advisory lock (a condition, polled: no sleep decides anything).
      while (!(await admin.unsafe("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")).length)
        await Bun.sleep(5);
      expect(second).toBe("pending");
      gate.resolve();
      expect(await first).toBe("a");
      await run;
      expect(second).toBe("done");
    });
  });
});
