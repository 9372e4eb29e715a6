// The MCP tool table: one entry per HTTP endpoint (same name, except graph_search for GET
// /graph/entities), same TypeBox input and output schemas, the service call and a readable
// rendering. Descriptions are written for a model that reads nothing else. Adding a tool is adding one entry.
import type { Static, TObject } from "@sinclair/typebox";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { Services } from "~/services";
import type { UserScope } from "~/shared/principal";
import { ACCESS } from "~/identity/access";
import {
  DEFAULT_AGENT,
  AddMemoriesInput,
  AddResponse,
  DeleteAllInput,
  DeleteResponse,
  SpaceMemoryRef,
  ListMemoriesInput,
  ListResponse,
  MemoryResponse,
  PromoteMemoryInput,
  PromoteResponse,
  SearchMemoryInput,
  SearchResponse,
  SupersedeMemoryInput,
  SupersedeResponse,
  UpdateMemoryInput,
} from "~/memory/memory.schema";
import { FindEntitiesQuery, FindEntitiesResponse, TraverseBody, TraverseResponse } from "~/graph/graph.schema";
import {
  renderTraverse,
  renderEntities,
  renderAdded,
  renderDeleted,
  renderDeletedAll,
  renderList,
  renderMemory,
  renderSearch,
  renderSuperseded,
  renderPromoted,
  renderSpaces,
} from "./render";
import { ListSpacesInput, SpaceListResponse } from "~/spaces/spaces.schema";

export interface ToolDef<I extends TObject = TObject, O extends TObject = TObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  /** The HTTP response schema: structuredContent is exactly the HTTP body. */
  output: O;
  annotations: ToolAnnotations;
  /** A write whose missing agent_id the connection may fill in (OpenMemory: the client name). */
  agentDefault?: true;
  /** Who may call it (SPEC §8), as for the HTTP endpoint it mirrors. */
  access: typeof ACCESS.userRead | typeof ACCESS.userWrite;
  /** `scope`: the user (and agent) the access rule resolved for the connection's principal. */
  run(s: Services, scope: UserScope, input: Static<I>): Static<O> | Promise<Static<O>>;
  /** The text content: what a model reads when it ignores structuredContent. */
  render(out: Static<O>, input: Static<I>): string;
}

/** Erases the per-tool types once they have been checked, so the entries fit one array. */
const tool = <I extends TObject, O extends TObject>(d: ToolDef<I, O>): ToolDef => d as unknown as ToolDef;

// The memory store is a closed world, and most tools change it without destroying anything;
// the MCP defaults (openWorld and destructive true) would make clients over-cautious.
const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
const ADDITIVE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
const DESTRUCTIVE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};

