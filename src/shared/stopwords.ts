// The words a keyword query leaves out: one list for the query's meaningful terms (search/) and for
// every engine's keyword index (store/), so the two never disagree about what a query asks for.

const STOPWORDS = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its " +
    "me my no not of on or our she so than that the their them then there these they this to too us was we were what when " +
    "where which who whom why will with would you your yours about after all am any because before being both each few " +
    "further here just more most nor now off once only other out over own same should some such through under until up very " +
    "while again against below between down during above"
  ).split(" "),
);

/** True for the (lower-case) words a keyword query leaves out. */
export const isStopword = (word: string): boolean => STOPWORDS.has(word);
