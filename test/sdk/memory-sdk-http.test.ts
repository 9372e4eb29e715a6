// The memory and spaces SDK contract over createClient against a real server on a free port.
import { createClient } from "~/index";
import { loadConfig } from "~/config/load-config";
import { startServer } from "~/main";
import { FakeClock } from "~/shared/clock";
import { silentLogger } from "~/shared/logger";
import { memorySdkContract } from "./memory-sdk.contract";

memorySdkContract("http", async () => {
  const clock = new FakeClock(Date.UTC(2026, 5, 1));
  const config = loadConfig({ options: { storeUrl: "sqlite::memory:", port: 0, embedding: { provider: "none" } } });
  const server = await startServer(config, { clock, logger: silentLogger(), embedder: null });
  return { client: createClient({ baseUrl: server.url }), close: () => server.stop() };
});
