// The rate limiter over a real SQLite store: counts, the sliding estimate across a window boundary,
// Retry-After, pruning, and two stores (two connections, as two processes have) sharing one file.
import { afterAll, describe, expect, test } from "bun:test";
import { RateLimiter, retryAfterSeconds } from "~/identity/rate-limit";
import { RequestLimits } from "~/identity/request-limits";
import { AppError } from "~/shared/errors";
import type { Principal } from "~/shared/principal";
import { parseRate } from "~/shared/rate";
import { countWrites, openTestStore } from "../support/store";
import { DeferredWrites } from "~/shared/deferred-writes";
import type { Repos, Store } from "~/store/store";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MIN = 60_000;
/** A limiter's own periodic commit (the server shares one with the audit log and keys: test/identity/deferred-writes.test.ts). */
const writesOf = (store: Store) => new DeferredWrites<Repos>(store);
const T0 = 1_800_000_000_000 - (1_800_000_000_000 % MIN);

describe("parseRate", () => {
  test("accepts a count per second, minute or hour, and off", () => {
    expect(parseRate("600/m")).toEqual({ limit: 600, windowMs: MIN });
    expect(parseRate(" 10/S ")).toEqual({ limit: 10, windowMs: 1000 });
    expect(parseRate("5000/h")).toEqual({ limit: 5000, windowMs: 3_600_000 });
    expect(parseRate("off")).toBeNull();
  });

  test("refuses anything else", () => {
    for (const bad of ["", "600", "0/m", "-1/m", "1.5/m", "600/d", "600/min", "m/600", "9999999999/m"])
      expect(parseRate(bad)).toBeUndefined();
  });
});

describe("retryAfterSeconds", () => {
  const rate = { limit: 3, windowMs: MIN };
  test("an over-full window waits into the next one until its own weight fades enough", () => {
    // 4 hits 15 s in: 45 s to the next window, then 4 × (1 − f) + 1 ≤ 3 at f = 1/2.
    expect(retryAfterSeconds(rate, 4, 0, 15_000)).toBe(75);
  });
  test("a window still weighed down by the previous one waits until its weight fades enough", () => {
    // 3 before, 1 now, 30 s in: estimate 2.5 + 1; the next hit fits once 3 × (1 − f) ≤ 1, f = 2/3.
    expect(retryAfterSeconds(rate, 1, 3, 30_000)).toBe(10);
  });
  test("never less than a second", () => {
    expect(retryAfterSeconds(rate, 1, 3, 39_999.7)).toBe(1);
  });
});

