// Supersede decisions on the known-answer set (test/facts/fixtures/fact-updates.ts):
//   bun run eval:facts [--split=dev|test|holdout|final|all] [--failures] [--rules-only]
// Prints precision and recall of "memory i is superseded by memory j" decisions per attribute and split,
// taken by the memory service on a real (in-memory) store; --rules-only runs the pure decision instead.
import { FACT_CASES, type FactCase } from "../test/facts/fixtures/fact-updates";
import { recogniseClaims } from "~/facts/fact-recogniser";
import { decide, supersededMemories, type StoredFact } from "~/facts/supersede";
import { loadConfig } from "~/config/load-config";
import { buildServices } from "~/main";
import { silentLogger } from "~/shared/logger";
import { userScopeOf } from "~/shared/principal";

export type Decision = [older: number, newer: number];
/** Adds a case's memories in order; answers the supersede decisions taken. */
export type Runner = (memories: string[]) => Promise<Decision[]>;

export interface Tally {
  tp: number;
  fp: number;
  fn: number;
}

export interface EvalResult {
  bySplit: Record<string, Tally>;
  byAttribute: Record<string, Record<string, Tally>>;
  failures: { id: string; expected: Decision[]; got: Decision[] }[];
}

/** The recogniser and the decision alone, over an in-memory list of facts. */
export const rulesRunner: Runner = async (memories) => {
  const facts: StoredFact[] = [];
  const decisions: Decision[] = [];
  memories.forEach((text, i) => {
    const d = decide(
      recogniseClaims(text),
      facts.filter((f) => !f.ended),
    );
    const touched = new Set(facts.filter((f) => d.ends.includes(f.id)).map((f) => f.memoryId));
    const superseded = supersededMemories(
      d.ends,
      facts.filter((f) => touched.has(f.memoryId)),
    );
    for (const f of facts) if (d.ends.includes(f.id)) f.ended = true;
    for (const m of superseded) if (!decisions.some(([older]) => String(older) === m)) decisions.push([Number(m), i]);
    for (const f of d.facts) facts.push({ ...f, id: facts.length, memoryId: String(i), ended: false });
  });
  return decisions;
};

/**
 * The product: each case's memories added through the real memory service (an in-memory store, keyword
 * search; each case as a user of its own), its decisions read back from superseded_by.
 */
export async function openServiceRunner(): Promise<{ run: Runner; close(): Promise<void> }> {
  const config = loadConfig({ options: { storeUrl: "sqlite::memory:", searchWorkers: 0 }, env: {} });
  const engine = await buildServices(config, { logger: silentLogger(), embedder: null });
  let cases = 0;
  const run: Runner = async (memories) => {
    const userId = `case-${++cases}`;
    const who = userScopeOf(config.orgId, userId);
    const ids: string[] = [];
    for (const memory of memories) ids.push((await engine.memory.add(who, { user_id: userId, memory })).memory_ids[0]!);
    const listed = await engine.memory.list(who, { user_id: userId, include_superseded: true, limit: 1000 });
    return listed.results.flatMap((m) =>
      m.superseded_by ? [[ids.indexOf(m.id), ids.indexOf(m.superseded_by)] as Decision] : [],
    );
  };
  return { run, close: () => engine.close() };
}

const key = ([a, b]: Decision) => `${a}>${b}`;
const add = (t: Tally, u: Tally) => {
  t.tp += u.tp;
  t.fp += u.fp;
  t.fn += u.fn;
};

export async function evaluate(runner: Runner, cases: readonly FactCase[] = FACT_CASES): Promise<EvalResult> {
  const result: EvalResult = { bySplit: {}, byAttribute: {}, failures: [] };
  for (const c of cases) {
    const got = await runner(c.memories);
    const expected = new Set(c.superseded.map(key));
    const found = new Set(got.map(key));
    const t: Tally = {
      tp: [...found].filter((k) => expected.has(k)).length,
      fp: [...found].filter((k) => !expected.has(k)).length,
      fn: [...expected].filter((k) => !found.has(k)).length,
    };
    for (const split of [c.split, "all"]) {
      add((result.bySplit[split] ??= { tp: 0, fp: 0, fn: 0 }), t);
      add(((result.byAttribute[c.attribute] ??= {})[split] ??= { tp: 0, fp: 0, fn: 0 }), t);
    }
    if (t.fp || t.fn) result.failures.push({ id: c.id, expected: c.superseded, got });
  }
  return result;
}

/** Precision with no decision taken is 1 (nothing was hidden wrongly); recall with nothing expected is 1. */
export const precision = (t: Tally) => (t.tp + t.fp ? t.tp / (t.tp + t.fp) : 1);
export const recall = (t: Tally) => (t.tp + t.fn ? t.tp / (t.tp + t.fn) : 1);

export function table(r: EvalResult, splits: string[]): string {
  // No decision taken (or none expected) has no precision (recall): "–", not a perfect score.
  const ratio = (n: number, of: number) => (of ? (n / of).toFixed(2) : "–");
  const cell = (t: Tally | undefined) =>
    t
      ? `${ratio(t.tp, t.tp + t.fp)} / ${ratio(t.tp, t.tp + t.fn)} (${t.tp}/${t.tp + t.fp}/${t.tp + t.fn})`
      : "no cases";
  const rows = [
    `| attribute | ${splits.map((s) => `${s}: precision / recall (right/taken/expected)`).join(" | ")} |`,
    `|---|${splits.map(() => "---").join("|")}|`,
    ...Object.entries(r.byAttribute).map(([a, t]) => `| ${a} | ${splits.map((s) => cell(t[s])).join(" | ")} |`),
    `| **all** | ${splits.map((s) => `**${cell(r.bySplit[s])}**`).join(" | ")} |`,
  ];
  return rows.join("\n");
}

if (import.meta.main) {
  const split = process.argv.find((a) => a.startsWith("--split="))?.split("=")[1] ?? "all";
  const cases = split === "all" ? FACT_CASES : FACT_CASES.filter((c) => c.split === split);
  const service = process.argv.includes("--rules-only") ? null : await openServiceRunner();
  const r = await evaluate(service?.run ?? rulesRunner, cases).finally(() => service?.close());
  console.log(table(r, split === "all" ? ["dev", "test", "holdout", "final", "all"] : [split]));
  if (process.argv.includes("--failures"))
    for (const f of r.failures) {
      const c = FACT_CASES.find((x) => x.id === f.id)!;
      console.log(`\n${f.id}: expected ${JSON.stringify(f.expected)} got ${JSON.stringify(f.got)}`);
      c.memories.forEach((m, i) => console.log(`  ${i}: ${m}  ${JSON.stringify(recogniseClaims(m))}`));
    }
}
