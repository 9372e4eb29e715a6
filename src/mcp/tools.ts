// The MCP tool table: one entry per HTTP endpoint, same name, same TypeBox input and output
// schemas, the service call and a readable rendering. Adding a tool is adding one entry.
import type { Static, TObject } from "@sinclair/typebox";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { Services } from "~/services";
import {
  AddMemoriesInput,
  AddResponse,
  DeleteAllInput,
  DeleteResponse,
  ListMemoriesInput,
  ListResponse,
  MemoryRef,
  MemoryResponse,
  SearchMemoryInput,
  SearchResponse,
  UpdateMemoryInput,
} from "~/memory/memory.schema";
import { TraverseBody, TraverseResponse } from "~/graph/graph.schema";
import {
  renderTraverse,
  renderAdded,
  renderDeleted,
  renderDeletedAll,
  renderList,
  renderMemory,
  renderSearch,
} from "./render";

export interface ToolDef<I extends TObject = TObject, O extends TObject = TObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  /** The HTTP response schema: structuredContent is exactly the HTTP body. */
  output: O;
  annotations: ToolAnnotations;
  run(s: Services, input: Static<I>): Static<O> | Promise<Static<O>>;
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
      "Store something worth remembering about the user: either one `memory` text, or a conversation as `messages` " +
      "(each non-empty message becomes its own memory). Returns the new memory ids.",
    input: AddMemoriesInput,
    output: AddResponse,
    annotations: { ...ADDITIVE, title: "Add memories" },
    run: (s, input) => s.memory.add(input),
    render: renderAdded,
  }),
  tool({
    name: "search_memory",
    title: "Search memory",
    description:
      "Search the user's memories by meaning and keywords, best match first. Use it before answering anything that may " +
      "depend on what the user said earlier (preferences, facts, plans).",
    input: SearchMemoryInput,
    output: SearchResponse,
    annotations: { ...READ, title: "Search memory" },
    run: (s, input) => s.memory.searchMemories(input),
    render: renderSearch,
  }),
  tool({
    name: "list_memories",
    title: "List memories",
    description: "List the user's memories, newest first. Pass `next_cursor` of one page as `cursor` to get the next.",
    input: ListMemoriesInput,
    output: ListResponse,
    annotations: { ...READ, title: "List memories" },
    run: (s, input) => s.memory.list(input),
    render: renderList,
  }),
  tool({
    name: "delete_all_memories",
    title: "Delete all memories",
    description:
      "Delete every memory of the user. With `cascade: true`, erase the user's data from every layer " +
      "(except what a retention policy must keep, reported as `retained`). Cannot be undone.",
    input: DeleteAllInput,
    output: DeleteResponse,
    annotations: { ...DESTRUCTIVE, title: "Delete all memories" },
    run: (s, input) => s.memory.deleteAll(input),
    render: renderDeletedAll,
  }),
  tool({
    name: "get_memory",
    title: "Get memory",
    description: "Get one memory by id, with its metadata and version.",
    input: MemoryRef,
    output: MemoryResponse,
    annotations: { ...READ, title: "Get memory" },
    run: (s, input) => s.memory.get(input),
    render: renderMemory,
  }),
  tool({
    name: "update_memory",
    title: "Update memory",
    description:
      "Change the text and/or metadata of one memory (a metadata key set to null is removed). " +
      "The previous text is kept as a version and the version number goes up.",
    input: UpdateMemoryInput,
    output: MemoryResponse,
    // Not destructive: the previous text survives as a version.
    annotations: { ...ADDITIVE, title: "Update memory" },
    run: (s, input) => s.memory.update(input),
    render: renderMemory,
  }),
  tool({
    name: "delete_memory",
    title: "Delete memory",
    description: "Delete one memory by id. Cannot be undone.",
    input: MemoryRef,
    output: DeleteResponse,
    annotations: { ...DESTRUCTIVE, title: "Delete memory" },
    run: (s, input) => s.memory.delete(input),
    render: renderDeleted,
  }),
  tool({
    name: "graph_traverse",
    title: "Traverse the graph",
    description:
      "Walk the user's knowledge graph from one entity (e.g. {type: 'person', id: 'alice'}) along named relationships " +
      "(absent = all), up to max_depth steps, in a direction (out, in or both). Returns the entities reached with their depth.",
    input: TraverseBody,
    output: TraverseResponse,
    annotations: { ...READ, title: "Traverse the graph" },
    run: (s, input) => s.graph.traverse(input),
    render: renderTraverse,
  }),
];

export const findTool = (name: string): ToolDef | undefined => TOOLS.find((t) => t.name === name);
