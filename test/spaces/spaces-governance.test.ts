// A shared space is a memory space of the policy hierarchy (SPEC §5.3, §8): an override set on its id
// governs its memories, minimum retention holds them (also against deleting the space), and a writer's
// erasure leaves the space's memories, which belong to the space, naming the writer by the erasure's
// pseudonym from then on. Runs on both stores.
import { afterEach, describe, expect, test } from "bun:test";
import { getTemplate } from "~/governance/templates";
import { spaceOwnerId, userScopeOf } from "~/shared/principal";
import { ORG, SPACE, spacesApp, shown, type SpacesApp } from "./support";

let app: SpacesApp;
afterEach(() => app?.t.close());

describe("spaces under governance", () => {
  test("an override set on the space id governs its memories: a justification the space requires is required there only", async () => {
    app = await spacesApp();
    await app.t.services.governance.setAgentOverride(SPACE, { vector: { retention: { defaultVersions: 3 } } }, ORG);
    const ana = app.as(app.keys.ana);
    const important = { memory: "Rotate the signing key before June", metadata: { importance: 90 } };
    expect(await ana.post("/add_memories", { ...important, space_id: SPACE })).toMatchObject({
      status: 400,
      body: { code: "VALIDATION_ERROR", field: "metadata.justification" },
    });
    expect((await ana.post("/add_memories", important)).status).toBe(200);
    const justified = { ...important, metadata: { importance: 90, justification: "security review" } };
    expect((await ana.post("/add_memories", { ...justified, space_id: SPACE })).status).toBe(200);
  });

  test("deleting a space deletes its memories with it; a new space of the same id starts empty", async () => {
    app = await spacesApp();
    const admin = app.as(app.keys.admin);
    const [id] = (
      await app.as(app.keys.ana).post("/add_memories", { space_id: SPACE, memory: "Use the blue pipeline" })
    ).body.memory_ids;
    expect(await admin.delete(`/spaces/${SPACE}`)).toEqual({
      status: 200,
      body: { success: true, space_id: SPACE, deleted_count: 1 },
    });
    expect(await admin.get(`/get_memory?user_id=ana&memory_id=${id}&space_id=${SPACE}`)).toEqual({
      status: 404,
      body: { success: false, error: `space '${SPACE}' not found`, code: "NOT_FOUND" },
    });
    expect((await admin.delete(`/spaces/${SPACE}`)).status).toBe(404);
    await admin.post("/spaces", { space_id: SPACE, name: "Again", members: [{ user_id: "ana", role: "reader" }] });
    expect((await app.as(app.keys.ana).get(`/list_memories?spaces=${SPACE}`)).body).toEqual({
      results: [],
      total: 0,
      has_more: false,
      next_cursor: null,
    });
  });

  test("deleting a space deletes its graph too: the entities its memories named are gone", async () => {
    app = await spacesApp();
    await app.as(app.keys.ana).post("/add_memories", { space_id: SPACE, memory: "The team meets in Lisbon" });
    const graph = app.t.services.graph.store;
    const owner = { org: ORG, userId: spaceOwnerId(SPACE) };
    const names = async () => (await graph.findEntities(owner, { limit: 50 })).map((e) => e.name).sort();
    expect(await names()).toEqual(["Lisbon"]);
    expect((await app.as(app.keys.admin).delete(`/spaces/${SPACE}`)).status).toBe(200);
    expect(await names()).toEqual([]);
  });

  test("under FINRA's minimum retention a space holding young memories cannot be deleted: 409 and nothing goes", async () => {
    app = await spacesApp();
    await app.t.services.governance.setPolicy({ ...getTemplate("FINRA"), organizationId: ORG }, ORG);
    const added = await app.as(app.keys.ana).post("/add_memories", {
      space_id: SPACE,
      memory: "Trade desk closes at 16:00",
      metadata: { justification: "desk hours" },
    });
    expect(added.status).toBe(200);
    expect(await app.as(app.keys.admin).delete(`/spaces/${SPACE}`)).toEqual({
      status: 409,
      body: {
        success: false,
        error: `space '${SPACE}' holds 1 memories under minimum retention; nothing was deleted`,
        code: "CONFLICT",
      },
    });
    expect((await app.as(app.keys.bo).get(`/spaces/${SPACE}`)).status).toBe(200);
    const r = await app.as(app.keys.bo).get(`/list_memories?spaces=${SPACE}`);
    expect(shown(r.body)).toEqual([["Trade desk closes at 16:00", SPACE]]);
  });

  test("a writer's erasure leaves what they wrote into the space, under the erasure's pseudonym instead of their id", async () => {
    app = await spacesApp();
    const ana = app.as(app.keys.ana);
    await ana.post("/add_memories", { space_id: SPACE, memory: "Runbooks live in the ops repo" });
    const [own] = (await ana.post("/add_memories", { memory: "Ana's own reminder" })).body.memory_ids;
    await ana.post(`/memories/${own}/promote`, { space_id: SPACE });
    const before = await app.as(app.keys.bo).get(`/list_memories?include_shared=true`);
    expect(before.body.results.map((r: any) => r.metadata.provenance.user_id)).toEqual(["ana", "ana"]);
    const search = () => app.as(app.keys.bo).post("/search_memory", { query: "runbooks ops repo", spaces: [SPACE] });
    expect((await search()).body.results[0].metadata.provenance.user_id).toBe("ana");
    const erased = await ana.post("/delete_all_memories", { cascade: true });
    expect(erased.body).toMatchObject({ success: true, deleted_count: 1 });
    const r = await app.as(app.keys.bo).get(`/list_memories?include_shared=true`);
    expect(shown(r.body)).toEqual([
      ["Ana's own reminder", SPACE],
      ["Runbooks live in the ops repo", SPACE],
    ]);
    const writers = r.body.results.map((m: any) => m.metadata.provenance.user_id);
    expect(writers[0]).toMatch(/^erased-[0-9a-f]{24}$/);
    expect(writers).toEqual([writers[0], writers[0]]);
    // A search answered from the cache before the erasure is not answered again with the old name.
    expect((await search()).body.results[0].metadata.provenance.user_id).toBe(writers[0]);
    expect(r.body.results[0].metadata.provenance).toEqual({
      user_id: writers[0],
      agent_id: "mcp-agent",
      memory_id: own,
    });
  });

  test("enforcement of the space's memory space acts on the space's memories (an override's version limit)", async () => {
    app = await spacesApp();
    const g = app.t.services.governance;
    await g.setAgentOverride(SPACE, { vector: { retention: { defaultVersions: 1, byImportance: [] } } }, ORG);
    const owner = userScopeOf(ORG, "space:platform");
    const { memory_ids } = await app.t.services.memory.add(owner, { memory: "v1", agent_id: SPACE });
    for (const text of ["v2", "v3"])
      await app.t.services.memory.update(owner, { memory_id: memory_ids[0]!, memory: text });
    const before = await app.t.services.memory.versions(owner, { memory_id: memory_ids[0]! });
    expect(before.versions.map((v) => v.memory)).toEqual(["v3", "v2", "v1"]);
    const run = await g.enforce({ scope: { memorySpaceId: SPACE }, layers: ["vector"] }, ORG);
    expect(run.versionsDeleted).toBe(2);
    const after = await app.t.services.memory.versions(owner, { memory_id: memory_ids[0]! });
    expect(after.versions.map((v) => v.memory)).toEqual(["v3"]);
  });
});
