// Helpers for governance tests driven through the HTTP app (buildTestApp + FakeClock): seed
// memories, versions, layer records and policies; read row counts straight from the store.
import { expect } from "bun:test";
import type { TestApp } from "../support/app";
import { rulesFrom } from "./support";
import { rowsOf } from "../support/store";

export const ORG = "default";

/** A full policy for the store's organization: a template with dotted-path changes. */
export const orgPolicy = (template: string, ...changes: [string, unknown][]) => ({
  organizationId: ORG,
  ...rulesFrom(template, ...changes),
});

export async function setPolicy(t: TestApp, policy: unknown): Promise<void> {
  const r = await t.post("/governance/policies", policy);
  expect(r.status).toBe(200);
}

export async function addMemory(
  t: TestApp,
  memory: string,
  metadata: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): Promise<string> {
  const r = await t.post("/add_memories", { user_id: "u", memory, metadata, ...extra });
  expect(r.status).toBe(200);
  return r.body.memory_ids[0];
}

/** `n` updates one hour apart: the memory ends with n + 1 versions. */
export async function updateTimes(t: TestApp, id: string, n: number, user = "u"): Promise<void> {
  for (let i = 2; i <= n + 1; i++) {
    t.clock.advance(3_600_000);
    const r = await t.post("/update_memory", { memory_id: id, user_id: user, memory: `version ${i}` });
    expect(r.status).toBe(200);
  }
}

export async function versionNumbers(t: TestApp, id: string, user = "u"): Promise<number[]> {
  const r = await t.get(`/memories/${id}/versions?user_id=${user}`);
  expect(r.status).toBe(200);
  return r.body.versions.map((v: { version: number }) => v.version);
}

export async function immutableVersions(t: TestApp, path: string): Promise<number[]> {
  const r = await t.get(`/immutable/${path}/versions`);
  expect(r.status).toBe(200);
  return r.body.versions.map((v: { version: number }) => v.version);
}

export async function putImmutable(
  t: TestApp,
  path: string,
  times = 1,
  extra: Record<string, unknown> = {},
): Promise<void> {
  for (let i = 0; i < times; i++)
    expect((await t.request("PUT", `/immutable/${path}`, { data: { n: i }, ...extra })).status).toBe(200);
}

export async function conversation(t: TestApp, user = "u", agent?: string): Promise<string> {
  const r = await t.post("/conversations", {
    user_id: user,
    ...(agent ? { agent_id: agent } : {}),
    messages: [{ role: "user", content: "hello there" }],
  });
  expect(r.status).toBe(200);
  return r.body.id;
}

export async function enforce(t: TestApp, options: Record<string, unknown> = { scope: { organizationId: ORG } }) {
  const r = await t.post("/governance/enforce", options);
  expect(r.status).toBe(200);
  return r.body as {
    enforcedAt: number;
    versionsDeleted: number;
    recordsPurged: number;
    storageFreed: number;
    affectedLayers: string[];
  };
}

const COUNTS = {
  memories: "SELECT count(*) AS n FROM memories",
  memoryVersions: "SELECT count(*) AS n FROM memory_versions",
  conversations: "SELECT count(*) AS n FROM conversations",
  archived: "SELECT count(*) AS n FROM conversations WHERE archived_at IS NOT NULL",
  immutable: "SELECT count(*) AS n FROM immutable_records",
  immutableVersions: "SELECT count(*) AS n FROM immutable_versions",
  mutable: "SELECT count(*) AS n FROM mutable_entries",
} as const;

/** Row counts of every governed table. */
export async function counts(t: TestApp): Promise<Record<keyof typeof COUNTS, number>> {
  const out = {} as Record<keyof typeof COUNTS, number>;
  for (const [k, sql] of Object.entries(COUNTS))
    out[k as keyof typeof COUNTS] = (await rowsOf<{ n: number }>(t, sql))[0]!.n;
  return out;
}
