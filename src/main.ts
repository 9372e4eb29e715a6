// Composition root: config → db → migrations → services → app → listen, plus graceful
// shutdown. The only place that picks implementations.
import type { Config } from "./config/config.schema";
import { ConfigError, loadConfig, type ServerOptions } from "./config/load-config";
import type { Repos, Store } from "./store/store";
import { openSqliteStore, PAGE_CACHE_MB } from "./store/sqlite/sqlite-store";
import { createLogger, fileSink, noSink, stderrSink, type Logger } from "./shared/logger";
import { systemClock, type Clock } from "./shared/clock";
import { RankPool } from "./search/rank-pool";
import { SearchService, type SearchTuning } from "./search/search.service";
import type { Embedder } from "./search/embedder";
import { RemoteEmbedder } from "./search/remote-embedder";
import { TransformersEmbedder } from "./search/transformers-embedder";
import { ModelSwitch } from "./search/model-switch";
import { isHubModelId, isPulled } from "./search/model/pull";
import { GLOVE_SIF_MODEL_ID } from "./search/model/build-glove-sif";
import { installBuiltinModel } from "./search/model/builtin-model";
import { builtinKnownWords } from "./search/model/known-words";
import { MemoryService } from "./memory/memory.service";
import { MemoryCaches } from "./memory/memory-caches";
import { MemoryPurger } from "./memory/purger";
import { SpacesService } from "./spaces/spaces.service";
import { SharedMemory } from "./spaces/shared-memory";
import { RuleFactExtractor } from "./facts/fact-extractor";
import { ruleRecogniser, type FactRecogniser } from "./facts/fact-recogniser";
import { FallbackRecogniser, LlmFactRecogniser } from "./facts/llm-fact-recogniser";
import { ConversationsService } from "./layers/conversations.service";
import { ImmutableService } from "./layers/immutable.service";
import { MutableService } from "./layers/mutable.service";
import { GovernanceService } from "./governance/governance.service";
import { SessionsService } from "./sessions/sessions.service";
import { KeysService } from "./identity/keys.service";
import { DeferredWrites } from "./shared/deferred-writes";
import { RequestLimits } from "./identity/request-limits";
import { OidcVerifier } from "./identity/oidc";
import { RequestAudit } from "./identity/request-audit";
import { GraphService } from "./graph/graph.service";
import { EmbeddedGraph } from "./graph/embedded-graph";
import { MirroredGraph } from "./graph/mirrored-graph";
import { RuleExtractor } from "./graph/extract-rules";
import { FallbackExtractor, LlmExtractor } from "./graph/llm-extractor";
import type { EntityExtractor } from "./graph/extract";
import type { GraphStore } from "./graph/graph-store";
import { createApp } from "./app";
import { listen } from "./http/listener";
import type { Services } from "./services";
import { VERSION } from "./version";

/** The engine's maintenance of a store file (engram check, engram repair) and its refusal to open one. */
export { checkStore } from "./store/sqlite/check";
export { probeSqlite } from "./store/sqlite/connection";
export { repairStore } from "./store/sqlite/repair";
export { StoreFileError } from "./store/sqlite/store-file";

/** `engram doctor` on a PostgreSQL store: connects once (the driver loads only then). */
export async function probePostgres(url: string): Promise<{ writable: boolean; detail: string }> {
  return (await import("./store/postgres/postgres-store")).probePostgres(url);
}

export interface BuildOptions {
  clock?: Clock;
  logger?: Logger;
  /** Replaces the configured embedder (tests); null = keyword only. */
  embedder?: Embedder | null;
  /**
   * Resolve before the embedding model has loaded; default false. startServer then starts the load
   * once it listens (a search or write before that starts it too, and waits for it).
   */
  background?: boolean;
  /** Search tuning for measurements (scripts/eval-locomo.ts); never set by the server. */
  searchTuning?: SearchTuning;
}

export interface Engine extends Services {
  store: Store;
  /** The configured model's background download and switch, when it was not in the models folder. */
  models: ModelSwitch | null;
  close(): Promise<void>;
}

