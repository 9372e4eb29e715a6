// Numbers in a query string are plain decimal integers (SPEC §2.1 VALIDATION_ERROR): `true`, `0x10`,
// `1e3`, `1.0`, `+5` or ` 5` are refused naming the parameter, on every route that reads one.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  await t.post("/add_memories", { user_id: "u", memory: "x" });
  await t.request("PUT", "/immutable/kb/1", { data: 1 });
});
afterAll(() => t.close());

const ROUTES: [path: (v: string) => string, field: string][] = [
  [(v) => `/list_memories?user_id=u&limit=${v}`, "limit"],
  [(v) => `/immutable/kb/1?version=${v}`, "version"],
  [(v) => `/conversations?user_id=u&limit=${v}`, "limit"],
  [(v) => `/graph/entities?user_id=u&limit=${v}`, "limit"],
  [(v) => `/sessions?user_id=u&limit=${v}`, "limit"],
  [(v) => `/governance/audit?limit=${v}`, "limit"],
];

describe("query-string numbers", () => {
  const refused = ["true", "false", "0x10", "1e3", "1e400", "1.0", "+1", " 1", "1 ", "Infinity", "NaN", "1_0", "٣"];
  test.each(
    ROUTES.flatMap(([path, field]) => refused.map((v) => [path("1").replace(/=1$/, `=${v}`), v, path, field] as const)),
  )("%s is a 400 naming the parameter", async (_label, value, path, field) => {
    const r = await t.get(path(encodeURIComponent(value)));
    expect([r.status, r.body.field]).toEqual([400, field]);
  });

  test.each(ROUTES.map(([path, field]) => [path("1"), path, field] as const))(
    "%s with a plain decimal integer is accepted",
    async (_label, path) => {
      for (const v of ["1", "01"]) expect((await t.get(path(v))).status).toBe(200);
    },
  );
});
