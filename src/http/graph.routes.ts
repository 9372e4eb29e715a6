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

// With GRAPH_DB_ENABLED the graph lives in Neo4j too: while it is down, graph routes answer 503.
const doc = <const S extends Omit<RouteSpec, "tag" | "summary" | "errors">>(summary: string, s: S) =>
  spec({ tag: "graph", summary, errors: ["UNAVAILABLE"], ...s });

export const graphRoutes = (s: Services) =>
  router("/graph")
    .post(
      "/entities",
      ({ body }) => s.graph.upsertEntities(body),
      doc("Create or update entities", { body: UpsertEntitiesBody, response: UpsertEntitiesResponse }),
    )
    .post(
      "/relationships",
      ({ body }) => s.graph.upsertRelationships(body),
      doc("Create or update relationships", {
        description: "Both ends must exist (else 400 naming relationships[i].from or .to).",
        body: UpsertRelationshipsBody,
        response: UpsertRelationshipsResponse,
      }),
    )
    .get(
      "/entities",
      ({ query }) => s.graph.findEntities(query),
      doc("Find entities by name or type", { query: FindEntitiesQuery, response: FindEntitiesResponse }),
    )
    .post(
      "/traverse",
      ({ body }) => s.graph.traverse(body),
      spec({
        tag: "graph",
        summary: "Entities and relationships reachable from a start entity",
        description: "Unknown start → 404.",
        body: TraverseBody,
        response: TraverseResponse,
        errors: ["NOT_FOUND", "UNAVAILABLE"],
        writes: false,
      }),
    );
