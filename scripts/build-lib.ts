// Usage: bun run build:lib   (also npm's prepack, so `npm pack` and `npm publish` ship a fresh build)
// Builds what the package gives runtimes other than Bun: dist/lib/client.js, src/client.ts bundled
// into one ESM file that imports nothing (Node ≥ 20, browsers, any bundler), and dist/lib/types/,
// its declarations with every `~/` alias and extensionless path rewritten to a relative `.js` one
// (what TypeScript's node16/nodenext/bundler resolution of an ESM package needs). Bun itself loads
// src/index.ts (package.json's `bun` condition). Fails if the output imports anything or keeps an alias.
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const SRC = join(ROOT, "src");
export const LIB = join(ROOT, "dist", "lib");
const TYPES = join(LIB, "types");

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]));

/** src/client.ts as one ESM file in `outdir`; throws if it would import anything. Returns its path. */
export async function bundleClient(outdir = LIB): Promise<string> {
  const out = await Bun.build({
    entrypoints: [join(SRC, "client.ts")],
    outdir,
    naming: "client.js",
    target: "browser",
    format: "esm",
    // Kept as imports (and so refused below) rather than replaced by a browser shim.
    external: ["node:*", "bun:*", "bun"],
    // Readable: a user debugging a call steps through this file.
    minify: false,
  });
  if (!out.success) throw new AggregateError(out.logs, "bundling src/client.ts failed");
  const file = join(outdir, "client.js");
  const imports = readFileSync(file, "utf8").match(/^\s*(import|export)\b.*\bfrom\b.*$|\brequire\(|\bimport\(/gm);
  if (imports) throw new Error(`the client bundle must import nothing, found: ${imports.join(" | ")}`);
  return file;
}

function declarations(): void {
  const tsc = Bun.spawnSync(["bun", join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.lib.json"], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (tsc.exitCode !== 0) throw new Error(`tsc -p tsconfig.lib.json failed:\n${tsc.stdout}${tsc.stderr}`);
  for (const file of files(TYPES).filter((f) => f.endsWith(".d.ts"))) {
    const text = readFileSync(file, "utf8");
    const fixed = text.replace(/(\bfrom\s+|\bimport\s*\(\s*)(["'])((?:\.{1,2}\/|~\/)[^"']*)\2/g, (_, lead, q, spec) => {
      return `${lead}${q}${specifier(file, spec)}${q}`;
    });
    if (/["']~\//.test(fixed)) throw new Error(`${relative(ROOT, file)} keeps a ~/ path alias`);
    writeFileSync(file, fixed);
  }
}

/** `~/memory/x` or `./x` as seen from `file`: a relative path to the emitted `x.js` or `x/index.js`. */
function specifier(file: string, spec: string): string {
  const target = spec.startsWith("~/") ? join(TYPES, spec.slice(2)) : resolve(dirname(file), spec);
  const base = target.replace(/\.(js|ts)$/, "");
  const resolved = existsSync(`${base}.d.ts`)
    ? `${base}.js`
    : existsSync(join(base, "index.d.ts"))
      ? join(base, "index.js")
      : null;
  if (!resolved) throw new Error(`${relative(ROOT, file)}: cannot resolve '${spec}'`);
  const rel = relative(dirname(file), resolved);
  return rel.startsWith(".") ? rel : `./${rel}`;
}

export async function buildLib(): Promise<void> {
  rmSync(LIB, { recursive: true, force: true });
  await bundleClient();
  declarations();
}

if (import.meta.main) {
  const t0 = performance.now();
  await buildLib();
  const size = statSync(join(LIB, "client.js")).size;
  const types = files(TYPES).length;
  console.log(
    `dist/lib/client.js (${(size / 1024).toFixed(0)} KB, no imports) and ${types} declaration files in dist/lib/types ` +
      `(${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
}
