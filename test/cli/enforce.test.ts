// `engram enforce` as a cron job runs it: every organization of the store under its own policies, each
// logged as its own run, or one organization with --org; bad arguments are a usage error.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { createEngram } from "~/index";
import { getTemplate } from "~/governance/templates";
import { silentLogger } from "~/shared/logger";
import { CLI_TEST_TIMEOUT_MS, runCli } from "../support/cli";
import { tempDir } from "../support/server-process";

setDefaultTimeout(CLI_TEST_TIMEOUT_MS);

/** A store where organizations a and b each hold one low-importance memory edited three times; b keeps 10 versions. */
async function twoOrganizations(): Promise<string> {
  const path = join(tempDir(), "orgs.db");
  for (const org of ["a", "b"]) {
    const e = await createEngram({ storeUrl: path, orgId: org, embedder: null, logger: silentLogger() });
    if (org === "b")
      await e.governance.setPolicy({
        ...getTemplate("GDPR"),
        organizationId: "b",
        vector: { ...getTemplate("GDPR").vector, retention: { defaultVersions: 10, byImportance: [] } },
      } as never);
    const [id] = (await e.addMemories({ user_id: "u", memory: "v1", metadata: { importance: 10 } })).memory_ids;
    for (const text of ["v2", "v3", "v4"]) await e.updateMemory({ user_id: "u", memory_id: id!, memory: text });
    await e.close();
  }
  return `--store-url=${path}`;
}

const lines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l))
    .map(({ organization, versionsDeleted, recordsPurged }) => ({ organization, versionsDeleted, recordsPurged }));

describe("engram enforce", () => {
  test("enforces every organization under its own policy: a's default keeps 1 version, b's policy keeps 10", async () => {
    const store = await twoOrganizations();
    const r = await runCli(["enforce", store, "--embedding-model=none"]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(lines(r.stdout)).toEqual([
      { organization: "a", versionsDeleted: 3, recordsPurged: 0 },
      { organization: "b", versionsDeleted: 0, recordsPurged: 0 },
      { organization: "default", versionsDeleted: 0, recordsPurged: 0 },
    ]);
    const again = await runCli(["enforce", store, "--embedding-model=none"]);
    expect(lines(again.stdout).map((l) => l.versionsDeleted)).toEqual([0, 0, 0]);
  });

  test("--org enforces that organization only", async () => {
    const store = await twoOrganizations();
    const r = await runCli(["enforce", "--org", "b", store, "--embedding-model=none"]);
    expect(lines(r.stdout)).toEqual([{ organization: "b", versionsDeleted: 0, recordsPurged: 0 }]);
    const a = await runCli(["enforce", "--org=a", store, "--embedding-model=none"]);
    expect(lines(a.stdout)).toEqual([{ organization: "a", versionsDeleted: 3, recordsPurged: 0 }]);
  });

  test.each([
    [["enforce", "--org"], "--org needs a value"],
    [["enforce", "now"], "unexpected argument 'now'"],
  ])("%p is a usage error (exit 2) saying why", async (args, why) => {
    const r = await runCli(args);
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 2,
      stderr: `engram enforce: ${why}\nusage: engram enforce [--org <org>] [--store-url=…]\n`,
    });
  });
});
