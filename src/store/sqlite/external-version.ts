// Store.externalVersion on SQLite: the connection's data_version, which changes when another connection
// commits to the file. Each ask starts a read transaction (8 µs in the server, three asks per add), so
// the answer is kept for the rest of the event loop's turn: another process's commit shows from the next
// turn on (a request sent after it is read in a later turn), another store's of this thread at once.

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

  get(): number {
    const others = threadCommits - this.own;
    if (this.value === undefined || others !== this.others) {
      this.value = this.read();
      this.others = others;
      if (!this.forgetting) {
        this.forgetting = true;
        setImmediate(() => {
          this.value = undefined;
          this.forgetting = false;
        });
      }
    }
    return this.value;
  }
}
