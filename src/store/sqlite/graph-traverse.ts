// Traversal over the embedded graph in SQLite: one recursive CTE per (direction, filtered) pair, built
// from fixed fragments (never from user text), and the statement that reads the edges among results.
import type { WalkDirection } from "../repos/graph-repo";

const TYPE_FILTER = "AND r.type IN (SELECT value FROM json_each($types))";

// One step along stored direction (from → to) or against it. UNION (not UNION ALL) keeps one
// row per (node, depth), so cycles cannot multiply rows and the depth bound ends the walk:
// at most nodes × (max_depth + 1) rows, however cyclic the graph.
const step = (forward: boolean, filtered: boolean): string => `
  SELECT r.${forward ? "to_node" : "from_node"}, w.depth + 1
  FROM walk w JOIN graph_relationships r ON r.${forward ? "from_node" : "to_node"} = w.node
  WHERE w.depth < $maxDepth AND r.org_id = +$org AND r.user_id = +$user ${filtered ? TYPE_FILTER : ""}`;

function build(direction: WalkDirection, filtered: boolean): string {
  const steps =
    direction === "out"
      ? [step(true, filtered)]
      : direction === "in"
        ? [step(false, filtered)]
        : [step(true, filtered), step(false, filtered)];
  return `WITH RECURSIVE walk(node, depth) AS (
    SELECT $start, 0
    UNION ${steps.join("\n    UNION ")}
  )
  SELECT e.node AS node, e.type AS type, e.id AS id, e.name AS name, e.properties AS properties, min(w.depth) AS depth
  FROM walk w JOIN graph_entities e ON e.node = w.node
  WHERE e.org_id = +$org AND e.user_id = +$user
  GROUP BY w.node
  ORDER BY depth, e.type, e.id
  LIMIT +$limit`;
}

const WALK_SQL: Record<WalkDirection, [string, string]> = {
  out: [build("out", false), build("out", true)],
  in: [build("in", false), build("in", true)],
  both: [build("both", false), build("both", true)],
};

export const walkSql = (direction: WalkDirection, filtered: boolean): string => WALK_SQL[direction][filtered ? 1 : 0];

// Every relationship leaving a returned entity; those whose far end was not returned are
// dropped by the caller. CROSS JOIN pins the loop order: node list outside, index probe inside.
export const edgesSql = `SELECT r.from_node AS fromNode, r.type AS type, r.to_node AS toNode
  FROM json_each($nodes) j CROSS JOIN graph_relationships r ON r.from_node = j.value
  WHERE r.org_id = $org AND r.user_id = $user`;
