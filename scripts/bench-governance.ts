// Usage: bun scripts/bench-governance.ts [memories=100000] [versions=5]
// Seeds a temporary SQLite file through the stores in batch transactions (memories × versions,
// plus conversations, immutable records and mutable keys), then, in a fresh child process so
// its peak RSS is enforcement's own, times simulate and enforce for the org and reports VmHWM.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "~/config/load-config";
import { buildServices, type Engine } from "~/main";
import { FakeClock } from "~/shared/clock";
import { silentLogger } from "~/shared/logger";
import type { MemoryRow } from "~/store/store";
import { EVERY_ROW } from "~/shared/store-scope";
import type { SqliteStore } from "~/store/sqlite/sqlite-store";
import { getTemplate } from "~/governance/templates";
import { DAY_MS, HOUR_MS, YEAR_MS } from "~/governance/durations";
import { loadVocabulary, makeText, mulberry32 } from "./bench-data";

const VOCAB = await loadVocabulary();

const NOW = Date.UTC(2026, 5, 1);
const BATCH = 2_000;
const SPACES = 10;
const CONVERSATIONS = 5_000;
const IMMUTABLE = 1_000;
const IMMUTABLE_VERSIONS = 30;
const MUTABLE = 5_000;
const SOURCES = ["conversation", "a2a", "system", "tool"] as const;

const open = (path: string) =>
  buildServices(loadConfig({ options: { storeUrl: `sqlite://${path}`, embedding: { provider: "none" } } }), {
    clock: new FakeClock(NOW),
    logger: silentLogger(),
    embedder: null,
  });

function peakRssMB(): number {
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
  return hwm ? Number(hwm) / 1024 : process.memoryUsage().rss / 1_048_576;
}

const rowCounts = (e: Engine) =>
  Object.fromEntries(
    ["memories", "memory_versions", "conversations", "immutable_records", "immutable_versions", "mutable_entries"].map(
      (t) => [t, (e.store as SqliteStore).db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${t}`).get()!.n],
    ),
  );

async function seedMemories(e: Engine, memories: number, versions: number, rand: () => number): Promise<void> {
  for (let start = 0; start < memories; start += BATCH) {
    await e.store.write(async ({ memories: repo }) => {
      for (let i = start; i < Math.min(memories, start + BATCH); i++) {
        const createdAt = NOW - Math.floor(rand() * 3 * YEAR_MS);
        const importance = Math.floor(rand() * 101);
        const r = rand();
        const conversationRef = r < 0.05 ? `gone-${i}` : r < 0.2 ? `c${Math.floor(rand() * CONVERSATIONS)}` : null;
        const immutableRef = r > 0.95 ? `kb/${Math.floor(rand() * IMMUTABLE)}` : null;
        const row = {
          id: `m${i}`,
          org_id: "default",
          user_id: `u${i % 500}`,
          agent_id: `space-${i % SPACES}`,
          session_id: "",
          memory: makeText(VOCAB, rand),
          metadata: JSON.stringify({ importance }),
          importance,
          source_type: SOURCES[i % 4]!,
          expires_at: null,
          conversation_ref: conversationRef,
          immutable_ref: immutableRef,
          created_at: createdAt,
          version: 1,
          updated_at: createdAt,
          retain_until: null,
          text_key: null,
          has_facts: 0,
        };
        const rowid = await repo.insert(row);
        for (let v = 2; v <= versions; v++) {
          const at = createdAt + (v - 1) * HOUR_MS;
          await repo.update({ ...row, rowid } as MemoryRow, { ...row, memory: makeText(VOCAB, rand) }, at);
          Object.assign(row, { version: v, updated_at: at });
        }
      }
    }, EVERY_ROW);
  }
}

async function seedLayers(e: Engine, rand: () => number): Promise<void> {
  await e.store.write(async ({ conversations: conv, immutable: imm, mutable: mut }) => {
    for (let i = 0; i < CONVERSATIONS; i++) {
      const now = NOW - Math.floor(rand() * 8 * YEAR_MS);
      const conversation = {
        id: `c${i}`,
        org: "default",
        userId: `u${i % 500}`,
        spaceId: `space-${i % SPACES}`,
        sessionId: null,
      };
      await conv.create({ ...conversation, now, retainUntil: null });
      await conv.append(
        `c${i}`,
        [
          { role: "user", content: makeText(VOCAB, rand) },
          { role: "assistant", content: makeText(VOCAB, rand) },
        ],
        now,
        null,
      );
    }
    for (let i = 0; i < IMMUTABLE; i++)
      for (let v = 0; v < IMMUTABLE_VERSIONS; v++)
        await imm.put({
          orgId: "default",
          type: "kb",
          id: String(i),
          userId: null,
          data: JSON.stringify(makeText(VOCAB, rand)),
          metadata: "{}",
          now: NOW - (IMMUTABLE_VERSIONS - v) * DAY_MS,
          retainUntil: null,
        });
    for (let i = 0; i < MUTABLE; i++) {
      const now = NOW - Math.floor(rand() * 3 * YEAR_MS);
      await mut.put({
        orgId: "default",
        namespace: "prefs",
        key: `k${i}`,
        userId: null,
        value: JSON.stringify(i),
        expiresAt: i % 2 ? now + DAY_MS : null,
        now,
        retainUntil: null,
      });
    }
  }, EVERY_ROW);
}

async function seed(path: string, memories: number, versions: number): Promise<void> {
  const e = await open(path);
  const rand = mulberry32(42);
  const t0 = performance.now();
  await seedMemories(e, memories, versions, rand);
  await seedLayers(e, rand);
  const policy = getTemplate("GDPR");
  policy.vector.purging.deleteOrphaned = true;
  await e.governance.setPolicy({ organizationId: "default", ...policy }, "default");
  console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s:`, JSON.stringify(rowCounts(e)));
  await e.close();
}

/** Child process: open the seeded file, time simulate then enforce, report peak RSS. */
async function enforce(path: string): Promise<void> {
  const e = await open(path);
  const rssOpen = peakRssMB();
  let t = performance.now();
  const impact = await e.governance.simulate({}, "default");
  const simulateMs = performance.now() - t;
  t = performance.now();
  const result = await e.governance.enforce({ scope: { organizationId: "default" } }, "default");
  const enforceMs = performance.now() - t;
  console.log(
    JSON.stringify(
      {
        simulateMs: Math.round(simulateMs),
        enforceMs: Math.round(enforceMs),
        rssAfterOpenMB: Math.round(rssOpen),
        peakRssMB: Math.round(peakRssMB()),
        impact,
        result,
        after: rowCounts(e),
      },
      null,
      2,
    ),
  );
  await e.close();
}

async function main(): Promise<void> {
  if (process.argv[2] === "--enforce") return enforce(process.argv[3]!);
  const [memories = 100_000, versions = 5] = process.argv.slice(2).map(Number);
  const dir = mkdtempSync(join(tmpdir(), "engram-bench-gov-"));
  const path = join(dir, "bench.db");
  try {
    await seed(path, memories, versions);
    const child = Bun.spawn(["bun", import.meta.path, "--enforce", path], { stdout: "inherit", stderr: "inherit" });
    if ((await child.exited) !== 0) throw new Error("the enforcement process failed");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
