// CI: `bun run eval` on the LoCoMo dev split (5 conversations, 2,760 turns, 997 questions; keyword,
// semantic and hybrid; about 30 s) when the data sits next to the checkout in ../shared/data/; skipped
// with the reason otherwise (the data is CC BY-NC and never in the repository). Fails when the eval
// fails or when a mode's R@10 (categories 1–4) falls under FLOOR: a guard against a broken search,
// not a tuning target (dev today: keyword 0.68, semantic 0.53, hybrid 0.70).
// Usage: bun scripts/ci/locomo-eval.ts
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");
const DATA = resolve(ROOT, "..", "shared", "data", "locomo", "locomo10.json");
const FLOOR = 0.4;

if (!existsSync(DATA)) {
  console.log(`locomo-eval: skipped: ${DATA} is absent (see \`bun run eval\` for where the file comes from)`);
  process.exit(0);
}
const dir = mkdtempSync(join(tmpdir(), "engram-locomo-ci-"));
let code = 1;
try {
  const out = join(dir, "dev.json");
  const run = Bun.spawn(["bun", "scripts/eval-locomo.ts", "--split=dev", `--data=${DATA}`, `--json=${out}`], {
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  });
  if ((await run.exited) !== 0) throw new Error(`the eval exited with ${run.exitCode}`);
  const report = (await Bun.file(out).json()) as { results: { dev: { mode: string; cat14: { r10: number } }[] } };
  const low = report.results.dev.filter((r) => !(r.cat14.r10 >= FLOOR));
  for (const r of report.results.dev) console.log(`locomo-eval: dev ${r.mode} R@10 (1–4) ${r.cat14.r10.toFixed(3)}`);
  if (report.results.dev.length !== 3) throw new Error("expected three modes in the report");
  if (low.length) throw new Error(`R@10 under ${FLOOR} in ${low.map((r) => r.mode).join(", ")}`);
  code = 0;
} catch (e) {
  console.error(`locomo-eval: FAILED: ${(e as Error).message}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
