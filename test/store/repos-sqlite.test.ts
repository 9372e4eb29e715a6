// The repository contract on the SQLite store.
import { repoContract } from "./repos.contract";
import { openTestStore } from "../support/store";

repoContract("SQLite", async () => {
  const store = await openTestStore();
  return { tx: (fn) => store.write(fn), close: () => store.close() };
});
