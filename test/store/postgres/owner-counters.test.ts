// PostgreSQL rows keyed by a user are the user's of one organization (SPEC §8): the change counter a
// node's search cache compares, and the vectors (their org_id is written, not left to the column default).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { HOME_ORG } from "../../support/store";
import { freshSchema, postgresSkip, testPostgres, type TestSchema } from "../../support/postgres";
import { openPostgresStore, type PostgresStore } from "~/store/postgres/postgres-store";
import { silentLogger } from "~/shared/logger";
import { newMemory, owner } from "../../support/memory-rows";

const memory = (id: string, org: string) =>
  newMemory(id, `memory ${id}`, { org_id: org, user_id: "carol", agent_id: "a" });

describe.skipIf(!!postgresSkip)(`PostgreSQL owner keys${postgresSkip ? ` (skipped: ${postgresSkip})` : ""}`, () => {
  let schema: TestSchema;
  let store: PostgresStore;
  beforeAll(async () => {
    schema = await freshSchema("owners");
    const o = { url: schema.url, migrationUrl: schema.migrationUrl, poolSize: 2, homeOrg: HOME_ORG };
    store = await openPostgresStore({ ...o, logger: silentLogger() });
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await schema?.drop();
  });

  test("acme's carol writing bumps her own change counter and leaves the store's carol's as it was", async () => {
    const acme = { org: "acme", userId: "carol" };
    const [mine, theirs] = [await store.changeVersion(owner("carol")), await store.changeVersion(acme)];
    await store.write((r) => r.memories.insert(memory("c1", "acme")));
    expect(await store.changeVersion(owner("carol"))).toBe(mine);
    expect(await store.changeVersion(acme)).toBe(theirs + 1);
  });

  test("a vector is stored with its memory's organization, not the column's default", async () => {
    const rowid = await store.write(async (r) => {
      const id = await r.memories.insert(memory("c2", "acme"));
      const space = await r.vectors.open("test/org", 3);
      const row = { rowid: id, org: "acme", userId: "carol", agentId: "a", sessionId: "", expiresAt: null };
      await r.vectors.upsert(space, [{ ...row, vector: Float32Array.of(1, 0, 0) }]);
      return id;
    });
    const { admin } = await testPostgres();
    expect(
      await admin.unsafe(`SELECT org_id, user_id FROM ${schema.schema}.memory_vectors WHERE memory_rowid = $1`, [
        rowid,
      ]),
    ).toEqual([{ org_id: "acme", user_id: "carol" }]);
  });
});
