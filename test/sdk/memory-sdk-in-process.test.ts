// The memory and spaces SDK contract over createEngram (no HTTP).
import { createEngram } from "~/index";
import { FakeClock } from "~/shared/clock";
import { silentLogger } from "~/shared/logger";
import { memorySdkContract } from "./memory-sdk.contract";

memorySdkContract("in-process", async () => {
  const clock = new FakeClock(Date.UTC(2026, 5, 1));
  const client = await createEngram({ storeUrl: "sqlite::memory:", clock, embedder: null, logger: silentLogger() });
  return { client, close: () => client.close() };
});
