// Traversal over the embedded graph in PostgreSQL: one recursive CTE per (direction, filtered) pair,
// built from fixed fragments (never from user text). PostgreSQL allows a single recursive term, so the
// "both" walk steps over the relationships read in both directions at once (a UNION ALL of the two
// readings, outside the recursive reference) instead of SQLite's two recursive terms.

import type { WalkDirection } from "../repos/graph-repo";

/** $1 start, $2 user, $3 max depth, $4 limit, $5 organization, $6 types (when filtered). */
const TYPE_FILTER = "AND r.type = ANY($6::text[])";

/** The relationships as (node, next) along `direction`. */
function edges(direction: WalkDirection, filtered: boolean): string {
  const where = `WHERE r.org_id = $5 AND r.user_id = $2 ${filtered ? TYPE_FILTER : ""}`;
  const out = `SELECT r.from_node AS node, r.to_node AS next FROM graph_relationships r ${where}`;
  const back = `SELECT r.to_node AS node, r.from_node AS next FROM graph_relationships r ${where}`;
  return direction === "out" ? out : direction === "in" ? back : `${out} UNION ALL ${back}`;
}

// UNION (not UNION ALL) keeps one row per (node, depth): cycles cannot multiply rows and the depth bound
// ends the walk, at most nodes × (max_depth + 1) rows however cyclic the graph.
function build(direction: WalkDirection, filtered: boolean): string {
  return `WITH RECURSIVE steps AS (${edges(direction, filtered)}),
  walk(node, depth) AS (
    SELECT $1::bigint, 0
    UNION
    SELECT s.next, w.depth + 1 FROM walk w JOIN steps s ON s.node = w.node WHERE w.depth < $3
  )
  SELECT e.node AS node, e.type AS type, e.id AS id, e.name AS name, e.properties AS properties, min(w.depth) AS depth
  FROM walk w JOIN graph_entities e ON e.node = w.node
  WHERE e.org_id = $5 AND e.user_id = $2
  GROUP BY e.node
  ORDER BY depth, e.type, e.id
  LIMIT $4`;
}

const WALK_SQL: Record<WalkDirection, [string, string]> = {
  out: [build("out", false), build("out", true)],
  in: [build("in", false), build("in", true)],
  both: [build("both", false), build("both", true)],
};

export const walkSql = (direction: WalkDirection, filtered: boolean): string => WALK_SQL[direction][filtered ? 1 : 0];

/** Every relationship of the owner ($3, $2) leaving one of the nodes ($1); those whose far end was not returned are dropped by the caller. */
export const edgesSql = `SELECT r.from_node AS "fromNode", r.type AS type, r.to_node AS "toNode"
  FROM graph_relationships r WHERE r.from_node = ANY($1::bigint[]) AND r.org_id = $3 AND r.user_id = $2`;
