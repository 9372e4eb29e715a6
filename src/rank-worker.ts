// The entry of a search worker thread (search/rank-pool.ts), a composition root like main.ts: its own
// read-only connection to the store, ranking one request at a time with the same Ranker the server
// thread uses. Messages: {open} once, then {id, req}.
import { existsSync } from "node:fs";
import { openDb, PAGE_CACHE_MB } from "./store/sqlite";
import { AppError } from "./shared/errors";
import { Ranker, type RankRequest } from "./search/ranker";

declare const self: Worker;

let ranker: Ranker | null = null;

self.onmessage = async (event: MessageEvent) => {
  const msg = event.data as { open: { path: string; nativeCacheDir: string } } | { id: number; req: RankRequest };
  if ("open" in msg) {
    try {
      // The server created and migrated the store; a worker never makes one.
      if (!existsSync(msg.open.path)) throw new Error(`no store at ${msg.open.path}`);
      const db = await openDb(msg.open.path, {
        nativeCacheDir: msg.open.nativeCacheDir,
        cacheMb: PAGE_CACHE_MB.shared,
      });
      // Belt and braces: ranking never writes, and this connection never could.
      db.run("PRAGMA query_only = ON");
      ranker = new Ranker(db);
      self.postMessage({ opened: true });
    } catch (e) {
      self.postMessage({ opened: false, error: (e as Error).message });
    }
    return;
  }
  try {
    self.postMessage({ id: msg.id, hits: ranker!.rank(msg.req) });
  } catch (e) {
    const err =
      e instanceof AppError ? { code: e.code, message: e.message, field: e.field } : { message: (e as Error).message };
    self.postMessage({ id: msg.id, error: err });
  }
};
