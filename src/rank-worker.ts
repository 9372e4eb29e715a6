// The entry of a search worker thread (search/rank-pool.ts), a composition root like main.ts: its own
// read-only store, ranking one request at a time with the same Ranker the server thread uses.
// Messages: {open} once, then {id, req}.
import { CHECKPOINT_MS, openSqliteStore, PAGE_CACHE_MB, type SqliteStoreOptions } from "./store/sqlite/sqlite-store";
import { AppError } from "./shared/errors";
import { silentLogger } from "./shared/logger";
import { Ranker, type RankRequest } from "./search/ranker";

declare const self: Worker;

let ranker: Ranker | null = null;

self.onmessage = async (event: MessageEvent) => {
  const msg = event.data as
    | { open: Pick<SqliteStoreOptions, "path" | "nativeCacheDir" | "vectorIndex" | "sqliteLib"> }
    | { id: number; req: RankRequest };
  if ("open" in msg) {
    try {
      const store = await openSqliteStore({
        ...msg.open,
        cacheMb: PAGE_CACHE_MB.shared,
        readOnly: true,
        logger: silentLogger(),
      });
      ranker = new Ranker(store);
      // The server leaves the WAL's checkpoints to its workers (SqliteStore.leaveCheckpointsToWorkers). A
      // checkpoint that fails (the store closing) is tried again at the next tick.
      setInterval(() => store.checkpoint().catch(() => {}), CHECKPOINT_MS);
      self.postMessage({ opened: true });
    } catch (e) {
      self.postMessage({ opened: false, error: (e as Error).message });
    }
    return;
  }
  try {
    self.postMessage({ id: msg.id, hits: await ranker!.rank(msg.req) });
  } catch (e) {
    const err =
      e instanceof AppError ? { code: e.code, message: e.message, field: e.field } : { message: (e as Error).message };
    self.postMessage({ id: msg.id, error: err });
  }
};
