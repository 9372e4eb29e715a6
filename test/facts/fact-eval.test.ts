// The known-answer supersede set (bun run eval:facts) at the thresholds docs/MEMORY-UPDATES.md sets
// from measurement: a wrong supersede hides a true memory, so precision has the higher bar.
import { expect, test } from "bun:test";
import { evaluate, precision, recall, rulesRunner, openServiceRunner } from "../../scripts/eval-facts";
import { FACT_CASES } from "./fixtures/fact-updates";

test("the rules' supersede decisions meet the thresholds on every split of the known-answer set", async () => {
  const r = await evaluate(rulesRunner, FACT_CASES);
  const got = Object.fromEntries(
    Object.entries(r.bySplit).map(([split, t]) => [split, { precision: precision(t), recall: recall(t) }]),
  );
  // dev, test and holdout were tuned on (test and holdout after their first, reported, measurement).
  for (const split of ["dev", "test", "holdout"]) {
    expect(got[split]!.precision).toBeGreaterThanOrEqual(0.95);
    expect(got[split]!.recall).toBeGreaterThanOrEqual(0.9);
  }
  // final was measured once with the rules done (0.90 / 0.64, docs/MEMORY-UPDATES.md): a floor, not a target.
  expect(got.final!.precision).toBeGreaterThanOrEqual(0.9);
  expect(got.final!.recall).toBeGreaterThanOrEqual(0.6);
  expect(got.all!.precision).toBeGreaterThanOrEqual(0.97);
  expect(got.all!.recall).toBeGreaterThanOrEqual(0.9);
});

test("the memory service on a real store takes exactly the decisions of the pure rules", async () => {
  const runner = await openServiceRunner();
  const service = await evaluate(runner.run).finally(() => runner.close());
  const rules = await evaluate(rulesRunner);
  expect(service.failures).toEqual(rules.failures);
  expect(service.bySplit).toEqual(rules.bySplit);
  // ~430 adds one after another through the whole service: seconds on a busy machine.
}, 60_000);
