// Two organizations with a space of the same id (SPEC §8): each is its own, and nothing of one reaches
// the other — not by id, search, list or membership. Through the services the routes call, on both stores.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { UserScope } from "~/shared/principal";
import { ORG, SPACE, spacesApp, shown, type SpacesApp } from "./support";

const member = (org: string, userId: string): UserScope => ({ org, userId, admin: false, readOnly: false });
const anaA = member(ORG, "ana");
const anaB = member("acme", "ana");
const cyB = member("acme", "cy");

let app: SpacesApp;
let ours: string;
beforeAll(async () => {
  app = await spacesApp();
  const s = app.t.services;
  ours = (await s.shared.add(anaA, { space_id: SPACE, memory: "Our deploy key is in the vault" })).memory_ids[0]!;
  await s.spaces.create(
    "acme",
    { space_id: SPACE, name: "Acme platform", members: [{ user_id: "ana", role: "writer" }] },
    null,
  );
  await s.shared.add(anaB, { space_id: SPACE, memory: "Acme deploys from the vault too" });
});
afterAll(() => app?.t.close());

describe("spaces of two organizations", () => {
  test("the same space id is two spaces: each organization's member sees only its own space's memories", async () => {
    const s = app.t.services.shared;
    const a = await s.list(anaA, { include_shared: true });
    const b = await s.list(anaB, { spaces: [SPACE] });
    expect([shown(a), shown(b)]).toEqual([
      [["Our deploy key is in the vault", SPACE]],
      [["Acme deploys from the vault too", SPACE]],
    ]);
    expect(shown(await s.search(anaB, { query: "deploy key vault", include_shared: true }))).toEqual([
      ["Acme deploys from the vault too", SPACE],
    ]);
  });

  test("another organization's member gets 404 for the memory's id even naming a space of the same id", async () => {
    const e = await app.t.services.shared.get(anaB, { memory_id: ours, space_id: SPACE }).catch((x) => x);
    expect([e.code, e.message]).toEqual(["NOT_FOUND", `memory '${ours}' not found`]);
  });

  test("membership does not cross organizations: ana of one is not ana of the other's members, nor cy of either", async () => {
    const e = await app.t.services.shared.search(cyB, { query: "vault", spaces: [SPACE] }).catch((x) => x);
    expect([e.code, e.message]).toEqual(["FORBIDDEN", "user 'cy' is not a member of space 'platform'"]);
    const none = await app.t.services.shared
      .get(member("zeta", "ana"), { memory_id: ours, space_id: SPACE })
      .catch((x) => x);
    expect([none.code, none.message]).toEqual(["NOT_FOUND", "space 'platform' not found"]);
    const spaces = await app.t.services.spaces.list({ org: "acme" });
    expect(spaces.spaces.map((x) => [x.name, x.members])).toEqual([
      ["Acme platform", [{ user_id: "ana", role: "writer" }]],
    ]);
  });

  test("deleting one organization's space leaves the other's and its memories", async () => {
    await app.t.services.spaces.delete("acme", SPACE);
    expect(shown(await app.t.services.shared.list(anaA, { include_shared: true }))).toEqual([
      ["Our deploy key is in the vault", SPACE],
    ]);
  });
});
