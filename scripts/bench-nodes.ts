// The store behind `bun run bench`: the SQLite file in the bench's folder (default), or with
// --store=postgres a throwaway PostgreSQL + pgvector (scripts/postgres-server.ts) whose one database every
// node serves (--nodes=N). What the bench needs of it: each node's flags, the store's size, and stopping.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { SQL } from "bun";
import { startPostgres } from "./postgres-server";

export interface BenchStore {
  kind: "sqlite" | "postgres";
  /** The flags that point a server at the store. */
  flags: string[];
  sizeMb(): Promise<number>;
  stop(): Promise<void>;
}

export async function benchStore(kind: string, dir: string): Promise<BenchStore> {
  if (kind === "sqlite") {
    const file = join(dir, "bench.db");
    return {
      kind,
      flags: [`--store-url=${file}`],
      sizeMb: async () =>
        [file, `${file}-wal`].reduce((s, f) => s + (existsSync(f) ? statSync(f).size : 0), 0) / 1048576,
      stop: async () => {},
    };
  }
  if (kind !== "postgres") throw new Error(`--store must be sqlite or postgres, got ${kind}`);
  const server = await startPostgres();
  const db = await server.createDatabase("engram_bench");
  const admin = new SQL(server.adminUrl.replace(/\/postgres$/, `/${db.name}`), { max: 1 });
  return {
    kind,
    flags: [`--store-url=${db.url}`, `--store-migration-url=${db.ownerUrl}`],
    sizeMb: async () => Number((await admin.unsafe("SELECT pg_database_size(current_database()) AS n"))[0].n) / 1048576,
    stop: async () => {
      await admin.close({ timeout: 0 });
      await server.stop();
    },
  };
}
