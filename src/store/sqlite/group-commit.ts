// Group commit: write transactions that are ready in the same turn of the event loop share one SQLite
// transaction, each inside its own savepoint, so a failing one rolls back only its own writes and
// rejects only its own caller. Every caller is answered after the shared COMMIT, never before.
// Each commit writes the pages it dirtied to the WAL and flushes FTS5's pending terms as a new
// segment; concurrent writers share those costs instead of paying them once each. FTS5 also flushes
// at every savepoint, so the jobs' keyword-index entries are written after the last job (BatchTail),
// and then the batch does the merge work their one flush did not (keyword-upkeep.ts `batchIndexed`).
import { storeError, type Db } from "./connection";
import type { Turns } from "./turns";

interface Job {
  fn: () => Promise<unknown>;
  resolve: (value: any) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Writes a group-commit job asks for after every job of its batch, outside the savepoints, before the
 * COMMIT: dropped with the job when it rolls back. Outside a job they run at once.
 */
export class BatchTail {
  private job: (() => void)[] | null = null;
  private kept: (() => void)[] = [];

  constructor(
    /** Told, in the batch's transaction, after the kept writes ran: how many there were. */
    private readonly ran: (writes: number) => void = () => {},
  ) {}

  later(write: () => void): void {
    if (this.job) this.job.push(write);
    else write();
  }

  startJob(): void {
    this.job = [];
  }

  endJob(kept: boolean): void {
    if (kept) this.kept.push(...this.job!);
    this.job = null;
  }

  /** Runs the kept writes (or, with `run` false, forgets them: the batch failed). */
  finish(run: boolean): void {
    const writes = this.kept;
    [this.kept, this.job] = [[], null];
    if (!run) return;
    for (const write of writes) write();
    this.ran(writes.length);
  }
}

export class GroupCommit {
  private queue: Job[] = [];

  constructor(
    private readonly db: Db,
    private readonly turns: Turns,
    readonly tail = new BatchTail(),
    /** Told after each COMMIT. */
    private readonly committed: () => void = () => {},
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
      this.tail.startJob();
      try {
        const value = await job.fn();
        this.db.run("RELEASE job");
        this.tail.endJob(true);
        outcomes.push({ ok: true, value });
      } catch (error) {
        this.tail.endJob(false);
        // Some errors (disk full, I/O, a trigger's RAISE(ROLLBACK)) end the whole transaction: the jobs
        // before were rolled back with it, and a later "savepoint" would commit on its own. All fail.
        if (!this.db.inTransaction) return this.failAll(jobs, error);
        this.db.run("ROLLBACK TO job");
        this.db.run("RELEASE job");
        outcomes.push({ ok: false, error: storeError(error) });
      }
    }
    try {
      this.tail.finish(true);
      this.db.run("COMMIT");
    } catch (error) {
      if (this.db.inTransaction) this.db.run("ROLLBACK");
      return this.failAll(jobs, error);
    }
    this.committed();
    jobs.forEach((job, i) => {
      const o = outcomes[i]!;
      if (o.ok) job.resolve(o.value);
      else job.reject(o.error);
    });
  }

  private failAll(jobs: Job[], error: unknown): void {
    this.tail.finish(false);
    for (const job of jobs) job.reject(storeError(error));
  }
}
