// Who copies the WAL back into the store file: the server's own commits (SQLite's automatic checkpoint), or,
// once the server runs search workers, those workers' connections (SqliteStore.checkpoint), so the server
// thread's commits (the audit log's flush, every add) no longer stop to copy pages and wait for the disk.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "~/shared/logger";
import { WAL_KEPT_BYTES } from "~/store/sqlite/connection";
import { openSqliteStore, type SqliteStore } from "~/store/sqlite/sqlite-store";
import { HOME_ORG, NATIVE_CACHE } from "../../support/store";

const dir = mkdtempSync(join(tmpdir(), "engram-wal-checkpoints-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const open = (name: string, readOnly = false) =>
  openSqliteStore({
    path: join(dir, name),
    nativeCacheDir: NATIVE_CACHE,
    homeOrg: HOME_ORG,
    logger: silentLogger(),
    readOnly,
    keywordUpkeep: false,
  });

const AUDIT_ROW = {
  at: 0,
  organization_id: HOME_ORG,
  memory_space_id: null,
  user_id: "user-0",
  method: "POST",
  path: `/search_memory?padding=${"x".repeat(120)}`,
  status: 200,
};

/** Ten commits of 2,000 audit rows each: well over SQLite's automatic checkpoint (1,000 pages) in all. */
async function writeMany(store: SqliteStore): Promise<void> {
  for (let c = 0; c < 10; c++) {
    const rows = Array.from({ length: 2000 }, (_, i) => ({
      ...AUDIT_ROW,
      at: c * 2000 + i,
      user_id: `user-${i % 97}`,
    }));
    await store.write((tx) => tx.governance.insertAudit(rows));
  }
}

/** The WAL's frames and how many of them are in the store file, as a plain connection's passive checkpoint leaves them. */
const walOf = (store: SqliteStore) =>
  store.db.query<{ log: number; checkpointed: number }, []>("PRAGMA wal_checkpoint(PASSIVE)").get()!;

test("a store copies its own commits back into the file once the WAL passes 1,000 pages", async () => {
  const server = await open("own.db");
  try {
    await writeMany(server);
    // The automatic checkpoint ran, and the next commit started the WAL over: what is left is under 1,000 pages.
    expect(walOf(server).log).toBeLessThan(1000);
  } finally {
    await server.close();
  }
});

test("a store that leaves checkpoints to its search workers commits without copying, and a worker's checkpoint copies every frame", async () => {
  const server = await open("workers.db");
  const worker = await open("workers.db", true);
  try {
    server.leaveCheckpointsToWorkers();
    await writeMany(server);
    const copied = await worker.checkpoint();
    expect(copied.frames).toBeGreaterThan(1000);
    expect(copied).toEqual({ frames: copied.frames, copied: copied.frames });
    // The next commit starts the WAL over, as the automatic checkpoint's would, and cuts its file back.
    await server.write((tx) => tx.governance.insertAudit([{ ...AUDIT_ROW, at: 1 }]));
    expect(statSync(join(dir, "workers.db-wal")).size).toBeLessThanOrEqual(WAL_KEPT_BYTES);
    await writeMany(server);
    expect((await worker.checkpoint()).frames).toBeLessThan(copied.frames * 2);
  } finally {
    await worker.close();
    await server.close();
  }
});

test("a store's memory database has no WAL: a checkpoint copies nothing", async () => {
  const store = await openSqliteStore({
    path: ":memory:",
    nativeCacheDir: NATIVE_CACHE,
    homeOrg: HOME_ORG,
    logger: silentLogger(),
    keywordUpkeep: false,
  });
  try {
    store.leaveCheckpointsToWorkers();
    expect(await store.checkpoint()).toEqual({ frames: 0, copied: 0 });
  } finally {
    await store.close();
  }
});
