// OpenAPI-only parts of a route's description. A response shape is documented, not checked at run
// time: Elysia's `response` check (the date-time format of every row) cost 15 of the 75 µs a
// list_memories took in process. The shapes are enforced by test/http/response-shapes.test.ts.
import type { TSchema } from "@sinclair/typebox";

export const jsonBody = (schema: TSchema) => ({ "application/json": { schema } });

/** `detail.responses` for a route answering 200 with `schema`. */
export const okResponse = (schema?: TSchema) => (schema ? { responses: { 200: { description: "OK", content: jsonBody(schema) } } } : {});
