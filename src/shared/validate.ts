// Turns TypeBox validation failures into one AppError VALIDATION_ERROR with a dotted field,
// so HTTP (via Elysia), MCP and the in-process SDK report bad input identically.
import type { TSchema, Static } from "@sinclair/typebox";
import { Value, type ValueError } from "@sinclair/typebox/value";
import { AppError } from "./errors";

/** "/metadata/importance" → "metadata.importance"; "/messages/0/content" → "messages[0].content". */
export function pointerToField(path: string): string {
  return path
    .split("/")
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), "");
}

export function describeValueError(err: Pick<ValueError, "path" | "message" | "value" | "schema">): AppError {
  const field = pointerToField(err.path) || "body";
  if (err.value === undefined) return new AppError("VALIDATION_ERROR", `${field} is required`, field);
  const s = err.schema as Record<string, unknown>;
  let msg = err.message.charAt(0).toLowerCase() + err.message.slice(1);
  if (typeof err.value === "string" && s.maxLength !== undefined && err.value.length > (s.maxLength as number))
    msg = `must be at most ${s.maxLength} characters`;
  else if (typeof err.value === "string" && s.minLength !== undefined && err.value.length < (s.minLength as number))
    msg = s.minLength === 1 ? "must not be empty" : `must be at least ${s.minLength} characters`;
  else if (Array.isArray(err.value) && s.maxItems !== undefined && err.value.length > (s.maxItems as number))
    msg = `must have at most ${s.maxItems} items`;
  return new AppError("VALIDATION_ERROR", `${field}: ${msg}`, field);
}

/**
 * A query-string number: plain decimal digits become a number; anything else ("true", "0x10", "1e3", " 5")
 * stays the string it was, for the schema to refuse with the parameter's name.
 */
export const plainInteger = (v: unknown): unknown => (typeof v === "string" && /^-?\d{1,15}$/.test(v) ? Number(v) : v);

/** Validates and returns the typed value (MCP tool arguments and the in-process SDK; HTTP routes use Elysia). */
export function checkInput<T extends TSchema>(schema: T, value: unknown): Static<T> {
  const input = value ?? {};
  const first = Value.Errors(schema, input).First();
  if (first) throw describeValueError(first);
  return input as Static<T>;
}