export const TOOLS: readonly ToolDef[] = [
  tool({
    name: "add_memories",
    title: "Add memories",
    description:
      "Remember something about the user for later, in this and every other AI tool they connect to Engram: facts, " +
      "preferences, decisions, plans. Give either `memory` (one self-contained statement, stored verbatim, e.g. " +
      "'Alice is vegetarian') or `messages` (a conversation; each non-empty message becomes its own memory). " +
      `Without agent_id the memory is filed under agent '${DEFAULT_AGENT}'; every search still finds it. ` +
      "Leave session_id out for lasting facts: a memory written with a session_id is found only by searches that " +
      "pass the same session_id. A new value of a fact already stored ('I moved to Lisbon' after 'I live in Berlin') " +
      "supersedes the old memory by itself (its id is in `superseded`); to replace one memory you can name, use " +
      "supersede_memory. Text already stored for this user, agent and session (ignoring case, spaces and punctuation) " +
      "is not stored twice: its existing id comes back and is listed in `deduplicated`. Returns the memory ids.",
    input: AddMemoriesInput,
    output: AddResponse,
    annotations: { ...ADDITIVE, title: "Add memories" },
    agentDefault: true,
    access: ACCESS.userWrite,
    run: (s, scope, input) => s.shared.add(scope, input),
    render: renderAdded,
  }),
  tool({
    name: "search_memory",
    title: "Search memory",
    description:
      "Find the user's memories that answer a question or concern a topic, by meaning and by keywords, best first. " +
      "Call it before answering anything that may depend on what the user said earlier (preferences, facts, plans, " +
      "people). It covers the memories of all the user's agents unless agent_id names one. Without session_id it " +
      "sees only memories stored without a session; with session_id, only that session's. `metadata` is a filter " +
      "(every key must match; an array such as tags must be contained), not text to search. Each result has an id " +
      "and a score in (0, 1]: the same score means the same strength of match in any query, and a low best score " +
      "means nothing closely relevant is stored. Older values of a fact that a newer memory superseded are left out " +
      "(the newer one answers for them); include_superseded: true shows them too, each with superseded_by.",
    input: SearchMemoryInput,
    output: SearchResponse,
    annotations: { ...READ, title: "Search memory" },
    access: ACCESS.userRead,
    run: (s, scope, input) => s.shared.search(scope, input),
    render: renderSearch,
  }),
  tool({
    name: "list_memories",
    title: "List memories",
    description:
      "List the user's memories, newest first, with their ids, agents and sessions: all of them, session-scoped ones " +
      "included, of every agent unless agent_id names one. For browsing or finding an id; to answer a question use " +
      "search_memory. `total` counts them all; when `next_cursor` is not null, pass it as `cursor` for the next page. " +
      "Memories a newer one superseded are left out unless include_superseded: true.",
    input: ListMemoriesInput,
    output: ListResponse,
    annotations: { ...READ, title: "List memories" },
    access: ACCESS.userRead,
    run: (s, scope, input) => s.shared.list(scope, input),
    render: renderList,
  }),
  tool({
    name: "delete_all_memories",
    title: "Delete all memories",
    description:
      "Permanently delete every memory of the user, of every agent and session. Only when the user explicitly asks to " +
      "forget everything; to remove one memory use delete_memory. With cascade: true, also erase the user's " +
      "conversations, records, keys and knowledge graph; what a retention policy must keep stays and is reported as " +
      "`retained`. Cannot be undone.",
    input: DeleteAllInput,
    output: DeleteResponse,
    annotations: { ...DESTRUCTIVE, title: "Delete all memories" },
    access: ACCESS.userWrite,
    run: (s, scope, input) => s.memory.deleteAll(scope, input),
    render: renderDeletedAll,
  }),
  tool({
    name: "get_memory",
    title: "Get memory",
    description:
      "Read one memory by its id (from add_memories, search_memory or list_memories): text, metadata, agent, " +
      "session, version and timestamps. Another user's id, or a deleted one, is NOT_FOUND.",
    input: SpaceMemoryRef,
    output: MemoryResponse,
    annotations: { ...READ, title: "Get memory" },
    access: ACCESS.userRead,
    run: (s, scope, input) => s.shared.get(scope, input),
    render: renderMemory,
  }),
  tool({
    name: "update_memory",
    title: "Update memory",
    description:
      "Correct one memory by id when a fact changed ('moved from Porto to Lisbon'): give the new `memory` text, " +
      "`metadata` keys to change (a key set to null is removed), or both. The previous text is kept as a version " +
      "and `version` goes up; agent and session stay as they were.",
    input: UpdateMemoryInput,
    output: MemoryResponse,
    // Not destructive: the previous text survives as a version.
    annotations: { ...ADDITIVE, title: "Update memory" },
    access: ACCESS.userWrite,
    run: (s, scope, input) => s.shared.update(scope, input),
    render: renderMemory,
  }),
  tool({
    name: "supersede_memory",
    title: "Supersede memory",
    description:
      "Replace one memory by id with the fact as it is now, keeping the old one as history: `memory` (e.g. 'Alice " +
      "lives in Lisbon') is stored as a new memory in the same agent and session, and the old one is marked " +
      "superseded by it, in one step. Searches and lists then leave the old one out (include_superseded: true " +
      "shows it) and the new one's versions list it. Use it when a fact changed; use update_memory to fix a typo. " +
      "A memory already superseded is CONFLICT: supersede its successor (superseded_by) instead.",
    input: SupersedeMemoryInput,
    output: SupersedeResponse,
    // Not destructive: the old memory stays in the store and in the new one's versions.
    annotations: { ...ADDITIVE, title: "Supersede memory" },
    access: ACCESS.userWrite,
    run: (s, scope, { memory_id, user_id: _, ...body }) => s.memory.supersede(scope, { memory_id }, body),
    render: renderSuperseded,
  }),
  tool({
    name: "promote_memory",
    title: "Promote memory",
    description:
      "Share one of the user's memories with a team: copy it by id into a shared space the user writes to " +
      "(space_id, from list_spaces). The copy keeps where it came from in " +
      "metadata.provenance {user_id, agent_id, memory_id}; the user's own memory stays as it is. Members of the " +
      "space then find it with search_memory include_shared: true. A space the user only reads, or does not belong " +
      "to, is FORBIDDEN.",
    input: PromoteMemoryInput,
    output: PromoteResponse,
    annotations: { ...ADDITIVE, title: "Promote memory" },
    access: ACCESS.userWrite,
    run: (s, scope, { memory_id, space_id }) => s.shared.promote(scope, memory_id, { space_id }),
    render: renderPromoted,
  }),
  tool({
    name: "list_spaces",
    title: "List shared spaces",
    description:
      "List the shared spaces of the user's team that the user belongs to, with their members and roles (writers " +
      "may add_memories with space_id and promote_memory into a space; readers only read it). Use a space's " +
      "space_id to write into it, or search_memory / list_memories with include_shared: true to read every " +
      "space at once.",
    input: ListSpacesInput,
    output: SpaceListResponse,
    annotations: { ...READ, title: "List shared spaces" },
    access: ACCESS.userRead,
    run: (s, scope) => s.spaces.list({ org: scope.org, viewer: scope.userId }),
    render: renderSpaces,
  }),
  tool({
    name: "delete_memory",
    title: "Delete memory",
    description:
      "Permanently delete one memory by its id (from search_memory or list_memories), e.g. when the user asks to " +
      "forget that one thing. Cannot be undone.",
    input: SpaceMemoryRef,
    output: DeleteResponse,
    annotations: { ...DESTRUCTIVE, title: "Delete memory" },
    access: ACCESS.userWrite,
    run: (s, scope, input) => s.shared.delete(scope, input),
    render: renderDeleted,
  }),
  tool({
    name: "graph_search",
    title: "Search the graph",
    description:
      "Find entities of the user's knowledge graph by name and/or type, to get the {type, id} that graph_traverse " +
      "needs as its start. Entities (people, places, organizations, technologies, pets, dates) are extracted from " +
      "stored memories, or written with POST /graph/entities. `q` matches any part of the name, in any case; exact " +
      "names come first, then names starting with q. Without q and type, it lists the user's entities by name.",
    input: FindEntitiesQuery,
    output: FindEntitiesResponse,
    annotations: { ...READ, title: "Search the graph" },
    access: ACCESS.userRead,
    run: (s, scope, input) => s.graph.findEntities(scope, input),
    render: renderEntities,
  }),
  tool({
    name: "graph_traverse",
    title: "Traverse the graph",
    description:
      "Explore how one entity of the user's knowledge graph connects to others (who works where, who is whose " +
      "sister, which tools a project uses). `start` takes the entity's type and id exactly as graph_search returns " +
      "them; facts about the user themself start at {type: 'person', id: 'user'}. Follows every relationship name " +
      "unless `relationships` lists some, up to max_depth steps (default 2), in both directions unless direction is " +
      "out or in. Returns the entities reached, each with its depth, and the relationships between them.",
    input: TraverseBody,
    output: TraverseResponse,
    annotations: { ...READ, title: "Traverse the graph" },
    access: ACCESS.userRead,
    run: (s, scope, input) => s.graph.traverse(scope, input),
    render: renderTraverse,
  }),
];

export const findTool = (name: string): ToolDef | undefined => TOOLS.find((t) => t.name === name);
