// Native files (sqlite-vec, ONNX Runtime) must be loaded from a real path. In the compiled
// binary they live in Bun's virtual filesystem, so they are written once into a
// content-hashed cache folder (temp file, then atomic rename: safe when several copies start).
import { chmodSync, mkdirSync, renameSync, existsSync, rmSync } from "node:fs";
import { join, basename } from "node:path";
import { userDirs } from "./user-dirs";

/** Bun's virtual filesystem: `/$bunfs/root/…` on Linux and macOS, `B:\~BUN\root\…` on Windows. */
export const isEmbedded = (path: string): boolean => path.startsWith("/$bunfs/") || path.includes("~BUN");

export const cacheRoot = (env: Record<string, string | undefined>): string => userDirs(env).cache;

/** A native file the binary carries: its virtual path and the name it must have on disk. */
export interface EmbeddedFile {
  path: string;
  name: string;
}

/**
 * Returns a real filesystem path for `path`: itself when it already is one, else a copy in
 * `<cacheDir>/<hash>/<name>` (the name is kept: sqlite derives the init symbol from it).
 */
export async function materialise(path: string, cacheDir: string, name = basename(path)): Promise<string> {
  if (!isEmbedded(path)) return path;
  const key = new Bun.CryptoHasher("sha256").update(await Bun.file(path).arrayBuffer()).digest("hex");
  return join(await materialiseTogether([{ path, name }], cacheDir, key), name);
}

/**
 * Like materialise, for files that must sit side by side (a native module and the shared
 * library its RUNPATH $ORIGIN, @loader_path or DLL search points at): one folder named by their
 * combined checksum.
 */
export async function materialiseTogether(files: EmbeddedFile[], cacheDir: string, key: string): Promise<string> {
  // `key` is the files' checksum computed at build time: hashing 45 MB at every start would cost ~60 ms.
  const dir = join(cacheDir, key.slice(0, 16));
  mkdirSync(dir, { recursive: true });
  for (const f of files) {
    const target = join(dir, f.name);
    if (existsSync(target)) continue;
    const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
    // File to file: no 45 MB copy on the JS heap (it would stay in the RSS until a full GC).
    await Bun.write(tmp, Bun.file(f.path));
    chmodSync(tmp, 0o755);
    try {
      renameSync(tmp, target);
    } catch (e) {
      // Windows refuses to replace a file another process has loaded: that copy came first and is whole.
      rmSync(tmp, { force: true });
      if (!existsSync(target)) throw e;
    }
  }
  return dir;
}
