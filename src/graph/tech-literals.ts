// What a technology's name must contain, as plain lower-case text, for any of its aliases to match: a
// sentence that holds none of these is not scanned with the technology's expression at all.

/**
 * The literal start of each alternative of an alias source ("vs ?code" → "vs", "c\\+\\+" → "c++"), lower
 * case; null when an alternative starts with no literal (nothing can then be ruled out).
 */
export function aliasLiterals(aliases: string): string[] | null {
  const out: string[] = [];
  for (const alt of aliases.split("|")) {
    const lit = literalStart(alt);
    if (!lit) return null;
    out.push(lit.toLowerCase());
  }
  return out;
}

function literalStart(source: string): string {
  let lit = "";
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\") {
      const next = source[i + 1];
      if (next === undefined || /[\w]/.test(next)) return lit; // \b, \d, \s…: a class, not a character
      lit += next;
      i++;
    } else if (c === "?" || c === "*" || c === "{")
      return lit.slice(0, -1); // the last character may be absent
    else if ("+()[]^$.".includes(c)) return lit;
    else lit += c;
  }
  return lit;
}
