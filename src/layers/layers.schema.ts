// Request and response schemas of the layer APIs (SPEC §5.1): conversations, immutable
// records and mutable key/values.
import { Type, type Static } from "@sinclair/typebox";
import { example } from "~/shared/example";
import { CursorPage } from "~/shared/cursor-page";
import { userIdField } from "~/shared/user-field";
import { Message } from "~/memory/memory.schema";

const UserId = userIdField("User identifier; the isolation key");
/** The user a record or key belongs to: erased with that user; hidden from other users' member keys. */
const RecordUser = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 256,
    description:
      "The user this belongs to, if any: it is erased with that user, and member and reader keys of other users do not see it",
  }),
);
const Name = (description: string) =>
  Type.String({ minLength: 1, maxLength: 256, pattern: "^[^\\u0000-\\u001f]+$", description });
const Int = (o: { minimum: number; maximum: number; description: string }) => Type.Integer(o);
const Messages = Type.Array(Message, { minItems: 1, maxItems: 100 });
const Iso = Type.String({ format: "date-time" });
const IsoOrNull = Type.Union([Iso, Type.Null()]);
const AT = "2026-06-01T09:30:00.000Z";
const CONVERSATION_ID = "0193a6b2-90aa-7b1c-8e3f-2a4d6c8e0f13";
const SAY = [{ role: "user", content: "Remind me to renew the passport in May" }];

export const CreateConversationInput = Type.Object(
  {
    user_id: UserId,
    agent_id: Type.Optional(Name("Memory space (agent); default 'mcp-agent'")),
    session_id: Type.Optional(Name("Session")),
    messages: Type.Optional(Messages),
  },
  { additionalProperties: false, ...example({ user_id: "alice", agent_id: "travel-bot", messages: SAY }) },
);
export type CreateConversationInput = Static<typeof CreateConversationInput>;

export const AppendMessagesInput = Type.Object(
  { user_id: UserId, messages: Messages },
  {
    additionalProperties: false,
    ...example({ user_id: "alice", messages: [{ role: "assistant", content: "Noted: passport renewal in May." }] }),
  },
);
export type AppendMessagesInput = Static<typeof AppendMessagesInput>;

const ConversationId = Name("Conversation id");
export const ConversationPath = Type.Object(
  { id: ConversationId },
  { additionalProperties: false, ...example({ id: CONVERSATION_ID }) },
);
export const ConversationUser = Type.Object(
  { user_id: UserId },
  { additionalProperties: false, ...example({ user_id: "alice" }) },
);

export const ListConversationsInput = Type.Object(
  {
    user_id: UserId,
    limit: Type.Optional(Int({ minimum: 1, maximum: 1000, description: "Page size (default 50)" })),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 512, description: "next_cursor of the previous page" }),
    ),
  },
  { additionalProperties: false, ...example({ user_id: "alice", limit: 20 }) },
);
export type ListConversationsInput = Static<typeof ListConversationsInput>;

// A type never contains "/": memories refer to records as metadata.immutableRef = "type/id".
const RecordType = Type.String({
  minLength: 1,
  maxLength: 256,
  pattern: "^[^\\u0000-\\u001f/]+$",
  description: "Record type, e.g. kb-article (no '/')",
});
export const ImmutableKey = Type.Object(
  { type: RecordType, id: Name("Record id") },
  { additionalProperties: false, ...example({ type: "kb-article", id: "passport-renewal" }) },
);
const ARTICLE = { title: "Renewing a passport", body: "Book an appointment six weeks ahead." };
export const PutImmutableInput = Type.Object(
  {
    data: Type.Unknown({ description: "Any JSON value (≤ 1 MiB)" }),
    user_id: RecordUser,
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false, ...example({ data: ARTICLE, metadata: { lang: "en" } }) },
);
export type PutImmutableInput = Static<typeof PutImmutableInput>;
export const GetImmutableQuery = Type.Object(
  { version: Type.Optional(Int({ minimum: 1, maximum: 2 ** 31, description: "A past version" })) },
  { additionalProperties: false, ...example({ version: 1 }) },
);