export async function buildServices(config: Config, o: BuildOptions = {}): Promise<Engine> {
  const logger = o.logger ?? loggerFor(config);
  const clock = o.clock ?? systemClock;
  const store = await openStore(config, logger);
  // A hub model not in the models folder yet: the built-in model serves while it downloads (SPEC §4).
  const download = o.embedder === undefined ? modelToDownload(config) : null;
  const embedder =
    o.embedder !== undefined
      ? o.embedder
      : await createEmbedder(download ? withModel(config, GLOVE_SIF_MODEL_ID) : config);
  // The built-in model's vocabulary tells real words from typos, whichever model embeds (built or unpacked once).
  const knownWords = () => builtinKnownWords(config.modelsDir, new URL("./words-worker.ts", import.meta.url).href);
  const search = new SearchService(store, embedder, logger, o.searchTuning, knownWords);
  const models = download
    ? new ModelSwitch({
        id: download,
        modelsDir: config.modelsDir,
        hub: config.modelHub,
        search,
        load: () => localEmbedder(config, download),
        logger,
      })
    : null;
  const workers = startSearchWorkers(config, store, search, logger);
  if (!o.background) await Promise.all([search.start(), workers]);
  const graph = new GraphService(await createGraphStore(config, store, clock), createExtractor(config, logger), logger);
  // Beneath memory and governance, which both delete memories: rows, vectors, graph links, caches.
  const caches = new MemoryCaches(store, clock, search);
  const purger = new MemoryPurger(search, graph, caches);
  // The request path's bookkeeping (audit rows, rate-limit counts, keys' last use) in one periodic commit.
  const writes = new DeferredWrites<Repos>(store);
  const governance = new GovernanceService({ store, clock, logger, orgId: config.orgId, purger, writes });
  // Every layer's writes earn, and its deletes honour, the minimum retention (SPEC §5.4).
  const floor = governance.policies;
  const conversations = new ConversationsService(store, clock, floor);
  const immutable = new ImmutableService(store, clock, floor);
  const mutable = new MutableService(store, clock, floor);
  const sessions = new SessionsService(store, clock, governance.policies);
  const facts = {
    extractor: new RuleFactExtractor(),
    minConfidence: config.factExtraction.minConfidence,
    auto: config.factExtraction.enabled && config.factExtraction.autoExtract,
  };
  const hooks = {
    facts,
    conversations,
    graph,
    recogniser: createRecogniser(config, logger),
    gate: governance.policies,
    retention: governance.erasure,
    floor,
    erasure: governance.erasure,
  };
  const memory = new MemoryService({ store, search, clock, logger, caches, purger, hooks });
  const spaces = new SpacesService({ store, clock, memory, caches, graph, floor });
  const shared = new SharedMemory(memory, spaces);
  const keys = new KeysService(store, clock, logger, writes);
  const limits = new RequestLimits(store, config.rateLimit, writes);
  const tokens = oidcVerifierOf(config);
  const audit = new RequestAudit(store, clock, () => governance.audit.flush());
  return {
    config,
    logger,
    version: VERSION,
    store,
    storeStatus: async () => ({ kind: store.kind, reachable: await store.reachable() }),
    search,
    memory,
    spaces,
    shared,
    conversations,
    immutable,
    mutable,
    governance,
    sessions,
    graph,
    keys,
    limits,
    ...(tokens ? { tokens } : {}),
    audit,
    models,
    close: once(async () => {
      await models?.close();
      // Audit rows, rate-limit counts and keys' last use still buffered: their one shared commit.
      await writes.close();
      await (await workers)?.close();
      await graph.close().catch(() => {});
      await embedder?.close?.();
      for (const retired of search.retired) await retired.close?.();
      await store.close();
    }),
  };
}

/** The OIDC verifier when an issuer is configured (SPEC §8 SSO). */
function oidcVerifierOf(config: Config): OidcVerifier | undefined {
  const { issuer, org, defaultRole, ...rest } = config.oidc;
  if (!issuer) return undefined;
  return new OidcVerifier({ issuer, ...rest, ...(org ? { org } : {}), ...(defaultRole ? { defaultRole } : {}) });
}

/** The first call runs `fn`; every call, the first's included, gets its promise. */
function once(fn: () => Promise<void>): () => Promise<void> {
  const run: { promise?: Promise<void> } = {};
  return () => (run.promise ??= fn());
}

/**
 * The identity keys of a store without the rest of the engine (no model, no workers): `engram keys`,
 * which may run while servers use the same store.
 */
export async function openKeys(config: Config): Promise<{ keys: KeysService; close(): Promise<void> }> {
  const logger = loggerFor(config);
  const store = await openStore(config, logger);
  const writes = new DeferredWrites<Repos>(store);
  const keys = new KeysService(store, systemClock, logger, writes);
  return {
    keys,
    close: async () => {
      await writes.close();
      await store.close();
    },
  };
}

/** The logger the settings ask for: level, on or off, stderr or a file. */
export function loggerFor(config: Config): Logger {
  const { enabled, logFile } = config.logging;
  return createLogger(config.logLevel, !enabled ? noSink : logFile ? logFileSink(logFile) : stderrSink);
}

