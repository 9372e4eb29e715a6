// The one code → HTTP status table and the one function that turns anything thrown into
// the error envelope {success:false, error, code, field?}. Unknown errors are logged with a
// request id and answered with a generic 500 — never a stack trace.
import { Type, type Static } from "@sinclair/typebox";
import { AppError, GovernanceValidationError, type AppErrorCode } from "~/shared/errors";
import { describeValueError } from "~/shared/validate";
import { newId } from "~/shared/ids";
import type { Logger } from "~/shared/logger";
import { pathOf } from "./request-url";

export const STATUS: Record<AppErrorCode, number> = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  NOT_IMPLEMENTED: 501,
  UNAVAILABLE: 503,
  STORAGE_FULL: 507,
};

/** The error envelope of SPEC §2.1 (the OpenAPI document's `Error` schema). */
export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String({ description: "Human-readable message" }),
    code: Type.String({ description: "Machine-readable code: an AppError code, or a governance code (SPEC §5.6)" }),
    field: Type.Optional(Type.String({ description: "Dotted path of the offending input field" })),
    name: Type.Optional(
      Type.Literal("GovernanceValidationError", { description: "Present on governance validation errors" }),
    ),
  },
  { description: "Every error answer (SPEC §2.1)." },
);
export type ErrorBody = Static<typeof ErrorEnvelope>;

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

export function errorResponse(e: AppError | GovernanceValidationError, headers: Record<string, string> = {}): Response {
  const body: ErrorBody = { success: false, error: e.message, code: e.code };
  if (e.field !== undefined) body.field = e.field;
  if (e instanceof GovernanceValidationError) {
    body.name = "GovernanceValidationError";
    return json(400, body, headers);
  }
  const extra: Record<string, string> = { ...headers };
  if (e.code === "UNAUTHORIZED") extra["www-authenticate"] = "Bearer";
  if (e.code === "RATE_LIMITED" && e.details?.retryAfter) extra["retry-after"] = String(e.details.retryAfter);
  return json(STATUS[e.code], body, extra);
}

/** Maps an Elysia error code + error to an AppError; null means "a bug". */
export function fromElysia(code: string | number, error: any): AppError | GovernanceValidationError | null {
  if (error instanceof AppError || error instanceof GovernanceValidationError) return error;
  switch (code) {
    case "VALIDATION": {
      const first = error?.all?.[0];
      if (first) return describeValueError(first);
      return new AppError("VALIDATION_ERROR", "invalid request");
    }
    case "PARSE":
      return new AppError("INVALID_JSON", "request body is not valid JSON");
    case "NOT_FOUND":
      return new AppError("NOT_FOUND", "no such route");
    case "INVALID_COOKIE_SIGNATURE":
      return new AppError("VALIDATION_ERROR", "invalid cookie", "cookie");
    default:
      return null;
  }
}

export function internalError(error: unknown, logger: Logger, request?: Request): Response {
  const requestId = newId();
  logger.error("unhandled error", {
    request_id: requestId,
    method: request?.method,
    path: request ? pathOf(request) : undefined,
    error: error instanceof Error ? `${error.message}\n${error.stack}` : String(error),
  });
  return json(
    500,
    { success: false, error: `internal error (request id ${requestId})`, code: "INTERNAL_ERROR" },
    { "x-request-id": requestId },
  );
}
