// The supersede decision, pure: which stored facts a new memory's claims end, which facts it
// stores, and which older memories are then superseded (every fact they stated has ended).
import { isList, valueKey, type Claim } from "./fact-claims";

/** A fact as stored with the memory that stated it. */
export interface StoredFact {
  id: number;
  memoryId: string;
  subject: string;
  attribute: string;
  /** valueKey of the value; "*" for an end of any value. */
  key: string;
  qualifier: string | null;
  /** "I no longer live in Dublin": the value stated not to hold. */
  negative: boolean;
  /** Ended by a later memory. */
  ended: boolean;
}

export type NewFact = Omit<StoredFact, "id" | "memoryId" | "ended"> & { value: string };

export interface FactDecision {
  /** Ids of live facts the new memory ends. */
  ends: number[];
  /** The facts the new memory states (stored with it). */
  facts: NewFact[];
}

/** Ends of a job title held at an employer follow the end of that employer. */
const BOUND: Record<string, string> = { employer: "job_title" };

/** `live`: the scope's facts not ended, at least those about the claims' subjects. */
export function decide(claims: readonly Claim[], live: readonly StoredFact[]): FactDecision {
  const ends = new Set<number>();
  const facts: NewFact[] = [];
  const end = (pred: (f: StoredFact) => boolean) => {
    for (const f of live) if (!ends.has(f.id) && pred(f)) ends.add(f.id);
  };
  for (const c of claims) {
    const key = valueKey(c.attribute, c.value);
    const q = c.qualifier ?? null;
    const mine = (f: StoredFact) => f.subject === c.subject && f.attribute === c.attribute;
    const positive = (f: StoredFact) => mine(f) && !f.negative;
    if (c.op === "end" || c.op === "past") {
      end((f) => positive(f) && (key === "*" || f.key === key) && (q === null || f.qualifier === q));
      if (c.op === "end") facts.push({ ...fact(c, key), negative: true });
      continue;
    }
    // A value stated again ends the statements that it did not hold.
    end(
      (f) => mine(f) && f.negative && (f.key === key || (f.key === "*" && (f.qualifier === null || f.qualifier === q))),
    );
    if (!isList(c.attribute)) end((f) => positive(f) && f.key !== key);
    if (c.op === "switch") {
      const old = c.replaces ? valueKey(c.attribute, c.replaces) : null;
      end((f) => f.subject === c.subject && !f.negative && old !== null && f.key === old && toolish(f.attribute));
      if (q !== null) end((f) => positive(f) && f.qualifier === q && f.key !== key);
    }
    if (c.op === "correct") {
      const old = c.replaces ? valueKey(c.attribute, c.replaces) : null;
      if (old !== null) end((f) => positive(f) && f.key === old);
      else {
        const others = live.filter((f) => positive(f) && f.key !== key && (q === null || f.qualifier === q));
        if (others.length === 1) ends.add(others[0]!.id);
      }
    }
    facts.push({ ...fact(c, key), negative: false });
  }
  for (const f of live)
    if (ends.has(f.id) && BOUND[f.attribute])
      end((g) => g.subject === f.subject && g.attribute === BOUND[f.attribute] && g.qualifier === f.key);
  return { ends: [...ends], facts };
}

/**
 * The memories whose facts `ends` completes: a memory is superseded once every positive fact it
 * stated has ended (or, when it stated only negative ones, all of those). `facts`: every fact, ended
 * or not, of the memories that own one of `ends`.
 */
export function supersededMemories(ends: readonly number[], facts: readonly StoredFact[]): string[] {
  const now = new Set(ends);
  const byMemory = new Map<string, StoredFact[]>();
  for (const f of facts) byMemory.set(f.memoryId, [...(byMemory.get(f.memoryId) ?? []), f]);
  const out: string[] = [];
  for (const [memoryId, list] of byMemory) {
    if (!list.some((f) => now.has(f.id))) continue;
    const positives = list.filter((f) => !f.negative);
    const counted = positives.length ? positives : list;
    if (counted.every((f) => f.ended || now.has(f.id))) out.push(memoryId);
  }
  return out;
}

const toolish = (attribute: string) => attribute === "tool" || attribute.startsWith("favourite:");

const fact = (c: Claim, key: string) => ({
  subject: c.subject,
  attribute: c.attribute,
  value: c.value,
  key,
  qualifier: c.qualifier ?? null,
});
