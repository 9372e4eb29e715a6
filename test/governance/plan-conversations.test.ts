import { describe, expect, test } from "bun:test";
import { DAY_MS, YEAR_MS } from "~/governance/durations";
import { planConversationBatch, type ConversationSummary } from "~/governance/plan";
import { NOW, ago, rulesFrom } from "./support";

const conv = (id: string, createdAgo: number, extra: Partial<ConversationSummary> = {}): ConversationSummary => ({
  id,
  createdAt: ago(createdAgo),
  lastMessageAt: ago(Math.min(createdAgo, DAY_MS)),
  bytes: 100,
  ...extra,
});

// GDPR: deleteAfter 7y, archiveAfter 1y, autoDelete with deleteInactiveAfter 2y.
const gdpr = { policy: rulesFrom("GDPR"), now: NOW };

describe("planConversationBatch: retention", () => {
  test("a conversation reaching archiveAfter exactly is archived; one a day younger is not", () => {
    const plan = planConversationBatch(gdpr, [conv("a", YEAR_MS), conv("b", YEAR_MS - DAY_MS)]);
    expect(plan).toEqual({
      archive: [{ id: "a", bytes: 100, reason: "retention.archiveAfter", dueAt: NOW }],
      delete: [],
      held: 0,
    });
  });

  test("an already archived conversation is not archived again", () => {
    expect(planConversationBatch(gdpr, [conv("a", 3 * YEAR_MS, { archivedAt: ago(YEAR_MS) })]).archive).toEqual([]);
  });

  test("a conversation older than deleteAfter is deleted even with recent messages, and not also archived", () => {
    const plan = planConversationBatch(gdpr, [conv("old", 7 * YEAR_MS + DAY_MS, { lastMessageAt: ago(DAY_MS) })]);
    expect(plan).toEqual({
      archive: [],
      delete: [{ id: "old", bytes: 100, reason: "retention.deleteAfter", dueAt: ago(DAY_MS) }],
      held: 0,
    });
  });

  test("with only the purging rule, nothing is archived or deleted for age", () => {
    const plan = planConversationBatch({ ...gdpr, rules: ["purging"] }, [
      conv("old", 8 * YEAR_MS, { lastMessageAt: ago(DAY_MS) }),
    ]);
    expect(plan).toEqual({ archive: [], delete: [], held: 0 });
  });
});

describe("planConversationBatch: purging", () => {
  test("a conversation without a message for deleteInactiveAfter is deleted when autoDelete", () => {
    const c = conv("quiet", 3 * YEAR_MS, { lastMessageAt: ago(2 * YEAR_MS + DAY_MS) });
    expect(planConversationBatch(gdpr, [c]).delete).toEqual([
      { id: "quiet", bytes: 100, reason: "purging.deleteInactiveAfter", dueAt: ago(DAY_MS) },
    ]);
  });

  test("a conversation without lastMessageAt is measured from its creation", () => {
    const c = conv("empty", 2 * YEAR_MS, { lastMessageAt: null });
    expect(planConversationBatch(gdpr, [c]).delete.map((d) => d.reason)).toEqual(["purging.deleteInactiveAfter"]);
  });

  test("without autoDelete an inactive conversation is only archived", () => {
    const policy = rulesFrom("GDPR", ["conversations.purging.autoDelete", false]);
    const plan = planConversationBatch({ policy, now: NOW }, [
      conv("quiet", 3 * YEAR_MS, { lastMessageAt: ago(3 * YEAR_MS) }),
    ]);
    expect(plan.delete).toEqual([]);
    expect(plan.archive.map((a) => a.id)).toEqual(["quiet"]);
  });

  test("with only the retention rule, inactivity deletes nothing", () => {
    const c = conv("quiet", 3 * YEAR_MS, { lastMessageAt: ago(3 * YEAR_MS) });
    expect(planConversationBatch({ ...gdpr, rules: ["retention"] }, [c]).delete).toEqual([]);
  });

  test("when both rules apply, the earliest-due one is reported", () => {
    const c = conv("both", 8 * YEAR_MS, { lastMessageAt: ago(6 * YEAR_MS) });
    expect(planConversationBatch(gdpr, [c]).delete).toEqual([
      { id: "both", bytes: 100, reason: "purging.deleteInactiveAfter", dueAt: ago(4 * YEAR_MS) },
    ]);
  });
});

describe("planConversationBatch: minimum retention", () => {
  test("HIPAA keeps a conversation past deleteAfter whose newest message is younger than 6 years", () => {
    const policy = rulesFrom("HIPAA");
    const young = conv("young", 6 * YEAR_MS + DAY_MS, { lastMessageAt: ago(YEAR_MS) });
    const old = conv("old", 6 * YEAR_MS + DAY_MS, { lastMessageAt: ago(6 * YEAR_MS) });
    const plan = planConversationBatch({ policy, now: NOW }, [young, old]);
    expect(plan.delete.map((d) => d.id)).toEqual(["old"]);
    expect(plan.held).toBe(1);
  });

  test("FINRA blocks a shorter deleteAfter but still archives", () => {
    const policy = rulesFrom(
      "FINRA",
      ["conversations.retention.deleteAfter", "1y"],
      ["conversations.retention.archiveAfter", "1y"],
    );
    const plan = planConversationBatch({ policy, now: NOW }, [
      conv("c", 2 * YEAR_MS, { lastMessageAt: ago(2 * YEAR_MS) }),
    ]);
    expect(plan.delete).toEqual([]);
    expect(plan.held).toBe(1);
    expect(plan.archive.map((a) => a.id)).toEqual(["c"]);
  });

  test("GDPR has no minimum retention: the same shorter deleteAfter deletes", () => {
    const policy = rulesFrom("GDPR", ["conversations.retention.deleteAfter", "1y"]);
    const plan = planConversationBatch({ policy, now: NOW }, [
      conv("c", 2 * YEAR_MS, { lastMessageAt: ago(2 * YEAR_MS) }),
    ]);
    expect(plan.delete.map((d) => d.id)).toEqual(["c"]);
    expect(plan.held).toBe(0);
  });
});
