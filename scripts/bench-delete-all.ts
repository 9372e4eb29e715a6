// What delete_all of one user's 10k memories costs, round by round, in process (the bench's last step without
// HTTP and the model): a store of N memories for N/1000 users is loaded through the app, then each round adds
// 10k memories to one more user (100 per request, as scripts/bench.ts) and deletes them all. Prints each round's
// wall and CPU ms, then the same with each of the memories table's delete triggers dropped, each of its own
// indexes dropped (not the primary key's or the id's), all of them at once (what is left is the DELETE itself
// and the app around it), and with SQLite's secure_delete FAST instead of ON (a copy of the loaded store each
// time): where a round's time goes. Keyword search only (no model).
// Usage: bun scripts/bench-delete-all.ts [--memories=20000] [--rounds=3] [--victim=10000]
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "~/config/load-config";
import { buildServices } from "~/main";
import { createApp } from "~/app";
import { silentLogger } from "~/shared/logger";
import type { SqliteStore } from "~/store/sqlite/sqlite-store";
import { loadVocabulary, makeText, mulberry32 } from "./bench-data";

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? def;
const N = Number(arg("memories", "20000"));
const ROUNDS = Number(arg("rounds", "3"));
const VICTIM = Number(arg("victim", "10000"));
const dir = mkdtempSync(join(tmpdir(), "engram-delete-all-"));
const vocabulary = await loadVocabulary();

async function open(file: string) {
  const config = loadConfig({ options: { storeUrl: file } as never, env: { HOME: process.env.HOME } });
  const services = await buildServices(config, { logger: silentLogger(), embedder: null });
  const app = createApp(services);
  const post = async (path: string, body: unknown) => {
    const res = await app.handle(
      new Request(`http://127.0.0.1${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const close = async () => {
    await app.close();
    await services.close();
  };
  return { services, post, close };
}

/** Adds `n` memories to `user`, 100 a request. */
async function fill(post: (p: string, b: unknown) => Promise<unknown>, user: string, n: number, seed: number) {
  const rnd = mulberry32(seed);
  for (let i = 0; i < n; i += 100)
    await post("/add_memories", {
      user_id: user,
      messages: Array.from({ length: Math.min(100, n - i) }, () => ({
        role: "user",
        content: makeText(vocabulary, rnd),
      })),
    });
}

/** Rounds of fill-then-delete on a copy of the loaded store, after `change` (SQL statements) if any. */
async function rounds(loaded: string, change: string | null): Promise<string> {
  const file = join(dir, `copy-${Math.random().toString(36).slice(2)}.db`);
  copyFileSync(loaded, file);
  const s = await open(file);
  if (change) (s.services.store as SqliteStore).db.exec(change);
  const out: string[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    await fill(s.post, "victim", VICTIM, 100 + r);
    const [t, c] = [performance.now(), process.cpuUsage()];
    const res = await s.post("/delete_all_memories", { user_id: "victim" });
    const cpu = process.cpuUsage(c);
    if (res.deleted_count !== VICTIM) throw new Error(`deleted ${res.deleted_count}, expected ${VICTIM}`);
    out.push(`${(performance.now() - t).toFixed(0)} ms (${((cpu.user + cpu.system) / 1000).toFixed(0)} CPU)`);
  }
  await s.close();
  return out.join(" · ");
}

try {
  const loaded = join(dir, "loaded.db");
  const s = await open(loaded);
  for (let u = 0; u < Math.max(1, N / 1000); u++) await fill(s.post, `user-${u}`, Math.min(1000, N), 7 + u);
  await s.close();
  const t = await open(loaded);
  // The delete triggers, then the indexes a DELETE keeps up (an autoindex, which has no sql, is a constraint's).
  const parts = (t.services.store as SqliteStore).db
    .query<{ type: "trigger" | "index"; name: string }, []>(
      `SELECT type, name FROM sqlite_master WHERE tbl_name = 'memories' AND (
         (type = 'trigger' AND sql LIKE '%AFTER DELETE%') OR (type = 'index' AND sql IS NOT NULL)
       ) ORDER BY type DESC, name`,
    )
    .all();
  await t.close();
  console.log(`\n${N} memories, then ${ROUNDS} rounds of ${VICTIM} added to one user and deleted (delete_all)\n`);
  console.log("| the store | each round: wall ms (CPU ms) |\n|---|---|");
  console.log(`| as it is | ${await rounds(loaded, null)} |`);
  const drop = (p: (typeof parts)[number]) => `DROP ${p.type.toUpperCase()} ${p.name};`;
  for (const p of parts) console.log(`| without the ${p.type} ${p.name} | ${await rounds(loaded, drop(p))} |`);
  console.log(`| without all of these | ${await rounds(loaded, parts.map(drop).join(" "))} |`);
  console.log(`| with secure_delete FAST | ${await rounds(loaded, "PRAGMA secure_delete = FAST")} |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
