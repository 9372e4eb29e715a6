// `engram keys create|list|revoke` (SPEC §8): the operator's administration of identity keys, on the
// store named by --store-url / STORE_URL, also while servers run on it (a revocation applies at their
// next request). The new key is the only line on stdout, so scripts can capture it.
import type { Config } from "~/config/config.schema";
import { openKeys } from "~/main";
import { AppError } from "~/shared/errors";
import { ROLES, isRole } from "~/shared/principal";
import type { KeyView } from "~/identity/keys.schema";
import { EXIT } from "./exit-codes";

export const KEYS_USAGE = [
  "usage: engram keys create --org <org> --role <admin|member|reader> [--user <user_id>] [--agent <agent_id>]",
  "                          [--name <label>] [--expires <duration, e.g. 90d>] [--store-url=…]",
  "       engram keys list [--org <org>] [--store-url=…]",
  "       engram keys revoke <key id> [--store-url=…]",
].join("\n");

const VALUE_SWITCHES = ["org", "role", "user", "agent", "name", "expires"] as const;
type Switch = (typeof VALUE_SWITCHES)[number];

export interface KeysArgs {
  action: "create" | "list" | "revoke";
  values: Partial<Record<Switch, string>>;
  id?: string;
  /** What is left for the shared settings (--store-url, --log-level, …). */
  rest: string[];
}

/** Takes the command's own arguments out of argv: `--org X` or `--org=X` for each switch, and the key id. */
export function parseKeysArgs(argv: string[]): KeysArgs | string {
  const [action, ...args] = argv;
  if (action !== "create" && action !== "list" && action !== "revoke")
    return "the first word must be create, list or revoke";
  const values: Partial<Record<Switch, string>> = {};
  const rest: string[] = [];
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const name = VALUE_SWITCHES.find((s) => a === `--${s}` || a.startsWith(`--${s}=`));
    if (name) {
      const value = a.includes("=") ? a.slice(a.indexOf("=") + 1) : args[++i];
      if (value === undefined || value === "") return `--${name} needs a value`;
      values[name] = value;
    } else if (a.startsWith("-")) rest.push(a);
    else words.push(a);
  }
  if (action === "revoke" && words.length !== 1) return "revoke takes one key id";
  if (action !== "revoke" && words.length) return `unexpected argument '${words[0]}'`;
  if (action === "create" && !values.org) return "--org is required";
  if (action === "create" && !isRole(values.role)) return `--role must be one of ${ROLES.join(", ")}`;
  return { action, values, ...(words[0] ? { id: words[0] } : {}), rest };
}

export async function keysCommand(config: Config, a: KeysArgs): Promise<number> {
  const { keys, close } = await openKeys(config);
  try {
    if (a.action === "create") return await create(keys, a.values);
    if (a.action === "list") return list((await keys.list(a.values.org)).keys);
    const org = await keys.orgOf(a.id!);
    if (org === null) {
      console.error(`engram: no key '${a.id}' in ${config.storePath}`);
      return EXIT.FAILURE;
    }
    const r = await keys.revoke(org, a.id!);
    console.log(`revoked key ${r.id} of organization ${org} at ${r.revoked_at}`);
    return EXIT.OK;
  } catch (e) {
    if (e instanceof AppError && e.code === "NOT_FOUND") {
      console.error(`engram: key '${a.id}' was revoked already`);
      return EXIT.FAILURE;
    }
    throw e;
  } finally {
    await close();
  }
}

async function create(keys: Awaited<ReturnType<typeof openKeys>>["keys"], v: KeysArgs["values"]): Promise<number> {
  const k = await keys.create(v.org!, {
    role: v.role as (typeof ROLES)[number],
    ...(v.user ? { user_id: v.user } : {}),
    ...(v.agent ? { agent_id: v.agent } : {}),
    ...(v.name ? { name: v.name } : {}),
    ...(v.expires ? { expires: v.expires } : {}),
  });
  console.log(k.key);
  console.error(
    `created key ${k.id}: organization ${k.org}, role ${k.role}, user ${k.user_id ?? "any"}, agent ${k.agent_id ?? "any"}, ` +
      `expires ${k.expires_at ?? "never"}. The key above is shown only this once: keep it now.`,
  );
  return EXIT.OK;
}

function list(rows: KeyView[]): number {
  const header = ["id", "org", "role", "user", "agent", "name", "created", "expires", "last used", "revoked"];
  const cells = rows.map((k) => [
    k.id,
    k.org,
    k.role,
    k.user_id ?? "-",
    k.agent_id ?? "-",
    k.name ?? "-",
    k.created_at,
    k.expires_at ?? "never",
    k.last_used_at ?? "never",
    k.revoked_at ?? "-",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  for (const line of [header, ...cells])
    console.log(
      line
        .map((c, i) => c.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    );
  return EXIT.OK;
}
