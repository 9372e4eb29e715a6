// Unpacks a model folder embedded in the compiled binary into the models cache, atomically
// (temp folder, then rename), unless a valid copy with the same checksum is already there.
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { GLOVE_SIF_MODEL_ID, readValidManifest } from "./build-glove-sif";

/** files: relative path inside the model folder → embedded file path. */
export async function installEmbeddedModel(modelsDir: string, files: Record<string, string>, sha256: string): Promise<string> {
  const target = join(modelsDir, GLOVE_SIF_MODEL_ID);
  if (readValidManifest(target)?.sha256 === sha256) return target;
  const parent = dirname(target);
  mkdirSync(parent, { recursive: true });
  const tmp = join(parent, `.glove-sif.${process.pid}.${Date.now()}.unpack`);
  try {
    for (const [rel, path] of Object.entries(files)) {
      mkdirSync(dirname(join(tmp, rel)), { recursive: true });
      await Bun.write(join(tmp, rel), Bun.file(path)); // file to file: no copy on the JS heap
    }
    // Hashed once here, which also records the files as verified: later starts only compare sizes and mtimes.
    if (readValidManifest(tmp)?.sha256 !== sha256) throw new Error("the model embedded in this binary is corrupt");
    if (readValidManifest(target)?.sha256 === sha256) return target;
    if (existsSync(target)) {
      const stale = `${tmp}.stale`;
      try {
        renameSync(target, stale);
      } catch {
        // another process moved it first
      }
      rmSync(stale, { recursive: true, force: true });
    }
    try {
      renameSync(tmp, target);
    } catch (err) {
      if (readValidManifest(target)?.sha256 !== sha256) throw err;
    }
    return target;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
