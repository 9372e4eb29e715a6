// Request and response schemas of the key administration (SPEC §8: /admin/keys), written once for
// the routes, the OpenAPI document and the service's types.
import { Type, type Static } from "@sinclair/typebox";
import { example } from "~/shared/example";
import { ROLES } from "~/shared/principal";

const Role = Type.Union(
  ROLES.map((r) => Type.Literal(r)),
  {
    description:
      "admin: everything in the organization (any user's data, policies, enforcement, erasure, keys, audit); " +
      "member: its own user's data and the shared spaces it belongs to; reader: like member, read-only",
  },
);
const Label = (description: string) =>
  Type.String({ minLength: 1, maxLength: 256, pattern: "^[^\\u0000-\\u001f]+$", description });
const Iso = Type.String({ format: "date-time" });
const IsoOrNull = Type.Union([Iso, Type.Null()]);
const KEY_ID = "3f9a0c1d2e4b5a69";
const AT = "2026-06-01T09:30:00.000Z";

export const CreateKeyInput = Type.Object(
  {
    role: Role,
    user_id: Type.Optional(
      Label(
        "The user this key acts as (required for member and reader keys): requests without user_id get this user, requests naming another user get 403",
      ),
    ),
    agent_id: Type.Optional(Label("The agent this key writes and reads as; requests naming another agent get 403")),
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, description: "A label for people (e.g. 'Ana's Cursor')" }),
    ),
    expires: Type.Optional(
      Type.String({
        minLength: 2,
        maxLength: 16,
        description: "Lifetime from now as a duration: 30m, 24h, 90d, 1y; without it the key never expires",
      }),
    ),
  },
  {
    additionalProperties: false,
    ...example({ role: "member", user_id: "ana", agent_id: "cursor", name: "Ana's Cursor", expires: "90d" }),
  },
);
export type CreateKeyInput = Static<typeof CreateKeyInput>;

const KeyFields = {
  id: Type.String({ description: "The key id (the part after egk_)" }),
  org: Type.String({ description: "The organization the key belongs to" }),
  role: Role,
  user_id: Type.Union([Type.String(), Type.Null()]),
  agent_id: Type.Union([Type.String(), Type.Null()]),
  name: Type.Union([Type.String(), Type.Null()]),
  created_at: Iso,
  expires_at: IsoOrNull,
};

const VIEW = {
  id: KEY_ID,
  org: "acme",
  role: "member",
  user_id: "ana",
  agent_id: "cursor",
  name: "Ana's Cursor",
  created_at: AT,
  expires_at: "2026-08-30T09:30:00.000Z",
} as const;

export const CreateKeyResponse = Type.Object(
  {
    success: Type.Literal(true),
    ...KeyFields,
    key: Type.String({ description: "The whole key, egk_<id>_<secret>: shown here once, never again" }),
  },
  example({ success: true, ...VIEW, key: `egk_${KEY_ID}_${"7".repeat(64)}` }),
);
export type CreateKeyResponse = Static<typeof CreateKeyResponse>;

export const KeyView = Type.Object({
  ...KeyFields,
  last_used_at: Type.Union([Iso, Type.Null()], {
    description: "When the key last authenticated a request (written in batches, within about a second)",
  }),
  revoked_at: IsoOrNull,
});
export type KeyView = Static<typeof KeyView>;

export const KeyListResponse = Type.Object(
  { success: Type.Literal(true), keys: Type.Array(KeyView) },
  example({ success: true, keys: [{ ...VIEW, last_used_at: AT, revoked_at: null }] }),
);
export type KeyListResponse = Static<typeof KeyListResponse>;

export const KeyPath = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64, description: "The key id" }) },
  { additionalProperties: false, ...example({ id: KEY_ID }) },
);

export const RevokeKeyResponse = Type.Object(
  { success: Type.Literal(true), id: Type.String(), revoked_at: Iso },
  example({ success: true, id: KEY_ID, revoked_at: AT }),
);
export type RevokeKeyResponse = Static<typeof RevokeKeyResponse>;
