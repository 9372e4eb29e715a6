// The rule-based extractor (the default): per sentence, dates and known technologies first,
// then relation patterns ("X works at Y", "my dog is X", "X lives in Y", "I use X"), then any
// other capitalised name that a cue word classifies. Precision over recall: no cue, no entity.
import { lazy } from "~/shared/lazy";
import { aliasLiterals } from "./tech-literals";
import { findDates } from "./extract-dates";
import { ExtractionBuilder, type EntityExtractor, type Extraction } from "./extract";
import type { EntityRef } from "./graph-store";
import {
  NOT_NAMES,
  ORG_BEFORE,
  ORG_SUFFIXES,
  PERSON_AFTER,
  PERSON_BEFORE,
  PET_SPECIES,
  PLACE_BEFORE,
  PLACES,
  RELATIVES,
  TECHNOLOGIES,
  TITLE_BEFORE,
  type Tech,
} from "./extract-lexicon";

type Span = [number, number];

const WORD = "\\p{Lu}[\\p{L}\\p{M}\\p{N}'’&-]*";
const CONNECTOR = "(?:of|de|da|del|di|van|von|der|den|la|le|du|the|&)";
/** A capitalised name of up to five words, with connectors ("Banco de España"); shared with facts/. */
export const NAME = `${WORD}(?:\\s+(?:${CONNECTOR}\\s+){0,2}${WORD}){0,4}`;
const ADVERB = "(?:\\s+(?:now|currently|still|also|recently|just|really|mostly|mainly|usually|actually))?";
const SELF_WORDS = new Set([
  "i",
  "i'm",
  "i’m",
  "i've",
  "i’ve",
  "i'd",
  "i’d",
  "we",
  "we're",
  "we’re",
  "we've",
  "we’ve",
  "my",
  "our",
]);

/**
 * The expression of `source` (global, indices, unicode), compiled at its first call, not at import: the
 * extractor's expressions took ~5 ms of every start, and a sentence only runs the technologies it names.
 */
const rx = (source: string, flags = "gdu") => lazy(() => new RegExp(source, flags));

interface Relation {
  re: () => RegExp;
  type: string;
  /** Entity type of the object (group `obj`); the subject is the user or a person. */
  objType: string;
}

const RELATIONS: Relation[] = [
  {
    type: "WORKS_AT",
    objType: "organization",
    re: rx(
      `(?<subj>${NAME})${ADVERB}\\s+(?:work|works|worked|working|am working|is working|was working|have worked|has worked|been working|started working|started|employed)\\s+(?:at|for|by)\\s+(?:the\\s+)?(?<obj>${NAME})`,
    ),
  },
  {
    type: "WORKS_AT",
    objType: "organization",
    re: rx(
      `(?<subj>${NAME})(?:\\s+(?:am|is|was))?\\s+(?:a|an)\\s+(?<role>[\\p{Ll}-]+(?:\\s+[\\p{Ll}-]+){0,3}?)\\s+(?:at|for)\\s+(?:the\\s+)?(?<obj>${NAME})`,
    ),
  },
  {
    type: "WORKS_AT",
    objType: "organization",
    re: rx(`(?<subj>${NAME})${ADVERB}\\s+(?:joined|have joined|has joined)\\s+(?:the\\s+)?(?<obj>${NAME})`),
  },
  {
    type: "WORKS_AT",
    objType: "organization",
    re: rx(`(?<subj>My|Our|\\b[Mm]y|\\b[Oo]ur)\\s+(?:employer|company)\\s+is\\s+(?<obj>${NAME})`),
  },
  {
    type: "LIVES_IN",
    objType: "place",
    re: rx(
      `(?<subj>${NAME})${ADVERB}\\s+(?:live|lives|lived|living|am living|is living|have lived|has lived|moved|relocated|have moved|has moved|am moving|is moving|moving|settled)\\s+(?:in|to)\\s+(?<obj>${NAME})`,
    ),
  },
  {
    type: "LIVES_IN",
    objType: "place",
    re: rx(`(?<subj>${NAME})(?:\\s+(?:am|is|are))?\\s+based\\s+in\\s+(?<obj>${NAME})`),
  },
  {
    type: "COMES_FROM",
    objType: "place",
    re: rx(`(?<subj>${NAME})(?:\\s+(?:am|is|are|was|come|comes|came))?\\s+(?:originally\\s+)?from\\s+(?<obj>${NAME})`),
  },
];

