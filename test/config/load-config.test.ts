import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig, resolveStorePath } from "~/config/load-config";
import { isOptional, SETTINGS } from "~/config/settings";

const env = { HOME: "/home/u" };

describe("loadConfig", () => {
  test("defaults follow SPEC §1.1", () => {
    const c = loadConfig({ env });
    expect(c).toMatchObject({
      storeUrl: "sqlite:///home/u/.local/share/engram/engram.db",
      storePath: "/home/u/.local/share/engram/engram.db",
      port: 3000,
      host: "127.0.0.1",
      logLevel: "info",
      auth: { enabled: false, apiKeys: [] },
      orgId: "default",
      maxBodyBytes: 1048576,
      embedding: { model: "engram/glove-sif" },
      modelsDir: "/home/u/.cache/engram/models",
      factExtraction: { enabled: false, minConfidence: 0.7 },
    });
  });

  test("programmatic options beat flags, flags beat environment", () => {
    const c = loadConfig({
      env: { ...env, MCP_PORT: "4000", MCP_LOG_LEVEL: "warn" },
      argv: ["--port=5000"],
      options: { port: 6000 },
    });
    expect(c.port).toBe(6000);
    expect(c.logLevel).toBe("warn");
    expect(loadConfig({ env: { ...env, MCP_PORT: "4000" }, argv: ["--port=5000"] }).port).toBe(5000);
    expect(loadConfig({ env: { ...env, MCP_PORT: "4000" } }).port).toBe(4000);
  });

  test("XDG_DATA_HOME places the default store", () => {
    expect(loadConfig({ env: { ...env, XDG_DATA_HOME: "/data" } }).storePath).toBe("/data/engram/engram.db");
  });

  test("several API keys may be given comma-separated", () => {
    const c = loadConfig({ env: { ...env, MCP_AUTH_ENABLED: "true", MCP_API_KEY: "a, b,c" } });
    expect(c.auth).toEqual({ enabled: true, apiKeys: ["a", "b", "c"] });
    expect(loadConfig({ env, argv: ["--auth", "--api-key=k"] }).auth).toEqual({ enabled: true, apiKeys: ["k"] });
  });

  const bad: [string, Parameters<typeof loadConfig>[0], string][] = [
    [
      "a bad log level",
      { env: { ...env, MCP_LOG_LEVEL: "loud" } },
      "MCP_LOG_LEVEL: invalid value 'loud'; expected debug, info, warn, error",
    ],
    [
      "a non-numeric port",
      { env, argv: ["--port=abc"] },
      "--port: invalid value 'abc'; expected an integer from 0 to 65535",
    ],
    [
      "a port out of range",
      { env: { ...env, MCP_PORT: "70000" } },
      "MCP_PORT: invalid value '70000'; expected an integer from 0 to 65535",
    ],
    ["an unknown flag", { env, argv: ["--prot=1"] }, "unknown flag --prot (see --help)"],
    ["a flag without its value", { env, argv: ["--port"] }, "--port needs a value: --port=<int>"],
    [
      "an unknown store scheme",
      { env: { ...env, STORE_URL: "mysql://db/x" } },
      "STORE_URL: unsupported scheme in 'mysql://db/x'; use sqlite:///abs/path.db, sqlite://rel/path.db, sqlite::memory:, file:path, a bare path or postgres://user:pass@host:5432/db",
    ],
    [
      "a public host without auth",
      { env, argv: ["--host=0.0.0.0"] },
      "MCP_HOST: refusing to listen on non-loopback '0.0.0.0' without auth; enable --auth or pass --allow-remote-unauthenticated",
    ],
    [
      "a bad boolean",
      { env: { ...env, MCP_AUTH_ENABLED: "maybe" } },
      "MCP_AUTH_ENABLED: invalid value 'maybe'; expected true or false",
    ],
    [
      "a fact confidence above 1",
      { env: { ...env, MCP_FACT_MIN_CONFIDENCE: "1.5" } },
      "MCP_FACT_MIN_CONFIDENCE: invalid value '1.5'; expected a number from 0 to 1",
    ],
  ];
  for (const [name, input, message] of bad) {
    test(`rejects ${name} with one line naming the setting`, () => {
      expect(() => loadConfig(input)).toThrow(new ConfigError(message));
    });
  }

  test("a public host is allowed with auth or the explicit escape hatch", () => {
    expect(loadConfig({ env, argv: ["--host=0.0.0.0", "--auth", "--api-key=k"] }).host).toBe("0.0.0.0");
    expect(loadConfig({ env, argv: ["--host=0.0.0.0", "--allow-remote-unauthenticated"] }).host).toBe("0.0.0.0");
  });
});

