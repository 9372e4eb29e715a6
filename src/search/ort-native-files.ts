// The ONNX Runtime native files embedded in the compiled binary. From source there are none
// (onnxruntime-node loads its binding from node_modules); scripts/build.ts swaps this module
// for one that embeds the target platform's binding, its shared library and their build-time checksum.
import type { EmbeddedFile } from "~/shared/native-files";

export type EmbeddedOrt =
  /** `binding` is one of `files`: the N-API module to require; the others must sit beside it. */
  | { files: EmbeddedFile[]; binding: string; key: string }
  /** A binary for a platform ONNX Runtime has no build for: why, for the model's load error. */
  | { unavailable: string };

export const EMBEDDED_ORT: EmbeddedOrt | null = null as EmbeddedOrt | null;
