// The PostgreSQL store itself: migrations under an advisory lock, the refusal of roles that row-level
// security does not bind, the second wall (a transaction sees and writes only its scope's rows), change
// notifications between nodes, and an unreachable database as UNAVAILABLE with recovery without restart.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { HOME_ORG } from "../../support/store";
import { freshSchema, postgresSkip, testPostgres, type TestSchema } from "../../support/postgres";
import { openPostgresStore, SuperuserError, type PostgresStore } from "~/store/postgres/postgres-store";
import type { Change } from "~/store/postgres/changes";
import { PG_MIGRATIONS } from "~/store/postgres/migrations";
import { silentLogger } from "~/shared/logger";
import { NOW, newMemory, owner } from "../../support/memory-rows";

const memory = (id: string, user: string) => newMemory(id, `memory ${id}`, { user_id: user, agent_id: "a" });

const open = (s: TestSchema, node?: string) =>
  openPostgresStore({
    url: s.url,
    migrationUrl: s.migrationUrl,
    poolSize: 3,
    node,
    homeOrg: HOME_ORG,
    logger: silentLogger(),
  });

describe.skipIf(!!postgresSkip)(`PostgreSQL store${postgresSkip ? ` (skipped: ${postgresSkip})` : ""}`, () => {
  let schema: TestSchema;
  let a: PostgresStore;
  let b: PostgresStore;
  beforeAll(async () => {
    schema = await freshSchema("store");
    // Two nodes opening a fresh schema at once: one migrates, the other waits for the lock and finds nothing to do.
    [a, b] = await Promise.all([open(schema, "node-a"), open(schema, "node-b")]);
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await schema?.drop();
  });

  test("migrations ran once: both nodes see the same tables, and a third opening applies nothing", async () => {
    const { admin } = await testPostgres();
    const rows = await admin.unsafe(`SELECT version FROM ${schema.schema}.schema_migrations ORDER BY version`);
    expect(rows.map((r: { version: number }) => r.version)).toEqual(PG_MIGRATIONS.map((m) => m.version));
    const c = await open(schema);
    await c.close();
    expect((await admin.unsafe(`SELECT count(*)::int AS n FROM ${schema.schema}.schema_migrations`))[0].n).toBe(
      PG_MIGRATIONS.length,
    );
  });

  test("a superuser is refused: row-level security would not bind it", async () => {
    const { server } = await testPostgres();
    const url = `${server.adminUrl.replace(/\/postgres$/, `/${(await testPostgres()).db.name}`)}?schema=${schema.schema}`;
    const err = await openPostgresStore({ url, poolSize: 1, homeOrg: HOME_ORG, logger: silentLogger() }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(SuperuserError);
    expect((err as Error).message).toContain("superuser");
  });

  test("a user's transaction sees and counts only that user's rows, whatever its SQL asks for", async () => {
    await a.write(async (r) => {
      await r.memories.insert(memory("w1", "alice"));
      await r.memories.insert(memory("w2", "bob"));
    });
    expect(await a.read((r) => r.memories.total())).toBe(2);
    expect(await a.read((r) => r.memories.total(), { user: "alice" })).toBe(1);
    expect(await a.read((r) => r.memories.get(owner("bob"), "w2", NOW), { user: "alice" })).toBeNull();
  });

  test("a user's transaction sees nothing of a user of the same id in another organization", async () => {
    await a.write((r) => r.memories.insert(newMemory("o1", "memory o1", { user_id: "dana", org_id: "acme" })));
    const acmeDana = { org: "acme", userId: "dana" };
    expect(await a.read((r) => r.memories.get(acmeDana, "o1", NOW), { org: "acme", user: "dana" })).not.toBeNull();
    expect(await a.read((r) => r.memories.get(acmeDana, "o1", NOW), { org: HOME_ORG, user: "dana" })).toBeNull();
    expect(await a.read((r) => r.memories.count(acmeDana, NOW), { org: HOME_ORG, user: "dana" })).toEqual({
      n: 0,
      nextExpiry: null,
    });
  });

  test("an organization's transaction sees no shared space or member of another, even asking for it by its organization", async () => {
    const space = { org_id: "acme", id: "platform", name: "Platform", created_at: NOW, created_by: null };
    await a.write((r) => r.spaces.insert(space, [{ user_id: "dana", role: "writer" }]), { org: "acme" });
    expect(await a.read((r) => r.spaces.get("acme", "platform"), { org: "acme" })).toEqual(space);
    expect(await a.read((r) => r.spaces.get("acme", "platform"), { org: HOME_ORG })).toBeNull();
    expect(await a.read((r) => r.spaces.roleOf("acme", "platform", "dana"), { org: HOME_ORG })).toEqual({
      exists: false,
      role: null,
    });
    const err = await a.write((r) => r.spaces.insert({ ...space, id: "other" }, []), { org: HOME_ORG }).catch((e) => e);
    expect((err as Error).message).toContain("row-level security");
  });

  test("a user's transaction cannot write another user's row", async () => {
    const err = await a.write((r) => r.memories.insert(memory("w3", "bob")), { user: "alice" }).catch((e) => e);
    expect((err as Error).message).toContain("row-level security");
    expect(await a.read((r) => r.memories.get(owner("bob"), "w3", NOW))).toBeNull();
  });

  test("the app's role with no scope named sees no rows at all", async () => {
    const raw = new SQL(schema.url.replace(/\?schema=.*/, ""), { max: 1 });
    try {
      const rows = await raw.unsafe(`SELECT count(*)::int AS n FROM ${schema.schema}.memories`);
      expect(rows[0].n).toBe(0);
      const err = await raw.unsafe(`ALTER TABLE ${schema.schema}.memories DISABLE ROW LEVEL SECURITY`).catch((e) => e);
      expect((err as Error).message).toContain("must be owner");
    } finally {
      await raw.close();
    }
  });

  test("a write on one node is heard by the other as that user's change, and not by the writer", async () => {
    const heardByB: Change[] = [];
    const heardByA: Change[] = [];
    const offB = b.changes.on((c) => heardByB.push(c));
    const offA = a.changes.on((c) => heardByA.push(c));
    const arrived = new Promise<void>((resolve) => b.changes.on((c) => c.kind === "memories" && resolve()));
    const before = await b.changeVersion(owner("carol"));
    await a.write((r) => r.memories.insert(memory("w4", "carol")));
    await arrived;
    expect(heardByB).toContainEqual({ kind: "memories", user: "carol" });
    expect(heardByA).toEqual([]);
    expect(await b.changeVersion(owner("carol"))).toBe(before + 1);
    offA();
    offB();
  });

  test("while the database is down a transaction fails as UNAVAILABLE; once it is back the same store works", async () => {
    const { server } = await testPostgres();
    await server.pause();
    try {
      const err = await a.read((r) => r.memories.total()).catch((e) => e);
      expect(err).toMatchObject({ code: "UNAVAILABLE" });
      expect(await a.reachable()).toBe(false);
    } finally {
      await server.start();
    }
    expect(await a.reachable()).toBe(true);
    expect(await a.read((r) => r.memories.total())).toBe(4);
  });
});
