// What `engram import --from openmemory` reads (SPEC §7 migration): OpenMemory's export zip
// (POST /api/v1/backup/export: memories.json with the user, apps, categories and memory rows, and
// memories.jsonl.gz with one record per memory), either file on its own, and mem0's export
// (Memory.get_all(): {results: [{id, memory, user_id, agent_id?, metadata?, created_at, …}]}).
// Pure: bytes in, memories to store out; the command writes them.
import { gunzipSync } from "node:zlib";
import { isZip, readZip } from "~/shared/zip";

/** The agent imported memories are filed under when the export names no app or agent. */
export const IMPORT_AGENT = "openmemory";

export interface ImportRecord {
  /** The export's id, kept as metadata.openmemory_id (a second import skips it). */
  sourceId: string;
  userId: string;
  agentId: string;
  text: string;
  metadata: Record<string, unknown>;
  createdAt?: number;
  updatedAt?: number;
}

export interface ParsedExport {
  /** What was read, for the report: e.g. "OpenMemory export zip (memories.json)". */
  format: string;
  records: ImportRecord[];
  /** Memories left out, by reason: OpenMemory states other than active, mem0's expired, empty. */
  skipped: Record<string, number>;
}

export class ExportFormatError extends Error {}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" && v.trim() ? v : undefined);
const GZIP = (b: Uint8Array) => b.length > 2 && b[0] === 0x1f && b[1] === 0x8b;

/** `userId` (--user-id) files every memory under that user instead of the export's. */
export function readOpenMemoryExport(bytes: Uint8Array, o: { userId?: string; now: number }): ParsedExport {
  if (isZip(bytes)) {
    const files = readZip(bytes);
    const find = (name: string) => [...files.keys()].find((k) => k.split("/").at(-1) === name);
    const rows = find("memories.json");
    if (rows) return fromJson(parseJson(files.get(rows)!, rows), o, "OpenMemory export zip (memories.json)");
    const lines = find("memories.jsonl.gz");
    if (lines) return fromLines(gunzipSync(files.get(lines)!), o, "OpenMemory export zip (memories.jsonl.gz)");
    throw new ExportFormatError(
      "the zip holds neither memories.json nor memories.jsonl.gz: is it OpenMemory's export?",
    );
  }
  if (GZIP(bytes)) return fromLines(gunzipSync(bytes), o, "OpenMemory memories.jsonl.gz");
  const text = new TextDecoder().decode(bytes).trim();
  try {
    return fromJson(JSON.parse(text), o);
  } catch (e) {
    if (e instanceof ExportFormatError || !text.includes("\n")) throw asFormatError(e);
    return fromLines(bytes, o, "JSON lines");
  }
}

function fromJson(data: unknown, o: { userId?: string; now: number }, format?: string): ParsedExport {
  if (isObject(data) && Array.isArray(data.memories)) return fromRows(data, o, format ?? "OpenMemory memories.json");
  const items = isObject(data) && Array.isArray(data.results) ? data.results : Array.isArray(data) ? data : null;
  if (items) return fromItems(items, o, format ?? "mem0 export (get_all results)");
  throw new ExportFormatError(
    "not an OpenMemory or mem0 export: expected OpenMemory's zip, memories.json ({user, memories}), " +
      "memories.jsonl.gz, or mem0's {results: [...]}",
  );
}

/** One JSON object per line: OpenMemory's logical records ({content, app, …}) or mem0 items ({memory, …}). */
function fromLines(bytes: Uint8Array, o: { userId?: string; now: number }, format: string): ParsedExport {
  const items = new TextDecoder()
    .decode(bytes)
    .split("\n")
    .filter((l) => l.trim())
    .map((line, i) => parseJson(line, `line ${i + 1}`));
  return fromItems(items, o, format);
}

/** memories.json: the rows of OpenMemory's database, with the user, apps and categories beside them. */
function fromRows(data: Json, o: { userId?: string }, format: string): ParsedExport {
  const userId = o.userId ?? str(isObject(data.user) ? data.user.user_id : undefined);
  if (!userId) throw new ExportFormatError("memories.json names no user (user.user_id): pass --user-id=");
  const names = (list: unknown) =>
    new Map((Array.isArray(list) ? list : []).filter(isObject).map((x) => [x.id, str(x.name)] as const));
  const apps = names(data.apps);
  const categories = names(data.categories);
  const out = collector(format);
  for (const m of (data.memories as unknown[]).filter(isObject)) {
    const cats = (Array.isArray(m.category_ids) ? m.category_ids : []).map((id) => categories.get(id));
    out.add(m.state, {
      sourceId: String(m.id ?? ""),
      userId,
      agentId: apps.get(m.app_id) ?? IMPORT_AGENT,
      text: str(m.content),
      metadata: provenance(m.metadata, m.id, cats),
      createdAt: time(m.created_at),
      updatedAt: time(m.updated_at),
    });
  }
  return out.result;
}

