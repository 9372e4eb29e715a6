// Runs the command line as a user would (`bun src/cli/index.ts …`) and collects its output and exit code.
import { join } from "node:path";
import { ROOT } from "./server-process";

/**
 * The per-test timeout of a file whose tests run the CLI (its `setDefaultTimeout`): each run is a new Bun
 * process that loads the CLI's sources and opens a store — 0.5 s on a quiet machine, past 2.5 s on the
 * shared 2-core one — and a test runs it up to five times. A plain `bun test` (no --timeout; bunfig.toml
 * has no such setting) gives 5 s, which such tests overran under load. No test waits on time: a ceiling.
 */
export const CLI_TEST_TIMEOUT_MS = 60_000;

export async function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ stdout: string; stderr: string; code: number }> {
  const p = Bun.spawn(["bun", join(ROOT, "src/cli/index.ts"), ...args], {
    // TMPDIR: the run's temp folder (test/support/temp-root.ts) is in process.env only, not in the
    // environment a child inherits by itself.
    env: {
      PATH: process.env.PATH!,
      HOME: process.env.HOME!,
      ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
      ...env,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  return { stdout, stderr, code };
}
