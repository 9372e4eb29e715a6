// `engram --help`, generated from the settings table so flags and docs cannot drift apart.
import { SETTINGS } from "~/config/config.schema";

export const COMMANDS: [string, string][] = [
  ["serve", "Serve the HTTP API and MCP at /mcp (default command)"],
  ["mcp", "Speak MCP over stdio (for clients that spawn a process)"],
  ["build-model", "Build the built-in embedding model into the models folder"],
  ["reindex", "Re-embed memories that lack a vector of the current model; --graph: rebuild the Neo4j mirror"],
  ["version", "Print the version"],
];

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
    const flag = s.flag ? `--${s.flag}${s.kind === "bool" ? "" : "="}` : "";
    lines.push(`  ${flag.padEnd(34)}${(s.env ?? "").padEnd(26)}${s.description}`);
  }
  lines.push("", "Precedence: programmatic options > flags > environment > defaults.");
  return lines.join("\n");
}
