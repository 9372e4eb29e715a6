// The policy service caches stored policies, per organization: a change through another connection to the
// same file (another process) shows at the next resolution, one of its own at once.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PolicyService } from "~/governance/policies";
import { systemClock } from "~/shared/clock";
import { openTestStore } from "../support/store";
import { rulesFrom } from "./support";

const dir = mkdtempSync(join(tmpdir(), "engram-policy-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a policy set through another connection is the one the next resolution answers", async () => {
  const file = join(dir, "a.db");
  const [mine, other] = [await openTestStore(file), await openTestStore(file)];
  try {
    const policies = new PolicyService(mine, systemClock, "default");
    expect((await policies.forSpace("org-x", "space-1")).explicit).toBe(false);
    // A call is audited under its caller's organization (none: the default one).
    expect([(await policies.auditScope("org-x")).org, (await policies.auditScope(undefined)).org]).toEqual([
      "org-x",
      "default",
    ]);
    await other.write((tx) =>
      tx.governance.replacePolicy(
        "org-x",
        "organization",
        "org-x",
        "p1",
        JSON.stringify({ compliance: { mode: "HIPAA" } }),
        1,
      ),
    );
    const effective = await policies.forSpace("org-x", "space-1");
    expect([effective.explicit, effective.policy.compliance.mode]).toEqual([true, "HIPAA"]);
    expect((await policies.auditScope("org-x")).policy.compliance.mode).toBe("HIPAA");
    // The same space id in another organization is another space, under that organization's policy.
    expect((await policies.forSpace("default", "space-1")).explicit).toBe(false);
  } finally {
    await Promise.all([mine.close(), other.close()]);
  }
});

test("a space's policy set through the service itself is answered at once, for that organization's space only", async () => {
  const store = await openTestStore(join(dir, "b.db"));
  try {
    const policies = new PolicyService(store, systemClock, "default");
    const versions = async (org: string) =>
      (await policies.forSpace(org, "space-2")).policy.vector.retention.defaultVersions;
    expect(await versions("org-y")).toBe(10);
    await policies.setAgentOverride("space-2", { vector: { retention: { defaultVersions: 4 } } }, "org-y");
    expect([await versions("org-y"), await versions("default")]).toEqual([4, 10]);
  } finally {
    await store.close();
  }
});

test("a lookup that read the old policy while a new one was written does not keep the old one in the cache", async () => {
  const store = await openTestStore(join(dir, "c.db"));
  try {
    const policies = new PolicyService(store, systemClock, "default");
    await policies.setPolicy({ organizationId: "default", ...rulesFrom("GDPR") }, "default");
    // The next read of the store is held after it has read (the old policy) until the new one is written.
    const read = store.read.bind(store);
    let readIt!: () => void;
    let release!: () => void;
    const hasRead = new Promise<void>((r) => (readIt = r));
    const released = new Promise<void>((r) => (release = r));
    store.read = async (fn) => {
      store.read = read;
      const value = await read(fn);
      readIt();
      await released;
      return value;
    };
    const lookup = policies.forOrg("default");
    await hasRead;
    await policies.setPolicy({ organizationId: "default", ...rulesFrom("HIPAA") }, "default");
    release();
    expect((await lookup).policy.compliance.mode).toBe("GDPR");
    expect((await policies.forOrg("default")).policy.compliance.mode).toBe("HIPAA");
  } finally {
    await store.close();
  }
});
