// `engram enforce [--org <org>]`: retention enforcement (SPEC §5.4) as a schedule runs it — every
// organization of the store under its own policies, or one — from one cron job on one machine, with no key
// per organization. Servers may keep running on the store: the same enforcement asked of several processes
// at once runs once. One JSON line per organization on stdout.
import type { Config } from "~/config/config.schema";
import type { EnforcementResult } from "~/governance/operations.schema";
import { buildServices, loggerFor } from "~/main";
import { EXIT } from "./exit-codes";

export const ENFORCE_USAGE = "usage: engram enforce [--org <org>] [--store-url=…]";

export interface EnforceArgs {
  org?: string;
  /** What is left for the shared settings (--store-url, --log-level, …). */
  rest: string[];
}

/** Takes `--org X` / `--org=X` out of argv. */
export function parseEnforceArgs(argv: string[]): EnforceArgs | string {
  const rest: string[] = [];
  let org: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--org" || a.startsWith("--org=")) {
      org = a.includes("=") ? a.slice(a.indexOf("=") + 1) : argv[++i];
      if (!org) return "--org needs a value";
    } else if (a.startsWith("-")) rest.push(a);
    else return `unexpected argument '${a}'`;
  }
  return { ...(org ? { org } : {}), rest };
}

export async function enforceCommand(config: Config, a: EnforceArgs): Promise<number> {
  // Enforcement deletes and archives rows; it embeds and searches nothing: no model, no search workers.
  const s = await buildServices({ ...config, searchWorkers: 0 }, { embedder: null, logger: loggerFor(config) });
  try {
    const results: Record<string, EnforcementResult> = a.org
      ? { [a.org]: await s.governance.enforce({ scope: { organizationId: a.org } }, a.org) }
      : await s.governance.enforcer.enforceEveryOrganization();
    for (const [organization, result] of Object.entries(results))
      console.log(JSON.stringify({ organization, ...result }));
    return EXIT.OK;
  } finally {
    await s.close();
  }
}
