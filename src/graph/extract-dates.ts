// Calendar dates in text → ISO ids: 2023-05-07, "May 7, 2023", "7th of May 2023", "May 2023".
// Weekday names and relative dates ("last Friday") are left out: without the memory's own
// date they name no fixed day, and linking every "Monday" memory together says nothing.
import { MONTHS } from "./extract-lexicon";

export interface FoundDate {
  /** ISO date (YYYY-MM-DD) or month (YYYY-MM). */
  id: string;
  start: number;
  end: number;
}

const MONTH =
  "(January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)";
const DAY = "(\\d{1,2})(?:st|nd|rd|th)?";
const PATTERNS: { re: RegExp; parts: (m: RegExpExecArray) => [string, string, string?] }[] = [
  { re: /\b(\d{4})-(\d{2})-(\d{2})\b/g, parts: (m) => [m[1]!, m[2]!, m[3]!] },
  { re: new RegExp(`\\b${MONTH}\\.?\\s+${DAY},?\\s+(\\d{4})\\b`, "g"), parts: (m) => [m[3]!, m[1]!, m[2]!] },
  { re: new RegExp(`\\b${DAY}\\s+(?:of\\s+)?${MONTH}\\.?,?\\s+(\\d{4})\\b`, "g"), parts: (m) => [m[3]!, m[2]!, m[1]!] },
  { re: new RegExp(`\\b${MONTH}\\s+(\\d{4})\\b`, "g"), parts: (m) => [m[2]!, m[1]!] },
];

const monthNumber = (m: string): number => {
  if (/^\d+$/.test(m)) return Number(m);
  const lower = m.toLowerCase();
  return MONTHS.findIndex((name) => name.startsWith(lower.slice(0, 3))) + 1;
};

/** A real calendar date (no 2023-02-30) in ISO form, or null. */
function iso(year: string, month: string, day?: string): string | null {
  const y = Number(year);
  const mo = monthNumber(month);
  if (mo < 1 || mo > 12 || y < 1000 || y > 9999) return null;
  const ym = `${year}-${String(mo).padStart(2, "0")}`;
  if (day === undefined) return ym;
  const d = Number(day);
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return `${ym}-${String(d).padStart(2, "0")}`;
}

/** Every date in the text; a span already claimed by an earlier (more precise) pattern is skipped. */
export function findDates(text: string): FoundDate[] {
  const found: FoundDate[] = [];
  for (const { re, parts } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const start = m.index;
      const end = start + m[0].length;
      if (found.some((f) => start < f.end && end > f.start)) continue;
      const id = iso(...parts(m));
      if (id) found.push({ id, start, end });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}
