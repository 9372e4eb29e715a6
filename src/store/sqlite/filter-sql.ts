// The visibility rules of SPEC §2.3 as one SQL fragment over `memories m`: organization and user, agent,
// session, expiry and metadata filters — fixed SQL text, user values only as parameters.
// Values compared with = are `+?`: the statements this joins have ORDER BY (docs/ARCHITECTURE.md, "Bound values").
import { metadataClauses, type FilterScalar } from "../metadata-filter";
import type { MemoryFilter } from "../repos/search-repo";

export type SqlParam = string | number | bigint | null | Uint8Array;

export function filterSql(f: MemoryFilter): { where: string; params: SqlParam[] } {
  const clauses = [
    "m.org_id = +?",
    "m.user_id = +?",
    "m.session_id = +?",
    "(m.expires_at IS NULL OR m.expires_at > ?)",
  ];
  const params: SqlParam[] = [f.org, f.userId, f.sessionId, f.now];
  if (!f.includeSuperseded) clauses.push("m.superseded_by IS NULL");
  if (f.agentId !== undefined) {
    clauses.push("m.agent_id = +?");
    params.push(f.agentId);
  }
  for (const c of metadataClauses(f.metadata)) {
    const path = `$."${c.key}"`;
    if (c.kind === "holds") {
      clauses.push("EXISTS (SELECT 1 FROM json_each(m.metadata, ?) j WHERE j.value = +? AND j.type = +?)");
      params.push(path, ...jsonScalar(c.value));
    } else if (c.kind === "null") {
      clauses.push("json_type(m.metadata, ?) = 'null'");
      params.push(path);
    } else if (c.kind === "object") {
      clauses.push("json(json_extract(m.metadata, ?)) = json(?)");
      params.push(path, c.json);
    } else {
      clauses.push("json_extract(m.metadata, ?) = +? AND json_type(m.metadata, ?) = +?");
      const [v, type] = jsonScalar(c.value);
      params.push(path, v, path, type);
    }
  }
  return { where: clauses.join(" AND "), params };
}

/** A JSON scalar as SQLite sees it: its value and json_type name. */
function jsonScalar(v: FilterScalar): [SqlParam, string] {
  if (typeof v === "string") return [v, "text"];
  if (typeof v === "boolean") return [v ? 1 : 0, v ? "true" : "false"];
  return [v, Number.isInteger(v) ? "integer" : "real"];
}
