// The shape limits of a JSON body (SPEC §2.1), checked on the raw text before JSON.parse and any
// schema validation: 50,000 nested brackets once took a validator 5–17 s and blocked every request.

export const MAX_JSON_DEPTH = 64;
export const MAX_JSON_ARRAY_ITEMS = 10_000;

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;
const SHARED_ITEMS = new Int32Array(MAX_JSON_DEPTH + 1);

/**
 * Why `text` breaks a limit, or null. One pass over the characters with a stack as deep as the limit:
 * linear in the length, whatever the nesting. Malformed JSON is left for JSON.parse to report.
 */
export function jsonShapeProblem(
  text: string,
  maxDepth = MAX_JSON_DEPTH,
  maxItems = MAX_JSON_ARRAY_ITEMS,
): string | null {
  // Fewer characters than the limits cannot break them (each level needs a bracket, each element a comma).
  if (text.length <= maxDepth && text.length <= maxItems) return null;
  // items[d] = elements seen so far in the array open at depth d (-1 for an object); one buffer reused.
  const items = maxDepth === MAX_JSON_DEPTH ? SHARED_ITEMS : new Int32Array(maxDepth + 1);
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) continue;
    // The first element of an array starts at its first character that is not a space or the closing bracket.
    if (depth > 0 && items[depth] === 0 && c !== CLOSE_ARRAY) items[depth] = 1;
    if (c === QUOTE) i = endOfString(text, i);
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > maxDepth) return `JSON nests deeper than ${maxDepth} levels`;
      items[depth] = c === OPEN_ARRAY ? 0 : -1;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      if (depth > 0) depth--;
    } else if (c === COMMA && depth > 0 && items[depth]! > 0 && ++items[depth]! > maxItems)
      return `a JSON array has more than ${maxItems} elements`;
  }
  return null;
}

/** Index of the closing quote of the string opening at `start` (or the end of the text). */
function endOfString(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const q = text.indexOf('"', i);
    if (q < 0) return text.length;
    let slashes = 0;
    for (let j = q - 1; j > start && text.charCodeAt(j) === BACKSLASH; j--) slashes++;
    if (slashes % 2 === 0) return q;
    i = q + 1;
  }
}
