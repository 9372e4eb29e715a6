// Two Engram engines on one PostgreSQL schema, in one process, with the second one deaf to the first's
// change notifications (its LISTEN connection closed): a search or list on it, its cache warm, still sees
// a write the first acknowledged — freshness across nodes does not wait for a notification to arrive. The
// same holds for a typo search, whose vocabulary of the user's words B keeps between searches.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { freshSchema, postgresSkip, type TestSchema } from "../support/postgres";
import { loadConfig } from "~/config/load-config";
import { buildServices, type Engine } from "~/main";
import { silentLogger } from "~/shared/logger";
import type { PostgresStore } from "~/store/postgres/postgres-store";
import type { Ranker } from "~/search/ranker";

describe.skipIf(!!postgresSkip)(
  `cache freshness across nodes${postgresSkip ? ` (skipped: ${postgresSkip})` : ""}`,
  () => {
    let schema: TestSchema;
    let a: Engine;
    let b: Engine;
    beforeAll(async () => {
      schema = await freshSchema("fresh");
      const open = () =>
        buildServices(
          loadConfig({
            options: { storeUrl: schema.url, storeMigrationUrl: schema.migrationUrl, storePoolSize: 2 },
            env: { HOME: process.env.HOME },
          }),
          { logger: silentLogger(), embedder: null },
        );
      a = await open();
      b = await open();
      await (b.store as PostgresStore).changes.close();
    }, 60_000);
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await schema?.drop();
    });

    test("a warm search and list on node B see node A's acknowledged write without its notification", async () => {
      const who = { org: "default", userId: "fran", admin: false, readOnly: false };
      await a.memory.add(who, { memory: "Fran rides a green tandem" });
      const search = () => b.memory.searchMemories(who, { query: "who keeps otters?" });
      const list = () => b.memory.list(who, {});
      expect((await search()).results).toEqual([]);
      expect((await list()).total).toBe(1);
      await a.memory.add(who, { memory: "Fran keeps otters in a pond" });
      expect((await search()).results.map((r) => r.memory)).toEqual(["Fran keeps otters in a pond"]);
      expect((await list()).total).toBe(2);
    });

    test("a typo search on node B, its vocabulary cached, corrects to a word node A wrote since", async () => {
      const who = { org: "default", userId: "gil", admin: false, readOnly: false };
      const typo = (query: string) => b.memory.searchMemories(who, { query });
      const vocabularies = (b.search as unknown as { ranker: Ranker }).ranker.vocabularies!;
      await a.memory.add(who, { memory: "Gil rides an old tandem" });
      expect((await typo("who has ottrs")).results).toEqual([]);
      const hits = vocabularies.hits;
      // Another query, the same first letter: the vocabulary of "o" comes from B's cache.
      expect((await typo("any ottrs around")).results).toEqual([]);
      expect(vocabularies.hits).toBe(hits + 1);
      await a.memory.add(who, { memory: "Gil keeps otters in a pond" });
      expect((await typo("where are the ottrs")).results.map((r) => r.memory)).toEqual(["Gil keeps otters in a pond"]);
    });
  },
);
