// The memory API's request and response schemas (SPEC §2), written once: they validate HTTP
// bodies, document OpenAPI, type the service and become the MCP tool input schemas.
import { Type, type Static } from "@sinclair/typebox";
import { example } from "~/shared/example";
import { CursorPage } from "~/shared/cursor-page";
import {
  IncludeShared,
  PromoteBody,
  ResultSpace,
  SpaceIdField,
  SpaceIdText,
  SpacesFilter,
} from "~/spaces/spaces.schema";

export const MAX_MEMORY_CHARS = 32 * 1024;
export const MAX_MESSAGES = 100;
export const MAX_METADATA_BYTES = 16 * 1024;
/** The agent (memory space) of a write that names none. */
export const DEFAULT_AGENT = "mcp-agent";

// Field descriptions are written for a reader that sees nothing else (an MCP client's model reads
// only these and the tool description), so each says what the field really does, defaults included.
const UserIdText = Type.String({
  minLength: 1,
  maxLength: 256,
  description:
    "Whose memory this is. Every read and write is confined to this user; other users' memories are invisible. " +
    "Required, unless the API key is bound to a user: then it defaults to that user, and naming another user is 403. " +
    "Over MCP it may be left out when the connection names the user (the key, X-User-Id, --user-id, or the OpenMemory URL)",
});
/** Optional in every schema: the access rule (identity/access.ts) resolves the user, from here or from the key. */
const UserId = Type.Optional(UserIdText);
const AgentId = Type.String({
  minLength: 1,
  maxLength: 256,
  description:
    "The agent (tool) that writes this memory, e.g. 'claude-desktop'; it files the memory in that agent's memory space. " +
    `Default '${DEFAULT_AGENT}'. Searches and lists without agent_id still find it`,
});
const AgentFilter = Type.String({
  minLength: 1,
  maxLength: 256,
  description:
    "Only memories written by this agent. Leave it out (usual) to cover the memories of all the user's agents",
});
const SessionId = Type.String({
  minLength: 1,
  maxLength: 256,
  description:
    "Ties the memory to one session: it is then found only by searches that pass this same session_id, never by " +
    "searches without one (list_memories still shows it). Leave it out for anything worth remembering beyond the session",
});
const SessionFilter = Type.String({
  minLength: 1,
  maxLength: 256,
  description:
    "Search only the memories stored with this session_id. Without it the search covers only memories stored " +
    "without a session_id: memories written with a session are invisible to it",
});
const Metadata = Type.Record(Type.String(), Type.Unknown(), {
  description:
    "Free-form JSON object stored with the memory (≤ 16 KiB). Keys Engram reads: importance (integer 0–100, default 50), " +
    "source (any string; conversation|a2a|system|tool select a governance source type), " +
    "tags (array of strings, usable as a search filter), " +
    "temporary: true with expiresAt (epoch ms) to hide the memory from that instant on",
});
const MetadataFilter = Type.Record(Type.String(), Type.Unknown(), {
  description:
    "A filter, not data to search in: only memories whose metadata matches every key given. A string, number or " +
    "boolean must be equal; an array (e.g. tags: ['work']) matches when the memory's array contains every element. " +
    "Leave it out to search all memories",
});
const MetadataPatch = Type.Record(Type.String(), Type.Unknown(), {
  description:
    "Keys to change in the memory's metadata: merged into it, a key set to null is removed, keys not given stay",
});
const MemoryText = Type.String({
  minLength: 1,
  maxLength: MAX_MEMORY_CHARS,
  description:
    "One memory, stored verbatim: a self-contained statement such as 'Alice is allergic to penicillin' (≤ 32 KiB)",
});
/** Unknown fields are rejected, not ignored: a mistyped `session` must not silently store an unscoped memory. */
const STRICT = { additionalProperties: false } as const;
const Int = (o: { minimum: number; maximum: number; description: string }) => Type.Integer(o);
const IncludeSuperseded = Type.Boolean({
  description:
    "true: also return memories a newer one has superseded (an older value of the same fact, e.g. a former address), " +
    "each with superseded_by. Default false: only current memories",
});
const MemoryIdField = Type.String({
  minLength: 1,
  maxLength: 256,
  description: "Id of the memory, as add_memories, search_memory or list_memories gave it",
});
const EXAMPLE_ID = "0193a6b2-7c4e-7d3a-9f21-5b8e4c2d1a07";
const OLD_ID = "0193a6b1-2f0a-7b55-8e0c-3d7a9b6c5e41";

export const Message = Type.Object(
  {
    role: Type.String({ minLength: 1, maxLength: 64, description: "user, assistant, system, tool…" }),
    content: Type.String({ maxLength: MAX_MEMORY_CHARS }),
  },
  STRICT,
);

