// Store.exclusive on SQLite: runs of one name follow each other in this process (on PostgreSQL an advisory
// lock does the same across nodes: test/store/postgres/nodes.test.ts); runs of other names do not wait.
import { afterEach, expect, test } from "bun:test";
import { openTestStore } from "../support/store";
import type { SqliteStore } from "~/store/sqlite/sqlite-store";

let store: SqliteStore;
afterEach(() => store?.close());

test("a second run of the same name starts only after the first has ended, even when the first fails", async () => {
  store = await openTestStore();
  const gate = Promise.withResolvers<void>();
  const order: string[] = [];
  const first = store.exclusive("enforcement", async () => {
    order.push("first starts");
    await gate.promise;
    order.push("first ends");
    throw new Error("first failed");
  });
  const second = store.exclusive("enforcement", async () => {
    order.push("second runs");
    return 2;
  });
  const other = await store.exclusive("session-sweeps", async () => {
    order.push("other name runs");
    return 3;
  });
  expect([other, order]).toEqual([3, ["first starts", "other name runs"]]);
  gate.resolve();
  expect(await first.catch((e: Error) => e.message)).toBe("first failed");
  expect(await second).toBe(2);
  expect(order).toEqual(["first starts", "other name runs", "first ends", "second runs"]);
});
