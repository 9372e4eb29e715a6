// Spawns Engram as a real process (as `bun start` or the binary would run) on a free port and
// reads its startup line to learn the URL.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";

export const ROOT = join(import.meta.dir, "..", "..");

export interface ServerProcess {
  url: string;
  proc: Subprocess<"ignore", "pipe", "pipe">;
  startupLine: string;
  stderr(): Promise<string>;
}

export const tempDir = (prefix = "engram-test-") => mkdtempSync(join(tmpdir(), prefix));

export async function spawnServer(
  args: string[],
  opts: { env?: Record<string, string>; cmd?: string[]; cwd?: string; timeoutMs?: number } = {},
): Promise<ServerProcess> {
  const cmd = opts.cmd ?? ["bun", join(ROOT, "src/cli/index.ts"), "serve"];
  const proc = Bun.spawn([...cmd, "--port=0", ...args], {
    cwd: opts.cwd ?? ROOT,
    env: {
      PATH: process.env.PATH!,
      HOME: process.env.HOME!,
      XDG_CACHE_HOME: process.env.XDG_CACHE_HOME ?? join(process.env.HOME!, ".cache"),
      ...opts.env,
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = proc.stdout.getReader();
  let buf = "";
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  while (!buf.includes("\n")) {
    const chunk = await Promise.race([reader.read(), Bun.sleep(Math.max(0, deadline - Date.now())).then(() => null)]);
    if (!chunk || chunk.done) {
      proc.kill();
      throw new Error(`server did not start: ${buf}\n${await new Response(proc.stderr).text()}`);
    }
    buf += new TextDecoder().decode(chunk.value);
  }
  reader.releaseLock();
  const startupLine = buf.split("\n")[0]!;
  const url = /listening on (\S+)/.exec(startupLine)?.[1];
  if (!url) throw new Error(`no URL in startup line: ${startupLine}`);
  return { url, proc, startupLine, stderr: () => new Response(proc.stderr).text() };
}

export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}
