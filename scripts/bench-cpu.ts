// Server CPU per request, A against B in alternating rounds (issue 18: what auth + audit cost): on a
// busy machine throughput moves with the neighbours, while the CPU time the server process spends per
// request (all its threads, from /proc) stays put. A and B serve copies of one store loaded once.
// Usage: bun scripts/bench-cpu.ts [--memories=20000] [--users=N/1000] [--requests=2000] [--rounds=4]
//          [--concurrency=8] [--kinds=search,get,list,add] [--a-auth] [--b-auth] [--a-root=DIR] [--b-root=DIR]
//          [--audit-off=a|b|ab|none]
// Default: A without auth, B with --auth (a member key per user, every request audited, rate limit out of
// reach), both from this tree. --a-root/--b-root serve from another checkout (e.g. before/after a change).
// --audit-off=a: what auditing the local operator costs; both sides get the same organization policy (GDPR's),
// with compliance.auditLogging off on side a (or b) and on on the other (without auth only); =ab: off on both,
// =none: on on both (e.g. round start against main, each with the same policy; calibrate with main against main).
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadVocabulary, makeText, mulberry32 } from "./bench-data";
import { freePort } from "./smoke";
import { cpuNs } from "./proc-cpu";
import { AUTH_SERVER_FLAGS, bearer, createAdminKey, memberKeys } from "./bench-auth";

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? def;
const N = Number(arg("memories", "20000"));
const USERS = Number(arg("users", String(Math.max(1, Math.round(N / 1000)))));
const REQUESTS = Number(arg("requests", "2000"));
const ROUNDS = Number(arg("rounds", "4"));
const C = Number(arg("concurrency", "8"));
const KINDS = arg("kinds", "search,get,list").split(",");
const ROOT = join(import.meta.dir, "..");
const side = (name: "a" | "b", authByDefault: boolean) => ({
  name: name.toUpperCase(),
  root: arg(`${name}-root`, ROOT),
  // B has auth by default only when both sides serve this tree (A against B is then auth off against on)
  // and auditing is not what is compared.
  auth:
    process.argv.includes(`--${name}-auth`) ||
    (authByDefault && !process.argv.some((a) => a.startsWith("--a-root=") || a.startsWith("--audit-off="))),
});
const SIDES = [side("a", false), side("b", true)];
const AUDIT_OFF = arg("audit-off", "").toUpperCase();
const auditOff = (name: string) => AUDIT_OFF === "AB" || AUDIT_OFF === name;
/** --profile=DIR: both servers write a CPU profile there when they stop (bun --cpu-prof). */
const PROFILE = arg("profile", "");

type Server = { url: string; proc: ReturnType<typeof Bun.spawn>; keys?: Record<string, string> };
const procs: ReturnType<typeof Bun.spawn>[] = [];
const dir = mkdtempSync(join(tmpdir(), "engram-bench-cpu-"));
const ORG = process.env.ENGRAM_ORG_ID || "default";
const users = Array.from({ length: USERS }, (_, u) => `user-${u}`);

async function start(root: string, store: string, flags: string[], profile = ""): Promise<Server> {
  const port = freePort();
  const prof = profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : [];
  const cmd = [
    "bun",
    ...prof,
    join(root, "src/cli/index.ts"),
    "serve",
    `--port=${port}`,
    `--store-url=${store}`,
    ...flags,
  ];
  const proc = Bun.spawn(cmd, { stdout: "ignore", stderr: "inherit" });
  procs.push(proc);
  const url = `http://127.0.0.1:${port}`;
  while ((await fetch(`${url}/health`).catch(() => null))?.status !== 200) {
    if (proc.exitCode !== null) throw new Error(`server exited during start-up: ${cmd.join(" ")}`);
    await Bun.sleep(5);
  }
  return { url, proc };
}

async function load(s: Server): Promise<[string, string][]> {
  const rnd = mulberry32(7);
  const vocab = await loadVocabulary();
  const ids: [string, string][] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < N) {
        const i = next;
        next += 50;
        const user = users[(i / 50) % USERS]!;
        const messages = Array.from({ length: Math.min(50, N - i) }, () => ({
          role: "user",
          content: makeText(vocab, rnd),
        }));
        const res = await fetch(`${s.url}/add_memories`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ user_id: user, agent_id: `agent-${i % 4}`, messages }),
        });
        const body = (await res.json()) as { memory_ids?: string[] };
        if (res.status !== 200) throw new Error(`load failed: ${res.status} ${JSON.stringify(body)}`);
        ids.push([user, body.memory_ids![0]!]);
      }
    }),
  );
  return ids;
}

