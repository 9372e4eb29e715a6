// Text made well-formed where it comes in: a lone UTF-16 surrogate cannot be stored as UTF-8, so
// SQLite kept U+FFFD while answers echoed the original. Replacing it up front stores and answers the same.

/** `value` with every string (object keys included) well-formed; returns `value` itself when nothing changes. */
export function wellFormed<T>(value: T): T {
  if (typeof value === "string") return (value.isWellFormed() ? value : value.toWellFormed()) as T;
  if (Array.isArray(value)) {
    const items = value.map(wellFormed);
    return (items.some((v, i) => v !== value[i]) ? items : value) as T;
  }
  if (value === null || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const entries = Object.entries(value);
  const fixed = entries.map(([k, v]) => [wellFormed(k), wellFormed(v)] as const);
  const changed = fixed.some(([k, v], i) => k !== entries[i]![0] || v !== entries[i]![1]);
  return (changed ? Object.fromEntries(fixed) : value) as T;
}

/** Whether JSON text may hold a lone surrogate: only a \uD800–\uDFFF escape can put one there. */
export const mayHoldLoneSurrogate = (json: string): boolean => /\\u[dD][89a-fA-F]/.test(json);