export const AddMemoriesInput = Type.Object(
  {
    memory: Type.Optional(MemoryText),
    text: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_MEMORY_CHARS,
        description: "The same as `memory`, under the name OpenMemory's add_memories used; give one of the two",
      }),
    ),
    messages: Type.Optional(
      Type.Array(Message, {
        minItems: 1,
        maxItems: MAX_MESSAGES,
        description:
          "A conversation to remember, instead of `memory` (≤ 100 messages): each non-empty message becomes its own " +
          "memory (metadata.role keeps the role) and the whole conversation is kept as well",
      }),
    ),
    user_id: UserId,
    agent_id: Type.Optional(AgentId),
    session_id: Type.Optional(SessionId),
    metadata: Type.Optional(Metadata),
    space_id: Type.Optional(SpaceIdField),
    auto_embed: Type.Optional(
      Type.Boolean({ description: "Accepted for cloud compatibility; embeddings are always generated" }),
    ),
    infer: Type.Optional(
      Type.Boolean({
        description:
          "OpenMemory's fact-extraction switch, accepted so its calls work: `memory`/`text` are always stored " +
          "verbatim; with `messages` it stands for auto_extract_facts",
      }),
    ),
    auto_extract_facts: Type.Optional(
      Type.Boolean({
        description:
          "With `messages` only: true stores the facts extracted from the conversation instead of each message; " +
          "default: the server's MCP_EXTRACT_FACTS setting",
      }),
    ),
  },
  {
    ...STRICT,
    ...example({ user_id: "alice", memory: "Alice prefers dark mode in every editor", metadata: { tags: ["ui"] } }),
  },
);
export type AddMemoriesInput = Static<typeof AddMemoriesInput>;

export const SearchMemoryInput = Type.Object(
  {
    query: Type.String({
      minLength: 1,
      maxLength: MAX_MEMORY_CHARS,
      description: "What to look for, in plain words: a question or a topic. Matched by meaning and by keywords",
    }),
    user_id: UserId,
    limit: Type.Optional(Int({ minimum: 1, maximum: 100, description: "Most results to return, 1–100 (default 10)" })),
    agent_id: Type.Optional(AgentFilter),
    session_id: Type.Optional(SessionFilter),
    metadata: Type.Optional(MetadataFilter),
    include_superseded: Type.Optional(IncludeSuperseded),
    spaces: Type.Optional(SpacesFilter),
    include_shared: Type.Optional(IncludeShared),
    min_score: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description:
          "Leave out results scored below this, 0–1. Scores are absolute (how likely the memory is relevant), so one threshold fits every query; with the built-in model 0.15 keeps about half of the answers and returns nothing for most questions the memories cannot answer",
      }),
    ),
    explain: Type.Optional(
      Type.Boolean({ description: "Add score_details {semantic, keyword} to each result: what its score came from" }),
    ),
  },
  { ...STRICT, ...example({ user_id: "alice", query: "which theme does Alice like?", limit: 5 }) },
);
export type SearchMemoryInput = Static<typeof SearchMemoryInput>;

export const ListMemoriesInput = Type.Object(
  {
    user_id: UserId,
    limit: Type.Optional(Int({ minimum: 1, maximum: 1000, description: "Page size, 1–1000 (default 50)" })),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 512,
        description: "The next_cursor of the previous page, to get the page after it",
      }),
    ),
    agent_id: Type.Optional(AgentFilter),
    include_superseded: Type.Optional(IncludeSuperseded),
    spaces: Type.Optional(SpacesFilter),
    include_shared: Type.Optional(IncludeShared),
  },
  { ...STRICT, ...example({ user_id: "alice", limit: 20 }) },
);
export type ListMemoriesInput = Static<typeof ListMemoriesInput>;

export const DeleteAllInput = Type.Object(
  {
    user_id: UserId,
    cascade: Type.Optional(
      Type.Boolean({
        description:
          "false (default): delete the memories. true: erase the user's data from every layer (memories, " +
          "conversations, records, keys, knowledge graph), except what a retention policy must keep",
      }),
    ),
  },
  { ...STRICT, ...example({ user_id: "alice" }) },
);
export type DeleteAllInput = Static<typeof DeleteAllInput>;

export const MemoryRef = Type.Object(
  { memory_id: MemoryIdField, user_id: UserId },
  { ...STRICT, ...example({ memory_id: EXAMPLE_ID, user_id: "alice" }) },
);
export type MemoryRef = Static<typeof MemoryRef>;

/** The memory's shared space, when it is one's (get: members; update, delete: writers). */
const InSpace = Type.Optional(
  Type.String({
    ...SpaceIdText,
    description:
      "The shared space the memory belongs to (the space_id a search or listing gave it). Reading needs membership, " +
      "changing or deleting needs the space's writer role",
  }),
);

