// CI: the package as someone else installs it. `npm pack` (whose prepack runs scripts/build-lib.ts),
// `npm install` of the tarball into a scratch project outside the repository, then:
//   1. strict tsc (NodeNext, skipLibCheck off, exactOptionalPropertyTypes) over a consumer that imports
//      "engram" — the package's own declarations must compile;
//   2. Node ≥ 20 runs the compiled consumer against a live `engram serve` (the HTTP client, its errors,
//      and createEngram's Bun-only message);
//   3. Bun loads the same package through its `bun` condition (src/index.ts) and runs createEngram
//      in-process, and the installed `engram` bin answers `version`.
// The install fetches the server's dependencies from the npm registry (~170 packages, ~840 MB, about
// 45 s cold). Without Node ≥ 20 on PATH, Node 20 comes from the registry too (node-linux-<arch>@20).
// Usage: bun scripts/ci/sdk-package.ts   (the scratch folder is removed, also on failure)
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
const work = mkdtempSync(join(tmpdir(), "engram-sdk-package-"));
const app = join(work, "app");

function run(cmd: string[], cwd: string, what: string): string {
  const t0 = performance.now();
  const p = Bun.spawnSync(cmd, {
    cwd,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, npm_config_fund: "false" },
  });
  const out = `${p.stdout}${p.stderr}`;
  if (p.exitCode !== 0) throw new Error(`${what} failed (exit ${p.exitCode}):\n${out}`);
  console.log(`sdk-package: ${what}: ok (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  return p.stdout.toString();
}

/** A Node ≥ 20: the one on PATH, else node-linux-<arch>@20 from the npm registry. */
function node20(): string {
  const onPath = Bun.which("node");
  const major = onPath ? Number(Bun.spawnSync([onPath, "-p", "process.versions.node.split('.')[0]"]).stdout) : 0;
  if (major >= 20) return onPath!;
  const pkg = `node-${process.platform}-${process.arch}`;
  run(
    ["npm", "install", "--no-save", "--prefix", join(work, "node20"), `${pkg}@20`],
    work,
    `${pkg}@20 (PATH has Node ${major || "none"})`,
  );
  return join(work, "node20", "node_modules", pkg, "bin", "node");
}

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    lib: ["ES2022"],
    types: [],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: false,
    outDir: "out",
  },
  include: ["consumer.ts"],
};

// What a TypeScript app writes; wrong calls must not compile (each @ts-expect-error fails tsc if unused).
const CONSUMER = `import { createClient, createEngram, AppError, GovernanceValidationError, type SearchResponse } from "engram";
declare const process: { argv: string[] };
declare const console: { log(...values: unknown[]): void };
const client = createClient({ baseUrl: process.argv[2]! });
const added = await client.addMemories({ user_id: "ann", memory: "Ann takes the 8:10 train", metadata: { tags: ["commute"] } });
const found: SearchResponse = await client.searchMemory({ user_id: "ann", query: "train", limit: 5 });
const listed = await client.listMemories({ user_id: "ann" });
const errors: string[] = [];
try { await client.getMemory({ user_id: "ann", memory_id: "nope" }); } catch (e) { if (e instanceof AppError) errors.push(e.code); }
try { await client.governance.getTemplate("Custom"); } catch (e) { if (e instanceof GovernanceValidationError) errors.push(e.code); }
let bunOnly = "";
try { await createEngram(); } catch (e) { bunOnly = (e as Error).message; }
// @ts-expect-error query is required (user_id is not: a key bound to a user decides it, SPEC §8)
void (() => client.searchMemory({ user_id: "ann" }));
// @ts-expect-error limit is a number
void (() => client.searchMemory({ user_id: "ann", query: "x", limit: "5" }));
console.log(JSON.stringify({ added: added.memory_ids.length, found: found.results.map((r) => r.memory), total: listed.total, errors, bunOnly }));
`;

const BUN_CHECK = `import { createEngram } from "engram";
const e = await createEngram({ embedding: { model: "none" } });
const r = await e.addMemories({ user_id: "ann", memory: "in process" });
console.log(JSON.stringify({ stored: r.memory_ids.length, total: (await e.listMemories({ user_id: "ann" })).total }));
await e.close();
`;

async function startServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const cmd = ["bun", join(ROOT, "src/cli/index.ts"), "serve", "--port=0", "--store-url=sqlite::memory:"];
  const server = Bun.spawn([...cmd, "--embedding-model=none"], { cwd: ROOT, stdout: "pipe", stderr: "inherit" });
  const reader = server.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!/listening on (\S+)/.test(seen)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`engram serve exited before listening:\n${seen}`);
    seen += value;
  }
  return { url: /listening on (\S+)/.exec(seen)![1]!, stop: async () => (server.kill(), void (await server.exited)) };
}

function expectEqual(what: string, got: unknown, want: unknown): void {
  if (JSON.stringify(got) !== JSON.stringify(want))
    throw new Error(`${what}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
  console.log(`sdk-package: ${what}: ok`);
}

let code = 1;
try {
  run(["npm", "pack", "--pack-destination", work], ROOT, "npm pack (prepack builds dist/lib)");
  const tarball = readdirSync(work).find((f) => f.endsWith(".tgz"))!;
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  writeFileSync(join(app, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2));
  writeFileSync(join(app, "consumer.ts"), CONSUMER);
  writeFileSync(join(app, "bun-check.ts"), BUN_CHECK);
  run(["npm", "install", "--ignore-scripts", "--no-audit", join(work, tarball)], app, `npm install ${tarball}`);
  run(["bun", TSC, "-p", "."], app, "strict tsc of a consumer against the installed package's declarations");
  const node = node20();
  const server = await startServer();
  try {
    const out = JSON.parse(
      run(
        [node, "out/consumer.js", server.url],
        app,
        `Node ${run([node, "--version"], app, "node --version").trim()} runs the client`,
      ),
    );
    expectEqual("the client's answers in Node", out, {
      added: 1,
      found: ["Ann takes the 8:10 train"],
      total: 1,
      errors: ["NOT_FOUND", "INVALID_COMPLIANCE_MODE"],
      bunOnly:
        "createEngram runs Engram in-process and needs Bun (it uses bun:sqlite); in Node or a browser, run `engram serve` and connect with createClient({ baseUrl })",
    });
  } finally {
    await server.stop();
  }
  expectEqual(
    "createEngram under Bun (the bun condition)",
    JSON.parse(run(["bun", "bun-check.ts"], app, "bun loads the package")),
    { stored: 1, total: 1 },
  );
  expectEqual(
    "the installed bin",
    run(["bun", "node_modules/.bin/engram", "version"], app, "engram version").trim(),
    "0.1.0",
  );
  code = 0;
} catch (e) {
  console.error(`sdk-package: FAILED: ${(e as Error).message}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(code);
