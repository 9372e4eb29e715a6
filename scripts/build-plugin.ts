// The bundler plugin of `bun run build`, per target: swaps the modules that name native files and the
// model for ones that embed them, and patches the two dependencies that load code by computed paths.
import { join } from "node:path";
import type { BunPlugin } from "bun";
import type { OrtFiles } from "./build-targets";

/** Matches a source file by its path relative to the repository, whatever the separator. */
const sourceFile = (rel: string) => new RegExp(`${rel.split("/").map(escapeRe).join("[\\\\/]")}$`);
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export interface Embedded {
  root: string;
  model: { files: { abs: string; rel: string }[]; sha256: string };
  vec: { abs: string; name: string };
  /** null: this platform has no ONNX Runtime build; `why` says so at run time. */
  ort: (OrtFiles & { key: string }) | null;
  why?: string;
}

const fileImport = (name: string, abs: string) => `import ${name} from ${JSON.stringify(abs)} with { type: "file" };`;

function modelModule(e: Embedded): string {
  const { files, sha256 } = e.model;
  return [
    `import { installEmbeddedModel } from ${JSON.stringify(join(e.root, "src/search/model/embedded-model.ts"))};`,
    ...files.map((f, i) => fileImport(`f${i}`, f.abs)),
    `const files = { ${files.map((f, i) => `${JSON.stringify(f.rel)}: f${i}`).join(", ")} };`,
    `export const installBuiltinModel = (modelsDir) => installEmbeddedModel(modelsDir, files, ${JSON.stringify(sha256)});`,
  ].join("\n");
}

function ortModule(e: Embedded): string {
  if (!e.ort) return `export const EMBEDDED_ORT = { unavailable: ${JSON.stringify(e.why ?? "no ONNX Runtime")} };`;
  const { files, binding, key } = e.ort;
  return [
    ...files.map((f, i) => fileImport(`o${i}`, f.abs)),
    `export const EMBEDDED_ORT = { files: [${files.map((f, i) => `{ path: o${i}, name: ${JSON.stringify(f.name)} }`).join(", ")}],`,
    `  binding: ${JSON.stringify(binding)}, key: ${JSON.stringify(key)} };`,
  ].join("\n");
}

const vecModule = (e: Embedded) =>
  [
    fileImport("vec", e.vec.abs),
    `export const EMBEDDED_VEC = { path: vec, name: ${JSON.stringify(e.vec.name)} };`,
  ].join("\n");

/** Replaces `from` in a dependency's source, or fails the build if the dependency changed shape. */
async function patch(path: string, from: RegExp | string, to: string, what: string): Promise<string> {
  const src = await Bun.file(path).text();
  const patched = src.replace(from, to);
  if (patched === src) throw new Error(`${what} changed shape; update scripts/build-plugin.ts`);
  return patched;
}

export function binaryPlugin(e: Embedded): BunPlugin {
  return {
    name: "engram-binary",
    setup(build) {
      const ts = (contents: string) => ({ contents, loader: "ts" as const });
      build.onLoad({ filter: sourceFile("src/search/model/builtin-model.ts") }, () => ts(modelModule(e)));
      build.onLoad({ filter: sourceFile("src/search/ort-native-files.ts") }, () => ts(ortModule(e)));
      build.onLoad({ filter: sourceFile("src/store/sqlite/vec-native-file.ts") }, () => ts(vecModule(e)));
      // onnxruntime-node requires its binding by a computed relative path; in the binary the binding is
      // written to a real folder first (src/search/onnx-runtime.ts) and handed over through a global.
      build.onLoad({ filter: sourceFile("onnxruntime-node/dist/binding.js") }, async (args) => ({
        contents: await patch(
          args.path,
          /require\(`\.\.\/bin\/napi-v\d+\/[^`]*onnxruntime_binding\.node`\)/,
          "globalThis.__engramOrtBinding",
          "onnxruntime-node's binding.js",
        ),
        loader: "js",
      }));
      // transformers.js loads onnxruntime-node through createRequire, which the bundler cannot see: make it static.
      build.onLoad({ filter: sourceFile("@huggingface/transformers/dist/transformers.node.mjs") }, async (args) => ({
        contents: await patch(
          args.path,
          'var onnx_node_default = requireFromHere("onnxruntime-node");',
          'import __engramOrtNode from "onnxruntime-node";\nvar onnx_node_default = __engramOrtNode;',
          "transformers.js's loading of onnxruntime-node",
        ),
        loader: "js",
      }));
      // Image decoding is never used; sharp's native addon cannot be bundled.
      build.onResolve({ filter: /^sharp$/ }, () => ({ path: "sharp-stub", namespace: "engram-stub" }));
      build.onLoad({ filter: /.*/, namespace: "engram-stub" }, () => ({
        contents: "export default function sharp() { throw new Error('image input is not supported'); }",
        loader: "js",
      }));
    },
  };
}
