// Usage: bun scripts/ci/simulated-install.ts [--os=darwin] [--cpu=arm64]
// A source install as another platform gets it: the repository's sources and lockfile copied to a
// scratch folder, `bun install --os=<os> --cpu=<cpu>` (so node_modules holds that platform's optional
// packages, not this machine's), then the CLI runs from it: version, doctor, serve, /health, a search
// by paraphrase, SIGTERM. Module resolution must not fail; with no sqlite-vec for this machine in
// node_modules the server must fall back to the portable vector index. Exit 1 on any failure.
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..", "..");
const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const OS = arg("os", "darwin");
const CPU = arg("cpu", "arm64");

const scratch = mkdtempSync(join(tmpdir(), "engram-install-"));
const app = join(scratch, "app");
const home = join(scratch, "home");
const env = { PATH: process.env.PATH!, HOME: home };

function run(cmd: string[], cwd = app): string {
  const p = Bun.spawnSync(cmd, { cwd, env, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} exited ${p.exitCode}: ${p.stderr}${p.stdout}`);
  return p.stdout.toString();
}

const check = (ok: boolean, what: string) => {
  if (!ok) throw new Error(`simulated ${OS}-${CPU} install: ${what}`);
  console.log(`ok   ${what}`);
};

async function serveAndSearch(): Promise<void> {
  const proc = Bun.spawn(["bun", "src/cli/index.ts", "serve", "--port=0"], {
    cwd: app,
    env,
    stdout: "pipe",
    stderr: "pipe",
  });
  try {
    const reader = proc.stdout.getReader();
    let line = "";
    while (!line.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`serve stopped: ${await new Response(proc.stderr).text()}`);
      line += new TextDecoder().decode(value);
    }
    const url = /listening on (\S+)/.exec(line)?.[1];
    check(!!url && line.includes("index=portable"), `serve starts on the portable index: ${line.trim()}`);
    const health = (await (await fetch(`${url}/health`)).json()) as { search: { vector_index: string; state: string } };
    check(
      health.search.vector_index === "portable" && health.search.state === "ready",
      "/health: portable, model ready",
    );
    const post = (path: string, body: unknown) =>
      fetch(`${url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    await post("/add_memories", { user_id: "u", memory: "I adopted a golden retriever puppy last week" });
    await post("/add_memories", { user_id: "u", memory: "The quarterly budget review is on Thursday" });
    const found = (await (await post("/search_memory", { user_id: "u", query: "new dog", limit: 1 })).json()) as any;
    check(
      found.results?.[0]?.memory === "I adopted a golden retriever puppy last week",
      "a search finds the memory by paraphrase",
    );
    proc.kill("SIGTERM");
    check((await proc.exited) === 0, "SIGTERM: exit 0");
  } finally {
    proc.kill("SIGKILL");
  }
}

try {
  mkdirSync(home);
  mkdirSync(app);
  for (const f of ["package.json", "bun.lock", "bunfig.toml", "tsconfig.json", "src"])
    cpSync(join(ROOT, f), join(app, f), { recursive: true });
  run(["bun", "install", "--frozen-lockfile", `--os=${OS}`, `--cpu=${CPU}`]);
  const vec = (p: string) => existsSync(join(app, "node_modules", p));
  const os = OS === "win32" ? "windows" : OS;
  check(vec(`sqlite-vec-${os}-${CPU}`), `node_modules holds sqlite-vec-${os}-${CPU}`);
  check(
    !vec(`sqlite-vec-${process.platform}-${process.arch}`),
    `and not this machine's sqlite-vec-${process.platform}-${process.arch}`,
  );
  check(run(["bun", "src/cli/index.ts", "version"]).trim() === "0.1.0", "engram version");
  const doctor = JSON.parse(run(["bun", "src/cli/index.ts", "doctor", "--json"]));
  check(doctor.vectorIndex.inUse === "portable", `engram doctor: portable (${doctor.vectorIndex.detail})`);
  await serveAndSearch();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
