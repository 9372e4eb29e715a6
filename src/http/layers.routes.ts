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

type Spec = Omit<RouteSpec, "tag" | "summary">;
const conversations = <const S extends Spec>(summary: string, s: S) => spec({ tag: "conversations", summary, ...s });
const immutable = <const S extends Spec>(summary: string, s: S) => spec({ tag: "immutable", summary, ...s });
const mutable = <const S extends Spec>(summary: string, s: S) => spec({ tag: "mutable", summary, ...s });

export const layerRoutes = (s: Services) =>
  router()
    .post(
      "/conversations",
      ({ body }) => s.conversations.create(body),
      conversations("Start a conversation", { body: CreateConversationInput, response: ConversationResponse }),
    )
    .post(
      "/conversations/:id/messages",
      ({ params, body }) => s.conversations.append(params.id, body),
      conversations("Append messages (append-only)", {
        description: "An archived conversation is read-only: 409 CONFLICT.",
        params: ConversationPath,
        body: AppendMessagesInput,
        response: ConversationResponse,
        errors: ["NOT_FOUND", "CONFLICT"],
      }),
    )
    .get(
      "/conversations/:id",
      ({ params, query }) => s.conversations.get({ id: params.id, user_id: query.user_id }),
      conversations("A conversation with its messages", {
        params: ConversationPath,
        query: ConversationUser,
        response: ConversationResponse,
        errors: ["NOT_FOUND"],
      }),
    )
    .get(
      "/conversations",
      ({ query }) => s.conversations.list(query),
      conversations("A user's conversations, newest first", {
        query: ListConversationsInput,
        response: ConversationListResponse,
      }),
    )
    .put(
      "/immutable/:type/:id",
      ({ params, body }) => s.immutable.put(params.type, params.id, body),
      immutable("Write a new version of a record", {
        description: "A record of the same type and id in another organization: 409 CONFLICT.",
        params: ImmutableKey,
        body: PutImmutableInput,
        response: ImmutablePutResponse,
        errors: ["CONFLICT"],
      }),
    )
    .get(
      "/immutable/:type/:id",
      ({ params, query }) => s.immutable.get(params.type, params.id, query.version),
      immutable("The current (or a given) version of a record", {
        params: ImmutableKey,
        query: GetImmutableQuery,
        response: ImmutableRecordResponse,
        errors: ["NOT_FOUND"],
        writes: true, // accessed_at, for purgeUnusedAfter
      }),
    )
    .get(
      "/immutable/:type/:id/versions",
      ({ params }) => s.immutable.versions(params.type, params.id),
      immutable("All versions of a record, newest first", {
        params: ImmutableKey,
        response: ImmutableVersionsResponse,
        errors: ["NOT_FOUND"],
        writes: true,
      }),
    )
    .put(
      "/mutable/:namespace/:key",
      ({ params, body }) => s.mutable.put(params.namespace, params.key, body),
      mutable("Set a key (optional ttl or expiresAt)", {
        params: MutableKey,
        body: PutMutableInput,
        response: MutableResponse,
      }),
    )
    .get(
      "/mutable/:namespace/:key",
      ({ params }) => s.mutable.get(params.namespace, params.key),
      mutable("Read a key", { params: MutableKey, response: MutableResponse, errors: ["NOT_FOUND"], writes: true }),
    )
    .delete(
      "/mutable/:namespace/:key",
      ({ params }) => s.mutable.delete(params.namespace, params.key),
      mutable("Delete a key", { params: MutableKey, response: MutableDeleteResponse, errors: ["NOT_FOUND"] }),
    );
