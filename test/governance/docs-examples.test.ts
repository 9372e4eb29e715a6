// Runs every curl example of docs/GOVERNANCE.md, in order, against one fresh app and checks the
// status (and, where the documented answer is complete JSON, the body) shown after it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { buildTestApp, type TestApp } from "../support/app";

interface Example {
  method: string;
  path: string;
  body?: unknown;
  status: number;
  answer: string;
}

const DOC = await Bun.file(join(import.meta.dir, "..", "..", "docs", "GOVERNANCE.md")).text();

function parseExamples(doc: string): Example[] {
  const blocks = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks.flatMap((block) =>
    [...block.matchAll(/^curl ([\s\S]*?)\n# → (\d{3}) ?(.*)$/gm)].map(([, cmd, status, answer]) => {
      const method = /-X (\w+)/.exec(cmd!)?.[1] ?? "GET";
      const path = /'?localhost:3000([^\s']*)'?/.exec(cmd!)![1]!;
      const data = /-d '([\s\S]*)'/.exec(cmd!)?.[1];
      return {
        method,
        path,
        body: data === undefined ? undefined : JSON.parse(data),
        status: Number(status),
        answer: answer!,
      };
    }),
  );
}

/** A documented answer as an expectation: "…" strings match anything. */
const expectation = (v: unknown): unknown =>
  v === "…"
    ? expect.anything()
    : Array.isArray(v)
      ? v.map(expectation)
      : v && typeof v === "object"
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expectation(x)]))
        : v;

const examples = parseExamples(DOC);
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

test("the governance guide has curl examples for every governance route", () => {
  const routes = new Set(
    examples.map((e) => `${e.method} ${e.path.split("?")[0]!.replace(/\/(support-bot|FINRA|Custom)$/, "/:x")}`),
  );
  for (const r of [
    "POST /governance/policies",
    "GET /governance/policies",
    "DELETE /governance/policies",
    "PUT /governance/overrides/:x",
    "GET /governance/templates/:x",
    "POST /governance/enforce",
    "POST /governance/simulate",
    "POST /governance/compliance-report",
    "GET /governance/stats",
    "GET /governance/audit",
  ])
    expect(routes).toContain(r);
});

test.each(examples.map((e, i) => [i + 1, `${e.method} ${e.path}`, e] as const))(
  "example %i, %s, answers as documented",
  async (_i, _label, e) => {
    const r = await t.request(e.method, e.path, e.body);
    expect(r.status).toBe(e.status);
    let documented: unknown;
    try {
      documented = JSON.parse(e.answer);
    } catch {
      for (const key of ["code", "field"]) {
        const shown = new RegExp(`"${key}":"([^"]+)"`).exec(e.answer)?.[1];
        if (shown) expect(r.body[key]).toBe(shown);
      }
      return;
    }
    expect(r.body).toEqual(expectation(documented));
  },
);
