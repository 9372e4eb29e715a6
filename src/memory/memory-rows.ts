// Small pieces of the memory service's answers: a memory row as the API shows it, the list cursor,
// the metadata patch of update_memory, and the error of superseding a superseded memory.
import type { MemoryRow } from "~/store/store";
import { iso } from "~/shared/clock";
import { AppError, validationError } from "~/shared/errors";
import type { MemoryResponse } from "./memory.schema";

export function rowCursor([createdAt, rowid]: [number, string]): [number, number] {
  if (!/^\d{1,16}$/.test(rowid))
    throw validationError("cursor", "cursor is not a next_cursor returned by this listing");
  return [createdAt, Number(rowid)];
}

/** The fields every shown memory has, a list item's and get's alike. */
export const shownFields = (
  r: Pick<MemoryRow, "id" | "memory" | "metadata" | "agent_id" | "session_id" | "created_at">,
) => ({
  id: r.id,
  memory: r.memory,
  metadata: JSON.parse(r.metadata) as Record<string, unknown>,
  agent_id: r.agent_id,
  session_id: r.session_id || null,
  created_at: iso(r.created_at),
});

/** get's answer: the shown fields named one by one (spreading them into a second object was 2% of a get). */
export function toResponse(r: MemoryRow): MemoryResponse {
  const s = shownFields(r);
  return {
    success: true,
    id: s.id,
    memory: s.memory,
    metadata: s.metadata,
    agent_id: s.agent_id,
    session_id: s.session_id,
    created_at: s.created_at,
    updated_at: iso(r.updated_at),
    version: r.version,
  };
}

/** Shallow merge; a key set to null is removed. */
export function mergeMetadata(
  current: Record<string, unknown>,
  patch?: Record<string, unknown>,
): Record<string, unknown> {
  if (!patch) return current;
  const out = { ...current, ...patch };
  for (const [k, v] of Object.entries(patch)) if (v === null) delete out[k];
  return out;
}

export const alreadySuperseded = (m: MemoryRow) =>
  new AppError(
    "CONFLICT",
    `memory '${m.id}' is already superseded by '${m.superseded_by}'; supersede that one instead`,
  );