/** get_memory and delete_memory: a memory of the user, or with space_id one of that shared space. */
export const SpaceMemoryRef = Type.Object(
  { ...MemoryRef.properties, space_id: InSpace },
  { ...STRICT, ...example({ memory_id: EXAMPLE_ID, user_id: "alice" }) },
);
export type SpaceMemoryRef = Static<typeof SpaceMemoryRef>;

/** The path of /memories/:id/… */
export const MemoryPath = Type.Object(
  { id: MemoryIdField },
  { additionalProperties: false, ...example({ id: EXAMPLE_ID }) },
);
/** A query holding only the user. */
export const UserQuery = Type.Object({ user_id: UserId }, { ...STRICT, ...example({ user_id: "alice" }) });

export const UpdateMemoryInput = Type.Object(
  {
    memory_id: MemoryIdField,
    user_id: UserId,
    memory: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_MEMORY_CHARS,
        description: "The new text; it replaces the current one, which is kept as a previous version (≤ 32 KiB)",
      }),
    ),
    metadata: Type.Optional(MetadataPatch),
    space_id: InSpace,
  },
  { ...STRICT, ...example({ memory_id: EXAMPLE_ID, user_id: "alice", memory: "Alice prefers light mode now" }) },
);
export type UpdateMemoryInput = Static<typeof UpdateMemoryInput>;

/** The body of POST /memories/:id/supersede. */
export const SupersedeBody = Type.Object(
  {
    user_id: UserId,
    memory: Type.String({
      minLength: 1,
      maxLength: MAX_MEMORY_CHARS,
      description:
        "The fact as it is now, e.g. 'I live in Lisbon'. It is stored as a new memory and the old one is marked " +
        "superseded by it: hidden from searches and lists, kept in the store and in its versions (≤ 32 KiB)",
    }),
    metadata: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: "Metadata of the new memory (same keys as add_memories); default: the old memory's metadata",
      }),
    ),
  },
  { ...STRICT, ...example({ user_id: "alice", memory: "Alice lives in Lisbon" }) },
);
export type SupersedeBody = Static<typeof SupersedeBody>;

export const SupersedeMemoryInput = Type.Object(
  {
    memory_id: Type.String({
      minLength: 1,
      maxLength: 256,
      description: "Id of the memory that is no longer true, as search_memory or list_memories gave it",
    }),
    ...SupersedeBody.properties,
  },
  STRICT,
);
export type SupersedeMemoryInput = Static<typeof SupersedeMemoryInput>;

// ---- responses ----
const Iso = Type.String({ format: "date-time" });
const Supersedes = Type.Array(Type.String(), {
  description: "Ids of the older memories this one superseded (present only when there are some)",
});
const SupersededBy = Type.String({
  description: "Id of the newer memory that superseded this one (present only on superseded memories)",
});
export const ScoreDetails = Type.Object({
  semantic: Type.Union([Type.Number({ minimum: -1, maximum: 1 }), Type.Null()], {
    description:
      "Cosine of the memory's and the query's embeddings; null when the memory was not among the nearest vectors (its score then assumed the last one's cosine) or there was no query vector",
  }),
  keyword: Type.Number({
    minimum: 0,
    maximum: 1,
    description: "Share of the query's term weight (BM25 idf over the user's memories) that the memory's words match",
  }),
});
export const SearchResult = Type.Object({
  id: Type.String(),
  memory: Type.String(),
  score: Type.Number({
    exclusiveMinimum: 0,
    maximum: 1,
    description: "Calibrated relevance: the same score means the same strength of match in any query",
  }),
  metadata: Metadata,
  created_at: Iso,
  supersedes: Type.Optional(Supersedes),
  superseded_by: Type.Optional(SupersededBy),
  score_details: Type.Optional(ScoreDetails),
  space_id: Type.Optional(ResultSpace),
});
const AT = "2026-06-01T09:30:00.000Z";
export const SearchResponse = Type.Object(
  { results: Type.Array(SearchResult) },
  example({
    results: [
      { id: EXAMPLE_ID, memory: "Alice prefers dark mode in every editor", score: 0.82, metadata: {}, created_at: AT },
    ],
  }),
);
export type SearchResponse = Static<typeof SearchResponse>;

