// The repository contracts on the SQLite store.
import { repoContract, type RepoEngine } from "./repos.contract";
import { factsContract } from "./facts.contract";
import { termEvidenceContract } from "./term-evidence.contract";
import { openTestStore } from "../support/store";

const open = async (): Promise<RepoEngine> => {
  const store = await openTestStore();
  return { tx: (fn) => store.write(fn), close: () => store.close() };
};
repoContract("SQLite", open);
factsContract("SQLite", open);
termEvidenceContract("SQLite", open);