export const MutableKey = Type.Object(
  { namespace: Name("Namespace"), key: Name("Key") },
  { additionalProperties: false, ...example({ namespace: "prefs", key: "alice-theme" }) },
);
export const PutMutableInput = Type.Object(
  {
    value: Type.Unknown({ description: "Any JSON value" }),
    ttl: Type.Optional(Type.String({ description: "Time to live as a duration (30m, 24h, 7d, 1y)" })),
    expiresAt: Type.Optional(Type.Number({ minimum: 0, description: "Expiry in epoch ms" })),
    user_id: RecordUser,
  },
  { additionalProperties: false, ...example({ value: { theme: "dark" }, ttl: "30d" }) },
);
export type PutMutableInput = Static<typeof PutMutableInput>;

// ---- responses ----
const ConversationSummary = Type.Object({
  id: Type.String(),
  user_id: Type.String(),
  agent_id: Type.String(),
  session_id: Type.Union([Type.String(), Type.Null()]),
  message_count: Type.Integer(),
  created_at: Iso,
  last_message_at: Iso,
  archived_at: IsoOrNull,
});
const SUMMARY = {
  id: CONVERSATION_ID,
  user_id: "alice",
  agent_id: "travel-bot",
  session_id: null,
  message_count: 1,
  created_at: AT,
  last_message_at: AT,
  archived_at: null,
};
export const ConversationResponse = Type.Object(
  {
    success: Type.Literal(true),
    ...ConversationSummary.properties,
    messages: Type.Array(Type.Object({ role: Type.String(), content: Type.String(), timestamp: Type.Integer() })),
  },
  example({ success: true, ...SUMMARY, messages: SAY.map((m) => ({ ...m, timestamp: Date.parse(AT) })) }),
);
export type ConversationResponse = Static<typeof ConversationResponse>;
export const ConversationListResponse = CursorPage(
  ConversationSummary,
  example({ results: [SUMMARY], total: 1, has_more: false, next_cursor: null }),
);
export type ConversationListResponse = Static<typeof ConversationListResponse>;

export const ImmutablePutResponse = Type.Object(
  { success: Type.Literal(true), type: Type.String(), id: Type.String(), version: Type.Integer(), created_at: Iso },
  example({ success: true, type: "kb-article", id: "passport-renewal", version: 1, created_at: AT }),
);
export type ImmutablePutResponse = Static<typeof ImmutablePutResponse>;
export const ImmutableRecordResponse = Type.Object(
  {
    success: Type.Literal(true),
    type: Type.String(),
    id: Type.String(),
    version: Type.Integer(),
    current_version: Type.Integer(),
    data: Type.Unknown(),
    metadata: Type.Record(Type.String(), Type.Unknown()),
    user_id: Type.Union([Type.String(), Type.Null()]),
    created_at: Iso,
    updated_at: Iso,
  },
  example({
    success: true,
    type: "kb-article",
    id: "passport-renewal",
    version: 1,
    current_version: 1,
    data: ARTICLE,
    metadata: { lang: "en" },
    user_id: null,
    created_at: AT,
    updated_at: AT,
  }),
);
export type ImmutableRecordResponse = Static<typeof ImmutableRecordResponse>;
export const ImmutableVersionsResponse = Type.Object(
  {
    success: Type.Literal(true),
    versions: Type.Array(Type.Object({ version: Type.Integer(), data: Type.Unknown(), created_at: Iso })),
  },
  example({ success: true, versions: [{ version: 1, data: ARTICLE, created_at: AT }] }),
);
export type ImmutableVersionsResponse = Static<typeof ImmutableVersionsResponse>;

export const MutableResponse = Type.Object(
  {
    success: Type.Literal(true),
    namespace: Type.String(),
    key: Type.String(),
    value: Type.Unknown(),
    user_id: Type.Union([Type.String(), Type.Null()]),
    created_at: Iso,
    updated_at: Iso,
    accessed_at: Iso,
    expires_at: IsoOrNull,
  },
  example({
    success: true,
    namespace: "prefs",
    key: "alice-theme",
    value: { theme: "dark" },
    user_id: null,
    created_at: AT,
    updated_at: AT,
    accessed_at: AT,
    expires_at: "2026-07-01T09:30:00.000Z",
  }),
);
export type MutableResponse = Static<typeof MutableResponse>;
export const MutableDeleteResponse = Type.Object(
  { success: Type.Literal(true), deleted_count: Type.Literal(1) },
  example({ success: true, deleted_count: 1 }),
);
export type MutableDeleteResponse = Static<typeof MutableDeleteResponse>;
