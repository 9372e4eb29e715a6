// The one periodic commit of the request path's bookkeeping (the audit log's rows, rate-limit counts, keys'
// last use): each kind buffers its writes and registers here; every FLUSH_MS (or when a buffer asks) all of
// them are written in one transaction. Few commits matter: each makes every other connection to a SQLite
// store — the search workers' — drop its page cache and memory map at its next read.
import { EVERY_ROW, type StoreScope } from "./store-scope";

/** How often buffered writes are committed, at the latest, once something is buffered. */
export const FLUSH_MS = 250;

/** What one kind of buffered write owes, taken out of its buffer: its part of the shared transaction. */
export interface DeferredBatch<Tx> {
  /** Writes the batch; may run again if the store retries the transaction. */
  write(tx: Tx): Promise<void>;
  /** After the commit. */
  committed?(): void;
  /** The transaction failed: nothing of the batch was written. */
  failed(error: unknown): void;
}

/** A kind of buffered write: `take` empties its buffer into a batch (null: nothing owed). */
export type DeferredSource<Tx> = () => DeferredBatch<Tx> | null | Promise<DeferredBatch<Tx> | null>;

/** The store as this needs it: a grouped write of system-wide work (Store.group). */
interface GroupedWrites<Tx> {
  group<T>(fn: (tx: Tx) => Promise<T>, scope: StoreScope): Promise<T>;
}

export class DeferredWrites<Tx> {
  private readonly sources: DeferredSource<Tx>[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** The last flush asked for (flushes run one after another, so batches commit in the order they were taken). */
  private last: Promise<void> = Promise.resolve();
  /** A flush asked for that has not started yet: it will take everything buffered meanwhile too. */
  private queued: Promise<void> | null = null;

  constructor(private readonly store: GroupedWrites<Tx>) {}

  /** Registers a kind of buffered write; every flush takes its batch. */
  add(take: DeferredSource<Tx>): void {
    this.sources.push(take);
  }

  /** Something was buffered: it is committed within FLUSH_MS. */
  soon(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, FLUSH_MS);
    this.timer.unref?.();
  }

  /**
   * Commits everything buffered before this call, every kind in one transaction; resolves once that has
   * committed or failed (a failure is told to each batch, never thrown here).
   */
  flush(): Promise<void> {
    if (this.queued) return this.queued;
    const run = this.last.then(() => {
      this.queued = null;
      return this.commit();
    });
    this.queued = this.last = run;
    return run;
  }

  /** Stops the timer and commits what is buffered (the server stopping). */
  close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    return this.flush();
  }

  private async commit(): Promise<void> {
    // A source reports its own failures (take does not throw); one that did anyway skips this commit alone.
    const taken = await Promise.all(
      this.sources.map((take) =>
        Promise.resolve()
          .then(take)
          .catch(() => null),
      ),
    );
    const batches = taken.filter((b) => b !== null);
    if (batches.length === 0) return;
    try {
      await this.store.group(async (tx) => {
        for (const b of batches) await b.write(tx);
      }, EVERY_ROW);
    } catch (error) {
      for (const b of batches) b.failed(error);
      return;
    }
    for (const b of batches) b.committed?.();
  }
}
