// MCP over stdio for clients that spawn a process. The handshake is answered at once; the
// services (store, embedding model) are built only after it, and tool calls wait for them.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Services } from "~/services";
import { AppError } from "~/shared/errors";
import type { Logger } from "~/shared/logger";
import { createMcpServer } from "./server";

export interface StdioOptions {
  /** Builds the services; called at most once, after the client's `initialized` notification or on the first tool call. */
  build(): Promise<Services>;
  logger: Logger;
  defaultUserId?: string;
  /** How long closing waits for running tool calls (default STDIO_DRAIN_MS). */
  drainMs?: number;
}

export interface StdioSession {
  /** Settles when the client hangs up (stdin ends) or close() is called, after the running calls are answered. */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveStdio(o: StdioOptions): Promise<StdioSession> {
  let building: Promise<Services> | null = null;
  const services = () =>
    (building ??= o.build().catch((e: Error) => {
      o.logger.error("engram could not start", { error: e.message });
      // Every later tool call reports the same reason instead of an anonymous internal error.
      throw new AppError("UNAVAILABLE", `engram could not start: ${e.message}`);
    }));
  const server = createMcpServer({ services, defaultUserId: o.defaultUserId, logger: o.logger });
  // Loading an embedding model can block for seconds; starting it before the handshake would make
  // clients with a short initialize timeout give up on the server.
  server.oninitialized = () => void services().catch(() => {});
  const transport = new StdioServerTransport(process.stdin, process.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  await server.connect(transport);
  const inFlight = trackRequests(transport);
  // Closing answers nothing more: the calls already read are finished (bounded) and answered first.
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= inFlight.drained(o.drainMs ?? STDIO_DRAIN_MS).then((cut) => {
      if (cut) o.logger.warn("closing with tool calls still running", { calls: cut });
      return server.close();
    }));
  // The SDK transport does not watch for end of input; a client that exits only closes our stdin,
  // often right after its last request (which must still be carried out).
  process.stdin.once("end", () => void close());
  o.logger.debug("mcp stdio ready");
  return { closed, close };
}

/** How long closing waits for running tool calls, as `engram serve` does for HTTP requests. */
export const STDIO_DRAIN_MS = 10_000;

/** Counts the requests read from the transport that have not been answered yet. */
function trackRequests(transport: StdioServerTransport) {
  const pending = new Set<string | number>();
  let idle: (() => void) | null = null;
  const onmessage = transport.onmessage!;
  transport.onmessage = (message) => {
    if ("method" in message && "id" in message) pending.add(message.id);
    onmessage(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message) => {
    try {
      await send(message);
    } finally {
      const id = "method" in message || !("id" in message) ? undefined : message.id;
      if (id !== undefined && pending.delete(id) && pending.size === 0) idle?.();
    }
  };
  return {
    /** Resolves with 0 once nothing is pending, or with the number still running after `ms`. */
    drained(ms: number): Promise<number> {
      if (pending.size === 0) return Promise.resolve(0);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(pending.size), ms);
        idle = () => {
          clearTimeout(timer);
          resolve(0);
        };
      });
    },
  };
}