const PETS: (() => RegExp)[] = [
  rx(
    `(?<owner>\\b[Mm]y|${NAME}['’]s)\\s+(?:[\\p{Ll}-]+\\s+){0,2}?(?<species>${PET_SPECIES})(?:['’]s\\s+name)?(?:\\s+is)?(?:\\s+(?:called|named))?,?\\s+(?<obj>${NAME})`,
  ),
  rx(
    `(?<owner>${NAME})\\s+(?:have|has|had|own|owns|got|adopted)\\s+(?:a|an|another|one)\\s+(?:[\\p{Ll}-]+\\s+){0,2}?(?<species>${PET_SPECIES})\\s+(?:named|called)\\s+(?<obj>${NAME})`,
  ),
];

const KIN: (() => RegExp)[] = [
  rx(
    `(?<owner>\\b[Mm]y|${NAME}['’]s)\\s+(?<relation>${RELATIVES})(?:['’]s\\s+name)?(?:\\s+is)?(?:\\s+(?:called|named))?,?\\s+(?<obj>${NAME})`,
  ),
  rx(`(?<obj>${NAME})\\s+is\\s+(?<owner>my|${NAME}['’]s)\\s+(?<relation>${RELATIVES})\\b`),
];

const USES = rx(
  `(?<subj>${NAME})${ADVERB}\\s+(?:use|uses|used|using|am using|are using|is using|code in|coding in|program in|programming in|write|writes|wrote|writing|prefer|prefers|love|loves|like|likes|switched to|work with|works with|working with|develop in|build with|built .{1,40}? with|deploy to|deploys to|learning|learned|learnt)\\b`,
);

const TECH_RES: { tech: Tech; re: () => RegExp; needs: string[] | null }[] = TECHNOLOGIES.map((tech) => ({
  tech,
  needs: aliasLiterals(tech.aliases),
  re: rx(`(?<![\\p{L}\\p{N}_.#+-])(?:${tech.aliases})(?![\\p{L}\\p{N}_#+]|\\.[\\p{L}])`, tech.strict ? "gu" : "giu"),
}));

const ASCII = /^[\x00-\x7f]*$/;

const overlaps = (spans: Span[], s: Span) => spans.some(([a, b]) => s[0] < b && s[1] > a);

