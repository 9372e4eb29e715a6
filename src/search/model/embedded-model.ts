// Unpacks a model folder embedded in the compiled binary into the models cache, atomically,
// unless a valid copy with the same checksum is already there.
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { GLOVE_SIF_MODEL_ID, readValidManifest } from "./build-glove-sif";
import { installFolder } from "./install-folder";

/** files: relative path inside the model folder → embedded file path. */
export function installEmbeddedModel(
  modelsDir: string,
  files: Record<string, string>,
  sha256: string,
): Promise<string> {
  const unpack = async (tmp: string) => {
    for (const [rel, path] of Object.entries(files)) {
      mkdirSync(dirname(join(tmp, rel)), { recursive: true });
      await Bun.write(join(tmp, rel), Bun.file(path)); // file to file: no copy on the JS heap
    }
  };
  return installFolder(join(modelsDir, GLOVE_SIF_MODEL_ID), unpack, (dir) => readValidManifest(dir)?.sha256 === sha256);
}
