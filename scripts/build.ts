// Usage: bun run build                          (→ dist/engram, this machine's binary)
//        bun run build --all                    (→ dist/engram-<os>-<arch>[.exe] for all five + dist/SHA256SUMS)
//        bun run build --target=linux-arm64[,…] (→ dist/engram-linux-arm64, …)
// Builds the built-in model, then compiles src/cli/index.ts with everything embedded: JS, migrations,
// the model files and the target platform's native files (sqlite-vec, the ONNX Runtime binding and library).
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { buildGloveSif, readValidManifest } from "~/search/model/build-glove-sif";
import { binaryPlugin, type Embedded } from "./build-plugin";
import { artifactName, hostTarget, ortFiles, TARGETS, vecFile, vecPackage, type Target } from "./build-targets";
import { adhocSign, signatureProblem } from "./macho-sign";

const ROOT = resolve(import.meta.dir, "..");
const DIST = join(ROOT, "dist");
const MODEL_DIR = join(DIST, "models", "engram", "glove-sif");

/** The targets asked for; `dist/engram` (no platform in the name) when none is. */
function chosenTargets(argv: string[]): { targets: Target[]; named: boolean } {
  if (argv.includes("--all")) return { targets: TARGETS, named: true };
  const arg = argv.find((a) => a.startsWith("--target="));
  if (arg) {
    const ids = arg.slice("--target=".length).split(",");
    const unknown = ids.filter((id) => !TARGETS.some((t) => t.id === id));
    if (unknown.length) throw new Error(`unknown target ${unknown.join(", ")}; one of ${TARGETS.map((t) => t.id)}`);
    return { targets: TARGETS.filter((t) => ids.includes(t.id)), named: true };
  }
  const host = hostTarget();
  if (!host) throw new Error(`no binary target for ${process.platform}-${process.arch}; use --target=<os-arch>`);
  return { targets: [host], named: false };
}

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]));

async function sha256(paths: string[], names: string[]): Promise<string> {
  const h = new Bun.CryptoHasher("sha256");
  for (const [i, p] of paths.entries()) h.update(names[i]!).update(new Uint8Array(await Bun.file(p).arrayBuffer()));
  return h.digest("hex");
}

async function embedded(t: Target, model: Embedded["model"]): Promise<Embedded> {
  const ort = ortFiles(ROOT, t);
  const vec = { abs: await vecFile(ROOT, t), name: vecPackage(t).file };
  if (!ort)
    return {
      root: ROOT,
      model,
      vec,
      ort: null,
      why: `ONNX Runtime publishes no build for ${t.id} (onnxruntime-node stopped at 1.23); set EMBEDDING_API_KEY for a remote embedder`,
    };
  const key = await sha256(
    ort.files.map((f) => f.abs),
    ort.files.map((f) => f.name),
  );
  return { root: ROOT, model, vec, ort: { ...ort, key } };
}

async function compile(t: Target, outfile: string, e: Embedded): Promise<void> {
  const result = await Bun.build({
    // Each worker (search, word list) is its own entry point, listed so that the binary carries it whether or not
    // the bundler follows the `new URL(…, import.meta.url)` that names it.
    entrypoints: [join(ROOT, "src/cli/index.ts"), join(ROOT, "src/rank-worker.ts"), join(ROOT, "src/words-worker.ts")],
    compile: { outfile, target: t.bun as Bun.Build.CompileTarget },
    minify: true,
    // Precompiled JavaScriptCore bytecode: the binary skips parsing its ~5 MB of JS at every start
    // (`engram --version` 100 → 40 ms). ESM keeps the top-level await of the CLI entry.
    bytecode: true,
    format: "esm",
    sourcemap: "none",
    plugins: [binaryPlugin(e)],
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error(`build for ${t.id} failed`);
  }
  if (t.os === "darwin") resign(outfile);
}

/** macOS kills a binary whose pages fail their signature's hashes; Bun leaves darwin-x64's stale (macho-sign.ts). */
function resign(file: string): void {
  const bytes = readFileSync(file);
  const problem = signatureProblem(bytes);
  if (!problem) return;
  writeFileSync(file, adhocSign(bytes, "engram"));
  console.log(`  signed ${relative(ROOT, file)} ad hoc (Bun's signature: ${problem})`);
}

const t0 = performance.now();
const { targets, named } = chosenTargets(process.argv.slice(2));
const manifest = readValidManifest(MODEL_DIR) ?? (await buildGloveSif({ outDir: MODEL_DIR }));
console.log(`model engram/glove-sif sha256 ${manifest.sha256}`);
// Not the local `.verified` stamp: it describes this folder's mtimes, not the unpacked copy's.
const model = {
  sha256: manifest.sha256,
  files: files(MODEL_DIR)
    .map((abs) => ({ abs, rel: relative(MODEL_DIR, abs) }))
    .filter((f) => !f.rel.split("/").some((part) => part.startsWith("."))),
};
mkdirSync(DIST, { recursive: true });
const built: { target: string; file: string; bytes: number; sha256: string; onnxRuntime: boolean }[] = [];
for (const t of targets) {
  const started = performance.now();
  const out = join(DIST, named ? artifactName(t) : "engram");
  const e = await embedded(t, model);
  await compile(t, out, e);
  const digest = new Bun.CryptoHasher("sha256").update(new Uint8Array(await Bun.file(out).arrayBuffer())).digest("hex");
  built.push({
    target: t.id,
    file: relative(DIST, out),
    bytes: statSync(out).size,
    sha256: digest,
    onnxRuntime: !!e.ort,
  });
  const mb = (statSync(out).size / 1048576).toFixed(1);
  console.log(`built ${relative(ROOT, out)} (${mb} MB) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (e.why) console.log(`  note: ${e.why}`);
}
// dist/engram is always this machine's binary: the README, the bench and the tests run it.
const host = built.find((b) => b.target === hostTarget()?.id);
if (named && host) copyFileSync(join(DIST, host.file), join(DIST, "engram"));
if (targets === TARGETS) writeFileSync(join(DIST, "SHA256SUMS"), built.map((b) => `${b.sha256}  ${b.file}\n`).join(""));
writeFileSync(
  join(DIST, "BUILD-INFO.json"),
  JSON.stringify({ model: manifest.sha256, binaries: built, builtAt: new Date().toISOString() }, null, 2),
);
console.log(`done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
