// Shared spaces over HTTP (SPEC §8 "Org-wide shared memory"): who may create, see, write, read and promote;
// search and list across spaces; what members of the same organization who are not in the space can
// reach (nothing). Runs on both stores (ENGRAM_TEST_STORE=postgres).
import { afterEach, describe, expect, test } from "bun:test";
import { spacesApp, shown, SPACE, type SpacesApp } from "./support";

let app: SpacesApp;
afterEach(() => app?.t.close());

const forbidden = (error: string) => ({ success: false, error, code: "FORBIDDEN" });

describe("spaces: creating and seeing them", () => {
  test("an admin creates a space; it answers the space with its members by user id", async () => {
    app = await spacesApp();
    const r = await app.as(app.keys.admin).post("/spaces", {
      space_id: "design",
      name: "Design",
      members: [
        { user_id: "cy", role: "reader" },
        { user_id: "ana", role: "writer" },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      success: true,
      space_id: "design",
      name: "Design",
      created_at: "2026-06-01T00:00:00.000Z",
      members: [
        { user_id: "ana", role: "writer" },
        { user_id: "cy", role: "reader" },
      ],
    });
  });

  test("a member key cannot create a space (403), and an id the organization already uses is 409", async () => {
    app = await spacesApp();
    const body = { space_id: SPACE, name: "Again", members: [] };
    expect(await app.as(app.keys.ana).post("/spaces", body)).toMatchObject({
      status: 403,
      body: { code: "FORBIDDEN" },
    });
    expect(await app.as(app.keys.admin).post("/spaces", body)).toEqual({
      status: 409,
      body: { success: false, error: "space 'platform' already exists", code: "CONFLICT" },
    });
  });

  test("GET /spaces: an admin sees every space, a member the spaces it belongs to, a non-member none", async () => {
    app = await spacesApp();
    await app.as(app.keys.admin).post("/spaces", { space_id: "design", name: "Design", members: [] });
    const ids = async (key: string) =>
      ((await app.as(key).get("/spaces")).body.spaces as { space_id: string }[]).map((s) => s.space_id);
    expect(await ids(app.keys.admin)).toEqual(["design", SPACE]);
    expect(await ids(app.keys.ana)).toEqual([SPACE]);
    expect(await ids(app.keys.bo)).toEqual([SPACE]);
    expect(await ids(app.keys.cy)).toEqual([]);
  });

  test("GET /spaces/:id: members read it, a member of the organization outside it gets 403, an unknown id 404", async () => {
    app = await spacesApp();
    expect((await app.as(app.keys.bo).get(`/spaces/${SPACE}`)).body.members).toEqual([
      { user_id: "ana", role: "writer" },
      { user_id: "bo", role: "reader" },
    ]);
    expect(await app.as(app.keys.cy).get(`/spaces/${SPACE}`)).toEqual({
      status: 403,
      body: forbidden("user 'cy' is not a member of space 'platform'"),
    });
    expect(await app.as(app.keys.admin).get("/spaces/nope")).toEqual({
      status: 404,
      body: { success: false, error: "space 'nope' not found", code: "NOT_FOUND" },
    });
  });

  test("PUT /spaces/:id/members replaces the members: a user left out loses access at the next request", async () => {
    app = await spacesApp();
    const ana = app.as(app.keys.ana);
    expect((await ana.post("/add_memories", { space_id: SPACE, memory: "Deploys freeze on Fridays" })).status).toBe(
      200,
    );
    const r = await app
      .as(app.keys.admin)
      .put(`/spaces/${SPACE}/members`, { members: [{ user_id: "cy", role: "writer" }] });
    expect(r.body.members).toEqual([{ user_id: "cy", role: "writer" }]);
    expect(await ana.post("/search_memory", { query: "deploys freeze", spaces: [SPACE] })).toEqual({
      status: 403,
      body: forbidden("user 'ana' is not a member of space 'platform'"),
    });
    const cy = await app.as(app.keys.cy).post("/search_memory", { query: "deploys freeze", include_shared: true });
    expect(shown(cy.body)).toEqual([["Deploys freeze on Fridays", SPACE]]);
  });
});

describe("spaces: writing", () => {
  test("a writer adds into the space; the memory is the space's, with the writer as its provenance", async () => {
    app = await spacesApp();
    const r = await app.as(app.keys.ana).post("/add_memories", {
      space_id: SPACE,
      memory: "Staging runs on port 8443",
      agent_id: "cursor",
      metadata: { tags: ["ops"], provenance: "forged" },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, memory_ids: [expect.any(String)], space_id: SPACE });
    const got = await app.as(app.keys.bo).get(`/get_memory?memory_id=${r.body.memory_ids[0]}&space_id=${SPACE}`);
    expect(got.body).toMatchObject({
      memory: "Staging runs on port 8443",
      agent_id: SPACE,
      metadata: { tags: ["ops"], provenance: { user_id: "ana", agent_id: "cursor" } },
      space_id: SPACE,
    });
    // Not ana's own memory: her listing without spaces is as before.
    expect((await app.as(app.keys.ana).get("/list_memories")).body).toMatchObject({ results: [], total: 0 });
  });

  test("readers of the space, reader keys and non-members get 403 FORBIDDEN; an unknown space 404", async () => {
    app = await spacesApp();
    const add = (key: string, space = SPACE) =>
      app.as(key).post("/add_memories", { space_id: space, memory: "Staging runs on port 8443" });
    expect(await add(app.keys.bo)).toEqual({
      status: 403,
      body: forbidden("user 'bo' may read space 'platform' but not write to it"),
    });
    expect(await add(app.keys.anaReader)).toEqual({
      status: 403,
      body: forbidden("this key is read-only (role reader)"),
    });
    expect(await add(app.keys.cy)).toEqual({
      status: 403,
      body: forbidden("user 'cy' is not a member of space 'platform'"),
    });
    expect(await add(app.keys.ana, "nope")).toEqual({
      status: 404,
      body: { success: false, error: "space 'nope' not found", code: "NOT_FOUND" },
    });
    expect((await app.as(app.keys.admin).get(`/list_memories?user_id=ana&spaces=${SPACE}`)).body.total).toBe(0);
  });

  test("promote copies the user's memory into the space with its provenance; the original stays the user's", async () => {
    app = await spacesApp();
    const ana = app.as(app.keys.ana);
    const [own] = (
      await ana.post("/add_memories", { memory: "The on-call rota lives in PagerDuty", agent_id: "claude" })
    ).body.memory_ids;
    const r = await ana.post(`/memories/${own}/promote`, { space_id: SPACE });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      memory: "The on-call rota lives in PagerDuty",
      agent_id: SPACE,
      space_id: SPACE,
      promoted_from: own,
      metadata: { provenance: { user_id: "ana", agent_id: "claude", memory_id: own } },
      version: 1,
    });
    expect(r.body.id).not.toBe(own);
    const again = await ana.post(`/memories/${own}/promote`, { space_id: SPACE });
    expect([again.body.id, again.body.deduplicated]).toEqual([r.body.id, true]);
    const bo = await app.as(app.keys.bo).post("/search_memory", { query: "on-call rota", include_shared: true });
    expect(shown(bo.body)).toEqual([["The on-call rota lives in PagerDuty", SPACE]]);
    expect((await ana.get(`/get_memory?memory_id=${own}`)).body.memory).toBe("The on-call rota lives in PagerDuty");
  });

  test("readers and non-members cannot promote (403); another user's memory id is 404", async () => {
    app = await spacesApp();
    const [anas] = (await app.as(app.keys.ana).post("/add_memories", { memory: "Ana's note" })).body.memory_ids;
    const [bos] = (await app.as(app.keys.bo).post("/add_memories", { memory: "Bo's note" })).body.memory_ids;
    expect(await app.as(app.keys.bo).post(`/memories/${bos}/promote`, { space_id: SPACE })).toEqual({
      status: 403,
      body: forbidden("user 'bo' may read space 'platform' but not write to it"),
    });
    expect((await app.as(app.keys.anaReader).post(`/memories/${anas}/promote`, { space_id: SPACE })).status).toBe(403);
    expect((await app.as(app.keys.cy).post(`/memories/${anas}/promote`, { space_id: SPACE })).status).toBe(403);
    expect(await app.as(app.keys.ana).post(`/memories/${bos}/promote`, { space_id: SPACE })).toEqual({
      status: 404,
      body: { success: false, error: `memory '${bos}' not found`, code: "NOT_FOUND" },
    });
  });
});

