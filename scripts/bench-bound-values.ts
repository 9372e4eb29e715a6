// Why the SQLite store writes some bound values `+?` (docs/ARCHITECTURE.md, "Bound values"): this SQLite prepares
// a statement again at every run when its plan may read a bound value (a LIMIT, or a value compared with =, IS
// or IN in an ordered or grouped statement), and Bun binds every value at every run. For each form of a
// statement: CPU µs per run, and what preparing it costs; a form that costs what a literal costs is kept
// prepared. Also FTS5's own segment lookup, which pays the same and which we cannot rewrite. Run it again after
// a Bun upgrade: when `?` costs what `+?` costs, the rule can go.
// Usage: bun scripts/bench-bound-values.ts [--memories=20000] [--runs=10000]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { silentLogger } from "~/shared/logger";
import { openSqliteStore } from "~/store/sqlite/sqlite-store";
import { loadVocabulary, makeText, mulberry32 } from "./bench-data";
import { newMemory } from "../test/support/memory-rows";

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? def;
const N = Number(arg("memories", "20000"));
const RUNS = Number(arg("runs", "10000"));
const USERS = Math.max(1, N / 1000);
const dir = mkdtempSync(join(tmpdir(), "engram-bound-values-"));

const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
/** Median over 7 rounds of CPU µs per call of `f` (two rounds of warm-up first). */
function perRun(f: (i: number) => unknown): number {
  const rounds: number[] = [];
  for (let r = -2; r < 7; r++) {
    const start = cpuUs();
    for (let i = 0; i < RUNS; i++) f(i);
    if (r >= 0) rounds.push((cpuUs() - start) / RUNS);
  }
  return rounds.sort((a, b) => a - b)[3]!;
}
const prepareCost = (db: Database, sql: string) => perRun(() => db.prepare(sql).finalize());

try {
  // The list page on a store of N memories (N/1000 users), loaded through the store API.
  const file = join(dir, "store.db");
  const store = await openSqliteStore({
    path: file,
    nativeCacheDir: join(dir, "native"),
    homeOrg: "default",
    logger: silentLogger(),
  });
  const vocabulary = await loadVocabulary();
  const rnd = mulberry32(7);
  for (let i = 0; i < N; i += 500)
    await store.write(async (r) => {
      for (let k = i; k < Math.min(N, i + 500); k++)
        await r.memories.insert(newMemory(`m${k}`, makeText(vocabulary, rnd), { user_id: `user-${k % USERS}` }));
    });
  await store.close();
  const db = new Database(file);
  const now = Date.now();
  const page = (eq: string, limit: string) =>
    `SELECT rowid, id, memory, metadata, agent_id, session_id, created_at, has_facts FROM memories WHERE org_id = ${eq} ` +
    `AND user_id = ${eq} AND (expires_at IS NULL OR expires_at > ?) AND superseded_by IS NULL ORDER BY created_at DESC, rowid DESC LIMIT ${limit}`;
  const forms: [string, string, (i: number) => (string | number)[]][] = [
    ["bare ? (as the store wrote it)", page("?", "?"), (i) => ["default", `user-${i % USERS}`, now, 21]],
    ["+? compared, LIMIT +? (as it writes it now)", page("+?", "+?"), (i) => ["default", `user-${i % USERS}`, now, 21]],
    ["+? compared, bare LIMIT ?", page("+?", "?"), (i) => ["default", `user-${i % USERS}`, now, 21]],
    ["bare ? compared, LIMIT +?", page("?", "+?"), (i) => ["default", `user-${i % USERS}`, now, 21]],
  ];

  console.log(`\nThe list page on ${N} memories (${USERS} users), CPU µs per run (median of 7 rounds of ${RUNS})\n`);
  console.log("| form | per run | preparing it |\n|---|---|---|");
  for (const [name, sql, params] of forms) {
    const st = db.prepare(sql);
    console.log(`| ${name} | ${perRun((i) => st.all(...params(i))).toFixed(1)} | ${prepareCost(db, sql).toFixed(1)} |`);
  }
  // FTS5's own statement for finding a term's page in a segment, run once per segment and term of every keyword
  // search. FTS5 prepares it in C and binds it the same way, so it pays the same prepare at every run; we cannot
  // rewrite it (SQLite's SQLITE_DBCONFIG_ENABLE_QPSG would stop this, and bun:sqlite does not offer it).
  const segments = db
    .query<[number], []>("SELECT DISTINCT segid FROM memories_fts_idx")
    .values()
    .map((r) => r[0]);
  const terms = db
    .query<[string], []>("SELECT term FROM memories_fts_idx LIMIT 200")
    .values()
    .map((r) => r[0]);
  const lookup = (segid: string) =>
    `SELECT pgno FROM 'main'.'memories_fts_idx' WHERE segid=${segid} AND term<=? ORDER BY term DESC LIMIT 1`;
  console.log(`\nFTS5's segment lookup (${segments.length} segments), CPU µs per run\n`);
  console.log("| form | per run | preparing it |\n|---|---|---|");
  for (const [name, sql] of [
    ["as FTS5 writes it (segid=?)", lookup("?")],
    ["segid=+?", lookup("+?")],
  ] as const) {
    const st = db.prepare(sql);
    const per = perRun((i) => st.get(segments[i % segments.length]!, terms[i % terms.length]!));
    console.log(`| ${name} | ${per.toFixed(1)} | ${prepareCost(db, sql).toFixed(1)} |`);
  }
  db.close();

  // The same on a two-column table: which places of a bound value make SQLite prepare the statement again.
  const t = new Database(":memory:");
  t.run("CREATE TABLE u (a TEXT, b INTEGER)");
  t.run("CREATE INDEX u_ab ON u (a, b)");
  const ins = t.prepare("INSERT INTO u (a, b) VALUES (?, ?)");
  for (let i = 0; i < 2000; i++) ins.run(`a${i % 20}`, i);
  const cases: [string, (string | number)[]][] = [
    ["SELECT b FROM u WHERE a = ? ORDER BY b LIMIT 5", ["a3"]],
    ["SELECT b FROM u WHERE a = +? ORDER BY b LIMIT 5", ["a3"]],
    ["SELECT b FROM u WHERE a = ? LIMIT 5", ["a3"]],
    ["SELECT b FROM u WHERE a IN (?, ?) ORDER BY b LIMIT 5", ["a3", "a4"]],
    ["SELECT b FROM u WHERE a IS ? ORDER BY b LIMIT 5", ["a3"]],
    ["SELECT b FROM u WHERE a = 'a3' AND b > ? ORDER BY b LIMIT 5", [5]],
    ["SELECT b FROM u WHERE a = 'a3' LIMIT ?", [5]],
    ["SELECT b FROM u WHERE a = 'a3' LIMIT +?", [5]],
    ["SELECT b, count(*) FROM u WHERE a = ? GROUP BY b", ["a3"]],
    ["SELECT b, count(*) FROM u WHERE a = +? GROUP BY b", ["a3"]],
  ];
  console.log(
    `\nA two-column table of 2,000 rows, CPU µs per run\n\n| statement | per run | preparing it |\n|---|---|---|`,
  );
  for (const [sql, params] of cases) {
    const st = t.prepare(sql);
    console.log(`| \`${sql}\` | ${perRun(() => st.all(...params)).toFixed(2)} | ${prepareCost(t, sql).toFixed(2)} |`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
