// The words of a text as keyword search sees them, and the words it leaves out of a query: one
// tokenisation for every engine's keyword index (SQLite's FTS5, PostgreSQL's full-text search).

/** Letters (with combining marks) and digits: the runs FTS5's unicode61 tokenizer keeps as tokens. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

export const words = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

const STOPWORDS = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its " +
    "me my no not of on or our she so than that the their them then there these they this to too us was we were what when " +
    "where which who whom why will with would you your yours about after all am any because before being both each few " +
    "further here just more most nor now off once only other out over own same should some such through under until up very " +
    "while again against below between down during above"
  ).split(" "),
);

/** True for the (lower-case) words the keyword query leaves out. */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** At most this many words of a query are searched for. */
export const MAX_TERMS = 32;
