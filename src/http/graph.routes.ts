// The graph endpoints of SPEC §6: upsert entities and relationships, find entities, traverse.
import type { Services } from "~/services";
import { FindEntitiesQuery, FindEntitiesResponse, TraverseBody, TraverseResponse, UpsertEntitiesBody, UpsertEntitiesResponse, UpsertRelationshipsBody, UpsertRelationshipsResponse } from "~/graph/graph.schema";
import { parseQuery, queryDoc } from "./query";
import { router } from "./router";

const doc = (summary: string, description?: string) => ({ detail: { tags: ["graph"], summary, description } });

export const graphRoutes = (s: Services) =>
  router("/graph")
    .post("/entities", ({ body }) => s.graph.upsertEntities(body), { body: UpsertEntitiesBody, response: UpsertEntitiesResponse, ...doc("Create or update entities") })
    .post("/relationships", ({ body }) => s.graph.upsertRelationships(body), {
      body: UpsertRelationshipsBody, response: UpsertRelationshipsResponse, ...doc("Create or update relationships", "Both ends must exist."),
    })
    .get("/entities", ({ query }) => s.graph.findEntities(parseQuery(FindEntitiesQuery, query)), {
      response: FindEntitiesResponse, detail: { tags: ["graph"], summary: "Find entities by name or type", parameters: queryDoc(FindEntitiesQuery) },
    })
    .post("/traverse", ({ body }) => s.graph.traverse(body), {
      body: TraverseBody, response: TraverseResponse, ...doc("Entities and relationships reachable from a start entity", "Unknown start → 404."),
    });
