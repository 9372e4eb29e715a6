// The SDK's memory, version and shared-space calls (SPEC §8, §11), run against createEngram
// (in-process) and createClient (HTTP on a real port): both must answer and fail identically.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { AppError, type EngramClient } from "~/index";

export interface MemorySdkHarness {
  client: EngramClient;
  close(): Promise<void>;
}

const CREATED = "2026-06-01T00:00:00.000Z";
const MEMBERS = [
  { user_id: "ana", role: "writer" as const },
  { user_id: "bo", role: "reader" as const },
];

async function failure(p: Promise<unknown>): Promise<{ name: string; code: string; field?: string }> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    const err = e as AppError;
    return { name: err.name, code: err.code, ...(err.field !== undefined ? { field: err.field } : {}) };
  }
  throw new Error("expected the call to throw");
}

export function memorySdkContract(name: string, make: () => Promise<MemorySdkHarness>) {
  describe(`memory and spaces SDK contract: ${name}`, () => {
    let h: MemorySdkHarness;
    let c: EngramClient;
    beforeEach(async () => {
      h = await make();
      c = h.client;
    });
    afterEach(() => h.close());

    test("spaces.create, get, list, setMembers and delete answer the space as the HTTP routes do", async () => {
      const space = { success: true as const, space_id: "platform", name: "Platform team", created_at: CREATED };
      expect(await c.spaces.create({ space_id: "platform", name: "Platform team", members: MEMBERS })).toEqual({
        ...space,
        members: MEMBERS,
      });
      expect(await c.spaces.get("platform")).toEqual({ ...space, members: MEMBERS });
      const ana = [{ user_id: "ana", role: "writer" as const }];
      expect(await c.spaces.setMembers("platform", { members: ana })).toEqual({ ...space, members: ana });
      const { success: _, ...view } = space;
      expect(await c.spaces.list()).toEqual({ success: true, spaces: [{ ...view, members: ana }] });
      expect(await c.spaces.delete("platform")).toEqual({ success: true, space_id: "platform", deleted_count: 0 });
      expect(await failure(c.spaces.get("platform"))).toEqual({ name: "AppError", code: "NOT_FOUND" });
    });

    test("a space's memory is reached with space_id on getMemory and deleteMemory, and only with it", async () => {
      await c.spaces.create({ space_id: "platform", name: "Platform", members: MEMBERS });
      const added = await c.addMemories({ user_id: "ana", space_id: "platform", memory: "Deploys freeze on Fridays" });
      const memory_id = added.memory_ids[0]!;
      const got = await c.getMemory({ user_id: "bo", memory_id, space_id: "platform" });
      expect({ memory: got.memory, space_id: got.space_id }).toEqual({
        memory: "Deploys freeze on Fridays",
        space_id: "platform",
      });
      expect(await failure(c.getMemory({ user_id: "ana", memory_id }))).toEqual({
        name: "AppError",
        code: "NOT_FOUND",
      });
      expect(await failure(c.deleteMemory({ user_id: "ana", memory_id, space_id: "other" }))).toEqual({
        name: "AppError",
        code: "NOT_FOUND",
      });
      expect(await c.deleteMemory({ user_id: "ana", memory_id, space_id: "platform" })).toMatchObject({
        success: true,
      });
      expect(await failure(c.getMemory({ user_id: "ana", memory_id, space_id: "platform" }))).toEqual({
        name: "AppError",
        code: "NOT_FOUND",
      });
    });

    test("promoteMemory copies the user's memory into a space with provenance; an unknown space is NOT_FOUND", async () => {
      await c.spaces.create({ space_id: "platform", name: "Platform", members: MEMBERS });
      const own = (await c.addMemories({ user_id: "ana", agent_id: "cursor", memory: "The API runs on port 8443" }))
        .memory_ids[0]!;
      const copy = await c.promoteMemory({ user_id: "ana", memory_id: own, space_id: "platform" });
      expect({
        memory: copy.memory,
        space_id: copy.space_id,
        promoted_from: copy.promoted_from,
        provenance: copy.metadata.provenance,
      }).toEqual({
        memory: "The API runs on port 8443",
        space_id: "platform",
        promoted_from: own,
        provenance: { user_id: "ana", agent_id: "cursor", memory_id: own },
      });
      expect(await failure(c.promoteMemory({ user_id: "ana", memory_id: own, space_id: "other" }))).toEqual({
        name: "AppError",
        code: "NOT_FOUND",
      });
    });

    test("supersedeMemory replaces a fact and memoryVersions shows the old text under the new memory", async () => {
      const old = (await c.addMemories({ user_id: "ana", memory: "I live in Berlin" })).memory_ids[0]!;
      const out = await c.supersedeMemory({ user_id: "ana", memory_id: old, memory: "I moved to Lisbon" });
      expect({ success: out.success, memory: out.memory, supersedes: out.supersedes }).toEqual({
        success: true,
        memory: "I moved to Lisbon",
        supersedes: [old],
      });
      const versions = await c.memoryVersions({ user_id: "ana", memory_id: out.id });
      expect(versions.versions.map((v) => [v.memory_id ?? "own", v.memory])).toEqual([
        ["own", "I moved to Lisbon"],
        [old, "I live in Berlin"],
      ]);
      expect(await failure(c.supersedeMemory({ user_id: "ana", memory_id: old, memory: "again" }))).toEqual({
        name: "AppError",
        code: "CONFLICT",
      });
    });

    test.each([
      ["spaces.get('')", (c: EngramClient) => c.spaces.get(""), "id"],
      ["spaces.delete('a/b')", (c: EngramClient) => c.spaces.delete("a/b"), "id"],
      ["spaces.setMembers('..')", (c: EngramClient) => c.spaces.setMembers("..", { members: [] }), "id"],
      [
        "memoryVersions with memory_id ''",
        (c: EngramClient) => c.memoryVersions({ user_id: "a", memory_id: "" }),
        "memory_id",
      ],
      [
        "supersedeMemory without memory",
        (c: EngramClient) => c.supersedeMemory({ user_id: "a", memory_id: "m" } as never),
        "memory",
      ],
      [
        "promoteMemory without space_id",
        (c: EngramClient) => c.promoteMemory({ user_id: "a", memory_id: "m" } as never),
        "space_id",
      ],
      [
        "spaces.create with an unknown role",
        (c: EngramClient) =>
          c.spaces.create({ space_id: "s", name: "S", members: [{ user_id: "a", role: "owner" as never }] }),
        "members[0].role",
      ],
    ] as const)("%s throws VALIDATION_ERROR on its field", async (_label, call, field) => {
      expect(await failure(call(c))).toEqual({ name: "AppError", code: "VALIDATION_ERROR", field });
    });
  });
}
