// The ONNX Runtime native files embedded in the compiled binary. From source there are none
// (onnxruntime-node loads its binding from node_modules); scripts/build.ts swaps this module
// for one that embeds the binding, its shared library and their build-time checksum.
export const EMBEDDED_ORT: { binding: string; library: string; key: string } | null = null;
