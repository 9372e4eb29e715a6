// A value made at its first use, not at import: the fact patterns' and the graph extractor's expressions
// (facts/fact-grammar.ts, graph/extract-rules.ts) took ~35 ms of every start compiled at import.

/** `make()`'s value, made at the first call and kept for the later ones. */
export function lazy<T extends object>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
