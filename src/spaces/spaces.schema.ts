// The shared spaces API of SPEC §8 (create, list, read, set members, delete, promote), written once: it
// validates HTTP input, documents OpenAPI and types the service. The space fields of the memory
// operations (space_id, spaces, include_shared) are here too, and memory.schema.ts uses them.
import { Type, type Static } from "@sinclair/typebox";
import { example } from "~/shared/example";

const STRICT = { additionalProperties: false } as const;
export const MAX_MEMBERS = 1000;
export const MAX_SPACES_PER_SEARCH = 20;

/** A space id: also its memory space in the policy hierarchy, and a path segment. */
export const SpaceIdText = Type.String({
  minLength: 1,
  maxLength: 128,
  pattern: "^[A-Za-z0-9][A-Za-z0-9._-]*$",
  description:
    "Id of a shared space of the organization (letters, digits, '.', '_', '-'; 1–128). It is also the space's " +
    "memory space in the governance policy hierarchy: an override set on this id governs the space's memories",
});
const Role = Type.Union([Type.Literal("writer"), Type.Literal("reader")], {
  description: "writer: may add and promote memories into the space; reader: may only read them",
});
/** A user id (SPEC §2.2: 1–256 characters) with what it means in its place. */
const UserIdText = (description: string) => Type.String({ minLength: 1, maxLength: 256, description });
const MemberUserId = UserIdText("A user of the organization");
export const SpaceMember = Type.Object({ user_id: MemberUserId, role: Role }, STRICT);
export type SpaceMember = Static<typeof SpaceMember>;
const Members = Type.Array(SpaceMember, {
  maxItems: MAX_MEMBERS,
  description: "Every member with a role (≤ 1000, each user once). Admins of the organization need no membership",
});

export const CreateSpaceInput = Type.Object(
  {
    space_id: SpaceIdText,
    name: Type.String({ minLength: 1, maxLength: 256, description: "A readable name, e.g. 'Platform team'" }),
    members: Members,
  },
  {
    ...STRICT,
    ...example({
      space_id: "platform",
      name: "Platform team",
      members: [
        { user_id: "ana", role: "writer" },
        { user_id: "bo", role: "reader" },
      ],
    }),
  },
);
export type CreateSpaceInput = Static<typeof CreateSpaceInput>;

export const SetMembersInput = Type.Object(
  { members: Members },
  { ...STRICT, ...example({ members: [{ user_id: "ana", role: "writer" }] }) },
);
export type SetMembersInput = Static<typeof SetMembersInput>;

export const SpacePath = Type.Object({ id: SpaceIdText }, { ...STRICT, ...example({ id: "platform" }) });

const SPACE = {
  space_id: "platform",
  name: "Platform team",
  created_at: "2026-06-01T09:30:00.000Z",
  members: [
    { user_id: "ana", role: "writer" as const },
    { user_id: "bo", role: "reader" as const },
  ],
};
export const SpaceView = Type.Object({
  space_id: Type.String(),
  name: Type.String(),
  created_at: Type.String({ format: "date-time" }),
  members: Type.Array(SpaceMember),
});
export type SpaceView = Static<typeof SpaceView>;

export const SpaceResponse = Type.Object(
  { success: Type.Literal(true), ...SpaceView.properties },
  example({ success: true, ...SPACE }),
);
export type SpaceResponse = Static<typeof SpaceResponse>;

export const SpaceListResponse = Type.Object(
  {
    success: Type.Literal(true),
    spaces: Type.Array(SpaceView, {
      description: "By id: an admin sees every space of the organization, anyone else the spaces they belong to",
    }),
  },
  example({ success: true, spaces: [SPACE] }),
);
export type SpaceListResponse = Static<typeof SpaceListResponse>;

export const DeleteSpaceResponse = Type.Object(
  {
    success: Type.Literal(true),
    space_id: Type.String(),
    deleted_count: Type.Integer({ description: "The space's memories deleted with it" }),
  },
  example({ success: true, space_id: "platform", deleted_count: 12 }),
);
export type DeleteSpaceResponse = Static<typeof DeleteSpaceResponse>;

/** The list_spaces tool's input: whose spaces (over HTTP, GET /spaces takes the user from the key). */
export const ListSpacesInput = Type.Object(
  {
    user_id: Type.Optional(UserIdText("Whose spaces to list (default: the connection's user)")),
  },
  STRICT,
);
export type ListSpacesInput = Static<typeof ListSpacesInput>;

/** The body of POST /memories/:id/promote. */
export const PromoteBody = Type.Object(
  {
    user_id: Type.Optional(
      UserIdText("Whose memory it is (default: the key's user); the caller must be a writer of the space"),
    ),
    space_id: SpaceIdText,
  },
  { ...STRICT, ...example({ user_id: "ana", space_id: "platform" }) },
);
export type PromoteBody = Static<typeof PromoteBody>;

// ---- the space fields of the memory operations ----
export const SpaceIdField = Type.String({
  ...SpaceIdText,
  description:
    "Write into this shared space of the organization instead of the user's own memory (writers of the space " +
    "and admins only; readers and non-members get 403, an unknown space 404). The memory's metadata.provenance " +
    "records who wrote it",
});
export const SpacesFilter = Type.Array(SpaceIdText, {
  minItems: 1,
  maxItems: MAX_SPACES_PER_SEARCH,
  description:
    "Also return the memories of these shared spaces (the user must belong to each: else 403), merged with the " +
    "user's own; each result then carries space_id (null for the user's own)",
});
export const IncludeShared = Type.Boolean({
  description:
    "true: also return the memories of every shared space the user belongs to, merged with the user's own; each " +
    "result then carries space_id (null for the user's own). Default false: the user's own memories only",
});
export const ResultSpace = Type.Union([Type.String(), Type.Null()], {
  description:
    "The shared space the memory belongs to, or null for the user's own (present only when the request asked for spaces)",
});
