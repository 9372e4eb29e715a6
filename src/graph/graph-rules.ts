// Rules every GraphStore shares, written once so SQLite and Neo4j cannot drift: property
// merging, traversal argument checks, which relationships a traversal returns, ordering.
import { AppError, validationError } from "~/shared/errors";
import type { Edge, Entity, EntityInput, EntityRef, TraverseOptions, UpsertMode } from "./graph-store";
import { DEFAULT_TRAVERSE_LIMIT, MAX_TRAVERSE_DEPTH, MAX_TRAVERSE_LIMIT } from "./graph.schema";

export type Props = Record<string, unknown>;

const isObject = (v: unknown): v is Props => typeof v === "object" && v !== null && !Array.isArray(v);

/** RFC 7396 JSON merge patch: objects merge recursively, null removes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Props = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** Stored properties after an upsert that may carry a patch. */
export const mergeProps = (base: Props, patch: Props | undefined): Props =>
  patch ? (mergePatch(base, patch) as Props) : base;

/**
 * The entity an upsert stores given what exists; null = leave the stored one as it is.
 * Patching even a new entity drops null-valued keys, so creation and update agree.
 */
export function nextEntity(existing: Entity | undefined, input: EntityInput, mode: UpsertMode): Entity | null {
  if (existing && mode === "ifMissing") return null;
  const properties = mergeProps(existing?.properties ?? {}, input.properties);
  const name = input.name ?? existing?.name ?? input.id;
  return { type: input.type, id: input.id, name, properties };
}

export const entityKey = (ref: EntityRef): string => `${ref.type}\u0000${ref.id}`;

export interface CheckedTraverse {
  maxDepth: number;
  limit: number;
  /** null = follow every relationship name. */
  types: string[] | null;
}

/** Validates what the stores interpolate or bound on; the HTTP schema checks the same earlier. */
export function checkTraverse(o: TraverseOptions): CheckedTraverse {
  if (!Number.isInteger(o.maxDepth) || o.maxDepth < 1 || o.maxDepth > MAX_TRAVERSE_DEPTH) {
    throw validationError("max_depth", `max_depth must be an integer from 1 to ${MAX_TRAVERSE_DEPTH}`);
  }
  const limit = o.limit ?? DEFAULT_TRAVERSE_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_TRAVERSE_LIMIT) {
    throw validationError("limit", `limit must be an integer from 1 to ${MAX_TRAVERSE_LIMIT}`);
  }
  if (o.direction !== "out" && o.direction !== "in" && o.direction !== "both") {
    throw validationError("direction", "direction must be one of out, in, both");
  }
  const types = o.relationships && o.relationships.length > 0 ? [...new Set(o.relationships)] : null;
  return { maxDepth: o.maxDepth, limit, types };
}

/**
 * Iterative deepening for traversals: walks to depth 1, 2, … and stops as soon as `limit`
 * entities are within reach (the first `limit` by depth, type, id cannot change deeper) or
 * a deeper walk reaches nobody new. Without it a depth-10 walk over a connected graph of
 * 100k entities visits all of them, many times over, to return 100.
 */
export async function deepen<T>(
  maxDepth: number,
  limit: number,
  walk: (depth: number) => Promise<T[]> | T[],
): Promise<T[]> {
  let rows: T[] = [];
  for (let depth = 1; depth <= maxDepth; depth++) {
    const before = rows.length;
    rows = await walk(depth);
    if (rows.length >= limit || rows.length === before) break;
  }
  return rows;
}

export const startNotFound = (start: EntityRef): AppError =>
  new AppError("NOT_FOUND", `entity '${start.type}/${start.id}' not found`, "start");

/** Code-point order, the same in JS, SQLite (BINARY) and Cypher for the strings we store. */
export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Keeps the candidate relationships a traversal returns: both ends returned, the name
 * followed, and walkable in `direction` from an end whose depth is below maxDepth (so the
 * relationship lies on a walk of at most maxDepth steps). Sorted and de-duplicated.
 */
export function selectEdges(
  depths: ReadonlyMap<string, number>,
  candidates: Edge[],
  direction: TraverseOptions["direction"],
  maxDepth: number,
  types: string[] | null,
): Edge[] {
  const seen = new Set<string>();
  const out: Edge[] = [];
  for (const e of candidates) {
    const df = depths.get(entityKey(e.from));
    const dt = depths.get(entityKey(e.to));
    if (df === undefined || dt === undefined) continue;
    if (types && !types.includes(e.type)) continue;
    const walkable =
      direction === "out" ? df < maxDepth : direction === "in" ? dt < maxDepth : Math.min(df, dt) < maxDepth;
    const key = `${entityKey(e.from)}\u0001${e.type}\u0001${entityKey(e.to)}`;
    if (!walkable || seen.has(key)) continue;
    seen.add(key);
    out.push(e);
  }
  return out.sort(compareEdges);
}

const compareEdges = (a: Edge, b: Edge): number =>
  cmp(a.from.type, b.from.type) ||
  cmp(a.from.id, b.from.id) ||
  cmp(a.type, b.type) ||
  cmp(a.to.type, b.to.type) ||
  cmp(a.to.id, b.to.id);

/** Properties are stored as JSON text in both stores; anything unreadable reads as {}. */
export function parseProps(text: unknown): Props {
  if (typeof text !== "string") return {};
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : {};
  } catch {
    return {};
  }
}