describe("resolveStorePath", () => {
  test("accepts every documented form", () => {
    expect(resolveStorePath("sqlite:///abs/x.db")).toBe("/abs/x.db");
    expect(resolveStorePath("sqlite::memory:")).toBe(":memory:");
    expect(resolveStorePath("sqlite://rel/x.db")).toBe(`${process.cwd()}/rel/x.db`);
    expect(resolveStorePath("file:/abs/y.db")).toBe("/abs/y.db");
    expect(resolveStorePath("file:rel/y.db")).toBe(`${process.cwd()}/rel/y.db`);
    expect(resolveStorePath("/plain/z.db")).toBe("/plain/z.db");
    expect(resolveStorePath("plain.db")).toBe(`${process.cwd()}/plain.db`);
  });
});

describe("STORE_URL naming PostgreSQL", () => {
  test("is the postgres engine, shown without its password, with the pool size and migration role settings", () => {
    const c = loadConfig({
      env: {
        ...env,
        STORE_URL: "postgres://app:secret@db.internal:5432/engram?schema=tenant_a",
        STORE_POOL_SIZE: "25",
        STORE_MIGRATION_URL: "postgresql://owner:pw@db.internal/engram",
      },
    });
    expect([c.storeKind, c.storePath, c.storePoolSize]).toEqual([
      "postgres",
      "postgres://app:***@db.internal:5432/engram?schema=tenant_a",
      25,
    ]);
    expect(c.storeMigrationUrl).toBe("postgresql://owner:pw@db.internal/engram");
  });

  test("SQLite stays the default engine, with a pool of 10 that only PostgreSQL uses", () => {
    const c = loadConfig({ env });
    expect([c.storeKind, c.storePoolSize, c.storeMigrationUrl]).toEqual(["sqlite", 10, undefined]);
  });

  test("a URL without a database, or a migration URL of another engine, is refused before anything starts", () => {
    expect(() => loadConfig({ env: { ...env, STORE_URL: "postgres://app:pw@db" } })).toThrow(
      new ConfigError("STORE_URL: name the host and the database: postgres://user:pass@host:5432/db"),
    );
    expect(() =>
      loadConfig({ env: { ...env, STORE_URL: "postgres://a@db/x", STORE_MIGRATION_URL: "mysql://o@db/x" } }),
    ).toThrow(new ConfigError("STORE_MIGRATION_URL: must start with postgres:// or postgresql://"));
    expect(() => loadConfig({ env: { ...env, STORE_POOL_SIZE: "0" } })).toThrow(ConfigError);
  });
});

describe("LLM entity extraction settings", () => {
  test("are off by default and validated when given", () => {
    expect(loadConfig({ env }).extractor).toEqual({ model: "gpt-4o-mini" });
    expect(
      loadConfig({ env: { ...env, EXTRACTOR_LLM_BASE_URL: "http://127.0.0.1:8080/v1", EXTRACTOR_LLM_MODEL: "llama3" } })
        .extractor,
    ).toEqual({ baseUrl: "http://127.0.0.1:8080/v1", model: "llama3" });
    expect(() => loadConfig({ env: { ...env, EXTRACTOR_LLM_BASE_URL: "ftp://x" } })).toThrow(
      new ConfigError("EXTRACTOR_LLM_BASE_URL: 'ftp://x' must start with http:// or https://"),
    );
  });
});

