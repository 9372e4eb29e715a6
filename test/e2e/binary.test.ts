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
    // The API page's files are embedded whole: the same bytes as the pinned swagger-ui-dist.
    const dist = join(import.meta.dir, "..", "..", "node_modules", "swagger-ui-dist");
    for (const file of ["swagger-ui-bundle.js", "swagger-ui.css", "LICENSE", "NOTICE"])
      expect(r.apiPage.assetBytes[file]).toBe(Bun.file(join(dist, file)).size);
    const doc = await Bun.file(join(import.meta.dir, "..", "..", "docs", "openapi.json")).json();
    expect(r.apiPage.operations).toBe(Object.values(doc.paths as object[]).flatMap((ops) => Object.keys(ops)).length);
  }, 60_000);
});
