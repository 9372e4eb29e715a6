// What writing one audit row costs on SQLite, and each audit_log index's part: batches of rows (as the shared
// periodic commit writes them) into a store this tree migrated, with every index, without each, with none.
// Usage: bun scripts/bench-audit-insert.ts [--batch=5000] [--batches=20] [--runs=5] (CPU µs per row, median)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "~/store/sqlite/connection";
import { migrate } from "~/store/sqlite/migrate";
import { SqliteGovernanceRepo } from "~/store/sqlite/governance-repo";
import type { AuditRow } from "~/store/store";

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? def;
const BATCH = Number(arg("batch", "5000"));
const BATCHES = Number(arg("batches", "20"));
const RUNS = Number(arg("runs", "5"));
const drop = (...names: string[]) => names.map((n) => `DROP INDEX audit_log_${n};`).join(" ");
const VARIANTS: Record<string, string> = {
  "every index": "",
  "without by_user": drop("by_user"),
  "without by_org_id": drop("by_org_id"),
  "without by_time": drop("by_time"),
  "no index": drop("by_user", "by_org_id", "by_time"),
};
const users = Array.from({ length: 20 }, (_, i) => `user-${i}`);
const cpuNs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) * 1000;
};

/** CPU ns per row of the inserts and of the commits, over every batch but the first. */
async function run(dir: string, name: string, sql: string): Promise<[number, number]> {
  const db = await openDb(join(dir, `${name.replace(/\W/g, "-")}.db`), { nativeCacheDir: join(dir, "native") });
  try {
    migrate(db, "default");
    if (sql) db.exec(sql);
    const repo = new SqliteGovernanceRepo(db);
    let at = Date.now();
    let [insert, commit] = [0, 0];
    for (let b = 0; b < BATCHES; b++) {
      const rows: AuditRow[] = Array.from({ length: BATCH }, (_, k) => ({
        ...{ at: at++, organization_id: "default", memory_space_id: `agent-${k % 4}`, user_id: users[k % 20]! },
        ...{ method: "GET", path: "/get_memory", status: 200, principal: null, route: null, duration_ms: null },
      }));
      db.run("BEGIN IMMEDIATE");
      const t0 = cpuNs();
      await repo.insertAudit(rows);
      const t1 = cpuNs();
      db.run("COMMIT");
      if (b > 0) [insert, commit] = [insert + t1 - t0, commit + cpuNs() - t1];
    }
    const n = BATCH * (BATCHES - 1);
    return [insert / n, commit / n];
  } finally {
    db.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), "engram-bench-audit-"));
try {
  const got: Record<string, [number, number][]> = {};
  for (let r = 0; r < RUNS; r++)
    for (const [name, sql] of Object.entries(VARIANTS)) (got[name] ??= []).push(await run(dir, `${name}-${r}`, sql));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]! / 1000;
  console.log(`\n${BATCH} rows a batch, ${BATCHES} batches, ${RUNS} runs (CPU µs per row, median)\n`);
  console.log("| audit_log | insert | commit |\n|---|---|---|");
  for (const [name, runs] of Object.entries(got))
    console.log(
      `| ${name} | ${median(runs.map((x) => x[0])).toFixed(2)} | ${median(runs.map((x) => x[1])).toFixed(2)} |`,
    );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
