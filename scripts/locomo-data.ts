// LoCoMo input for scripts/eval-locomo.ts: reads locomo10.json by path (never copied into the
// repository), turns dialog turns into memory texts and normalises the evidence dia_ids.

export type Split = "dev" | "test";

/** The data README's split: tune on dev only, report test. */
export const SPLITS: Record<Split, readonly string[]> = {
  dev: ["conv-26", "conv-30", "conv-41", "conv-42", "conv-43"],
  test: ["conv-44", "conv-47", "conv-48", "conv-49", "conv-50"],
};

export interface Turn {
  diaId: string;
  session: number;
  dateTime: string;
  text: string;
}

export interface Question {
  question: string;
  category: number;
  gold: string[];
}

export interface Conversation {
  sampleId: string;
  turns: Turn[];
  questions: Question[];
  /** Evidence strings that were rewritten or dropped, for the report. */
  fixes: string[];
}

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

interface RawSample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: { question: string; category: number; evidence?: string[] }[];
}

/** `"{speaker}: {text}"`, plus `" [shares {blip_caption}]"` when the turn shares an image (BENCH.md §1). */
export function turnText(t: RawTurn): string {
  return `${t.speaker}: ${t.text}` + (t.blip_caption ? ` [shares ${t.blip_caption}]` : "");
}

function readTurns(conversation: Record<string, unknown>): Turn[] {
  const turns: Turn[] = [];
  for (const [key, value] of Object.entries(conversation)) {
    const m = /^session_(\d+)$/.exec(key);
    if (!m || !Array.isArray(value)) continue;
    const session = Number(m[1]);
    const dateTime = String(conversation[`${key}_date_time`] ?? "");
    for (const t of value as RawTurn[]) turns.push({ diaId: t.dia_id, session, dateTime, text: turnText(t) });
  }
  return turns.sort((a, b) => a.session - b.session || turnNo(a.diaId) - turnNo(b.diaId));
}

const turnNo = (diaId: string) => Number(diaId.split(":")[1] ?? 0);

/**
 * Evidence normalisation (data README): split on `;`, `,` and whitespace ("D8:6; D9:17",
 * "D9:1 D4:4"); `D:11:26` → `D11:26`; leading zeros dropped (`D30:05` → `D30:5`); ids that
 * do not exist in the conversation ("D", "D10:19" in conv-42) are dropped.
 */
export function normaliseEvidence(evidence: readonly string[], known: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  for (const raw of evidence.flatMap((e) => e.split(/[;,\s]+/))) {
    const m = /^D:?(\d+):(\d+)$/.exec(raw.trim());
    const id = m ? `D${Number(m[1])}:${Number(m[2])}` : raw.trim();
    if (known.has(id)) out.add(id);
  }
  return [...out];
}

function readSample(s: RawSample): Conversation {
  const turns = readTurns(s.conversation);
  const known = new Set(turns.map((t) => t.diaId));
  const fixes: string[] = [];
  const questions: Question[] = [];
  for (const q of s.qa) {
    const evidence = q.evidence ?? [];
    const gold = normaliseEvidence(evidence, known);
    if (evidence.some((e) => !known.has(e)) || gold.length !== evidence.length)
      fixes.push(`${JSON.stringify(evidence)} → ${JSON.stringify(gold)}`);
    if (gold.length) questions.push({ question: q.question, category: q.category, gold });
  }
  return { sampleId: s.sample_id, turns, questions, fixes };
}

/** Where the file comes from: the authors' repository (Maharana et al., ACL 2024), data/locomo10.json. */
export const LOCOMO_URL = "https://raw.githubusercontent.com/snap-research/LoCoMo/main/data/locomo10.json";

/** The data is not in this repository (its license forbids shipping it in a product): the file is missing. */
export class LocomoMissingError extends Error {}

/** What a newcomer needs to do when the file is absent: where it comes from, its license, the flag. */
export function missingDataHelp(path: string, defaultPath: string): string {
  return [
    `LoCoMo data not found at ${path}`,
    "",
    "`bun run eval` measures retrieval on LoCoMo (Maharana et al., ACL 2024), a benchmark that is not part of",
    "this repository: it is licensed CC BY-NC 4.0 (non-commercial use, with attribution), so each user downloads",
    "it for themselves and it must never be copied into Engram or its repository.",
    "",
    "1. Download locomo10.json (2.8 MB) from the authors' repository, https://github.com/snap-research/LoCoMo",
    "   (file data/locomo10.json):",
    `     curl -fL -o locomo10.json ${LOCOMO_URL}`,
    "2. Run the eval on it:",
    "     bun run eval --data=/path/to/locomo10.json",
    `   or save it as ${defaultPath} and run \`bun run eval\` without --data.`,
  ].join("\n");
}

export async function loadLocomo(path: string, defaultPath = path): Promise<Conversation[]> {
  const file = Bun.file(path);
  if (!(await file.exists())) throw new LocomoMissingError(missingDataHelp(path, defaultPath));
  return ((await file.json()) as RawSample[]).map(readSample);
}
