// The governance SDK contract over createEngram (no HTTP), as the operator of organization ORG.
import { createEngram } from "~/index";
import { FakeClock } from "~/shared/clock";
import { silentLogger } from "~/shared/logger";
import { governanceSdkContract, ORG } from "./sdk.contract";

governanceSdkContract("in-process", async () => {
  const clock = new FakeClock(Date.UTC(2026, 5, 1));
  const client = await createEngram({
    storeUrl: "sqlite::memory:",
    orgId: ORG,
    clock,
    embedder: null,
    logger: silentLogger(),
  });
  return { client, clock, close: () => client.close() };
});