/** memories.jsonl.gz records ({id, content, metadata, state, app, categories, …}) and mem0 items. */
function fromItems(items: unknown[], o: { userId?: string; now: number }, format: string): ParsedExport {
  const out = collector(format);
  for (const [i, item] of items.entries()) {
    if (!isObject(item)) throw new ExportFormatError(`record ${i + 1} is not a JSON object`);
    const userId = o.userId ?? str(item.user_id);
    if (!userId) throw new ExportFormatError(`record ${i + 1} names no user_id: pass --user-id=`);
    const mem0 = "memory" in item;
    const metadata = provenance(mem0 ? mem0Metadata(item) : item.metadata, item.id, item.categories);
    const expiry = mem0 ? expiresAt(item.expiration_date) : undefined;
    if (expiry !== undefined) Object.assign(metadata, { temporary: true, expiresAt: expiry });
    out.add(expiry !== undefined && expiry <= o.now ? "expired" : item.state, {
      sourceId: String(item.id ?? ""),
      userId,
      agentId: str(mem0 ? item.agent_id : item.app) ?? IMPORT_AGENT,
      text: str(mem0 ? item.memory : item.content),
      metadata,
      createdAt: time(item.created_at),
      updatedAt: time(item.updated_at),
    });
  }
  return out.result;
}

/** mem0 lifts these payload keys out of metadata; Engram keeps them in it (run_id is not a session here). */
function mem0Metadata(item: Json): Json {
  const lifted = Object.fromEntries(
    ["run_id", "actor_id", "role"].filter((k) => item[k] !== undefined).map((k) => [k, item[k]]),
  );
  return { ...(isObject(item.metadata) ? item.metadata : {}), ...lifted };
}

/** Active memories are kept; OpenMemory's archived, paused and deleted ones (hidden from its clients) are counted. */
function collector(format: string) {
  const result: ParsedExport = { format, records: [], skipped: {} };
  const skip = (why: string) => (result.skipped[why] = (result.skipped[why] ?? 0) + 1);
  return {
    result,
    add(state: unknown, r: Omit<ImportRecord, "text"> & { text: string | undefined }) {
      const s = state === undefined || state === null ? "active" : String(state);
      if (s !== "active") return skip(s);
      if (r.text === undefined) return skip("empty");
      result.records.push(r as ImportRecord);
    },
  };
}

function provenance(metadata: unknown, id: unknown, categories: unknown): Json {
  const out: Json = isObject(metadata) ? { ...metadata } : {};
  const names = (Array.isArray(categories) ? categories : []).filter((c): c is string => typeof c === "string");
  if (names.length && out.categories === undefined) out.categories = names;
  if (id !== undefined && id !== null) out.openmemory_id = String(id);
  return out;
}

/** ISO 8601 as epoch ms; Python's naive datetimes (no offset) are UTC, as OpenMemory wrote them. */
export function time(v: unknown): number | undefined {
  if (typeof v !== "string" || !v.trim()) return undefined;
  const t = Date.parse(/(?:[zZ]|[+-]\d\d:?\d\d)$/.test(v.trim()) ? v : `${v.trim()}Z`);
  return Number.isFinite(t) ? t : undefined;
}

/** mem0's expiration_date ("YYYY-MM-DD"): the memory ends at the start of that day, UTC. */
const expiresAt = (v: unknown) => (typeof v === "string" ? time(v.length === 10 ? `${v}T00:00:00Z` : v) : undefined);

function parseJson(input: Uint8Array | string, where: string): unknown {
  try {
    return JSON.parse(typeof input === "string" ? input : new TextDecoder().decode(input));
  } catch (e) {
    throw new ExportFormatError(`${where} is not valid JSON (${(e as Error).message})`);
  }
}

const asFormatError = (e: unknown) =>
  e instanceof ExportFormatError ? e : new ExportFormatError(`not valid JSON (${(e as Error).message})`);
