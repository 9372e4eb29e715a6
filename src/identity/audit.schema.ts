// Request and response schemas of GET /audit (SPEC §8): one organization's request log, oldest first,
// filtered by time, principal and target user, paged by an opaque cursor.
import { Type, type Static } from "@sinclair/typebox";
import { example } from "~/shared/example";

const When = (description: string) =>
  Type.String({ minLength: 1, maxLength: 40, description: `${description}: an ISO date or epoch ms` });
const Text = (description: string) =>
  Type.String({ minLength: 1, maxLength: 256, pattern: "^[^\\u0000-\\u001f]+$", description });

export const AuditPageInput = Type.Object(
  {
    from: Type.Optional(When("Entries at or after this time (default: the beginning)")),
    to: Type.Optional(When("Entries at or before this time (default: now)")),
    principal: Type.Optional(Text("Only this principal's requests: a key id, shared:<n>, oidc:<subject>")),
    user_id: Type.Optional(Text("Only requests that acted on this user (an erased user's pseudonym finds theirs)")),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: "The next_cursor of the previous page" }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: "Page size, 1–1000 (default 100)" })),
  },
  { additionalProperties: false, ...example({ from: "2026-06-01T00:00:00Z", principal: "3f9a0c1d2e4b5a69" }) },
);
export type AuditPageInput = Static<typeof AuditPageInput>;

const OrNull = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const AuditEntry = Type.Object({
  at: Type.String({ format: "date-time" }),
  organization_id: Type.String(),
  principal: OrNull(Type.String({ description: "Who asked; null for governance changes recorded by the engine" })),
  method: Type.String(),
  route: OrNull(Type.String({ description: "The route template that answered, e.g. /memories/:id/versions" })),
  path: Type.String(),
  user_id: OrNull(Type.String({ description: "The user acted on (a stable pseudonym after that user's erasure)" })),
  memory_space_id: OrNull(Type.String()),
  status: Type.Integer(),
  duration_ms: Type.Union([Type.Number(), Type.Null()]),
});

export const AuditPage = Type.Object(
  {
    success: Type.Literal(true),
    results: Type.Array(AuditEntry),
    has_more: Type.Boolean(),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
  },
  example({
    success: true,
    results: [
      {
        at: "2026-06-01T09:30:00.000Z",
        organization_id: "acme",
        principal: "3f9a0c1d2e4b5a69",
        method: "POST",
        route: "/search_memory",
        path: "/search_memory",
        user_id: "alice",
        memory_space_id: null,
        status: 200,
        duration_ms: 4.2,
      },
    ],
    has_more: false,
    next_cursor: null,
  }),
);
export type AuditPage = Static<typeof AuditPage>;
