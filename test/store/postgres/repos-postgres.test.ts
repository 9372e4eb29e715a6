// The repository contract on the PostgreSQL store, as the app's role (row-level security applies).
import { describe } from "bun:test";
import { repoContract } from "../repos.contract";
import { freshSchema, postgresSkip } from "../../support/postgres";
import { openPostgresStore } from "~/store/postgres/postgres-store";
import { silentLogger } from "~/shared/logger";

if (postgresSkip) describe.skip(`repositories: PostgreSQL (skipped: ${postgresSkip})`, () => {});
else
  repoContract("PostgreSQL", async () => {
    const s = await freshSchema("repos");
    const store = await openPostgresStore({
      url: s.url,
      migrationUrl: s.migrationUrl,
      poolSize: 4,
      logger: silentLogger(),
    });
    return { tx: (fn) => store.write(fn), close: async () => (await store.close(), await s.drop()) };
  });
