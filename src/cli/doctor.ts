// `engram doctor` (SPEC §10): what this machine gives Engram — platform, SQLite and whether it loads
// extensions, the vector index that would serve, the embedding model's state, and the store path and
// whether it can be written — found by doing it (a throwaway connection, a real model load), without
// opening the store. Exit 1 when something would stop or degrade `engram serve`.
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { Config } from "~/config/config.schema";
import { connectionOptions, createEmbedder, probePostgres, probeSqlite } from "~/main";
import { isEmbedded } from "~/shared/native-files";
import { VERSION } from "~/version";
import { EXIT } from "./exit-codes";

export interface DoctorReport {
  platform: { os: string; arch: string; bun: string; binary: boolean };
  sqlite: { version: string; library: string; extensionLoading: boolean };
  vectorIndex: { setting: string; inUse: "sqlite-vec" | "portable"; detail: string };
  model: {
    id: string | null;
    state: "ready" | "failed" | "off";
    dimensions?: number;
    error?: string;
    modelsDir: string;
  };
  store: { path: string; exists: boolean; writable: boolean; detail: string };
  problems: string[];
}

export async function diagnose(config: Config): Promise<DoctorReport> {
  const problems: string[] = [];
  const info = await probeSqlite(connectionOptions(config)).catch((e: Error) => {
    problems.push(e.message);
    return null;
  });
  const support = info?.vectors ?? null;
  const model = await modelState(config);
  if (model.state === "failed") problems.push(`embedding model ${model.id} failed to load: ${model.error}`);
  const store = config.storeKind === "postgres" ? await postgresState(config) : storeState(config.storePath);
  if (!store.writable) problems.push(`store ${store.path} cannot be written: ${store.detail}`);
  return {
    platform: { os: process.platform, arch: process.arch, bun: Bun.version, binary: isEmbedded(import.meta.path) },
    sqlite: {
      version: info?.version ?? "unknown",
      library: info ? (info.library.path ?? info.library.note) : "unknown",
      extensionLoading: info?.extensionLoading ?? false,
    },
    vectorIndex: {
      setting: config.vectorIndex,
      inUse: support?.index ?? "portable",
      detail: !support
        ? "the store cannot be opened"
        : support.index === "sqlite-vec"
          ? `sqlite-vec ${support.version}`
          : support.why,
    },
    model: { ...model, modelsDir: config.modelsDir },
    store,
    problems,
  };
}

async function modelState(config: Config): Promise<Omit<DoctorReport["model"], "modelsDir">> {
  const embedder = await createEmbedder(config);
  if (!embedder) return { id: null, state: "off" };
  try {
    await embedder.ready();
    return { id: embedder.modelId, state: "ready", dimensions: embedder.dimensions };
  } catch (e) {
    return { id: embedder.modelId, state: "failed", error: (e as Error).message };
  } finally {
    await embedder.close?.();
  }
}

/** Whether serve could use the database: it answers, the role is not a superuser, pgvector is there. */
async function postgresState(config: Config): Promise<DoctorReport["store"]> {
  const r = await probePostgres(config.storeUrl);
  return { path: config.storePath, exists: r.writable, writable: r.writable, detail: r.detail };
}

/** Whether serve could create or open the store file for writing (and its -wal and -shm beside it). */
export function storeState(path: string): DoctorReport["store"] {
  if (path === ":memory:") return { path, exists: false, writable: true, detail: "in memory: nothing is kept" };
  const exists = existsSync(path);
  let dir = dirname(path);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  try {
    if (!statSync(dir).isDirectory()) throw new Error(`${dir} is not a folder`);
    accessSync(dir, constants.W_OK);
    if (exists) accessSync(path, constants.R_OK | constants.W_OK);
    return { path, exists, writable: true, detail: exists ? "exists" : `will be created (in ${dir})` };
  } catch (e) {
    return { path, exists, writable: false, detail: (e as Error).message };
  }
}

export function render(r: DoctorReport): string {
  const p = r.platform;
  const m = r.model;
  const rows: [string, string][] = [
    ["platform", `${p.os}-${p.arch}, Bun ${p.bun}, ${p.binary ? "binary" : "from source"}`],
    [
      "sqlite",
      `${r.sqlite.version} (${r.sqlite.library}), extension loading: ${r.sqlite.extensionLoading ? "yes" : "no"}`,
    ],
    ["vector index", `${r.vectorIndex.inUse} (ENGRAM_VECTOR_INDEX=${r.vectorIndex.setting}): ${r.vectorIndex.detail}`],
    [
      "model",
      m.state === "off"
        ? "none (keyword search only)"
        : `${m.id}: ${m.state}${m.dimensions ? `, ${m.dimensions} dimensions` : ""}${m.error ? ` (${m.error})` : ""}; models in ${m.modelsDir}`,
    ],
    ["store", `${r.store.path}: ${r.store.writable ? "writable" : "NOT writable"}, ${r.store.detail}`],
  ];
  return [`engram ${VERSION} doctor`, ...rows.map(([k, v]) => `${k.padEnd(14)}${v}`)].join("\n");
}

export async function doctor(config: Config, opts: { json: boolean }): Promise<number> {
  const report = await diagnose(config);
  console.log(opts.json ? JSON.stringify(report, null, 2) : render(report));
  for (const problem of opts.json ? [] : report.problems) console.error(`problem: ${problem}`);
  return report.problems.length ? EXIT.FAILURE : EXIT.OK;
}
