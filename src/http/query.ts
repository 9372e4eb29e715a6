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

/** How a query value for `schema` is converted; null: it stays text. */
function converterOf(schema: TSchema): ((value: unknown) => unknown) | null {
  const types = typesOf(schema);
  if (types.includes("integer") || types.includes("number")) return plainInteger;
  if (types.includes("boolean")) return (value) => (value === "true" || value === "false" ? value === "true" : value);
  return null;
}

/**
 * An Elysia `transform` hook converting the query of a route whose query schema is `schema`. What each field
 * needs is worked out once, here, not per request (walking the schema was 1% of a get).
 */
export const queryConverter = (schema: TObject) => {
  const fields = Object.entries(schema.properties)
    .map(([name, s]) => [name, converterOf(s)] as const)
    .filter((f): f is readonly [string, (value: unknown) => unknown] => f[1] !== null);
  return ({ query }: { query: Record<string, unknown> }) => {
    for (const [name, convert] of fields) if (query[name] !== undefined) query[name] = convert(query[name]);
  };
};
