// The graph endpoints of SPEC §6: upsert entities and relationships, find entities, traverse.
import type { Services } from "~/services";
import {
  FindEntitiesQuery,
  FindEntitiesResponse,
  TraverseBody,
  TraverseResponse,
  UpsertEntitiesBody,
  UpsertEntitiesResponse,
  UpsertRelationshipsBody,
  UpsertRelationshipsResponse,
} from "~/graph/graph.schema";
import { router } from "./router";
import { spec, type RouteSpec } from "./route-spec";
import { userScopeOf } from "./access";
import { ACCESS } from "~/identity/access";

// With GRAPH_DB_ENABLED the graph lives in Neo4j too: while it is down, graph routes answer 503.
const doc = <const S extends Omit<RouteSpec, "tag" | "summary" | "errors">>(summary: string, s: S) =>
  spec({ tag: "graph", summary, errors: ["UNAVAILABLE"], ...s });

export const graphRoutes = (s: Services) =>
  router("/graph")
    .post(
      "/entities",
      ({ body, request }) => s.graph.upsertEntities(userScopeOf(request), body),
      doc("Create or update entities", {
        body: UpsertEntitiesBody,
        response: UpsertEntitiesResponse,
        access: ACCESS.userWrite,
      }),
    )
    .post(
      "/relationships",
      ({ body, request }) => s.graph.upsertRelationships(userScopeOf(request), body),
      doc("Create or update relationships", {
        description: "Both ends must exist (else 400 naming relationships[i].from or .to).",
        body: UpsertRelationshipsBody,
        response: UpsertRelationshipsResponse,
        access: ACCESS.userWrite,
      }),
    )
    .get(
      "/entities",
      ({ query, request }) => s.graph.findEntities(userScopeOf(request), query),
      doc("Find entities by name or type", {
        query: FindEntitiesQuery,
        response: FindEntitiesResponse,
        access: ACCESS.userRead,
      }),
    )
    .post(
      "/traverse",
      ({ body, request }) => s.graph.traverse(userScopeOf(request), body),
      spec({
        tag: "graph",
        summary: "Entities and relationships reachable from a start entity",
        description: "Unknown start → 404.",
        body: TraverseBody,
        response: TraverseResponse,
        errors: ["NOT_FOUND", "UNAVAILABLE"],
        writes: false,
        access: ACCESS.userRead,
      }),
    );
