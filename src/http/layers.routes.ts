// HTTP for the data layers (SPEC §5.1): conversations, immutable records, mutable keys.
import { router } from "./router";
import type { Services } from "~/services";
import {
  AppendMessagesInput,
  ConversationListResponse,
  ConversationPath,
  ConversationResponse,
  ConversationUser,
  CreateConversationInput,
  GetImmutableQuery,
  ImmutableKey,
  ImmutablePutResponse,
  ImmutableRecordResponse,
  ImmutableVersionsResponse,
  ListConversationsInput,
  MutableDeleteResponse,
  MutableKey,
  MutableResponse,
  PutImmutableInput,
  PutMutableInput,
} from "~/layers/layers.schema";
import { spec, type RouteSpec } from "./route-spec";
import { orgScopeOf, userScopeOf } from "./access";
import { ACCESS } from "~/identity/access";

type Spec = Omit<RouteSpec, "tag" | "summary">;
const conversations = <const S extends Spec>(summary: string, s: S) => spec({ tag: "conversations", summary, ...s });
const immutable = <const S extends Spec>(summary: string, s: S) => spec({ tag: "immutable", summary, ...s });
const mutable = <const S extends Spec>(summary: string, s: S) => spec({ tag: "mutable", summary, ...s });

export const layerRoutes = (s: Services) =>
  router()
    .post(
      "/conversations",
      ({ body, request }) => s.conversations.create(userScopeOf(request), body),
      conversations("Start a conversation", {
        body: CreateConversationInput,
        response: ConversationResponse,
        access: ACCESS.userWrite,
      }),
    )
    .post(
      "/conversations/:id/messages",
      ({ params, body, request }) => s.conversations.append(userScopeOf(request), params.id, body),
      conversations("Append messages (append-only)", {
        description: "An archived conversation is read-only: 409 CONFLICT.",
        params: ConversationPath,
        body: AppendMessagesInput,
        response: ConversationResponse,
        errors: ["NOT_FOUND", "CONFLICT"],
        access: ACCESS.userWrite,
      }),
    )
    .get(
      "/conversations/:id",
      ({ params, request }) => s.conversations.get(userScopeOf(request), params.id),
      conversations("A conversation with its messages", {
        params: ConversationPath,
        query: ConversationUser,
        response: ConversationResponse,
        errors: ["NOT_FOUND"],
        access: ACCESS.userRead,
      }),
    )
    .get(
      "/conversations",
      ({ query, request }) => s.conversations.list(userScopeOf(request), query),
      conversations("A user's conversations, newest first", {
        query: ListConversationsInput,
        response: ConversationListResponse,
        access: ACCESS.userRead,
      }),
    )
    .put(
      "/immutable/:type/:id",
      ({ params, body, request }) => s.immutable.put(orgScopeOf(request), params.type, params.id, body),
      immutable("Write a new version of a record", {
        description: "Records belong to the organization: writing one needs an admin key.",
        params: ImmutableKey,
        body: PutImmutableInput,
        response: ImmutablePutResponse,
        errors: ["CONFLICT"],
        access: ACCESS.admin,
      }),
    )
    .get(
      "/immutable/:type/:id",
      ({ params, query, request }) => s.immutable.get(orgScopeOf(request), params.type, params.id, query.version),
      immutable("The current (or a given) version of a record", {
        description: "Any key of the organization; a record of another user is 404 for member and reader keys.",
        params: ImmutableKey,
        query: GetImmutableQuery,
        response: ImmutableRecordResponse,
        errors: ["NOT_FOUND"],
        access: ACCESS.orgRead,
        writes: true, // accessed_at, for purgeUnusedAfter
      }),
    )
    .get(
      "/immutable/:type/:id/versions",
      ({ params, request }) => s.immutable.versions(orgScopeOf(request), params.type, params.id),
      immutable("All versions of a record, newest first", {
        params: ImmutableKey,
        response: ImmutableVersionsResponse,
        errors: ["NOT_FOUND"],
        access: ACCESS.orgRead,
        writes: true,
      }),
    )
    .put(
      "/mutable/:namespace/:key",
      ({ params, body, request }) => s.mutable.put(orgScopeOf(request), params.namespace, params.key, body),
      mutable("Set a key (optional ttl or expiresAt)", {
        description: "Keys belong to the organization: writing one needs an admin key.",
        params: MutableKey,
        body: PutMutableInput,
        response: MutableResponse,
        access: ACCESS.admin,
      }),
    )
    .get(
      "/mutable/:namespace/:key",
      ({ params, request }) => s.mutable.get(orgScopeOf(request), params.namespace, params.key),
      mutable("Read a key", {
        description: "Any key of the organization; a key of another user is 404 for member and reader keys.",
        params: MutableKey,
        response: MutableResponse,
        errors: ["NOT_FOUND"],
        writes: true,
        access: ACCESS.orgRead,
      }),
    )
    .delete(
      "/mutable/:namespace/:key",
      ({ params, request }) => s.mutable.delete(orgScopeOf(request), params.namespace, params.key),
      mutable("Delete a key", {
        params: MutableKey,
        response: MutableDeleteResponse,
        errors: ["NOT_FOUND"],
        access: ACCESS.admin,
      }),
    );
