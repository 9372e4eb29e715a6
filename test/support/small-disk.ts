// A real, small filesystem for disk-full tests: a tmpfs of a few MB mounted on a fresh folder (needs
// root). When it cannot be mounted, `reason` says why and the tests that need it skip, printing it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type SmallDisk = { dir: string; unmount(): void } | { dir: null; reason: string };

export function mountSmallDisk(megabytes: number): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), "engram-small-disk-"));
  const r = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", `size=${megabytes}m`, "tmpfs", dir], { stderr: "pipe" });
  if (r.exitCode !== 0) {
    rmSync(dir, { recursive: true, force: true });
    const why = r.stderr.toString().trim() || `exit code ${r.exitCode}`;
    return {
      dir: null,
      reason: `cannot mount a ${megabytes} MB tmpfs (${why}); run the tests as root to cover a real full disk`,
    };
  }
  return {
    dir,
    unmount() {
      Bun.spawnSync(["umount", dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
