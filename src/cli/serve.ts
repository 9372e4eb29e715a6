// `engram serve`: start, print the one startup line, stop cleanly on SIGTERM/SIGINT.
import type { Config } from "~/config/config.schema";
import { startServer } from "~/main";
import { VERSION } from "~/version";
import { EXIT } from "./exit-codes";

export async function serve(config: Config): Promise<number> {
  // Listens first; the model loads meanwhile (/health says "loading", searches and writes wait for it).
  const server = await startServer(config, { background: true });
  // Signals are handled from the moment the server listens, model loaded or not.
  const stopped = new Promise<number>((resolve) => {
    const shutdown = async (signal: string) => {
      server.services.logger.info("shutting down", { signal });
      await server.stop();
      resolve(EXIT.OK);
      process.exit(EXIT.OK);
    };
    process.once("SIGTERM", () => void shutdown("SIGTERM"));
    process.once("SIGINT", () => void shutdown("SIGINT"));
  });
  // The startup line waits for the model so it can say which search mode is live.
  await server.ready;
  const s = server.services.search.status();
  const mode =
    s.mode === "hybrid"
      ? `semantic ${s.model} index=${s.vectorIndex}`
      : s.model
        ? `keyword (model ${s.model} failed to load)`
        : "keyword";
  console.log(`engram ${VERSION} listening on ${server.url} store=${config.storePath} search=${mode}`);
  return stopped;
}
