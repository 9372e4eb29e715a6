// Fact patterns about a person's habits and details: diet, allergies, phone and email, tools and
// languages (spoken and programming), schedules, trips, name, age and birthday.
import { TECHNOLOGIES } from "~/graph/extract-lexicon";
import { SELF_SUBJECT, type Claim } from "./fact-claims";
import { cueWords, DIGITS, one, rx, type Ctx, type Groups, type PatternGroup } from "./fact-grammar";

const DIETS = "vegetarian|vegan|pescatarian|pescetarian|keto|paleo|omnivore|flexitarian|carnivore";
const PHONE = "\\+?\\d[\\d\\s().-]{5,}\\d";
const EMAIL = "[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+";
const LANGS =
  "English|Spanish|French|German|Italian|Portuguese|Dutch|Polish|Japanese|Chinese|Mandarin|Cantonese|Korean|Russian|Arabic|" +
  "Hindi|Turkish|Greek|Swedish|Norwegian|Danish|Finnish|Czech|Hungarian|Romanian|Ukrainian|Hebrew|Vietnamese|Thai|" +
  "Indonesian|Catalan|Basque|Irish|Welsh|Swahili|Bengali|Urdu|Persian|Farsi|Tagalog";
/** Lower-case items of a list ("latex and bee stings"), up to a clause end or a trailing adverb. */
const ITEMS =
  "(?<val>[\\p{Ll}][\\p{Ll}\\s,-]*?)(?=\\s*(?:[.;!?]|,\\s*(?:it|but|so|and\\s+I|I)\\b|$)|\\s+(?:after\\s+all|too|as\\s+well|anymore|any\\s+more|now|again|since|because|but|so)\\b)";
/** A time phrase of up to four words to the clause's end; when() keeps it if it names a day, a time, a month or a date. */
const WHEN = "(?<val>(?:[^\\s,.;!?]+\\s+){0,3}[^\\s,.;!?]+)(?=\\s*(?:[,.;!?]|$)|\\s+now\\b)";
const TIME_WORD =
  /\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(?:weekdays?|weekends?|mornings?|afternoons?|evenings?|nights?|noon|midnight|daily|weekly|monthly)\b|\d|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\b(?:spring|summer|autumn|fall|winter|tomorrow|tonight|week|month|year)\b/i;
