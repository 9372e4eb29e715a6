// Everything every request passes through, in order: Host/Origin, CORS, body size and media type, auth,
// JSON parsing, error envelopes (incl. 405 for a known path with the wrong method), metrics
// and the debug request log.
import type { Elysia } from "elysia";
import { AppError } from "~/shared/errors";
import type { Logger } from "~/shared/logger";
import { mayHoldLoneSurrogate, wellFormed } from "~/shared/well-formed";
import { errorResponse, fromElysia, internalError } from "./errors";
import type { Authentication } from "./auth";
import { installAccess, principalOf, setPrincipal, targetUserOf } from "./access";
import type { Principal } from "~/shared/principal";
import { corsHeaders, makeOriginCheck } from "./cors";
import { jsonShapeProblem } from "./json-limits";
import { readBodyText } from "./read-body";
import { pathOf, queryParam } from "./request-url";
import { clientAddressOf, copyClientAddress } from "./client-address";
import type { RequestLimits } from "~/identity/request-limits";
import type { RequestMetrics } from "./metrics";

export interface PipelineOptions {
  logger: Logger;
  metrics: RequestMetrics;
  maxBodyBytes: number;
  /** The principal of a request's Authorization header, or the 401 to answer (http/auth.ts). */
  authenticate: (authorization: string | null) => Authentication;
  /** The store's own organization (ENGRAM_ORG_ID). */
  homeOrg: string;
  cors: { enabled: boolean; origins: string[] };
  /** DNS-rebinding protection (host-check.ts): the error for a request whose Host or Origin is not ours. */
  hostCheck: (request: Request) => AppError | null;
  /** Paths that never need auth (their routes' rule is `public`). */
  open: (path: string) => boolean;
  /** Rate limits and the throttling of failed authentications (SPEC §8), around `authenticate`. */
  limits?: RequestLimits;
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const isJson = (ct: string | null) => !!ct && /^application\/([\w.+-]*\+)?json\b/i.test(ct.trim());
const routeOf = new WeakMap<Request, string>();
/** user_id / agent_id of a parsed JSON body, for the request log and the audit log. */
const userOf = new WeakMap<Request, string>();
const agentOf = new WeakMap<Request, string>();
/** Why onParse refused a body (Elysia reports anything thrown there as a PARSE error). */
const refused = new WeakMap<Request, AppError>();
/** Status of responses the pipeline builds itself (Elysia's after-response context does not carry it). */
const statusOf = new WeakMap<Request, number>();
const answer = (req: Request, res: Response) => (statusOf.set(req, res.status), res);
/** A 413 leaves the rest of the body unread: closing the connection keeps the runtime from reading it as a next request. */
const CLOSE = { connection: "close" };

export function installPipeline(app: Elysia<any, any, any, any, any, any, any>, o: PipelineOptions) {
  const tooLarge = () => new AppError("PAYLOAD_TOO_LARGE", `request body exceeds ${o.maxBodyBytes} bytes`);
  const originOk = makeOriginCheck(o.cors.origins);
  const corsFor = (req: Request): Record<string, string> => {
    const origin = req.headers.get("origin");
    return o.cors.enabled && origin && originOk(origin) ? corsHeaders(origin) : {};
  };
  let matchers: { method: string; re: RegExp }[] | null = null;
  const allowed = (path: string) => {
    matchers ??= app.routes.map((r: { method: string; path: string }) => ({
      method: r.method,
      re: new RegExp(
        "^" +
          r.path
            .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
            .replace(/:[^/]+/g, "[^/]+")
            .replace(/\*/g, ".*") +
          "$",
      ),
    }));
    return [...new Set(matchers.filter((m) => m.re.test(path)).map((m) => m.method))];
  };

  function toErrorResponse(code: string | number, error: unknown, request: Request): Response {
    const cors = corsFor(request);
    const refusal = refused.get(request);
    if (refusal) return errorResponse(refusal, refusal.code === "PAYLOAD_TOO_LARGE" ? { ...cors, ...CLOSE } : cors);
    const path = pathOf(request);
    if (code === "NOT_FOUND") {
      const methods = allowed(path);
      if (methods.length && !methods.includes(request.method))
        return errorResponse(
          new AppError("METHOD_NOT_ALLOWED", `${request.method} is not allowed on ${path}; use ${methods.join(", ")}`),
          { ...cors, allow: methods.join(", ") },
        );
    }
    if (
      code === "VALIDATION" &&
      (error as any)?.type === "body" &&
      request.headers.get("content-type") === null &&
      BODY_METHODS.has(request.method)
    )
      return errorResponse(
        new AppError("UNSUPPORTED_MEDIA_TYPE", "request body must be JSON with Content-Type: application/json"),
        cors,
      );
    const mapped = fromElysia(code, error);
    if (mapped) return errorResponse(mapped, cors);
    return internalError(error, o.logger, request);
  }

  /** Keeps the principal for the access rules (http/access.ts), or answers the 401. */
  const admit = (request: Request, who: Awaited<Authentication>, cors: Record<string, string>) => {
    if (who instanceof AppError) return answer(request, errorResponse(who, cors));
    setPrincipal(request, who);
  };

  installAccess(app, { homeOrg: o.homeOrg });
  return app
    .onRequest(({ request, set }) => {
      const foreign = o.hostCheck(request);
      if (foreign) return answer(request, errorResponse(foreign));
      const cors = corsFor(request);
      Object.assign(set.headers, cors);
      if (request.method === "OPTIONS" && o.cors.enabled)
        return answer(request, new Response(null, { status: 204, headers: cors }));
      const path = pathOf(request);
      const len = Number(request.headers.get("content-length") ?? 0);
      if (len > o.maxBodyBytes) return answer(request, errorResponse(tooLarge(), { ...cors, ...CLOSE }));
      const hasBody =
        len > 0 ||
        request.headers.has("transfer-encoding") ||
        (request.body !== null && !request.headers.has("content-length"));
      if (
        BODY_METHODS.has(request.method) &&
        hasBody &&
        !isJson(request.headers.get("content-type")) &&
        !path.startsWith("/mcp")
      )
        return answer(
          request,
          errorResponse(
            new AppError("UNSUPPORTED_MEDIA_TYPE", "request body must be JSON with Content-Type: application/json"),
            cors,
          ),
        );
      if (o.open(path)) return;
      const authorization = request.headers.get("authorization");
      const who = o.limits?.enabled
        ? o.limits.admit(clientAddressOf(request), () => o.authenticate(authorization))
        : o.authenticate(authorization);
      if (who instanceof Promise) return who.then((p) => admit(request, p, cors));
      return admit(request, who, cors);
    })
    .onParse(async ({ request }) => {
      if (!isJson(request.headers.get("content-type"))) return;
      const read = await readBodyText(request, o.maxBodyBytes);
      const refusal = read === null ? tooLarge() : shapeRefusal(read);
      if (refusal) {
        refused.set(request, refusal);
        throw refusal;
      }
      const text = read!;
      const parsed = text.trim() === "" ? undefined : JSON.parse(text);
      const body = mayHoldLoneSurrogate(text) ? wellFormed(parsed) : parsed;
      if (typeof body?.user_id === "string") userOf.set(request, body.user_id);
      if (typeof body?.agent_id === "string") agentOf.set(request, body.agent_id);
      return body;
    })
    .onError(({ code, error, request }) => answer(request, toErrorResponse(code, error, request)))
    .onTransform(({ request, route }) => {
      routeOf.set(request, route);
    });
}

/** Too deep or too wide a body is refused before JSON.parse and any schema sees it (SPEC §2.1). */
function shapeRefusal(text: string): AppError | null {
  const problem = jsonShapeProblem(text);
  return problem ? new AppError("VALIDATION_ERROR", `request body: ${problem}`, "body") : null;
}

export interface CallRecord {
  method: string;
  path: string;
  status: number;
  userId?: string;
  memorySpaceId?: string;
  principal?: Principal;
  route?: string;
  durationMs?: number;
}

/**
 * Elysia finds the path by searching for "/" from index 11 of the URL, past "https://" and a host of
 * three letters or more: behind a proxy that sends `Host: db` or `Host: mem` every route answered 404.
 * Such a request is re-addressed to an equivalent URL with a longer host (only the host changes; the
 * Host header, method, headers and body stay as they came).
 */
export function routable(request: Request): Request {
  const url = request.url;
  const pathStart = url.indexOf("/", url.indexOf("://") + 3);
  if (pathStart < 0 || pathStart >= 11) return request;
  return new Request(`http://localhost${url.slice(pathStart)}`, request);
}

/** Wraps app.handle with timing, metrics, the debug request log and the audit hook (deterministic, unlike onAfterResponse). */
export function instrument(
  handle: (req: Request) => Promise<Response>,
  o: Pick<PipelineOptions, "logger" | "metrics"> & { audit?: (call: CallRecord) => void },
) {
  return async (incoming: Request): Promise<Response> => {
    const request = routable(incoming);
    if (request !== incoming) copyClientAddress(incoming, request);
    const t0 = performance.now();
    const res = await handle(request);
    const ms = performance.now() - t0;
    o.metrics.record(request.method, routeOf.get(request) ?? "(unmatched)", res.status, ms);
    const path = pathOf(request);
    const principal = principalOf(request);
    // The user the route's rule resolved; on a route without one (MCP), the user a bound key acts as.
    const userId = targetUserOf(request) ?? principal?.userId ?? queryParam(request, "user_id") ?? userOf.get(request);
    if (o.logger.enabled("debug"))
      o.logger.debug("request", {
        method: request.method,
        path,
        user: userId,
        status: res.status,
        ms: Number(ms.toFixed(2)),
      });
    if (o.audit && !path.endsWith("/health"))
      o.audit({
        method: request.method,
        path,
        status: res.status,
        userId: userId ?? undefined,
        memorySpaceId: queryParam(request, "agent_id") ?? agentOf.get(request),
        principal,
        route: routeOf.get(request),
        durationMs: ms,
      });
    return res;
  };
}
