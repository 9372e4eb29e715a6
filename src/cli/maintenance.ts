// `engram build-model` and `engram reindex`: one-shot maintenance commands.
import type { Config } from "~/config/config.schema";
import { buildServices } from "~/main";
import { installBuiltinModel } from "~/search/model/builtin-model";
import { readValidManifest } from "~/search/model/build-glove-sif";
import { EXIT } from "./exit-codes";

/** Builds (from source) or unpacks (binary) the built-in model into the models folder. */
export async function buildModel(config: Config): Promise<number> {
  const t0 = performance.now();
  const dir = await installBuiltinModel(config.modelsDir);
  const manifest = readValidManifest(dir);
  console.log(
    `engram/glove-sif ready in ${dir} (sha256 ${manifest?.sha256}, ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
  return EXIT.OK;
}

/**
 * Embeds every memory that has no vector of the configured model (e.g. after changing
 * EMBEDDING_MODEL); with `graph`, rebuilds the Neo4j mirror from the SQLite graph instead.
 */
export async function reindex(config: Config, opts: { graph?: boolean } = {}): Promise<number> {
  const engine = await buildServices(config);
  try {
    if (opts.graph) {
      const stats = await engine.graph.rebuildMirror();
      console.log(
        `rebuilt the Neo4j graph: ${stats.users} users, ${stats.entities} entities, ${stats.relationships} relationships, ${stats.mentions} mentions`,
      );
      return EXIT.OK;
    }
    const status = engine.search.status();
    if (status.semantic !== "ready") {
      console.error(
        `engram: cannot reindex: embedding model ${status.model ?? "none"} is ${status.semantic}${status.error ? ` (${status.error})` : ""}`,
      );
      return EXIT.FAILURE;
    }
    const n = await engine.search.reembedMissing();
    console.log(`re-embedded ${n} memories with ${status.model}`);
    return EXIT.OK;
  } finally {
    await engine.close();
  }
}