describe("programmatic options", () => {
  const rejected: [string, Parameters<typeof loadConfig>[0], string][] = [
    ["a negative port", { env, options: { port: -1 } }, "port: invalid value -1; expected an integer from 0 to 65535"],
    [
      "500 search workers",
      { env, options: { searchWorkers: 500 } },
      "searchWorkers: invalid value 500; expected an integer from 0 to 64",
    ],
    [
      "a port given as text",
      { env, options: { port: "3000" as unknown as number } },
      "port: invalid value '3000'; expected an integer from 0 to 65535",
    ],
    [
      "an unknown log level",
      { env, options: { logLevel: "loud" as "info" } },
      "logLevel: invalid value 'loud'; expected debug, info, warn, error",
    ],
    [
      "a confidence above 1",
      { env, options: { factExtraction: { minConfidence: 2 } } },
      "factExtraction.minConfidence: invalid value 2; expected a number from 0 to 1",
    ],
    ["an empty organization", { env, options: { orgId: "" } }, "orgId: invalid value ''; expected a non-empty string"],
    [
      "an unknown option",
      { env, options: { prot: 1 } as never },
      "unknown option 'prot' (the settings are listed by --help)",
    ],
    [
      "an unknown nested option",
      { env, options: { auth: { enabeld: true } } as never },
      "unknown option 'auth.enabeld' (the settings are listed by --help)",
    ],
    [
      "an API key that is neither text nor a list of text",
      { env, options: { auth: { apiKey: 5 as unknown as string } } },
      "auth.apiKey: invalid value 5; expected a string or an array of strings",
    ],
  ];
  for (const [name, input, message] of rejected) {
    test(`are checked like flags: ${name} is refused`, () => {
      expect(() => loadConfig(input)).toThrow(new ConfigError(message));
    });
  }

  test("take every setting by its path, and the seed's names for three of them", () => {
    const c = loadConfig({
      env,
      options: {
        auth: { enabled: true, apiKey: "a, b" },
        embedding: { provider: "none" },
        logging: { verbose: true },
        graph: { enabled: true, uri: "bolt://localhost:7687" },
        searchWorkers: 0,
      },
    });
    expect(c.auth).toEqual({ enabled: true, apiKeys: ["a", "b"] });
    expect(c.embedding.model).toBe("none");
    expect(c.logLevel).toBe("debug");
    expect(c.graph).toEqual({ enabled: true, uri: "bolt://localhost:7687" });
    expect(c.searchWorkers).toBe(0);
  });

  test("a setting named directly wins over the seed's alias for it, whatever the order", () => {
    expect(loadConfig({ env, options: { logging: { verbose: true }, logLevel: "warn" } }).logLevel).toBe("warn");
    expect(loadConfig({ env, options: { logLevel: "warn", logging: { verbose: true } } }).logLevel).toBe("warn");
    expect(
      loadConfig({ env: { ...env, MCP_LOG_LEVEL: "error" }, options: { logging: { verbose: true } } }).logLevel,
    ).toBe("debug");
  });

  test("do not share arrays with the caller or with the defaults", () => {
    const origins = ["http://a.example"];
    const c = loadConfig({ env, options: { cors: { origins } } });
    origins.push("http://b.example");
    expect(c.cors.origins).toEqual(["http://a.example"]);
    loadConfig({ env }).auth.apiKeys.push("x");
    expect(loadConfig({ env }).auth.apiKeys).toEqual([]);
  });
});

describe("CORS settings", () => {
  test("are off by default, and origins from a flag, the environment or an option turn them on", () => {
    expect(loadConfig({ env }).cors).toEqual({ origins: [], enabled: false });
    expect(loadConfig({ env, argv: ["--cors-origins=http://localhost:*,https://app.example.com"] }).cors).toEqual({
      origins: ["http://localhost:*", "https://app.example.com"],
      enabled: true,
    });
    expect(loadConfig({ env: { ...env, ENGRAM_CORS_ORIGINS: "https://x.example" } }).cors.enabled).toBe(true);
    expect(loadConfig({ env, options: { cors: { origins: ["https://x.example"], enabled: false } } }).cors).toEqual({
      origins: ["https://x.example"],
      enabled: false,
    });
  });
});

describe("logging settings", () => {
  test("default to stderr, on, with no file", () => {
    expect(loadConfig({ env }).logging).toEqual({ enabled: true });
  });

  test("take a file from --log-file or ENGRAM_LOG_FILE", () => {
    expect(loadConfig({ env, argv: ["--log-file=/tmp/e.log"] }).logging).toEqual({
      enabled: true,
      logFile: "/tmp/e.log",
    });
    expect(loadConfig({ env: { ...env, ENGRAM_LOG_FILE: "/tmp/f.log" } }).logging.logFile).toBe("/tmp/f.log");
  });
});

describe("the settings table", () => {
  test("gives every setting a description, and no two settings one flag or variable", () => {
    expect(SETTINGS.filter((s) => !s.description).map((s) => s.key)).toEqual([]);
    const flags = SETTINGS.flatMap((s) => (s.flag ? [s.flag] : []));
    const envs = SETTINGS.flatMap((s) => (s.env ? [s.env] : []));
    expect(new Set(flags).size).toBe(flags.length);
    expect(new Set(envs).size).toBe(envs.length);
  });

  test("has a default or is optional for every setting, so the loaded config is complete", () => {
    const missing = SETTINGS.filter((s) => s.default === undefined && !s.computeDefault && !isOptional(s));
    expect(missing.map((s) => s.key)).toEqual([]);
  });
});
