// The logging settings (seed: logging {enabled, verbose, logFile}) do what they say.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig } from "~/config/load-config";
import { loggerFor } from "~/main";

const env = { HOME: "/home/u" };
const dirs: string[] = [];
const tempFile = () => {
  const dir = mkdtempSync(join(tmpdir(), "engram-log-"));
  dirs.push(dir);
  return join(dir, "engram.log");
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("logging", () => {
  test("logFile receives the log lines, at the configured level", () => {
    const file = tempFile();
    const logger = loggerFor(loadConfig({ env, options: { logging: { logFile: file }, logLevel: "warn" } }));
    logger.info("not at this level");
    logger.warn("disk nearly full", { free: 3 });
    const lines = readFileSync(file, "utf8").trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z WARN  disk nearly full free=3$/);
  });

  test("verbose logs debug lines", () => {
    const file = tempFile();
    loggerFor(loadConfig({ env, options: { logging: { logFile: file, verbose: true } } })).debug("memory stored");
    expect(readFileSync(file, "utf8")).toContain("DEBUG memory stored");
  });

  test("enabled: false writes nothing, not even to the file", () => {
    const file = tempFile();
    const logger = loggerFor(loadConfig({ env, options: { logging: { enabled: false, logFile: file } } }));
    logger.error("unseen");
    expect(existsSync(file)).toBe(false);
  });

  test("a log file that cannot be written fails at start, not at the first line", () => {
    expect(() => loggerFor(loadConfig({ env, argv: ["--log-file=/nonexistent-dir/engram.log"] }))).toThrow(
      new ConfigError("ENGRAM_LOG_FILE: cannot write '/nonexistent-dir/engram.log' (ENOENT)"),
    );
  });
});
