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
import { parseQuery } from "./query";
import { router } from "./router";
import { routeDoc, type RouteDoc } from "./docs";

const doc = (summary: string, o: RouteDoc) => routeDoc("graph", summary, o);

export const graphRoutes = (s: Services) =>
  router("/graph")
    .post("/entities", ({ body }) => s.graph.upsertEntities(body), {
      body: UpsertEntitiesBody,
      ...doc("Create or update entities", { response: UpsertEntitiesResponse }),
    })
    .post("/relationships", ({ body }) => s.graph.upsertRelationships(body), {
      body: UpsertRelationshipsBody,
      ...doc("Create or update relationships", {
        description: "Both ends must exist.",
        response: UpsertRelationshipsResponse,
      }),
    })
    .get(
      "/entities",
      ({ query }) => s.graph.findEntities(parseQuery(FindEntitiesQuery, query)),
      doc("Find entities by name or type", { query: FindEntitiesQuery, response: FindEntitiesResponse }),
    )
    .post("/traverse", ({ body }) => s.graph.traverse(body), {
      body: TraverseBody,
      ...doc("Entities and relationships reachable from a start entity", {
        description: "Unknown start → 404.",
        response: TraverseResponse,
      }),
    });