describe("spaces: changing and deleting a space's memory", () => {
  test("a writer updates and deletes a space's memory with space_id; its provenance stays its first writer's", async () => {
    app = await spacesApp();
    await app.as(app.keys.admin).put(`/spaces/${SPACE}/members`, {
      members: [
        { user_id: "ana", role: "writer" },
        { user_id: "bo", role: "reader" },
        { user_id: "cy", role: "writer" },
      ],
    });
    const [id] = (await app.as(app.keys.ana).post("/add_memories", { space_id: SPACE, memory: "Staging is on 8443" }))
      .body.memory_ids;
    const cy = app.as(app.keys.cy);
    const changed = await cy.post("/update_memory", {
      memory_id: id,
      space_id: SPACE,
      memory: "Staging is on 9443",
      metadata: { provenance: { user_id: "cy" }, tags: ["ops"] },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      memory: "Staging is on 9443",
      version: 2,
      space_id: SPACE,
      metadata: { tags: ["ops"], provenance: { user_id: "ana", agent_id: "mcp-agent" } },
    });
    expect(await cy.delete(`/delete_memory?memory_id=${id}&space_id=${SPACE}`)).toEqual({
      status: 200,
      body: { success: true, deleted_count: 1 },
    });
    expect((await app.as(app.keys.bo).get(`/list_memories?spaces=${SPACE}`)).body.total).toBe(0);
  });

  test("a reader of the space cannot change or delete its memories (403), and without space_id the id is 404", async () => {
    app = await spacesApp();
    const [id] = (await app.as(app.keys.ana).post("/add_memories", { space_id: SPACE, memory: "Staging is on 8443" }))
      .body.memory_ids;
    const bo = app.as(app.keys.bo);
    const refused = { status: 403, body: forbidden("user 'bo' may read space 'platform' but not write to it") };
    expect(await bo.post("/update_memory", { memory_id: id, space_id: SPACE, memory: "x" })).toEqual(refused);
    expect(await bo.delete(`/delete_memory?memory_id=${id}&space_id=${SPACE}`)).toEqual(refused);
    expect((await app.as(app.keys.cy).delete(`/delete_memory?memory_id=${id}&space_id=${SPACE}`)).status).toBe(403);
    expect(await app.as(app.keys.ana).delete(`/delete_memory?memory_id=${id}`)).toEqual({
      status: 404,
      body: { success: false, error: `memory '${id}' not found`, code: "NOT_FOUND" },
    });
    expect((await bo.get(`/list_memories?spaces=${SPACE}`)).body.total).toBe(1);
  });
});

