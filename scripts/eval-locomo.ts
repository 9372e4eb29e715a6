// Retrieval quality on LoCoMo (BENCH.md §1) through the server's own HTTP API, in process:
//   bun run eval [--split=dev|test|all] [--modes=keyword,semantic,hybrid] [--data=PATH] [--model=ID] [--json=out.json]
//                [--reply-share=S]   (tuning: the searchTuning build option, see SearchTuning)
//                [--store=sqlite|postgres]   (postgres: a throwaway PostgreSQL + pgvector, one database per mode)
// Prints recall@5/@10 and MRR (categories 1–4 = headline, and 1–5) per split and mode, plus per-category rows.
import { join, resolve } from "node:path";
import { cpus } from "node:os";
import { loadConfig } from "~/config/load-config";
import { buildServices, type Engine } from "~/main";
import { createApp } from "~/app";
import { silentLogger } from "~/shared/logger";
import { TransformersEmbedder } from "~/search/transformers-embedder";
import { ensureBuiltinModel, GLOVE_SIF_MODEL_ID } from "~/search/model/build-glove-sif";
import { startPostgres, type PgServer } from "./postgres-server";
import { LocomoMissingError, loadLocomo, SPLITS, type Conversation, type Question, type Split } from "./locomo-data";

export type Mode = "keyword" | "semantic" | "hybrid";
export const MODES: readonly Mode[] = ["keyword", "semantic", "hybrid"];
const LIMIT = 50;
const CATEGORY_NAMES: Record<number, string> = {
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
  5: "adversarial",
};

interface Args {
  splits: Split[];
  modes: Mode[];
  data: string;
  model: string;
  json?: string;
  replyShare?: number;
  store?: Store;
}

type Store = "sqlite" | "postgres";

export interface Scores {
  n: number;
  r5: number;
  r10: number;
  mrr: number;
}

interface Scored {
  category: number;
  r5: number;
  r10: number;
  rr: number;
}

export interface ModeResult {
  mode: Mode;
  seconds: number;
  cat14: Scores;
  cat15: Scores;
  perCategory: Record<number, Scores>;
}

const repoRoot = join(import.meta.dir, "..");
const USAGE =
  "usage: bun run eval [--split=dev|test|all] [--modes=keyword,semantic,hybrid] [--data=PATH/locomo10.json] " +
  "[--model=ID] [--json=out.json] [--reply-share=S]";
/** The shared data folder next to a checkout; anywhere else, --data=PATH. */
const DEFAULT_DATA = resolve(repoRoot, "..", "shared", "data", "locomo", "locomo10.json");

function parseArgs(argv: string[]): Args {
  const flags = new Map(
    argv.map((a) => {
      const [k, ...v] = a.replace(/^--/, "").split("=");
      return [k!, v.join("=")] as const;
    }),
  );
  for (const k of flags.keys())
    if (!["split", "modes", "data", "model", "json", "reply-share", "store"].includes(k))
      throw new Error(`unknown flag --${k}`);
  const split = flags.get("split") ?? "all";
  if (!["dev", "test", "all"].includes(split)) throw new Error("--split must be dev, test or all");
  const store = flags.get("store") ?? "sqlite";
  if (store !== "sqlite" && store !== "postgres") throw new Error("--store must be sqlite or postgres");
  const modes = (flags.get("modes") ?? MODES.join(",")).split(",").map((m) => m.trim());
  for (const m of modes)
    if (!(MODES as readonly string[]).includes(m)) throw new Error(`unknown mode '${m}' (keyword, semantic, hybrid)`);
  return {
    splits: split === "all" ? ["dev", "test"] : [split as Split],
    modes: modes as Mode[],
    data: flags.get("data") || DEFAULT_DATA,
    model: flags.get("model") || GLOVE_SIF_MODEL_ID,
    store,
    ...(flags.get("json") ? { json: flags.get("json") } : {}),
    ...(flags.has("reply-share") ? { replyShare: weight(flags.get("reply-share")!, "--reply-share") } : {}),
  };
}

function weight(raw: string, flag: string): number {
  const w = Number(raw);
  if (raw === "" || !Number.isFinite(w) || w < 0) throw new Error(`${flag} must be a number ≥ 0`);
  return w;
}

export type Handle = (req: Request) => Promise<Response>;