/** Drops leading non-name words ("Yesterday Alice" → "Alice") and a possessive "'s". */
export function cleanName(raw: string): string {
  const words = raw.replace(/['’]s$/, "").split(/\s+/);
  while (words.length && NOT_NAMES.has(words[0]!)) words.shift();
  while (words.length && /^(?:of|de|da|del|di|van|von|der|den|la|le|du|the|&)$/.test(words[words.length - 1]!))
    words.pop();
  return words.join(" ");
}

/** Splits on sentence ends, but not after titles and abbreviations ("Dr. Smith", "Acme Inc. is"). */
export function sentences(text: string): string[] {
  return text
    .split(/(?<!\b(?:Mr|Mrs|Ms|Dr|Prof|St|Jr|Sr|Inc|Ltd|Corp|Co|vs|etc|e\.g|i\.e)\.)(?<=[.!?])\s+|\n+/u)
    .map((s) => s.trim())
    .filter(Boolean);
}

class SentenceScan {
  /** Spans already typed as a name: later scans skip them. */
  readonly used: Span[] = [];
  /** Dates and technologies: never part of a person, place or organisation name. */
  readonly reserved: Span[] = [];
  readonly techs: { ref: EntityRef; start: number }[] = [];
  constructor(
    readonly text: string,
    readonly b: ExtractionBuilder,
  ) {}

  claim(m: RegExpExecArray, group: string): Span | null {
    const span = m.indices?.groups?.[group];
    return span ? [span[0], span[1]] : null;
  }

  /** The user for "I"/"we"/"my", else a person named by the (cleaned) text. */
  actor(raw: string, span: Span | null): EntityRef | null {
    const last = (raw.trim().split(/\s+/).pop() ?? "").toLowerCase();
    const name = cleanName(raw.trim());
    if (SELF_WORDS.has(last) && (!name || SELF_WORDS.has(name.toLowerCase()))) return this.b.self();
    if (!name || (span && overlaps(this.reserved, span))) return null;
    if (span) this.used.push(span);
    return this.b.entity("person", name);
  }

  named(type: string, m: RegExpExecArray, group: string, properties?: Record<string, unknown>): EntityRef | null {
    const raw = m.groups?.[group];
    const name = raw ? cleanName(raw) : "";
    const span = this.claim(m, group);
    if (!name || (span && overlaps(this.reserved, span))) return null;
    if (span) this.used.push(span);
    return this.b.entity(type, name, properties ? { properties } : {});
  }
}

function scanDates(s: SentenceScan): void {
  for (const d of findDates(s.text)) {
    s.b.entity("date", d.id, { id: d.id });
    s.used.push([d.start, d.end]);
    s.reserved.push([d.start, d.end]);
  }
}

function scanTechs(s: SentenceScan): void {
  const firstWord = s.text.search(/\S/);
  // In ASCII text a case-insensitive match is a match of the lower-case text: a technology none of whose
  // literals that text holds cannot match, and its expression (a look-behind at every position) is skipped.
  const lower = ASCII.test(s.text) ? s.text.toLowerCase() : null;
  for (const { tech, re: compiled, needs } of TECH_RES) {
    if (lower !== null && needs && !needs.some((n) => lower.includes(n))) continue;
    const re = compiled();
    re.lastIndex = 0;
    for (let m = re.exec(s.text); m; m = re.exec(s.text)) {
      const span: Span = [m.index, m.index + m[0].length];
      if ((tech.strict && m.index === firstWord) || overlaps(s.used, span)) continue;
      const ref = s.b.entity("technology", tech.name, { id: tech.id });
      if (ref) s.techs.push({ ref, start: m.index });
      s.used.push(span);
      s.reserved.push(span);
    }
  }
}

function scanRelations(s: SentenceScan): void {
  for (const { re: compiled, type, objType } of RELATIONS) {
    const re = compiled();
    re.lastIndex = 0;
    for (let m = re.exec(s.text); m; m = re.exec(s.text)) {
      const obj = s.named(objType, m, "obj");
      if (!obj) continue;
      const subj = s.actor(m.groups?.subj ?? "", s.claim(m, "subj"));
      const role = m.groups?.role;
      s.b.relate(subj, type, obj, role ? { role } : undefined);
    }
  }
}

function scanOwned(s: SentenceScan): void {
  for (const compiled of [...PETS, ...KIN]) {
    const re = compiled();
    re.lastIndex = 0;
    for (let m = re.exec(s.text); m; m = re.exec(s.text)) {
      const species = m.groups?.species;
      const obj = species ? s.named("pet", m, "obj", { species }) : s.named("person", m, "obj");
      if (!obj) continue;
      const owner = s.actor((m.groups?.owner ?? "").replace(/['’]s$/, ""), s.claim(m, "owner"));
      if (species) s.b.relate(owner, "HAS_PET", obj);
      else s.b.relate(owner, "KNOWS", obj, { relation: m.groups?.relation?.toLowerCase() });
    }
  }
}

function scanUses(s: SentenceScan): void {
  const uses = USES();
  uses.lastIndex = 0;
  for (let m = uses.exec(s.text); m; m = uses.exec(s.text)) {
    const end = m.index + m[0].length;
    const used = s.techs.filter((t) => t.start >= end);
    if (used.length === 0) continue;
    const subj = s.actor(m.groups?.subj ?? "", s.claim(m, "subj"));
    for (const t of used) s.b.relate(subj, "USES", t.ref);
  }
}

/** What a capitalised name is, from the words around it; null = no cue, so no entity. */
function classify(name: string, before: string, after: string): string | null {
  if (TITLE_BEFORE.test(before)) return "person";
  if (name.split(/\s+/).some((w) => ORG_SUFFIXES.has(w))) return "organization";
  if (PLACES.has(name)) return "place";
  if (PLACE_BEFORE.test(before)) return "place";
  if (ORG_BEFORE.test(before)) return "organization";
  if (PERSON_BEFORE.test(before) || PERSON_AFTER.test(after)) return "person";
  return null;
}

const NAMES = rx(NAME);

function scanNames(s: SentenceScan): void {
  const names = NAMES();
  names.lastIndex = 0;
  for (let m = names.exec(s.text); m; m = names.exec(s.text)) {
    const span: Span = [m.index, m.index + m[0].length];
    if (overlaps(s.used, span)) continue;
    const name = cleanName(m[0]);
    if (!name) continue;
    const start = m.index + Math.max(0, m[0].indexOf(name));
    const type = classify(name, s.text.slice(0, start), s.text.slice(span[1]));
    if (type) s.b.entity(type, name);
  }
}

export function extractWithRules(text: string): Extraction {
  const b = new ExtractionBuilder();
  for (const sentence of sentences(text)) {
    const s = new SentenceScan(sentence, b);
    scanDates(s);
    scanTechs(s);
    scanRelations(s);
    scanOwned(s);
    scanUses(s);
    scanNames(s);
  }
  return b.build();
}

export class RuleExtractor implements EntityExtractor {
  readonly name = "rules";
  async extract(text: string): Promise<Extraction> {
    return extractWithRules(text);
  }
}
