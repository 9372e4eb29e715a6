// The graph endpoints of SPEC §6: upsert entities and relationships, find entities, traverse.
import type { TObject, TSchema } from "@sinclair/typebox";
import type { Services } from "~/services";
import { FindEntitiesQuery, FindEntitiesResponse, TraverseBody, TraverseResponse, UpsertEntitiesBody, UpsertEntitiesResponse, UpsertRelationshipsBody, UpsertRelationshipsResponse } from "~/graph/graph.schema";
import { parseQuery, queryDoc } from "./query";
import { router } from "./router";
import { okResponse } from "./docs";

const doc = (summary: string, response: TSchema, o: { description?: string; query?: TObject } = {}) => ({
  detail: { tags: ["graph"], summary, description: o.description, ...(o.query ? { parameters: queryDoc(o.query) } : {}), ...okResponse(response) },
});

export const graphRoutes = (s: Services) =>
  router("/graph")
    .post("/entities", ({ body }) => s.graph.upsertEntities(body), { body: UpsertEntitiesBody, ...doc("Create or update entities", UpsertEntitiesResponse) })
    .post("/relationships", ({ body }) => s.graph.upsertRelationships(body), {
      body: UpsertRelationshipsBody, ...doc("Create or update relationships", UpsertRelationshipsResponse, { description: "Both ends must exist." }),
    })
    .get("/entities", ({ query }) => s.graph.findEntities(parseQuery(FindEntitiesQuery, query)), doc("Find entities by name or type", FindEntitiesResponse, { query: FindEntitiesQuery }))
    .post("/traverse", ({ body }) => s.graph.traverse(body), {
      body: TraverseBody, ...doc("Entities and relationships reachable from a start entity", TraverseResponse, { description: "Unknown start → 404." }),
    });
