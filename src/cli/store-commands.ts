// `engram check` and `engram repair`: the store's integrity, reported and mended from the command line.
// Stop every server using the store before a repair: the repaired file replaces the one they hold open.
import type { Config } from "~/config/config.schema";
import { checkStore, repairStore } from "~/main";
import { EXIT } from "./exit-codes";

/** Prints each problem on a line of its own, then a summary; exit 0 when sound, 3 when damaged. */
export async function check(config: Config): Promise<number> {
  if (config.storeKind === "postgres") return notForPostgres("check");
  const path = config.storePath;
  const report = await checkStore(path, { nativeCacheDir: config.cacheDir });
  const size = report.memories === null ? "" : ` (${report.memories} memories of ${report.users} users)`;
  if (!report.problems.length) {
    console.log(`ok: ${path}${size} passes integrity_check, foreign_key_check and the keyword index check`);
    return EXIT.OK;
  }
  for (const p of report.problems) console.log(p);
  console.log(
    `damaged: ${path}${size}: ${report.problems.length} problem${report.problems.length === 1 ? "" : "s"}; ` +
      `'engram repair --store-url=${path}' rebuilds the store from what is readable (stop its servers first)`,
  );
  return EXIT.DAMAGED;
}

/** Rebuilds a damaged store in place (the damaged files are kept beside it); --force rebuilds a sound one too. */
export async function repair(config: Config, opts: { force: boolean }): Promise<number> {
  if (config.storeKind === "postgres") return notForPostgres("repair");
  const path = config.storePath;
  const outcome = await repairStore(path, {
    nativeCacheDir: config.cacheDir,
    homeOrg: config.orgId,
    force: opts.force,
  });
  if (!outcome.repaired) {
    console.log(`${outcome.reason} (--force rebuilds it anyway)`);
    return EXIT.OK;
  }
  let kept = 0;
  for (const t of outcome.tables) {
    kept += t.kept;
    if (t.unreadable || t.dropped || t.recovered)
      console.log(
        `${t.table}: ${t.kept} rows kept (${t.recovered} of them from pages the damaged index no longer reached), ` +
          `${t.unreadable} unreadable stretch${t.unreadable === 1 ? "" : "es"} skipped, ${t.dropped} rows dropped that refer to lost rows`,
      );
  }
  console.log(
    `repaired ${path}: ${kept} rows in ${outcome.tables.length} tables; the damaged store is kept as ${outcome.damagedCopy}; ` +
      "the keyword index was rebuilt and vectors are re-embedded at the next start",
  );
  return EXIT.OK;
}

/** Both mend a SQLite file; PostgreSQL keeps its own integrity (WAL, checksums) and has its own tools. */
function notForPostgres(command: string): number {
  console.error(
    `engram ${command}: works on a SQLite store file; for PostgreSQL use its own tools (pg_amcheck, pg_dump / pg_restore; docs/DEPLOY.md)`,
  );
  return EXIT.USAGE;
}
