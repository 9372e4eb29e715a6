// Runs once before the test files: gives the run a temp folder of its own (removed at the end), and
// makes sure the built-in engram/glove-sif model exists in the models cache (ENGRAM_MODELS_DIR, else
// $XDG_CACHE_HOME/engram/models), building it on a fresh machine.
import "./temp-root";
import { join } from "node:path";
import { cacheRoot } from "~/shared/native-files.ts";
import { ensureBuiltinModel } from "~/search/model/build-glove-sif.ts";

/** The models folder the tests use, computed the way the server's default is. */
export const testModelsDir = process.env.ENGRAM_MODELS_DIR || join(cacheRoot(process.env), "models");

/** `<testModelsDir>/engram/glove-sif`, ready to load. */
export const builtinModelDir = await ensureBuiltinModel(testModelsDir);

// With ENGRAM_TEST_STORE=postgres the run's PostgreSQL starts here, before any test's timeout runs.
if (process.env.ENGRAM_TEST_STORE === "postgres") await (await import("./postgres")).testPostgres();
