// Search workers: ranking runs inside this process (SQLite is embedded: FTS5, sqlite-vec) and takes most of a search's CPU, so
// a server with spare cores runs it on worker threads, each over its own read-only connection (WAL lets
// readers run beside the writer, and every read sees what was committed before it was asked). The
// server thread keeps HTTP, validation, embedding, writes and the result cache.
import { AppError, type AppErrorCode } from "~/shared/errors";
import type { Logger } from "~/shared/logger";
import type { RankRequest, SearchHit } from "./ranker";

interface Pending {
  req: RankRequest;
  resolve: (ranked: SearchHit[]) => void;
  reject: (error: Error) => void;
  /** Sent again once already, after its first worker stopped. */
  resent?: boolean;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

type Reply =
  | { opened: boolean; error?: string }
  | { id: number; hits: SearchHit[] }
  | { id: number; error: { code?: AppErrorCode; message: string; field?: string } };

export interface RankPoolOptions {
  size: number;
  /** The worker entry (src/rank-worker.ts), given by the composition root. */
  workerUrl: string;
  /** The store file (not ":memory:": a worker cannot see another connection's memory database). */
  path: string;
  nativeCacheDir: string;
  /** As the server's connection was opened: the workers use the same SQLite library and vector index. */
  vectorIndex?: "auto" | "sqlite-vec" | "portable";
  sqliteLib?: string;
  logger: Logger;
}

export class RankPool {
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private closed = false;
  /** Callers of nextReplacement(), resolved when a replacement worker has opened. */
  private replacementWaiters: (() => void)[] = [];

  private constructor(private readonly options: RankPoolOptions) {}

  /** Starts `size` workers; resolves once every one has its connection open. */
  static async open(options: RankPoolOptions): Promise<RankPool> {
    const pool = new RankPool(options);
    try {
      await Promise.all(Array.from({ length: options.size }, () => pool.spawn()));
    } catch (e) {
      await pool.close();
      throw e;
    }
    return pool;
  }

  /** Workers running now (0 after close, or while every one is being replaced). */
  get size(): number {
    return this.slots.length;
  }

  /** Ranks on the worker with the fewest requests in flight. */
  rank(req: RankRequest): Promise<SearchHit[]> {
    if (this.closed) return Promise.reject(new AppError("UNAVAILABLE", "the server is shutting down"));
    if (!this.slots.length) return Promise.reject(new AppError("UNAVAILABLE", "no search worker is running; retry"));
    return new Promise((resolve, reject) => this.send({ req, resolve, reject }));
  }

  private send(p: Pending): void {
    const slot = this.slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.nextId++;
    slot.pending.set(id, p);
    slot.worker.postMessage({ id, req: p.req });
  }

  /** Resolves once the next stopped worker has been replaced and its connection is open. */
  nextReplacement(): Promise<void> {
    return new Promise((resolve) => this.replacementWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const slot of this.slots.splice(0)) {
      this.fail(slot, new AppError("UNAVAILABLE", "the server is shutting down"));
      slot.worker.terminate();
    }
  }

  private spawn(): Promise<void> {
    const worker = new Worker(this.options.workerUrl, { smol: true });
    // smol: JavaScriptCore's small heap; ranking keeps little JS state. The server (or the command)
    // decides when the process ends, not an idle worker.
    worker.unref();
    const slot: Slot = { worker, pending: new Map() };
    return new Promise((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<Reply>) => {
        const msg = event.data;
        if ("opened" in msg) {
          if (!msg.opened || this.closed) worker.terminate();
          if (!msg.opened) return reject(new Error(`search worker could not open the store: ${msg.error}`));
          if (!this.closed) this.slots.push(slot);
          return resolve();
        }
        const p = slot.pending.get(msg.id);
        if (!p) return;
        slot.pending.delete(msg.id);
        if ("hits" in msg) p.resolve(msg.hits);
        else
          p.reject(
            msg.error.code
              ? new AppError(msg.error.code, msg.error.message, msg.error.field)
              : new Error(msg.error.message),
          );
      };
      // A worker that dies or exits hands its requests to another (or fails them: 503, not a hang) and is replaced; meanwhile,
      // and if no worker is left, SearchService ranks on the server thread.
      const lost = (reason: string) => {
        reject(new Error(`search worker failed to start: ${reason}`));
        const at = this.slots.indexOf(slot);
        if (this.closed || at < 0) return;
        this.options.logger.error("search worker stopped; starting another", { error: reason });
        this.slots.splice(at, 1);
        this.resend(slot);
        worker.terminate();
        this.spawn().then(
          () => {
            for (const resolve of this.replacementWaiters.splice(0)) resolve();
          },
          (e: Error) => this.options.logger.error("could not replace a search worker", { error: e.message }),
        );
      };
      worker.onerror = (event: ErrorEvent) => lost(event.message);
      worker.addEventListener("close", () => lost("the worker exited"));
      const { path, nativeCacheDir, vectorIndex, sqliteLib } = this.options;
      worker.postMessage({ open: { path, nativeCacheDir, vectorIndex, sqliteLib } });
    });
  }

  /**
   * The searches a stopped worker still owed go to another worker, once (ranking only reads, so asking
   * again is safe); with none left, or a second time, they fail with 503.
   */
  private resend(slot: Slot): void {
    const owed = [...slot.pending.values()];
    slot.pending.clear();
    for (const p of owed) {
      if (this.slots.length && !p.resent) this.send({ ...p, resent: true });
      else p.reject(new AppError("UNAVAILABLE", "a search worker stopped; retry"));
    }
  }

  private fail(slot: Slot, error: Error): void {
    for (const p of slot.pending.values()) p.reject(error);
    slot.pending.clear();
  }
}