export async function post(handle: Handle, path: string, body: unknown): Promise<any> {
  const res = await handle(
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
  const parsed = await res.json();
  if (res.status !== 200) throw new Error(`${path} → ${res.status}: ${JSON.stringify(parsed)}`);
  return parsed;
}

let postgres: Promise<PgServer> | null = null;

/** A fresh store: in memory for SQLite; on PostgreSQL a new database (the app's role; migrations as owner). */
async function freshStore(store: Store): Promise<{ options: Record<string, string>; drop(): Promise<void> }> {
  if (store === "sqlite") return { options: { storeUrl: "sqlite::memory:" }, drop: async () => {} };
  postgres ??= startPostgres();
  const db = await (await postgres).createDatabase("engram_eval");
  return { options: { storeUrl: db.url, storeMigrationUrl: db.ownerUrl }, drop: () => db.drop() };
}

/** A fresh server; keyword mode has no embedder, the other two the configured model. */
export async function startEngine(
  mode: Mode,
  args: Pick<Args, "model" | "replyShare" | "store">,
): Promise<{ engine: Engine; handle: Handle; drop(): Promise<void> }> {
  const model = args.model;
  const store = await freshStore(args.store ?? "sqlite");
  const config = loadConfig({ options: { ...store.options, logLevel: "error" }, env: process.env });
  let embedder: TransformersEmbedder | null = null;
  if (mode !== "keyword") {
    if (model === GLOVE_SIF_MODEL_ID) await ensureBuiltinModel(config.modelsDir);
    embedder = new TransformersEmbedder({
      modelId: model,
      modelsDir: config.modelsDir,
      allowRemote: model !== GLOVE_SIF_MODEL_ID,
    });
  }
  const searchTuning = {
    vectorOnly: mode === "semantic",
    ...(args.replyShare !== undefined ? { replyShare: args.replyShare } : {}),
  };
  const engine = await buildServices(config, { embedder, logger: silentLogger(), searchTuning });
  if (mode !== "keyword" && engine.search.status().semantic !== "ready")
    throw new Error(`model ${model} did not load: ${engine.search.status().error}`);
  return { engine, handle: createApp(engine).handle as Handle, drop: store.drop };
}

/** One memory per dialog turn, one request each (the protocol: `memory`, not batched `messages`). */
async function ingest(handle: Handle, conv: Conversation): Promise<void> {
  for (const t of conv.turns) {
    await post(handle, "/add_memories", {
      user_id: conv.sampleId,
      memory: t.text,
      metadata: { dia_id: t.diaId, session: t.session, date_time: t.dateTime },
    });
  }
}

async function score(handle: Handle, userId: string, q: Question): Promise<Scored> {
  const { results } = (await post(handle, "/search_memory", { user_id: userId, query: q.question, limit: LIMIT })) as {
    results: { metadata: { dia_id: string } }[];
  };
  const ids = results.map((r) => r.metadata.dia_id);
  const gold = new Set(q.gold);
  const recall = (k: number) => ids.slice(0, k).filter((id) => gold.has(id)).length / gold.size;
  const first = ids.findIndex((id) => gold.has(id));
  return { category: q.category, r5: recall(5), r10: recall(10), rr: first < 0 ? 0 : 1 / (first + 1) };
}

function average(rows: Scored[]): Scores {
  const mean = (f: (s: Scored) => number) => (rows.length ? rows.reduce((a, s) => a + f(s), 0) / rows.length : 0);
  return { n: rows.length, r5: mean((s) => s.r5), r10: mean((s) => s.r10), mrr: mean((s) => s.rr) };
}

async function runMode(mode: Mode, convs: Conversation[], args: Args): Promise<ModeResult> {
  const started = performance.now();
  const { engine, handle, drop } = await startEngine(mode, args);
  const scored: Scored[] = [];
  try {
    for (const conv of convs) {
      await ingest(handle, conv);
      for (const q of conv.questions) scored.push(await score(handle, conv.sampleId, q));
    }
  } finally {
    await engine.close();
    await drop();
  }
  const perCategory: Record<number, Scores> = {};
  for (const c of [1, 2, 3, 4, 5]) perCategory[c] = average(scored.filter((s) => s.category === c));
  return {
    mode,
    seconds: (performance.now() - started) / 1000,
    perCategory,
    cat14: average(scored.filter((s) => s.category <= 4)),
    cat15: average(scored),
  };
}

const pct = (x: number) => (100 * x).toFixed(1);

function summaryTable(split: Split, results: ModeResult[]): string {
  const head = `| ${split} | R@5 (1–4) | R@10 (1–4) | MRR (1–4) | R@5 (1–5) | R@10 (1–5) | MRR (1–5) | time |\n|---|---|---|---|---|---|---|---|`;
  const rows = results.map(
    (r) =>
      `| ${r.mode} | ${pct(r.cat14.r5)} | ${pct(r.cat14.r10)} | ${pct(r.cat14.mrr)} | ${pct(r.cat15.r5)} | ${pct(r.cat15.r10)} | ${pct(r.cat15.mrr)} | ${r.seconds.toFixed(1)} s |`,
  );
  return [head, ...rows].join("\n");
}

function categoryTable(split: Split, results: ModeResult[]): string {
  const head = `| ${split}: category | n | ${results.map((r) => `${r.mode} R@5 / R@10 / MRR`).join(" | ")} |\n|---|---|${results.map(() => "---|").join("")}`;
  const rows = [1, 2, 3, 4, 5].map((c) => {
    const cells = results.map((r) => {
      const s = r.perCategory[c]!;
      return `${pct(s.r5)} / ${pct(s.r10)} / ${pct(s.mrr)}`;
    });
    return `| ${c} ${CATEGORY_NAMES[c]} | ${results[0]?.perCategory[c]?.n ?? 0} | ${cells.join(" | ")} |`;
  });
  return [head, ...rows].join("\n");
}

function runInfo(args: Args): Record<string, unknown> {
  const commit = Bun.spawnSync(["git", "rev-parse", "--short", "HEAD"], { cwd: repoRoot }).stdout.toString().trim();
  const dirty =
    Bun.spawnSync(["git", "status", "--porcelain", "src"], { cwd: repoRoot }).stdout.toString().trim() !== "";
  const tuning = args.replyShare !== undefined ? { replyShare: args.replyShare } : {};
  return {
    commit: commit + (dirty ? "+dirty" : ""),
    machine: `${cpus().length}× ${cpus()[0]?.model ?? "?"}`,
    bun: Bun.version,
    store: args.store ?? "sqlite",
    model: args.model,
    limit: LIMIT,
    ...tuning,
    date: new Date().toISOString(),
  };
}

async function main(): Promise<void> {
  const args = (() => {
    try {
      return parseArgs(Bun.argv.slice(2));
    } catch (e) {
      console.error(`${(e as Error).message}\n${USAGE}`);
      process.exit(2);
    }
  })();
  const all = await loadLocomo(args.data, DEFAULT_DATA).catch((e: unknown) => {
    if (!(e instanceof LocomoMissingError)) throw e;
    console.error(e.message);
    process.exit(2);
  });
  const info = runInfo(args);
  console.log(
    `# LoCoMo retrieval eval\n\n${Object.entries(info)
      .map(([k, v]) => `${k}: ${v}`)
      .join(" · ")}\n`,
  );
  const fixes = all.flatMap((c) => c.fixes.map((f) => `${c.sampleId}: ${f}`));
  console.log(`Evidence normalised (${fixes.length}):\n${fixes.map((f) => `- ${f}`).join("\n")}\n`);
  const out: Record<string, ModeResult[]> = {};
  for (const split of args.splits) {
    const convs = all.filter((c) => SPLITS[split].includes(c.sampleId));
    const results: ModeResult[] = [];
    for (const mode of args.modes) results.push(await runMode(mode, convs, args));
    out[split] = results;
    const turns = convs.reduce((a, c) => a + c.turns.length, 0);
    const questions = convs.reduce((a, c) => a + c.questions.length, 0);
    console.log(`## ${split}: ${convs.map((c) => c.sampleId).join(", ")} (${turns} turns, ${questions} questions)\n`);
    console.log(`${summaryTable(split, results)}\n\n${categoryTable(split, results)}\n`);
  }
  if (args.json) await Bun.write(args.json, JSON.stringify({ ...info, results: out }, null, 2));
}

/** Stops the throwaway PostgreSQL, if a run started one. */
async function stopPostgres(): Promise<void> {
  const server = postgres;
  postgres = null;
  if (server) await (await server).stop();
}

if (import.meta.main) {
  await main();
  await stopPostgres();
}
