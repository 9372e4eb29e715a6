// The governance SDK contract over createClient against a real server on a free port (auth off on
// loopback: the operator, an admin of organization ORG).
import { createClient } from "~/index";
import { loadConfig } from "~/config/load-config";
import { startServer } from "~/main";
import { FakeClock } from "~/shared/clock";
import { silentLogger } from "~/shared/logger";
import { governanceSdkContract, ORG } from "./sdk.contract";

governanceSdkContract("http", async () => {
  const clock = new FakeClock(Date.UTC(2026, 5, 1));
  const config = loadConfig({
    options: { storeUrl: "sqlite::memory:", orgId: ORG, port: 0, embedding: { provider: "none" } },
  });
  const server = await startServer(config, { clock, logger: silentLogger(), embedder: null });
  const client = createClient({ baseUrl: server.url });
  return { client, clock, close: () => server.stop() };
});
