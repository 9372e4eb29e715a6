// The error model: one AppError with a closed set of codes (SPEC §2.1), tiny constructors,
// and GovernanceValidationError (SPEC §5.6). No HTTP here: statuses live in http/errors.ts.

export const APP_ERROR_CODES = [
  "VALIDATION_ERROR",
  "INVALID_JSON",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "CONFLICT",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "RATE_LIMITED",
  "INTERNAL_ERROR",
  "NOT_IMPLEMENTED",
  "UNAVAILABLE",
  "STORAGE_FULL",
] as const;
export type AppErrorCode = (typeof APP_ERROR_CODES)[number];

export class AppError extends Error {
  override readonly name = "AppError";
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly field?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const validationError = (field: string, message: string) => new AppError("VALIDATION_ERROR", message, field);
export const notFound = (what: string, id: string) => new AppError("NOT_FOUND", `${what} '${id}' not found`);
export const conflict = (message: string) => new AppError("CONFLICT", message);
export const unavailable = (message: string) => new AppError("UNAVAILABLE", message);

export const GOVERNANCE_ERROR_CODES = [
  "MISSING_POLICY",
  "MISSING_REQUIRED_FIELD",
  "MISSING_SCOPE",
  "INVALID_SCOPE",
  "INVALID_PERIOD_FORMAT",
  "INVALID_IMPORTANCE_RANGE",
  "OVERLAPPING_IMPORTANCE_RANGES",
  "INVALID_VERSIONS",
  "INVALID_LAYERS",
  "INVALID_RULES",
  "INVALID_DATE_RANGE",
  "INVALID_PERIOD",
  "INVALID_COMPLIANCE_MODE",
  "MISSING_OPTIONS",
] as const;
export type GovernanceErrorCode = (typeof GOVERNANCE_ERROR_CODES)[number];

/** Thrown by every governance operation on bad input; same code and field in-process and over HTTP. */
export class GovernanceValidationError extends Error {
  override readonly name = "GovernanceValidationError";
  constructor(
    readonly code: GovernanceErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export const isGovernanceErrorCode = (code: unknown): code is GovernanceErrorCode =>
  typeof code === "string" && (GOVERNANCE_ERROR_CODES as readonly string[]).includes(code);
