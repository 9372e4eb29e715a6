// Usage: bun scripts/smoke-platforms.ts   (after `bun run build --all`; scripts/ci/platforms.sh installs the tools)
// Runs scripts/smoke.ts on every binary that can run on a Linux x64 machine: linux-x64 natively,
// linux-arm64 under qemu user emulation, windows-x64 under Wine, and checks that `engram doctor` in each
// reports its own platform, sqlite-vec and a ready model. Prints size, cold start (spawn → first
// /health 200) and its ratio to linux-x64 in the same run. A missing tool is a skip that says why;
// a failed smoke is exit 1. Darwin binaries cannot run here: scripts/check-artifacts.ts checks them.
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { smoke, type SmokeOptions } from "./smoke";

const ROOT = resolve(import.meta.dir, "..");
const dist = (name: string) => join(ROOT, "dist", name);
const which = (cmd: string) => Bun.which(cmd) ?? undefined;
const scratch = mkdtempSync(join(tmpdir(), "engram-platforms-"));

/**
 * qemu-user 7.2 shows the guest the host's /proc/cpuinfo (x86 text), and ONNX Runtime's CPU detection
 * (cpuinfo) crashes on it while loading. qemu looks a guest's absolute paths up under its -L prefix
 * first: the prefix holds the arm64 libraries and the /proc/cpuinfo of a two-core Neoverse N1.
 */
function arm64Root(): string {
  const root = join(scratch, "arm64-root");
  mkdirSync(join(root, "proc"), { recursive: true });
  symlinkSync("/usr/aarch64-linux-gnu/lib", join(root, "lib"));
  const core = (n: number) =>
    [
      `processor\t: ${n}`,
      "Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp",
      "CPU implementer\t: 0x41",
      "CPU architecture: 8",
      "CPU variant\t: 0x3",
      "CPU part\t: 0xd0c",
      "CPU revision\t: 1",
      "",
    ].join("\n");
  writeFileSync(join(root, "proc", "cpuinfo"), `${core(0)}\n${core(1)}\n`);
  return root;
}

function arm64(): SmokeOptions | string {
  const qemu = which("qemu-aarch64-static") ?? which("qemu-aarch64");
  if (!qemu) return "no qemu-aarch64-static (Debian: qemu-user-static)";
  if (!existsSync("/usr/aarch64-linux-gnu/lib/libstdc++.so.6"))
    return "no arm64 C/C++ runtime (Debian: libc6-arm64-cross libstdc++6-arm64-cross)";
  return { launcher: [qemu, "-L", arm64Root()] };
}

const WINE_DLLS = "/usr/lib/x86_64-linux-gnu/wine/x86_64-windows";

/** Wine in a prefix of its own; on Wine 8, with a bcryptprimitives.dll of ours beside the binary (see its source). */
function windows(): SmokeOptions | string {
  const wine = [which("wine64"), "/usr/lib/wine/wine64", which("wine")].find((w) => w && existsSync(w));
  if (!wine) return "no Wine (Debian: wine64)";
  const prefix = join(scratch, "wineprefix");
  const env = { WINEPREFIX: prefix, WINEDEBUG: "-all" };
  const boot = Bun.spawnSync([wine, "wineboot", "--init"], { env: { ...process.env, ...env } });
  if (boot.exitCode !== 0) return `wineboot failed: ${boot.stderr.toString().trim()}`;
  const files: string[] = [];
  if (!existsSync(join(WINE_DLLS, "bcryptprimitives.dll"))) {
    const cc = which("x86_64-w64-mingw32-gcc");
    if (!cc)
      return "this Wine lacks bcryptprimitives.dll and no MinGW compiler builds ours (Debian: gcc-mingw-w64-x86-64)";
    const dll = join(scratch, "bcryptprimitives.dll");
    const src = join(ROOT, "scripts", "ci", "wine-bcryptprimitives.c");
    const built = Bun.spawnSync([cc, "-shared", "-O2", "-o", dll, src, "-ladvapi32"]);
    if (built.exitCode !== 0) throw new Error(`building ${src} failed: ${built.stderr}`);
    files.push(dll);
  }
  return { launcher: [wine], env, files, stopSignal: "SIGINT" };
}

interface Row {
  target: string;
  mb: number;
  coldStartMs?: number;
  coldReadyMs?: number;
  ratioToX64?: number;
  skipped?: string;
}

const rows: Row[] = [];
let x64Ms = 0;
try {
  for (const [target, file, options] of [
    ["linux-x64", "engram-linux-x64", {}],
    ["linux-arm64", "engram-linux-arm64", arm64()],
    ["windows-x64", "engram-windows-x64.exe", windows()],
  ] as const) {
    const mb = Number((statSync(dist(file)).size / 1048576).toFixed(1));
    if (typeof options === "string") {
      console.log(`skip ${target}: ${options}`);
      rows.push({ target, mb, skipped: options });
      continue;
    }
    const r = await smoke(dist(file), options);
    const d = r.doctor;
    const reported = `${d.platform.os === "win32" ? "windows" : d.platform.os}-${d.platform.arch}`;
    if (reported !== target || !d.platform.binary || d.vectorIndex.inUse !== "sqlite-vec" || d.model.state !== "ready")
      throw new Error(`${target}: engram doctor reports ${JSON.stringify(d)}`);
    if (target === "linux-x64") x64Ms = r.coldStartMs;
    const ms = (n: number) => Math.round(n);
    rows.push({
      target,
      mb,
      coldStartMs: ms(r.coldStartMs),
      coldReadyMs: ms(r.coldReadyMs),
      ratioToX64: Number((r.coldStartMs / x64Ms).toFixed(1)),
    });
    console.log(
      `ok   ${target}: healthy, found "${r.found}" by paraphrase, clean exit; doctor: ${reported}, sqlite-vec, model ready`,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.table(rows);
