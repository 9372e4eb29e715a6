// The add request's one rule no schema can say (exactly one of memory, text or messages), and
// OpenMemory's add_memories argument names (SPEC §7 drop-in) mapped onto Engram's.
import { validationError } from "~/shared/errors";
import type { AddMemoriesInput } from "./memory.schema";

/**
 * Exactly one of memory, text or messages; then OpenMemory's add_memories {text, infer} in Engram's
 * terms (SPEC §7): text is memory, infer is auto_extract_facts (which only messages use).
 */
export function fromOpenMemory(input: AddMemoriesInput): AddMemoriesInput {
  const given = (["memory", "text", "messages"] as const).filter((k) => input[k] !== undefined);
  if (given.length !== 1)
    throw validationError(
      given[1] ?? "memory",
      "provide exactly one of memory (or text, its OpenMemory name) or messages",
    );
  const { text, infer, ...rest } = input;
  if (text !== undefined && !text.trim()) throw validationError("text", "text must not be blank");
  return {
    ...rest,
    ...(text !== undefined ? { memory: text } : {}),
    ...(infer !== undefined && rest.auto_extract_facts === undefined ? { auto_extract_facts: infer } : {}),
  };
}
