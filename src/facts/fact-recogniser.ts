// The rule-based fact recogniser: which (subject, attribute, value) facts a memory states, as
// claims the supersede decision reads (facts/supersede.ts). Offline, deterministic, a few
// regular expressions per sentence, and only those whose cue words the sentence contains.
import { cleanName, sentences } from "~/graph/extract-rules";
import { NOT_NAMES, RELATIVES } from "~/graph/extract-lexicon";
import { slug } from "~/graph/extract";
import { isList, personSubject, relSubject, SELF_SUBJECT, type Claim, type ClaimOp } from "./fact-claims";
import { cuedGroups, cueIndex, type Ctx, type Groups, type PatternGroup } from "./fact-grammar";
import { PEOPLE } from "./fact-patterns-people";
import { THINGS, techOf } from "./fact-patterns-things";

const GROUPS: PatternGroup[] = [...PEOPLE, ...THINGS];
const CUES = cueIndex(GROUPS);

/** A clause ends where a new first-person subject starts after a comma, "but" or "so". */
const CLAUSE_BREAK =
  /\s*[,;]\s+(?=(?:(?:and|but|so|then|now|because|since)\s+)*(?:I|we|my|our|I['’]m|we['’]re)\b)|\s*;\s*|\s+(?:but|so)\s+(?=(?:now\s+)?(?:I|we|my|our)\b)/iu;
/** Before a match, these make it a question, a wish or someone else's words, not a statement. */
const NOT_STATED =
  /\b(?:if|whether|would|could|might|maybe|perhaps|wonder(?:ing)?|thinking\s+(?:about|of)|considering|asked|asks|hope|hoping|wish|want\s+to|wants\s+to|plan\s+to|planning\s+to|will|should|about\s+to)\b|['’]d\b|['’]ll\b/i;
const DIARY =
  /^(?:(?:just|finally|recently|also)\s+)?(?:moved|relocated|started|joined|switched|left|quit|got\s+promoted|adopted)\b/i;
const NO_MORE = /\b(?:anymore|any\s+more)\b/i;
const CORRECTION = /\b(?:actually|sorry|correction|i\s+mean|i\s+meant|rather)\b/i;
/** "…, not Seattle" at a clause's end: the value this clause corrects. */
const NOT_VALUE = /,\s+not\s+([^,.;!?]+?)\s*[.!]?$/u;
const TIME_NAME = /^(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?|today|tomorrow|tonight)$/i;
const REL_RE = new RegExp(`^(?:my|our)\\s+(${RELATIVES})(?:\\s+(.+))?$`, "iu");
const REL_POSS_RE = new RegExp(`^(?:my|our)\\s+(${RELATIVES})(?:\\s+(.+?))?['’]s$`, "iu");

/** A fact already stored for the user, shown to a recogniser that can read context (the LLM). */
export interface KnownFact {
  subject: string;
  attribute: string;
  value: string;
}

/** What the memory service asks of a fact recogniser: the rules below, or an LLM (llm-fact-recogniser.ts). */
export interface FactRecogniser {
  /** "rules" or "llm:<model>|rules", for logs. */
  readonly name: string;
  /** Whether `recognise` reads `known` (the rules do not: they are spared the read). */
  readonly readsKnown: boolean;
  recognise(text: string, known: readonly KnownFact[]): Promise<Claim[]>;
}

export const ruleRecogniser: FactRecogniser = {
  name: "rules",
  readsKnown: false,
  recognise: async (text) => recogniseClaims(text),
};

/** The claims a text states, in order, without duplicates. */
export function recogniseClaims(text: string): Claim[] {
  const out: Claim[] = [];
  const seen = new Set<string>();
  for (const sentence of sentences(text)) {
    if (sentence.endsWith("?")) continue;
    const groups = cuedGroups(GROUPS, CUES, sentence);
    if (!groups.length) continue;
    const corrects = CORRECTION.test(sentence);
    for (const clause of sentence.split(CLAUSE_BREAK).map(withSubject)) {
      for (const c of clauseClaims(clause, groups, corrects)) {
        const k = JSON.stringify(c);
        if (!seen.has(k) && seen.add(k)) out.push(c);
      }
    }
  }
  return out;
}

