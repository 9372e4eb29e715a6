// Store.externalVersion on SQLite: the connection's data_version, which changes when another connection
// commits to the file. Each ask starts a read transaction (8 µs in the server, three asks per add), so
// the answer is kept for the rest of the event loop's turn: another process's commit shows from the next
// turn on (a request sent after it is read in a later turn), another store's of this thread at once. The
// turn's first store read usually reads it for free, in the transaction of its first statement (remember).

/** Commits through every SQLite store of this thread (tests open two on one file). */
let threadCommits = 0;

export class ExternalVersion {
  private value: number | undefined;
  /** threadCommits less this store's own when `value` was read. */
  private others = 0;
  private own = 0;
  private forgetting = false;

  constructor(private readonly read: () => number) {}

  /** After each commit through this store. */
  committed(): void {
    this.own++;
    threadCommits++;
  }

  /** Whether this turn's value is known: get() would answer it without a read. */
  known(): boolean {
    return this.value !== undefined && threadCommits - this.own === this.others;
  }

  get(): number {
    if (!this.known()) this.remember(this.read());
    return this.value!;
  }

  /**
   * Keeps `value`, just read by the store inside a read transaction it had open anyway, as this turn's:
   * the same answer get() would give, without a read transaction of its own.
   */
  remember(value: number): void {
    this.value = value;
    this.others = threadCommits - this.own;
    if (this.forgetting) return;
    this.forgetting = true;
    setImmediate(() => {
      this.value = undefined;
      this.forgetting = false;
    });
  }
}
