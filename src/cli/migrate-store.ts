// `engram migrate-store --from URL --to URL [--replace]`: copies a whole store between SQLite and
// PostgreSQL (either way, or between two of a kind) and verifies the copy row by row before it commits
// (store/transfer.ts). Stop the servers of both stores first: a store written meanwhile is not copied whole.
import type { Config } from "~/config/config.schema";
import { resolveStorePath } from "~/config/load-config";
import { createLogger } from "~/shared/logger";
import { MismatchError, migrateStore, storeEndpoint, TargetNotEmptyError, type StoreEndpoint } from "~/main";
import { EXIT } from "./exit-codes";

export const MIGRATE_STORE_USAGE =
  "usage: engram migrate-store --from URL --to URL [--replace]  (URL: sqlite:///path/engram.db, a path, or postgres://owner@host/db)";

export interface MigrateStoreArgs {
  from: string;
  to: string;
  replace: boolean;
  /** What is left for the shared settings (--cache-dir, --log-level, …). */
  rest: string[];
}

/** Takes the command's own arguments out of argv: `--from X` or `--from=X`, the same for --to, and --replace. */
export function parseMigrateStoreArgs(argv: string[]): MigrateStoreArgs | string {
  const rest: string[] = [];
  const urls: Record<"from" | "to", string | undefined> = { from: undefined, to: undefined };
  let replace = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = /^--(from|to)(?:=(.*))?$/.exec(a);
    if (m) urls[m[1] as "from" | "to"] = m[2] ?? argv[++i];
    else if (a === "--replace") replace = true;
    else if (a.startsWith("-")) rest.push(a);
    else return `unexpected argument '${a}'`;
  }
  if (!urls.from) return "--from is missing";
  if (!urls.to) return "--to is missing";
  if (urls.from === urls.to) return "--from and --to name the same store";
  return { from: urls.from, to: urls.to, replace, rest };
}

const isPostgres = (url: string) => /^postgres(ql)?:\/\//i.test(url);

/** A store by URL: PostgreSQL, or a SQLite file (the URL forms STORE_URL takes). */
function endpoint(url: string, config: Config): Promise<StoreEndpoint> {
  const o = { cacheDir: config.cacheDir, homeOrg: config.orgId, logger: createLogger(config.logLevel) };
  if (isPostgres(url)) return storeEndpoint({ postgres: url }, o);
  const path = resolveStorePath(url);
  if (path === ":memory:") throw new TargetNotEmptyError("an in-memory store cannot be migrated from or to");
  return storeEndpoint({ sqlite: path }, o);
}

export async function migrateStoreCommand(config: Config, a: MigrateStoreArgs): Promise<number> {
  const from = await endpoint(a.from, config);
  const to = await endpoint(a.to, config);
  const started = performance.now();
  try {
    const report = await migrateStore(from, to, { replace: a.replace });
    for (const t of report.tables) if (t.rows) console.log(`  ${t.table}: ${t.rows} rows`);
    for (const v of report.vectors)
      console.log(
        `  vectors of ${v.model}: ${v.copied}` +
          (v.skipped
            ? ` (${v.skipped} skipped: SQLite keeps one model's vector per memory: the most common model's)`
            : ""),
      );
    const rows = report.tables.reduce((n, t) => n + t.rows, 0);
    console.log(
      `copied ${from.label} → ${to.label}: ${rows} rows and ${report.vectors.reduce((n, v) => n + v.copied, 0)} vectors, ` +
        `every one compared equal (${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
    return EXIT.OK;
  } catch (e) {
    if (e instanceof TargetNotEmptyError || e instanceof MismatchError) {
      console.error(`engram migrate-store: ${e.message}`);
      return e instanceof TargetNotEmptyError ? EXIT.USAGE : EXIT.FAILURE;
    }
    throw e;
  } finally {
    await from.close();
    await to.close();
  }
}
