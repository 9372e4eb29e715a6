// The two vector indexes as one choice (SPEC §10): sqlite-vec's vec0 tables where SQLite loads the
// extension, the portable index (portable-vector-index.ts) elsewhere. A store may move between them (a
// store file taken to a Mac without Homebrew's SQLite, or ENGRAM_VECTOR_INDEX changed): a small table
// records which index holds each model's current vectors, and opening the other one hands them over.
import type { Db } from "./connection";
import type { Logger } from "~/shared/logger";
import type { VectorRow } from "../repos/vector-repo";
import type { VectorIndexKind } from "./platform";
import { PortableVectorIndex, portableTableName } from "./portable-vector-index";
import { VectorIndex, vecTableName } from "./vector-index";

export type { VectorIndexKind };
/** Both indexes have this shape (the contract suite runs on each). */
export type ModelVectorIndex = VectorIndex | PortableVectorIndex;

const isPortable = (table: string) => table.startsWith("vecs_");

/** The index behind a table name from openVectorIndex (a search worker is told the name). */
export const indexOfTable = (db: Db, model: string, table: string): ModelVectorIndex =>
  isPortable(table) ? new PortableVectorIndex(db, model, table) : new VectorIndex(db, model, table);

/** Every model's tables this connection can erase from: vec0 tables need sqlite-vec loaded. */
export const erasableTables = (db: Db, kind: VectorIndexKind): string[] =>
  kind === "sqlite-vec"
    ? [...VectorIndex.tables(db), ...PortableVectorIndex.tables(db)]
    : PortableVectorIndex.tables(db);

const exists = (db: Db, table: string) =>
  !!db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);

/** A model's table of a kind, in the current layout or an earlier one (vector-layouts.ts), if any. */
function tableOf(db: Db, kind: VectorIndexKind, current: string): string | undefined {
  const earlier = current.replace(/_org$/, "");
  const names = kind === "sqlite-vec" ? [current, earlier, earlier.replace(/_c\d+$/, "")] : [current, earlier];
  return names.find((t) => exists(db, t));
}

/**
 * The model's index of this kind. When the other kind holds the model's current vectors, they are
 * moved over if this connection can read them (then erased and dropped); if it cannot (vec0 without
 * sqlite-vec) the model's memories lose their "embedded" mark and are embedded again in the background.
 * Either way a table of this kind left from an earlier switch is stale and is erased first.
 */
export function openVectorIndex(
  db: Db,
  kind: VectorIndexKind,
  modelId: string,
  dims: number,
  logger?: Logger,
): ModelVectorIndex {
  return db
    .transaction(() => {
      db.run("CREATE TABLE IF NOT EXISTS vector_index_state (model TEXT PRIMARY KEY, kind TEXT NOT NULL)");
      const names = { "sqlite-vec": vecTableName(modelId, dims), portable: portableTableName(modelId, dims) };
      const recorded = db
        .query<{ kind: VectorIndexKind }, [string]>("SELECT kind FROM vector_index_state WHERE model = ?")
        .get(modelId)?.kind;
      const other: VectorIndexKind = kind === "sqlite-vec" ? "portable" : "sqlite-vec";
      // A store from before this record had sqlite-vec only.
      const others = tableOf(db, other, names[other]);
      const current = recorded ?? (others ? other : kind);
      const hadTable = !!tableOf(db, kind, names[kind]);
      const index =
        kind === "sqlite-vec"
          ? VectorIndex.forModel(db, modelId, dims, logger)
          : PortableVectorIndex.forModel(db, modelId, dims);
      if (current === other) {
        if (hadTable) erase(index);
        if (others) handOver(db, { kind: other, table: others }, index, kind, logger);
      }
      db.query("INSERT OR REPLACE INTO vector_index_state (model, kind) VALUES (?, ?)").run(modelId, kind);
      return index;
    })
    .immediate();
}

/** Erases every vector of the table, deleted memories' too (their rowids never come back to match them). */
function erase(index: ModelVectorIndex): void {
  index.delete(index.rowids());
}

function handOver(
  db: Db,
  from: { kind: VectorIndexKind; table: string },
  to: ModelVectorIndex,
  kind: VectorIndexKind,
  logger?: Logger,
): void {
  if (from.kind === "sqlite-vec" && kind === "portable") {
    db.query("DELETE FROM memory_embeddings WHERE model = ?").run(to.modelId);
    logger?.warn(
      "this store's vectors are in sqlite-vec tables this SQLite cannot read; embedding its memories again",
      {
        model: to.modelId,
        table: from.table,
      },
    );
    return;
  }
  const source = indexOfTable(db, to.modelId, from.table);
  const rows: VectorRow[] = source.vectors();
  for (let i = 0; i < rows.length; i += 500) to.upsert(rows.slice(i, i + 500));
  erase(source);
  db.run(`DROP TABLE ${from.table}`);
  if (from.kind === "portable") db.run(`DROP TABLE ${from.table}_rowids`);
  logger?.info("moved vectors to the vector index in use", { from: from.kind, to: kind, vectors: rows.length });
}
