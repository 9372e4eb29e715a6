// Usage: bun scripts/wal-bytes.ts [--adds=50] [--warmup=200] [--concurrency=1] [--embedding-model=none]
// What one small add_memories writes to the WAL: a fresh file store, `warmup` memories to fill the first
// pages, then `adds` single adds, `concurrency` at a time (1: one after the other, so no group commit shares
// their pages). Each WAL frame is a whole page; this prints the bytes per add and which tables and indexes
// the pages belong to.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "~/config/load-config";
import { buildServices } from "~/main";
import { silentLogger } from "~/shared/logger";
import { userScopeOf } from "~/shared/principal";
import type { SqliteStore } from "~/store/sqlite/sqlite-store";

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? def;
const ADDS = Number(arg("adds", "50"));
const WARMUP = Number(arg("warmup", "200"));
const MODEL = arg("embedding-model", "");
const CONCURRENCY = Number(arg("concurrency", "1"));

const dir = mkdtempSync(join(tmpdir(), "engram-wal-bytes-"));
try {
  const path = join(dir, "store.db");
  const config = loadConfig({
    options: { storeUrl: path, searchWorkers: 0, ...(MODEL ? { embedding: { model: MODEL } } : {}) },
    env: process.env,
  });
  const engine = await buildServices(config, { logger: silentLogger() });
  const add = (i: number) =>
    engine.memory.add(userScopeOf(config.orgId, `user-${i % 3}`), {
      memory: `Note ${i}: I prefer green tea with lemon in the morning`,
    });
  for (let i = 0; i < WARMUP; i++) await add(i);
  const { db } = engine.store as SqliteStore;
  // The measured adds must not be checkpointed away: no automatic checkpoint, start from an empty WAL.
  db.run("PRAGMA wal_autocheckpoint = 0");
  db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  const wal = `${path}-wal`;
  const pageSize = db.query<{ page_size: number }, []>("PRAGMA page_size").get()!.page_size;
  for (let i = 0; i < ADDS; i += CONCURRENCY)
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ADDS - i) }, (_, j) => add(WARMUP + i + j)));
  const bytes = statSync(wal).size;
  const owners = pageOwners(db, pageSize, readFileSync(wal));
  console.log(
    `${ADDS} adds wrote ${bytes} WAL bytes: ${Math.round(bytes / ADDS)} bytes (${(bytes / ADDS / (pageSize + 24)).toFixed(1)} pages of ${pageSize}) per add`,
  );
  for (const [name, n] of [...owners].sort((a, b) => b[1] - a[1]))
    console.log(`  ${name.padEnd(48)} ${(n / ADDS).toFixed(2)} pages/add`);
  await engine.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** WAL frames (24-byte header: page number first) → the table or index each page belongs to (dbstat). */
function pageOwners(
  db: import("~/store/sqlite/connection").Db,
  pageSize: number,
  walBytes: Buffer,
): Map<string, number> {
  const byPage = new Map<number, string>();
  for (const r of db.query<{ name: string; pageno: number }, []>("SELECT name, pageno FROM dbstat").all())
    byPage.set(r.pageno, r.name);
  const out = new Map<string, number>();
  for (let at = 32; at + 24 + pageSize <= walBytes.length; at += 24 + pageSize) {
    const page = walBytes.readUInt32BE(at);
    const name = byPage.get(page) ?? (page === 1 ? "(header page)" : "(free list)");
    out.set(name, (out.get(name) ?? 0) + 1);
  }
  return out;
}
