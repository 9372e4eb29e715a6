// The HTTP listener and its graceful stop: requests clients have already sent are answered, new
// connections are refused, and what is still running after a bound is cut so the process can exit.
import type { Logger } from "~/shared/logger";
import { setClientAddress } from "./client-address";

/** How long stop() waits for running requests before cutting them (SIGTERM → exit within this). */
export const SHUTDOWN_DRAIN_MS = 10_000;

export interface ListenOptions {
  hostname: string;
  port: number;
  fetch: (request: Request) => Promise<Response>;
  logger: Logger;
}

export interface Listener {
  port: number;
  /** Resolves once every connection is closed: at once when idle, after at most `drainMs` otherwise. */
  stop(drainMs?: number): Promise<void>;
}

export function listen(o: ListenOptions): Listener {
  let started = 0;
  const server = Bun.serve({
    hostname: o.hostname,
    port: o.port,
    // The body limit is the pipeline's, which answers with the error envelope (SPEC §2.1) and reads
    // chunked bodies only up to it; Bun's own limit answered 413 with an empty body.
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    fetch: (request, server) => {
      started++;
      setClientAddress(request, () => server.requestIP(request)?.address);
      return o.fetch(request);
    },
  });
  let stopping: Promise<void> | null = null;
  const stop = async (drainMs: number) => {
    await settle(() => started);
    const closed = server.stop();
    let timer: Timer | undefined;
    const cut = await Promise.race([
      closed.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), drainMs))),
    ]);
    clearTimeout(timer);
    if (!cut) return;
    o.logger.warn("requests still running at shutdown were cut", {
      requests: server.pendingRequests,
      after_ms: drainMs,
    });
    await server.stop(true);
  };
  return { port: server.port!, stop: (drainMs = SHUTDOWN_DRAIN_MS) => (stopping ??= stop(drainMs)) };
}

/**
 * Closing the listener resets the connections still queued in the kernel, and Bun closes accepted
 * connections whose request it has not read yet as idle: 48 requests a client had already sent were
 * all dropped that way. So the event loop first gets turns to accept and read what is there, until
 * three turns in a row start no new request (at most 50 turns).
 */
async function settle(started: () => number): Promise<void> {
  for (let quiet = 0, turn = 0; quiet < 3 && turn < 50; turn++) {
    const before = started();
    await Bun.sleep(1);
    quiet = started() === before ? quiet + 1 : 0;
  }
}
