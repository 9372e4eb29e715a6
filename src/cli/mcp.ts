// `engram mcp`: MCP over stdio. stdout carries only the protocol (logs go to stderr); the store
// and the embedding model are opened after the handshake, and closed when the client hangs up.
import type { Config } from "~/config/config.schema";
import { buildServices, loggerFor, type Engine } from "~/main";
import { serveStdio } from "~/mcp/stdio";
import { EXIT } from "./exit-codes";

export async function mcp(config: Config): Promise<number> {
  const logger = loggerFor(config);
  let engine: Promise<Engine> | null = null;
  const build = () =>
    (engine ??= buildServices(config, { logger }).then((e) => {
      // As in `serve`: vectors for memories stored under another model, in the background.
      void e.search
        .reembedMissing()
        .catch((err) => logger.error("re-embedding failed", { error: (err as Error).message }));
      // The configured model's download, if any (SPEC §4): in the background, after the handshake.
      void e.models?.start();
      return e;
    }));
  const session = await serveStdio({ build, logger, defaultUserId: config.userId });
  process.once("SIGTERM", () => void session.close());
  process.once("SIGINT", () => void session.close());
  await session.closed;
  const built = await (engine as Promise<Engine> | null)?.catch(() => null);
  await built?.close();
  return EXIT.OK;
}
