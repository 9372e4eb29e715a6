// Bad input on every spaces route and on the space fields of the memory routes: the SPEC §2.1 envelope
// with its status (400/403/404/409), never a 500; and the reserved owner prefix of a space's memories
// refused wherever a client names a user.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SPACE, spacesApp, type SpacesApp } from "./support";

let app: SpacesApp;
beforeAll(async () => {
  app = await spacesApp();
});
afterAll(() => app?.t.close());

const invalid = (field: string) => ({
  status: 400,
  body: expect.objectContaining({ code: "VALIDATION_ERROR", field }),
});
const RESERVED = "user ids starting with 'space:' are reserved for shared spaces";

describe("spaces: bad input", () => {
  test.each([
    ["no name", { space_id: "x", members: [] }, "name"],
    ["a space id with a slash", { space_id: "a/b", name: "X", members: [] }, "space_id"],
    ["an empty space id", { space_id: "", name: "X", members: [] }, "space_id"],
    ["a space id of 129 characters", { space_id: "a".repeat(129), name: "X", members: [] }, "space_id"],
    ["an unknown role", { space_id: "x", name: "X", members: [{ user_id: "ana", role: "owner" }] }, "members[0].role"],
    ["members not a list", { space_id: "x", name: "X", members: "ana" }, "members"],
    ["an unknown field", { space_id: "x", name: "X", members: [], owner: "ana" }, "owner"],
  ])("POST /spaces with %s: 400 naming the field", async (_label, body, field) => {
    expect(await app.as(app.keys.admin).post("/spaces", body)).toEqual(invalid(field));
  });

  test("POST /spaces listing a user twice: 400 on the second, and nothing is created", async () => {
    const members = [
      { user_id: "ana", role: "writer" },
      { user_id: "ana", role: "reader" },
    ];
    expect(await app.as(app.keys.admin).post("/spaces", { space_id: "twice", name: "X", members })).toEqual({
      status: 400,
      body: {
        success: false,
        error: "user 'ana' is listed twice",
        code: "VALIDATION_ERROR",
        field: "members[1].user_id",
      },
    });
    expect((await app.as(app.keys.admin).get("/spaces/twice")).status).toBe(404);
  });

  test("a space's reserved owner id is refused as a member, a key's user and any request's user_id (400)", async () => {
    const admin = app.as(app.keys.admin);
    const member = [{ user_id: "space:platform", role: "writer" }];
    expect(await admin.post("/spaces", { space_id: "x", name: "X", members: member })).toEqual({
      status: 400,
      body: { success: false, error: RESERVED, code: "VALIDATION_ERROR", field: "members[0].user_id" },
    });
    expect(await admin.put(`/spaces/${SPACE}/members`, { members: member })).toEqual(invalid("members[0].user_id"));
    expect(await admin.post("/admin/keys", { role: "member", user_id: "space:platform" })).toEqual(invalid("user_id"));
    for (const r of [
      await admin.get("/list_memories?user_id=space:platform"),
      await admin.post("/search_memory", { user_id: "space:platform", query: "anything" }),
      await admin.post("/add_memories", { user_id: "space:platform", memory: "sneaking in" }),
      await admin.post("/delete_all_memories", { user_id: "space:platform", cascade: true }),
    ])
      expect(r).toEqual({
        status: 400,
        body: { success: false, error: RESERVED, code: "VALIDATION_ERROR", field: "user_id" },
      });
  });

  test("PUT /spaces/:id/members and DELETE /spaces/:id of an unknown space: 404; a bad body: 400", async () => {
    const admin = app.as(app.keys.admin);
    const notFound = { status: 404, body: { success: false, error: "space 'nope' not found", code: "NOT_FOUND" } };
    expect(await admin.put("/spaces/nope/members", { members: [] })).toEqual(notFound);
    expect(await admin.delete("/spaces/nope")).toEqual(notFound);
    expect(await admin.put(`/spaces/${SPACE}/members`, {})).toEqual(invalid("members"));
    expect(await admin.put(`/spaces/${SPACE}/members`, { members: [{ user_id: "", role: "writer" }] })).toEqual(
      invalid("members[0].user_id"),
    );
    expect((await admin.get("/spaces/a%2Fb")).status).toBe(400);
  });

  test("the space fields of the memory routes: wrong types and empty lists are 400, an unknown space 404", async () => {
    const ana = app.as(app.keys.ana);
    expect(await ana.post("/search_memory", { query: "x", spaces: [] })).toEqual(invalid("spaces"));
    expect(await ana.post("/search_memory", { query: "x", spaces: ["a b"] })).toEqual(invalid("spaces[0]"));
    expect(await ana.post("/search_memory", { query: "x", include_shared: "yes" })).toEqual(invalid("include_shared"));
    expect(await ana.get("/list_memories?include_shared=maybe")).toEqual(invalid("include_shared"));
    expect(await ana.post("/add_memories", { memory: "x", space_id: 7 })).toEqual(invalid("space_id"));
    expect(await ana.post("/memories/some-id/promote", {})).toEqual(invalid("space_id"));
    expect(await ana.post("/memories/some-id/promote", { space_id: SPACE, extra: 1 })).toEqual(invalid("extra"));
    expect((await ana.post("/search_memory", { query: "x", spaces: ["nope"] })).status).toBe(404);
    expect((await ana.get("/get_memory?memory_id=m&space_id=nope")).status).toBe(404);
    expect((await ana.post("/memories/some-id/promote", { space_id: "nope" })).status).toBe(404);
  });

  test("a listing cursor that is not one is 400 across spaces too", async () => {
    expect(await app.as(app.keys.ana).get("/list_memories?include_shared=true&cursor=bogus")).toEqual(
      invalid("cursor"),
    );
  });
});
