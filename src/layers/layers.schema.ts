// Request and response schemas of the layer APIs (SPEC §5.1): conversations, immutable
// records and mutable key/values.
import { Type, type Static } from "@sinclair/typebox";
import { Message } from "~/memory/memory.schema";

const UserId = Type.String({ minLength: 1, maxLength: 256, description: "User identifier; the isolation key" });
const Name = (description: string) =>
  Type.String({ minLength: 1, maxLength: 256, pattern: "^[^\\u0000-\\u001f]+$", description });
const Int = (o: { minimum: number; maximum: number; description: string }) => Type.Number({ ...o, multipleOf: 1 });
const Messages = Type.Array(Message, { minItems: 1, maxItems: 100 });

export const CreateConversationInput = Type.Object({
  user_id: UserId,
  agent_id: Type.Optional(Name("Memory space (agent); default 'mcp-agent'")),
  session_id: Type.Optional(Name("Session")),
  messages: Type.Optional(Messages),
});
export type CreateConversationInput = Static<typeof CreateConversationInput>;

export const AppendMessagesInput = Type.Object({ user_id: UserId, messages: Messages });
export type AppendMessagesInput = Static<typeof AppendMessagesInput>;

export const ConversationRef = Type.Object({ id: Name("Conversation id"), user_id: UserId });
export type ConversationRef = Static<typeof ConversationRef>;

export const ListConversationsInput = Type.Object({
  user_id: UserId,
  limit: Type.Optional(Int({ minimum: 1, maximum: 1000, description: "Page size (default 50)" })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: "next_cursor of the previous page" })),
});
export type ListConversationsInput = Static<typeof ListConversationsInput>;

// A type never contains "/": memories refer to records as metadata.immutableRef = "type/id".
const RecordType = Type.String({
  minLength: 1,
  maxLength: 256,
  pattern: "^[^\\u0000-\\u001f/]+$",
  description: "Record type, e.g. kb-article (no '/')",
});
export const ImmutableKey = Type.Object({ type: RecordType, id: Name("Record id") });
export const PutImmutableInput = Type.Object({
  data: Type.Unknown({ description: "Any JSON value (≤ 1 MiB)" }),
  user_id: Type.Optional(UserId),
  metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
export type PutImmutableInput = Static<typeof PutImmutableInput>;
export const GetImmutableQuery = Type.Object({
  version: Type.Optional(Int({ minimum: 1, maximum: 2 ** 31, description: "A past version" })),
});

export const MutableKey = Type.Object({ namespace: Name("Namespace"), key: Name("Key") });
export const PutMutableInput = Type.Object({
  value: Type.Unknown({ description: "Any JSON value" }),
  ttl: Type.Optional(Type.String({ description: "Time to live as a duration (30m, 24h, 7d, 1y)" })),
  expiresAt: Type.Optional(Type.Number({ minimum: 0, description: "Expiry in epoch ms" })),
  user_id: Type.Optional(UserId),
});
export type PutMutableInput = Static<typeof PutMutableInput>;
