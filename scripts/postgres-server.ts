// A throwaway PostgreSQL (15 or later, with pgvector) for tests, benchmarks and local trials: a fresh
// cluster in a temp folder on a free port, owned by a watchdog shell that stops the server and removes the
// folder when this process lets go of it (also when this process is killed: the watchdog sees its stdin
// close). The app connects as a role that owns nothing (RLS applies); migrations run as an owner role.
// Usage: bun scripts/postgres-server.ts   (prints URLs of a fresh database, serves until Ctrl-C)
import { existsSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { SQL } from "bun";

export interface PgDatabase {
  name: string;
  /** The app's role: owns nothing, so row-level security applies to it. */
  url: string;
  /** The schema owner's role: runs migrations. */
  ownerUrl: string;
  drop(): Promise<void>;
}

export interface PgServer {
  port: number;
  /** Superuser: for the harness only, never for Engram. */
  adminUrl: string;
  /** A fresh database with the vector extension (Engram's migrations not applied). */
  createDatabase(prefix?: string): Promise<PgDatabase>;
  /** Stops the server (fast shutdown); `start()` brings it back on the same port with the same data. */
  pause(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const ROLES = { owner: "engram_owner", app: "engram_app" } as const;

/** Where the server's programs are: ENGRAM_PG_BINDIR, else Debian's newest /usr/lib/postgresql/<n>/bin (n ≥ 15). */
export function postgresBinDir(env: Record<string, string | undefined> = process.env): string | null {
  if (env.ENGRAM_PG_BINDIR) return env.ENGRAM_PG_BINDIR;
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .map(Number)
    .filter((v) => v >= 15)
    .sort((a, b) => b - a);
  for (const v of versions)
    if (existsSync(join(base, String(v), "bin", "postgres"))) return join(base, String(v), "bin");
  return null;
}

/** Why no throwaway server can start here (null when one can): `scripts/ci/postgres-install.sh` installs both. */
export function postgresUnavailable(env: Record<string, string | undefined> = process.env): string | null {
  const bin = postgresBinDir(env);
  if (!bin) return "PostgreSQL ≥ 15 is not installed (scripts/ci/postgres-install.sh installs it)";
  const share = Bun.spawnSync([join(bin, "pg_config"), "--sharedir"])
    .stdout.toString()
    .trim();
  const control = share ? join(share, "extension", "vector.control") : "";
  if (!control || !existsSync(control))
    return `pgvector is not installed for ${bin} (scripts/ci/postgres-install.sh builds it)`;
  if (process.getuid?.() === 0 && Bun.spawnSync(["id", "-u", "postgres"]).exitCode !== 0)
    return "running as root, and there is no 'postgres' user to run the server as";
  return null;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

// The watchdog: makes the cluster, runs the server, obeys "stop"/"start" lines on stdin, and on end of
// input (or a signal) stops the server and removes the folder. Runs as the server's own user.
const WATCHDOG = `
set -u
dir=$(mktemp -d "\${TMPBASE:-/tmp}/engram-pg-XXXXXX") || exit 1
pid=""
down() { if [ -n "$pid" ]; then kill -INT "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=""; fi; }
trap 'down; rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM HUP
printf '%s\\n' "$PGPASS" > "$dir/pw"
"$BIN/initdb" -D "$dir/data" -U postgres --pwfile="$dir/pw" -A scram-sha-256 --auth-local=trust -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
up() {
  "$BIN/postgres" -D "$dir/data" -k "$dir" -p "$PORT" -c listen_addresses=127.0.0.1 -c max_connections=1000 \\
    -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=64MB -c log_min_messages=fatal \\
    >>"$dir/server.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 300); do
    "$BIN/pg_isready" -q -h "$dir" -p "$PORT" && { echo ready; return; }
    kill -0 "$pid" 2>/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    sleep 0.05
  done
  echo "server did not become ready" >&2; exit 1
}
up
while read -r cmd; do
  case "$cmd" in
    stop) down; echo stopped ;;
    start) up ;;
  esac
done
`;

/** Starts a throwaway server; throws with the reason when none can start (see postgresUnavailable). */
export async function startPostgres(): Promise<PgServer> {
  const reason = postgresUnavailable();
  if (reason) throw new Error(reason);
  const bin = postgresBinDir()!;
  const password = crypto.randomUUID().replaceAll("-", "");
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    try {
      return await launch(bin, port, password);
    } catch (e) {
      // Another process may have taken the port between our probe and the server's bind.
      if (attempt >= 3) throw e;
    }
  }
}

async function launch(bin: string, port: number, password: string): Promise<PgServer> {
  const root = process.getuid?.() === 0;
  const cmd = root ? ["runuser", "-u", "postgres", "--", "bash", "-c", WATCHDOG] : ["bash", "-c", WATCHDOG];
  // A root test run's temp folder is private to root: the server's own user cannot enter it.
  const tmpBase = root ? "/tmp" : (process.env.TMPDIR ?? "/tmp");
  const proc = Bun.spawn(cmd, {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      BIN: bin,
      PORT: String(port),
      PGPASS: password,
      TMPBASE: tmpBase,
    },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines = lineReader(proc.stdout);
  const expect = async (word: string) => {
    const line = await lines.next();
    if (line !== word) {
      proc.kill();
      throw new Error(`PostgreSQL did not start: ${(await new Response(proc.stderr).text()).trim() || "no output"}`);
    }
  };
  await expect("ready");
  const adminUrl = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  const admin = new SQL(adminUrl, { max: 2 });
  const rolePassword = password;
  await admin.unsafe(
    `CREATE ROLE ${ROLES.owner} LOGIN PASSWORD '${rolePassword}'; CREATE ROLE ${ROLES.app} LOGIN PASSWORD '${rolePassword}'`,
  );
  await admin.unsafe(`CREATE DATABASE engram_template OWNER ${ROLES.owner}`);
  const template = new SQL(adminUrl.replace(/\/postgres$/, "/engram_template"), { max: 1 });
  await template.unsafe("CREATE EXTENSION vector");
  await template.close();
  let n = 0;
  const send = (line: string) => {
    proc.stdin.write(`${line}\n`);
    proc.stdin.flush();
  };
  return {
    port,
    adminUrl,
    async createDatabase(prefix = "engram") {
      const name = `${prefix.replace(/[^a-z0-9_]/g, "_")}_${process.pid}_${++n}`;
      await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE engram_template OWNER ${ROLES.owner}`);
      const url = (role: string) => `postgres://${role}:${rolePassword}@127.0.0.1:${port}/${name}`;
      return {
        name,
        url: url(ROLES.app),
        ownerUrl: url(ROLES.owner),
        drop: () => admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => {}),
      };
    },
    async pause() {
      send("stop");
      await expect("stopped");
    },
    async start() {
      send("start");
      await expect("ready");
    },
    async stop() {
      await admin.close({ timeout: 0 }).catch(() => {});
      proc.stdin.end();
      await proc.exited;
    },
  };
}

/** Lines of a child's stdout, one per call (null at its end). */
function lineReader(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  return {
    async next(): Promise<string | null> {
      for (;;) {
        const i = buf.indexOf("\n");
        if (i >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          return line;
        }
        const chunk = await reader.read();
        if (chunk.done) return null;
        buf += decoder.decode(chunk.value, { stream: true });
      }
    },
  };
}

if (import.meta.main) {
  const server = await startPostgres();
  const db = await server.createDatabase("engram_dev");
  console.log(
    `STORE_URL=${db.url}\nSTORE_MIGRATION_URL=${db.ownerUrl}\n(superuser: ${server.adminUrl}; Ctrl-C stops and removes it)`,
  );
  const stop = () => void server.stop().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
