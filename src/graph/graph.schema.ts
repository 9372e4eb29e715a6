// The graph's shapes (SPEC §6), written once: HTTP bodies, responses and the types the
// stores use (`Static<...>`), with descriptions that become the OpenAPI document.
import { Type, type Static } from "@sinclair/typebox";
import { example } from "~/shared/example";
import { userIdField } from "~/shared/user-field";

export const MAX_TRAVERSE_DEPTH = 10;
export const MAX_TRAVERSE_LIMIT = 1000;
export const DEFAULT_TRAVERSE_DEPTH = 2;
export const DEFAULT_TRAVERSE_LIMIT = 100;
export const DEFAULT_FIND_LIMIT = 50;

const ANN = { type: "person", id: "ann", name: "Ann", properties: { role: "engineer" } };
const OSLO = { type: "place", id: "oslo", name: "Oslo", properties: {} };
const LIVES_IN = { from: { type: "person", id: "ann" }, type: "LIVES_IN", to: { type: "place", id: "oslo" } };

const UserId = userIdField("Owner of the graph; every read and write is confined to it");

export const EntityTypeField = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: "^[A-Za-z][A-Za-z0-9_-]*$",
  description: "Entity kind, e.g. person, place, organization, technology, date, pet (case-sensitive)",
});
export const EntityIdField = Type.String({
  minLength: 1,
  maxLength: 256,
  description: "Entity id, unique per user and type; extracted entities use a lower-case slug of the name",
});
// Relationship names are identifiers so they can become native Neo4j types later without escaping.
export const RelationshipTypeField = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: "^[A-Za-z_][A-Za-z0-9_]*$",
  description: "Relationship name, e.g. WORKS_AT, LIVES_IN, HAS_PET, USES",
});
const Properties = Type.Record(Type.String(), Type.Unknown(), {
  description:
    "Free-form JSON object. Upserts merge it into the stored one (JSON merge patch: a null value removes the key)",
});

export const EntityRefSchema = Type.Object(
  { type: EntityTypeField, id: EntityIdField },
  { description: "Identifies one entity of the user" },
);
export type EntityRef = Static<typeof EntityRefSchema>;

export const EntityInputSchema = Type.Object({
  type: EntityTypeField,
  id: EntityIdField,
  name: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 512,
      description: "Display name; defaults to the id on creation, kept when omitted later",
    }),
  ),
  properties: Type.Optional(Properties),
});
export type EntityInput = Static<typeof EntityInputSchema>;

export const EntitySchema = Type.Object({
  type: EntityTypeField,
  id: EntityIdField,
  name: Type.String({ description: "Display name" }),
  properties: Type.Record(Type.String(), Type.Unknown(), { description: "Stored properties" }),
});
export type Entity = Static<typeof EntitySchema>;

export const RelationshipInputSchema = Type.Object({
  from: EntityRefSchema,
  type: RelationshipTypeField,
  to: EntityRefSchema,
  properties: Type.Optional(Properties),
});
export type RelationshipInput = Static<typeof RelationshipInputSchema>;

export const RelationshipSchema = Type.Object({
  from: EntityRefSchema,
  type: RelationshipTypeField,
  to: EntityRefSchema,
  properties: Type.Record(Type.String(), Type.Unknown(), { description: "Stored properties" }),
});
export type Relationship = Static<typeof RelationshipSchema>;

export const EdgeSchema = Type.Object(
  { from: EntityRefSchema, type: RelationshipTypeField, to: EntityRefSchema },
  { description: "A directed relationship from → to" },
);
export type Edge = Static<typeof EdgeSchema>;

export const DirectionSchema = Type.Union([Type.Literal("out"), Type.Literal("in"), Type.Literal("both")], {
  default: "both",
  description: "out follows relationships from → to, in follows them backwards, both ignores their direction",
});
export type Direction = Static<typeof DirectionSchema>;

export const UpsertEntitiesBody = Type.Object(
  {
    user_id: UserId,
    entities: Type.Array(EntityInputSchema, {
      minItems: 1,
      maxItems: 1000,
      description: "Entities to create or update",
    }),
  },
  { additionalProperties: false, ...example({ user_id: "alice", entities: [ANN, OSLO] }) },
);
export type UpsertEntitiesBody = Static<typeof UpsertEntitiesBody>;

export const UpsertEntitiesResponse = Type.Object(
  {
    success: Type.Literal(true),
    entities: Type.Array(EntitySchema, { description: "The stored entities after the upsert, in request order" }),
  },
  example({ success: true, entities: [ANN, OSLO] }),
);
export type UpsertEntitiesResponse = Static<typeof UpsertEntitiesResponse>;