describe("RateLimiter", () => {
  const stores: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const s of stores) await s.close();
  });

  test("allows the limit's hits in a window, refuses the next with the seconds to wait", async () => {
    const store = await openTestStore();
    stores.push(store);
    let now = T0 + 20_000;
    const rl = new RateLimiter(store, { limit: 3, windowMs: MIN }, "rate:", writesOf(store), () => now);
    expect(await rl.take("k1")).toEqual({ ok: true });
    expect(await rl.take("k1")).toEqual({ ok: true });
    expect(await rl.take("k1")).toEqual({ ok: true });
    expect(await rl.take("k1")).toEqual({ ok: false, retryAfter: 70 });
    expect(await rl.take("k2")).toEqual({ ok: true });
    // Just into the next window the previous one still weighs almost fully.
    now = T0 + MIN + 1_000;
    expect(await rl.take("k1")).toEqual({ ok: false, retryAfter: expect.any(Number) });
    // Two windows later nothing is left.
    now = T0 + 2 * MIN + 1;
    expect(await rl.take("k1")).toEqual({ ok: true });
  });

  test("far below the limit, hits counted here reach the store with the next flush; near it, each goes there", async () => {
    const store = await openTestStore();
    stores.push(store);
    const rl = new RateLimiter(store, { limit: 10, windowMs: MIN }, "rate:", writesOf(store), () => T0 + 1);
    const verdicts = [];
    for (let i = 0; i < 12; i++) verdicts.push((await rl.take("k")).ok);
    expect(verdicts).toEqual([...Array(10).fill(true), false, false]);
    await rl.flush();
    expect(await store.read((r) => r.rateLimits.peek("rate:k", T0, MIN))).toEqual({ current: 12, previous: 0 });
  });

  test("far below the limit, a bucket read from the store answers from memory, without waiting on the store", async () => {
    const store = await openTestStore();
    stores.push(store);
    const rl = new RateLimiter(store, { limit: 10, windowMs: MIN }, "rate:", writesOf(store), () => T0 + 1);
    const first = rl.take("k"); // the first hit reads the bucket
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toEqual({ ok: true });
    expect(rl.take("k")).toEqual({ ok: true });
    expect(rl.check("k")).toEqual({ ok: true });
    await rl.flush();
    expect(await store.read((r) => r.rateLimits.peek("rate:k", T0, MIN))).toEqual({ current: 2, previous: 0 });
  });

  test("far below the limit, a bucket is brought up to date by a read, also into the next window: no write until the flush", async () => {
    const store = await openTestStore();
    stores.push(store);
    const writes = countWrites(store); // every write transaction the limiter asks for
    let now = T0 + 1;
    const rl = new RateLimiter(store, { limit: 100, windowMs: MIN }, "rate:", writesOf(store), () => now);
    expect(await rl.take("k")).toEqual({ ok: true }); // new to this process: written (and old windows pruned)
    expect(writes).toEqual(["group"]);
    now += 1_000; // the bucket's counts are a second old: read again
    expect(await rl.take("k")).toEqual({ ok: true });
    expect(rl.take("k")).toEqual({ ok: true });
    now = T0 + MIN + 1; // the next window: the limiter's first bucket there prunes, the others are read
    expect(await rl.take("other")).toEqual({ ok: true });
    expect(writes).toEqual(["group", "group"]);
    expect(await rl.take("k")).toEqual({ ok: true });
    expect(writes).toEqual(["group", "group"]);
    await rl.flush();
    expect(writes).toEqual(["group", "group", "group"]);
    // The two hits counted here in the first window went there, the one of the next window to it.
    expect(await store.read((r) => r.rateLimits.peek("rate:k", T0 + MIN, MIN))).toEqual({ current: 1, previous: 3 });
  });

  test("into a new window a bucket counted here is read, not written: the old windows go with the next commit", async () => {
    const store = await openTestStore();
    stores.push(store);
    await store.write((r) => r.rateLimits.hit("rate:old", T0 - MIN, MIN, 1)); // kept by the first prune
    const writes = countWrites(store);
    let now = T0 + 1;
    const rl = new RateLimiter(store, { limit: 100, windowMs: MIN }, "rate:", writesOf(store), () => now);
    expect(await rl.take("k")).toEqual({ ok: true }); // new to this process: written
    now = T0 + MIN + 1;
    expect(await rl.take("k")).toEqual({ ok: true });
    expect(writes).toEqual(["group"]);
    expect(await store.read((r) => r.rateLimits.peek("rate:old", T0, MIN))).toEqual({ current: 0, previous: 1 });
    await rl.flush();
    expect(writes).toEqual(["group", "group"]);
    expect(await store.read((r) => r.rateLimits.peek("rate:old", T0, MIN))).toEqual({ current: 0, previous: 0 });
    expect(await store.read((r) => r.rateLimits.peek("rate:k", T0 + MIN, MIN))).toEqual({ current: 1, previous: 1 });
  });

  test("a bucket read again near its limit writes each hit, as one never counted here", async () => {
    const store = await openTestStore();
    stores.push(store);
    let now = T0 + 1;
    const rl = new RateLimiter(store, { limit: 4, windowMs: MIN }, "rate:", writesOf(store), () => now);
    expect(await rl.take("k")).toEqual({ ok: true });
    expect(rl.take("k")).toEqual({ ok: true });
    // Another process counted two more meanwhile.
    await store.write((tx) => tx.rateLimits.hit("rate:k", T0, MIN, 2));
    now += 1_000;
    const verdicts = [];
    for (let i = 0; i < 2; i++) verdicts.push(await rl.take("k"));
    expect(verdicts.map((v) => v.ok)).toEqual([false, false]);
    expect(await store.read((r) => r.rateLimits.peek("rate:k", T0, MIN))).toEqual({ current: 6, previous: 0 });
  });

  test("check counts nothing", async () => {
    const store = await openTestStore();
    stores.push(store);
    const rl = new RateLimiter(store, { limit: 2, windowMs: MIN }, "authfail:", writesOf(store), () => T0 + 1);
    expect(await rl.check("1.2.3.4")).toEqual({ ok: true });
    await rl.take("1.2.3.4");
    expect(await rl.check("1.2.3.4")).toEqual({ ok: true });
    await rl.take("1.2.3.4");
    // 60 s to the next window, then 2 × (1 − f) + 1 ≤ 2 at f = 1/2.
    expect(await rl.check("1.2.3.4")).toEqual({ ok: false, retryAfter: 90 });
  });

  test("old windows of its own buckets are pruned, another limit's are kept", async () => {
    const store = await openTestStore();
    stores.push(store);
    let now = T0;
    const minute = new RateLimiter(store, { limit: 5, windowMs: MIN }, "rate:", writesOf(store), () => now);
    const hour = new RateLimiter(store, { limit: 5, windowMs: 3_600_000 }, "authfail:", writesOf(store), () => now);
    await minute.take("a");
    await hour.take("b");
    now = T0 + 3 * MIN;
    await minute.take("a");
    const rows = await store.read(async (r) => [
      await r.rateLimits.peek("rate:a", T0, MIN),
      await r.rateLimits.peek("authfail:b", T0 - (T0 % 3_600_000), 3_600_000),
    ]);
    expect(rows).toEqual([
      { current: 0, previous: 0 },
      { current: 1, previous: 0 },
    ]);
  });

  test("two stores on one file share the count", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rate-limit-"));
    const path = join(dir, "shared.db");
    const a = await openTestStore(path);
    const b = await openTestStore(path);
    try {
      const rate = { limit: 4, windowMs: MIN };
      const now = () => T0 + 5;
      const la = new RateLimiter(a, rate, "rate:", writesOf(a), now);
      const lb = new RateLimiter(b, rate, "rate:", writesOf(b), now);
      const verdicts = [];
      for (let i = 0; i < 3; i++) verdicts.push((await la.take("k")).ok, (await lb.take("k")).ok);
      expect(verdicts).toEqual([true, true, true, true, false, false]);
    } finally {
      await a.close();
      await b.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("RequestLimits", () => {
  test("a token subject is counted per organization: one organization's busy 'alice' leaves another's alone", async () => {
    const store = await openTestStore();
    try {
      const limits = new RequestLimits(store, { requests: "2/m", authFailures: "off" }, writesOf(store));
      const alice = (org: string): Principal => ({
        org,
        role: "member",
        userId: "alice",
        kind: "token",
        id: "oidc:alice",
      });
      const admitted = async (p: Principal) => {
        const who = await limits.admit("127.0.0.1", () => p);
        return who instanceof AppError ? who.code : "ok";
      };
      expect([await admitted(alice("a")), await admitted(alice("a")), await admitted(alice("a"))]).toEqual([
        "ok",
        "ok",
        "RATE_LIMITED",
      ]);
      expect(await admitted(alice("b"))).toBe("ok");
    } finally {
      await store.close();
    }
  });
});
