#!/usr/bin/env bun
// The command line: argv → command. `bun start` and the compiled binary both enter here.
import { ConfigError, loadConfig } from "~/config/load-config";
import { AppError } from "~/shared/errors";
import { StoreFileError } from "~/main";
import { VERSION } from "~/version";
import { EXIT } from "./exit-codes";
import { COMMANDS, helpText } from "./help";
import { serve } from "./serve";
import { buildModel, reindex } from "./maintenance";
import { check, repair } from "./store-commands";
import { IMPORT_USAGE, importCommand, parseImportArgs } from "./import";
import { doctor } from "./doctor";
import { KEYS_USAGE, keysCommand, parseKeysArgs } from "./keys";
import { MIGRATE_STORE_USAGE, migrateStoreCommand, parseMigrateStoreArgs } from "./migrate-store";
import { models } from "./models";
import { ENFORCE_USAGE, enforceCommand, parseEnforceArgs } from "./enforce";

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  const command = first && !first.startsWith("-") ? first : "serve";
  const args = first && !first.startsWith("-") ? rest : argv;
  if (args.includes("--help") || args.includes("-h") || command === "help") {
    console.log(helpText(VERSION));
    return EXIT.OK;
  }
  if (args.includes("--version") || command === "version") {
    console.log(VERSION);
    return EXIT.OK;
  }
  if (!COMMANDS.some(([c]) => c === command)) {
    console.error(`engram: unknown command '${command}' (commands: ${COMMANDS.map(([c]) => c).join(", ")})`);
    return EXIT.USAGE;
  }
  // Command-specific switches are taken out before the shared settings are parsed.
  const switches = new Set([
    ...(command === "reindex" ? ["--graph"] : []),
    ...(command === "repair" ? ["--force"] : []),
    ...(command === "doctor" ? ["--json"] : []),
  ]);
  const graph = command === "reindex" && args.includes("--graph");
  const imported = command === "import" ? parseImportArgs(args) : null;
  if (typeof imported === "string") {
    console.error(`engram import: ${imported}\n${IMPORT_USAGE}`);
    return EXIT.USAGE;
  }
  const migration = command === "migrate-store" ? parseMigrateStoreArgs(args) : null;
  if (typeof migration === "string") {
    console.error(`engram migrate-store: ${migration}\n${MIGRATE_STORE_USAGE}`);
    return EXIT.USAGE;
  }
  const json = command === "doctor" && args.includes("--json");
  const keys = command === "keys" ? parseKeysArgs(args) : null;
  if (typeof keys === "string") {
    console.error(`engram keys: ${keys}\n${KEYS_USAGE}`);
    return EXIT.USAGE;
  }
  const enforcing = command === "enforce" ? parseEnforceArgs(args) : null;
  if (typeof enforcing === "string") {
    console.error(`engram enforce: ${enforcing}\n${ENFORCE_USAGE}`);
    return EXIT.USAGE;
  }
  // `models pull <id>`: the words before the flags are the command's own.
  const words = command === "models" ? args.filter((a) => !a.startsWith("-")) : [];
  try {
    const argv =
      imported?.rest ??
      keys?.rest ??
      migration?.rest ??
      enforcing?.rest ??
      args.filter((a) => !switches.has(a) && !words.includes(a));
    const config = loadConfig({ argv, env: process.env });
    switch (command) {
      case "serve":
        return await serve(config);
      case "mcp":
        // Loaded on demand: the MCP SDK (and zod) cost ~10 ms and ~8 MB of start-up that `serve` does not need.
        return await (await import("./mcp")).mcp(config);
      case "build-model":
        return await buildModel(config);
      case "reindex":
        return await reindex(config, { graph });
      case "check":
        return await check(config);
      case "repair":
        return await repair(config, { force: args.includes("--force") });
      case "import":
        return await importCommand(config, imported!);
      case "migrate-store":
        return await migrateStoreCommand(config, migration!);
      case "doctor":
        return await doctor(config, { json });
      case "keys":
        return await keysCommand(config, keys!);
      case "models":
        return await models(config, words);
      case "enforce":
        return await enforceCommand(config, enforcing!);
      default:
        console.error(`engram: '${command}' is not yet available in this build`);
        return EXIT.USAGE;
    }
  } catch (e) {
    if (e instanceof StoreFileError) {
      console.error(`engram: ${e.message}`);
      return e.problem === "foreign" ? EXIT.USAGE : EXIT.DAMAGED;
    }
    if (e instanceof ConfigError || (e instanceof AppError && e.code === "VALIDATION_ERROR")) {
      console.error(`engram: ${e.message}`);
      return EXIT.USAGE;
    }
    console.error(`engram: ${(e as Error).message}`);
    return EXIT.FAILURE;
  }
}

const code = await main(process.argv.slice(2));
process.exit(code);