/** A note without its subject ("Just moved to Leeds.", "Started at Acme today") is the user's. */
const withSubject = (clause: string) =>
  DIARY.test(clause) ? `I ${clause[0]!.toLowerCase()}${clause.slice(1)}` : clause;

function clauseClaims(clause: string, groups: PatternGroup[], corrects: boolean): Claim[] {
  const claims: Claim[] = [];
  const used: [number, number][] = [];
  let last: string | null = null;
  const x = context(clause, () => last);
  for (const { patterns } of groups)
    for (const p of patterns) {
      if (p.need && !p.need.some((w) => clause.includes(w))) continue;
      const re = p.re();
      re.lastIndex = 0;
      for (let m = re.exec(clause); m; m = re.exec(clause)) {
        const span: [number, number] = [m.index, m.index + m[0].length];
        if (!m[0] || used.some(([a, b]) => span[0] < b && span[1] > a)) continue;
        if (NOT_STATED.test(clause.slice(0, m.index))) continue;
        const found = p.build(m.groups ?? ({} as Groups), x);
        if (!found.length) continue;
        used.push(span);
        last = found[0]!.subject;
        claims.push(...found);
      }
    }
  return corrections(clause, claims, corrects);
}

/** "…, not Y" names the value a claim replaces; "actually" turns a list value into a replacement. */
function corrections(clause: string, claims: Claim[], corrects: boolean): Claim[] {
  const not = NOT_VALUE.exec(clause)?.[1];
  return claims.map((c) => {
    if (c.op !== "set") return c;
    if (not) return { ...c, op: "correct", replaces: not.trim() };
    return corrects && isList(c.attribute) ? { ...c, op: "correct" } : c;
  });
}

function context(clause: string, previous: () => string | null): Ctx {
  return {
    subject(raw) {
      if (raw === undefined) return null;
      const s = raw.trim();
      if (!s) return previous();
      // "Now I", "Yesterday we": a capitalised word before the pronoun is part of no name.
      // Memories an assistant writes name the user in the third person: "User lives in Berlin".
      if (/^(?:the\s+)?user$/i.test(s)) return SELF_SUBJECT;
      const words = s.split(/\s+/);
      if (/^(?:i|we)(?:['’](?:m|ve|d|re))?$/i.test(words.at(-1)!) && words.slice(0, -1).every((w) => NOT_NAMES.has(w)))
        return SELF_SUBJECT;
      const rel = REL_RE.exec(s);
      if (rel) return relSubject(rel[1]!, rel[2] ? (properName(rel[2]) ?? undefined) : undefined);
      const name = properName(s);
      return name ? personSubject(name) : null;
    },
    owner(raw) {
      if (raw === undefined) return null;
      const s = raw.trim();
      if (/^(?:my|our|(?:the\s+)?user['’]s)$/i.test(s)) return SELF_SUBJECT;
      const rel = REL_POSS_RE.exec(s);
      if (rel) return relSubject(rel[1]!, rel[2] ? (properName(rel[2]) ?? undefined) : undefined);
      const name = properName(s.replace(/['’]s$/, ""));
      return name ? personSubject(name) : null;
    },
    name: (raw) => (raw ? properName(raw) : null),
    org: (raw) => (raw ? properName(raw, true) : null),
    op(g): ClaimOp {
      if (g.past) return "past";
      return g.neg || NO_MORE.test(clause) ? "end" : "set";
    },
  };
}

/** A name that names someone or somewhere: not a pronoun, weekday, language, or (unless `tools`) technology. */
function properName(raw: string, tools = false): string | null {
  const name = cleanName(raw.trim());
  if (!name || NOT_NAMES.has(name.split(/\s+/)[0]!) || TIME_NAME.test(name) || (!tools && techOf(name))) return null;
  return slug(name) ? name : null;
}
