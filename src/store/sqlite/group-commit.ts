// Group commit: write transactions that are ready in the same turn of the event loop share one SQLite
// transaction, each inside its own savepoint, so a failing one rolls back only its own writes and
// rejects only its own caller. Every caller is answered after the shared COMMIT, never before.
// Each commit writes the pages it dirtied to the WAL and flushes FTS5's pending terms as a new
// segment; concurrent writers share those costs instead of paying them once each.
import { storeError, type Db } from "./connection";
import type { Turns } from "./turns";

interface Job {
  fn: () => Promise<unknown>;
  resolve: (value: any) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export class GroupCommit {
  private queue: Job[] = [];

  constructor(
    private readonly db: Db,
    private readonly turns: Turns,
  ) {}

  /** Runs `fn` in the next shared transaction; resolves once that has committed. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.queue.push({ fn, resolve, reject }) === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const jobs = this.queue.splice(0);
    void this.turns.run(() => this.commit(jobs));
  }

  private async commit(jobs: Job[]): Promise<void> {
    try {
      this.db.run("BEGIN IMMEDIATE");
    } catch (error) {
      return this.failAll(jobs, error);
    }
    const outcomes: Outcome[] = [];
    for (const job of jobs) {
      this.db.run("SAVEPOINT job");
      try {
        const value = await job.fn();
        this.db.run("RELEASE job");
        outcomes.push({ ok: true, value });
      } catch (error) {
        // Some errors (disk full, I/O, a trigger's RAISE(ROLLBACK)) end the whole transaction: the jobs
        // before were rolled back with it, and a later "savepoint" would commit on its own. All fail.
        if (!this.db.inTransaction) return this.failAll(jobs, error);
        this.db.run("ROLLBACK TO job");
        this.db.run("RELEASE job");
        outcomes.push({ ok: false, error: storeError(error) });
      }
    }
    try {
      this.db.run("COMMIT");
    } catch (error) {
      if (this.db.inTransaction) this.db.run("ROLLBACK");
      return this.failAll(jobs, error);
    }
    jobs.forEach((job, i) => {
      const o = outcomes[i]!;
      if (o.ok) job.resolve(o.value);
      else job.reject(o.error);
    });
  }

  private failAll(jobs: Job[], error: unknown): void {
    for (const job of jobs) job.reject(storeError(error));
  }
}