function requestOf(kind: string, s: Server, rnd: () => number, vocab: any, ids: [string, string][]) {
  const u = users[Math.floor(rnd() * USERS)]!;
  const auth = bearer(s.keys?.[u]);
  if (kind === "search")
    return fetch(`${s.url}/search_memory`, {
      method: "POST",
      headers: { "content-type": "application/json", ...auth },
      body: JSON.stringify({ user_id: u, query: makeText(vocab, rnd, 2, 6), limit: 10 }),
    });
  if (kind === "list") return fetch(`${s.url}/list_memories?user_id=${u}&limit=20`, { headers: auth });
  // As bench-load.ts adds: one new memory per request (both sides get the same texts, same seed).
  if (kind === "add")
    return fetch(`${s.url}/add_memories`, {
      method: "POST",
      headers: { "content-type": "application/json", ...auth },
      body: JSON.stringify({ user_id: u, agent_id: `agent-${Math.floor(rnd() * 4)}`, memory: makeText(vocab, rnd) }),
    });
  const [owner, id] = ids[Math.floor(rnd() * ids.length)]!;
  return fetch(`${s.url}/get_memory?memory_id=${id}&user_id=${owner}`, { headers: bearer(s.keys?.[owner]) });
}

/** µs of server CPU per request over REQUESTS requests at concurrency C (same seed on both sides). */
async function round(kind: string, s: Server, seed: number, ids: [string, string][]): Promise<number> {
  const rnd = mulberry32(seed);
  const vocab = await loadVocabulary();
  let sent = 0;
  const before = cpuNs(s.proc.pid);
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (sent < REQUESTS) {
        sent++;
        const res = await requestOf(kind, s, rnd, vocab, ids);
        await res.arrayBuffer();
        // A memory a later one superseded answers 404 on both sides alike (same store, same requests).
        if (res.status !== 200 && !(kind === "get" && res.status === 404))
          throw new Error(`${kind} on ${s.url}: ${res.status}`);
      }
    }),
  );
  return (cpuNs(s.proc.pid) - before) / 1000 / REQUESTS;
}

/** The organization's policy: GDPR's template with the operator's calls audited or not. */
async function auditPolicy(s: Server, on: boolean): Promise<void> {
  const template = (await (await fetch(`${s.url}/governance/templates/GDPR`)).json()) as Record<string, any>;
  const policy = { ...template, organizationId: ORG, compliance: { ...template.compliance, auditLogging: on } };
  const res = await fetch(`${s.url}/governance/policies`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(policy),
  });
  if (res.status !== 200) throw new Error(`policy on ${s.url}: ${res.status} ${await res.text()}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  const first = join(dir, "a", "store.db");
  const loader = await start(SIDES[0]!.root, first, []);
  console.error(`loading ${N} memories for ${USERS} users…`);
  const ids = await load(loader);
  loader.proc.kill("SIGTERM");
  await loader.proc.exited;
  cpSync(join(dir, "a"), join(dir, "b"), { recursive: true });
  const servers: Server[] = [];
  for (const [i, sd] of SIDES.entries()) {
    const store = join(dir, i ? "b" : "a", "store.db");
    const flags = sd.auth ? AUTH_SERVER_FLAGS : [];
    const admin = sd.auth ? createAdminKey(["bun", join(sd.root, "src/cli/index.ts")], [`--store-url=${store}`]) : "";
    const s = await start(sd.root, store, flags, PROFILE && join(PROFILE, sd.name));
    if (sd.auth) s.keys = await memberKeys(s.url, admin, users);
    if (AUDIT_OFF) await auditPolicy(s, !auditOff(sd.name));
    servers.push(s);
  }
  console.log(`\n${N} memories, ${USERS} users, ${REQUESTS} requests × ${ROUNDS} rounds, concurrency ${C}`);
  const audits = (name: string) => (AUDIT_OFF ? (auditOff(name) ? " audit off" : " audit on") : "");
  console.log(SIDES.map((s) => `${s.name}: ${s.root}${s.auth ? " --auth" : ""}${audits(s.name)}`).join("\n"));
  console.log("\n| endpoint | A µs CPU/req (median) | B µs CPU/req (median) | B / A | rounds A | rounds B |");
  console.log("|---|---|---|---|---|---|");
  for (const kind of KINDS) {
    const got: number[][] = [[], []];
    await round(kind, servers[0]!, 1, ids); // warm both (JIT, caches) before counting
    await round(kind, servers[1]!, 1, ids);
    for (let r = 0; r < ROUNDS; r++)
      for (const i of r % 2 ? [1, 0] : [0, 1]) got[i]!.push(await round(kind, servers[i]!, 100 + r, ids));
    const [a, b] = got.map(median) as [number, number];
    const f = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(" ");
    console.log(
      `| ${kind} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(b / a).toFixed(3)} | ${f(got[0]!)} | ${f(got[1]!)} |`,
    );
  }
  if (PROFILE) for (const s of servers) s.proc.kill("SIGTERM"), await s.proc.exited;
} finally {
  for (const p of procs) p.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
}
