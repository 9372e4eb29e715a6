// The five platforms the binary is built for, and where each one's native files come from:
// sqlite-vec's platform package (installed for every platform into a scratch folder, never into the
// project's node_modules) and onnxruntime-node's own per-platform folders.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface Target {
  /** `<os>-<arch>` as in the artifact's name. */
  id: string;
  /** process.platform / process.arch of the machine that runs it. */
  os: "linux" | "darwin" | "win32";
  cpu: "x64" | "arm64";
  /** Bun's compile target. */
  bun: string;
  /** What `file` says about the artifact: its format and architecture. */
  file: RegExp;
}

export const TARGETS: Target[] = [
  { id: "linux-x64", os: "linux", cpu: "x64", bun: "bun-linux-x64", file: /ELF 64-bit LSB .*x86-64/ },
  { id: "linux-arm64", os: "linux", cpu: "arm64", bun: "bun-linux-arm64", file: /ELF 64-bit LSB .*ARM aarch64/ },
  { id: "darwin-arm64", os: "darwin", cpu: "arm64", bun: "bun-darwin-arm64", file: /Mach-O 64-bit arm64 executable/ },
  { id: "darwin-x64", os: "darwin", cpu: "x64", bun: "bun-darwin-x64", file: /Mach-O 64-bit x86_64 executable/ },
  { id: "windows-x64", os: "win32", cpu: "x64", bun: "bun-windows-x64", file: /PE32\+ executable \(console\) x86-64/ },
];

export const hostTarget = (): Target | undefined =>
  TARGETS.find((t) => t.os === process.platform && t.cpu === process.arch);

/** The artifact's file name in dist/. */
export const artifactName = (t: Target): string => `engram-${t.id}${t.os === "win32" ? ".exe" : ""}`;

/** sqlite-vec's naming: its package sqlite-vec-<linux|darwin|windows>-<arch> holds vec0.<so|dylib|dll>. */
export function vecPackage(t: Target): { pkg: string; file: string } {
  const os = t.os === "win32" ? "windows" : t.os;
  const ext = t.os === "win32" ? "dll" : t.os === "darwin" ? "dylib" : "so";
  return { pkg: `sqlite-vec-${os}-${t.cpu}`, file: `vec0.${ext}` };
}

const version = (root: string, pkg: string): string =>
  (JSON.parse(readFileSync(join(root, "node_modules", pkg, "package.json"), "utf8")) as { version: string }).version;

/**
 * The target's sqlite-vec loadable file. The platform packages are optional dependencies, so
 * `bun install` fetched only this machine's: the others are installed once, for every platform
 * (`--os='*' --cpu='*'`), into `.cache/platform-packages/sqlite-vec-<version>` (ignored by git).
 */
export async function vecFile(root: string, t: Target): Promise<string> {
  const { pkg, file } = vecPackage(t);
  const local = join(root, "node_modules", pkg, file);
  if (existsSync(local)) return local;
  const v = version(root, "sqlite-vec");
  const dir = join(root, ".cache", "platform-packages", `sqlite-vec-${v}`);
  const found = join(dir, "node_modules", pkg, file);
  if (existsSync(found)) return found;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true, dependencies: { "sqlite-vec": v } }));
  const p = Bun.spawnSync(["bun", "install", "--os=*", "--cpu=*", "--no-save", "--ignore-scripts"], {
    cwd: dir,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (!existsSync(found))
    throw new Error(`could not install ${pkg}@${v} for ${t.id} (bun install: ${p.stderr.toString().trim()})`);
  return found;
}

/** The files each platform's ONNX Runtime binding needs beside it (DirectML and its compilers are never loaded on CPU). */
const ORT_LIBRARY: Record<Target["os"], string> = {
  linux: "libonnxruntime.so.1",
  darwin: "libonnxruntime.1.dylib",
  win32: "onnxruntime.dll",
};

export interface OrtFiles {
  files: { abs: string; name: string }[];
  binding: string;
}

/**
 * The target's ONNX Runtime binding and library from onnxruntime-node, which ships every platform in
 * one package — except darwin-x64: Microsoft stopped building it after 1.23 (null then).
 */
export function ortFiles(root: string, t: Target): OrtFiles | null {
  const pkg = join(root, "node_modules", "onnxruntime-node");
  const napi = (JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")) as { binary: { napi_versions: number[] } })
    .binary.napi_versions[0];
  const dir = join(pkg, "bin", `napi-v${napi}`, t.os, t.cpu);
  const names = ["onnxruntime_binding.node", ORT_LIBRARY[t.os]];
  if (!names.every((n) => existsSync(join(dir, n)))) return null;
  return { files: names.map((name) => ({ abs: join(dir, name), name })), binding: "onnxruntime_binding.node" };
}
