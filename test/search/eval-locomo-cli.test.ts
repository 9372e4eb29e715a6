// `bun run eval` as a newcomer meets it: without the LoCoMo file (it is not in the repository) the
// script says where the file comes from, its license and the --data= flag, and exits 2.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { LOCOMO_URL } from "../../scripts/locomo-data";
import { ROOT } from "../support/server-process";

async function runEval(...args: string[]) {
  const p = Bun.spawn(["bun", join(ROOT, "scripts/eval-locomo.ts"), ...args], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  return { stdout, stderr, code };
}

test("without the data file the eval says where to get it, its license and --data=, and exits 2", async () => {
  const r = await runEval("--data=/nonexistent/locomo10.json");
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr).toStartWith("LoCoMo data not found at /nonexistent/locomo10.json\n");
  expect(r.stderr).toContain("licensed CC BY-NC 4.0");
  expect(r.stderr).toContain("https://github.com/snap-research/LoCoMo");
  expect(r.stderr).toContain(`curl -fL -o locomo10.json ${LOCOMO_URL}\n`);
  expect(r.stderr).toContain("bun run eval --data=/path/to/locomo10.json\n");
  expect(LOCOMO_URL).toBe("https://raw.githubusercontent.com/snap-research/LoCoMo/main/data/locomo10.json");
});

test("an unknown flag names itself and prints the usage, without a stack trace", async () => {
  const r = await runEval("--dta=/x.json");
  expect(r.code).toBe(2);
  expect(r.stderr).toStartWith("unknown flag --dta\nusage: bun run eval [--split=dev|test|all]");
  expect(r.stderr).not.toContain("    at ");
});
