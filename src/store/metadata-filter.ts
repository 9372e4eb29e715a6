// The metadata filter of a search or list (SPEC §2.3) checked once for every engine: which keys and
// values are allowed, and what each one asks for. Each engine turns the clauses into its own SQL.
import { validationError } from "~/shared/errors";

export type FilterScalar = string | number | boolean;

export type MetadataClause =
  /** An array value: the metadata value is (or holds) this element. */
  | { kind: "holds"; key: string; value: FilterScalar }
  /** The key is present with JSON null. */
  | { kind: "null"; key: string }
  /** An object value, as JSON text. */
  | { kind: "object"; key: string; json: string }
  | { kind: "equals"; key: string; value: FilterScalar };

const SAFE_KEY = /^[^"\\\u0000-\u001f]{1,128}$/;

export function metadataClauses(metadata: Record<string, unknown> | undefined): MetadataClause[] {
  const out: MetadataClause[] = [];
  for (const [key, value] of Object.entries(metadata ?? {})) {
    if (!SAFE_KEY.test(key))
      throw validationError(
        `metadata.${key}`,
        "metadata filter keys must not contain quotes, backslashes or control characters",
      );
    if (Array.isArray(value)) for (const el of value) out.push({ kind: "holds", key, value: scalar(key, el) });
    else if (value === null) out.push({ kind: "null", key });
    else if (typeof value === "object") out.push({ kind: "object", key, json: JSON.stringify(value) });
    else out.push({ kind: "equals", key, value: scalar(key, value) });
  }
  return out;
}

function scalar(key: string, v: unknown): FilterScalar {
  if (typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number" && Number.isFinite(v)) return v;
  throw validationError(
    `metadata.${key}`,
    "metadata filter values must be strings, numbers, booleans, null, objects or arrays of scalars",
  );
}
