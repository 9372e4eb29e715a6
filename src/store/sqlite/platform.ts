// What the store can use on this platform: which SQLite library (macOS: Apple's cannot load
// extensions, Homebrew's can) and, per connection, which vector index (sqlite-vec or the portable one).

/** ENGRAM_VECTOR_INDEX: the same values as the setting (config/config.schema.ts). */
export type VectorIndexChoice = "auto" | "sqlite-vec" | "portable";

/** The two vector indexes of the SQLite store (vector-indexes.ts). */
export type VectorIndexKind = "sqlite-vec" | "portable";

export type VectorSupport =
  /** `version`: vec_version() */
  | { index: "sqlite-vec"; version: string }
  /** `why`: why not sqlite-vec */
  | { index: "portable"; why: string };

export interface SqliteLibrary {
  /** A custom library that replaced Bun's default, or null. */
  path: string | null;
  note: string;
}

/** Homebrew's libsqlite3: Apple-silicon prefix first, then Intel's. */
export const HOMEBREW_SQLITE = [
  "/opt/homebrew/opt/sqlite/lib/libsqlite3.dylib",
  "/usr/local/opt/sqlite/lib/libsqlite3.dylib",
];

/** The libraries to try, in order: the setting alone when given, else Homebrew's; none off macOS. */
export function sqliteLibraryCandidates(platform: NodeJS.Platform, setting: string | undefined): string[] {
  if (platform !== "darwin") return [];
  return setting ? [setting] : HOMEBREW_SQLITE;
}