export const UpsertRelationshipsBody = Type.Object(
  {
    user_id: UserId,
    relationships: Type.Array(RelationshipInputSchema, {
      minItems: 1,
      maxItems: 1000,
      description:
        "Relationships to create or update; both ends must already exist (else 400 naming relationships[i].from or .to)",
    }),
  },
  {
    additionalProperties: false,
    ...example({ user_id: "alice", relationships: [{ ...LIVES_IN, properties: { since: 2019 } }] }),
  },
);
export type UpsertRelationshipsBody = Static<typeof UpsertRelationshipsBody>;

export const UpsertRelationshipsResponse = Type.Object(
  {
    success: Type.Literal(true),
    relationships: Type.Array(RelationshipSchema, {
      description: "The stored relationships after the upsert, in request order",
    }),
  },
  example({ success: true, relationships: [{ ...LIVES_IN, properties: { since: 2019 } }] }),
);
export type UpsertRelationshipsResponse = Static<typeof UpsertRelationshipsResponse>;

// Unknown fields are refused (as in the memory API): a mistyped `name` for `q` must not list every entity.
export const FindEntitiesQuery = Type.Object(
  {
    user_id: UserId,
    q: Type.Optional(
      Type.String({
        maxLength: 256,
        description: "Part of the entity's name, any case ('mar' finds Maria); leave it out to list entities by name",
      }),
    ),
    type: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: EntityTypeField.pattern,
        description: "Only entities of this kind, e.g. person, place, organization, technology, pet (case-sensitive)",
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_TRAVERSE_LIMIT,
        default: DEFAULT_FIND_LIMIT,
        description: "At most this many results (default 50)",
      }),
    ),
  },
  { additionalProperties: false, ...example({ user_id: "alice", q: "ann", limit: 10 }) },
);
export type FindEntitiesQuery = Static<typeof FindEntitiesQuery>;

export const FindEntitiesResponse = Type.Object(
  {
    success: Type.Literal(true),
    results: Type.Array(EntitySchema, { description: "Exact name matches first, then prefix matches, then by name" }),
  },
  example({ success: true, results: [ANN] }),
);
export type FindEntitiesResponse = Static<typeof FindEntitiesResponse>;

export const TraverseBody = Type.Object(
  {
    user_id: UserId,
    start: Type.Object(
      { type: EntityTypeField, id: EntityIdField },
      {
        description:
          "The entity to start from: its type and id exactly as graph_search returns them (an unknown one is NOT_FOUND). " +
          "Facts about the user themself hang off {type: 'person', id: 'user'}",
      },
    ),
    relationships: Type.Optional(
      Type.Array(RelationshipTypeField, {
        minItems: 1,
        maxItems: 50,
        description: "Follow only these relationship names (absent = all)",
      }),
    ),
    max_depth: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_TRAVERSE_DEPTH,
        default: DEFAULT_TRAVERSE_DEPTH,
        description: "Longest walk from the start, in relationships",
      }),
    ),
    direction: Type.Optional(DirectionSchema),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_TRAVERSE_LIMIT,
        default: DEFAULT_TRAVERSE_LIMIT,
        description: "At most this many entities (the start included)",
      }),
    ),
  },
  { additionalProperties: false, ...example({ user_id: "alice", start: { type: "person", id: "ann" }, max_depth: 2 }) },
);
export type TraverseBody = Static<typeof TraverseBody>;

export const TraversedEntitySchema = Type.Composite([
  EntitySchema,
  Type.Object({
    depth: Type.Integer({ minimum: 0, description: "Fewest relationships from the start (the start itself is 0)" }),
  }),
]);
export type TraversedEntity = Static<typeof TraversedEntitySchema>;

export const TraverseResponse = Type.Object(
  {
    success: Type.Literal(true),
    entities: Type.Array(TraversedEntitySchema, {
      description:
        "The start (depth 0) and every entity reached, each once at its smallest depth; ordered by depth, type, id",
    }),
    relationships: Type.Array(EdgeSchema, {
      description:
        "Every followed relationship between returned entities that lies on a walk of at most max_depth steps",
    }),
  },
  example({
    success: true,
    entities: [
      { ...ANN, depth: 0 },
      { ...OSLO, depth: 1 },
    ],
    relationships: [LIVES_IN],
  }),
);
export type TraverseResponse = Static<typeof TraverseResponse>;
