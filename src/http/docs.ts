// A route's OpenAPI description, one shape for every routes file. A response shape is documented,
// not checked at run time: Elysia's `response` check (the date-time format of every row) cost 15 of
// the 75 µs a list_memories took in process. The shapes are enforced by test/http/response-shapes.test.ts.
import type { TObject, TSchema } from "@sinclair/typebox";
import { queryDoc } from "./query";

export interface RouteDoc {
  description?: string;
  /** Query-string parameters (validated by the handler with parseQuery). */
  query?: TObject;
  /** A JSON body the handler validates itself (a body Elysia validates is documented from its `body` option). */
  body?: TSchema;
  optionalBody?: boolean;
  /** The 200 answer. */
  response?: TSchema;
}

const jsonBody = (schema: TSchema) => ({ "application/json": { schema } });

/** `detail` for a route under `tag`. */
export const routeDoc = (tag: string, summary: string, o: RouteDoc = {}) => ({
  detail: {
    tags: [tag],
    summary,
    description: o.description,
    ...(o.query ? { parameters: queryDoc(o.query) } : {}),
    ...(o.body ? { requestBody: { required: !o.optionalBody, content: jsonBody(o.body) } } : {}),
    ...(o.response ? { responses: { 200: { description: "OK", content: jsonBody(o.response) } } } : {}),
  },
});
