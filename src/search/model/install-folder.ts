// Puts a model folder in place atomically: fill a temporary sibling, verify it, rename it over
// the target. Concurrent starts (threads or processes) never see a half-written folder: the
// first rename wins and the others discard theirs.
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export async function installFolder(
  target: string,
  fill: (tmp: string) => Promise<void>,
  isCurrent: (dir: string) => boolean,
): Promise<string> {
  if (isCurrent(target)) return target;
  const parent = dirname(target);
  mkdirSync(parent, { recursive: true });
  const tmp = join(
    parent,
    `.${basename(target)}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`,
  );
  try {
    await fill(tmp);
    // Verifying the fresh copy also records it as verified, for cheap checks at later starts.
    if (!isCurrent(tmp)) throw new Error(`the new copy of ${target} failed verification`);
    if (isCurrent(target)) return target; // another process finished first
    if (existsSync(target)) {
      // An outdated or broken copy: move it aside first (a directory rename cannot replace a non-empty one).
      try {
        renameSync(target, `${tmp}.stale`);
      } catch {
        // another process moved it first
      }
      rmSync(`${tmp}.stale`, { recursive: true, force: true });
    }
    try {
      renameSync(tmp, target);
    } catch (err) {
      if (!isCurrent(target)) throw err;
    }
    return target;
  } finally {
    discard(tmp);
  }
}

/**
 * Removes what is left of a temporary copy. After a successful rename nothing is left, and a removal
 * that fails (Wine answered EFAULT for a path that was renamed away) must not fail an install that
 * succeeded: a leftover temporary folder is only disk space, named so the next install ignores it.
 */
function discard(tmp: string): void {
  if (!existsSync(tmp)) return;
  try {
    rmSync(tmp, { recursive: true, force: true });
  } catch {
    // left for the next install's parent folder clean-up by hand; never the model in use
  }
}
