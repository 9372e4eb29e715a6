// Query strings carry text. Before Elysia validates a route's query, each value whose schema wants a
// number is converted by plainInteger (plain decimal digits only) and each boolean from "true"/"false";
// anything else stays text, so the validator refuses it naming the field. Elysia's own query coercion
// is not used: it reads " " as 0 and "0x10" as 16, and reports a fractional integer without its field.
import type { TObject, TSchema } from "@sinclair/typebox";
import { plainInteger } from "~/shared/validate";

function typesOf(schema: TSchema): string[] {
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as TSchema[]).flatMap(typesOf);
  return typeof schema.type === "string" ? [schema.type] : [];
}

function convert(schema: TSchema, value: unknown): unknown {
  const types = typesOf(schema);
  if (types.includes("integer") || types.includes("number")) return plainInteger(value);
  if (types.includes("boolean") && (value === "true" || value === "false")) return value === "true";
  return value;
}

/** An Elysia `transform` hook converting the query of a route whose query schema is `schema`. */
export const queryConverter =
  (schema: TObject) =>
  ({ query }: { query: Record<string, unknown> }) => {
    for (const [name, s] of Object.entries(schema.properties))
      if (query[name] !== undefined) query[name] = convert(s, query[name]);
  };
