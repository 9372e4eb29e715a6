// Usage: bun scripts/bench-vector-index.ts [--users=20] [--per-user=1000] [--queries=2000] [--dims=100,384]
// The two vector indexes side by side, in process, on one store file: sqlite-vec's vec0 KNN and the
// portable index's scan over typed arrays. Each user holds --per-user vectors; a query ranks one user's
// top 20 (the ranker's vector candidates). Prints µs per query (median of 5 rounds) and the ratio.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PortableVectorIndex } from "~/store/sqlite/portable-vector-index";
import { VectorIndex } from "~/store/sqlite/vector-index";
import type { VectorRow } from "~/store/store";
import { migrate } from "~/store/sqlite/migrate";
import { openDb, type Db } from "~/store/sqlite/connection";

const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const USERS = Number(arg("users", "20"));
const PER_USER = Number(arg("per-user", "1000"));
const QUERIES = Number(arg("queries", "2000"));
const DIMS = arg("dims", "100,384").split(",").map(Number);
const K = 20;

const unit = (dims: number) => {
  const v = Float32Array.from({ length: dims }, () => Math.random() * 2 - 1);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};

function fill(db: Db, dims: number, indexes: { upsert(rows: VectorRow[]): void }[]): void {
  const ins = db.query(
    "INSERT INTO memories (rowid, id, user_id, agent_id, memory, created_at, updated_at) VALUES (?, ?, ?, 'a', 'm', 0, 0)",
  );
  let rowid = 0;
  for (let u = 0; u < USERS; u++)
    db.transaction(() => {
      const rows: VectorRow[] = [];
      for (let i = 0; i < PER_USER; i++) {
        ins.run(++rowid, `m${rowid}`, `user${u}`);
        rows.push({
          rowid,
          org: "default",
          userId: `user${u}`,
          agentId: "a",
          sessionId: "",
          expiresAt: null,
          vector: unit(dims),
        });
      }
      for (const index of indexes) index.upsert(rows);
    }).immediate();
}

/** µs per query, the median of five rounds of QUERIES/5 queries each. */
function time(index: { rank: VectorIndex["rank"] }, queries: Float32Array[]): number {
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) {
    const slice = queries.slice((r * queries.length) / 5, ((r + 1) * queries.length) / 5);
    const t0 = performance.now();
    slice.forEach((q, i) => index.rank({ org: "default", userId: `user${i % USERS}`, sessionId: "", now: 1 }, q, K));
    rounds.push(((performance.now() - t0) * 1000) / slice.length);
  }
  return rounds.sort((a, b) => a - b)[2]!;
}

const dir = mkdtempSync(join(tmpdir(), "engram-bench-vec-"));
try {
  const rows = [];
  for (const dims of DIMS) {
    const db = await openDb(join(dir, `d${dims}.db`), { nativeCacheDir: join(dir, "cache") });
    migrate(db, "default");
    const vec = VectorIndex.forModel(db, "bench", dims);
    const portable = PortableVectorIndex.forModel(db, "bench", dims);
    fill(db, dims, [vec, portable]);
    const queries = Array.from({ length: QUERIES }, () => unit(dims));
    time(vec, queries.slice(0, 200)); // warm both: page cache, JIT
    time(portable, queries.slice(0, 200));
    const v = time(vec, queries);
    const p = time(portable, queries);
    rows.push({
      dims,
      perUser: PER_USER,
      users: USERS,
      sqliteVecUs: v.toFixed(0),
      portableUs: p.toFixed(0),
      portableVsSqliteVec: (p / v).toFixed(2),
    });
    db.close();
  }
  console.table(rows);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
