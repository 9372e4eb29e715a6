// Per-user token namespaces for the FTS5 index: every word a memory is indexed under carries its
// owner's fixed-width prefix, so each user has doclists of their own. A search then reads only
// the user's postings (cost independent of other users' data) and BM25 weighs terms by the
// user's own corpus. Index and query sides tokenise with this one function.

import { words } from "../keyword-words";

const WIDTH = 7;

/** "u" + the owner number in base 36, zero-padded: fixed width, so no prefix is a prefix of another. */
export function ownerPrefix(ownerId: number): string {
  return `u${ownerId.toString(36).padStart(WIDTH, "0")}`;
}

/** The text FTS5 indexes for a memory: each word prefixed with its owner's namespace. */
export function ownedText(ownerId: number, text: string): string {
  const prefix = ownerPrefix(ownerId);
  return words(text)
    .map((w) => prefix + w)
    .join(" ");
}
