// Two organizations on one real server (SPEC §8): "default" (A) and "acme" (B), each with an admin key, a
// member key for a user "alice", and for B also an OIDC login of its "alice" from a real provider. Runs
// on the store under test (ENGRAM_TEST_STORE). A's fixture: memories, a conversation, a session, a graph,
// a shared space "team" with a memory in it, an immutable record and a mutable key.
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { loadConfig } from "~/config/load-config";
import { startServer, type RunningServer } from "~/main";
import { silentLogger } from "~/shared/logger";
import { testStoreOptions } from "../support/app";
import { LetterEmbedder } from "../support/embedders";
import { AUDIENCE, startIssuer, type TestIssuer } from "../support/oidc-issuer";
import { connect } from "../mcp/support";
import { getTemplate } from "~/governance/templates";

export interface Reply {
  status: number;
  body: any;
}

export interface Caller {
  key: string;
  /** The key's id (egk_<id>_…), or the token's principal. */
  id: string;
  call(method: string, path: string, body?: unknown): Promise<Reply>;
  get(path: string): Promise<Reply>;
  post(path: string, body: unknown): Promise<Reply>;
  mcp(): Promise<Client>;
}

export interface TwoOrgs {
  server: RunningServer;
  a: { admin: Caller; alice: Caller };
  b: { admin: Caller; alice: Caller; sso: Caller };
  /** A's fixture ids. */
  ids: { memory: string; spaceMemory: string; conversation: string; session: string };
  close(): Promise<void>;
}

export async function twoOrgs(): Promise<TwoOrgs> {
  const issuer = await startIssuer([
    { id: "acme-web", secret: "s1", claims: { org: "acme", roles: ["member"] }, redirectUri: "http://127.0.0.1:9/cb" },
  ]);
  const store = await testStoreOptions();
  const clients: Client[] = [];
  let server: RunningServer | undefined;
  const close = async () => {
    for (const c of clients) await c.close();
    await server?.stop();
    await issuer.close();
    await store.schema?.drop();
  };
  try {
    const config = loadConfig({
      options: {
        ...store.options,
        port: 0,
        auth: { enabled: true, apiKey: "shared" },
        oidc: { issuer: issuer.url, audience: [AUDIENCE] },
      },
      env: { HOME: process.env.HOME },
    });
    server = await startServer(config, { logger: silentLogger(), embedder: new LetterEmbedder() });
    const running = server;
    const caller = (key: string, id: string): Caller => {
      const call = async (method: string, path: string, body?: unknown) => {
        const headers: Record<string, string> = { authorization: `Bearer ${key}` };
        if (body !== undefined) headers["content-type"] = "application/json";
        const r = await fetch(`${running.url}${path}`, {
          method,
          headers,
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
        const text = await r.text();
        return { status: r.status, body: text ? JSON.parse(text) : null };
      };
      return {
        key,
        id,
        call,
        get: (path) => call("GET", path),
        post: (path, body) => call("POST", path, body),
        mcp: async () => {
          const transport = new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`), {
            requestInit: { headers: { authorization: `Bearer ${key}` } },
          });
          const c = await connect(transport);
          clients.push(c);
          return c;
        },
      };
    };
    const keys = running.services.keys;
    const keyOf = async (org: string, input: { role: "admin" | "member"; user_id?: string }) => {
      const k = await keys.create(org, input);
      return caller(k.key, k.id);
    };
    const { accessToken } = await issuer.login("acme-web", "alice");
    const a = {
      admin: await keyOf("default", { role: "admin" }),
      alice: await keyOf("default", { role: "member", user_id: "alice" }),
    };
    const b = {
      admin: await keyOf("acme", { role: "admin" }),
      alice: await keyOf("acme", { role: "member", user_id: "alice" }),
      sso: caller(accessToken, "oidc:alice"),
    };
    const ids = await fixtureOfA(a);
    return { server: running, a, b, ids, close };
  } catch (e) {
    await close();
    throw e;
  }
}

async function fixtureOfA(a: { admin: Caller; alice: Caller }): Promise<TwoOrgs["ids"]> {
  const ok = (r: Reply) => {
    if (r.status !== 200) throw new Error(`fixture call failed: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const memory = ok(await a.alice.post("/add_memories", { agent_id: "cursor", memory: "Alice keeps bees on the roof" }))
    .memory_ids[0];
  ok(await a.alice.post("/add_memories", { agent_id: "cursor", memory: "Alice's bees make heather honey" }));
  const conversation = ok(
    await a.alice.post("/conversations", { agent_id: "cursor", messages: [{ role: "user", content: "bees?" }] }),
  ).id;
  const session = ok(await a.alice.post("/sessions", { agent_id: "cursor" })).session.id;
  ok(
    await a.alice.post("/graph/entities", {
      entities: [
        { type: "person", id: "bob", name: "Bob" },
        { type: "thing", id: "bees", name: "Bees" },
      ],
    }),
  );
  ok(
    await a.alice.post("/graph/relationships", {
      relationships: [{ from: { type: "person", id: "bob" }, type: "KEEPS", to: { type: "thing", id: "bees" } }],
    }),
  );
  ok(
    await a.admin.post("/spaces", {
      space_id: "team",
      name: "Team",
      members: [{ user_id: "alice", role: "writer" }],
    }),
  );
  const spaceMemory = ok(
    await a.alice.post("/add_memories", { space_id: "team", memory: "The team's hive inspection is on Fridays" }),
  ).memory_ids[0];
  ok(await a.admin.post("/governance/policies", { ...getTemplate("GDPR"), organizationId: "default" }));
  ok(await a.admin.call("PUT", "/immutable/kb/hives", { data: { title: "Hive care" }, user_id: "alice" }));
  ok(await a.admin.call("PUT", "/mutable/prefs/theme", { value: "amber", user_id: "alice" }));
  // Expired already: A's enforcement deletes it, which A's governance stats then count.
  ok(await a.admin.call("PUT", "/mutable/tmp/old", { value: 1, expiresAt: 1 }));
  return { memory, spaceMemory, conversation, session };
}
