// Apps of two (or more) organizations on ONE store: each app serves its own home organization
// (ENGRAM_ORG_ID), its operator (auth off on loopback) an admin of it. What several organizations on one
// server are, testable while the server still refuses keys of organizations other than its home one. On
// the engine under test: one SQLite file, or one PostgreSQL schema (ENGRAM_TEST_STORE=postgres).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildTestApp, TEST_STORE, type TestApp } from "./app";
import { freshSchema } from "./postgres";

export interface OrgApps {
  of(org: string): TestApp;
  close(): Promise<void>;
}

export async function orgApps(orgs: string[]): Promise<OrgApps> {
  const dir = TEST_STORE === "sqlite" ? mkdtempSync(join(tmpdir(), "engram-orgs-")) : null;
  const schema = dir ? null : await freshSchema("orgs");
  const store = dir
    ? { storeUrl: `sqlite://${join(dir, "store.db")}` }
    : { storeUrl: schema!.url, storeMigrationUrl: schema!.migrationUrl, storePoolSize: 2 };
  const apps = new Map<string, TestApp>();
  try {
    // One after the other: the first one migrates the store.
    for (const org of orgs) apps.set(org, await buildTestApp({ options: { ...store, orgId: org } }));
  } catch (e) {
    await closeAll();
    throw e;
  }
  async function closeAll() {
    for (const t of apps.values()) await t.close();
    await schema?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
  return { of: (org) => apps.get(org)!, close: closeAll };
}
