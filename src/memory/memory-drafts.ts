// What an add_memories request stores: one draft per memory (its text, metadata and governance traits),
// from `memory`, from each message, or from the facts extracted from the messages (MCP_EXTRACT_FACTS).
import { validationError } from "~/shared/errors";
import { readTraits, type MemoryTraits } from "./metadata";
import type { AddMemoriesInput } from "./memory.schema";
import type { FactsHook } from "./memory-hooks";

export interface Draft {
  text: string;
  metadata: Record<string, unknown>;
  traits: MemoryTraits;
  /** The user's own words (a memory, or a user message): only those state facts about the user. */
  own: boolean;
}

export async function draftsOf(input: AddMemoriesInput, facts: FactsHook | undefined): Promise<Draft[]> {
  const base = input.metadata ?? {};
  if (input.memory !== undefined) {
    if (!input.memory.trim()) throw validationError("memory", "memory must not be blank");
    return [{ text: input.memory, metadata: base, traits: readTraits(base, "tool"), own: true }];
  }
  if (facts && (input.auto_extract_facts ?? facts.auto)) {
    // The whole conversation is still kept in the conversations layer; only the facts become memories.
    readTraits(base, "conversation");
    const found = (await facts.extractor.extract(input.messages!)).filter((f) => f.confidence >= facts.minConfidence);
    return found.map((f) => {
      const metadata = { ...base, role: "user", fact_kind: f.kind, fact_confidence: f.confidence };
      return { text: f.text, metadata, traits: readTraits(metadata, "conversation"), own: true };
    });
  }
  const drafts = input
    .messages!.filter((m) => m.content.trim())
    .map((m) => {
      const metadata = { ...base, role: m.role };
      return { text: m.content, metadata, traits: readTraits(metadata, "conversation"), own: m.role === "user" };
    });
  if (!drafts.length) throw validationError("messages", "messages must contain at least one non-empty content");
  return drafts;
}
