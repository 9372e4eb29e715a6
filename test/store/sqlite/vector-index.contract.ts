// What every vector index promises (sqlite-vec's and the portable one, SPEC §3, §10): nearest first
// with cosine similarity as the score, and the visibility filters — user, agent, session, expiry,
// metadata — applied inside the ranking. Each implementation runs this suite from a file of its own.
import { afterEach, describe, expect, test } from "bun:test";
import { HOME_ORG } from "../../support/store";
import type { MemoryFilter, RankedRow } from "~/store/store";
import type { VectorRow } from "~/store/store";
import { migrate } from "~/store/sqlite/migrate";
import { openDb, type Db } from "~/store/sqlite/connection";

export interface ContractIndex {
  readonly table: string;
  upsert(rows: VectorRow[]): void;
  delete(rowids: number[]): void;
  rank(filter: MemoryFilter, vector: Float32Array, n: number): RankedRow[];
}

export interface IndexKind {
  forModel(db: Db, modelId: string, dimensions: number): ContractIndex;
  tables(db: Db): string[];
}

export interface Memory {
  rowid: number;
  user?: string;
  agent?: string;
  session?: string;
  expiresAt?: number | null;
  metadata?: Record<string, unknown>;
  vector: number[] | null;
}

export const NOW = 1_800_000_000_000;

export async function storeDb(): Promise<Db> {
  const db = await openDb(":memory:", { nativeCacheDir: "/tmp/engram-test-native" });
  migrate(db, HOME_ORG);
  return db;
}

