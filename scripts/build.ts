// Usage: bun run build            (→ dist/engram, one self-contained Linux x64 binary)
// Builds the built-in model, then compiles src/cli/index.ts with everything embedded: JS,
// migrations, sqlite-vec, the ONNX Runtime binding and library, and the model files.
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import type { BunPlugin } from "bun";
import { buildGloveSif, readValidManifest } from "~/search/model/build-glove-sif";

const ROOT = resolve(import.meta.dir, "..");
const MODEL_DIR = join(ROOT, "dist", "models", "engram", "glove-sif");
const OUT = join(ROOT, "dist", "engram");

const t0 = performance.now();
const manifest = readValidManifest(MODEL_DIR) ?? (await buildGloveSif({ outDir: MODEL_DIR }));
console.log(`model engram/glove-sif sha256 ${manifest.sha256}`);

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]));
// Not the local `.verified` stamp: it describes this folder's mtimes, not the unpacked copy's.
const modelFiles = files(MODEL_DIR)
  .map((abs) => ({ abs, rel: relative(MODEL_DIR, abs) }))
  .filter((f) => !f.rel.split("/").some((part) => part.startsWith(".")));

/** The compiled binary carries the model folder and unpacks it instead of building it. */
const embeddedModel = [
  `import { installEmbeddedModel } from ${JSON.stringify(join(ROOT, "src/search/model/embedded-model.ts"))};`,
  ...modelFiles.map((f, i) => `import f${i} from ${JSON.stringify(f.abs)} with { type: "file" };`),
  `const files = { ${modelFiles.map((f, i) => `${JSON.stringify(f.rel)}: f${i}`).join(", ")} };`,
  `export const installBuiltinModel = (modelsDir) => installEmbeddedModel(modelsDir, files, ${JSON.stringify(manifest.sha256)});`,
].join("\n");

const ORT_DIR = join(ROOT, "node_modules/onnxruntime-node/bin/napi-v6/linux/x64");
const ortHash = new Bun.CryptoHasher("sha256");
for (const f of ["onnxruntime_binding.node", "libonnxruntime.so.1"])
  ortHash.update(f).update(new Uint8Array(await Bun.file(join(ORT_DIR, f)).arrayBuffer()));
const embeddedOrt = [
  `import binding from ${JSON.stringify(join(ORT_DIR, "onnxruntime_binding.node"))} with { type: "file" };`,
  `import library from ${JSON.stringify(join(ORT_DIR, "libonnxruntime.so.1"))} with { type: "file" };`,
  `export const EMBEDDED_ORT = { binding, library, key: ${JSON.stringify(ortHash.digest("hex"))} };`,
].join("\n");

const plugin: BunPlugin = {
  name: "engram-binary",
  setup(build) {
    build.onLoad({ filter: /src\/search\/model\/builtin-model\.ts$/ }, () => ({
      contents: embeddedModel,
      loader: "ts",
    }));
    build.onLoad({ filter: /src\/search\/ort-native-files\.ts$/ }, () => ({ contents: embeddedOrt, loader: "ts" }));
    // onnxruntime-node requires its binding by a computed relative path; in the binary the binding is
    // written to a real folder first (src/search/onnx-runtime.ts) and handed over through a global.
    build.onLoad({ filter: /onnxruntime-node\/dist\/binding\.js$/ }, async (args) => {
      const src = await Bun.file(args.path).text();
      const patched = src.replace(
        /require\(`\.\.\/bin\/napi-v\d+\/[^`]*onnxruntime_binding\.node`\)/,
        "globalThis.__engramOrtBinding",
      );
      if (patched === src) throw new Error("onnxruntime-node binding.js changed shape; update scripts/build.ts");
      return { contents: patched, loader: "js" };
    });
    // transformers.js loads onnxruntime-node through createRequire, which the bundler cannot see: make it static.
    build.onLoad({ filter: /@huggingface\/transformers\/dist\/transformers\.node\.mjs$/ }, async (args) => {
      const src = await Bun.file(args.path).text();
      const patched = src.replace(
        'var onnx_node_default = requireFromHere("onnxruntime-node");',
        'import __engramOrtNode from "onnxruntime-node";\nvar onnx_node_default = __engramOrtNode;',
      );
      if (patched === src)
        throw new Error("transformers.js no longer loads onnxruntime-node as expected; update scripts/build.ts");
      return { contents: patched, loader: "js" };
    });
    // Image decoding is never used; sharp's native addon cannot be bundled.
    build.onResolve({ filter: /^sharp$/ }, () => ({ path: "sharp-stub", namespace: "engram-stub" }));
    build.onLoad({ filter: /.*/, namespace: "engram-stub" }, () => ({
      contents: "export default function sharp() { throw new Error('image input is not supported'); }",
      loader: "js",
    }));
  },
};

mkdirSync(join(ROOT, "dist"), { recursive: true });
const result = await Bun.build({
  // The search worker is its own entry point: a compiled binary only carries the workers it lists.
  entrypoints: [join(ROOT, "src/cli/index.ts"), join(ROOT, "src/rank-worker.ts")],
  compile: { outfile: OUT, target: "bun-linux-x64" },
  minify: true,
  // Precompiled JavaScriptCore bytecode: the binary skips parsing its ~5 MB of JS at every start
  // (`engram --version` 100 → 40 ms). ESM keeps the top-level await of the CLI entry.
  bytecode: true,
  format: "esm",
  sourcemap: "none",
  plugins: [plugin],
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
const mb = (statSync(OUT).size / 1048576).toFixed(1);
console.log(`built ${relative(ROOT, OUT)} (${mb} MB) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
writeFileSync(
  join(ROOT, "dist", "BUILD-INFO.json"),
  JSON.stringify({ sha256: manifest.sha256, bytes: statSync(OUT).size, builtAt: new Date().toISOString() }, null, 2),
);
