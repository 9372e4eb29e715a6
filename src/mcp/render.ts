// Plain-text renderings of tool results, for clients and models that read `content` rather than
// `structuredContent`: short, numbered, with ids so a follow-up call can name a memory.
import type { FindEntitiesResponse, TraverseResponse } from "~/graph/graph.schema";
import type { Static } from "@sinclair/typebox";
import type {
  AddResponse,
  DeleteResponse,
  ListResponse,
  MemoryRef,
  MemoryResponse,
  PromoteResponse,
  SearchResponse,
  SupersedeResponse,
} from "~/memory/memory.schema";
import type { SpaceListResponse } from "~/spaces/spaces.schema";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** ", superseded by X" on an older value a model must not take for the current one. */
const replaced = (r: { superseded_by?: string }) => (r.superseded_by ? `, superseded by ${r.superseded_by}` : "");
/** ", space X" on a shared space's memory (a search or listing across spaces). */
const inSpace = (r: { space_id?: string | null }) => (r.space_id ? `, space ${r.space_id}` : "");
/** Keeps a multi-line memory inside its numbered item. */
const indent = (text: string) => text.replace(/\n/g, "\n   ");

export function renderAdded(out: Static<typeof AddResponse>): string {
  const n = out.memory_ids.length;
  const dup = out.deduplicated?.length ? ` Already stored, not repeated: ${out.deduplicated.join(", ")}.` : "";
  const sup = out.superseded?.length
    ? ` Superseded (older values of the same facts): ${out.superseded.join(", ")}.`
    : "";
  return `Stored ${plural(n, "memory", "memories")} (${n === 1 ? "id" : "ids"}: ${out.memory_ids.join(", ")}).${dup}${sup}`;
}

export function renderSuperseded(out: SupersedeResponse): string {
  const how = out.deduplicated ? "an existing memory with that text now supersedes" : "it supersedes";
  return `${renderMemory(out)}
This is the current memory; ${how} ${(out.supersedes ?? []).join(", ")}.`;
}

export function renderSearch(out: SearchResponse): string {
  if (!out.results.length) return "No matching memories.";
  const lines = out.results.map(
    (r, i) => `${i + 1}. ${indent(r.memory)} (score ${r.score.toFixed(3)}, id ${r.id}${inSpace(r)}${replaced(r)})`,
  );
  return [`Found ${plural(out.results.length, "memory", "memories")}, best first:`, ...lines].join("\n");
}

export function renderList(out: ListResponse): string {
  if (!out.results.length)
    return out.total ? `No more memories (${out.total} in total).` : "No memories stored for this user.";
  const lines = out.results.map(
    (r, i) => `${i + 1}. ${indent(r.memory)} (id ${r.id}, ${r.created_at}${inSpace(r)}${replaced(r)})`,
  );
  const head = `Showing ${out.results.length} of ${plural(out.total, "memory", "memories")}, newest first:`;
  const more = out.next_cursor ? [`More: call list_memories again with cursor "${out.next_cursor}".`] : [];
  return [head, ...lines, ...more].join("\n");
}

export function renderMemory(out: MemoryResponse): string {
  const head = `Memory ${out.id} (version ${out.version}, agent ${out.agent_id}${out.session_id ? `, session ${out.session_id}` : ""}${inSpace(out)}, updated ${out.updated_at}):`;
  const meta = Object.keys(out.metadata).length ? [`metadata: ${JSON.stringify(out.metadata)}`] : [];
  return [head, out.memory, ...meta].join("\n");
}

export function renderDeleted(_out: DeleteResponse, input: MemoryRef): string {
  return `Deleted memory ${input.memory_id}.`;
}

export function renderDeletedAll(out: DeleteResponse): string {
  const retained = Object.entries(out.retained ?? {}).filter(([, n]) => n > 0);
  const kept = retained.length
    ? ` Kept by retention policy: ${retained.map(([layer, n]) => `${layer} ${n}`).join(", ")}.`
    : "";
  return `Deleted ${plural(out.deleted_count, "memory", "memories")}.${kept}`;
}

export function renderTraverse(out: Static<typeof TraverseResponse>): string {
  if (out.entities.length <= 1) return "No entity is connected to the start within max_depth.";
  const lines = out.entities.map((e) => `${"  ".repeat(e.depth)}- ${e.name} (${e.type}/${e.id}, depth ${e.depth})`);
  const rels = out.relationships.map((r) => `${r.from.type}/${r.from.id} -${r.type}-> ${r.to.type}/${r.to.id}`);
  return [`Reached ${out.entities.length - 1} entities:`, ...lines, "", "Relationships:", ...rels].join("\n");
}

export function renderEntities(out: Static<typeof FindEntitiesResponse>): string {
  if (!out.results.length) return "No entity matches.";
  const lines = out.results.map((e, i) => `${i + 1}. ${e.name} (type ${e.type}, id ${e.id})`);
  const head = `Found ${plural(out.results.length, "entity", "entities")}; start graph_traverse at {type, id}:`;
  return [head, ...lines].join("\n");
}

export function renderPromoted(out: PromoteResponse): string {
  const how = out.deduplicated ? "the space already held it as" : "copied as";
  return `Shared memory ${out.promoted_from} with space '${out.space_id}': ${how} ${out.id}.`;
}

export function renderSpaces(out: SpaceListResponse): string {
  if (!out.spaces.length) return "This user belongs to no shared space.";
  const lines = out.spaces.map((s, i) => `${i + 1}. ${s.space_id} (${s.name}): ${plural(s.members.length, "member")}`);
  return ["Shared spaces (pass space_id to add_memories, or include_shared: true to search_memory):", ...lines].join(
    "\n",
  );
}
