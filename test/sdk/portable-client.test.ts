// The client as Node and browsers get it: src/client.ts bundled exactly as scripts/build-lib.ts
// ships it (dist/lib/client.js), run by Node ≥ 20 against a real server on a port, and the
// package.json fields that send each runtime to its entry. The full `npm pack` → `npm install` →
// strict tsc → Node and Bun run is scripts/ci/sdk-package.ts (it downloads the dependencies).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { RunningServer } from "~/main";
import { bundleClient } from "../../scripts/build-lib";
import { ROOT, tempDir } from "../support/server-process";
import { serveOnPort } from "../mcp/support";

const node = Bun.which("node");
const nodeMajor = node ? Number(Bun.spawnSync([node, "-p", "process.versions.node.split('.')[0]"]).stdout) : 0;
if (nodeMajor < 20) console.log(`skipping the Node run: ${node ? `Node ${nodeMajor}` : "no node"} on PATH, 20 needed`);

let dir: string;
let bundle: string;
let server: RunningServer;
beforeAll(async () => {
  dir = tempDir("engram-portable-");
  bundle = await bundleClient(dir);
  server = await serveOnPort();
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const BUN_ONLY =
  "createEngram runs Engram in-process and needs Bun (it uses bun:sqlite); in Node or a browser, " +
  "run `engram serve` and connect with createClient({ baseUrl })";

describe("the portable client (dist/lib/client.js)", () => {
  test("is one ESM file that imports nothing: no Bun, no Node module, no path alias", () => {
    const js = readFileSync(bundle, "utf8");
    expect(js).not.toMatch(/^\s*import\b/m);
    expect(js).not.toMatch(/\brequire\(|\bimport\(|["']~\//);
    expect(js).toMatch(/^export \{[\s\S]*createClient,[\s\S]*createEngram,[\s\S]*\};\s*$/m);
  });

  test.skipIf(nodeMajor < 20)(
    "runs in Node ≥ 20 against a live server: calls, error classes, createEngram's message",
    async () => {
      const script = join(dir, "consumer.mjs");
      writeFileSync(
        script,
        `import { createClient, createEngram, AppError, GovernanceValidationError } from ${JSON.stringify(pathToFileURL(bundle).href)};
const c = createClient({ baseUrl: process.argv[2] });
const added = await c.addMemories({ user_id: "ann", memory: "Ann takes the 8:10 train" });
const found = await c.searchMemory({ user_id: "ann", query: "train" });
const errors = [];
try { await c.getMemory({ user_id: "ann", memory_id: "nope" }); } catch (e) { errors.push([e instanceof AppError, e.code]); }
try { await c.governance.getTemplate("Custom"); } catch (e) { errors.push([e instanceof GovernanceValidationError, e.code]); }
try { await c.searchMemory({ user_id: "ann", query: "x", limit: 0 }); } catch (e) { errors.push([e instanceof AppError, e.code, e.field]); }
let bunOnly; try { await createEngram(); } catch (e) { bunOnly = e.message; }
console.log(JSON.stringify({ ids: added.memory_ids.length, found: found.results.map((r) => r.memory), errors, bunOnly }));
`,
      );
      const p = Bun.spawn([node!, script, server.url], { stdout: "pipe", stderr: "pipe" });
      const [out, err, code] = await Promise.all([
        new Response(p.stdout).text(),
        new Response(p.stderr).text(),
        p.exited,
      ]);
      expect({ code, err }).toEqual({ code: 0, err: "" });
      expect(JSON.parse(out)).toEqual({
        ids: 1,
        found: ["Ann takes the 8:10 train"],
        errors: [
          [true, "NOT_FOUND"],
          [true, "INVALID_COMPLIANCE_MODE"],
          [true, "VALIDATION_ERROR", "limit"],
        ],
        bunOnly: BUN_ONLY,
      });
    },
  );

  test("createServer and createEngram of the portable entry refuse outside Bun with what to do instead", async () => {
    const portable = await import(pathToFileURL(bundle).href);
    await expect(portable.createEngram()).rejects.toThrow(BUN_ONLY);
    await expect(portable.createServer()).rejects.toThrow(BUN_ONLY.replace("createEngram", "createServer"));
  });
});

test.skipIf(nodeMajor < 20)("the README's SDK example runs as written in Node against a live server", async () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## TypeScript SDK"), readme.indexOf("## Governance"));
  const example = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
  const script = join(dir, "readme.mjs");
  writeFileSync(
    script,
    example
      .replace('from "engram"', `from ${JSON.stringify(pathToFileURL(bundle).href)}`)
      .replace("http://127.0.0.1:3000", server.url),
  );
  const p = Bun.spawn([node!, script], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  expect({ out, err, code }).toEqual({ out: "Alice is vegetarian\nNOT_FOUND\n", err: "", code: 0 });
});

test("package.json sends Bun to the source, everything else to the bundle, and types to the declarations", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  expect(pkg.exports).toEqual({
    ".": { types: "./dist/lib/types/client.d.ts", bun: "./src/index.ts", default: "./dist/lib/client.js" },
    "./package.json": "./package.json",
  });
  expect([pkg.main, pkg.types, pkg.bin.engram]).toEqual([
    "./dist/lib/client.js",
    "./dist/lib/types/client.d.ts",
    "src/cli/index.ts",
  ]);
  // Bun resolves src/'s ~/ imports through the shipped tsconfig.json; prepack builds dist/lib.
  expect(pkg.files).toEqual(["src", "dist/lib", "tsconfig.json", "README.md"]);
  expect(pkg.scripts.prepack).toBe("bun scripts/build-lib.ts");
  expect(pkg.engines.node).toBe(">=20");
});
