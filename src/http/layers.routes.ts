// HTTP for the data layers (SPEC §5.1): conversations, immutable records, mutable keys.
import { router } from "./router";
import type { TObject } from "@sinclair/typebox";
import type { Services } from "~/services";
import { checkInput } from "~/shared/validate";
import {
  AppendMessagesInput,
  ConversationRef,
  CreateConversationInput,
  GetImmutableQuery,
  ImmutableKey,
  ListConversationsInput,
  MutableKey,
  PutImmutableInput,
  PutMutableInput,
} from "~/layers/layers.schema";
import { parseQuery } from "./query";
import { routeDoc } from "./docs";

const tag = (tag: string, summary: string, query?: TObject) => routeDoc(tag, summary, { query });

export const layerRoutes = (s: Services) =>
  router()
    .post("/conversations", ({ body }) => s.conversations.create(body), {
      body: CreateConversationInput,
      ...tag("conversations", "Start a conversation"),
    })
    .post("/conversations/:id/messages", ({ params, body }) => s.conversations.append(params.id, body), {
      body: AppendMessagesInput,
      ...tag("conversations", "Append messages (append-only)"),
    })
    .get(
      "/conversations/:id",
      ({ params, query }) => s.conversations.get(parseQuery(ConversationRef, { ...query, id: params.id })),
      {
        ...tag("conversations", "A conversation with its messages"),
      },
    )
    .get("/conversations", ({ query }) => s.conversations.list(parseQuery(ListConversationsInput, query)), {
      ...tag("conversations", "A user's conversations, newest first", ListConversationsInput),
    })
    .put(
      "/immutable/:type/:id",
      ({ params, body }) => {
        const key = checkInput(ImmutableKey, params);
        return s.immutable.put(key.type, key.id, body);
      },
      { body: PutImmutableInput, ...tag("immutable", "Write a new version of a record") },
    )
    .get(
      "/immutable/:type/:id",
      ({ params, query }) => {
        const key = checkInput(ImmutableKey, params);
        return s.immutable.get(key.type, key.id, parseQuery(GetImmutableQuery, query).version);
      },
      { ...tag("immutable", "The current (or a given) version of a record", GetImmutableQuery) },
    )
    .get(
      "/immutable/:type/:id/versions",
      ({ params }) => {
        const key = checkInput(ImmutableKey, params);
        return s.immutable.versions(key.type, key.id);
      },
      { ...tag("immutable", "All versions of a record, newest first") },
    )
    .put(
      "/mutable/:namespace/:key",
      ({ params, body }) => {
        const key = checkInput(MutableKey, params);
        return s.mutable.put(key.namespace, key.key, body);
      },
      { body: PutMutableInput, ...tag("mutable", "Set a key (optional ttl or expiresAt)") },
    )
    .get(
      "/mutable/:namespace/:key",
      ({ params }) => {
        const key = checkInput(MutableKey, params);
        return s.mutable.get(key.namespace, key.key);
      },
      { ...tag("mutable", "Read a key") },
    )
    .delete(
      "/mutable/:namespace/:key",
      ({ params }) => {
        const key = checkInput(MutableKey, params);
        return s.mutable.delete(key.namespace, key.key);
      },
      { ...tag("mutable", "Delete a key") },
    );
