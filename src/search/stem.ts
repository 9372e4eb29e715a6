// Word stems as the keyword index makes them (FTS5's `porter unicode61 remove_diacritics 2`): the only
// importer of `stemmer`, the same Porter (1980) algorithm as SQLite's, which agrees with the index on
// 5,387 of LoCoMo's 5,388 distinct words (the other has a diacritic, which `fold` removes first).
import { stemmer } from "stemmer";

/** Lower case without diacritics ("Café" → "cafe"), like unicode61 with remove_diacritics. */
export const fold = (word: string): string =>
  word
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();

/** The index term of one word (FTS5's porter leaves tokens shorter than 3 characters alone). */
export const stem = (word: string): string => {
  const folded = fold(word);
  return folded.length < 3 ? folded : stemmer(folded);
};
