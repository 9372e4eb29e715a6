// Prepares ONNX Runtime before transformers.js loads it: telemetry off for real (Bun's writes to the
// JS environment never reach native getenv, so the C library is called through FFI), and in the
// compiled binary the native binding is written to a real folder and loaded from there.
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
    if ("unavailable" in EMBEDDED_ORT) throw new Error(EMBEDDED_ORT.unavailable);
    // The binding finds its shared library beside itself ($ORIGIN, @loader_path, the DLL's folder).
    const dir = await materialiseTogether(EMBEDDED_ORT.files, join(nativeCacheDir, "native"), EMBEDDED_ORT.key);
    // scripts/build.ts rewrites onnxruntime-node's binding.js to take the binding from here.
    (globalThis as { __engramOrtBinding?: unknown }).__engramOrtBinding = createRequire(import.meta.url)(
      join(dir, EMBEDDED_ORT.binding),
    );
  })();
  return prepared;
}

const NUL = (s: string) => Buffer.from(`${s}\0`);

/** Sets a variable in the process environment that native code reads (getenv / GetEnvironmentVariable). */
function setNativeEnv(name: string, value: string): void {
  try {
    if (process.platform === "win32") {
      const k32 = dlopen("kernel32.dll", {
        SetEnvironmentVariableA: { args: [FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
      });
      const [n, v] = [NUL(name), NUL(value)];
      k32.symbols.SetEnvironmentVariableA(ptr(n), ptr(v));
      return k32.close();
    }
    const libc = dlopen(process.platform === "darwin" ? "/usr/lib/libSystem.B.dylib" : "libc.so.6", {
      setenv: { args: [FFIType.ptr, FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
    });
    const [n, v] = [NUL(name), NUL(value)];
    libc.symbols.setenv(ptr(n), ptr(v), 1);
    libc.close();
  } catch {
    // Not glibc (e.g. musl): the JS-side variable is all we can do.
  }
}
