// Reads the governance-relevant keys out of free-form memory metadata (SPEC §2.2) and
// rejects values that would be silently wrong: importance, source, temporary/expiresAt.
import { validationError } from "~/shared/errors";
import { MAX_METADATA_BYTES } from "./memory.schema";

export interface MemoryTraits {
  importance: number;
  /** metadata.source as the client gave it ("claude-desktop", "tool", …); governance reads only its own four types. */
  sourceType: string;
  expiresAt: number | null;
  conversationRef: string | null;
  immutableRef: string | null;
}

export function readTraits(metadata: Record<string, unknown>, defaultSource: string): MemoryTraits {
  if (JSON.stringify(metadata).length > MAX_METADATA_BYTES)
    throw validationError("metadata", `metadata must be at most ${MAX_METADATA_BYTES} bytes of JSON`);
  const importance = metadata.importance ?? 50;
  if (typeof importance !== "number" || !Number.isInteger(importance) || importance < 0 || importance > 100)
    throw validationError("metadata.importance", "metadata.importance must be an integer from 0 to 100");
  const source = metadata.source === undefined ? defaultSource : metadata.source;
  if (typeof source !== "string") throw validationError("metadata.source", "metadata.source must be a string");
  return {
    importance,
    sourceType: source,
    expiresAt: readExpiry(metadata),
    conversationRef: readRef(metadata, "conversationRef"),
    immutableRef: readRef(metadata, "immutableRef"),
  };
}

function readExpiry(metadata: Record<string, unknown>): number | null {
  const { temporary, expiresAt } = metadata;
  if (temporary !== undefined && typeof temporary !== "boolean")
    throw validationError("metadata.temporary", "metadata.temporary must be a boolean");
  if (expiresAt !== undefined && (typeof expiresAt !== "number" || !Number.isFinite(expiresAt) || expiresAt < 0))
    throw validationError("metadata.expiresAt", "metadata.expiresAt must be a time in epoch milliseconds");
  if (temporary !== true) return null;
  if (expiresAt === undefined)
    throw validationError("metadata.expiresAt", "metadata.expiresAt is required when metadata.temporary is true");
  return expiresAt as number;
}

function readRef(metadata: Record<string, unknown>, key: string): string | null {
  const v = metadata[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== "string" || !v)
    throw validationError(`metadata.${key}`, `metadata.${key} must be a non-empty string`);
  return v;
}
