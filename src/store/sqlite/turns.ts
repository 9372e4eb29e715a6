// One body at a time on a connection. A body awaits between its statements (repositories return
// Promises), and the other chains of work run in those gaps: were they to use the same connection,
// they would read the open transaction's uncommitted rows, or write into it. So every read, write,
// group commit and erasure batch takes a turn, first come first served.

export class Turns {
  private busy = false;
  private readonly waiting: (() => void)[] = [];

  async run<T>(fn: () => Promise<T> | T): Promise<T> {
    if (this.busy) await new Promise<void>((go) => this.waiting.push(go));
    else this.busy = true;
    try {
      return await fn();
    } finally {
      // Handed straight to the next in line (busy stays true), so no later caller slips in between.
      const next = this.waiting.shift();
      if (next) next();
      else this.busy = false;
    }
  }
}
