// The policy service caches spaces' organizations and stored policies: a change through another
// connection to the same file (another process) shows at the next resolution, one of its own at once.
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

test("a space's organization set through another connection is the one the next resolution answers", async () => {
  const file = join(dir, "a.db");
  const [mine, other] = [await openTestStore(file), await openTestStore(file)];
  try {
    const policies = new PolicyService(mine, systemClock, "default");
    expect(await policies.orgOf("space-1")).toBe("default");
    expect((await policies.forSpace("space-1")).explicit).toBe(false);
    await other.write((tx) => tx.governance.registerSpace("space-1", "org-x", Date.now()));
    expect(await policies.orgOf("space-1")).toBe("org-x");
    // A call is audited under its caller's organization (none: the default one), not the space's.
    expect([(await policies.auditScope("org-x")).org, (await policies.auditScope(undefined)).org]).toEqual([
      "org-x",
      "default",
    ]);
    await other.write((tx) =>
      tx.governance.replacePolicy("organization", "org-x", "p1", JSON.stringify({ compliance: { mode: "HIPAA" } }), 1),
    );
    const effective = await policies.forSpace("space-1");
    expect([effective.explicit, effective.policy.compliance.mode]).toEqual([true, "HIPAA"]);
    expect((await policies.auditScope("org-x")).policy.compliance.mode).toBe("HIPAA");
  } finally {
    await Promise.all([mine.close(), other.close()]);
  }
});

test("a space's organization set through the service itself is answered at once", async () => {
  const store = await openTestStore(join(dir, "b.db"));
  try {
    const policies = new PolicyService(store, systemClock, "default");
    expect(await policies.orgOf("space-2")).toBe("default");
    await policies.setAgentOverride("space-2", { organizationId: "org-y", compliance: { mode: "GDPR" } }, "org-y");
    expect(await policies.orgOf("space-2")).toBe("org-y");
    expect((await policies.forSpace("space-2")).policy.compliance.mode).toBe("GDPR");
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
