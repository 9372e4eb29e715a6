// `engram import --from openmemory FILE`: moves an OpenMemory or mem0 export into the store, each
// memory under its user and app (agent), keeping its created_at, updated_at and metadata. A second
// run skips what the first imported (metadata.openmemory_id); --dry-run reads and reports only.
import type { Config } from "~/config/config.schema";
import { buildServices, type Engine } from "~/main";
import { AppError } from "~/shared/errors";
import type { readOpenMemoryExport, ImportRecord } from "~/memory/openmemory-export";
import { EXIT } from "./exit-codes";
import { userScopeOf } from "~/shared/principal";

export const IMPORT_SOURCES = ["openmemory"] as const;
export const IMPORT_USAGE = "usage: engram import --from openmemory FILE [--user-id=ID] [--dry-run] [--store-url=…]";

export interface ImportArgs {
  from: string;
  file: string;
  dryRun: boolean;
  /** What is left for the shared settings (--store-url, --user-id, …). */
  rest: string[];
}

/** Takes the command's own arguments out of argv: `--from X` or `--from=X`, `--dry-run` and the file. */
export function parseImportArgs(argv: string[]): ImportArgs | string {
  const rest: string[] = [];
  let from: string | undefined;
  let file: string | undefined;
  let dryRun = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--from") from = argv[++i];
    else if (a.startsWith("--from=")) from = a.slice(7);
    else if (a === "--dry-run") dryRun = true;
    else if (a.startsWith("-")) rest.push(a);
    else if (file === undefined) file = a;
    else return `one file at a time (got '${file}' and '${a}')`;
  }
  if (!from || !(IMPORT_SOURCES as readonly string[]).includes(from))
    return `--from must be one of: ${IMPORT_SOURCES.join(", ")}`;
  if (!file) return "the export file is missing";
  return { from, file, dryRun, rest };
}

export async function importCommand(config: Config, a: ImportArgs): Promise<number> {
  const file = Bun.file(a.file);
  if (!(await file.exists())) {
    console.error(`engram: cannot read '${a.file}': no such file`);
    return EXIT.USAGE;
  }
  // Loaded here, not with the CLI: the reader needs node:zlib (~10 ms), which `engram serve` never does.
  const [{ ExportFormatError, readOpenMemoryExport }, { ZipError }] = await Promise.all([
    import("~/memory/openmemory-export"),
    import("~/shared/zip"),
  ]);
  let parsed: ReturnType<typeof readOpenMemoryExport>;
  try {
    parsed = readOpenMemoryExport(await file.bytes(), { userId: config.userId, now: Date.now() });
  } catch (e) {
    if (!(e instanceof ExportFormatError || e instanceof ZipError)) throw e;
    console.error(`engram: ${a.file}: ${e.message}`);
    return EXIT.USAGE;
  }
  console.log(`${a.file}: ${parsed.format}, ${count(parsed.records.length)} to import${skippedText(parsed.skipped)}`);
  if (a.dryRun) {
    for (const [key, n] of Object.entries(tally(parsed.records))) console.log(`  ${key}: ${n}`);
    return EXIT.OK;
  }
  const engine = await buildServices(config);
  try {
    return await write(engine, parsed.records);
  } finally {
    await engine.close();
  }
}

async function write(engine: Engine, records: ImportRecord[]): Promise<number> {
  const done = new Map<string, Set<string>>();
  let imported = 0;
  let again = 0;
  const failed: string[] = [];
  for (const r of records) {
    const seen = done.get(r.userId) ?? done.set(r.userId, await importedIds(engine, r.userId)).get(r.userId)!;
    if (seen.has(r.sourceId)) {
      again++;
      continue;
    }
    try {
      // The operator imports for each user of the store's organization.
      const scope = userScopeOf(engine.config.orgId, r.userId);
      const input = { memory: r.text, agent_id: r.agentId, metadata: r.metadata };
      await engine.memory.add(scope, input, { createdAt: r.createdAt, updatedAt: r.updatedAt });
      seen.add(r.sourceId);
      imported++;
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      failed.push(`${r.sourceId || "(no id)"}: ${e.message}${e.field ? ` (${e.field})` : ""}`);
    }
  }
  console.log(`imported ${count(imported)}${again ? `; ${again} already imported, skipped` : ""}`);
  for (const f of failed) console.error(`engram: not imported: ${f}`);
  return failed.length ? EXIT.FAILURE : EXIT.OK;
}

/** The export ids already in the store for this user (every page of list_memories). */
async function importedIds(engine: Engine, userId: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let cursor: string | undefined; ; ) {
    const page = await engine.memory.list(userScopeOf(engine.config.orgId, userId), {
      limit: 1000,
      ...(cursor ? { cursor } : {}),
    });
    for (const m of page.results) if (typeof m.metadata.openmemory_id === "string") ids.add(m.metadata.openmemory_id);
    if (!page.next_cursor) return ids;
    cursor = page.next_cursor;
  }
}

const count = (n: number) => `${n} ${n === 1 ? "memory" : "memories"}`;
const skippedText = (skipped: Record<string, number>) => {
  const parts = Object.entries(skipped).map(([why, n]) => `${n} ${why}`);
  return parts.length ? `; left out: ${parts.join(", ")}` : "";
};
const tally = (records: ImportRecord[]) => {
  const out: Record<string, number> = {};
  for (const r of records)
    out[`user ${r.userId}, agent ${r.agentId}`] = (out[`user ${r.userId}, agent ${r.agentId}`] ?? 0) + 1;
  return out;
};
