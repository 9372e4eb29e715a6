// Prepares ONNX Runtime before transformers.js loads it: telemetry off for real (Bun's
// writes to the JS environment never reach native getenv under Bun, so libc setenv is called through FFI), and in
// the compiled binary the native binding is written to a real folder and loaded from there.
import { dlopen, FFIType, ptr } from "bun:ffi";
import { createRequire } from "node:module";
import { join } from "node:path";
import { materialiseTogether } from "~/shared/native-files";
import { EMBEDDED_ORT } from "./ort-native-files";

let prepared: Promise<void> | undefined;

/** Idempotent; must run before the first import of @huggingface/transformers. */
export function prepareOnnxRuntime(nativeCacheDir: string): Promise<void> {
  prepared ??= (async () => {
    setNativeEnv("ORT_DISABLE_TELEMETRY", "1");
    if (!EMBEDDED_ORT) return;
    // RUNPATH of the binding is $ORIGIN: the shared library must sit beside it.
    const files = [
      { path: EMBEDDED_ORT.binding, name: "onnxruntime_binding.node" },
      { path: EMBEDDED_ORT.library, name: "libonnxruntime.so.1" },
    ];
    const dir = await materialiseTogether(files, join(nativeCacheDir, "native"), EMBEDDED_ORT.key);
    // scripts/build.ts rewrites onnxruntime-node's binding.js to take the binding from here.
    (globalThis as { __engramOrtBinding?: unknown }).__engramOrtBinding = createRequire(import.meta.url)(
      join(dir, "onnxruntime_binding.node"),
    );
  })();
  return prepared;
}

function setNativeEnv(name: string, value: string): void {
  try {
    const libc = dlopen("libc.so.6", {
      setenv: { args: [FFIType.ptr, FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
    });
    const name0 = Buffer.from(`${name}\0`);
    const value0 = Buffer.from(`${value}\0`);
    libc.symbols.setenv(ptr(name0), ptr(value0), 1);
    libc.close();
  } catch {
    // Not glibc (e.g. musl): the JS-side variable is all we can do.
  }
}
