// The visibility rules of SPEC §2.3 as one SQL fragment over `memories m` in PostgreSQL: organization and user, agent,
// session, expiry and metadata (jsonb) filters — fixed SQL text, values only as parameters ($n, counted
// on from the caller's). The same clauses as the SQLite store's (store/metadata-filter.ts).
// JSON parameters are sent as text and cast: Bun JSON-encodes a string bound to a jsonb parameter.
import { metadataClauses } from "../metadata-filter";
import type { MemoryFilter } from "../repos/search-repo";

/** Appends the filter's parameters to `params` and returns the condition that names them. */
export function filterSql(f: MemoryFilter, params: unknown[]): string {
  const p = (v: unknown) => `$${params.push(v)}`;
  const clauses = [
    `m.org_id = ${p(f.org)}`,
    `m.user_id = ${p(f.userId)}`,
    `m.session_id = ${p(f.sessionId)}`,
    `(m.expires_at IS NULL OR m.expires_at > ${p(f.now)})`,
  ];
  if (!f.includeSuperseded) clauses.push("m.superseded_by IS NULL");
  if (f.agentId !== undefined) clauses.push(`m.agent_id = ${p(f.agentId)}`);
  for (const c of metadataClauses(f.metadata)) {
    const at = `(m.metadata::jsonb -> ${p(c.key)}::text)`;
    if (c.kind === "holds")
      // Like SQLite's json_each: an array's elements, an object's values, or the scalar itself.
      clauses.push(
        `EXISTS (SELECT 1 FROM jsonb_array_elements(CASE jsonb_typeof(${at}) WHEN 'array' THEN ${at} ` +
          `WHEN 'object' THEN jsonb_path_query_array(${at}, '$.*') ELSE jsonb_build_array(${at}) END) e ` +
          `WHERE e = ${p(JSON.stringify(c.value))}::text::jsonb)`,
      );
    else if (c.kind === "null") clauses.push(`${at} = 'null'::jsonb`);
    else clauses.push(`${at} = ${p(c.kind === "object" ? c.json : JSON.stringify(c.value))}::text::jsonb`);
  }
  return clauses.join(" AND ");
}
