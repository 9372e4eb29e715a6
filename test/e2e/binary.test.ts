// The compiled binary, run alone in an empty folder (built by `bun run build`; CI builds it first).
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { smoke } from "../../scripts/smoke";

const BINARY = join(import.meta.dir, "..", "..", "dist", "engram");
const reason = "skipped: dist/engram is absent — run `bun run build` first";

describe.skipIf(!existsSync(BINARY))(existsSync(BINARY) ? "dist/engram" : reason, () => {
  test("starts offline with an empty HOME, finds a memory by paraphrase, and exits 0 on SIGTERM", async () => {
    const r = await smoke(BINARY);
    expect(r.health).toMatchObject({
      status: "ok",
      search: { mode: "hybrid", model: "engram/glove-sif", state: "ready" },
    });
    expect(r.found).toBe("I adopted a golden retriever puppy last week");
  }, 60_000);
});
