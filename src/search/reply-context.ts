// Reply context: a memory that asks a question rarely holds the answer; the reply stored right after it
// in the same conversation does. A ranked question passes its score on to that reply (relevance.ts
// withReply; the pairs are read by the store: SearchRepo.replies).
import type { MemoryFilter, SearchRepo } from "~/store/store";
// LoCoMo dev: hybrid R@10 65.1 → 71.0, keyword-only 62.2 → 69.2, MRR up too (docs/SEARCH-QUALITY.md).

/**
 * Probability that a ranked question's reply answers it. With calibrated scores (a noisy OR, relevance.ts),
 * LoCoMo dev R@10 was flat from 0.5 to 0.9 (hybrid 71.1 / 71.0 / 71.0 for 0.7 / 0.8 / 0.9, keyword 69.9–70.3)
 * and MRR rose with it (hybrid 54.1 / 54.6 / 55.3): 0.8, the plateau's middle.
 */
export const REPLY_SHARE = 0.8;
/** The ranked memories checked for being questions: twice the page asked for (dev: top 20 to 500 within ±0.2). */
export const REPLY_ANCHORS = (limit: number) => 2 * limit;
/** A reply is the next memory of the same user, agent and session stored within this time of the question. */
export const REPLY_WINDOW_MS = 60 * 60 * 1000;

const OPENER: Record<string, string> = { "]": "[", ")": "(" };

/**
 * True when the text ends with a question, ignoring trailing annotations a client appends to a message
 * ("[shares a photo]", "(attachment)"). Peeled from the end, one bracket pair at a time: linear time.
 */
export function isQuestion(text: string): boolean {
  let rest = text.trimEnd();
  for (let open = OPENER[rest.at(-1) ?? ""]; open; open = OPENER[rest.at(-1) ?? ""]) {
    const start = rest.lastIndexOf(open);
    if (start < 0) break;
    rest = rest.slice(0, start).trimEnd();
  }
  return rest.endsWith("?");
}

/** Question rowid → reply rowid, for the anchors that end with a question and have a visible reply. */
export async function replies(
  search: SearchRepo,
  filter: MemoryFilter,
  anchors: readonly number[],
): Promise<Map<number, number>> {
  const pairs = await search.replies(filter, anchors, REPLY_WINDOW_MS);
  return new Map(pairs.filter((p) => isQuestion(p.text)).map((p) => [p.question, p.reply]));
}
