// The repository contract on the SQLite store (statements run one by one: the repositories answer at once).
import { repoContract } from "./repos.contract";
import { openTestStore } from "../support/store";
import type { PgRepos } from "~/store/postgres/pg-repos";

repoContract("SQLite", async () => {
  const store = await openTestStore();
  const repos = store.read((r) => r) as unknown as PgRepos;
  return { tx: async (fn) => fn(repos), close: async () => store.close() };
});
