// The access check fails closed: a route registered without a rule answers 403 to everyone, even
// the operator, so it cannot go unnoticed (the access matrix names it too).
import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { installPipeline } from "~/http/pipeline";
import { RequestMetrics } from "~/http/metrics";
import { router } from "~/http/router";
import { spec } from "~/http/route-spec";
import { ACCESS } from "~/identity/access";
import { silentLogger } from "~/shared/logger";
import { operator } from "~/shared/principal";

function appWith() {
  const app = router();
  installPipeline(app, {
    logger: silentLogger(),
    metrics: new RequestMetrics(),
    maxBodyBytes: 1024,
    authenticate: () => operator("o"),
    homeOrg: "o",
    cors: { enabled: false, origins: [] },
    hostCheck: () => null,
    open: () => false,
  });
  app.get("/ruleless", () => ({ ok: true }));
  app.get(
    "/ruled",
    () => ({ ok: true }),
    spec({ tag: "t", summary: "Ruled", response: Type.Object({}), access: ACCESS.admin }),
  );
  return app;
}

describe("routes and their access rules", () => {
  test("a route without a rule answers 403 even to the operator; one with a rule answers", async () => {
    const app = appWith();
    const denied = await app.handle(new Request("http://localhost/ruleless"));
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ success: false, error: "this route has no access rule", code: "FORBIDDEN" });
    expect((await app.handle(new Request("http://localhost/ruled"))).status).toBe(200);
  });
});
