// What a memory states as facts: (subject, attribute, value) claims with an operation, the
// attribute table (one value at a time, or a list), and how values are compared.
import { slug } from "~/graph/extract";

/**
 * set: the current value (a one-value attribute replaces, a list adds). end: the value no longer
 * holds ("no longer", "not … anymore"), kept as a negative fact. past: "used to" — ends the value,
 * states nothing current. switch: a list value that replaces the others of its kind ("switched to
 * macOS"). correct: "actually …" / "X, not Y" — replaces the value it corrects.
 */
export type ClaimOp = "set" | "end" | "past" | "switch" | "correct";

export interface Claim {
  /** "user", "rel:sister", "rel:sister:anna", "person:tom". */
  subject: string;
  /** e.g. "home", "employer", "pet", "schedule:standup", "email:work"; "*" = whatever `replaces` was. */
  attribute: string;
  /** As written ("Lisbon"); "*" = any value (with `qualifier`), for ends such as "I don't have a parrot anymore". */
  value: string;
  op: ClaimOp;
  /** Narrows a value: the employer of a job title, a pet's species, a tool's kind. */
  qualifier?: string;
  /** correct: the value key this claim corrects ("…, not Seattle"). */
  replaces?: string;
}

/** Attributes that hold several values at once; everything else holds one. */
const LIST_ATTRIBUTES = new Set(["pet", "allergy", "language", "tool", "relative", "friend"]);
/** Relatives there is one of: a new name for them replaces the old one. */
const SINGLE_RELATIVES = new Set(["mother", "father"]);

export function isList(attribute: string): boolean {
  const [head, sub] = attribute.split(":");
  if (head === "relative") return !SINGLE_RELATIVES.has(sub ?? "");
  return LIST_ATTRIBUTES.has(head!);
}

/** The form values are compared in: a slug; phone numbers by digits; plain plurals singular ("eggs" = "egg"). */
export function valueKey(attribute: string, value: string): string {
  if (value === "*") return "*";
  if (attribute.startsWith("phone")) return value.replace(/\D+/g, "");
  if (attribute.startsWith("email")) return value.trim().toLowerCase();
  if (/^(?:schedule|plan):|^birthday$/.test(attribute)) return timeKey(value);
  const key = slug(value);
  if (attribute === "allergy") return key.replace(/(?<=[^s])s\b/g, "");
  return key;
}

const DAY = /^(mon|tues|wednes|thurs|fri|satur|sun)days?$/;
const PART = /^(morning|afternoon|evening|night|noon|midnight|weekday|weekend)s?$/;
const MONTH = /^(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*$/;

/**
 * A time phrase by the days, times of day, months and numbers it names, so that "9:30" and "9:30 every
 * day" are one value and "Mondays at 9am" and "Tuesdays at 10am" are two.
 */
function timeKey(value: string): string {
  const tokens = value
    .toLowerCase()
    .split(/[^a-z0-9:]+/)
    .flatMap((w) => {
      const day = DAY.exec(w);
      if (day) return [`${day[1]}day`];
      const part = PART.exec(w);
      if (part) return [part[1]!];
      const month = MONTH.exec(w);
      if (month) return [month[1]!];
      return /\d/.test(w) ? [w.replace(/(?:st|nd|rd|th)$/, "")] : [];
    });
  return tokens.length ? tokens.join(" ") : slug(value);
}

/** "my sister Anna" → rel:sister:anna; the relation words people use for one relative become one. */
const RELATION_CANON: Record<string, string> = {
  mom: "mother",
  mum: "mother",
  mommy: "mother",
  dad: "father",
  daddy: "father",
  fiance: "fiance",
  fiancee: "fiance",
  "co-worker": "colleague",
  coworker: "colleague",
  neighbor: "neighbour",
  grandma: "grandmother",
  grandpa: "grandfather",
  boss: "manager",
};

export function canonRelation(word: string): string {
  const w = slug(word);
  return RELATION_CANON[w] ?? w;
}

export const relSubject = (relation: string, name?: string) =>
  name ? `rel:${canonRelation(relation)}:${slug(name)}` : `rel:${canonRelation(relation)}`;
export const personSubject = (name: string) => `person:${slug(name)}`;
export const SELF_SUBJECT = "user";
