// Traversal over the embedded graph: one recursive CTE per (direction, filtered) pair, built
// from fixed fragments (never from user text), then the returned relationships.
import type { Db } from "~/store/sqlite";
import { checkTraverse, deepen, entityKey, parseProps, selectEdges, startNotFound } from "./graph-rules";
import type { Edge, TraverseOptions, TraverseResult, TraversedEntity } from "./graph-store";

type Dir = TraverseOptions["direction"];

const TYPE_FILTER = "AND r.type IN (SELECT value FROM json_each($types))";

// One step along stored direction (from → to) or against it. UNION (not UNION ALL) keeps one
// row per (node, depth), so cycles cannot multiply rows and the depth bound ends the walk:
// at most nodes × (max_depth + 1) rows, however cyclic the graph.
const step = (forward: boolean, filtered: boolean): string => `
  SELECT r.${forward ? "to_node" : "from_node"}, w.depth + 1
  FROM walk w JOIN graph_relationships r ON r.${forward ? "from_node" : "to_node"} = w.node
  WHERE w.depth < $maxDepth AND r.user_id = $user ${filtered ? TYPE_FILTER : ""}`;

function walkSql(direction: Dir, filtered: boolean): string {
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
  WHERE e.user_id = $user
  GROUP BY w.node
  ORDER BY depth, e.type, e.id
  LIMIT $limit`;
}

const WALK_SQL: Record<Dir, [string, string]> = {
  out: [walkSql("out", false), walkSql("out", true)],
  in: [walkSql("in", false), walkSql("in", true)],
  both: [walkSql("both", false), walkSql("both", true)],
};

// Every relationship leaving a returned entity; those whose far end was not returned are
// dropped in selectEdges. CROSS JOIN pins the loop order: node list outside, index probe inside.
const EDGES_SQL = `SELECT r.from_node AS fromNode, r.type AS type, r.to_node AS toNode
  FROM json_each($nodes) j CROSS JOIN graph_relationships r ON r.from_node = j.value
  WHERE r.user_id = $user`;

const START_SQL = "SELECT node FROM graph_entities WHERE user_id = $user AND type = $type AND id = $id";

interface WalkRow {
  node: number;
  type: string;
  id: string;
  name: string;
  properties: string;
  depth: number;
}

export async function traverseSqlite(db: Db, userId: string, o: TraverseOptions): Promise<TraverseResult> {
  const { maxDepth, limit, types } = checkTraverse(o);
  const start = db
    .query<{ node: number }, Record<string, string>>(START_SQL)
    .get({ user: userId, type: o.start.type, id: o.start.id });
  if (!start) throw startNotFound(o.start);
  const sql = WALK_SQL[o.direction][types ? 1 : 0];
  const params: Record<string, string | number> = { start: start.node, user: userId, limit };
  if (types) params.types = JSON.stringify(types);
  const stmt = db.query<WalkRow, Record<string, string | number>>(sql);
  const rows = await deepen(maxDepth, limit, (depth) => stmt.all({ ...params, maxDepth: depth }));

  const entities: TraversedEntity[] = rows.map((r) => ({
    type: r.type,
    id: r.id,
    name: r.name,
    properties: parseProps(r.properties),
    depth: r.depth,
  }));
  const byNode = new Map(rows.map((r) => [r.node, r]));
  const depths = new Map(rows.map((r) => [entityKey(r), r.depth]));
  return { entities, relationships: selectEdges(depths, edgesAmong(db, userId, byNode), o.direction, maxDepth, types) };
}

function edgesAmong(db: Db, userId: string, byNode: Map<number, WalkRow>): Edge[] {
  const rows = db
    .query<{ fromNode: number; type: string; toNode: number }, Record<string, string>>(EDGES_SQL)
    .all({ nodes: JSON.stringify([...byNode.keys()]), user: userId });
  const out: Edge[] = [];
  for (const r of rows) {
    const from = byNode.get(r.fromNode);
    const to = byNode.get(r.toNode);
    if (from && to)
      out.push({ from: { type: from.type, id: from.id }, type: r.type, to: { type: to.type, id: to.id } });
  }
  return out;
}
