// Reads the imports of source files for the architecture rules: static imports and re-exports, side-effect
// imports, dynamic import() and require(), each resolved (relative or "~/") to the file it names in src/.
import { dirname, join, normalize } from "node:path";

/** Source files by their path inside src/ ("memory/memory.service.ts"), with their text. */
export type Sources = Map<string, string>;

export interface Import {
  /** The importing file, inside src/. */
  from: string;
  /** As written. */
  spec: string;
  /** The file it names inside src/ (with ".ts"), "../…" outside src/, or null for a package. */
  target: string | null;
  /** Only types cross (erased at build time): `import type`, `export type`, or every name marked `type`. */
  typeOnly: boolean;
  kind: "static" | "side-effect" | "dynamic" | "require";
}

/** Comments hold example imports and SQL in prose; they are not code. Strings keep their "//" (URLs). */
export function stripComments(text: string): string {
  return text.replace(/^\s*\/\*[\s\S]*?\*\//gm, "").replace(/^\s*\/\/.*$/gm, "");
}

const STATIC = /^\s*(?:import|export)\s+(type\s+)?([^;'"]*?)\s*from\s*["']([^"']+)["']/gm;
const SIDE_EFFECT = /^\s*import\s*["']([^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;
const REQUIRE = /\brequire\(\s*["']([^"']+)["']\s*\)/g;

/** `{ type A, type B }` brings only types even without `import type`. */
const onlyTypeNames = (clause: string) => {
  const names = /^\{([^}]*)\}$/.exec(clause.trim())?.[1];
  if (names === undefined) return false;
  const items = names
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length > 0 && items.every((s) => s.startsWith("type "));
};

export function importsOf(from: string, text: string, sources: Sources): Import[] {
  const code = stripComments(text);
  const out: Import[] = [];
  const add = (spec: string, kind: Import["kind"], typeOnly = false) =>
    out.push({ from, spec, target: resolve(from, spec, sources), typeOnly, kind });
  for (const m of code.matchAll(STATIC)) add(m[3]!, "static", !!m[1] || onlyTypeNames(m[2]!));
  for (const m of code.matchAll(SIDE_EFFECT)) add(m[1]!, "side-effect");
  for (const m of code.matchAll(DYNAMIC)) add(m[1]!, "dynamic");
  for (const m of code.matchAll(REQUIRE)) add(m[1]!, "require");
  return out;
}

/** "~/x/y" and "./y" to the file in src/ they name (y.ts, y/index.ts, or as written); null for a package. */
export function resolve(from: string, spec: string, sources: Sources): string | null {
  let path: string;
  if (spec.startsWith("~/")) path = spec.slice(2);
  else if (spec.startsWith(".")) path = normalize(join(dirname(from), spec));
  else return null;
  path = path.replace(/\.(ts|js)$/, "");
  for (const candidate of [`${path}.ts`, `${path}/index.ts`]) if (sources.has(candidate)) return candidate;
  return path;
}

/** The module a file of src/ belongs to: its top folder, or the file itself at the top ("main"). */
export const moduleOf = (path: string): string =>
  path.startsWith("..") ? "<outside src>" : path.includes("/") ? path.split("/")[0]! : path.replace(/\.(d\.)?ts$/, "");

export const allImports = (sources: Sources): Import[] =>
  [...sources].flatMap(([path, text]) => importsOf(path, text, sources));
