// The one place where anything a tool throws becomes an `isError` tool result carrying the same
// envelope as HTTP ({success:false, error, code, field?}), so a model can read and correct it.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AppError, GovernanceValidationError } from "~/shared/errors";
import { newId } from "~/shared/ids";
import type { Logger } from "~/shared/logger";

export interface ToolErrorBody {
  success: false;
  error: string;
  code: string;
  field?: string;
}

export function toolError(e: unknown, logger: Logger, tool: string): CallToolResult {
  let body: ToolErrorBody;
  if (e instanceof AppError || e instanceof GovernanceValidationError) {
    body = { success: false, error: e.message, code: e.code };
    if (e.field !== undefined) body.field = e.field;
  } else {
    const requestId = newId();
    logger.error("unhandled error in MCP tool", {
      request_id: requestId,
      tool,
      error: e instanceof Error ? `${e.message}\n${e.stack}` : String(e),
    });
    body = { success: false, error: `internal error (request id ${requestId})`, code: "INTERNAL_ERROR" };
  }
  // No structuredContent: the SDK client validates any structuredContent against the tool's
  // outputSchema (the success shape), even on an error result, and would throw.
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }] };
}
