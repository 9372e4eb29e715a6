// `engram keys` as an operator runs it (SPEC §8): a first admin key for a store that serves with
// --auth and no MCP_API_KEY, listing, and a revocation that a running server applies at once.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { runCli } from "../support/cli";
import { spawnServer, tempDir, type ServerProcess } from "../support/server-process";

// Each test runs the binary several times (a second or more each on a busy machine): a bound, not a measurement.
setDefaultTimeout(60_000);

const servers: ServerProcess[] = [];
afterAll(() => {
  for (const s of servers) s.proc.kill();
});

describe("engram keys", () => {
  test("an auth server with neither MCP_API_KEY nor a key in its store refuses to start (exit 2)", async () => {
    const store = `--store-url=${join(tempDir(), "empty.db")}`;
    const r = await runCli(["serve", "--auth", "--port=0", store, "--embedding-model=none"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "engram: MCP_API_KEY: auth is on but nothing can sign in: pass --api-key=<key>, set MCP_API_KEY, or create a key first with `engram keys create --org <org> --role admin` on this store\n",
    );
  });

  test("creates the first admin key, which a server with --auth alone accepts, and revokes it while it runs", async () => {
    const store = `--store-url=${join(tempDir(), "team.db")}`;
    const created = await runCli(["keys", "create", "--org", "default", "--role", "admin", "--name", "ops", store]);
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^egk_[0-9a-f]{16}_[0-9a-f]{64}$/);
    const id = key.slice(4, 20);
    expect(created.stderr).toBe(
      `created key ${id}: organization default, role admin, user any, agent any, expires never. The key above is shown only this once: keep it now.\n`,
    );
    const server = await spawnServer(["--auth", store, "--embedding-model=none"]);
    servers.push(server);
    const get = (k: string) => fetch(`${server.url}/admin/keys`, { headers: { authorization: `Bearer ${k}` } });
    expect((await get(key)).status).toBe(200);
    const list = await runCli(["keys", "list", store]);
    expect(list.code).toBe(0);
    expect(list.stdout.split("\n")[0]).toMatch(
      /^id\s+org\s+role\s+user\s+agent\s+name\s+created\s+expires\s+last used\s+revoked$/,
    );
    expect(list.stdout).toContain(`${id}  default  admin  -     -      ops`);
    const revoked = await runCli(["keys", "revoke", id, store]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(new RegExp(`^revoked key ${id} of organization default at \\S+Z\\n$`));
    const after = await get(key);
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ success: false, error: "this API key was revoked", code: "UNAUTHORIZED" });
    expect(await runCli(["keys", "revoke", id, store])).toMatchObject({ code: 1 });
  });

  test("a second organization's first admin key works on the running server, in that organization only", async () => {
    const store = `--store-url=${join(tempDir(), "two.db")}`;
    const home = (await runCli(["keys", "create", "--org", "default", "--role", "admin", store])).stdout.trim();
    const server = await spawnServer(["--auth", store, "--embedding-model=none"]);
    servers.push(server);
    const created = await runCli(["keys", "create", "--org", "acme", "--role", "admin", "--name", "acme-ops", store]);
    expect(created.code).toBe(0);
    const acme = created.stdout.trim();
    const call = (key: string, method: string, path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    const member = await call(acme, "POST", "/admin/keys", { role: "member", user_id: "alice" });
    expect([member.status, member.body.org, member.body.role]).toEqual([200, "acme", "member"]);
    const orgsSeen = async (key: string) => [
      ...new Set((await call(key, "GET", "/admin/keys")).body.keys.map((k: { org: string }) => k.org)),
    ];
    expect(await orgsSeen(acme)).toEqual(["acme"]);
    expect(await orgsSeen(home)).toEqual(["default"]);
    const homeId = home.slice(4, 20);
    expect((await call(acme, "DELETE", `/admin/keys/${homeId}`)).status).toBe(404);
    expect((await call(home, "GET", "/admin/keys")).status).toBe(200);
    expect((await call(acme, "GET", "/metrics")).status).toBe(403);
  });

  test("bad arguments exit 2 with the usage", async () => {
    for (const args of [
      ["keys"],
      ["keys", "create", "--role", "admin"],
      ["keys", "create", "--org", "o", "--role", "boss"],
      ["keys", "revoke"],
    ]) {
      const r = await runCli(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toStartWith("engram keys: ");
      expect(r.stderr).toContain("usage: engram keys create");
    }
    const member = await runCli([
      "keys",
      "create",
      "--org",
      "default",
      "--role",
      "member",
      `--store-url=${join(tempDir(), "m.db")}`,
    ]);
    expect(member).toEqual({ stdout: "", stderr: "engram: a member key acts as one user: give user_id\n", code: 2 });
  });
});
