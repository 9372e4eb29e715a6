// The visibility rules of SPEC §2.3 as one SQL fragment over `memories m`: user, agent,
// session, expiry and metadata filters — fixed SQL text, user values only as parameters.
import { validationError } from "~/shared/errors";
import type { MemoryFilter } from "../repos/search-repo";

export type SqlParam = string | number | bigint | null | Uint8Array;

const SAFE_KEY = /^[^"\\\u0000-\u001f]{1,128}$/;

export function filterSql(f: MemoryFilter): { where: string; params: SqlParam[] } {
  const clauses = ["m.user_id = ?", "m.session_id = ?", "(m.expires_at IS NULL OR m.expires_at > ?)"];
  const params: SqlParam[] = [f.userId, f.sessionId, f.now];
  if (f.agentId !== undefined) {
    clauses.push("m.agent_id = ?");
    params.push(f.agentId);
  }
  for (const [key, value] of Object.entries(f.metadata ?? {})) {
    if (!SAFE_KEY.test(key))
      throw validationError(
        `metadata.${key}`,
        "metadata filter keys must not contain quotes, backslashes or control characters",
      );
    const path = `$."${key}"`;
    if (Array.isArray(value)) {
      for (const el of value) {
        clauses.push("EXISTS (SELECT 1 FROM json_each(m.metadata, ?) j WHERE j.value = ? AND j.type = ?)");
        params.push(path, ...jsonScalar(key, el));
      }
    } else if (value === null) {
      clauses.push("json_type(m.metadata, ?) = 'null'");
      params.push(path);
    } else if (typeof value === "object") {
      clauses.push("json(json_extract(m.metadata, ?)) = json(?)");
      params.push(path, JSON.stringify(value));
    } else {
      clauses.push("json_extract(m.metadata, ?) = ? AND json_type(m.metadata, ?) = ?");
      const [v, type] = jsonScalar(key, value);
      params.push(path, v, path, type);
    }
  }
  return { where: clauses.join(" AND "), params };
}

/** A JSON scalar as SQLite sees it: its value and json_type name. */
function jsonScalar(key: string, v: unknown): [SqlParam, string] {
  if (typeof v === "string") return [v, "text"];
  if (typeof v === "boolean") return [v ? 1 : 0, v ? "true" : "false"];
  if (typeof v === "number" && Number.isFinite(v)) return [v, Number.isInteger(v) ? "integer" : "real"];
  throw validationError(
    `metadata.${key}`,
    "metadata filter values must be strings, numbers, booleans, null, objects or arrays of scalars",
  );
}
