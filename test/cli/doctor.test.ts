// `engram doctor` as a user runs it: what it reports about this machine, and its exit code.
import { afterAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { storeState } from "~/cli/doctor";
import { runCli, CLI_TEST_TIMEOUT_MS } from "../support/cli";
import { tempDir } from "../support/server-process";
import { testModelsDir } from "../support/preload";

setDefaultTimeout(CLI_TEST_TIMEOUT_MS); // test/support/cli.ts says why

const dir = tempDir("engram-doctor-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `engram doctor` with an empty HOME, the tests' prebuilt models folder, and `env` on top. */
const doctor = (args: string[], env: Record<string, string> = {}) =>
  runCli(["doctor", ...args], { HOME: dir, ENGRAM_MODELS_DIR: testModelsDir, ...env });

describe("engram doctor", () => {
  test("reports platform, SQLite, the vector index, the model and the store, and exits 0 when all is well", async () => {
    const store = join(dir, "data", "engram.db");
    const r = await doctor(["--json", `--store-url=${store}`]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toEqual({
      platform: { os: process.platform, arch: process.arch, bun: Bun.version, binary: false },
      sqlite: { version: expect.stringMatching(/^3\.\d+\.\d+$/), library: "built into Bun", extensionLoading: true },
      vectorIndex: { setting: "auto", inUse: "sqlite-vec", detail: "sqlite-vec v0.1.9" },
      model: { id: "engram/glove-sif", state: "ready", dimensions: 100, modelsDir: testModelsDir },
      store: { path: store, exists: false, writable: true, detail: `will be created (in ${dir})` },
      problems: [],
    });
  }, 30_000);

  test("prints one line per subject for a person to read", async () => {
    const store = join(dir, "e.db");
    const r = await doctor(["--vector-index=portable", "--embedding-model=none", `--store-url=${store}`]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")).toEqual([
      "engram 0.1.0 doctor",
      `platform      ${process.platform}-${process.arch}, Bun ${Bun.version}, from source`,
      expect.stringMatching(/^sqlite {8}3\.\d+\.\d+ \(built into Bun\), extension loading: yes$/),
      "vector index  portable (ENGRAM_VECTOR_INDEX=portable): chosen; sqlite-vec is not loaded",
      "model         none (keyword search only)",
      `store         ${store}: writable, will be created (in ${dir})`,
      "",
    ]);
  });

  test("a store that cannot be written and a model that cannot load are problems: exit 1, one line each", async () => {
    const file = join(dir, "a-file");
    writeFileSync(file, "not a folder");
    const r = await doctor([`--store-url=${join(file, "engram.db")}`, "--embedding-model=./no-such-model"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`store         ${file}/engram.db: NOT writable, ${file} is not a folder`);
    expect(r.stderr.split("\n")).toEqual([
      expect.stringMatching(
        /^problem: embedding model \.\/no-such-model failed to load: model folder .*no-such-model has no config\.json$/,
      ),
      `problem: store ${file}/engram.db cannot be written: ${file} is not a folder`,
      "",
    ]);
  });
});

describe("storeState", () => {
  test("an existing store file is writable; an in-memory store keeps nothing", () => {
    const path = join(dir, "existing.db");
    writeFileSync(path, "");
    expect(storeState(path)).toEqual({ path, exists: true, writable: true, detail: "exists" });
    expect(storeState(":memory:")).toEqual({
      path: ":memory:",
      exists: false,
      writable: true,
      detail: "in memory: nothing is kept",
    });
  });
});
