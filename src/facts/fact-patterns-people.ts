// Fact patterns about where people live and work and who they are to each other: home, employer,
// job title, manager, partner, relatives, pets. Ends ("left", "died") come before sets in each group.
import { PET_SPECIES, PLACES } from "~/graph/extract-lexicon";
import { slug } from "~/graph/extract";
import { canonRelation, SELF_SUBJECT, type Claim } from "./fact-claims";
import { cueWords, one, rx, type PatternGroup } from "./fact-grammar";
import { techOf } from "./fact-patterns-things";

const PARTNER_WORDS = "wife|husband|partner|spouse|girlfriend|boyfriend|fiancé|fiancée|fiance|fiancee";
const PARTNER = PARTNER_WORDS;
const FAMILY =
  "mother|mom|mum|father|dad|brother|sister|son|daughter|grandmother|grandma|grandfather|grandpa|uncle|aunt|cousin|niece|nephew|stepmother|stepfather|stepson|stepdaughter";
const MANAGER = "manager|boss|supervisor|line\\s+manager|team\\s+lead|team\\s+leader|lead";
const JOBS =
  "engineer|developer|programmer|designer|manager|nurse|midwife|teacher|professor|lecturer|doctor|physician|surgeon|dentist|" +
  "lawyer|attorney|accountant|analyst|scientist|researcher|consultant|architect|journalist|student|intern|lead|director|officer|" +
  "controller|administrator|technician|electrician|plumber|carpenter|chef|cook|waiter|waitress|barista|pharmacist|therapist|" +
  "psychologist|paramedic|firefighter|pilot|mechanic|recruiter|founder|ceo|cto|cfo|coo|specialist|coordinator|assistant|" +
  "secretary|librarian|veterinarian|photographer|musician|translator|tester|clerk|cashier|banker|trader|economist|marketer|" +
  "strategist|producer|animator|illustrator|copywriter|bookkeeper|auditor|paralegal|judge|farmer|tutor|coach|caregiver|" +
  "writer|editor|owner|executive|partner|associate|receptionist|contractor|freelancer|salesperson|representative|worker";
/** Up to three lower-case words before the job noun ("senior software engineer"). */
const TITLE = `(?<title>(?:(?!(?:and|or|but|at|for|with|in)\\b)[\\p{Ll}-]+\\s+){0,3}(?:${JOBS}))(?![\\p{L}])`;

/** "a small flat in" before a place: what people live in, then where. */
const A_PLACE_IN = "(?:(?:an?|the|our|my)\\s+(?:[\\p{Ll}-]+\\s+){0,3}?in\\s+)?";

const partner = (word: string) => (new RegExp(`^(?:${PARTNER})$`, "i").test(word) ? "partner" : null);
const relative = (word: string) => partner(word) ?? `relative:${canonRelation(word)}`;
const title = (raw: string | undefined) => raw?.trim().toLowerCase().replace(/\s+/g, " ") ?? null;

