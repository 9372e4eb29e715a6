// Every Cypher statement the Neo4j graph runs. All values travel as parameters; the only
// interpolated pieces are fixed arrows and a depth bound checked to be an integer 1–10
// (Cypher cannot take a variable-length bound as a parameter).
//
// Model: (:Entity {user_id, type, id, name, name_key, props}) nodes, one relationship type
// :REL whose `type` property holds the relationship name (so names never need escaping into
// Cypher), and (:Memory {user_id, id})-[:MENTIONS]->(:Entity). Properties are JSON text.
import { MAX_TRAVERSE_DEPTH } from "./graph.schema";
import type { Direction } from "./graph-store";

export const SCHEMA = [
  "CREATE CONSTRAINT engram_entity_key IF NOT EXISTS FOR (e:Entity) REQUIRE (e.user_id, e.type, e.id) IS UNIQUE",
  "CREATE CONSTRAINT engram_memory_key IF NOT EXISTS FOR (m:Memory) REQUIRE (m.user_id, m.id) IS UNIQUE",
  "CREATE INDEX engram_entity_user IF NOT EXISTS FOR (e:Entity) ON (e.user_id)",
  "CREATE INDEX engram_memory_user IF NOT EXISTS FOR (m:Memory) ON (m.user_id)",
];

const ENTITY_FIELDS = "e.type AS type, e.id AS id, e.name AS name, e.props AS props";

export const CYPHER = {
  readEntities: `UNWIND $keys AS k
    MATCH (e:Entity {user_id: $user, type: k.type, id: k.id})
    RETURN ${ENTITY_FIELDS}`,
  putEntities: `UNWIND $rows AS row
    MERGE (e:Entity {user_id: $user, type: row.type, id: row.id})
    ON CREATE SET e.created_at = $now
    SET e.name = row.name, e.name_key = row.nameKey, e.props = row.props, e.updated_at = $now`,
  readRels: `UNWIND $rows AS k
    MATCH (:Entity {user_id: $user, type: k.ft, id: k.fi})-[r:REL {type: k.type}]->(:Entity {user_id: $user, type: k.tt, id: k.ti})
    RETURN k.ft AS ft, k.fi AS fi, k.type AS type, k.tt AS tt, k.ti AS ti, r.props AS props`,
  putRels: `UNWIND $rows AS row
    MATCH (a:Entity {user_id: $user, type: row.ft, id: row.fi})
    MATCH (b:Entity {user_id: $user, type: row.tt, id: row.ti})
    MERGE (a)-[r:REL {type: row.type}]->(b)
    ON CREATE SET r.created_at = $now, r.user_id = $user
    SET r.props = row.props, r.updated_at = $now`,
  find: `MATCH (e:Entity {user_id: $user})
    WHERE ($type IS NULL OR e.type = $type) AND ($q IS NULL OR e.name_key CONTAINS $q)
    RETURN ${ENTITY_FIELDS}
    ORDER BY CASE WHEN $q IS NULL OR e.name_key = $q THEN 0 WHEN e.name_key STARTS WITH $q THEN 1 ELSE 2 END, e.name, e.type, e.id
    LIMIT $limit`,
  edgesFrom: `UNWIND $keys AS k
    MATCH (a:Entity {user_id: $user, type: k.type, id: k.id})-[r:REL]->(b:Entity {user_id: $user})
    RETURN a.type AS ft, a.id AS fi, r.type AS type, b.type AS tt, b.id AS ti`,
  putMentions: `UNWIND $rows AS row
    MATCH (e:Entity {user_id: $user, type: row.type, id: row.id})
    MERGE (m:Memory {user_id: $user, id: row.memoryId})
    MERGE (m)-[:MENTIONS]->(e)`,
  unlink: `MATCH (m:Memory {user_id: $user}) WHERE m.id IN $ids
    OPTIONAL MATCH (m)-[x:MENTIONS]->()
    WITH m, count(x) AS links
    DETACH DELETE m
    RETURN sum(links) AS removed`,
  mentioning: `UNWIND $keys AS k
    MATCH (m:Memory {user_id: $user})-[:MENTIONS]->(e:Entity {user_id: $user, type: k.type, id: k.id})
    WITH m.id AS memoryId, count(DISTINCT e) AS matches
    RETURN memoryId, matches ORDER BY matches DESC, memoryId LIMIT $limit`,
  mentionsOf: `MATCH (m:Memory {user_id: $user})-[:MENTIONS]->(e:Entity {user_id: $user})
    WHERE m.id IN $ids
    RETURN m.id AS memoryId, e.type AS type, e.id AS id, e.name AS name
    ORDER BY memoryId, type, id`,
  countEntities: "MATCH (e:Entity {user_id: $user}) RETURN count(e) AS n",
  // Batched so deleting a large graph never builds one huge transaction.
  deleteUserBatch: `MATCH (n:Entity {user_id: $user}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS deleted`,
  deleteUserMemoriesBatch: `MATCH (n:Memory {user_id: $user}) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS deleted`,
  wipeBatch: `MATCH (n:Entity) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS deleted`,
  wipeMemoriesBatch: `MATCH (n:Memory) WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS deleted`,
} as const;

const ARROWS: Record<Direction, (bound: string) => string> = {
  out: (b) => `-[:REL*1..${b}]->`,
  in: (b) => `<-[:REL*1..${b}]-`,
  both: (b) => `-[:REL*1..${b}]-`,
};

/** Entities within `depth` steps of the start (the start excluded), each at its smallest depth. */
export function walkCypher(direction: Direction, depth: number): string {
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_TRAVERSE_DEPTH)
    throw new RangeError(`bad traversal depth ${depth}`);
  return `MATCH (s:Entity {user_id: $user, type: $type, id: $id})
    MATCH p = (s)${ARROWS[direction](String(depth))}(n:Entity {user_id: $user})
    WHERE n <> s AND all(r IN relationships(p) WHERE $types IS NULL OR r.type IN $types)
    WITH n, min(length(p)) AS depth
    RETURN n.type AS type, n.id AS id, n.name AS name, n.props AS props, depth
    ORDER BY depth, type, id
    LIMIT $limit`;
}