/** Memory rows plus their vectors, in one transaction as the memory service writes them. */
export function seed(db: Db, index: ContractIndex, memories: Memory[]): void {
  const ins = db.query(
    "INSERT INTO memories (rowid, id, user_id, agent_id, session_id, memory, metadata, expires_at, created_at, updated_at) " +
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  db.transaction(() => {
    for (const m of memories)
      ins.run(
        m.rowid,
        `id-${m.rowid}`,
        m.user ?? "alice",
        m.agent ?? "cursor",
        m.session ?? "",
        `memory ${m.rowid}`,
        JSON.stringify(m.metadata ?? {}),
        m.expiresAt ?? null,
        NOW - 1000,
        NOW - 1000,
      );
    index.upsert(memories.map(row));
  }).immediate();
}

export const row = (m: Memory): VectorRow => ({
  rowid: m.rowid,
  org: "default",
  userId: m.user ?? "alice",
  agentId: m.agent ?? "cursor",
  sessionId: m.session ?? "",
  expiresAt: m.expiresAt ?? null,
  vector: m.vector ? new Float32Array(m.vector) : null,
});

const q = (...v: number[]) => new Float32Array(v);
const alice = (f: Partial<MemoryFilter> = {}): MemoryFilter => ({
  org: "default",
  userId: "alice",
  sessionId: "",
  now: NOW,
  ...f,
});
const ids = (rows: RankedRow[]) => rows.map((r) => r.rowid);

export function vectorIndexContract(name: string, kind: IndexKind): void {
  describe(`vector index contract: ${name}`, () => {
    let db: Db;
    afterEach(() => db?.close());
    const open = async (memories: Memory[] = [], model = "m") => {
      db = await storeDb();
      const index = kind.forModel(db, model, 4);
      seed(db, index, memories);
      return index;
    };

    test("ranks nearest first, scoring by cosine similarity", async () => {
      const index = await open([
        { rowid: 1, vector: [0, 1, 0, 0] },
        { rowid: 2, vector: [1, 0, 0, 0] },
        { rowid: 3, vector: [1, 1, 0, 0] },
      ]);
      const ranked = index.rank(alice(), q(2, 0, 0, 0), 10);
      expect(ids(ranked)).toEqual([2, 3, 1]);
      expect(ranked[0]!.score).toBe(1);
      expect(ranked[1]!.score).toBeCloseTo(Math.SQRT1_2, 6);
      expect(ranked[2]!.score).toBe(0);
    });

    test("never ranks another user's vectors", async () => {
      const index = await open([
        { rowid: 1, user: "bob", vector: [1, 0, 0, 0] },
        { rowid: 2, vector: [0, 1, 0, 0] },
      ]);
      expect(ids(index.rank(alice(), q(1, 0, 0, 0), 10))).toEqual([2]);
      expect(ids(index.rank(alice({ userId: "carol" }), q(1, 0, 0, 0), 10))).toEqual([]);
    });

    test("an agent filter keeps that agent's vectors; without one, every agent's", async () => {
      const index = await open([
        { rowid: 1, agent: "cursor", vector: [1, 0, 0, 0] },
        { rowid: 2, agent: "claude", vector: [1, 1, 0, 0] },
      ]);
      expect(ids(index.rank(alice({ agentId: "claude" }), q(1, 0, 0, 0), 10))).toEqual([2]);
      expect(ids(index.rank(alice(), q(1, 0, 0, 0), 10))).toEqual([1, 2]);
    });

    test("a search without a session sees session-less memories only; with one, that session's", async () => {
      const index = await open([
        { rowid: 1, vector: [1, 0, 0, 0] },
        { rowid: 2, session: "s1", vector: [1, 0, 0, 0] },
        { rowid: 3, session: "s2", vector: [1, 0, 0, 0] },
      ]);
      expect(ids(index.rank(alice(), q(1, 0, 0, 0), 10))).toEqual([1]);
      expect(ids(index.rank(alice({ sessionId: "s1" }), q(1, 0, 0, 0), 10))).toEqual([2]);
    });

    test("an expired memory is not ranked; one without expiry never expires", async () => {
      const index = await open([
        { rowid: 1, expiresAt: NOW, vector: [1, 0, 0, 0] },
        { rowid: 2, expiresAt: NOW + 1, vector: [1, 1, 0, 0] },
        { rowid: 3, expiresAt: null, vector: [0, 1, 0, 0] },
      ]);
      expect(ids(index.rank(alice(), q(1, 0, 0, 0), 10))).toEqual([2, 3]);
      expect(ids(index.rank(alice({ now: NOW + 1 }), q(1, 0, 0, 0), 10))).toEqual([3]);
    });

    test("a metadata filter ranks only the memories whose metadata matches", async () => {
      const index = await open([
        { rowid: 1, metadata: { tags: ["health"] }, vector: [0, 1, 0, 0] },
        { rowid: 2, metadata: { tags: ["work"] }, vector: [1, 0, 0, 0] },
        { rowid: 3, metadata: { tags: ["health", "food"] }, vector: [1, 1, 0, 0] },
      ]);
      const ranked = index.rank(alice({ metadata: { tags: ["health"] } }), q(1, 0, 0, 0), 10);
      expect(ids(ranked)).toEqual([3, 1]);
      expect(ranked[1]!.score).toBe(0);
    });

    test("n caps how many are returned", async () => {
      const index = await open([1, 2, 3, 4, 5].map((rowid) => ({ rowid, vector: [1, rowid, 0, 0] })));
      expect(ids(index.rank(alice(), q(1, 0, 0, 0), 2))).toEqual([1, 2]);
    });

    test("writing a memory's vector again replaces it", async () => {
      const index = await open([
        { rowid: 1, vector: [1, 0, 0, 0] },
        { rowid: 2, vector: [0, 1, 0, 0] },
      ]);
      db.transaction(() => index.upsert([row({ rowid: 1, vector: [0, 0, 1, 0] })])).immediate();
      expect(ids(index.rank(alice(), q(1, 0.5, 0, 0), 10))).toEqual([2, 1]);
      expect(index.rank(alice(), q(0, 0, 1, 0), 1)).toEqual([{ rowid: 1, score: 1 }]);
    });

    test("a deleted vector is no longer ranked", async () => {
      const index = await open([
        { rowid: 1, vector: [1, 0, 0, 0] },
        { rowid: 2, vector: [0, 1, 0, 0] },
      ]);
      db.transaction(() => index.delete([1])).immediate();
      expect(ids(index.rank(alice(), q(1, 0, 0, 0), 10))).toEqual([2]);
    });

    test("a memory the model gave no vector is recorded as embedded and never ranked", async () => {
      const index = await open([
        { rowid: 1, vector: null },
        { rowid: 2, vector: [0, 1, 0, 0] },
      ]);
      expect(ids(index.rank(alice(), q(1, 0, 0, 0), 10))).toEqual([2]);
      expect(db.query("SELECT memory_rowid, model FROM memory_embeddings ORDER BY memory_rowid").all()).toEqual([
        { memory_rowid: 1, model: "m" },
        { memory_rowid: 2, model: "m" },
      ]);
    });

    test("each model has a table of its own, opened again with its vectors", async () => {
      const first = await open([{ rowid: 1, vector: [1, 0, 0, 0] }]);
      const other = kind.forModel(db, "another model", 4);
      expect(other.table).not.toBe(first.table);
      expect(ids(other.rank(alice(), q(1, 0, 0, 0), 10))).toEqual([]);
      expect(kind.tables(db).sort()).toEqual([first.table, other.table].sort());
      const again = kind.forModel(db, "m", 4);
      expect(again.table).toBe(first.table);
      expect(ids(again.rank(alice(), q(1, 0, 0, 0), 10))).toEqual([1]);
    });
  });
}