function logFileSink(path: string) {
  try {
    return fileSink(path);
  } catch (e) {
    throw new ConfigError(
      `ENGRAM_LOG_FILE: cannot write '${path}' (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
}

/** How every connection of this server opens the store: the same SQLite library and vector index. */
export const connectionOptions = (config: Config) => ({
  nativeCacheDir: config.cacheDir,
  vectorIndex: config.vectorIndex,
  sqliteLib: config.sqliteLib,
});

/** The engine STORE_URL names: a SQLite file (the embedded default) or PostgreSQL (SPEC §9). */
async function openStore(config: Config, logger: Logger): Promise<Store> {
  if (config.storeKind === "sqlite")
    return openSqliteStore({
      path: config.storePath,
      ...connectionOptions(config),
      cacheMb: usesSearchWorkers(config) ? PAGE_CACHE_MB.shared : PAGE_CACHE_MB.alone,
      homeOrg: config.orgId,
      logger,
    });
  // Loaded only when configured, like Neo4j's driver.
  const { openPostgresStore } = await import("./store/postgres/postgres-store");
  return openPostgresStore({
    url: config.storeUrl,
    migrationUrl: config.storeMigrationUrl,
    poolSize: config.storePoolSize,
    homeOrg: config.orgId,
    logger,
  });
}

/**
 * Search workers need a store file: a worker cannot open another connection's ":memory:". On PostgreSQL
 * the database ranks (tsvector, pgvector): a worker thread would only wait on the network, so there are
 * none — a node scales by its connection pool, and the service by more nodes.
 */
const usesSearchWorkers = (config: Config) =>
  config.storeKind === "sqlite" && config.searchWorkers > 0 && config.storePath !== ":memory:";

/** Until the workers run, and if they cannot start (logged as an error), the server thread ranks: same code, same results. */
async function startSearchWorkers(
  config: Config,
  store: Store,
  search: SearchService,
  logger: Logger,
): Promise<RankPool | null> {
  if (!usesSearchWorkers(config)) return null;
  try {
    const pool = await RankPool.open({
      workerUrl: new URL("./rank-worker.ts", import.meta.url).href,
      size: config.searchWorkers,
      path: config.storePath,
      ...connectionOptions(config),
      logger,
    });
    search.useWorkers(pool);
    store.leaveCheckpointsToWorkers();
    return pool;
  } catch (e) {
    logger.error("search workers could not start; searches rank on the server thread", { error: (e as Error).message });
    return null;
  }
}

/** Remote provider when EMBEDDING_API_KEY is set; none for 'none'; else a local transformers.js model. */
export async function createEmbedder(config: Config): Promise<Embedder | null> {
  const e = config.embedding;
  if (e.apiKey) return new RemoteEmbedder({ apiKey: e.apiKey, baseUrl: e.baseUrl, model: e.remoteModel });
  if (e.model === "none") return null;
  const builtin = e.model === GLOVE_SIF_MODEL_ID;
  if (!builtin) return localEmbedder(config, e.model);
  return new TransformersEmbedder({
    modelId: e.model,
    modelsDir: config.modelsDir,
    allowRemote: false,
    nativeCacheDir: config.cacheDir,
    // Built (≈2 s) or unpacked once per machine, as the first step of the load: a failure leaves search keyword-only and /health degraded.
    ...(builtin ? { prepare: () => installBuiltinModel(config.modelsDir) } : {}),
  });
}

/** A model from the models folder (or a folder path); a hub model gets there by `engram models pull` or the background download. */
function localEmbedder(config: Config, modelId: string): Embedder {
  return new TransformersEmbedder({
    modelId,
    modelsDir: config.modelsDir,
    allowRemote: false,
    nativeCacheDir: config.cacheDir,
  });
}

/** The configured local model when it is a hub model that is not in the models folder yet. */
export function modelToDownload(config: Config): string | null {
  const e = config.embedding;
  if (e.apiKey || e.model === "none" || e.model === GLOVE_SIF_MODEL_ID) return null;
  return isHubModelId(e.model) && !isPulled(config.modelsDir, e.model) ? e.model : null;
}

const withModel = (config: Config, model: string): Config => ({ ...config, embedding: { ...config.embedding, model } });

/** Rules by default; an OpenAI-compatible LLM when configured, falling back to the rules (logged) when it fails. */
function createExtractor(config: Config, logger: Logger): EntityExtractor {
  const rules = new RuleExtractor();
  const x = config.extractor;
  if (!x.baseUrl) return rules;
  const llm = new LlmExtractor({ baseUrl: x.baseUrl, apiKey: x.apiKey, model: x.model });
  return new FallbackExtractor(llm, rules, (e) =>
    logger.warn("LLM entity extraction failed; used the rules", { error: (e as Error).message }),
  );
}

/** Which facts a memory states (SPEC §11): the rules, or the configured LLM with the rules as its fallback. */
function createRecogniser(config: Config, logger: Logger): FactRecogniser {
  const x = config.extractor;
  if (!x.baseUrl) return ruleRecogniser;
  return new FallbackRecogniser(
    new LlmFactRecogniser({ baseUrl: x.baseUrl, apiKey: x.apiKey, model: x.model }),
    ruleRecogniser,
    (e) => logger.warn("LLM fact recognition failed; used the rules", { error: (e as Error).message }),
  );
}

/** The embedded graph always; with GRAPH_DB_ENABLED mirrored into Neo4j, where traversal runs. */
async function createGraphStore(config: Config, store: Store, clock: Clock): Promise<GraphStore> {
  const sqlite = new EmbeddedGraph(store, clock);
  const g = config.graph;
  if (!g.enabled || !g.uri) return sqlite;
  // Loaded only when configured: importing neo4j-driver costs ~120 ms of start-up.
  const { Neo4jGraph } = await import("./graph/neo4j-graph");
  return new MirroredGraph(
    sqlite,
    new Neo4jGraph({ uri: g.uri, user: g.user ?? "neo4j", password: g.password ?? "", clock }),
  );
}

export interface RunningServer {
  url: string;
  port: number;
  services: Engine;
  /** Resolves once the embedding model has loaded or failed (see services.search.status()). */
  ready: Promise<void>;
  /** Answers what clients already sent, refuses new connections, cuts what still runs after `drainMs` (default 10 s), closes the store. */
  stop(o?: { drainMs?: number }): Promise<void>;
}

/** Starts serving; `stop()` finishes in-flight requests, then closes the database. */
export async function startServer(config: Config, o: BuildOptions = {}): Promise<RunningServer> {
  const services = await buildServices(config, o);
  try {
    await checkSomeoneCanSignIn(config, services);
  } catch (e) {
    await services.close();
    throw e;
  }
  const { handle, close: closeStreams } = createApp(services);
  const server = listen({
    hostname: config.host,
    port: config.port,
    fetch: handle,
    logger: services.logger,
  });
  const host = config.host.includes(":") && !config.host.startsWith("[") ? `[${config.host}]` : config.host;
  const url = `http://${host}:${server.port}`;
  // The model load is CPU-bound on this thread: it starts after one turn of the event loop, so the
  // requests already waiting (a health probe) are answered first, and /health says "loading" meanwhile.
  let stopping: Promise<void> | null = null;
  const ready = new Promise((resolve) => setImmediate(resolve)).then(() =>
    stopping ? undefined : services.search.start(),
  );
  // The configured model's download, if any: in the background, never awaited by a request.
  void ready.then(() => (stopping ? undefined : services.models?.start()));
  // Then, in the background: vectors for memories stored under another model (or while the model was down).
  void ready
    .then(() => (stopping ? 0 : services.search.reembedMissing()))
    .catch((e) => services.logger.error("re-embedding failed", { error: (e as Error).message }));
  return {
    url,
    port: server.port,
    services,
    ready,
    stop: (stop = {}) =>
      (stopping ??= (async () => {
        await closeStreams();
        await server.stop(stop.drainMs);
        await services.close();
      })()),
  };
}

/**
 * With auth on, a server needs a way in: a shared key (MCP_API_KEY), an identity key in the store
 * (`engram keys create`, SPEC §8), or an OIDC issuer. Without any, every request would be a 401.
 */
async function checkSomeoneCanSignIn(config: Config, services: Engine): Promise<void> {
  if (!config.auth.enabled || config.auth.apiKeys.length > 0 || config.oidc.issuer) return;
  if ((await services.keys.usableCount()) > 0) return;
  throw new ConfigError(
    "MCP_API_KEY: auth is on but nothing can sign in: pass --api-key=<key>, set MCP_API_KEY, or create a key " +
      "first with `engram keys create --org <org> --role admin` on this store",
  );
}

/** The seed's programmatic API: createServer(options) → { url, port, stop() }. */
export async function createServer(
  options: ServerOptions = {},
): Promise<{ url: string; port: number; stop(): Promise<void> }> {
  const { url, port, stop } = await startServer(loadConfig({ options, env: process.env }));
  return { url, port, stop };
}

export { MismatchError, migrateStore, TargetNotEmptyError, type TransferReport } from "./store/transfer";
export type { Endpoint as StoreEndpoint } from "./store/transfer-tables";

/** One end of `engram migrate-store`: a SQLite file or a PostgreSQL URL, opened for a whole-store copy. */
export async function storeEndpoint(
  at: { sqlite: string } | { postgres: string },
  o: { cacheDir: string; homeOrg: string; logger: Logger },
): Promise<import("./store/transfer-tables").Endpoint> {
  if ("postgres" in at) return (await import("./store/postgres/transfer-side")).postgresEndpoint(at.postgres, o);
  return (await import("./store/sqlite/transfer-side")).sqliteEndpoint(at.sqlite, {
    nativeCacheDir: o.cacheDir,
    homeOrg: o.homeOrg,
    logger: o.logger,
  });
}
