// The held-out paraphrase set (test/search/fixtures/personas) through the server's own HTTP API, in process:
//   bun scripts/eval-paraphrase.ts [--half=tune|report|all] [--modes=keyword,semantic,hybrid] [--model=ID]
//                                  [--threshold=T] [--json=out.json]
// Per half and mode: hit@1, hit@3 and MRR of the answerable questions (all, and those sharing no content word
// with their answer), typo hit@1/@3, and how well the score separates answers from non-answers (calibration).
import { cpus } from "node:os";
import { join } from "node:path";
import { GLOVE_SIF_MODEL_ID } from "~/search/model/build-glove-sif";
import { SUGGESTED_MIN_SCORE } from "~/search/relevance";
import { HALVES, goldOf, type Half, type Persona } from "../test/search/fixtures/personas";
import { MODES, post, startEngine, type Handle, type Mode } from "./eval-locomo";
import { aucOf, atThreshold, type Judged } from "./eval-calibration";
import { sharesWord } from "./eval-overlap";

const LIMIT = 10;
/** The threshold the precision/recall row is reported at: the min_score the docs suggest. */
const DEFAULT_THRESHOLD = SUGGESTED_MIN_SCORE;

interface Args {
  halves: Half[];
  modes: Mode[];
  model: string;
  threshold: number;
  json?: string;
}

interface Hit {
  id: string;
  memory: string;
  score: number;
}

/** One question's outcome: the rank of its first gold memory (−1: not in the top LIMIT) and what came back. */
interface Outcome {
  persona: string;
  question: string;
  gold: readonly string[];
  rank: number;
  lexical: boolean;
  results: Judged[];
}

export interface Quality {
  n: number;
  hit1: number;
  hit3: number;
  mrr: number;
}

function parseArgs(argv: string[]): Args {
  const flags = new Map(
    argv.map((a) => {
      const [k, ...v] = a.replace(/^--/, "").split("=");
      return [k!, v.join("=")] as const;
    }),
  );
  for (const k of flags.keys())
    if (!["half", "modes", "model", "threshold", "json"].includes(k)) throw new Error(`unknown flag --${k}`);
  const half = flags.get("half") ?? "all";
  if (!["tune", "report", "all"].includes(half)) throw new Error("--half must be tune, report or all");
  const modes = (flags.get("modes") ?? MODES.join(",")).split(",") as Mode[];
  for (const m of modes) if (!MODES.includes(m)) throw new Error(`unknown mode '${m}'`);
  const threshold = Number(flags.get("threshold") ?? DEFAULT_THRESHOLD);
  if (!(threshold >= 0 && threshold <= 1)) throw new Error("--threshold must be in [0, 1]");
  return {
    halves: half === "all" ? ["tune", "report"] : [half as Half],
    modes,
    model: flags.get("model") || GLOVE_SIF_MODEL_ID,
    threshold,
    ...(flags.get("json") ? { json: flags.get("json")! } : {}),
  };
}

/** Stores a persona's memories, one request each in their order; returns memory id → key. */
async function ingest(handle: Handle, p: Persona): Promise<Map<string, string>> {
  const keys = new Map<string, string>();
  for (const [key, memory] of Object.entries(p.memories)) {
    const { memory_ids } = await post(handle, "/add_memories", { user_id: p.id, memory });
    keys.set(memory_ids[0], key);
  }
  return keys;
}

async function ask(handle: Handle, p: Persona, query: string, keys: Map<string, string>): Promise<Judged[]> {
  const { results } = (await post(handle, "/search_memory", { user_id: p.id, query, limit: LIMIT })) as {
    results: Hit[];
  };
  return results.map((r) => ({ key: keys.get(r.id) ?? "?", score: r.score, relevant: false }));
}

function judge(p: Persona, question: string, gold: readonly string[], results: Judged[]): Outcome {
  const judged = results.map((r) => ({ ...r, relevant: gold.includes(r.key) }));
  const lexical = gold.some((g) => sharesWord(question, p.memories[g]!));
  return { persona: p.id, question, gold, rank: judged.findIndex((r) => r.relevant), lexical, results: judged };
}

export function quality(outcomes: readonly Outcome[]): Quality {
  const n = outcomes.length;
  const share = (f: (o: Outcome) => number) => (n ? outcomes.reduce((a, o) => a + f(o), 0) / n : 0);
  return {
    n,
    hit1: share((o) => (o.rank === 0 ? 1 : 0)),
    hit3: share((o) => (o.rank >= 0 && o.rank < 3 ? 1 : 0)),
    mrr: share((o) => (o.rank >= 0 ? 1 / (o.rank + 1) : 0)),
  };
}

