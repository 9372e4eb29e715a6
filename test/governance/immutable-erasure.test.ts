// Erasure of immutable records version by version (issue 15 item 8): each version belongs to whoever
// wrote it; a user's erasure removes that user's versions, keeps everyone else's, and the record then
// reads as its newest remaining version.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { YEAR_MS } from "~/governance/durations";
import { orgPolicy, setPolicy } from "./app-support";

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const put = async (user: string, data: unknown) => {
  const r = await t.request("PUT", "/immutable/profile/p1", { data, user_id: user });
  expect(r.status).toBe(200);
  return r.body.version as number;
};
const versions = async () => (await t.get("/immutable/profile/p1/versions")).body.versions?.map((v: any) => v.data);
const erase = (user: string) => t.post("/delete_all_memories", { user_id: user, cascade: true });

test("each version says who wrote it, not who wrote the latest one", async () => {
  await put("bob", { ssn: "078-05-1120" });
  await put("alice", { note: "reviewed" });
  expect((await t.get("/immutable/profile/p1?version=1")).body.user_id).toBe("bob");
  expect((await t.get("/immutable/profile/p1")).body.user_id).toBe("alice");
});

test("erasing the author of an earlier version removes that version and keeps the later one of someone else", async () => {
  await put("bob", { ssn: "078-05-1120" });
  await put("alice", { note: "reviewed" });
  expect((await erase("bob")).body).toEqual({ success: true, deleted_count: 0, retained: {} });
  expect(await versions()).toEqual([{ note: "reviewed" }]);
  expect((await t.get("/immutable/profile/p1?version=1")).status).toBe(404);
  expect((await t.get("/immutable/profile/p1")).body).toMatchObject({ version: 2, user_id: "alice" });
});

test("erasing the author of the current version makes the newest remaining version current", async () => {
  await put("bob", { v: 1 });
  await put("alice", { v: 2 });
  await put("bob", { v: 3 });
  await erase("alice");
  expect(await versions()).toEqual([{ v: 3 }, { v: 1 }]);
  await erase("bob");
  expect((await t.get("/immutable/profile/p1")).status).toBe(404);
});

test("a record whose newest version is erased answers its newest remaining one", async () => {
  await put("bob", { v: 1 });
  await put("alice", { v: 2 });
  await erase("alice");
  expect((await t.get("/immutable/profile/p1")).body).toMatchObject({
    version: 1,
    current_version: 1,
    data: { v: 1 },
    user_id: "bob",
  });
});

test("minimum retention holds each version on its own", async () => {
  await setPolicy(t, orgPolicy("HIPAA"));
  await put("bob", { v: 1 });
  t.clock.advance(6 * YEAR_MS);
  await put("alice", { v: 2 });
  await put("bob", { v: 3 });
  expect((await erase("bob")).body).toEqual({ success: true, deleted_count: 0, retained: { immutable: 1 } });
  expect(await versions()).toEqual([{ v: 3 }, { v: 2 }]);
});
