// The OpenAPI document (/swagger/json): it is the committed docs/openapi.json, the ecosystem's own
// validators accept it, and every operation says what it takes, answers, fails with and needs.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { ACCESS } from "~/identity/access";
import { Type, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { buildTestApp, type TestApp } from "../support/app";
import { createApp } from "~/app";
import { openApiDocument } from "~/http/openapi";
import { spec, specOf, type RouteSpec } from "~/http/route-spec";
import { DOCUMENT_FILE, TYPES_FILE, documentText, typesText } from "../../scripts/openapi";

const ROOT = join(import.meta.dir, "..", "..");
let t: TestApp;
let doc: any;
beforeAll(async () => {
  t = await buildTestApp();
  doc = (await t.get("/swagger/json")).body;
});
afterAll(() => t.close());

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
  );
const specs = () =>
  createApp(t.services)
    .app.routes.map((r) => ({ name: `${r.method} ${r.path}`, spec: specOf(r.hooks) }))
    .filter((r): r is { name: string; spec: RouteSpec } => r.spec !== undefined);

describe("GET /swagger/json", () => {
  test("is docs/openapi.json, and test/openapi/engram-api.d.ts is what openapi-typescript makes of it (bun run openapi updates both)", async () => {
    expect(documentText(doc)).toBe(readFileSync(DOCUMENT_FILE, "utf8"));
    expect(await typesText(doc)).toBe(readFileSync(TYPES_FILE, "utf8"));
  }, 30_000);

  test("describes every route: none lacks a spec (src/http/route-spec.ts) unless it is hidden", () => {
    expect(openApiDocument(createApp(t.services).app.routes, "x").undocumented).toEqual([]);
    const described = specs().filter((s) => !s.name.split(" ")[1]!.startsWith("/v1/"));
    expect(operations().length).toBe(described.length);
  });

  test("stays the same after every route has been called (Elysia compiles routes lazily and must not change a schema)", async () => {
    const fresh = await buildTestApp();
    try {
      const before = JSON.stringify((await fresh.get("/swagger/json")).body);
      for (const r of createApp(fresh.services).app.routes)
        await fresh.request(
          r.method === "ALL" ? "POST" : r.method,
          r.path.replace(/:\w+/g, "x"),
          r.method === "GET" ? undefined : {},
        );
      const again = openApiDocument(createApp(fresh.services).app.routes, fresh.services.version).document;
      expect(JSON.stringify(again)).toBe(before);
    } finally {
      await fresh.close();
    }
    // Every route once, on a fresh store: a budget, not a timing assertion (PostgreSQL takes longer).
  }, 60_000);

  test("a route whose input schema leaves additionalProperties unsaid is refused when it is declared", () => {
    expect(() =>
      spec({
        tag: "t",
        summary: "Bad",
        body: Type.Object({ a: Type.String() }),
        response: Type.Object({}),
        access: ACCESS.public,
      }),
    ).toThrow('route "Bad": give its input schema an explicit additionalProperties (usually false)');
  });

  test("is valid for @apidevtools/swagger-parser", async () => {
    await SwaggerParser.validate(structuredClone(doc));
  });

  test("Redocly CLI lint (recommended rules, redocly.yaml) reports no error and no warning", async () => {
    const lint = Bun.spawn(
      [join(ROOT, "node_modules/.bin/redocly"), "lint", DOCUMENT_FILE, "--format=json", "--max-problems=1000"],
      {
        cwd: ROOT,
        stderr: "pipe",
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      },
    );
    const report = JSON.parse(await new Response(lint.stdout).text());
    await lint.exited;
    expect(report.problems.map((p: any) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
  }, 60_000);

  test("every operation has a summary, its parameters and body, a 200 with a schema and an example, and security", () => {
    const missing = operations().flatMap(({ name, op }) => {
      const ok = op.responses["200"]?.content?.["application/json"];
      const problems = [
        !op.summary && "summary",
        !ok?.schema && "200 schema",
        ok?.example === undefined && "200 example",
        !Array.isArray(op.security) && "security",
        op.requestBody && op.requestBody.content["application/json"].example === undefined && "body example",
        ...(op.parameters ?? []).map((p: any) => p.required && p.example === undefined && `${p.name} example`),
      ].filter(Boolean);
      const params = [...name.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = (op.parameters ?? []).filter((p: any) => p.in === "path").map((p: any) => p.name);
      if (JSON.stringify(params) !== JSON.stringify(declared)) problems.push("path parameters");
      return problems.length ? [`${name}: ${problems.join(", ")}`] : [];
    });
    expect(missing).toEqual([]);
  });

  test("every error status an operation lists answers the envelope, and each has 401 unless it is /health or /ready, 400 when it takes input, 413 and 415 with a body, and 500", () => {
    const wrong = operations().flatMap(({ name, op }) => {
      const statuses = Object.keys(op.responses).filter((s) => s !== "200");
      const expected = [
        op.parameters?.length || op.requestBody ? "400" : null,
        name === "GET /health" || name === "GET /ready" ? null : "401",
        op.requestBody ? "413" : null,
        op.requestBody ? "415" : null,
        "500",
      ].filter((s): s is string => s !== null);
      const notEnvelope = statuses.filter(
        (s) => op.responses[s].content["application/json"].schema.$ref !== "#/components/schemas/Error",
      );
      const absent = expected.filter((s) => !statuses.includes(s));
      return absent.length || notEnvelope.length
        ? [`${name}: missing ${absent} / not the envelope ${notEnvelope}`]
        : [];
    });
    expect(wrong).toEqual([]);
    expect(doc.paths["/health"].get.security).toEqual([]);
    expect(doc.paths["/ready"].get.security).toEqual([]);
    expect(doc.paths["/add_memories"].post.security).toEqual([{ bearer: [] }]);
  });

  test("every example in the route specs is valid for its schema", () => {
    const bad = specs().flatMap(({ name, spec: s }) => {
      const pairs: [string, TSchema | undefined, unknown][] = [
        ...[s.params, s.query, s.body, s.response, s.governance?.params, s.governance?.query, s.governance?.body].map(
          (schema) =>
            ["examples", schema, (schema?.examples as unknown[] | undefined)?.[0]] as [string, TSchema, unknown],
        ),
        ["examples.body", s.body ?? s.governance?.body, s.examples?.body],
        ["examples.response", s.response, s.examples?.response],
      ];
      return pairs.flatMap(([what, schema, value]) =>
        schema && value !== undefined && !Value.Check(schema, value)
          ? [`${name} ${what}: ${[...Value.Errors(schema, value)].map((e) => `${e.path} ${e.message}`).join("; ")}`]
          : [],
      );
    });
    expect(bad).toEqual([]);
  });

  test("no routes file checks input by hand: Elysia validates every route from its spec (checkInput is for MCP and the SDK)", () => {
    const dir = join(ROOT, "src/http");
    const byHand = readdirSync(dir).filter((f) =>
      /checkInput|Value\.(Check|Errors)\(/.test(readFileSync(join(dir, f), "utf8")),
    );
    expect(byHand).toEqual([]);
  });
});
