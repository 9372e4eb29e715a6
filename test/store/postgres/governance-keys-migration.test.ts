// PostgreSQL migration 21 on a store the release before it made: kept policies go to the organization they
// belong to, space registrations are keyed by organization, and row-level security gives an
// organization's transaction only its own policies, registrations and enforcement runs (SPEC §8, §9).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { HOME_ORG } from "../../support/store";
import { migratedFrom, postgresSkip, type MigratedStore } from "../../support/postgres";

const BEFORE = [
  "INSERT INTO memory_spaces (id, organization_id, created_at) VALUES ('bot', 'acme', 0)",
  `INSERT INTO governance_policies (id, scope_kind, scope_id, policy, active, created_at) VALUES
   ('p1', 'organization', 'acme', '{}', true, 0), ('p2', 'memorySpace', 'bot', '{}', true, 0),
   ('p3', 'memorySpace', 'solo', '{}', true, 0), ('p4', 'organization', 'other', '{}', false, 0)`,
  `INSERT INTO enforcement_log (id, org_id, scope_kind, scope_id, layers, rules, enforced_at, duration_ms) VALUES
   ('e1', 'acme', 'organization', 'acme', '[]', '[]', 0, 1), ('e2', '${HOME_ORG}', 'memorySpace', 'solo', '[]', '[]', 0, 1)`,
];

describe.skipIf(!!postgresSkip)(
  `PostgreSQL governance keys by organization${postgresSkip ? ` (skipped: ${postgresSkip})` : ""}`,
  () => {
    let migrated: MigratedStore;
    beforeAll(async () => {
      migrated = await migratedFrom("govkeys", 21, BEFORE);
    }, 60_000);
    afterAll(() => migrated?.close());

    /** `sql` as the app's role, in a transaction scoped to organization `org` ('*': every one). */
    const asOrg = (org: string, sql: string) => migrated.scoped(org, "*", sql);

    test("kept policies go to the organization they name, or their space's registered one, else the home one", async () => {
      expect([...(await asOrg("*", "SELECT id, org_id FROM governance_policies ORDER BY id"))]).toEqual([
        { id: "p1", org_id: "acme" },
        { id: "p2", org_id: "acme" },
        { id: "p3", org_id: HOME_ORG },
        { id: "p4", org_id: "other" },
      ]);
    });

    test("an organization's transaction sees only its own policies, registrations and enforcement runs", async () => {
      const ids = async (org: string, table: string) =>
        (await asOrg(org, `SELECT id FROM ${table} ORDER BY id`)).map((r: { id: string }) => r.id);
      expect([await ids("acme", "governance_policies"), await ids(HOME_ORG, "governance_policies")]).toEqual([
        ["p1", "p2"],
        ["p3"],
      ]);
      expect([await ids("acme", "memory_spaces"), await ids(HOME_ORG, "memory_spaces")]).toEqual([["bot"], []]);
      expect([await ids("acme", "enforcement_log"), await ids(HOME_ORG, "enforcement_log")]).toEqual([["e1"], ["e2"]]);
      // Another organization may register a space of the same id; its transaction cannot write acme's rows.
      await asOrg(
        HOME_ORG,
        "INSERT INTO memory_spaces (organization_id, id, created_at) VALUES ('" + HOME_ORG + "', 'bot', 1)",
      );
      const write = asOrg(
        HOME_ORG,
        "INSERT INTO governance_policies (id, org_id, scope_kind, scope_id, policy, created_at) VALUES ('p9', 'acme', 'organization', 'acme', '{}', 1)",
      );
      expect(await write.catch((e: Error) => e.message)).toContain("row-level security");
      expect(await ids("*", "memory_spaces")).toEqual(["bot", "bot"]);
    });
  },
);
