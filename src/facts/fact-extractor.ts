// Fact extraction (MCP_EXTRACT_FACTS): turns the user's turns of a conversation into short
// facts worth remembering, each with a confidence; the memory service stores those at or above
// MCP_FACT_MIN_CONFIDENCE instead of every message. Rule-based, offline, deterministic.
import { sentences } from "~/graph/extract-rules";

export interface Fact {
  text: string;
  confidence: number;
  kind: FactKind;
}

export type FactKind =
  | "identity"
  | "health"
  | "preference"
  | "relationship"
  | "location"
  | "possession"
  | "plan"
  | "explicit"
  | "statement";

export interface FactExtractor {
  extract(messages: { role: string; content: string }[]): Promise<Fact[]>;
}

/** First match wins: the more specific and durable a statement, the higher its confidence. */
const RULES: [RegExp, FactKind, number][] = [
  [/\b(?:remember|don'?t forget|note|keep in mind) that\b/i, "explicit", 0.95],
  [/\b(?:my name is|call me|i go by)\b/i, "identity", 0.95],
  [/\b(?:i'?m|i am) (?:allergic|intolerant|vegetarian|vegan|diabetic|pregnant|lactose)/i, "health", 0.95],
  [
    /\b(?:i|we) (?:really |absolutely |don'?t |do not )?(?:love|like|prefer|enjoy|hate|dislike|can'?t stand|adore)\b/i,
    "preference",
    0.9,
  ],
  [
    /\bmy (?:\w+ ){0,2}(?:wife|husband|partner|son|daughter|sister|brother|mother|mom|father|dad|friend|boss|dog|cat|kids?|children)\b/i,
    "relationship",
    0.85,
  ],
  [/\b(?:i|we) (?:live|work|study|moved|grew up|was born|am from|'m from)\b/i, "location", 0.9],
  [/\b(?:i'?m|i am) (?:a|an) \w+/i, "identity", 0.85],
  [/\bmy \w+(?: \w+)? (?:is|are|was|were)\b/i, "statement", 0.8],
  [/\b(?:i|we) (?:have|own|use|drive|bought|got)\b/i, "possession", 0.8],
  [/\b(?:i|we) (?:will|'ll|am going to|'m going to|plan to|want to|need to|intend to)\b/i, "plan", 0.75],
  [/\b(?:i|my|me|we|our)\b/i, "statement", 0.6],
];

/** Greetings and acknowledgements, alone or strung together ("ok sure", "hi there!"). */
const TRIVIAL =
  /^(?:(?:hi|hello|hey|there|thanks|thank you|ok|okay|sure|yes|no|bye|great|cool|good (?:morning|night))\b[\s,!.]*)+$/i;

export function classify(sentence: string): Fact | null {
  const text = sentence.trim();
  if (text.endsWith("?") || TRIVIAL.test(text) || text.split(/\s+/).length < 2) return null;
  for (const [re, kind, confidence] of RULES) if (re.test(text)) return { text, confidence, kind };
  // Not about the speaker: a weak fact (a fallback a low threshold may still keep).
  return { text, confidence: 0.4, kind: "statement" };
}

/** Facts about the user come from the user's own turns; the assistant's turns are context, not testimony. */
export class RuleFactExtractor implements FactExtractor {
  async extract(messages: { role: string; content: string }[]): Promise<Fact[]> {
    const seen = new Set<string>();
    return messages
      .filter((m) => m.role === "user")
      .flatMap((m) => sentences(m.content).map(classify))
      .filter((f): f is Fact => f !== null && !seen.has(f.text.toLowerCase()) && !!seen.add(f.text.toLowerCase()));
  }
}
