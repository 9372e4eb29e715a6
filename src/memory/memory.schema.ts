// The memory API's request and response schemas (SPEC §2), written once: they validate HTTP
// bodies, document OpenAPI, type the service and become the MCP tool input schemas.
import { Type, type Static } from "@sinclair/typebox";

export const MAX_MEMORY_CHARS = 32 * 1024;
export const MAX_MESSAGES = 100;
export const MAX_METADATA_BYTES = 16 * 1024;

const UserId = Type.String({ minLength: 1, maxLength: 256, description: "User identifier; the isolation key" });
const AgentId = Type.String({ minLength: 1, maxLength: 256, description: "Agent (memory space); default 'mcp-agent'" });
const SessionId = Type.String({ minLength: 1, maxLength: 256, description: "Session scope" });
const Metadata = Type.Record(Type.String(), Type.Unknown(), {
  description:
    "Free-form; importance (0–100), source (any string; conversation|a2a|system|tool select a governance source type), tags, temporary + expiresAt (epoch ms)",
});
const MemoryText = Type.String({ minLength: 1, maxLength: MAX_MEMORY_CHARS, description: "Memory text (≤ 32 KiB)" });
/** Unknown fields are rejected, not ignored: a mistyped `session` must not silently store an unscoped memory. */
const STRICT = { additionalProperties: false } as const;
const Int = (o: { minimum: number; maximum: number; description: string }) => Type.Number({ ...o, multipleOf: 1 });

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
    messages: Type.Optional(Type.Array(Message, { minItems: 1, maxItems: MAX_MESSAGES })),
    user_id: UserId,
    agent_id: Type.Optional(AgentId),
    session_id: Type.Optional(SessionId),
    metadata: Type.Optional(Metadata),
    auto_embed: Type.Optional(
      Type.Boolean({ description: "Accepted for cloud compatibility; embeddings are always generated" }),
    ),
    auto_extract_facts: Type.Optional(Type.Boolean({ description: "Extract facts from messages for this call" })),
  },
  STRICT,
);
export type AddMemoriesInput = Static<typeof AddMemoriesInput>;

export const SearchMemoryInput = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: MAX_MEMORY_CHARS, description: "Search text" }),
    user_id: UserId,
    limit: Type.Optional(Int({ minimum: 1, maximum: 100, description: "Maximum results (default 10)" })),
    agent_id: Type.Optional(AgentId),
    session_id: Type.Optional(SessionId),
    metadata: Type.Optional(Metadata),
  },
  STRICT,
);
export type SearchMemoryInput = Static<typeof SearchMemoryInput>;

export const ListMemoriesInput = Type.Object(
  {
    user_id: UserId,
    limit: Type.Optional(Int({ minimum: 1, maximum: 1000, description: "Page size (default 50)" })),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 512, description: "next_cursor of the previous page" }),
    ),
    agent_id: Type.Optional(AgentId),
  },
  STRICT,
);
export type ListMemoriesInput = Static<typeof ListMemoriesInput>;

export const DeleteAllInput = Type.Object(
  {
    user_id: UserId,
    cascade: Type.Optional(Type.Boolean({ description: "Erase the user's data from every layer" })),
  },
  STRICT,
);
export type DeleteAllInput = Static<typeof DeleteAllInput>;

export const MemoryRef = Type.Object(
  {
    memory_id: Type.String({ minLength: 1, maxLength: 256 }),
    user_id: UserId,
  },
  STRICT,
);
export type MemoryRef = Static<typeof MemoryRef>;

export const UpdateMemoryInput = Type.Object(
  {
    memory_id: Type.String({ minLength: 1, maxLength: 256 }),
    user_id: UserId,
    memory: Type.Optional(MemoryText),
    metadata: Type.Optional(Metadata),
  },
  STRICT,
);
export type UpdateMemoryInput = Static<typeof UpdateMemoryInput>;

// ---- responses ----
const Iso = Type.String({ format: "date-time" });
export const SearchResult = Type.Object({
  id: Type.String(),
  memory: Type.String(),
  score: Type.Number({ exclusiveMinimum: 0, maximum: 1 }),
  metadata: Metadata,
  created_at: Iso,
});
export const SearchResponse = Type.Object({ results: Type.Array(SearchResult) });
export type SearchResponse = Static<typeof SearchResponse>;

export const ListItem = Type.Object({
  id: Type.String(),
  memory: Type.String(),
  metadata: Metadata,
  agent_id: Type.String(),
  session_id: Type.Union([Type.String(), Type.Null()]),
  created_at: Iso,
});
export const ListResponse = Type.Object({
  results: Type.Array(ListItem),
  total: Type.Integer(),
  has_more: Type.Boolean(),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
export type ListResponse = Static<typeof ListResponse>;

export const MemoryResponse = Type.Object({
  success: Type.Literal(true),
  ...ListItem.properties,
  updated_at: Iso,
  version: Type.Integer(),
});
export type MemoryResponse = Static<typeof MemoryResponse>;

export const AddResponse = Type.Object({ success: Type.Literal(true), memory_ids: Type.Array(Type.String()) });
export const DeleteResponse = Type.Object({
  success: Type.Literal(true),
  deleted_count: Type.Integer(),
  retained: Type.Optional(Type.Record(Type.String(), Type.Integer())),
});
export type DeleteResponse = Static<typeof DeleteResponse>;
