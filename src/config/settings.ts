// The settings table as data, walked from ConfigSchema: one entry per leaf setting (a dotted key),
// how a string from the environment or a flag becomes its value, and the one check every source's
// value goes through (environment, flag or programmatic option alike).
import { OptionalKind, type TObject, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { ConfigSchema, type SettingMeta } from "./config.schema";

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

export interface Setting extends SettingMeta {
  /** Dotted path into Config, e.g. "auth.apiKeys". */
  key: string;
  schema: TSchema;
  default?: unknown;
}

function walk(object: TObject, prefix = ""): Setting[] {
  return Object.entries(object.properties).flatMap(([name, schema]): Setting[] => {
    const key = prefix + name;
    if (schema.type === "object") return walk(schema as TObject, `${key}.`);
    const { description, env, flag, computeDefault, defaultText } = schema as TSchema & SettingMeta;
    return [{ key, schema, description, env, flag, computeDefault, defaultText, default: schema.default }];
  });
}

export const SETTINGS: readonly Setting[] = walk(ConfigSchema);

export const settingOf = (key: string): Setting | undefined => SETTINGS.find((s) => s.key === key);

export const isOptional = (s: Setting): boolean => OptionalKind in s.schema;

/** What a setting accepts, in words (error messages and --help). */
export function accepted(s: Setting): string {
  const t = s.schema;
  if (t.anyOf) return (t.anyOf as { const: string }[]).map((v) => v.const).join(", ");
  switch (t.type) {
    case "integer":
      return `an integer from ${t.minimum} to ${t.maximum}`;
    case "number":
      return `a number from ${t.minimum} to ${t.maximum}`;
    case "boolean":
      return "true or false";
    case "array":
      return "a comma-separated list";
    default:
      return "a non-empty string";
  }
}

/** The flag's placeholder in --help and in "needs a value" messages. */
export const valueName = (s: Setting): string =>
  s.schema.anyOf
    ? "level"
    : s.schema.type === "integer"
      ? "int"
      : s.schema.type === "array"
        ? "list"
        : String(s.schema.type);

const show = (v: unknown) => (typeof v === "string" ? `'${v}'` : JSON.stringify(v));

/** The checked value, or a ConfigError naming `source` (an env var, a --flag or an option path). */
export function checked(s: Setting, value: unknown, source: string, raw: unknown = value): unknown {
  if (!Value.Check(s.schema, value))
    throw new ConfigError(`${source}: invalid value ${show(raw)}; expected ${accepted(s)}`);
  return value;
}

/** A value from the environment or a flag: text turned into the setting's type, then checked. */
export function fromText(s: Setting, raw: string, source: string): unknown {
  return checked(s, parseText(s, raw), source, raw);
}

function parseText(s: Setting, raw: string): unknown {
  switch (s.schema.type) {
    case "boolean":
      if (/^(true|1|yes|on)$/i.test(raw)) return true;
      if (/^(false|0|no|off)$/i.test(raw)) return false;
      return raw;
    case "integer":
    case "number":
      return raw.trim() === "" ? Number.NaN : Number(raw);
    case "array":
      return raw
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean);
    default:
      return raw;
  }
}