describe("spaces: reading across spaces", () => {
  async function withMemories() {
    app = await spacesApp();
    await app
      .as(app.keys.ana)
      .post("/add_memories", { space_id: SPACE, memory: "The staging database is Postgres 15" });
    await app.as(app.keys.bo).post("/add_memories", { memory: "Bo's staging notes: restart the database weekly" });
  }

  test("a search with include_shared or spaces merges the space's memories by score, each with its space_id", async () => {
    await withMemories();
    const bo = app.as(app.keys.bo);
    const plain = await bo.post("/search_memory", { query: "staging database" });
    expect(plain.body.results.map((r: { memory: string; space_id?: unknown }) => [r.memory, "space_id" in r])).toEqual([
      ["Bo's staging notes: restart the database weekly", false],
    ]);
    for (const ask of [{ include_shared: true }, { spaces: [SPACE] }]) {
      const r = await bo.post("/search_memory", { query: "staging database", ...ask });
      expect(new Set(shown(r.body).map((x) => JSON.stringify(x)))).toEqual(
        new Set([
          JSON.stringify(["The staging database is Postgres 15", SPACE]),
          JSON.stringify(["Bo's staging notes: restart the database weekly", null]),
        ]),
      );
      const scores = r.body.results.map((x: { score: number }) => x.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    }
    expect(
      (await bo.post("/search_memory", { query: "staging database", include_shared: true, limit: 1 })).body.results,
    ).toHaveLength(1);
  });

  test("a member of the organization outside the space reaches none of its memories: not by id, search, list or cursor", async () => {
    await withMemories();
    const cy = app.as(app.keys.cy);
    const [id] = (await app.as(app.keys.ana).get(`/list_memories?spaces=${SPACE}`)).body.results.map(
      (r: { id: string }) => r.id,
    );
    expect(await cy.get(`/get_memory?memory_id=${id}`)).toEqual({
      status: 404,
      body: { success: false, error: `memory '${id}' not found`, code: "NOT_FOUND" },
    });
    const refused = { status: 403, body: forbidden("user 'cy' is not a member of space 'platform'") };
    expect(await cy.get(`/get_memory?memory_id=${id}&space_id=${SPACE}`)).toEqual(refused);
    expect(await cy.post("/search_memory", { query: "staging database", spaces: [SPACE] })).toEqual(refused);
    expect(await cy.get(`/list_memories?spaces=${SPACE}`)).toEqual(refused);
    expect((await cy.post("/search_memory", { query: "staging database", include_shared: true })).body).toEqual({
      results: [],
    });
    const page = await app.as(app.keys.bo).get("/list_memories?include_shared=true&limit=1");
    expect(page.body.has_more).toBe(true);
    const theirs = await cy.get(`/list_memories?include_shared=true&cursor=${page.body.next_cursor}`);
    expect(theirs.body).toEqual({ results: [], total: 0, has_more: false, next_cursor: null });
  });

  test("a listing with include_shared pages the merged set newest first with one cursor: each memory once", async () => {
    app = await spacesApp();
    const expected: [string, string | null][] = [];
    for (let i = 0; i < 7; i++) {
      const own = i % 3 === 0;
      const key = own ? app.keys.bo : app.keys.ana;
      const memory = `note ${i}`;
      await app.as(key).post("/add_memories", own ? { memory } : { memory, space_id: SPACE });
      expected.unshift([memory, own ? null : SPACE]);
      // Two memories in the same millisecond, one in each owner: the cursor's rowid breaks the tie.
      if (i % 2 === 1) app.t.clock.advance(1000);
    }
    const seen: [string, string | null][] = [];
    let cursor: string | null = null;
    do {
      const q: string = `/list_memories?include_shared=true&limit=2${cursor ? `&cursor=${cursor}` : ""}`;
      const r = await app.as(app.keys.bo).get(q);
      expect(r.body.total).toBe(7);
      seen.push(...(shown(r.body) as [string, string | null][]));
      cursor = r.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(expected);
  });

  test("/metrics counts the people who read, not the spaces they read from", async () => {
    await withMemories();
    await app.as(app.keys.bo).post("/search_memory", { query: "staging", include_shared: true });
    await app.as(app.keys.ana).get("/list_memories?include_shared=true");
    expect((await app.as(app.keys.admin).get("/metrics")).body.unique_users).toBe(2);
  });

  test("naming a space twice, or with include_shared too, lists its memories once", async () => {
    await withMemories();
    const r = await app.as(app.keys.bo).get(`/list_memories?spaces=${SPACE}&spaces=${SPACE}&include_shared=true`);
    expect(shown(r.body)).toEqual([
      ["Bo's staging notes: restart the database weekly", null],
      ["The staging database is Postgres 15", SPACE],
    ]);
    expect(r.body.total).toBe(2);
  });
});
