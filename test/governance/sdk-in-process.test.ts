// The governance SDK contract over createEngram (no HTTP).
import { createEngram } from "~/index";
import { FakeClock } from "~/shared/clock";
import { silentLogger } from "~/shared/logger";
import { governanceSdkContract } from "./sdk.contract";

governanceSdkContract("in-process", async () => {
  const clock = new FakeClock(Date.UTC(2026, 5, 1));
  const client = await createEngram({ storeUrl: "sqlite::memory:", clock, embedder: null, logger: silentLogger() });
  return { client, clock, close: () => client.close() };
});
