// Usage: bun scripts/check-artifacts.ts   (after `bun run build --all`)
// Checks every dist/engram-<os>-<arch> statically: `file` says its format and architecture, and the
// native files inside are its own platform's — each platform's sqlite-vec file and ONNX Runtime
// binding and library is looked for, byte for byte, in every artifact: present in its own, absent from
// the others, and `file` confirms the architecture of what is present. A macOS binary's code signature
// must match every page (macOS kills it otherwise). Exits 1 on any mismatch.
import { existsSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { artifactName, ortFiles, TARGETS, vecFile, type Target } from "./build-targets";
import { signatureProblem } from "./macho-sign";

const ROOT = resolve(import.meta.dir, "..");

/** What `file` says about a shared library of the target. */
const LIBRARY: Record<string, RegExp> = {
  "linux-x64": /ELF 64-bit LSB shared object, x86-64/,
  "linux-arm64": /ELF 64-bit LSB shared object, ARM aarch64/,
  "darwin-arm64": /Mach-O 64-bit arm64 dynamically linked shared library/,
  "darwin-x64": /Mach-O 64-bit x86_64 dynamically linked shared library/,
  "windows-x64": /PE32\+ executable \(DLL\) .*x86-64/,
};

const fileType = (path: string): string => Bun.spawnSync(["file", "-b", path]).stdout.toString().trim();

/** Whether `needle`'s bytes are inside `hay`: a slice from its middle is searched, then the whole is compared. */
function contains(hay: Buffer, needle: Buffer): boolean {
  const at = Math.floor(needle.length / 2);
  const probe = needle.subarray(at, at + Math.min(256 * 1024, needle.length - at));
  for (let i = hay.indexOf(probe); i >= 0; i = hay.indexOf(probe, i + 1)) {
    const start = i - at;
    if (start >= 0 && hay.subarray(start, start + needle.length).equals(needle)) return true;
  }
  return false;
}

interface Native {
  owner: Target;
  path: string;
  bytes: Buffer;
}

async function natives(): Promise<Native[]> {
  const all: Native[] = [];
  for (const t of TARGETS) {
    const paths = [await vecFile(ROOT, t), ...(ortFiles(ROOT, t)?.files.map((f) => f.abs) ?? [])];
    for (const path of paths) all.push({ owner: t, path, bytes: readFileSync(path) });
  }
  return all;
}

const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

const candidates = await natives();
for (const t of TARGETS) {
  const artifact = join(ROOT, "dist", artifactName(t));
  if (!existsSync(artifact)) {
    check(false, `${artifactName(t)} exists`);
    continue;
  }
  const type = fileType(artifact);
  check(t.file.test(type), `${artifactName(t)}: ${type}`);
  const bytes = readFileSync(artifact);
  if (t.os === "darwin") {
    const problem = signatureProblem(bytes);
    check(!problem, `${artifactName(t)}: ad-hoc code signature ${problem ?? "matches every page"}`);
  }
  for (const n of candidates) {
    const inside = contains(bytes, n.bytes);
    const own = n.owner.id === t.id;
    const name = relative(ROOT, n.path);
    if (own) check(inside && LIBRARY[t.id]!.test(fileType(n.path)), `${artifactName(t)} carries ${name} (${t.id})`);
    else if (inside) check(false, `${artifactName(t)} also carries ${n.owner.id}'s ${name}`);
  }
}
if (failures.length) {
  console.error(`${failures.length} check(s) failed`);
  process.exit(1);
}
console.log("every artifact has its platform's format and native files");
