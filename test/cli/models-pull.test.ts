// `engram models pull` as a user runs it, against a local server playing the hub (ENGRAM_MODEL_HUB).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { progressPrinter } from "~/cli/models";
import { CLI_TEST_TIMEOUT_MS, runCli } from "../support/cli";
import { startTestHub, type TestHub } from "../support/model-hub";

setDefaultTimeout(CLI_TEST_TIMEOUT_MS);
let hub: TestHub;
let modelsDir: string;
beforeAll(async () => {
  hub = await startTestHub("test-org/tiny-bert", { quantized: true });
  modelsDir = mkdtempSync(join(tmpdir(), "engram-cli-models-"));
});
afterAll(async () => {
  await hub.stop();
  rmSync(modelsDir, { recursive: true, force: true });
});

const engram = (args: string[]) => runCli(args, { ENGRAM_MODELS_DIR: modelsDir, ENGRAM_MODEL_HUB: hub.url });

describe("engram models pull", () => {
  test("downloads the model with progress on stderr and says how to use it", async () => {
    const r = await engram(["models", "pull", "test-org/tiny-bert"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `test-org/tiny-bert ready in ${join(modelsDir, "test-org/tiny-bert")} (int8 weights); use it with EMBEDDING_MODEL=test-org/tiny-bert\n`,
    );
    for (const file of ["config.json", "tokenizer.json", "onnx/model_quantized.onnx"]) {
      expect(r.stderr).toContain(`${file} 0% `);
      expect(r.stderr).toContain(`${file} 100% `);
    }
    expect(existsSync(join(modelsDir, "test-org/tiny-bert/onnx/model_quantized.onnx"))).toBe(true);
  });

  test("a bad id or usage exits 2 with one line", async () => {
    expect(await engram(["models", "pull", "../x"])).toEqual({
      stdout: "",
      stderr: "engram: '../x' is not a hub model id (owner/name)\n",
      code: 2,
    });
    expect(await engram(["models", "list"])).toEqual({
      stdout: "",
      stderr: "engram: usage: engram models pull <owner/name>\n",
      code: 2,
    });
  });

  test("a model the hub does not have exits 1 naming it", async () => {
    const r = await engram(["models", "pull", "test-org/absent"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`engram: model test-org/absent was not found at ${hub.url} (config.json: 404)\n`);
  });
});

describe("the progress printer", () => {
  test("draws a bar in a terminal", () => {
    let out = "";
    const print = progressPrinter((s) => (out += s), true);
    print({ file: "onnx/model.onnx", received: 0, total: 4_000_000 });
    print({ file: "onnx/model.onnx", received: 2_000_000, total: 4_000_000 });
    expect(out).toBe(
      `\ronnx/model.onnx [${".".repeat(30)}] 0% 0.0/4.0 MB\ronnx/model.onnx [${"#".repeat(15)}${".".repeat(15)}] 50% 2.0/4.0 MB`,
    );
  });

  test("prints a line per tenth elsewhere", () => {
    let out = "";
    const print = progressPrinter((s) => (out += s), false);
    for (const received of [0, 10, 15, 50, 100]) print({ file: "f", received, total: 100 });
    expect(out).toBe("f 0% 0.0/0.0 MB\nf 10% 0.0/0.0 MB\nf 50% 0.0/0.0 MB\nf 100% 0.0/0.0 MB\n");
  });
});
