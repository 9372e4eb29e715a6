// `bun run bench --auth` (issue 18: what auth + audit cost per request): the server runs with --auth, and
// every bench user gets a member key bound to it, as a team deployment gives each person (docs/TEAMS.md);
// an admin key, made with `engram keys create` before the server starts, creates them and reads /metrics.
// Every request made with a key is audited; the rate limit is set far above anything the bench can send.

/** A limit no bench run reaches (the counting still runs, as on a deployment below its limit). */
export const BENCH_RATE_LIMIT = "1000000/s";
/** The flags a server of an --auth bench gets on top of the usual ones. */
export const AUTH_SERVER_FLAGS = ["--auth", `--rate-limit=${BENCH_RATE_LIMIT}`];
const ORG = process.env.ENGRAM_ORG_ID || "default";

export const bearer = (key: string | undefined): Record<string, string> =>
  key ? { authorization: `Bearer ${key}` } : {};

/** The first admin key of the store behind `storeFlags`, as an operator makes it (`engram keys create`). */
export function createAdminKey(engram: string[], storeFlags: string[]): string {
  const args = ["keys", "create", "--org", ORG, "--role", "admin", "--name", "bench", ...storeFlags];
  const r = Bun.spawnSync([...engram, ...args], { stdout: "pipe", stderr: "pipe" });
  const key = r.stdout.toString().trim();
  if (r.exitCode !== 0 || !key) throw new Error(`engram keys create failed: ${r.stderr.toString()}`);
  return key;
}

/** One member key per user, bound to that user (POST /admin/keys with the admin key), 16 at a time. */
export async function memberKeys(url: string, adminKey: string, users: string[]): Promise<Record<string, string>> {
  const keys: Record<string, string> = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < users.length) {
        const user = users[next++]!;
        const res = await fetch(`${url}/admin/keys`, {
          method: "POST",
          headers: { "content-type": "application/json", ...bearer(adminKey) },
          body: JSON.stringify({ role: "member", user_id: user, name: `bench ${user}` }),
        });
        const body = (await res.json()) as { key?: string };
        if (res.status !== 200 || !body.key) throw new Error(`key for ${user}: ${res.status} ${JSON.stringify(body)}`);
        keys[user] = body.key;
      }
    }),
  );
  return keys;
}
