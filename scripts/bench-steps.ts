// What each step of a refactor costs a request, against the commit just before it: a `git worktree` of both
// commits, then scripts/bench-cpu.ts with the parent as A and the step as B, and again the other way round
// (the side a server runs on biases it a little; the two orders cancel that). Prints, per step and kind, the
// step's server CPU per request over its parent's: the geometric mean of every round's pair, ± its standard
// error over rounds, and the product over all steps. The default steps are issue 17's (docs/BENCHMARKS.md,
// "The refactor's own steps"). A parent that cannot open the store its step migrated (the step as A loads it)
// is measured in one order only.
// Usage: bun scripts/bench-steps.ts [--memories=20000] [--rounds=4] [--requests=3000] [--kinds=search,get,list,add]
//          [NAME=PARENT..COMMIT ...]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? def;
const BENCH_ARGS = [
  `--memories=${arg("memories", "20000")}`,
  `--rounds=${arg("rounds", "4")}`,
  `--requests=${arg("requests", "3000")}`,
  `--kinds=${arg("kinds", "search,get,list,add")}`,
];
const KINDS = arg("kinds", "search,get,list,add").split(",");

/** Issue 17's steps that run on a request, each as its parent..itself (the store boundary is two commits). */
const ISSUE_17 = [
  "config=5ac2dbf..731b6ad",
  "graph-boost=4f7361c..f5a27c2",
  "store-boundary=e1b646e..25bb77b",
  "validation=2351f03..8ecd41e",
  "promises=b7da8bf..552dfce",
  "composition=dd32884..4a5549b",
  "rowids=0dab352..40b0213",
];
const given = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const steps = (given.length ? given : ISSUE_17).map((s) => {
  const m = /^([^=]+)=([^.]+)\.\.(.+)$/.exec(s);
  if (!m) throw new Error(`a step is NAME=PARENT..COMMIT, not ${s}`);
  return { name: m[1]!, parent: m[2]!, commit: m[3]! };
});

function run(cmd: string[], cwd = ROOT): { ok: boolean; out: string } {
  const p = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  return { ok: p.exitCode === 0, out: p.stdout.toString() + p.stderr.toString() };
}

const dir = mkdtempSync(join(tmpdir(), "engram-bench-steps-"));
const trees: string[] = [];
/** A checkout of `rev` with its own dependencies. */
function checkout(rev: string): string {
  const tree = join(dir, rev);
  if (trees.includes(tree)) return tree;
  const added = run(["git", "worktree", "add", "--detach", tree, rev]);
  if (!added.ok) throw new Error(`git worktree add ${rev}: ${added.out}`);
  trees.push(tree);
  const installed = run(["bun", "install", "--frozen-lockfile"], tree);
  if (!installed.ok) throw new Error(`bun install in ${rev}: ${installed.out}`);
  return tree;
}

/** Per kind, each round's log(B / A) from one bench-cpu run; null when the run failed. */
function pairs(a: string, b: string): Record<string, number[]> | null {
  const r = run(["bun", join(ROOT, "scripts/bench-cpu.ts"), `--a-root=${a}`, `--b-root=${b}`, ...BENCH_ARGS]);
  if (!r.ok) return null;
  const out: Record<string, number[]> = {};
  for (const line of r.out.split("\n")) {
    const c = line.split("|").map((x) => x.trim());
    if (c.length < 8 || !KINDS.includes(c[1]!)) continue;
    const [ra, rb] = [c[5]!, c[6]!].map((x) => x.split(/\s+/).map(Number));
    out[c[1]!] = ra!.map((x, i) => Math.log(rb![i]! / x));
  }
  return out;
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const stderr = (xs: number[]) =>
  xs.length > 1 ? Math.sqrt(xs.reduce((s, x) => s + (x - mean(xs)) ** 2, 0) / (xs.length - 1) / xs.length) : 0;
const pct = (log: number) =>
  `${(Math.exp(log) - 1) * 100 >= 0 ? "+" : "−"}${Math.abs((Math.exp(log) - 1) * 100).toFixed(1)} %`;

try {
  const total: Record<string, { log: number; variance: number }> = {};
  const rows: string[] = [];
  for (const step of steps) {
    const [parent, commit] = [checkout(step.parent), checkout(step.commit)];
    const forward = pairs(parent, commit);
    if (!forward) throw new Error(`bench-cpu failed on ${step.parent} against ${step.commit}`);
    // The other way round, a ratio of parent over step: inverted, so both read step / parent.
    const backward = pairs(commit, parent);
    const cells = KINDS.map((kind) => {
      const logs = [...(forward[kind] ?? []), ...(backward?.[kind] ?? []).map((x) => -x)];
      const [m, se] = [mean(logs), stderr(logs)];
      const t = (total[kind] ??= { log: 0, variance: 0 });
      t.log += m;
      t.variance += se * se;
      return `${pct(m)} ± ${(se * 100).toFixed(1)} (${logs.length})`;
    });
    const name = `${step.name} (${step.commit}${backward ? "" : "; one order only"})`;
    rows.push(`| ${name} | ${cells.join(" | ")} |`);
    console.error(`${step.name}: done`);
  }
  console.log(`\nstep / parent, server CPU per request (bench-cpu ${BENCH_ARGS.join(" ")}, both orders):`);
  console.log("geometric mean over rounds ± standard error (rounds)\n");
  console.log(`| step | ${KINDS.join(" | ")} |\n|---|${KINDS.map(() => "---|").join("")}`);
  for (const row of rows) console.log(row);
  const all = KINDS.map((k) => `${pct(total[k]!.log)} ± ${(Math.sqrt(total[k]!.variance) * 100).toFixed(1)}`);
  console.log(`| all steps | ${all.join(" | ")} |`);
} finally {
  for (const tree of trees) run(["git", "worktree", "remove", "--force", tree]);
  rmSync(dir, { recursive: true, force: true });
}