interface ModeRun {
  mode: Mode;
  answerable: Outcome[];
  typos: Outcome[];
  /** Each unanswerable question's results (none relevant). */
  unanswerable: Judged[][];
}

async function runMode(mode: Mode, personas: readonly Persona[], args: Args): Promise<ModeRun> {
  const { engine, handle } = await startEngine(mode, { model: args.model });
  const run: ModeRun = { mode, answerable: [], typos: [], unanswerable: [] };
  try {
    for (const p of personas) {
      const keys = await ingest(handle, p);
      for (const [q, gold] of p.questions)
        run.answerable.push(judge(p, q, goldOf(gold), await ask(handle, p, q, keys)));
      for (const [q, gold] of p.typos) run.typos.push(judge(p, q, goldOf(gold), await ask(handle, p, q, keys)));
      for (const q of p.unanswerable) run.unanswerable.push(await ask(handle, p, q, keys));
    }
  } finally {
    await engine.close();
  }
  return run;
}

const pct = (x: number) => (100 * x).toFixed(1);
const row = (q: Quality) => `${pct(q.hit1)} | ${pct(q.hit3)} | ${pct(q.mrr)}`;

function report(half: Half, runs: ModeRun[], threshold: number): string {
  const lines = [
    `| ${half} | n | hit@1 | hit@3 | MRR | no shared word: n | hit@1 | hit@3 | MRR | typos: hit@1 | hit@3 |`,
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of runs) {
    const all = quality(r.answerable);
    const unseen = quality(r.answerable.filter((o) => !o.lexical));
    const typos = quality(r.typos);
    lines.push(
      `| ${r.mode} | ${all.n} | ${row(all)} | ${unseen.n} | ${row(unseen)} | ${pct(typos.hit1)} | ${pct(typos.hit3)} |`,
    );
  }
  lines.push(
    "",
    `| ${half}: calibration | AUC (question) | AUC (result) | at ${threshold}: precision | recall | unanswered kept empty |`,
  );
  lines.push("|---|---|---|---|---|---|");
  for (const r of runs) {
    const c = calibration(r, threshold);
    lines.push(
      `| ${r.mode} | ${c.questionAuc.toFixed(3)} | ${c.resultAuc.toFixed(3)} | ${pct(c.precision)} | ${pct(c.recall)} | ${pct(c.emptyUnanswerable)} |`,
    );
  }
  return lines.join("\n");
}

/**
 * Question AUC: does the top score of an answerable question beat that of an unanswerable one? Result AUC:
 * does a gold result outscore a wrong one, over every result of every question? At the threshold: the share of
 * kept results that are gold, of answerable questions whose gold is kept, of unanswerable ones left empty.
 */
export function calibration(r: ModeRun, threshold: number) {
  const top = (results: Judged[]) => results[0]?.score ?? 0;
  const questionAuc = aucOf(
    r.answerable.map((o) => top(o.results)),
    r.unanswerable.map(top),
  );
  const all = [...r.answerable.flatMap((o) => o.results), ...r.unanswerable.flat()];
  const resultAuc = aucOf(
    all.filter((j) => j.relevant).map((j) => j.score),
    all.filter((j) => !j.relevant).map((j) => j.score),
  );
  return {
    questionAuc,
    resultAuc,
    ...atThreshold(
      r.answerable.map((o) => o.results),
      r.unanswerable,
      threshold,
    ),
  };
}

async function main(): Promise<void> {
  const args = parseArgs(Bun.argv.slice(2));
  const commit = Bun.spawnSync(["git", "rev-parse", "--short", "HEAD"], { cwd: join(import.meta.dir, "..") });
  console.log(
    `# Paraphrase eval\n\ncommit ${commit.stdout.toString().trim()} · ${cpus().length}× ${cpus()[0]?.model} · model ${args.model} · limit ${LIMIT}\n`,
  );
  const out: Record<string, ModeRun[]> = {};
  for (const half of args.halves) {
    const runs: ModeRun[] = [];
    for (const mode of args.modes) runs.push(await runMode(mode, HALVES[half], args));
    out[half] = runs;
    console.log(`## ${half}: ${HALVES[half].map((p) => p.id).join(", ")}\n\n${report(half, runs, args.threshold)}\n`);
  }
  if (args.json) await Bun.write(args.json, JSON.stringify(out, null, 2));
}

if (import.meta.main) await main();