export const PEOPLE: PatternGroup[] = [
  {
    cue: cueWords(
      "live in|lives in|living in|lived in|reside in|resides in|residing in|based in|home is|moved|relocated|settled",
    ),
    patterns: [
      {
        re: rx(
          `{SUBJ}{AUX}\\s+(?:been\\s+)?(?:live|lives|living|reside|resides|residing)\\s+in\\s+${A_PLACE_IN}{VAL}|` +
            "{SUBJ}(?:\\s*['’]ve|\\s+have|\\s+has){ADV}\\s+lived\\s+in\\s+{VAL}|{SUBJ}{AUX}\\s+based\\s+in\\s+{VAL}",
        ),
        build: (g, x) => one(x.subject(g.subj), "home", x.name(g.val), x.op(g)),
      },
      {
        re: rx(
          `{SUBJ}{AUX}\\s+(?:moved|relocated|settled)(?:\\s+back)?(?:\\s+from\\s+(?<from>{NAME}))?\\s+(?:to|into)\\s+${A_PLACE_IN}{VAL}`,
        ),
        // "We moved from Jira to Linear" is a change of tools (fact-patterns-things.ts), not of home.
        build: (g, x) => (g.from && techOf(g.from) ? [] : one(x.subject(g.subj), "home", x.name(g.val), x.op(g))),
      },
      {
        re: rx("{POSS}\\s+home\\s+is\\s+(?:now\\s+)?(?:in\\s+)?{VAL}"),
        build: (g, x) => one(x.owner(g.poss), "home", x.name(g.val), "set"),
      },
    ],
  },
  {
    cue: cueWords(
      "work at|work for|work as|work in|works at|works for|works as|works in|working at|working for|working as|working in",
      "worked at|worked for|employed|employer|joined|started at|started with|job|laid off|quit|resigned|left|hired|company",
      "promoted|role|title|position",
      JOBS,
    ),
    patterns: [
      {
        re: rx(
          "{SUBJ}{AUX}\\s+(?:left|quit|resigned\\s+from|(?:was|got)\\s+(?:laid\\s+off|let\\s+go|fired)\\s+from|lost\\s+(?:my|our)\\s+job\\s+(?:at|with))\\s+(?:the\\s+)?{VAL}",
        ),
        need: ["left", "quit", "resigned", "laid", "let", "fired", "lost"],
        build: (g, x) => one(x.subject(g.subj), "employer", x.org(g.val), g.past ? "past" : "end"),
      },
      {
        re: rx(
          `{SUBJ}{AUX}\\s+(?:work|works|working)\\s+as\\s+(?:an?\\s+)?${TITLE}(?:\\s+(?:at|for)\\s+(?:the\\s+)?(?<org>{NAME}))?`,
        ),
        need: ["work"],
        build: (g, x) => jobClaims(x.subject(g.subj), title(g.title), x.org(g.org), x.op(g)),
      },
      {
        re: rx(`{SUBJ}{BE}\\s+(?:an?\\s+)${TITLE}(?:\\s+(?:at|for|with)\\s+(?:the\\s+)?(?<org>{NAME}))?`),
        build: (g, x) => jobClaims(x.subject(g.subj), title(g.title), x.org(g.org), x.op(g)),
      },
      {
        re: rx(
          `{SUBJ}{AUX}\\s+(?:got|was|have\\s+been|been)\\s+promoted\\s+to\\s+(?:an?\\s+)?${TITLE}|{POSS}\\s+(?:new\\s+|current\\s+)?(?:job\\s+title|title|job|role|position)\\s+is\\s+(?:now\\s+)?(?:an?\\s+)?${TITLE}`,
        ),
        need: ["promoted", "title", "job", "role", "position"],
        build: (g, x) => one(g.poss ? x.owner(g.poss) : x.subject(g.subj), "job_title", title(g.title), "set"),
      },
      {
        re: rx(
          "{SUBJ}{AUX}\\s+(?:been\\s+)?(?:work|works|working|employed|started\\s+working)\\s+(?:at|for|by)\\s+(?:the\\s+)?{VAL}|" +
            "{SUBJ}(?:\\s*['’]ve|\\s+have|\\s+has){ADV}\\s+worked\\s+(?:at|for)\\s+(?:the\\s+)?{VAL}|" +
            "{SUBJ}{AUX}\\s+(?:joined|started\\s+(?:a\\s+new\\s+job\\s+)?at|got\\s+(?:a\\s+(?:new\\s+)?)?job\\s+at|got\\s+hired\\s+(?:at|by)|was\\s+hired\\s+by)\\s+(?:the\\s+)?{VAL}",
        ),
        need: ["work", "employed", "joined", "started", "job", "hired"],
        build: (g, x) => one(x.subject(g.subj), "employer", x.org(g.val), x.op(g)),
      },
      {
        re: rx("{POSS}\\s+(?:new\\s+|current\\s+)?(?:employer|company)\\s+is\\s+(?:now\\s+)?{VAL}"),
        need: ["employer", "company"],
        build: (g, x) => one(x.owner(g.poss), "employer", x.org(g.val), "set"),
      },
      {
        re: rx("{SUBJ}{AUX}\\s+(?:work|works|working)\\s+in\\s+{VAL}"),
        need: ["work"],
        build: (g, x) =>
          PLACES.has(x.name(g.val) ?? "") ? one(x.subject(g.subj), "work_location", x.name(g.val), x.op(g)) : [],
      },
    ],
  },
  {
    cue: cueWords("manager|boss|supervisor|lead|leader|report to|reports to|reporting to"),
    patterns: [
      {
        re: rx(
          `{POSS}\\s+(?:new\\s+|current\\s+|direct\\s+)?(?:${MANAGER})\\s+is\\s+(?:now\\s+|actually\\s+)?{VAL}|{VAL}\\s+is\\s+(?:now\\s+)?(?:(?<neg>no\\s+longer|not)\\s+)?{POSS}\\s+(?:new\\s+)?(?:${MANAGER})\\b`,
        ),
        build: (g, x) => one(x.owner(g.poss), "manager", x.name(g.val), x.op(g)),
      },
      {
        re: rx("{SUBJ}{AUX}\\s+(?:report|reports|reporting)\\s+(?:directly\\s+)?to\\s+{VAL}"),
        build: (g, x) => one(x.subject(g.subj), "manager", x.name(g.val), x.op(g)),
      },
    ],
  },
  {
    cue: cueWords(PARTNER_WORDS, FAMILY, "married|engaged|dating|broke|split|separated|divorced|relationship"),
    patterns: [
      {
        re: rx(
          "{SUBJ}{AUX}\\s+(?:broke\\s+up|split\\s+up|separated|(?:got\\s+)?divorced)\\s+(?:with\\s+|from\\s+)?{VAL}|" +
            "{VAL}\\s+and\\s+(?:I|me)\\s+(?:broke\\s+up|split\\s+up|separated|(?:got\\s+)?divorced|are\\s+no\\s+longer\\s+together)",
        ),
        build: (g, x) => one(g.subj !== undefined ? x.subject(g.subj) : SELF_SUBJECT, "partner", x.name(g.val), "end"),
      },
      {
        re: rx(
          "{SUBJ}{BE}\\s+(?:married\\s+to|engaged\\s+to|dating|in\\s+a\\s+relationship\\s+with)\\s+{VAL}|{SUBJ}\\s+married\\s+{VAL}",
        ),
        build: (g, x) => one(x.subject(g.subj), "partner", x.name(g.val), x.op(g)),
      },
      {
        re: rx(
          `{POSS}\\s+(?:new\\s+)?(?<rel>${PARTNER}|${FAMILY})(?:['’]s\\s+name)?\\s+is\\s+(?:now\\s+|actually\\s+)?(?:called\\s+|named\\s+)?(?:actually\\s+)?{VAL}|` +
            `{VAL}\\s+is\\s+{POSS}\\s+(?:new\\s+)?(?<rel2>${PARTNER}|${FAMILY})\\b(?!['’]s)|{POSS}\\s+(?:new\\s+)?(?<rel3>${PARTNER}|${FAMILY})\\s+{VAL}`,
        ),
        build: (g, x) => one(x.owner(g.poss), relative(g.rel ?? g.rel2 ?? g.rel3 ?? ""), x.name(g.val), "set"),
      },
    ],
  },
  {
    cue: cueWords(
      PET_SPECIES,
      PET_SPECIES.replace(/\|/g, "s|"),
      "puppies|bunnies|died|passed|ran away|put down|gave|rehomed",
    ),
    patterns: [
      {
        re: rx(
          `(?:{POSS}\\s+(?<species>${PET_SPECIES})\\s+)?{VAL}\\s+(?:died|passed\\s+away|passed|ran\\s+away|was\\s+put\\s+down|got\\s+put\\s+down|was\\s+put\\s+to\\s+sleep)|` +
            "{SUBJ}{AUX}\\s+(?:gave\\s+away|rehomed|gave\\s+up)\\s+(?<val2>{NAME})|{SUBJ}\\s+gave\\s+(?<val3>{NAME})\\s+(?:away|to)\\b",
        ),
        build: (g, x) =>
          one(
            g.subj !== undefined ? x.subject(g.subj) : g.poss ? x.owner(g.poss) : SELF_SUBJECT,
            "pet",
            x.name(g.val ?? g.val2 ?? g.val3),
            "end",
          ),
      },
      {
        re: rx(
          `{SUBJ}{AUX}\\s+(?:have|own)\\s+(?:an?|any)\\s+(?<species>${PET_SPECIES})s?(?=\\s+(?:anymore|any\\s+more)|\\s*[.,;!]|$)`,
        ),
        build: (g, x) => (g.neg ? one(x.subject(g.subj), "pet", "*", "end", { qualifier: g.species }) : []),
      },
      {
        re: rx(
          `{SUBJ}{AUX}\\s+(?:have|has|got|adopted|own|owns|rescued|have\\s+got)\\s+(?:an?|another|one|two|three|four|\\d+)\\s+(?:[\\p{Ll}-]+\\s+){0,2}?(?<species>${PET_SPECIES})(?:s|es)?\\s*,?\\s+(?:named\\s+|called\\s+)?{VAL}(?:\\s*(?:,|and)\\s*(?<val2>{NAME}))?(?:\\s*,?\\s*and\\s+(?<val3>{NAME}))?`,
        ),
        build: (g, x) =>
          [g.val, g.val2, g.val3].flatMap((v) =>
            one(x.subject(g.subj), "pet", x.name(v), x.op(g), { qualifier: g.species?.toLowerCase() }),
          ),
      },
      {
        re: rx(
          `{POSS}\\s+(?:[\\p{Ll}-]+\\s+)?(?<species>${PET_SPECIES})(?:['’]s\\s+name)?\\s+is\\s+(?:actually\\s+|now\\s+)?(?:called\\s+|named\\s+)?(?:actually\\s+)?{VAL}|{POSS}\\s+(?<species2>${PET_SPECIES})\\s+{VAL}`,
        ),
        build: (g, x) =>
          one(x.owner(g.poss), "pet", x.name(g.val), "set", {
            qualifier: (g.species ?? g.species2)?.toLowerCase(),
          }),
      },
    ],
  },
];

/** "a data analyst at Spotify": the title, and the employer the title is held at. */
function jobClaims(subject: string | null, jobTitle: string | null, org: string | null, op: Claim["op"]): Claim[] {
  const claims = one(subject, "job_title", jobTitle, op, org ? { qualifier: slug(org) } : {});
  return org ? [...claims, ...one(subject, "employer", org, op)] : claims;
}
