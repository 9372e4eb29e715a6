// Reads the governance-relevant keys out of free-form memory metadata (SPEC §2.2) and
// rejects values that would be silently wrong: importance, source, temporary/expiresAt.
import { validationError } from "~/shared/errors";
import { MAX_METADATA_BYTES, SOURCE_TYPES, type SourceType } from "./memory.schema";

export interface MemoryTraits {
  importance: number;
  sourceType: SourceType;
  expiresAt: number | null;
  conversationRef: string | null;
  immutableRef: string | null;
}

export function readTraits(metadata: Record<string, unknown>, defaultSource: SourceType): MemoryTraits {
  if (JSON.stringify(metadata).length > MAX_METADATA_BYTES)
    throw validationError("metadata", `metadata must be at most ${MAX_METADATA_BYTES} bytes of JSON`);
  const importance = metadata.importance ?? 50;
  if (typeof importance !== "number" || !Number.isInteger(importance) || importance < 0 || importance > 100)
    throw validationError("metadata.importance", "metadata.importance must be an integer from 0 to 100");
  const source = metadata.source ?? defaultSource;
  if (typeof source !== "string" || !(SOURCE_TYPES as readonly string[]).includes(source))
    throw validationError("metadata.source", `metadata.source must be one of ${SOURCE_TYPES.join(", ")}`);
  return {
    importance,
    sourceType: source as SourceType,
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
