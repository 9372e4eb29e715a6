// createApp(services): the Elysia app with every route group listed in one place, mounted at
// the root and again under /v1 (cloud-compatible paths).
import { router } from "./http/router";
import type { Services } from "./services";
import { installPipeline, instrument, type CallRecord } from "./http/pipeline";
import { RequestMetrics } from "./http/metrics";
import { makeHostCheck } from "./http/host-check";
import { memoryRoutes } from "./http/memory.routes";
import { systemRoutes } from "./http/system.routes";
import { layerRoutes } from "./http/layers.routes";
import { governanceRoutes } from "./http/governance.routes";
import { graphRoutes } from "./http/graph.routes";
import { sessionRoutes } from "./http/sessions.routes";
import { docsRoutes, isDocsPath } from "./http/docs.routes";
import { createMcpHandler } from "./mcp/mount";
import { createOpenMemoryMount } from "./mcp/openmemory";
import { adminRoutes, auditRoutes } from "./http/admin.routes";
import { spaceRoutes } from "./http/spaces.routes";
import { makeAuthenticator } from "./http/auth";
import { hidden, principalOf } from "./http/access";
import { ACCESS } from "./identity/access";

const OPEN_PATHS = new Set(["/health", "/v1/health", "/ready", "/v1/ready"]);

export function createApp(s: Services) {
  const metrics = new RequestMetrics();
  const routes = () => [
    systemRoutes(s, metrics),
    memoryRoutes(s),
    layerRoutes(s),
    governanceRoutes(s),
    graphRoutes(s),
    sessionRoutes(s),
    adminRoutes(s),
    auditRoutes(s),
    spaceRoutes(s),
  ];
  const app = router();
  installPipeline(app, {
    logger: s.logger,
    metrics,
    maxBodyBytes: s.config.maxBodyBytes,
    authenticate: makeAuthenticator({
      enabled: s.config.auth.enabled,
      apiKeys: s.config.auth.apiKeys,
      homeOrg: s.config.orgId,
      keys: s.keys,
      ...(s.tokens ? { tokens: s.tokens } : {}),
    }),
    limits: s.limits,
    homeOrg: s.config.orgId,
    cors: s.config.cors,
    hostCheck: makeHostCheck({
      bindHost: s.config.host,
      allowedHosts: s.config.allowedHosts,
      allowedOrigins: s.config.allowedOrigins,
      corsOrigins: s.config.cors.enabled ? s.config.cors.origins : [],
    }),
    // The API page and document hold no data: public, like /health (and absent with --docs=off).
    open: (path) => OPEN_PATHS.has(path) || (s.config.docs && isDocsPath(path)),
  });
  if (s.config.docs) app.use(docsRoutes(() => app.routes, s.version));
  const mcp = createMcpHandler(s);
  const openMemory = createOpenMemoryMount(s, mcp);
  // Root only (no /v1 twin); the pipeline has parsed a JSON body already, so it is handed over.
  // The MCP transports are not REST operations: they stay out of the OpenAPI document.
  const hide = hidden(ACCESS.authenticated);
  // Each tool call applies its own access rule to the request's principal (mcp/server.ts).
  app.all("/mcp", ({ request, body }) => mcp(request, body, undefined, principalOf(request)), hide);
  // OpenMemory's URLs (SPEC §7): an OpenMemory client config works with only the host changed.
  app.get(
    "/mcp/:client/sse/:user",
    ({ request, params }) => openMemory.sse(request, params.client, params.user, principalOf(request)),
    hide,
  );
  app.post("/mcp/messages/", ({ request, body }) => openMemory.message(request, body, principalOf(request)), hide);
  app.post(
    "/mcp/:client/sse/:user/messages/",
    ({ request, body }) => openMemory.message(request, body, principalOf(request)),
    hide,
  );
  app.all(
    "/mcp/:client/http/:user",
    ({ request, body, params }) => openMemory.http(request, body, params.client, params.user, principalOf(request)),
    hide,
  );
  for (const r of routes()) app.use(r);
  const v1 = router("/v1");
  for (const r of routes()) v1.use(r);
  app.use(v1);
  const audit = (call: CallRecord) => s.governance.audit.record(call);
  return {
    app,
    handle: instrument((req) => app.handle(req), { logger: s.logger, metrics, audit }),
    /** Ends what would hold a graceful stop open: the OpenMemory SSE streams. */
    close: () => openMemory.close(),
  };
}
