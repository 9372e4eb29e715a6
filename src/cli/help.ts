// `engram --help`, generated from the config schema so flags, defaults and docs cannot drift apart.
import { SETTINGS, type Setting } from "~/config/settings";

export const COMMANDS: [string, string][] = [
  ["serve", "Serve the HTTP API and MCP at /mcp (default command)"],
  ["mcp", "Speak MCP over stdio (for clients that spawn a process)"],
  ["build-model", "Build the built-in embedding model into the models folder"],
  ["models", "models pull <owner/name>: download a transformers.js model (int8 when the hub has it), resumable"],
  ["reindex", "Re-embed memories that lack a vector of the current model; --graph: rebuild the Neo4j mirror"],
  ["check", "Check the store's integrity without changing its content (exit 0 sound, 3 damaged)"],
  [
    "repair",
    "Rebuild a damaged store from what is readable, keeping the damaged files beside it; --force: a sound one too",
  ],
  [
    "import",
    "--from openmemory FILE: import an OpenMemory export (zip, memories.json, .jsonl.gz) or mem0's get_all JSON",
  ],
  [
    "migrate-store",
    "--from URL --to URL: copy a whole store between SQLite and PostgreSQL, verified row by row; --replace: overwrite a non-empty target",
  ],
  ["doctor", "Check this machine: platform, SQLite, vector index, model, store; --json for a report"],
  [
    "keys",
    "create --org O --role admin|member|reader [--user U] [--agent A] [--name N] [--expires 90d] | list [--org O] | revoke ID: identity keys",
  ],
  [
    "enforce",
    "[--org O]: run retention enforcement now, every organization under its own policies (or one); for a cron job",
  ],
  ["version", "Print the version"],
];

/** The description with its default, when there is one worth saying. */
function described(s: Setting): string {
  const d = s.defaultText ?? (Array.isArray(s.default) || s.default === undefined ? undefined : String(s.default));
  return d === undefined ? s.description : `${s.description} (default ${d})`;
}

export function helpText(version: string): string {
  const lines = [
    `engram ${version} — shared memory server for AI tools`,
    "",
    "Usage: engram [command] [--flag=value …]",
    "",
    "Commands:",
  ];
  for (const [c, d] of COMMANDS) lines.push(`  ${c.padEnd(14)}${d}`);
  lines.push("", "Settings (flag / environment variable):");
  for (const s of SETTINGS) {
    if (!s.flag && !s.env) continue;
    const flag = s.flag ? `--${s.flag}${s.schema.type === "boolean" ? "" : "="}` : "";
    lines.push(`  ${flag.padEnd(34)}${(s.env ?? "").padEnd(26)}${described(s)}`);
  }
  lines.push(
    "",
    "Precedence: programmatic options > flags > environment > defaults.",
    "Programmatic options (createServer, createEngram) take every setting by its path, e.g. { auth: { enabled: true } }.",
  );
  return lines.join("\n");
}
