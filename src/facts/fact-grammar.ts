// The pieces the fact patterns are written with: who a clause is about (subject, possessor),
// auxiliaries that carry negation and "used to", names, and what one pattern is.
import { NAME } from "~/graph/extract-rules";
import { RELATIVES } from "~/graph/extract-lexicon";
import { lazy } from "~/shared/lazy";
import type { Claim, ClaimOp } from "./fact-claims";

export { NAME };
export type Groups = Record<string, string | undefined>;

export interface Ctx {
  /** The subject a `subj` group names ("I" → user, "my sister Anna", "Tom"); "" = the clause before "and". */
  subject(raw: string | undefined): string | null;
  /** The owner a `poss` group names ("my" → user, "my wife's", "Sarah's"). */
  owner(raw: string | undefined): string | null;
  /** A proper name, or null for words that name no one ("Tuesdays", "Italian"). */
  name(raw: string | undefined): string | null;
  /** An organisation's name: like `name`, but a tool's name may be a company's too ("Figma", "Slack"). */
  org(raw: string | undefined): string | null;
  /** set, or end / past when the match carries a negation or "used to" (groups `neg`, `past`). */
  op(g: Groups): ClaimOp;
}

export interface FactPattern {
  /** The expression (rx), compiled at its first call. */
  re: () => RegExp;
  /**
   * Text every match of `re` contains one of, exactly as written there (the patterns ignore no case): a
   * clause without any is not searched. A group's cue opens all its patterns, most of which need a verb
   * the sentence lacks, and a search that finds nothing cost more than the whole cue lookup.
   */
  need?: readonly string[];
  build(g: Groups, x: Ctx): Claim[];
}

/** `need` of a pattern whose every match holds a digit (\d). */
export const DIGITS = [..."0123456789"];

/**
 * Patterns of one kind, tried only when the sentence has one of the cue's words or two-word phrases
 * (lower case), or passes `test`: a map lookup per word is far cheaper than running the patterns.
 */
export interface PatternGroup {
  cue: readonly string[];
  test?: (sentence: string) => boolean;
  patterns: FactPattern[];
}

/** What may stand at a word's edge; anything else there is punctuation ("Berlin." → "berlin"). */
const EDGE = /^[^\p{L}\p{N}@#+]+|[^\p{L}\p{N}@#+]+$/gu;
const plain = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
const bare = (w: string) => (plain(w.charCodeAt(0)) && plain(w.charCodeAt(w.length - 1)) ? w : w.replace(EDGE, ""));

/**
 * The groups whose cue the sentence has: one pass over its words, one lookup per word and per pair.
 * Words are cut at whitespace by hand, as split(/\s+/) would cut them: the regex split and its array cost
 * a third of this function, which runs on every sentence of every memory added.
 */
export function cuedGroups(groups: readonly PatternGroup[], index: ReadonlyMap<string, number[]>, sentence: string) {
  const hit: boolean[] = [];
  const starts = pairStarts(index);
  const text = sentence.toLowerCase().replaceAll("’", "'");
  let prev = "";
  for (let end = 0; end < text.length; ) {
    let start = end;
    while (start < text.length && isSpace(text.charCodeAt(start))) start++;
    if (start === text.length) break;
    end = start + 1;
    while (end < text.length && !isSpace(text.charCodeAt(end))) end++;
    const w = bare(text.slice(start, end));
    const word = w.endsWith("'s") ? w.slice(0, -2) : w;
    const one = index.get(word);
    if (one) for (const i of one) hit[i] = true;
    // Only a word that starts a two-word cue is worth the pair's string (most words start none).
    const two = prev && starts.has(prev) && index.get(`${prev} ${word}`);
    if (two) for (const i of two) hit[i] = true;
    prev = word;
  }
  return groups.filter((g, i) => hit[i] || g.test?.(sentence));
}

/** What \s matches in a regular expression: ASCII and Unicode spaces, line ends and the BOM. */
function isSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

const starting = new WeakMap<ReadonlyMap<string, number[]>, Set<string>>();

/** The first words of an index's two-word cues. */
function pairStarts(index: ReadonlyMap<string, number[]>): Set<string> {
  let starts = starting.get(index);
  if (!starts) {
    starts = new Set([...index.keys()].filter((k) => k.includes(" ")).map((k) => k.slice(0, k.indexOf(" "))));
    starting.set(index, starts);
  }
  return starts;
}

/** Cue word → the groups it opens. */
export function cueIndex(groups: readonly PatternGroup[]): Map<string, number[]> {
  const index = new Map<string, number[]>();
  groups.forEach((g, i) => {
    for (const w of g.cue) index.set(w, [...(index.get(w) ?? []), i]);
  });
  return index;
}

/** "a|b c" → ["a", "b c"]: cue words from an alternation of plain words. */
export const cueWords = (...alternations: string[]) => alternations.flatMap((a) => a.split("|"));

const REL = RELATIVES;
export const ADV =
  "(?:\\s+(?:now|currently|still|also|recently|just|really|mostly|mainly|usually|actually|finally|officially|even|both|then|again))*";
const NEG_WORDS = "no\\s+longer|not|never|don['’]t|do\\s+not|doesn['’]t|does\\s+not|can['’]t|cannot";
/** After a subject: an optional auxiliary, then optional negation or "used to (be)". */
export const AUX = `(?:\\s*['’](?:m|re|ve)|\\s+(?:am|are|is|have|has))?${ADV}(?:\\s+(?<neg>${NEG_WORDS})|\\s+(?<past>used\\s+to(?:\\s+be)?))?${ADV}`;
/** A copula after a subject ("I'm", "she is", "I used to be"), with optional negation. */
export const BE = `(?:\\s*['’](?:m|re|s)|\\s+(?:am|are|is|became|have\\s+become)|['’]ve\\s+become|\\s+(?<past>used\\s+to\\s+be))${ADV}(?:\\s+(?<neg>not|no\\s+longer|never))?${ADV}`;
export const SUBJ = `(?<subj>\\b[Ii]\\b|\\b[Ww]e\\b|\\b(?:[Tt]he\\s+)?[Uu]ser\\b|\\b[Mm]y\\s+(?:${REL})(?:\\s+${NAME})?|\\b[Oo]ur\\s+(?:${REL})(?:\\s+${NAME})?|${NAME}|(?<=\\band))`;
export const POSS = `(?<poss>\\b(?:[Tt]he\\s+)?[Uu]ser['’]s|\\b[Mm]y(?:\\s+(?:${REL})(?:\\s+${NAME})?['’]s)?|\\b[Oo]ur(?:\\s+(?:${REL})(?:\\s+${NAME})?['’]s)?|${NAME}['’]s)`;
export const VAL = `(?<val>${NAME})`;

/**
 * Source with {SUBJ} {AUX} {BE} {POSS} {NAME} {VAL} {ADV} filled in; global and unicode. Compiled at the
 * first call, not at import: all of them took ~30 ms of every start, and a clause only runs the patterns
 * its words cue.
 */
export function rx(source: string): () => RegExp {
  return lazy(
    () =>
      new RegExp(
        source.replace(/\{(\w+)\}/g, (_, k: string) => PARTS[k] ?? `{${k}}`),
        "gu",
      ),
  );
}
const PARTS: Record<string, string> = { SUBJ, AUX, BE, POSS, NAME, VAL, ADV };

export const one = (subject: string | null, attribute: string, value: string | null, op: ClaimOp, extra = {}) =>
  subject && value ? [{ subject, attribute, value, op, ...extra } as Claim] : [];
