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
}

export interface StdioSession {
  /** Settles when the client hangs up (stdin ends) or close() is called. */
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
  // The SDK transport does not watch for end of input; a client that exits only closes our stdin.
  process.stdin.once("end", () => void server.close());
  await server.connect(transport);
  o.logger.debug("mcp stdio ready");
  return { closed, close: () => server.close() };
}
