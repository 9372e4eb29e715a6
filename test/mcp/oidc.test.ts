// MCP with SSO (SPEC §8, §7): over Streamable HTTP an OIDC token decides the user, like a bound key;
// the official SDK client sends it as its bearer header.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { loadConfig } from "~/config/load-config";
import { startServer, type RunningServer } from "~/main";
import { silentLogger } from "~/shared/logger";
import { AUDIENCE, startIssuer, type TestIssuer } from "../support/oidc-issuer";
import { bodyOf, connect, errorOf } from "./support";

let issuer: TestIssuer;
let server: RunningServer;
beforeAll(async () => {
  issuer = await startIssuer([{ id: "svc-ana", secret: "s", claims: { org: "default", roles: ["member"] } }]);
  const config = loadConfig({
    options: {
      storeUrl: "sqlite::memory:",
      port: 0,
      auth: { enabled: true, apiKey: "shared" },
      oidc: { issuer: issuer.url, audience: [AUDIENCE] },
    },
    env: { HOME: process.env.HOME },
  });
  server = await startServer(config, { logger: silentLogger(), embedder: null });
});
afterAll(async () => {
  await server?.stop();
  await issuer?.close();
});

test("a member's token: tool calls act as its subject, and another user is refused", async () => {
  const token = await issuer.token("svc-ana");
  const c = await connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  try {
    expect(bodyOf(await c.callTool({ name: "add_memories", arguments: { memory: "Ana likes tea" } })).success).toBe(
      true,
    );
    const listed = await fetch(`${server.url}/list_memories?user_id=svc-ana`, {
      headers: { authorization: "Bearer shared" },
    });
    expect(((await listed.json()) as { total: number }).total).toBe(1);
    const other = await c.callTool({ name: "search_memory", arguments: { user_id: "bob", query: "tea" } });
    expect(errorOf(other)).toEqual({
      success: false,
      error: "this key acts only as user 'svc-ana'",
      code: "FORBIDDEN",
    });
  } finally {
    await c.close();
  }
});
