// Request and response schemas of the sessions API (SPEC §5.8), written once for HTTP
// validation, OpenAPI and the service's types.
import { Type, type Static } from "@sinclair/typebox";
import { example } from "~/shared/example";
import { userIdField } from "~/shared/user-field";
import { SESSION_STATES } from "./lifecycle";

export const MAX_SESSION_METADATA_BYTES = 16 * 1024;
export const DEFAULT_SPACE = "mcp-agent";

const UserId = userIdField("User identifier; the isolation key");
const Name = (maxLength: number, description: string) =>
  Type.String({ minLength: 1, maxLength, pattern: "^[^\\u0000-\\u001f]+$", description });
const AgentId = Name(256, "Memory space (agent) whose effective policy governs the session; default 'mcp-agent'");
const Metadata = Type.Record(Type.String(), Type.Unknown(), { description: "Free-form JSON object (≤ 16 KiB)" });
const [ACTIVE, IDLE, ENDED, ARCHIVED] = SESSION_STATES;
const State = Type.Union([Type.Literal(ACTIVE), Type.Literal(IDLE), Type.Literal(ENDED), Type.Literal(ARCHIVED)], {
  description: "active, idle, ended or archived",
});
const Iso = (description: string) => Type.String({ description: `${description} (ISO 8601)` });
const IsoOrNull = (description: string) => Type.Union([Iso(description), Type.Null()]);
const SESSION_ID = "0193a6b2-a1c4-7e2f-9b3d-6f8a0c2e4b15";

export const CreateSessionInput = Type.Object(
  {
    user_id: UserId,
    agent_id: Type.Optional(AgentId),
    device: Type.Optional(Name(64, "Device type, e.g. web, mobile, cli (maxSessionsPerDevice counts per type)")),
    metadata: Type.Optional(Metadata),
  },
  {
    additionalProperties: false,
    ...example({ user_id: "alice", agent_id: "travel-bot", device: "web", metadata: { app: "planner" } }),
  },
);
export type CreateSessionInput = Static<typeof CreateSessionInput>;

export const SessionUserInput = Type.Object(
  { user_id: UserId },
  { additionalProperties: false, ...example({ user_id: "alice" }) },
);
export type SessionUserInput = Static<typeof SessionUserInput>;

const SessionId = Name(256, "Session id");
export const SessionPath = Type.Object(
  { id: SessionId },
  { additionalProperties: false, ...example({ id: SESSION_ID }) },
);

export const ListSessionsInput = Type.Object(
  {
    user_id: UserId,
    agent_id: Type.Optional(AgentId),
    state: Type.Optional(State),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: "Page size (default 50)" })),
  },
  { additionalProperties: false, ...example({ user_id: "alice", state: "active", limit: 20 }) },
);
export type ListSessionsInput = Static<typeof ListSessionsInput>;

export const SweepInput = Type.Object(
  { user_id: UserId, agent_id: Type.Optional(AgentId) },
  { additionalProperties: false, ...example({ agent_id: "travel-bot" }) },
);
export type SweepInput = Static<typeof SweepInput>;

export const Session = Type.Object({
  id: Type.String(),
  user_id: Type.String(),
  agent_id: Type.String(),
  device: Type.Union([Type.String(), Type.Null()]),
  metadata: Metadata,
  state: State,
  created_at: Iso("Start"),
  last_activity_at: Iso("Last create or touch"),
  expires_at: Iso("maxDuration deadline; autoExtend slides it on activity"),
  ended_at: IsoOrNull("When it ended"),
  end_reason: Type.Union([
    Type.Literal("explicit"),
    Type.Literal("max_duration"),
    Type.Literal("idle_timeout"),
    Type.Null(),
  ]),
  archived_at: IsoOrNull("When cleanup archived it"),
  warn_at: Type.Optional(Iso("expires_at minus warnBeforeExpiry; only when the policy sets it")),
});
export type Session = Static<typeof Session>;

const SESSION = {
  id: SESSION_ID,
  user_id: "alice",
  agent_id: "travel-bot",
  device: "web",
  metadata: { app: "planner" },
  state: "active",
  created_at: "2026-06-01T09:30:00.000Z",
  last_activity_at: "2026-06-01T09:30:00.000Z",
  expires_at: "2026-06-02T09:30:00.000Z",
  ended_at: null,
  end_reason: null,
  archived_at: null,
};
export const SessionResponse = Type.Object(
  { success: Type.Literal(true), session: Session },
  example({ success: true, session: SESSION }),
);
export type SessionResponse = Static<typeof SessionResponse>;
export const SessionListResponse = Type.Object(
  {
    results: Type.Array(Session),
    total: Type.Integer({ description: "Sessions matching the filter" }),
    has_more: Type.Boolean(),
  },
  example({ results: [SESSION], total: 1, has_more: false }),
);
export type SessionListResponse = Static<typeof SessionListResponse>;
export const ExpireIdleResponse = Type.Object(
  { success: Type.Literal(true), idled: Type.Integer(), ended: Type.Integer() },
  example({ success: true, idled: 2, ended: 1 }),
);
export type ExpireIdleResponse = Static<typeof ExpireIdleResponse>;
export const CleanupResponse = Type.Object(
  { success: Type.Literal(true), archived: Type.Integer(), deleted: Type.Integer() },
  example({ success: true, archived: 3, deleted: 0 }),
);
export type CleanupResponse = Static<typeof CleanupResponse>;
