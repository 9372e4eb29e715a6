// The words of a text as keyword search sees them, and the words it leaves out of a query: one
// tokenisation for every engine's keyword index (SQLite's FTS5, PostgreSQL's full-text search).
import { isStopword } from "~/shared/stopwords";

/** Letters (with combining marks) and digits: the runs FTS5's unicode61 tokenizer keeps as tokens. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

export const words = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

export { isStopword };

/** At most this many words of a query are searched for. */
export const MAX_TERMS = 32;