const AGE_CUE = /\b(?:i['’]?m|i\s+am|is|are)\s+\d/i;
const FREQUENCY = /^(?:(?:weekly|daily|monthly|regular|usual|new|current)\s+)+/;

/** Tool kinds, for "switched to macOS" (ends the other operating systems, not the editors). */
const KINDS: Record<string, string> = {
  linux: "os",
  macos: "os",
  windows: "os",
  vscode: "editor",
  vim: "editor",
  emacs: "editor",
  jira: "tracker",
  notion: "notes",
  slack: "chat",
};
const LANGUAGE_IDS = new Set(
  "typescript javascript python go rust java kotlin swift cpp csharp ruby php elixir haskell scala".split(" "),
);
const TECH = TECHNOLOGIES.map((t) => ({ ...t, re: new RegExp(`^(?:${t.aliases})$`, t.strict ? "u" : "iu") }));
export const techOf = (raw: string) => TECH.find((t) => t.re.test(raw.trim()));
/** Any known technology, as written; non-strict aliases in any case. */
const TOOL = `(?<![\\p{L}\\p{N}_.#+-])(?<val>${TECHNOLOGIES.map((t) => (t.strict ? t.aliases : `(?i:${t.aliases})`)).join("|")})(?![\\p{L}\\p{N}_#+])`;
/** The first word of every alias ("vs" of "vs ?code"), lower case: the tool patterns' cue. */
const TECH_WORDS = TECHNOLOGIES.filter((t) => !t.strict).flatMap((t) =>
  t.aliases.split("|").map((a) => a.replace(/\\(.)/g, "$1").split(/[\s?]/)[0]!.toLowerCase()),
);
/** Strict names ("Go", "Rust") only as written: as lower-case words they would open nearly every sentence. */
const STRICT_TECH = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${TECHNOLOGIES.filter((t) => t.strict)
    .map((t) => t.aliases)
    .join("|")})(?![\\p{L}\\p{N}])`,
  "u",
);
const kindOf = (raw: string) => {
  const t = techOf(raw);
  return t ? (LANGUAGE_IDS.has(t.id) ? "language" : KINDS[t.id]) : undefined;
};
const toolName = (raw: string | undefined) => (raw ? (techOf(raw)?.name ?? raw.trim().replace(/\.+$/, "")) : null);

const items = (raw: string | undefined) =>
  (raw ?? "")
    .split(/\s*,\s*|\s+(?:and|or)\s+/)
    .map((s) => s.trim())
    .filter((s) => s && s.split(/\s+/).length <= 3);
const when = (raw: string | undefined) => {
  const v = raw?.trim().replace(/^(?:in|on|at|for|to|from)\s+/i, "");
  return v && TIME_WORD.test(v) ? v : null;
};
const place = (g: Groups, x: Ctx) => x.name(g.place ?? g.place2);

export const THINGS: PatternGroup[] = [
  {
    cue: cueWords(DIETS),
    patterns: [
      {
        re: rx(`{SUBJ}{AUX}\\s+(?:stopped|quit|gave\\s+up)(?:\\s+being)?\\s+(?<val>${DIETS})\\b`),
        build: (g, x) => one(x.subject(g.subj), "diet", g.val!.toLowerCase(), "end"),
      },
      {
        re: rx(
          `{SUBJ}{BE}\\s+(?:an?\\s+|fully\\s+|strictly\\s+|mostly\\s+)?(?<val>${DIETS})\\b|{SUBJ}{AUX}\\s+(?:follow|follows|on|doing|do|started|went|gone|turned)\\s+(?:an?\\s+|the\\s+)?(?<val>${DIETS})\\b`,
        ),
        build: (g, x) => one(x.subject(g.subj), "diet", g.val!.toLowerCase(), x.op(g)),
      },
    ],
  },
  {
    cue: cueWords("allergic|allergy|allergies"),
    patterns: [
      {
        re: rx(
          `{SUBJ}{AUX}\\s+(?:outgrew|grew\\s+out\\s+of|got\\s+over)\\s+(?:my\\s+|our\\s+|the\\s+|his\\s+|her\\s+)?(?<val>[\\p{Ll}-]+(?:\\s+[\\p{Ll}-]+)?)\\s+allerg`,
        ),
        build: (g, x) => one(x.subject(g.subj), "allergy", g.val ?? null, "end"),
      },
      {
        re: rx(
          `{SUBJ}(?:{BE}|(?<=\\band))\\s+(?:(?:very|severely|mildly|deathly|slightly|also)\\s+)*allergic\\s+to\\s+${ITEMS}|{SUBJ}{AUX}\\s+(?:have|has)\\s+(?:an?\\s+)?(?:(?:severe|mild|bad)\\s+)?(?<val>[\\p{Ll}-]+(?:\\s+[\\p{Ll}-]+)?)\\s+allergy`,
        ),
        build: (g, x) => items(g.val).flatMap((v) => one(x.subject(g.subj), "allergy", v, x.op(g))),
      },
    ],
  },
  {
    cue: cueWords("phone|number|mobile|cell|email|e-mail|mail|reach|call|text|contact"),
    patterns: [
      {
        re: rx(
          `{POSS}\\s+(?:new\\s+|current\\s+)?(?<q>(?:work|office|home|mobile|cell|personal)\\s+)?(?:(?:phone|mobile|cell|telephone)\\s+number|phone|number|mobile|cell)\\s+(?:is\\s+now|is|(?:has\\s+)?changed\\s+to)\\s+(?<val>${PHONE})|` +
            `\\b(?:reach|call|text|contact)\\s+me\\s+(?:at|on)\\s+(?<val>${PHONE})`,
        ),
        build: (g, x) => one(g.poss ? x.owner(g.poss) : SELF_SUBJECT, contact("phone", g.q), g.val!, "set"),
      },
      {
        re: rx(
          `{POSS}\\s+(?:new\\s+|current\\s+)?(?<q>(?:work|personal|private|school|home|business)\\s+)?(?:e-?mail(?:\\s+address)?|mail\\s+address)\\s+(?:is\\s+now|is|(?:has\\s+)?changed\\s+to)\\s+(?<val>${EMAIL})|` +
            `\\b(?:e-?mail|write\\s+to|reach|contact)\\s+me\\s+at\\s+(?<val>${EMAIL})`,
        ),
        build: (g, x) => one(g.poss ? x.owner(g.poss) : SELF_SUBJECT, contact("email", g.q), g.val!, "set"),
      },
    ],
  },
  {
    cue: [...TECH_WORDS, ...cueWords("switched|migrated|transitioned|favourite|favorite|preferred")],
    test: (sentence) => STRICT_TECH.test(sentence),
    patterns: [
      {
        re: rx(
          "{SUBJ}{AUX}\\s+(?:switched|moved|migrated|changed|went|transitioned|converted)\\s+(?:over\\s+)?from\\s+(?<from>[\\p{L}][\\p{L}\\p{N}.+#]*(?:\\s+[\\p{Lu}\\p{N}][\\p{L}\\p{N}.+#]*)?)\\s+to\\s+(?<val>[\\p{L}][\\p{L}\\p{N}.+#]*(?:\\s+[\\p{Lu}\\p{N}][\\p{L}\\p{N}.+#]*)?)",
        ),
        build: (g, x) => {
          const known = techOf(g.from!) ?? techOf(g.val!);
          if (!known && !/^switched$/.test(g.from ?? "")) return [];
          const kind = kindOf(g.from!) ?? kindOf(g.val!);
          return one(x.subject(g.subj), "tool", toolName(g.val), "switch", {
            replaces: toolName(g.from),
            ...(kind ? { qualifier: kind } : {}),
          });
        },
      },
      {
        re: rx(`{SUBJ}{AUX}\\s+(?:switched|migrated|moved|changed|went|converted)\\s+(?:over\\s+)?to\\s+${TOOL}`),
        build: (g, x) => one(x.subject(g.subj), "tool", toolName(g.val), "switch", kindQualifier(g.val)),
      },
      {
        re: rx(
          `{POSS}\\s+(?:favou?rite|preferred|go-to|main|primary|default)\\s+(?<kind>editor|ide|(?:programming\\s+)?language|os|operating\\s+system|browser|shell|terminal|framework|database|tool)\\s+is\\s+(?:now\\s+|still\\s+)?(?<val>[\\p{L}][\\p{L}\\p{N}.+#]*(?:\\s+[\\p{Lu}\\p{N}][\\p{L}\\p{N}.+#]*)?)`,
        ),
        build: (g, x) => one(x.owner(g.poss), `favourite:${favouriteKind(g.kind!)}`, toolName(g.val), "set"),
      },
      {
        re: rx(
          `{SUBJ}{AUX}\\s+(?:use|uses|using|code\\s+in|coding\\s+in|program\\s+in|programming\\s+in|write|writes|writing|work\\s+with|develop\\s+in|prefer|prefers|rely\\s+on)\\s+${TOOL}`,
        ),
        build: (g, x) => one(x.subject(g.subj), "tool", toolName(g.val), x.op(g), kindQualifier(g.val)),
      },
    ],
  },
  {
    cue: cueWords("speak|speaks|speaking|fluent"),
    patterns: [
      {
        re: rx(
          `{SUBJ}{AUX}\\s+(?:speak|speaks|speaking|fluent\\s+in)\\s+(?:fluent\\s+)?(?<val>(?:${LANGS})(?:\\s*,\\s*(?:${LANGS}))*(?:\\s*,?\\s+and\\s+(?:${LANGS}))?)`,
        ),
        build: (g, x) => items(g.val).flatMap((v) => one(x.subject(g.subj), "language", v, x.op(g))),
      },
    ],
  },
  {
    cue: cueWords("trip|going to|flying to|travelling to|traveling to|heading to|driving to"),
    patterns: [
      {
        re: rx(
          "{SUBJ}{AUX}\\s+(?:cancelled|canceled|called\\s+off|scrapped)\\s+(?:the|my|our)\\s+(?:(?<place>{NAME})\\s+trip|trip\\s+to\\s+(?<place2>{NAME}))|" +
            "{SUBJ}{AUX}\\s+(?:postponed|moved|pushed(?:\\s+back)?|rescheduled|delayed|brought\\s+forward)\\s+(?:the|my|our)\\s+(?:(?<place>{NAME})\\s+trip|trip\\s+to\\s+(?<place2>{NAME}))\\s+to\\s+" +
            WHEN +
            "|{POSS}\\s+(?:(?<place>{NAME})\\s+trip|trip\\s+to\\s+(?<place2>{NAME}))\\s+(?:got|was|has\\s+been|is)\\s+(?:cancelled|canceled|called\\s+off|scrapped)" +
            "|{POSS}\\s+(?:(?<place>{NAME})\\s+trip|trip\\s+to\\s+(?<place2>{NAME}))\\s+(?:got|was|has\\s+been|is)\\s+(?:postponed|moved|pushed(?:\\s+back)?|rescheduled|delayed)\\s+to\\s+" +
            WHEN,
        ),
        build: (g, x) =>
          one(
            g.poss ? x.owner(g.poss) : x.subject(g.subj),
            `plan:trip:${slugOr(place(g, x))}`,
            g.val ? when(g.val) : "*",
            g.val ? "set" : "end",
          ),
      },
      {
        re: rx(
          `{SUBJ}{BE}\\s+(?:going|flying|travell?ing|heading|driving)\\s+to\\s+(?<place>{NAME})(?:\\s+(?:(?:in|on|for)\\s+)?${WHEN})?|` +
            `{SUBJ}{AUX}\\s+(?:planning|booked|organi[sz]ing)\\s+(?:a|my|our|the)\\s+trip\\s+to\\s+(?<place>{NAME})(?:\\s+(?:(?:in|on|for)\\s+)?${WHEN})?`,
        ),
        build: (g, x) =>
          one(x.subject(g.subj), `plan:trip:${slugOr(place(g, x))}`, g.val ? when(g.val) : "planned", x.op(g)),
      },
    ],
  },
  {
    cue: cueWords("name|turned|birthday|years"),
    test: (sentence) => AGE_CUE.test(sentence),
    patterns: [
      {
        re: rx("{POSS}\\s+(?:full\\s+|real\\s+|legal\\s+)?name\\s+is\\s+(?:now\\s+|actually\\s+)?{VAL}"),
        need: ["name"],
        build: (g, x) => one(x.owner(g.poss), "name", x.name(g.val), "set"),
      },
      {
        re: rx(
          "{SUBJ}{BE}\\s+(?<val>\\d{1,3})(?:\\s+(?:years?|yrs?)(?:\\s+old)?)?(?=\\s*(?:[.,;!]|$|\\s+(?:now|and|but)\\b))|{SUBJ}{AUX}\\s+turned\\s+(?<val>\\d{1,3})\\b",
        ),
        need: DIGITS,
        build: (g, x) => one(x.subject(g.subj), "age", g.val!, x.op(g)),
      },
      {
        re: rx(`{POSS}\\s+birthday\\s+is\\s+(?:on\\s+)?${WHEN}`),
        need: ["birthday"],
        build: (g, x) => one(x.owner(g.poss), "birthday", when(g.val), "set"),
      },
    ],
  },
  {
    cue: cueWords(
      "starts|begins|ends|finishes|rescheduled|postponed|shifted|moved|changed|pushed|is at|is on|is every|is now|are at|are on",
      "monday|tuesday|wednesday|thursday|friday|saturday|sunday|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays",
    ),
    patterns: [
      {
        re: rx(
          `{POSS}\\s+(?<thing>(?:[\\p{Ll}-]+\\s+){0,2}?[\\p{Ll}-]+)\\s+(?:is|are)\\s+(?:now\\s+|still\\s+|usually\\s+|always\\s+)?(?:on|at|every|from|in)\\s+${WHEN}|` +
            `{POSS}\\s+(?<thing>(?:[\\p{Ll}-]+\\s+){0,2}?[\\p{Ll}-]+)\\s+(?:has\\s+been\\s+|was\\s+|got\\s+|is\\s+|has\\s+)?(?:moved|changed|rescheduled|pushed|shifted|postponed)\\s+(?:back\\s+)?to\\s+${WHEN}|` +
            `{POSS}\\s+(?<thing>(?:[\\p{Ll}-]+\\s+){0,2}?[\\p{Ll}-]+)\\s+(?:starts|begins|ends|finishes)\\s+(?:now\\s+)?at\\s+${WHEN}`,
        ),
        build: (g, x) => scheduleClaim(x.owner(g.poss), g.thing, g.val, "set"),
      },
      {
        re: rx(
          `{SUBJ}{AUX}\\s+(?<thing>work\\s+from\\s+home|work\\s+remotely|go\\s+(?:in)?to\\s+(?:the\\s+)?[\\p{Ll}]+|have\\s+[\\p{Ll}]+(?:\\s+[\\p{Ll}]+)?|play\\s+[\\p{Ll}]+|attend\\s+[\\p{Ll}]+)\\s+(?:on|every)\\s+${WHEN}`,
        ),
        need: ["work", "go", "have", "play", "attend"],
        build: (g, x) => scheduleClaim(x.subject(g.subj), g.thing, g.val, x.op(g)),
      },
    ],
  },
];

function scheduleClaim(subject: string | null, thing: string | undefined, raw: string | undefined, op: Claim["op"]) {
  const what = thing
    ?.toLowerCase()
    .replace(FREQUENCY, "")
    .replace(/\bthe\s+/, "");
  if (!what || /^(?:name|birthday|number|phone|email|home|job|manager|boss)$/.test(what)) return [];
  return one(subject, `schedule:${what.replace(/\s+/g, "-")}`, when(raw), op);
}

const slugOr = (name: string | null) => (name ?? "").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-");
const favouriteKind = (kind: string) =>
  ({ ide: "editor", "operating system": "os", "programming language": "language" })[kind.toLowerCase()] ??
  kind.toLowerCase();
const kindQualifier = (raw: string | undefined) => {
  const kind = raw ? kindOf(raw) : undefined;
  return kind ? { qualifier: kind } : {};
};
const contact = (kind: "phone" | "email", q: string | undefined) => {
  const w = q?.trim().toLowerCase();
  if (!w || /^(?:mobile|cell|personal|private)$/.test(w)) return kind;
  return `${kind}:${w === "office" || w === "business" ? "work" : w}`;
};