export const ListItem = Type.Object({
  id: Type.String(),
  memory: Type.String(),
  metadata: Metadata,
  agent_id: Type.String(),
  session_id: Type.Union([Type.String(), Type.Null()]),
  created_at: Iso,
  supersedes: Type.Optional(Supersedes),
  superseded_by: Type.Optional(SupersededBy),
  space_id: Type.Optional(ResultSpace),
});
export type ListItem = Static<typeof ListItem>;
const ITEM = {
  id: EXAMPLE_ID,
  memory: "Alice prefers dark mode in every editor",
  metadata: { tags: ["ui"] },
  agent_id: "mcp-agent",
  session_id: null,
  created_at: AT,
};
export const ListResponse = CursorPage(
  ListItem,
  example({ results: [ITEM], total: 1, has_more: false, next_cursor: null }),
);
export type ListResponse = Static<typeof ListResponse>;

export const MemoryResponse = Type.Object(
  { success: Type.Literal(true), ...ListItem.properties, updated_at: Iso, version: Type.Integer() },
  example({ success: true, ...ITEM, updated_at: AT, version: 1 }),
);
export type MemoryResponse = Static<typeof MemoryResponse>;

export const AddResponse = Type.Object(
  {
    success: Type.Literal(true),
    memory_ids: Type.Array(Type.String()),
    deduplicated: Type.Optional(
      Type.Array(Type.String(), {
        description:
          "Ids in memory_ids that already existed: the same text (ignoring case, spaces and punctuation) was a current " +
          "memory of this user, agent and session, so nothing new was stored",
      }),
    ),
    superseded: Type.Optional(
      Type.Array(Type.String(), {
        description: "Ids of older memories the new ones superseded (a new value of the same fact)",
      }),
    ),
    space_id: Type.Optional(
      Type.String({ description: "The shared space written into (only when space_id was given)" }),
    ),
  },
  example({ success: true, memory_ids: [EXAMPLE_ID] }),
);
export type AddResponse = Static<typeof AddResponse>;

export const SupersedeResponse = Type.Object(
  {
    ...MemoryResponse.properties,
    deduplicated: Type.Optional(
      Type.Boolean({
        description: "true when the new text was already a current memory, which now supersedes the old one",
      }),
    ),
  },
  example({
    success: true,
    ...ITEM,
    memory: "Alice prefers light mode now",
    updated_at: AT,
    version: 1,
    supersedes: [OLD_ID],
  }),
);
export type SupersedeResponse = Static<typeof SupersedeResponse>;

export const DeleteResponse = Type.Object(
  {
    success: Type.Literal(true),
    deleted_count: Type.Integer(),
    retained: Type.Optional(
      Type.Record(Type.String(), Type.Integer(), { description: "Rows a policy must keep, by layer (cascade only)" }),
    ),
  },
  example({ success: true, deleted_count: 1 }),
);
export type DeleteResponse = Static<typeof DeleteResponse>;

export const VersionsResponse = Type.Object(
  {
    success: Type.Literal(true),
    versions: Type.Array(
      Type.Object({
        version: Type.Integer(),
        memory: Type.String(),
        created_at: Iso,
        memory_id: Type.Optional(
          Type.String({ description: "On versions of an older memory this one superseded: that memory's id" }),
        ),
        superseded_by: Type.Optional(SupersededBy),
      }),
      { description: "Newest first: the memory's own versions, then those of the memories it superseded" },
    ),
  },
  example({
    success: true,
    versions: [
      { version: 2, memory: "Alice prefers light mode now", created_at: AT },
      { version: 1, memory: "Alice prefers dark mode in every editor", created_at: AT },
    ],
  }),
);
export type VersionsResponse = Static<typeof VersionsResponse>;

/** The promote_memory tool's input: the memory's id and the body of POST /memories/:id/promote. */
export const PromoteMemoryInput = Type.Object(
  {
    memory_id: Type.String({
      minLength: 1,
      maxLength: 256,
      description: "Id of the user's memory to copy, as search_memory or list_memories gave it",
    }),
    ...PromoteBody.properties,
  },
  STRICT,
);
export type PromoteMemoryInput = Static<typeof PromoteMemoryInput>;

/** POST /memories/:id/promote: the space's copy of the memory. */
export const PromoteResponse = Type.Object(
  {
    ...MemoryResponse.properties,
    space_id: Type.String({ description: "The shared space the copy belongs to" }),
    promoted_from: Type.String({
      description: "Id of the user's memory that was copied (also in metadata.provenance)",
    }),
    deduplicated: Type.Optional(
      Type.Boolean({ description: "true when the space already held the same text: that memory is answered" }),
    ),
  },
  example({
    success: true,
    ...ITEM,
    agent_id: "platform",
    metadata: { tags: ["ui"], provenance: { user_id: "alice", agent_id: "mcp-agent", memory_id: OLD_ID } },
    updated_at: AT,
    version: 1,
    space_id: "platform",
    promoted_from: OLD_ID,
  }),
);
export type PromoteResponse = Static<typeof PromoteResponse>;
