// Query-string routes validate with our own checkInput (Elysia's numeric coercion drops the
// field name from errors); queryDoc documents the same schema as OpenAPI parameters.
import type { TObject } from "@sinclair/typebox";
import { checkInput } from "~/shared/validate";

export const parseQuery = <T extends TObject>(schema: T, query: Record<string, unknown>) =>
  checkInput(schema, query, true);

export function queryDoc(schema: TObject) {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, s]) => ({
    name,
    in: "query" as const,
    required: required.has(name),
    description: (s as { description?: string }).description,
    schema: s,
  }));
}
