// Nothing is left in the temp folder by a test run, the smoke test or the bench, whether they pass,
// fail or are interrupted. Each runs as a child process with a temp folder of its own to inspect.
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./support/server-process";

const folders: string[] = [];
afterEach(() => {
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
});
/** A fresh temp folder for a child process (TMPDIR), and what is left in it afterwards. */
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), "engram-scratch-"));
  folders.push(dir);
  return dir;
};
const envWith = (tmp: string) => ({
  PATH: process.env.PATH!,
  HOME: process.env.HOME!,
  XDG_CACHE_HOME: process.env.XDG_CACHE_HOME ?? join(process.env.HOME!, ".cache"),
  TMPDIR: tmp,
});

describe("temp files", () => {
  test("a bun test run removes what its tests wrote to the temp folder, also when a test fails", async () => {
    const tmp = scratch();
    const run = Bun.spawn(["bun", "test", "./test/fixtures/leaves-temp.fixture.ts"], {
      cwd: ROOT,
      env: envWith(tmp),
      stdout: "ignore",
      stderr: "ignore",
    });
    expect(await run.exited).toBe(1);
    expect(readdirSync(tmp)).toEqual([]);
  });

  test("the smoke test removes its folder when the binary fails", async () => {
    const tmp = scratch();
    const fake = join(scratch(), "engram");
    writeFileSync(fake, "#!/bin/sh\nexit 3\n");
    chmodSync(fake, 0o755);
    const code = `import { smoke } from "./scripts/smoke"; await smoke(${JSON.stringify(fake)}).then(() => process.exit(0), () => process.exit(1));`;
    const run = Bun.spawn(["bun", "-e", code], { cwd: ROOT, env: envWith(tmp), stdout: "ignore", stderr: "ignore" });
    expect(await run.exited).toBe(1);
    expect(readdirSync(tmp)).toEqual([]);
  });

  const bench = (tmp: string, out: string) =>
    Bun.spawn(
      [
        "bun",
        "scripts/bench.ts",
        "--memories=20",
        "--duration=0.2",
        "--concurrency=2",
        "--latency-concurrency=2",
        "--delete-all=100",
        "--embedding-model=none",
        `--out=${out}`,
      ],
      { cwd: ROOT, env: envWith(tmp), stdout: "ignore", stderr: "pipe" },
    );

  test("the bench removes its store folder when it finishes", async () => {
    const tmp = scratch();
    const out = join(scratch(), "bench.json");
    expect(await bench(tmp, out).exited).toBe(0);
    expect(readdirSync(tmp)).toEqual([]);
  }, 60_000); // a whole bench run: a server start, a load and every endpoint driven in turn (~3 s idle, 5 s+ on a busy machine)

  test("the bench removes its store folder when interrupted", async () => {
    const tmp = scratch();
    const run = bench(tmp, join(scratch(), "bench.json"));
    // Gate: the bench says it is loading once its server runs on the store in the temp folder.
    const reader = run.stderr.getReader();
    for (let seen = ""; !seen.includes("loading "); ) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the bench ended before loading: ${seen}`);
      seen += new TextDecoder().decode(value);
    }
    expect(readdirSync(tmp).length).toBeGreaterThan(0);
    run.kill("SIGINT");
    expect(await run.exited).toBe(130);
    expect(readdirSync(tmp)).toEqual([]);
  });
});
