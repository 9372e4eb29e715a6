// Other nodes' changes, heard through LISTEN/NOTIFY on the store's channel (0002's triggers send
// "<node> m <user>" for a user's memories, "<node> p" for policies). A node skips its own. Notifications
// sent while the listening connection is down are lost, so a reconnect counts as "everything changed".
import type { Logger } from "~/shared/logger";
import type { Client } from "./connection";

export type Change = { kind: "memories"; user: string } | { kind: "policies" } | { kind: "all" };

type Subscription = Awaited<ReturnType<Client["listen"]>>;

export class ChangeFeed {
  /** Bumped by every change another node made, and by every reconnect. */
  version = 0;
  private readonly listeners = new Set<(c: Change) => void>();
  private subscription: Subscription | null = null;
  private subscribed = 0;

  constructor(
    private readonly pool: Client,
    private readonly schema: string,
    private readonly node: string,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    this.subscription = await this.pool.listen(
      `engram_${this.schema}`,
      (payload) => this.receive(payload),
      () => {
        // The first call is the subscription itself; each later one follows a reconnect.
        if (this.subscribed++ > 0) this.lost();
      },
    );
  }

  /** Calls `fn` with each change another node makes (and "all" after a reconnect); returns the unsubscribe. */
  on(fn: (c: Change) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  async close(): Promise<void> {
    const s = this.subscription;
    this.subscription = null;
    await s?.unlisten().catch(() => {});
  }

  private receive(payload: string): void {
    const [node, kind, ...rest] = payload.split(" ");
    if (node === this.node) return;
    this.version++;
    if (kind === "m") this.emit({ kind: "memories", user: rest.join(" ") });
    else if (kind === "p") this.emit({ kind: "policies" });
    else this.emit({ kind: "all" });
  }

  private lost(): void {
    this.logger.warn("store notifications reconnected; caches flushed (changes sent meanwhile were not heard)");
    this.version++;
    this.emit({ kind: "all" });
  }

  private emit(c: Change): void {
    for (const fn of this.listeners) fn(c);
  }
}
