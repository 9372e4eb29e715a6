// Runs the command line as a user would (`bun src/cli/index.ts …`) and collects its output and exit code.
import { join } from "node:path";
import { ROOT } from "./server-process";

export async function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ stdout: string; stderr: string; code: number }> {
  const p = Bun.spawn(["bun", join(ROOT, "src/cli/index.ts"), ...args], {
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, ...env },
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
